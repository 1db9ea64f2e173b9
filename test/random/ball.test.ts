/**
 * random.ball: its key order (k1, k2 = split(key); g = generalizedNormal(k1, p, shape + [d]),
 * e = exponential(k2, shape), g/(Σ|g|^p + e)^(1/p)), points inside the ball, and goodness of
 * fit with KS at fixed keys (n = 20000 points, rejecting at ALPHA = 1e-6, see test/stats.ts):
 * the radius R = ‖x‖_p has R^d uniform on [0, 1] (p = 1, 1.5, 2, 3; d = 1, 2, 3, 5), and
 * single coordinates have the known marginals of the uniform L2 ball in 3-D, (3/4)(1 − t²), and
 * of the L1 ball in 2-D, 1 − |t|; float64 and float32; shapes and bad input.
 */
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { ball } from '../../src/random/ball.js';
import { generalizedNormal } from '../../src/random/generalized-normal.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue, ksUniformPValue } from '../stats.js';

const radii = (x: ArrayLike<number>, d: number, p: number) =>
  Float64Array.from({ length: x.length / d }, (_, i) => {
    let s = 0;
    for (let j = 0; j < d; j++) s += Math.abs(x[i * d + j]!) ** p;
    return s ** (1 / p);
  });

describe('random.ball', () => {
  it('is g/(Σ|g|^p + e)^(1/p) with k1, k2 = split(key)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(31);
        const [k1, k2] = random.split(key);
        for (const p of [2, 1.5]) {
          const g = generalizedNormal(k1!, p, [4, 3]).data;
          const e = random.exponential(k2!, [4]).data;
          const x = ball(key, 3, p, [4]).data;
          for (let i = 0; i < 4; i++) {
            let s = 0;
            for (let j = 0; j < 3; j++) s += Math.abs(g[3 * i + j]!) ** p;
            const norm = (s + e[i]!) ** (1 / p);
            for (let j = 0; j < 3; j++) expect(Math.abs(x[3 * i + j]! - g[3 * i + j]! / norm)).toBeLessThanOrEqual(m.x64 ? 1e-15 : 1e-6);
          }
        }
      });
    }
  });

  it.each([[1, 2], [2, 3], [3, 1.5], [5, 2], [2, 1], [3, 3]] as const)('d = %s, p = %s: inside the ball, R^d uniform (KS, n = 20000)', (d, p) => {
    for (const [i, m] of [ALL_MODES[0], ALL_MODES[3]].entries()) {
      withModes(m, () => {
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const x = ball(random.key(700 + i), d, p, [20000], { dtype }).data;
          const r = radii(x, d, p);
          expect(r.every((v) => v <= 1 + 1e-6)).toBe(true);
          expect(ksUniformPValue(r.map((v) => v ** d))).toBeGreaterThan(ALPHA);
        }
      });
    }
  });

  it('coordinate marginals: (3/4)(1 − t²) for the 3-D L2 ball, 1 − |t| for the 2-D L1 ball (KS, n = 20000)', () => {
    const l2 = ball(random.key(9), 3, 2, [20000]).data;
    const x1 = Float64Array.from({ length: 20000 }, (_, i) => l2[3 * i + 1]!);
    expect(ksPValue(x1, (t) => (t <= -1 ? 0 : t >= 1 ? 1 : 0.5 + 0.75 * (t - t ** 3 / 3)))).toBeGreaterThan(ALPHA);
    const l1 = ball(random.key(10), 2, 1, [20000], { dtype: 'float32' }).data;
    const y0 = Float64Array.from({ length: 20000 }, (_, i) => l1[2 * i]!);
    expect(ksPValue(y0, (t) => (t <= -1 ? 0 : t >= 1 ? 1 : t < 0 ? (1 + t) ** 2 / 2 : 1 - (1 - t) ** 2 / 2))).toBeGreaterThan(ALPHA);
  });

  it('shapes and bad input', () => {
    const key = random.key(0);
    expect(ball(key, 3).shape).toEqual([3]);
    expect(ball(key, 2, 1, [5]).shape).toEqual([5, 2]);
    expect(ball(key, 0, 2, [4]).shape).toEqual([4, 0]);
    expect(() => ball(key, -1)).toThrow(/random\.ball: `d`/);
    expect(() => ball(key, 1.5)).toThrow(TypeError);
    expect(() => ball(key, 2, 0)).toThrow(/random\.ball: `p`/);
    expect(() => ball(key, 2, 2, [-1])).toThrow(RangeError);
  });
});

describe('random.ball sizes (issue 18)', () => {
  it('checks the whole result, shape × d, against the size limit', () => {
    expect(() => random.ball(random.key(0), 1000, 2, [1e6])).toThrow(/^random\.ball: `shape` asks for 1000000000 elements, more than the limit of 268435456/);
  });
});
