/**
 * random.generalizedNormal: its key order (keys = split(key); gamma(keys[0], 1/p), a Rademacher
 * sign from keys[1] = 2·bernoulli(keys[1], 0.5) − 1 with float64 draws in x64 mode),
 * goodness of fit with KS at fixed keys (n = 20000, rejecting at ALPHA = 1e-6, see
 * test/stats.ts) against the generalized-normal CDF ½ + sign(x)·½·P(1/p, |x|^p) built from
 * @stdlib's gamma CDF, for p = 0.5, 1.5, 2 and 8 in float64 and float32, plus p = 2 against
 * @stdlib's normal CDF with σ = 1/√2; bad input.
 */
import { describe, expect, it } from 'vitest';
import gammaCdf from '@stdlib/stats-base-dists-gamma-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import * as random from '../../src/random/index.js';
import { gamma } from '../../src/random/gamma.js';
import { generalizedNormal } from '../../src/random/generalized-normal.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

const gnCdf = (x: number, p: number) => 0.5 + Math.sign(x) * 0.5 * gammaCdf(Math.abs(x) ** p, 1 / p, 1);

describe('random.generalizedNormal', () => {
  it('is ±gamma(keys[0], 1/p)^(1/p), the sign + where bernoulli(keys[1], 0.5)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(21);
        const [kg, ks] = random.split(key);
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const g = gamma(kg!, 1 / 1.5, [200], { dtype }).data;
          const b = random.bernoulli(ks!, 0.5, [200]).data;     // a Python-float p: float64 draws in x64 mode
          const x = generalizedNormal(key, 1.5, [200], { dtype }).data;
          x.forEach((v, i) => {
            const want = (b[i] ? 1 : -1) * g[i]! ** (dtype === 'float32' ? Math.fround(1 / 1.5) : 1 / 1.5);
            expect(Math.abs(v - want)).toBeLessThanOrEqual((dtype === 'float32' ? 2.4e-7 : 1e-15) * Math.abs(want));
          });
        }
      });
    }
  });

  it.each([0.5, 1.5, 2, 8])('KS against the generalized-normal CDF, p = %s, n = 20000', (p) => {
    for (const [i, m] of [ALL_MODES[0], ALL_MODES[3]].entries()) {
      withModes(m, () => {
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const x = generalizedNormal(random.key(600 + i), p, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => gnCdf(v, p))).toBeGreaterThan(ALPHA);
        }
      });
    }
  });

  it('p = 2 is a normal with variance ½ (KS against @stdlib normal CDF, n = 20000)', () => {
    const x = generalizedNormal(random.key(7), 2, [20000]).data;
    expect(ksPValue(x, (v) => normalCdf(v, 0, Math.SQRT1_2))).toBeGreaterThan(ALPHA);
  });

  it('shapes and bad input', () => {
    const key = random.key(0);
    expect(generalizedNormal(key, 1).shape).toEqual([]);
    expect(generalizedNormal(key, 1, [2, 3]).shape).toEqual([2, 3]);
    for (const bad of [0, -1, NaN, Infinity]) expect(() => generalizedNormal(key, bad)).toThrow(/random\.generalizedNormal: `p` must be positive/);
    expect(() => generalizedNormal(key, '2' as never)).toThrow(TypeError);
    expect(() => generalizedNormal(key, 2, [-1])).toThrow(RangeError);
  });
});
