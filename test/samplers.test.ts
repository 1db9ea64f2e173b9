/**
 * samplers: seed kinds, salts, splitting, the global source, and TFP's stateless samplers.
 *
 * Statistical tests run at fixed seeds and reject at ALPHA = 1e-6 (test/stats.ts): KS against
 * @stdlib CDFs for continuous samplers (n = 20000), chi-square for discrete ones (sizes given
 * per test). Sampler values are also compared exactly with the stochax `random` functions they
 * are defined by, so the statistics mostly guard the wrapping (shapes, broadcasting, scaling).
 */
import gammaCdf from '@stdlib/stats-base-dists-gamma-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { afterAll, describe, expect, it } from 'vitest';
import * as random from '../src/random/index.js';
import { gamma as randomGamma } from '../src/random/gamma.js';
import { categorical as randomCategorical } from '../src/random/categorical.js';
import * as samplers from '../src/samplers.js';
import { saltToInt } from '../src/sha512.js';
import { detLog } from '../src/math/index.js';
import { tensor } from '../src/tensor/tensor.js';
import { ALL_MODES, withModes } from './helpers.js';
import { ALPHA, chiSquarePValue, ksPValue, ksUniformPValue } from './stats.js';

const words = (k: random.KeyArray) => Array.from(k.data);
const vals = (t: { data: unknown }) => Array.from(t.data as ArrayLike<number>);
const same = (a: random.KeyArray, b: random.KeyArray) => a.impl === b.impl && words(a).join() === words(b).join();
const modeCases = ALL_MODES.map((m) => [JSON.stringify(m), m] as const);

afterAll(() => samplers.setGlobalSeed(undefined));

describe('sanitizeSeed: seed kinds', () => {
  it.each(modeCases)('%s', (_, m) => withModes(m, () => {
    const k = random.key(5);
    expect(samplers.sanitizeSeed(k)).toBe(k);                              // a key: itself
    const pk = random.key(5, { impl: 'philox4x32' });
    expect(samplers.sanitizeSeed(pk).impl.name).toBe('philox4x32');        // any impl
    for (const pair of [[1, 2], Uint32Array.of(1, 2)] as const) {
      const s = samplers.sanitizeSeed(pair);
      expect(s.shape).toEqual([]);
      expect(s.impl.name).toBe('threefry2x32');
      expect(words(s)).toEqual([1, 2]);
      expect(same(s, random.wrapKeyData([1, 2]))).toBe(true);
    }
    expect(words(samplers.sanitizeSeed([0xffffffff, 0]))).toEqual([0xffffffff, 0]);
    for (const n of [0, 42, -1, 2 ** 40 + 3, 2 ** 53 - 1]) {
      expect(same(samplers.sanitizeSeed(n), random.key(n)), String(n)).toBe(true);
      expect(same(samplers.sanitizeSeed(BigInt(n)), random.key(n))).toBe(true);
    }
    expect(same(samplers.sanitizeSeed(2n ** 64n - 1n), random.key(2n ** 64n - 1n))).toBe(true);
    const fresh = samplers.sanitizeSeed(undefined);
    expect(fresh.shape).toEqual([]);
    expect(fresh.impl.name).toBe('threefry2x32');
  }));

  it('copies a Uint32Array seed (later writes do not change the key)', () => {
    const w = Uint32Array.of(7, 8);
    const k = samplers.sanitizeSeed(w);
    w[0] = 99;
    expect(words(k)).toEqual([7, 8]);
  });
});

describe('salts', () => {
  const seeds: samplers.Seed[] = [random.key(3), [1, 2], Uint32Array.of(1, 2), 42, 42n, random.key(3, { impl: 'philox4x32' })];
  it.each(modeCases)('salting = foldIn(key, saltToInt(salt)) for every seed kind: %s', (_, m) => withModes(m, () => {
    for (const seed of seeds) {
      const plain = samplers.sanitizeSeed(seed);
      for (const salt of ['gamma', 'beta_binomial', 'mcmc.sample_chain', '', 'é']) {
        const salted = samplers.sanitizeSeed(seed, { salt });
        expect(same(salted, plain)).toBe(false);
        expect(same(salted, random.foldIn(plain, saltToInt(salt)))).toBe(true);
        expect(same(salted, samplers.foldIn(seed, salt))).toBe(true);
      }
      expect(same(samplers.sanitizeSeed(seed, { salt: 'gamma' }), samplers.sanitizeSeed(seed, { salt: 'normal' }))).toBe(false);
      expect(same(samplers.sanitizeSeed(seed, {}), plain)).toBe(true);
    }
  }));

  it('an integer seed is random.key(int) then salted (not TF’s stateful repr hash)', () => {
    expect(same(samplers.sanitizeSeed(42, { salt: 'gamma' }), random.foldIn(random.key(42), 589445474))).toBe(true);
  });
});

