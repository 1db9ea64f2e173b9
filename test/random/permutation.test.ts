import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { shuffleRounds } from '../../src/random/shuffle.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

const nums = (t: { data: ArrayLike<number | bigint> }) => Array.from(t.data, Number);

describe('shuffle rounds', () => {
  it('follows ceil(3 ln n / ln(2^32 - 1)) at the boundaries (reference/jax-random.md §6.8)', () => {
    expect([0, 1, 2, 1625, 1626, 2642245, 2642246].map(shuffleRounds)).toEqual([0, 0, 1, 1, 2, 2, 3]);
  });
});

describe('random.permutation', () => {
  it('returns a permutation of [0, n) in the default int dtype', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const p = random.permutation(random.key(1), 2000);
        expect(p.dtype).toBe(m.x64 ? 'int64' : 'int32');
        expect([...nums(p)].sort((a, b) => a - b)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
      });
    }
  });

  it('is the identity for n = 0 and 1 (zero rounds)', () => {
    expect(nums(random.permutation(random.key(1), 0))).toEqual([]);
    expect(nums(random.permutation(random.key(1), 1))).toEqual([0]);
  });

  it('orders by one stable sort on the sub-key bits for small n', () => {
    // One round: key, sub = split(key); sort positions by bits(sub), ties by position.
    const key = random.key(21);
    const [, sub] = random.split(key);
    const sk = nums(random.bits(sub!, [50], { dtype: 'uint32' }));
    const expected = Array.from({ length: 50 }, (_, i) => i).sort((a, b) => sk[a]! - sk[b]! || a - b);
    expect(nums(random.permutation(key, 50))).toEqual(expected);
  });

  it('permutes the slices of an array along an axis together', () => {
    const x = tensor([[1, 2, 3], [4, 5, 6]]);
    const rows = random.permutation(random.key(4), x).toArray() as number[][];
    expect(rows.map((r) => r[0]).sort()).toEqual([1, 4]);
    for (const r of rows) expect([r[1]! - r[0]!, r[2]! - r[0]!]).toEqual([1, 2]);
    const cols = random.permutation(random.key(4), x, { axis: 1 });
    const perm = nums(random.permutation(random.key(4), 3));
    expect(cols.toArray()).toEqual([perm.map((j) => [1, 2, 3][j]), perm.map((j) => [4, 5, 6][j])]);
    expect(random.permutation(random.key(4), x, { axis: -1 }).toArray()).toEqual(cols.toArray());
  });

  it('shuffles each lane on its own with independent: true', () => {
    const x = tensor(Array.from({ length: 4 }, () => Array.from({ length: 30 }, (_, j) => j)));
    const out = random.permutation(random.key(8), x, { axis: 1, independent: true }).toArray() as number[][];
    for (const row of out) expect([...row].sort((a, b) => a - b)).toEqual((x.toArray() as number[][])[0]);
    expect(new Set(out.map((r) => r.join())).size).toBeGreaterThan(1);
  });

  it('puts each element at each position equally often (chi-square, 6000 keys, alpha 1e-6)', () => {
    const n = 6;
    const counts = Array.from({ length: n }, () => new Array(n).fill(0));
    const keys = random.split(random.key(99), 6000);
    for (const k of keys) nums(random.permutation(k, n)).forEach((v, pos) => counts[v]![pos]++);
    const flat = counts.flat();
    expect(chiSquarePValue(flat, flat.map(() => 1 / flat.length))).toBeGreaterThan(ALPHA);
  });

  it('rejects bad n, arrays of rank 0, bad axes and options', () => {
    expect(() => random.permutation(random.key(0), -1)).toThrow(/random\.permutation: `x`/);
    expect(() => random.permutation(random.key(0), 2.5)).toThrow(TypeError);
    expect(() => random.permutation(random.key(0), tensor(3))).toThrow(/at least 1-dimensional/);
    expect(() => random.permutation(random.key(0), tensor([1, 2]), { axis: 1 })).toThrow(/`axis`/);
    expect(() => random.permutation(random.key(0), 'abc' as never)).toThrow(TypeError);
    expect(() => random.permutation(random.key(0), 5, { independent: 'yes' as never })).toThrow(/`independent`/);
  });
});

describe('random.permutation sizes (issue 18)', () => {
  it('refuses an n above 2^28 up front, naming the function and the size', () => {
    expect(() => random.permutation(random.key(0), 1e12)).toThrow(RangeError);
    expect(() => random.permutation(random.key(0), 1e12)).toThrow(/^random\.permutation: `x` is 1000000000000, more than the limit of 268435456/);
  });
});
