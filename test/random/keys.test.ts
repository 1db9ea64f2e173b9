import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { tensor } from '../../src/tensor/tensor.js';
import { withModes, ALL_MODES } from '../helpers.js';

const data = (k: random.KeyArray) => random.keyData(k).toArray();

// Seed -> key data, jax 0.10.2 (reference/jax-random.md §2, cases from test_prng_seeds_and_keys).
// [seed, x32, x64]; seeds written as bigints are Python ints; tensors are NumPy-typed seeds.
const SEEDS: [number | bigint | ReturnType<typeof tensor>, number[], number[]][] = [
  [0, [0, 0], [0, 0]],
  [1, [0, 1], [0, 1]],
  [42, [0, 42], [0, 42]],
  [-1, [0, 4294967295], [4294967295, 4294967295]],
  [tensor([-2], 'int32').reshape([]), [0, 4294967294], [0, 4294967294]],
  [tensor([-3n], 'int64').reshape([]), [0, 4294967293], [4294967295, 4294967293]],
  [2 ** 31, [0, 2147483648], [0, 2147483648]],
  [2 ** 31 - 1 + 100, [0, 2147483747], [0, 2147483747]],
  [tensor([2 ** 31 - 1 + 101], 'uint32').reshape([]), [0, 2147483748], [0, 2147483748]],
  [-(2 ** 31) - 100, [0, 2147483548], [4294967295, 2147483548]],
  [2 ** 32 + 7, [0, 7], [1, 7]],
  [-(2 ** 40) - 1, [0, 4294967295], [4294967039, 4294967295]],
  [2n ** 63n - 1n, [0, 4294967295], [2147483647, 4294967295]],
  [tensor([2n ** 64n - 1n], 'uint64').reshape([]), [0, 4294967295], [4294967295, 4294967295]],
];

describe('random.key seed rules (§2)', () => {
  it.each(SEEDS.map(([s, x32, x64], i) => [i, String(s), s, x32, x64] as const))('case %i: seed %s', (_, __, seed, x32, x64) => {
    for (const partitionable of [true, false]) {
      expect(withModes({ x64: false, threefryPartitionable: partitionable }, () => data(random.key(seed)))).toEqual(x32);
      expect(withModes({ x64: true, threefryPartitionable: partitionable }, () => data(random.key(seed)))).toEqual(x64);
    }
  });

  it('makes a scalar typed key with the impl tag', () => {
    const k = random.key(0);
    expect(k.shape).toEqual([]);
    expect(random.keyImpl(k)).toBe('threefry2x32');
    expect(random.keyImpl(random.key(0, { impl: 'philox4x32' }))).toBe('philox4x32');
    expect(String(k)).toBe('KeyArray(threefry2x32, [])');
  });
});

// split values, jax 0.10.2, the same in x32 and x64 (§3.3).
const SPLITS: [number, number | number[], number[][] | number[][][], number[][] | number[][][]][] = [
  [0, 2, [[4146024105, 967050713], [2718843009, 1272950319]], [[1797259609, 2579123966], [928981903, 3453687069]]],
  [0, 3, [[2467461003, 428148500], [3186719485, 3840466878], [2562233961, 1946702221]],
    [[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009]]],
  [0, 4, [[2285895361, 1501764800], [1518642379, 4090693311], [433833334, 4221794875], [839183663, 3740430601]],
    [[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009], [2467461003, 3840466878]]],
  [1, 2, [[2441914641, 1384938218], [3819641963, 2025898573]], [[507451445, 1853169794], [1948878966, 4237131848]]],
  [1, 3, [[3568232559, 713140391], [3620866055, 2761185182], [2442350529, 2639019713]],
    [[507451445, 1853169794], [1948878966, 4237131848], [2441914641, 3819641963]]],
  [42, 2, [[2465931498, 3679230171], [255383827, 267815257]], [[1832780943, 270669613], [64467757, 2916123636]]],
  [42, 3, [[3134548294, 3733159049], [3746501087, 894150801], [801545058, 2363201431]],
    [[1832780943, 270669613], [64467757, 2916123636], [2465931498, 255383827]]],
  [0, [2, 3],
    [[[3792494674, 582972539], [2883479965, 3114868201], [1492792183, 3245818218]], [[2909014575, 82862454], [1782947029, 692041252], [1067690106, 2610540821]]],
    [[[1797259609, 2579123966], [928981903, 3453687069], [4146024105, 2718843009]], [[2467461003, 3840466878], [2285895361, 433833334], [1524306142, 1887795613]]]],
];

