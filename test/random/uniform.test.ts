import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { fma32, fma64 } from '../../src/random/float.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksUniformPValue } from '../stats.js';

const f32 = (xs: number[]) => xs.map(Math.fround);
const values = (t: { data: ArrayLike<number> }) => Array.from(t.data);

describe('random.uniform known answers (jax 0.10.2, reference/jax-random.md §7.1)', () => {
  // Docstrings print float32 values to limited digits (0.00729382 is 61185·2^-23 = 0.0072938204),
  // so these compare at the printed precision and check the value lies on the 2^-23 grid.
  const expectPrinted = (value: number, printed: string) => {
    const decimals = printed.split('.')[1]!.length;
    expect(Math.abs(value - Number(printed))).toBeLessThanOrEqual(0.5 * 10 ** -decimals);
    expect(Number.isInteger(value * 2 ** 23)).toBe(true);
  };

  it('module docstring and typed-keys JEP (partitionable, float32)', () => {
    for (const x64 of [false, true]) {
      withModes({ x64, threefryPartitionable: true }, () => {
        const k = random.key(0);
        expectPrinted(random.uniform(k, [], { dtype: 'float32' }).item() as number, '0.947667');
        const [, subkey] = random.split(k);
        expectPrinted(random.uniform(subkey!, [], { dtype: 'float32' }).item() as number, '0.00729382');
        const three = values(random.uniform(k, [3], { dtype: 'float32' }));
        ['0.947667', '0.9785799', '0.33229148'].forEach((p, i) => expectPrinted(three[i]!, p));
      });
    }
  });

  it('the stateful-RNG proposal: uniform(foldIn(key(1701), i), [5])', () => {
    withModes({ x64: false, threefryPartitionable: true }, () => {
      const base = random.key(1701);
      expect(values(random.uniform(random.foldIn(base, 0), [5]))).toEqual(f32([0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055]));
      expect(values(random.uniform(random.foldIn(base, 1), [5]))).toEqual(f32([0.8131045, 0.33873856, 0.88808906, 0.96005905, 0.7616446]));
      // vmap example: x + rng.uniform() over stateful_rng(0).split(5).
      const keys = random.split(random.foldIn(random.key(0), 0), 5);
      const got = [...keys].map((k, i) => Math.fround(i + (random.uniform(random.foldIn(k, 0)).item() as number)));
      expect(got).toEqual(f32([0.07174575, 1.0163325, 2.0435536, 3.4391735, 4.534091]));
    });
  });

  it('JAX _RANDOM_VALUES_CASES uniform row (original mode, float32)', () => {
    for (const x64 of [false, true]) {
      withModes({ x64, threefryPartitionable: false }, () => {
        expect(values(random.uniform(random.key(1338574713), [5], { dtype: 'float32' }))).toEqual(
          [0.2986714839935303, 0.07321286201477051, 0.8733557462692261, 0.26054883003234863, 0.41279661655426025]);
      });
    }
  });
});