describe('splitSeed', () => {
  it.each(modeCases)('TFP’s contract: %s', (_, m) => withModes(m, () => {
    for (const seed of [[1, 2], random.key(9), 17] as samplers.Seed[]) {
      const parent = samplers.sanitizeSeed(seed);
      const two = samplers.splitSeed(seed);
      expect(two).toHaveLength(2);
      for (const n of [1, 2, 3, 5]) {
        const kids = samplers.splitSeed(seed, { n });
        expect(kids).toHaveLength(n);
        kids.forEach((k) => expect(k.shape).toEqual([]));
        // the definition: [...random.split(sanitizeSeed(seed), n)]
        const want = [...random.split(parent, n)];
        kids.forEach((k, i) => expect(same(k, want[i]!)).toBe(true));
        // children differ from each other and from the parent
        const all = [parent, ...kids].map((k) => words(k).join());
        expect(new Set(all).size).toBe(n + 1);
        // splitting again gives the same children
        samplers.splitSeed(seed, { n }).forEach((k, i) => expect(same(k, kids[i]!)).toBe(true));
        // split(sanitize(s, X)) == split(s, salt = X)
        for (const salt of ['gamma', 'HiddenMarkovModel']) {
          const a = samplers.splitSeed(samplers.sanitizeSeed(seed, { salt }), { n });
          const b = samplers.splitSeed(seed, { n, salt });
          a.forEach((k, i) => expect(same(k, b[i]!)).toBe(true));
        }
        // different salts give different children
        const x = samplers.splitSeed(seed, { n, salt: 'gamma' });
        const y = samplers.splitSeed(seed, { n, salt: 'binomial' });
        x.forEach((k, i) => expect(same(k, y[i]!)).toBe(false));
      }
    }
  }));

  it('children have their own storage and unpack like a tuple', () => {
    const [a, b, c] = samplers.splitSeed([3, 4], { n: 3 });
    expect(a!.data.buffer).not.toBe(b!.data.buffer);
    expect(same(c!, random.split(random.wrapKeyData([3, 4]), 3).at(2))).toBe(true);
  });
});

describe('foldIn, zerosSeed, cloneSeed', () => {
  it('foldIn with an integer is random.foldIn (uint32, negatives wrap)', () => {
    const k = random.key(11);
    for (const d of [0, 1, 12345, 2 ** 31, 2 ** 32 - 1]) expect(same(samplers.foldIn(k, d), random.foldIn(k, d))).toBe(true);
    expect(same(samplers.foldIn(k, -1), random.foldIn(k, 2 ** 32 - 1))).toBe(true);
    expect(same(samplers.foldIn(k, 5n), random.foldIn(k, 5))).toBe(true);
    expect(same(samplers.foldIn([1, 2], 5), random.foldIn(random.wrapKeyData([1, 2]), 5))).toBe(true);
    expect(same(samplers.foldIn(k, 'gamma'), random.foldIn(k, 589445474))).toBe(true);
  });

  it('zerosSeed is random.key(0)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const z = samplers.zerosSeed();
        expect(same(z, random.key(0))).toBe(true);
        expect(words(z)).toEqual([0, 0]);
        expect(z.shape).toEqual([]);
      });
    }
  });

  it('cloneSeed copies words into new storage, batches included', () => {
    const k = random.key(4);
    const c = samplers.cloneSeed(k);
    expect(c === k).toBe(false);
    expect(c.data.buffer).not.toBe(k.data.buffer);
    expect(same(c, k)).toBe(true);
    const batch = random.split(k, [2, 3]);
    const cb = samplers.cloneSeed(batch);
    expect(cb.shape).toEqual([2, 3]);
    expect(Array.from(cb.data)).toEqual(Array.from(batch.data));
    expect(words(samplers.cloneSeed([5, 6]))).toEqual([5, 6]);
    expect(same(samplers.cloneSeed(8), random.key(8))).toBe(true);
  });
});

describe('getIntegerSeed', () => {
  it('an integer seed mod 2^31 (Python’s non-negative remainder)', () => {
    expect(samplers.getIntegerSeed(5)).toBe(5);
    expect(samplers.getIntegerSeed(0)).toBe(0);
    expect(samplers.getIntegerSeed(-1)).toBe(2 ** 31 - 1);
    expect(samplers.getIntegerSeed(2 ** 31 + 3)).toBe(3);
    expect(samplers.getIntegerSeed(-(2 ** 31))).toBe(0);
    expect(samplers.getIntegerSeed(2n ** 40n + 7n)).toBe(7);
    expect(samplers.getIntegerSeed(-5n)).toBe(2 ** 31 - 5);
  });

  it.each(modeCases)('another seed: randint(key, [], 0, 2^31 − 1, int32): %s', (_, m) => withModes(m, () => {
    const k = random.key(21);
    const v = samplers.getIntegerSeed(k);
    expect(v).toBe(random.randint(k, [], 0, 2 ** 31 - 1, { dtype: 'int32' }).item());
    expect(samplers.getIntegerSeed([1, 2])).toBe(random.randint(random.wrapKeyData([1, 2]), [], 0, 2 ** 31 - 1, { dtype: 'int32' }).item());
    const draws = samplers.splitSeed(k, { n: 2000 }).map(samplers.getIntegerSeed);
    expect(draws.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 31 - 1)).toBe(true);
    expect(ksUniformPValue(draws, 0, 2 ** 31 - 1)).toBeGreaterThan(ALPHA);
  }));
});

