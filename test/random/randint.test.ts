import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import type { IntDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

const flat = (t: { data: ArrayLike<number | bigint> }) => Array.from(t.data, (v) => (typeof v === 'bigint' ? v : Number(v)));

describe('random.randint known answers (jax 0.10.2)', () => {
  it('testPRNGValues: randint(PRNGKey(0), (3,3), 0, 8) (§6.2)', () => {
    for (const x64 of [false, true]) {
      withModes({ x64, threefryPartitionable: false }, () => {
        expect(random.randint(random.key(0), [3, 3], 0, 8, { dtype: 'int32' }).toArray()).toEqual([[2, 1, 3], [6, 1, 5], [6, 3, 4]]);
      });
      withModes({ x64, threefryPartitionable: true }, () => {
        expect(random.randint(random.key(0), [3, 3], 0, 8, { dtype: 'int32' }).toArray()).toEqual([[5, 0, 0], [5, 3, 3], [0, 7, 5]]);
      });
    }
    withModes({ x64: true, threefryPartitionable: false }, () => {
      const t = random.randint(random.key(0), [3, 3], 0, 8);
      expect(t.dtype).toBe('int64');
      expect(t.toArray()).toEqual([[7n, 2n, 6n], [2n, 1n, 0n], [6n, 7n, 7n]]);
    });
  });

  it('JAX _RANDOM_VALUES_CASES randint row (§7.1)', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      expect(flat(random.randint(random.key(1319372649), [5], 0, 10))).toEqual([0, 5, 7, 7, 5]);
    });
  });
});

describe('random.randint ranges', () => {
  it('reaches the dtype maximum when maxval is one past it (JAX #5785)', () => {
    for (const [dtype, lo, hi] of [['uint8', 0, 256], ['int8', -128, 128]] as const) {
      const v = flat(random.randint(random.key(1), [20000], lo, hi, { dtype }));
      expect(Math.min(...(v as number[]))).toBe(lo);
      expect(Math.max(...(v as number[]))).toBe(hi - 1);
    }
    const u16 = flat(random.randint(random.key(1), [200000], 0, 65536, { dtype: 'uint16' })) as number[];
    expect(u16.every((x) => x >= 0 && x <= 65535)).toBe(true);
    expect(u16.reduce((a, b) => Math.max(a, b))).toBeGreaterThan(65000);
  });

  it('clips bounds to the dtype and returns minval for an empty range', () => {
    const v = flat(random.randint(random.key(2), [1000], -10, 10, { dtype: 'uint8' })) as number[];
    expect(Math.min(...v)).toBe(0);
    expect(Math.max(...v)).toBe(9);
    expect(flat(random.randint(random.key(2), [3], 4, 4, { dtype: 'int32' }))).toEqual([4, 4, 4]);
  });

  it('covers the full int32 and int64 ranges', () => {
    const i32 = flat(random.randint(random.key(3), [4000], -(2 ** 31), 2 ** 31, { dtype: 'int32' })) as number[];
    expect(i32.some((x) => x < -(2 ** 30))).toBe(true);
    expect(i32.some((x) => x > 2 ** 30)).toBe(true);
    const i64 = flat(random.randint(random.key(3), [4000], -(2n ** 63n), 2n ** 63n)) as bigint[];
    expect(i64.some((x) => x < -(2n ** 62n))).toBe(true);
    expect(i64.some((x) => x > 2n ** 62n)).toBe(true);
    const u64 = flat(random.randint(random.key(3), [100], 0, 2n ** 64n, { dtype: 'uint64' })) as bigint[];
    expect(u64.every((x) => x >= 0n && x < 2n ** 64n)).toBe(true);
  });

  it('agrees between the fast and the BigInt int64 paths', () => {
    // Same draws, span 2^26 (fast path) vs 2^26 + 1 (BigInt path) differ only by the span.
    const key = random.key(9);
    const fast = flat(random.randint(key, [500], 0, 2 ** 26)) as bigint[];
    expect(fast.every((x) => x >= 0n && x < 2n ** 26n)).toBe(true);
    const big = flat(random.randint(key, [500], 0n, 2n ** 40n)) as bigint[];
    expect(big.every((x) => x >= 0n && x < 2n ** 40n)).toBe(true);
  });

  it.each([
    ['int32 [0, 10)', 'int32', 0, 10],
    ['int64 [-5, 5)', 'int64', -5, 5],
    ['uint8 [0, 256)', 'uint8', 0, 256],
    ['int16 [-7, 93)', 'int16', -7, 93],
  ] as const)('is uniform: %s (chi-square, n = 200000, alpha 1e-6)', (_, dtype, lo, hi) => {
    for (const m of ALL_MODES) {
      if (dtype === 'int64' && !m.x64) continue;
      const counts = new Array(hi - lo).fill(0);
      withModes(m, () => flat(random.randint(random.key(77), [200000], lo, hi, { dtype: dtype as IntDType })).forEach((v) => counts[Number(v) - lo]++));
      expect(chiSquarePValue(counts, counts.map(() => 1 / (hi - lo)))).toBeGreaterThan(ALPHA);
    }
  });

  it('is uniform for a span just above 2^16, where JAX uses only the low draw (n = 300000)', () => {
    const span = 2 ** 16 + 1;
    const v = flat(random.randint(random.key(8), [300000], 0, span, { dtype: 'int32' })) as number[];
    const counts = new Array(16).fill(0);
    v.forEach((x) => counts[Math.floor((x * 16) / span)]++);
    const probs = counts.map((_, i) => (Math.ceil(((i + 1) * span) / 16) - Math.ceil((i * span) / 16)) / span);
    expect(chiSquarePValue(counts, probs)).toBeGreaterThan(ALPHA);
  });
});

describe('random.randint bad input', () => {
  it('rejects minval > maxval, non-integers, bad dtypes and 64-bit in x32 mode', () => {
    expect(() => random.randint(random.key(0), [2], 5, 1)).toThrow(RangeError);
    expect(() => random.randint(random.key(0), [2], 5, 1)).toThrow(/random\.randint: `minval` must not exceed/);
    expect(() => random.randint(random.key(0), [2], 0.5, 1)).toThrow(/`minval` must be an integer/);
    expect(() => random.randint(random.key(0), [2], 0, NaN)).toThrow(TypeError);
    expect(() => random.randint(random.key(0), [2], 0, 3, { dtype: 'float32' as never })).toThrow(/`dtype`/);
    expect(() => withModes({ x64: false }, () => random.randint(random.key(0), [2], 0, 3, { dtype: 'int64' }))).toThrow(/x64/);
    expect(() => random.randint(random.key(0), [-2], 0, 3)).toThrow(RangeError);
  });
});
