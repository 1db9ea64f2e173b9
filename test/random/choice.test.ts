import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { associativeCumsum } from '../../src/random/cumsum.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

const nums = (t: { data: ArrayLike<number | bigint> }) => Array.from(t.data, Number);

describe('associativeCumsum', () => {
  it('gives exact prefix sums for integers of any length', () => {
    for (let n = 0; n < 40; n++) {
      const x = Array.from({ length: n }, (_, i) => i * i + 1);
      let s = 0;
      expect(associativeCumsum(x, (v) => v)).toEqual(x.map((v) => (s += v)));
    }
  });

  it('adds in the associative-scan tree, not left to right (float32)', () => {
    // [1, 2^-24, 2^-24, 2^-24]: left to right stays 1 (each 2^-24 rounds away), but the scan adds
    // the pair (2^-24 + 2^-24) before adding it to 1 for the last prefix.
    const r = associativeCumsum([1, 2 ** -24, 2 ** -24, 2 ** -24], Math.fround);
    expect(r).toEqual([1, 1, 1, 1 + 2 ** -23]);
  });
});

describe('random.choice', () => {
  it('draws with replacement as randint(key, shape, 0, n)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        expect(nums(random.choice(random.key(5), 7, [3, 4]))).toEqual(nums(random.randint(random.key(5), [3, 4], 0, 7)));
      });
    }
  });

  it('draws without replacement as a permutation prefix', () => {
    const c = random.choice(random.key(5), 10, [2, 3], { replace: false });
    expect(c.shape).toEqual([2, 3]);
    expect(nums(c)).toEqual(nums(random.permutation(random.key(5), 10)).slice(0, 6));
  });

  it('chooses slices of an array along an axis', () => {
    const a = tensor([[1, 2, 3], [4, 5, 6]]);
    const c = random.choice(random.key(3), a, [4], { axis: 1 });
    expect(c.shape).toEqual([2, 4]);
    const idx = nums(random.randint(random.key(3), [4], 0, 3));
    expect(c.toArray()).toEqual([idx.map((j) => [1, 2, 3][j]), idx.map((j) => [4, 5, 6][j])]);
    expect(random.choice(random.key(3), a, [], { axis: 0 }).shape).toEqual([3]);
  });

  it('returns an empty result for zero draws', () => {
    expect(random.choice(random.key(0), 5, [0]).shape).toEqual([0]);
  });

  it.each([
    ['with replacement', true], ['without replacement', false],
  ] as const)('follows p %s (first draw over 20000 keys, chi-square, alpha 1e-6)', (_, replace) => {
    const p = [0.1, 0.2, 0.3, 0.4];
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const counts = [0, 0, 0, 0];
        if (replace) nums(random.choice(random.key(12), 4, [20000], { p })).forEach((i) => counts[i]++);
        else for (const k of random.split(random.key(12), 20000)) counts[nums(random.choice(k, 4, [1], { p, replace }))[0]!]++;
        expect(chiSquarePValue(counts, p)).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('never picks zero-probability entries with replacement, and returns distinct ones without', () => {
    const c = nums(random.choice(random.key(1), 5, [5000], { p: [0, 0.5, 0, 0.5, 0] }));
    expect(new Set(c)).toEqual(new Set([1, 3]));
    const d = nums(random.choice(random.key(1), 50, [50], { replace: false, p: Array(50).fill(0.02) }));
    expect(new Set(d).size).toBe(50);
  });

  it('rejects bad p, empty populations and too many draws without replacement', () => {
    const k = random.key(0);
    expect(() => random.choice(k, 3, [2], { p: [0.5, 0.5] })).toThrow(/`p` must have shape \[3\]/);
    expect(() => random.choice(k, 2, [2], { p: [-0.1, 1.1] })).toThrow(RangeError);
    expect(() => random.choice(k, 2, [2], { p: [0, 0] })).toThrow(/positive entry/);
    expect(() => random.choice(k, 2, [2], { p: 'x' as never })).toThrow(TypeError);
    expect(() => random.choice(k, 0, [2])).toThrow(/random\.choice: `a`/);
    expect(() => random.choice(k, 3, [4], { replace: false })).toThrow(/4 draws without replacement from 3/);
    expect(() => random.choice(k, 3.5, [1])).toThrow(TypeError);
    expect(() => random.choice(k, tensor([[1, 2]]), [1], { axis: 2 })).toThrow(/`axis`/);
  });
});

describe('random.choice sizes (issue 18)', () => {
  it('without replacement, refuses an `a` above 2^28 up front; with replacement, a huge `a` is fine', () => {
    expect(() => random.choice(random.key(0), 1e12, [3], { replace: false })).toThrow(/^random\.choice: `a` is 1000000000000, more than the limit of 268435456/);
    expect(random.choice(random.key(0), 1e12, [3]).shape).toEqual([3]);
  });
});