describe('random.uniform structure', () => {
  it('defaults to float64 in x64 mode and float32 in x32 mode', () => {
    expect(withModes({ x64: true }, () => random.uniform(random.key(0)).dtype)).toBe('float64');
    expect(withModes({ x64: false }, () => random.uniform(random.key(0)).dtype)).toBe('float32');
  });

  it('builds float64 values from the top 52 bits of the 64-bit draw', () => {
    for (const partitionable of [true, false]) {
      withModes({ x64: true, threefryPartitionable: partitionable }, () => {
        const u = random.uniform(random.key(77), [40]).data;
        const b = random.bits(random.key(77), [40], { dtype: 'uint64' }).data as BigUint64Array;
        for (let i = 0; i < 40; i++) expect(u[i]).toBe(Number(b[i]! >> 12n) / 2 ** 52);
      });
    }
  });

  it('builds float32 values from the top 23 bits of the 32-bit draw', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const u = random.uniform(random.key(78), [41], { dtype: 'float32' }).data;
        const b = random.bits(random.key(78), [41], { dtype: 'uint32' }).data;
        for (let i = 0; i < 41; i++) expect(u[i]).toBe((b[i] as number >>> 9) / 2 ** 23);
      });
    }
  });

  it('scales with one rounding: max(mn, fma(f, mx - mn, mn))', () => {
    const unit = random.uniform(random.key(5), [200], { dtype: 'float32' }).data;
    const scaled = random.uniform(random.key(5), [200], { dtype: 'float32', minval: -3.5, maxval: 2.25 }).data;
    for (let i = 0; i < 200; i++) expect(scaled[i]).toBe(Math.max(-3.5, fma32(unit[i]!, 5.75, -3.5)));
    const returnsMin = random.uniform(random.key(5), [4], { minval: 5, maxval: 5 }).data;
    expect(Array.from(returnsMin)).toEqual([5, 5, 5, 5]);
  });

  it('is uniform on [minval, maxval) in every mode (KS, n = 20000, alpha 1e-6)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const u = random.uniform(random.key(31337), [20000], { dtype: 'float32', minval: -2, maxval: 3 }).data;
        expect(Math.min(...u)).toBeGreaterThanOrEqual(-2);
        expect(Math.max(...u)).toBeLessThan(3);
        expect(ksUniformPValue(u, -2, 3)).toBeGreaterThan(ALPHA);
        if (m.x64) expect(ksUniformPValue(random.uniform(random.key(4), [20000]).data)).toBeGreaterThan(ALPHA);
      });
    }
  });
});

describe('fused multiply-add emulation', () => {
  // Exact reference: a·b + c with BigInt rationals, rounded by the platform's correctly rounded
  // Number(BigInt) conversion at a scale where the result is an integer-valued double.
  const exactFma64 = (a: number, b: number, c: number) => {
    const scale = 2 ** 200;
    const toBig = (x: number) => BigInt(x * 2 ** 100); // inputs here are multiples of 2^-100
    const exact = toBig(a) * toBig(b) + toBig(c) * BigInt(2 ** 100);
    return Number(exact) / scale;
  };

  it('fma64 equals the exact rounding where naive a*b + c does not', () => {
    const a = 1 + 2 ** -30, b = 1 - 2 ** -30, c = -1;       // exact: -2^-60, naive: 0
    expect(a * b + c).toBe(0);
    expect(fma64(a, b, c)).toBe(-(2 ** -60));
    let s = 7;
    const next = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
    for (let i = 0; i < 2000; i++) {
      const x = (next() * 2 ** 20 + (next() >>> 12)) * 2 ** -52;         // a uniform float64
      const span = (next() - 2 ** 31) * 2 ** -20, mn = (next() - 2 ** 31) * 2 ** -25;
      expect(fma64(x, span, mn)).toBe(exactFma64(x, span, mn));
    }
  });

  it('fma32 rounds once to float32', () => {
    // 1 + 2^-24 + 2^-60 rounds up once, but naive double rounding (to 1 + 2^-24, then a tie
    // to even) gives 1.
    expect(Math.fround(1 + 2 ** -24 + 2 ** -60)).toBe(1);
    expect(fma32(1 + 2 ** -23, 2 ** -1, 0.5 + 2 ** -60 * 0)).toBe(Math.fround(1 + 2 ** -24 + 0)); // tie case
    expect(fma32(2 ** -24 + 2 ** -47, 1, 1)).toBe(1 + 2 ** -23);
  });
});

