/**
 * random.categorical: JAX's Gumbel-max construction (checked against random.gumbel), shapes and
 * axes, −∞ logits, sampling without replacement, goodness of fit and bad input. jax-random.md
 * has no categorical known-answer row.
 *
 * Statistics: chi-square of category counts against softmax(logits) (computed in the test), at
 * fixed keys, n = 60 000 draws per case (first draws without replacement: 30 000 batch
 * entries; ordered pairs: 40 000), rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { categorical } from '../../src/random/categorical.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';
import { numbers } from './discrete-gof.js';

const softmax = (l: number[]) => {
  const m = Math.max(...l);
  const e = l.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
};
const histogram = (x: number[], K: number) => {
  const c = new Array<number>(K).fill(0);
  for (const v of x) c[v]!++;
  return c;
};

describe('random.categorical construction (§6.6)', () => {
  it('with replacement: argmax over the category axis of gumbel(key, prefix + logits shape) + logits', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const r = m.x64 ? (v: number) => v : Math.fround;
        const logits = [[0.5, -1, 2, 0], [1, 1, 1, -Infinity]];
        for (const mode of ['low', 'high'] as const) {
          const got = numbers(categorical(random.key(11), logits, { shape: [3, 2], mode }).data);
          const g = random.gumbel(random.key(11), [3, 2, 4], { mode }).data;
          const want: number[] = [];
          for (let s = 0; s < 3; s++) {
            for (let b = 0; b < 2; b++) {
              const z = logits[b]!.map((l, c) => r(g[(s * 2 + b) * 4 + c]! + r(l)));
              want.push(z.indexOf(Math.max(...z)));
            }
          }
          expect(got).toEqual(want);
        }
      });
    }
  });

  it('axis 0: the category axis is inserted in place, batch shape is the rest', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const logits = [[0, 5], [1, -1], [2, 0.5]];            // 3 categories along axis 0, batch [2]
      const t = categorical(random.key(5), logits, { axis: 0, shape: [4, 2] });
      expect(t.shape).toEqual([4, 2]);
      const g = random.gumbel(random.key(5), [4, 3, 2]).data;
      const want: number[] = [];
      for (let s = 0; s < 4; s++) {
        for (let b = 0; b < 2; b++) {
          const z = [0, 1, 2].map((c) => g[(s * 3 + c) * 2 + b]! + logits[c]![b]!);
          want.push(z.indexOf(Math.max(...z)));
        }
      }
      expect(numbers(t.data)).toEqual(want);
      expect(categorical(random.key(5), logits, { axis: 0 }).shape).toEqual([2]);
      expect(categorical(random.key(5), logits, { axis: -1 }).shape).toEqual([3]);
    });
  });

  it('without replacement: top-k of logits + gumbel(key, logits.shape), result[j, b] = b\'s j-th pick (int32)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const r = m.x64 ? (v: number) => v : Math.fround;
        const logits = [[0.1, 0.2, 0.3, 0.4, 0.5], [2, -1, 0, -Infinity, 1]];
        const t = categorical(random.key(21), logits, { shape: [3, 2], replace: false });
        expect(t.dtype).toBe('int32');
        expect(t.shape).toEqual([3, 2]);
        const g = random.gumbel(random.key(21), [2, 5]).data;
        const got = numbers(t.data);
        for (let b = 0; b < 2; b++) {
          const z = logits[b]!.map((l, c) => r(g[b * 5 + c]! + r(l)));
          const order = [0, 1, 2, 3, 4].sort((x, y) => z[y]! - z[x]! || x - y);
          expect([got[b], got[2 + b], got[4 + b]]).toEqual(order.slice(0, 3));
        }
      });
    }
  });

  it('without replacement, −∞ categories come only after every finite one, in index order (as JAX)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        for (let seed = 0; seed < 20; seed++) {
          const d = numbers(categorical(random.key(seed), [-Infinity, 0.3, -Infinity, -2, -Infinity], { shape: [5], replace: false }).data);
          expect(new Set(d.slice(0, 2))).toEqual(new Set([1, 3]));
          expect(d.slice(2)).toEqual([0, 2, 4]);
        }
      });
    }
  });

  it('default dtype int64 in x64 mode, int32 in x32; shape [] for 1-D logits', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const t = categorical(random.key(1), [1, 2, 3]);
      expect(t.dtype).toBe('int64');
      expect(t.shape).toEqual([]);
    });
    withModes({ x64: false, threefryPartitionable: true }, () => {
      expect(categorical(random.key(1), [1, 2, 3], { shape: [4] }).dtype).toBe('int32');
    });
    expect(categorical(random.key(1), tensor([[1, 2], [3, 4]], 'float32'), { shape: [5, 2] }).shape).toEqual([5, 2]);
    expect(categorical(random.key(1), [[1, 2]], { shape: [3] }).shape).toEqual([3]);   // batch [1] broadcasts to [3]
    expect(categorical(random.key(1), [1, 2], { shape: [0] }).shape).toEqual([0]);
  });
});

describe('random.categorical statistics (chi-square against softmax, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('with replacement, −∞ never drawn, in %s (n = 60 000)', (_, m) => {
    withModes(m, () => {
      const logits = [0, Math.log(2), Math.log(3), -Infinity, -1];
      const probs = softmax(logits);
      for (const mode of ['low', 'high'] as const) {
        const x = numbers(categorical(random.key(1234), logits, { shape: [60000], mode }).data);
        const c = histogram(x, 5);
        expect(c[3]).toBe(0);
        expect(chiSquarePValue([c[0]!, c[1]!, c[2]!, c[4]!], [probs[0]!, probs[1]!, probs[2]!, probs[4]!])).toBeGreaterThan(ALPHA);
      }
    });
  });

  it('very unequal logits: a category with logit −20 relative is drawn about e^−20 of the time', () => {
    const x = numbers(categorical(random.key(99), [0, -20], { shape: [60000] }).data);
    expect(x.filter((v) => v === 1).length).toBeLessThanOrEqual(2);
  });

  it('without replacement: draws are distinct, first draws follow softmax, ordered pairs follow p_i p_j / (1 − p_i)', () => {
    for (const m of [ALL_MODES[0], ALL_MODES[3]]) {
      withModes(m, () => {
        const l = [0.3, -0.5, 1.2, -Infinity, 0];
        const probs = softmax(l);
        const B = 30000;
        const logits = Array.from({ length: B }, () => l);
        const t = categorical(random.key(77), logits, { shape: [3, B], replace: false });
        const d = numbers(t.data);
        const first: number[] = [], pairs = new Array<number>(25).fill(0);
        for (let b = 0; b < B; b++) {
          const [a, c, e] = [d[b]!, d[B + b]!, d[2 * B + b]!];
          expect(new Set([a, c, e]).size).toBe(3);
          expect([a, c, e].includes(3)).toBe(false);
          first.push(a);
          pairs[a * 5 + c]!++;
        }
        const c = histogram(first, 5);
        expect(chiSquarePValue([c[0]!, c[1]!, c[2]!, c[4]!], [probs[0]!, probs[1]!, probs[2]!, probs[4]!])).toBeGreaterThan(ALPHA);
        const cells: number[] = [], expectP: number[] = [];
        for (const i of [0, 1, 2, 4]) {
          for (const j of [0, 1, 2, 4]) {
            if (i === j) continue;
            cells.push(pairs[i * 5 + j]!);
            expectP.push(probs[i]! * probs[j]! / (1 - probs[i]!));
          }
        }
        expect(chiSquarePValue(cells, expectP)).toBeGreaterThan(ALPHA);
      });
    }
  });
});

describe('random.categorical bad input', () => {
  it('names the function and the argument', () => {
    const k = random.key(0);
    expect(() => categorical(k, [1, NaN])).toThrow(/random\.categorical: `logits` must not be NaN or \+Infinity/);
    expect(() => categorical(k, [1, Infinity])).toThrow(RangeError);
    expect(() => categorical(k, [[0, 1], [-Infinity, -Infinity]])).toThrow(/random\.categorical: `logits`.*-Infinity/);
    expect(() => categorical(k, [])).toThrow(/random\.categorical: `logits`/);
    expect(() => categorical(k, 3 as never)).toThrow(TypeError);
    expect(() => categorical(k, ['a'] as never)).toThrow(TypeError);
    expect(() => categorical(k, tensor([1, 2], 'int32'))).toThrow(/random\.categorical: `logits` must be a float tensor/);
    expect(() => categorical(k, [1, 2], { axis: 1 })).toThrow(/random\.categorical: `axis`/);
    expect(() => categorical(k, [[1, 2], [3, 4]], { shape: [3] })).toThrow(/random\.categorical: .*`shape`/);
    expect(() => categorical(k, [1, 2, 3], { shape: [4], replace: false })).toThrow(/random\.categorical: `shape` asks for 4 draws/);
    expect(() => categorical(k, [[1, 2]], { shape: [1, 3], replace: false })).toThrow(/random\.categorical: `shape`/);
    expect(() => categorical(k, [1, 2], { replace: 1 as never })).toThrow(/random\.categorical: `replace`/);
    expect(() => categorical(k, [1, 2], { mode: 'highest' as never })).toThrow(/random\.categorical: `mode`/);
    expect(() => categorical('k' as never, [1, 2])).toThrow(/random\.categorical: `key`/);
  });
});