describe('the global source behind undefined seeds', () => {
  it('setGlobalSeed makes undefined-seed draws reproducible; consecutive draws differ', () => {
    samplers.setGlobalSeed(7);
    const a = [samplers.sanitizeSeed(undefined), samplers.sanitizeSeed(undefined), samplers.splitSeed(undefined)[0]!];
    const z = samplers.normal([4]);
    expect(same(a[0]!, a[1]!)).toBe(false);
    samplers.setGlobalSeed(7n);                          // 7 and 7n seed alike
    const b = [samplers.sanitizeSeed(undefined), samplers.sanitizeSeed(undefined), samplers.splitSeed(undefined)[0]!];
    a.forEach((k, i) => expect(same(k, b[i]!)).toBe(true));
    expect(vals(samplers.normal([4]))).toEqual(vals(z));
    samplers.setGlobalSeed(8);
    expect(same(samplers.sanitizeSeed(undefined), a[0]!)).toBe(false);
  });

  it('explicit seeds do not touch it', () => {
    samplers.setGlobalSeed(1);
    const first = samplers.sanitizeSeed(undefined);
    samplers.setGlobalSeed(1);
    samplers.sanitizeSeed([1, 2]);
    samplers.normal([3], { seed: 5 });
    expect(same(samplers.sanitizeSeed(undefined), first)).toBe(true);
  });

  it('unseeded (crypto) draws differ from each other', () => {
    samplers.setGlobalSeed(undefined);
    const keys = Array.from({ length: 20 }, () => words(samplers.sanitizeSeed(undefined)).join());
    expect(new Set(keys).size).toBe(20);
  });
});

describe('samplers.normal', () => {
  it('is random.normal(key, shape) · stddev + mean, broadcast (exact, float64 and float32)', () => {
    const k = random.key(31);
    const z = random.normal(k, [2, 3]).data;
    const t = samplers.normal([2, 3], { mean: 1, stddev: 2, seed: k });
    expect(t.shape).toEqual([2, 3]);
    expect(t.dtype).toBe('float64');
    expect(vals(t)).toEqual(Array.from(z, (v) => v * 2 + 1));
    expect(vals(samplers.normal([2, 3], { seed: k }))).toEqual(Array.from(z));
    // mean [[0], [10]] (shape [2, 1]) with shape [3]: the same three draws in both rows
    const zr = random.normal(k, [3]).data;
    const b = samplers.normal([3], { mean: [[0], [10]], stddev: [1, 2, 3], seed: k });
    expect(b.shape).toEqual([2, 3]);
    expect(b.toArray()).toEqual([0, 10].map((m) => [0, 1, 2].map((j) => zr[j]! * (j + 1) + m)));
    const z32 = random.normal(k, [5], { dtype: 'float32' }).data;
    const t32 = samplers.normal([5], { mean: 0.1, stddev: 3, dtype: 'float32', seed: k });
    expect(t32.dtype).toBe('float32');
    expect(vals(t32)).toEqual(Array.from(z32, (v) => Math.fround(Math.fround(v * 3) + Math.fround(0.1))));
    expect(samplers.normal(4, { seed: 1 }).shape).toEqual([4]);
    expect(samplers.normal([], { seed: 1 }).shape).toEqual([]);
  });

  it.each(modeCases)('KS against N(3, 2²), n = 20000: %s', (_, m) => withModes(m, () => {
    const x = samplers.normal([20000], { mean: 3, stddev: 2, seed: [12, 34] }).data;
    expect(ksPValue(x, (v) => normalCdf(v, 3, 2))).toBeGreaterThan(ALPHA);
  }));
});