describe('random.split (§3.3)', () => {
  it.each(SPLITS.map((c) => [`split(key(${c[0]}), ${JSON.stringify(c[1])})`, ...c] as const))('%s', (_, seed, num, original, partitionable) => {
    for (const x64 of [true, false]) {
      expect(withModes({ x64, threefryPartitionable: false }, () => data(random.split(random.key(seed), num)))).toEqual(original);
      expect(withModes({ x64, threefryPartitionable: true }, () => data(random.split(random.key(seed), num)))).toEqual(partitionable);
    }
  });

  it('defaults to two keys and destructures', () => {
    const [a, b] = random.split(random.key(0));
    expect(data(a!)).toEqual([1797259609, 2579123966]);
    expect(data(b!)).toEqual([928981903, 3453687069]);
  });

  it('reproduces the Common Gotchas chain in both modes (§3.3)', () => {
    withModes({ threefryPartitionable: false }, () => {
      let [key, subkey] = random.split(random.key(0));
      expect([data(key!), data(subkey!)]).toEqual([[4146024105, 967050713], [2718843009, 1272950319]]);
      [key, subkey] = random.split(key!);
      expect([data(key!), data(subkey!)]).toEqual([[2384771982, 3928867769], [1278412471, 2182328957]]);
    });
    withModes({ threefryPartitionable: true }, () => {
      let [key, subkey] = random.split(random.key(0));
      [key, subkey] = random.split(key!);
      expect([data(key!), data(subkey!)]).toEqual([[4165894930, 804218099], [1353695780, 2116000888]]);
    });
  });

  it('is prefix-stable and equals foldIn in partitionable mode', () => {
    const k = random.key(123);
    const five = random.split(k, 5);
    for (let i = 0; i < 5; i++) expect(data(five.at(i))).toEqual(data(random.foldIn(k, i)));
    expect(data(random.split(k, 3))).toEqual((data(five) as number[][]).slice(0, 3));
    expect(data(random.split(k, [2, 3]))).toEqual([
      (data(random.split(k, 6)) as number[][]).slice(0, 3), (data(random.split(k, 6)) as number[][]).slice(3),
    ]);
  });

  it('gives count-dependent keys in original mode', () => {
    withModes({ threefryPartitionable: false }, () => {
      expect(data(random.split(random.key(0), 3).at(0))).not.toEqual(data(random.split(random.key(0), 2).at(0)));
    });
  });

  it('splits into zero keys', () => {
    expect(random.split(random.key(0), 0).shape).toEqual([0]);
  });
});

describe('random.foldIn (§4)', () => {
  it.each([
    [0, 0, [1797259609, 2579123966]],
    [0, 1, [928981903, 3453687069]],
    [0, 4, [2285895361, 433833334]],
    [42, 123, [2238821533, 719561804]],
    [0, -1, [743310391, 3789761811]],
    [0, 0xffffffff, [743310391, 3789761811]],
  ] as const)('foldIn(key(%i), %i)', (seed, d, want) => {
    for (const m of ALL_MODES) expect(withModes(m, () => data(random.foldIn(random.key(seed), d)))).toEqual(want);
  });
});