describe('random.uniform bad input', () => {
  it.each([
    ['minval > maxval', { minval: 2, maxval: 1 }, RangeError, /`minval` must not exceed/],
    ['NaN minval', { minval: NaN }, RangeError, /`minval` must be finite/],
    ['infinite maxval', { maxval: Infinity }, RangeError, /`maxval`/],
    ['string maxval', { maxval: '1' }, TypeError, /`maxval` must be a number/],
    ['int dtype', { dtype: 'int32' }, RangeError, /`dtype`/],
    ['float16', { dtype: 'float16' }, RangeError, /`dtype`/],
  ])('rejects %s', (_, opts, cls, msg) => {
    expect(() => random.uniform(random.key(0), [2], opts as never)).toThrow(cls);
    expect(() => random.uniform(random.key(0), [2], opts as never)).toThrow(msg);
  });

  it('rejects float64 in x32 mode, bad shapes and non-keys', () => {
    expect(() => withModes({ x64: false }, () => random.uniform(random.key(0), [2], { dtype: 'float64' }))).toThrow(/x64 mode/);
    expect(() => random.uniform(random.key(0), [2, -1])).toThrow(/random\.uniform: `shape\[1\]`/);
    expect(() => random.uniform(random.key(0), 'abc' as never)).toThrow(TypeError);
    expect(() => random.uniform(42 as never)).toThrow(/random\.uniform: `key` must be a KeyArray/);
  });
});

describe('fma32 fast path', () => {
  it('equals the round-to-odd reference on 10^6 random and 10^5 near-tie float32 triples', async () => {
    const { fma32: fast, fma32RoundToOdd: slow } = await import('../../src/random/float.js');
    let s = 12345;
    const next = () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s; };
    const f32 = () => Math.fround((next() / 2 ** 32 - 0.5) * 2 ** ((next() % 40) - 20));
    for (let i = 0; i < 1_000_000; i++) {
      const a = f32(), b = f32(), c = f32();
      if (fast(a, b, c) !== slow(a, b, c)) throw new Error(`fma32(${a}, ${b}, ${c})`);
    }
    // Near ties: a·b + c lands within a few double ulps of a float32 midpoint.
    for (let i = 0; i < 100_000; i++) {
      const c = Math.fround(1 + (next() % 1000) * 2 ** -23);
      const a = Math.fround(2 ** -24 + (next() % 8) * 2 ** -48), b = Math.fround(1 + (next() % 4) * 2 ** -23 * (next() % 2 ? 1 : -1));
      expect(fast(a, b, c)).toBe(slow(a, b, c));
    }
  });
});

describe('random.uniform with huge finite bounds (issue 18)', () => {
  it('gives finite values in [minval, maxval) where maxval − minval overflows (JAX gives NaN there)', () => {
    for (const [minval, maxval] of [[-1.7e308, 1.7e308], [-Number.MAX_VALUE, Number.MAX_VALUE], [-1e308, 1.5e308]] as const) {
      const x = Array.from(random.uniform(random.key(0), [1000], { minval, maxval }).data);
      expect(x.every((v) => Number.isFinite(v) && v >= minval && v < maxval)).toBe(true);
      expect(Math.min(...x)).toBeLessThan(minval / 2);
      expect(Math.max(...x)).toBeGreaterThan(maxval / 2);
    }
    const f = Array.from(random.uniform(random.key(1), [1000], { minval: -3e38, maxval: 3e38, dtype: 'float32' }).data);
    expect(f.every((v) => Number.isFinite(v) && v >= Math.fround(-3e38) && v < Math.fround(3e38))).toBe(true);
    expect(Math.max(...f)).toBeGreaterThan(1e38);
  });

  it('refuses float32 bounds beyond float32\'s range', () => {
    expect(() => random.uniform(random.key(0), [3], { minval: -1.7e308, maxval: 1.7e308, dtype: 'float32' })).toThrow(/random\.uniform: `minval` must be finite in float32/);
  });

  it('rejects unknown option names with a TypeError', () => {
    expect(() => random.uniform(random.key(0), [3], { maxvall: 2 } as never)).toThrow(TypeError);
    expect(() => random.uniform(random.key(0), [3], { maxvall: 2 } as never)).toThrow(/random\.uniform: `options` has unknown option `maxvall` \(known: dtype, minval, maxval\)/);
  });
});