describe('samplers.uniform', () => {
  it('float: random.uniform’s values exactly, with scalar or array bounds', () => {
    const k = random.key(41);
    for (const dtype of ['float64', 'float32'] as const) {
      const want = random.uniform(k, [6], { minval: -2, maxval: 5, dtype }).data;
      const got = samplers.uniform([6], { minval: -2, maxval: 5, dtype, seed: k });
      expect(got.dtype).toBe(dtype);
      expect(vals(got)).toEqual(Array.from(want));
      // constant array bounds take the element-wise path and must agree bit for bit
      const arr = samplers.uniform([6], { minval: [-2, -2, -2, -2, -2, -2], maxval: tensor([5], dtype), dtype, seed: k });
      expect(vals(arr)).toEqual(Array.from(want));
    }
    expect(vals(samplers.uniform([3], { seed: k }))).toEqual(vals(random.uniform(k, [3])));
    const rows = samplers.uniform([2, 3], { minval: [[0], [10]], maxval: [[1], [20]], seed: k }).toArray() as number[][];
    expect(rows[0]!.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(rows[1]!.every((v) => v >= 10 && v < 20)).toBe(true);
  });

  it('integer: random.randint’s values exactly; both bounds omitted = the full range', () => {
    const k = random.key(43);
    const got = samplers.uniform([7], { minval: -3, maxval: 9, dtype: 'int32', seed: k });
    expect(got.dtype).toBe('int32');
    expect(vals(got)).toEqual(vals(random.randint(k, [7], -3, 9, { dtype: 'int32' })));
    expect(vals(samplers.uniform([7], { maxval: 9, dtype: 'int32', seed: k })))
      .toEqual(vals(random.randint(k, [7], 0, 9, { dtype: 'int32' })));
    expect(vals(samplers.uniform([4], { dtype: 'int32', seed: k })))
      .toEqual(vals(random.randint(k, [4], -(2 ** 31), 2 ** 31, { dtype: 'int32' })));
    const u32 = Array.from(samplers.uniform([4000], { dtype: 'uint32', seed: k }).data as Uint32Array);
    expect(u32.some((v) => v > 2 ** 32 - 2 ** 28) && u32.some((v) => v < 2 ** 28)).toBe(true);
    const i64 = samplers.uniform([100], { dtype: 'int64', seed: k });
    expect(i64.data).toBeInstanceOf(BigInt64Array);
  });

  it.each(modeCases)('statistics: KS on [−1, 3), chi-square on int8’s 256 values (n = 51200): %s', (_, m) => withModes(m, () => {
    const x = samplers.uniform([20000], { minval: -1, maxval: 3, seed: 99 }).data;
    expect(ksUniformPValue(x as Float64Array, -1, 3)).toBeGreaterThan(ALPHA);
    const v = samplers.uniform([51200], { dtype: 'int8', seed: 99 }).data as Int8Array;
    const counts = new Array<number>(256).fill(0);
    for (const c of v) counts[c + 128]!++;
    expect(chiSquarePValue(counts, new Array<number>(256).fill(1 / 256))).toBeGreaterThan(ALPHA);
  }));
});

describe('samplers.shuffle', () => {
  it('is random.permutation(key, value) along axis 0; rows stay whole; input untouched', () => {
    const k = random.key(51);
    const v = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const s = samplers.shuffle(v, { seed: k });
    expect(vals(s)).toEqual(vals(random.permutation(k, v)));
    expect(vals(s).sort((a, b) => a - b)).toEqual(v);
    expect(v).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const m = tensor([[1, 2], [3, 4], [5, 6], [7, 8]]);
    const sm = samplers.shuffle(m, { seed: k }).toArray() as number[][];
    expect(sm.map((r) => r[1]! - r[0]!)).toEqual([1, 1, 1, 1]);
    expect(sm.map((r) => r[0]).sort()).toEqual([1, 3, 5, 7]);
    expect(samplers.shuffle(Int32Array.of(4, 5, 6), { seed: k }).dtype).toBe('int32');
  });

  it('chi-square: where element 0 lands, over 6000 seeds (5 cells)', () => {
    const counts = [0, 0, 0, 0, 0];
    for (const seed of samplers.splitSeed(61, { n: 6000 })) {
      const s = samplers.shuffle([0, 1, 2, 3, 4], { seed }).data;
      counts[Array.from(s as ArrayLike<number>).indexOf(0)]!++;
    }
    expect(chiSquarePValue(counts, [0.2, 0.2, 0.2, 0.2, 0.2])).toBeGreaterThan(ALPHA);
  });
});

describe('bad input', () => {
  const badSeeds: [string, unknown, typeof TypeError | typeof RangeError][] = [
    ['a string', 'abc', TypeError], ['null', null, TypeError], ['a fraction', 1.5, TypeError], ['NaN', NaN, TypeError],
    ['a triple', [1, 2, 3], TypeError], ['an empty array', [], TypeError], ['a fractional word', [1, 2.5], TypeError],
    ['a negative word', [1, -2], RangeError], ['a word ≥ 2^32', [2 ** 32, 0], RangeError], ['a string word', ['1', 2], TypeError],
    ['an Int32Array', Int32Array.of(1, 2), TypeError], ['a Uint32Array(3)', new Uint32Array(3), TypeError],
    ['an object', {}, TypeError], ['a Tensor', tensor([1, 2], 'uint32'), TypeError], ['an unsafe integer', 2 ** 60, RangeError],
    ['a bigint ≥ 2^64', 2n ** 64n, RangeError], ['a function', () => 1, TypeError],
  ];
  it.each(badSeeds)('a seed that is %s', (_, seed, kind) => {
    expect(() => samplers.sanitizeSeed(seed as never)).toThrow(kind);
    expect(() => samplers.sanitizeSeed(seed as never)).toThrow(/samplers\.sanitizeSeed: `seed`/);
    expect(() => samplers.splitSeed(seed as never)).toThrow(/samplers\.splitSeed: `seed`/);
    expect(() => samplers.normal([2], { seed: seed as never })).toThrow(/samplers\.normal: `seed`/);
    expect(() => samplers.uniform([2], { seed: seed as never })).toThrow(/samplers\.uniform: `seed`/);
    expect(() => samplers.shuffle([1, 2], { seed: seed as never })).toThrow(/samplers\.shuffle: `seed`/);
  });

  it('a batch of keys', () => {
    const batch = random.split(random.key(0), 3);
    expect(() => samplers.sanitizeSeed(batch)).toThrow(TypeError);
    expect(() => samplers.sanitizeSeed(batch)).toThrow(/`seed` must be a single key.*shape \[3\]/);
    expect(() => samplers.splitSeed(batch)).toThrow(/samplers\.splitSeed: `seed`/);
    expect(() => samplers.foldIn(batch, 1)).toThrow(/samplers\.foldIn: `seed`/);
    expect(() => samplers.getIntegerSeed(batch)).toThrow(/samplers\.getIntegerSeed: `seed`/);
  });

  it('a salt that is not a string', () => {
    for (const salt of [5, null, {}, ['gamma'], true]) {
      expect(() => samplers.sanitizeSeed([1, 2], { salt: salt as never })).toThrow(TypeError);
      expect(() => samplers.sanitizeSeed([1, 2], { salt: salt as never })).toThrow(/samplers\.sanitizeSeed: `salt`/);
      expect(() => samplers.splitSeed([1, 2], { salt: salt as never })).toThrow(/samplers\.splitSeed: `salt`/);
    }
    expect(() => samplers.sanitizeSeed([1, 2], 'gamma' as never)).toThrow(/`options`/);
    expect(() => samplers.sanitizeSeed([1, 2], { salt: 'a\uDC00' })).toThrow(RangeError);
  });

  it('a bad n', () => {
    expect(() => samplers.splitSeed([1, 2], { n: 0 })).toThrow(RangeError);
    expect(() => samplers.splitSeed([1, 2], { n: -3 })).toThrow(/samplers\.splitSeed: `n`/);
    expect(() => samplers.splitSeed([1, 2], { n: 1.5 })).toThrow(TypeError);
    expect(() => samplers.splitSeed([1, 2], { n: '2' as never })).toThrow(TypeError);
    expect(() => samplers.splitSeed([1, 2], { n: '2' as never })).toThrow(/`n`/);
    expect(() => samplers.splitSeed([1, 2], { n: NaN })).toThrow(/`n`/);
  });

  it('foldIn, getIntegerSeed, setGlobalSeed', () => {
    expect(() => samplers.foldIn([1, 2], 1.5)).toThrow(TypeError);
    expect(() => samplers.foldIn([1, 2], null as never)).toThrow(/samplers\.foldIn: `salt`/);
    expect(() => samplers.foldIn([1, 2], 2 ** 32)).toThrow(RangeError);
    expect(() => samplers.foldIn([1, 2], -(2 ** 31) - 1)).toThrow(RangeError);
    expect(() => samplers.getIntegerSeed(1.5)).toThrow(/samplers\.getIntegerSeed: `seed`/);
    expect(() => samplers.setGlobalSeed(1.5)).toThrow(TypeError);
    expect(() => samplers.setGlobalSeed('7' as never)).toThrow(/samplers\.setGlobalSeed: `seed`/);
  });

  it('sampler arguments', () => {
    expect(() => samplers.normal([-1], { seed: 0 })).toThrow(RangeError);
    expect(() => samplers.normal([2], { mean: 'a' as never, seed: 0 })).toThrow(/samplers\.normal: `mean`/);
    expect(() => samplers.normal([2], { stddev: [1, 2, 3], seed: 0 })).toThrow(/samplers\.normal: the shapes/);
    expect(() => samplers.normal([2], { dtype: 'int32' as never, seed: 0 })).toThrow(/samplers\.normal: `dtype`/);
    expect(() => samplers.uniform([2], { minval: 1, dtype: 'int32', seed: 0 })).toThrow(TypeError);
    expect(() => samplers.uniform([2], { minval: 1, dtype: 'int32', seed: 0 })).toThrow(/`maxval` is required/);
    expect(() => samplers.uniform([2], { minval: 3, maxval: 1, seed: 0 })).toThrow(RangeError);
    expect(() => samplers.uniform([2], { minval: 3, maxval: 1, dtype: 'int32', seed: 0 })).toThrow(/samplers\.uniform: `minval`/);
    expect(() => samplers.uniform([2], { maxval: Infinity, seed: 0 })).toThrow(/`maxval` must be finite/);
    expect(() => samplers.uniform([2], { minval: [0, 1, 2], seed: 0 })).toThrow(/samplers\.uniform: .*`minval` \[3\]/);
    expect(() => samplers.uniform([2], { maxval: 1.5, dtype: 'int32', seed: 0 })).toThrow(/`maxval`/);
    expect(() => samplers.uniform([2], { dtype: 'bool' as never, seed: 0 })).toThrow(/samplers\.uniform: `dtype`/);
    expect(() => samplers.shuffle(5 as never, { seed: 0 })).toThrow(/samplers\.shuffle: `value`/);
    expect(() => samplers.shuffle(tensor(3), { seed: 0 })).toThrow(RangeError);
    withModes({ x64: false }, () => {
      expect(() => samplers.uniform([2], { dtype: 'int64', seed: 0 })).toThrow(/`dtype`/);
      expect(() => samplers.normal([2], { dtype: 'float64', seed: 0 })).toThrow(/`dtype`/);
    });
  });
});

describe('samplers.gamma', () => {
  it('is max(tiny, randomGamma(key, alpha, shape + batch) / beta), float64 draws', () => {
    const k = random.key(71);
    const t = samplers.gamma([4], { alpha: [[0.5], [2]], beta: [1, 3, 10], seed: k });
    expect(t.shape).toEqual([4, 2, 3]);
    expect(t.dtype).toBe('float64');
    const g = randomGamma(k, [[0.5], [2]], [4, 2, 3]).data;
    const beta = [1, 3, 10];
    expect(vals(t)).toEqual(Array.from(g as Float64Array, (v, i) => Math.max(2 ** -1022, v / beta[i % 3]!)));
    expect(vals(samplers.gamma([5], { alpha: 2.5, seed: k }))).toEqual(vals(randomGamma(k, 2.5, [5])));
    expect(samplers.gamma([], { alpha: 2, seed: k }).shape).toEqual([]);
    expect(samplers.gamma(3, { alpha: [1, 2], seed: k }).shape).toEqual([3, 2]);
  });

  it('float32 output: float64 draws cast, then divided in float32 (x64); float32 draws in x32', () => {
    const k = random.key(72);
    const t = samplers.gamma([6], { alpha: 1.7, beta: 0.3, dtype: 'float32', seed: k });
    expect(t.dtype).toBe('float32');
    const g = randomGamma(k, Math.fround(1.7), [6], { dtype: 'float64' }).data;
    expect(vals(t)).toEqual(Array.from(g as Float64Array, (v) => Math.fround(Math.fround(v) / Math.fround(0.3))));
    withModes({ x64: false }, () => {
      const g32 = randomGamma(k, 1.7, [6], { dtype: 'float32' }).data;
      const t32 = samplers.gamma([6], { alpha: 1.7, beta: 0.3, seed: k });
      expect(t32.dtype).toBe('float32');
      expect(vals(t32)).toEqual(Array.from(g32 as Float32Array, (v) => Math.fround(v / Math.fround(0.3))));
    });
  });

  it('clamps underflow to the smallest normal of the dtype (TF’s 0 → tiny)', () => {
    const t = samplers.gamma([2000], { alpha: 0.001, dtype: 'float32', seed: 5 }).data as Float32Array;
    expect(Math.min(...t)).toBe(2 ** -126);
    expect(t.some((v) => v > 2 ** -126)).toBe(true);
  });

  it.each(modeCases)('KS against Gamma(α, rate β), n = 20000: %s', (_, m) => withModes(m, () => {
    for (const [alpha, beta] of [[2.5, 3], [0.3, 1], [40, 0.5]] as const) {
      const x = samplers.gamma([20000], { alpha, beta, seed: [7, alpha * 10] }).data;
      expect(ksPValue(x as Float64Array, (v) => gammaCdf(v, alpha, beta)), `${alpha}, ${beta}`).toBeGreaterThan(ALPHA);
    }
  }));

  it('bad input', () => {
    expect(() => samplers.gamma([2], undefined as never)).toThrow(/samplers\.gamma: `alpha` is required/);
    expect(() => samplers.gamma([2], { alpha: 'x' as never, seed: 0 })).toThrow(TypeError);
    expect(() => samplers.gamma([2], { alpha: [1, 2], beta: [1, 2, 3], seed: 0 })).toThrow(/samplers\.gamma: the shapes of `alpha` \[2\] and `beta` \[3\]/);
    expect(() => samplers.gamma([2], { alpha: 1, seed: 'x' as never })).toThrow(/samplers\.gamma: `seed`/);
  });
});

/** Chi-square p-value of integer draws against Poisson(λ), tails merged so every cell expects ≥ 5. */
function poissonPValue(draws: ArrayLike<number>, lam: number): number {
  const n = draws.length;
  const pmf: number[] = [];
  for (let k = 0, p = Math.exp(-lam); k < 10 * lam + 50; p *= lam / ++k) pmf.push(p);
  let lo = 0;
  while (n * pmf[lo]! < 5) lo++;
  let hi = lo;
  while (hi + 1 < pmf.length && n * pmf[hi + 1]! >= 5) hi++;
  const probs = pmf.slice(lo, hi + 1);
  probs[0] = pmf.slice(0, lo + 1).reduce((a, b) => a + b, 0);
  probs[probs.length - 1] = 1 - probs.slice(0, -1).reduce((a, b) => a + b, 0);
  const counts = new Array<number>(probs.length).fill(0);
  for (let i = 0; i < n; i++) counts[Math.min(Math.max(draws[i]! - lo, 0), probs.length - 1)]!++;
  return chiSquarePValue(counts, probs);
}

describe('samplers.poisson', () => {
  it("is TFP on JAX's Knuth loop (written out here; TFP's own draws are in test/distributions/tfp-parity.test.ts)", () => {
    const k = random.key(81);
    const t = samplers.poisson([3], { lam: [1, 20], seed: k });
    expect(t.shape).toEqual([3, 2]);
    expect(t.dtype).toBe('int64');
    // [key, sub] = split(key); count the elements whose Σ log u is still above −λ; add log u(sub).
    const lam = [1, 20, 1, 20, 1, 20], count = [0, 0, 0, 0, 0, 0], sumLog = [0, 0, 0, 0, 0, 0];
    for (let rng = k; sumLog.some((s, i) => s > -lam[i]!);) {
      sumLog.forEach((s, i) => { if (s > -lam[i]!) count[i]!++; });
      const [next, sub] = random.split(rng) as unknown as [random.KeyArray, random.KeyArray];
      const u = random.uniform(sub, [6]).data as Float64Array;
      sumLog.forEach((s, i) => { sumLog[i] = s + detLog(u[i]!); });
      rng = next;
    }
    expect(Array.from(t.data as BigInt64Array, Number)).toEqual(count.map((c) => c - 1));
    const i32 = samplers.poisson([4], { lam: 3, dtype: 'int32', seed: k });
    expect(i32.dtype).toBe('int32');
    const f = samplers.poisson([4], { lam: 3, dtype: 'float32', seed: k });
    expect(f.dtype).toBe('float32');
    expect(vals(f)).toEqual(vals(i32));
    expect(vals(samplers.poisson([2], { lam: [-1, 0], dtype: 'int32', seed: k }))).toEqual([-1, 0, -1, 0]);
    withModes({ x64: false }, () => expect(samplers.poisson([2], { lam: 2, seed: k }).dtype).toBe('int32'));
  });

  it.each(modeCases)('chi-square against Poisson(λ) for λ = 3.5 and 25, n = 20000: %s', (_, m) => withModes(m, () => {
    for (const lam of [3.5, 25]) {
      const k = samplers.poisson([20000], { lam, dtype: 'int32', seed: [8, lam * 2] }).data as Int32Array;
      expect(poissonPValue(k, lam), String(lam)).toBeGreaterThan(ALPHA);
    }
  }));

  it('bad input', () => {
    expect(() => samplers.poisson([2], {} as never)).toThrow(/samplers\.poisson: `lam` is required/);
    expect(() => samplers.poisson([2], { lam: Infinity, seed: 0 })).toThrow(/samplers\.poisson: `lam` must be finite/);
    expect(() => samplers.poisson([2], { lam: 2e6, seed: 0 })).not.toThrow(); // drawn in float64 (test/random/poisson-f64.test.ts)
    expect(() => samplers.poisson([2], { lam: 1, dtype: 'bool' as never, seed: 0 })).toThrow(/samplers\.poisson: `dtype`/);
    withModes({ x64: false }, () => {
      expect(() => samplers.poisson([2], { lam: 1, dtype: 'float64', seed: 0 })).toThrow(RangeError);
      expect(() => samplers.poisson([2], { lam: 1, dtype: 'int64', seed: 0 })).toThrow(/`dtype`/);
    });
  });
});

describe('samplers.categorical', () => {
  it("is TFP on JAX's layout: random.categorical(key, logits[..., None], { axis: -2, shape: [...batch, numSamples] })", () => {
    const k = random.key(91);
    const logits = [[0, 1, 2], [2, 1, 0]];
    const t = samplers.categorical(logits, 5, { seed: k });
    expect(t.shape).toEqual([2, 5]);
    expect(t.dtype).toBe('int64');
    const r = randomCategorical(k, logits.map((row) => row.map((v) => [v])), { axis: -2, shape: [2, 5] }).toArray();
    expect(t.toArray()).toEqual(r);
    const one = samplers.categorical([0, 1, 2], 6, { dtype: 'int32', seed: k });
    expect(one.shape).toEqual([6]);
    expect(one.dtype).toBe('int32');
    expect(vals(one)).toEqual(Array.from(randomCategorical(k, [[0], [1], [2]], { axis: -2, shape: [6] }).data, Number));
    const three = samplers.categorical(tensor([[[0, 1], [1, 0], [0, 0]], [[5, 0], [0, 5], [1, 1]]], 'float32'), 4, { seed: k });
    expect(three.shape).toEqual([2, 3, 4]);
    expect(samplers.categorical(logits, 0, { seed: k }).shape).toEqual([2, 0]);
    withModes({ x64: false }, () => expect(samplers.categorical(logits, 2, { seed: k }).dtype).toBe('int32'));
  });

  it('never draws a −∞ class', () => {
    const v = samplers.categorical([[0, -Infinity, 0], [-Infinity, -Infinity, 3]], 500, { dtype: 'int32', seed: 4 }).toArray() as number[][];
    expect(v[0]!.every((c) => c === 0 || c === 2)).toBe(true);
    expect(v[1]!.every((c) => c === 2)).toBe(true);
  });

  it.each(modeCases)('chi-square per batch row against softmax(logits), n = 20000 per row: %s', (_, m) => withModes(m, () => {
    const p = [0.1, 0.2, 0.3, 0.4];
    const logits = [p.map(Math.log), [...p].reverse().map((q) => Math.log(q) + 7)];
    const v = samplers.categorical(logits, 20000, { dtype: 'int32', seed: [9, 9] }).toArray() as number[][];
    [p, [...p].reverse()].forEach((probs, b) => {
      const counts = [0, 0, 0, 0];
      for (const c of v[b]!) counts[c]!++;
      expect(chiSquarePValue(counts, probs), `row ${b}`).toBeGreaterThan(ALPHA);
    });
  }));

  it('bad input', () => {
    expect(() => samplers.categorical(5 as never, 2, { seed: 0 })).toThrow(/samplers\.categorical: `logits`/);
    expect(() => samplers.categorical(['a', 'b'] as never, 2, { seed: 0 })).toThrow(/^samplers\.categorical: `logits` must hold only numbers/);
    expect(() => samplers.categorical(tensor(1), 2, { seed: 0 })).toThrow(RangeError);
    expect(() => samplers.categorical([0, 1], 1.5, { seed: 0 })).toThrow(TypeError);
    expect(() => samplers.categorical([0, 1], -1, { seed: 0 })).toThrow(/samplers\.categorical: `numSamples`/);
    expect(() => samplers.categorical([0, NaN], 2, { seed: 0 })).toThrow(RangeError);
    expect(() => samplers.categorical([0, NaN], 2, { seed: 0 })).toThrow(/samplers\.categorical: `logits`/);
    expect(() => samplers.categorical([[-Infinity, -Infinity]], 2, { seed: 0 })).toThrow(/samplers\.categorical: `logits`/);
    expect(() => samplers.categorical(tensor([1, 2], 'int32'), 2, { seed: 0 })).toThrow(TypeError);
    expect(() => samplers.categorical([0, 1], 2, { dtype: 'float32' as never, seed: 0 })).toThrow(/samplers\.categorical: `dtype`/);
    expect(() => samplers.categorical([0, 1], 2, { seed: [1] as never })).toThrow(/samplers\.categorical: `seed`/);
  });
});

describe('samplers.splitSeed sizes (issue 18)', () => {
  it('refuses more than 2^24 keys up front, naming the function and the size', () => {
    expect(() => samplers.splitSeed(1, { n: 1e9 })).toThrow(RangeError);
    expect(() => samplers.splitSeed(1, { n: 1e9 })).toThrow(/^samplers\.splitSeed: `n` is 1000000000, more than the limit of 16777216/);
    expect(() => samplers.splitSeed(1, { n: 3, slat: 'x' } as never)).toThrow(/samplers\.splitSeed: `options` has unknown option `slat`/);
  });
});

describe('uniform with huge finite bounds (issue 18)', () => {
  it('samplers.uniform and Generator.uniform give finite values in range, scalar or element-wise bounds', () => {
    const lo = -1.7e308, hi = 1.7e308;
    const inRange = (xs: ArrayLike<number>) => Array.from(xs).every((v) => Number.isFinite(v) && v >= lo && v < hi);
    expect(inRange(samplers.uniform([500], { minval: lo, maxval: hi, seed: 0 }).data as Float64Array)).toBe(true);
    expect(inRange(samplers.uniform([2], { minval: [lo, lo], maxval: [hi, hi], seed: 0 }).data as Float64Array)).toBe(true);
  });
});