describe('key arrays', () => {
  it('refuse iteration and indexing when scalar', () => {
    expect(() => [...random.key(0)]).toThrow(TypeError);
    expect(() => random.key(0).at(0)).toThrow(/single key/);
  });

  it('index from the end and check bounds', () => {
    const ks = random.split(random.key(5), 4);
    expect(data(ks.at(-1))).toEqual(data(ks.at(3)));
    expect(() => ks.at(4)).toThrow(RangeError);
    expect(random.split(random.key(5), [2, 3]).at(1).shape).toEqual([3]);
  });

  it('round-trip through keyData and wrapKeyData', () => {
    const ks = random.split(random.key(9), [2, 2]);
    const back = random.wrapKeyData(random.keyData(ks));
    expect(back.shape).toEqual([2, 2]);
    expect(data(back)).toEqual(data(ks));
    expect(data(random.wrapKeyData([0, 42]))).toEqual(data(random.key(42)));
    expect(data(random.wrapKeyData(Uint32Array.of(0, 42)))).toEqual([0, 42]);
  });
});

describe('bad input', () => {
  it.each([
    ['a fraction', 1.5, TypeError, /`seed` must be an integer/],
    ['NaN', NaN, TypeError, /`seed` must be an integer/],
    ['Infinity', Infinity, TypeError, /`seed`/],
    ['a string', '3', TypeError, /`seed`/],
    ['null', null, TypeError, /`seed`/],
    ['an unsafe integer', 2 ** 60, RangeError, /bigint/],
    ['a bigint >= 2^64', 2n ** 64n, RangeError, /`seed` must be in/],
    ['a bigint < -2^63', -(2n ** 63n) - 1n, RangeError, /`seed` must be in/],
    ['a float tensor', tensor(1.5), TypeError, /integer dtype/],
  ])('key rejects %s', (_, seed, cls, msg) => {
    expect(() => random.key(seed as never)).toThrow(cls);
    expect(() => random.key(seed as never)).toThrow(msg);
    expect(() => random.key(seed as never)).toThrow(/random\.key/);
  });

  it('key rejects an unknown impl', () => {
    expect(() => random.key(0, { impl: 'rbg' as never })).toThrow(RangeError);
    expect(() => random.key(0, { impl: 'rbg' as never })).toThrow(/`impl`/);
  });

  it.each([
    ['negative', -1, RangeError],
    ['fractional', 2.5, TypeError],
    ['a negative entry', [2, -3], RangeError],
    ['a fractional entry', [2, 0.5], TypeError],
    ['a string', 'two', TypeError],
  ])('split rejects a %s num', (_, num, cls) => {
    expect(() => random.split(random.key(0), num as never)).toThrow(cls);
    expect(() => random.split(random.key(0), num as never)).toThrow(/random\.split: `num/);
  });

  it('split, foldIn and bits reject a batch of keys or a raw array', () => {
    const batch = random.split(random.key(0), 2);
    expect(() => random.split(batch)).toThrow(/random\.split: `key` must be a single key/);
    expect(() => random.foldIn(batch, 1)).toThrow(TypeError);
    expect(() => random.split(Uint32Array.of(0, 0) as never)).toThrow(/must be a KeyArray/);
    expect(() => random.bits([0, 0] as never)).toThrow(TypeError);
  });

  it('foldIn rejects non-integer and out-of-range data', () => {
    expect(() => random.foldIn(random.key(0), 1.5)).toThrow(TypeError);
    expect(() => random.foldIn(random.key(0), 2 ** 32)).toThrow(/`data`/);
    expect(() => random.foldIn(random.key(0), -(2 ** 31) - 1)).toThrow(RangeError);
  });

  it('wrapKeyData rejects the wrong trailing shape, dtype or words', () => {
    expect(() => random.wrapKeyData([1, 2, 3])).toThrow(/trailing axis of length 2/);
    expect(() => random.wrapKeyData(tensor([1, 2]))).toThrow(/uint32/);
    expect(() => random.wrapKeyData([1, -2])).toThrow(RangeError);
    expect(() => random.wrapKeyData([[1, 2], [3]])).toThrow(/`data`/);
    expect(() => random.wrapKeyData(7 as never)).toThrow(TypeError);
  });
});
