import { describe, expect, it } from 'vitest';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { broadcastData } from '../../src/tensor/broadcast.js';

const nums = (data: ArrayLike<number | bigint>) => Array.from(data, Number);

describe('tensor()', () => {
  it('infers shape and dtype from nested arrays', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]]);
    expect(t.shape).toEqual([2, 3]);
    expect(t.dtype).toBe('float64');
    expect(t.data).toBeInstanceOf(Float64Array);
    expect(tensor([true, false]).dtype).toBe('bool');
    expect(tensor([1n, 2n]).dtype).toBe('int64');
    expect(tensor(Int32Array.of(1, 2)).dtype).toBe('int32');
    expect(tensor(3).shape).toEqual([]);
  });

  it('converts to a requested dtype', () => {
    expect(nums(tensor([1.7, -2.5], 'int32').data)).toEqual([1, -2]);
    expect(nums(tensor([0.1], 'float32').data)).toEqual([Math.fround(0.1)]);
    expect(tensor([1, 0], 'bool').toArray()).toEqual([true, false]);
  });

  it('round-trips through toArray and item', () => {
    expect(tensor([[1, 2], [3, 4]]).toArray()).toEqual([[1, 2], [3, 4]]);
    expect(tensor([5]).item()).toBe(5);
    expect(tensor([2n ** 63n - 1n], 'int64').item()).toBe(2n ** 63n - 1n);
    expect(tensor([[1, 2]]).toString()).toBe('Tensor([[1, 2]], dtype=float64)');
  });

  it('prints its values, NumPy style, in String() and console.log (util.inspect), summarised above 1000 elements', async () => {
    const { inspect } = await import('node:util');
    expect(String(tensor(2.5))).toBe('Tensor(2.5, dtype=float64)');
    expect(String(tensor([true, false], 'bool'))).toBe('Tensor([true, false], dtype=bool)');
    expect(String(tensor([-(2n ** 63n)], 'int64'))).toBe('Tensor([-9223372036854775808], dtype=int64)');
    expect(String(tensor([], 'float32'))).toBe('Tensor([], dtype=float32)');
    expect(inspect(tensor([[1, 2.5], [3, 4]]))).toBe('Tensor([[1, 2.5], [3, 4]], dtype=float64)');
    const big = tensor(Array.from({ length: 2002 }, (_, i) => i)).reshape([2, 1001]);
    expect(String(big)).toBe('Tensor([[0, 1, 2, ..., 998, 999, 1000], [1001, 1002, 1003, ..., 1999, 2000, 2001]], dtype=float64)');
    expect(String(tensor(Array.from({ length: 1000 }, () => 0)))).not.toContain('...');   // 1000 elements: all shown
  });

  it('reshapes sharing data, with one inferred dimension', () => {
    const t = tensor([1, 2, 3, 4, 5, 6]);
    const r = t.reshape([2, -1]);
    expect(r.shape).toEqual([2, 3]);
    expect(r.data).toBe(t.data);
    expect(r.toArray()).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('rejects ragged arrays, wrong sizes and non-numbers', () => {
    expect(() => tensor([[1, 2], [3]])).toThrow(/rectangular/);
    expect(() => tensor(['a'])).toThrow(TypeError);
    expect(() => tensor([1, 2, 3]).reshape([2, 2])).toThrow(RangeError);
    expect(() => tensor([1]).reshape([1.5])).toThrow(TypeError);
    expect(() => tensor([1, 2]).item()).toThrow(/2 elements/);
    expect(() => new Tensor(new Float64Array(3), [2])).toThrow(RangeError);
    expect(() => new Tensor(new Float64Array(2) as never, [2], 'int32')).toThrow(TypeError);
    expect(() => tensor([1], 'complex64' as never)).toThrow(RangeError);
  });
});

describe('broadcastData', () => {
  it('stretches size-1 and missing leading axes', () => {
    expect(nums(broadcastData('f', 'x', tensor([[1], [2]]), [2, 3]))).toEqual([1, 1, 1, 2, 2, 2]);
    expect(nums(broadcastData('f', 'x', tensor([1, 2, 3]), [2, 3]))).toEqual([1, 2, 3, 1, 2, 3]);
    expect(nums(broadcastData('f', 'x', tensor(7), [2]))).toEqual([7, 7]);
  });

  it('names the function and argument when shapes do not broadcast', () => {
    expect(() => broadcastData('random.f', 'p', tensor([1, 2]), [3])).toThrow(/random\.f: `p` of shape \[2\] must broadcast to shape \[3\]/);
  });
});

describe('tensor(): no silent wrong values (issue 18)', () => {
  it('refuses values out of an integer dtype\'s range, as NumPy 2 does, instead of wrapping', () => {
    expect(() => tensor([300], 'uint8')).toThrow(RangeError);
    expect(() => tensor([300], 'uint8')).toThrow(/^tensor: `values` must fit uint8 \(integers in \[0, 255\] after truncation; NumPy 2 raises too\); got 300$/);
    expect(() => tensor([-1], 'uint32')).toThrow(/must fit uint32/);
    expect(() => tensor([2 ** 40], 'int32')).toThrow(/must fit int32/);
    expect(() => tensor([2 ** 63], 'int64')).toThrow(/must fit int64/);
    expect(() => tensor([2n ** 64n], 'uint64')).toThrow(/must fit uint64/);
    expect(() => tensor([-1n], 'uint64')).toThrow(/must fit uint64/);
    expect(() => tensor([NaN], 'int16')).toThrow(/must fit int16/);
    expect(() => tensor([Infinity], 'int8')).toThrow(/must fit int8/);
    // In range (after truncation toward zero) is fine, at both ends.
    expect(nums(tensor([255, 255.9, -0.9], 'uint8').data)).toEqual([255, 255, 0]);
    expect(nums(tensor([-128, 127], 'int8').data)).toEqual([-128, 127]);
    expect(tensor([2 ** 53], 'int64').item()).toBe(2n ** 53n);
    expect(tensor([true, 2], 'bool').toArray()).toEqual([true, true]);
    // Casting an existing tensor keeps NumPy's astype semantics (wrapping).
    expect(Array.from(tensor([300]).astype('uint8').data)).toEqual([44]);
  });

  it('astype refuses a name that is not a dtype with a TypeError', () => {
    expect(() => tensor([1]).astype('float99' as never)).toThrow(TypeError);
    expect(() => tensor([1]).astype('float99' as never)).toThrow(/^Tensor\.astype: `dtype` must be one of float64, .*; got "float99"$/);
    expect(() => tensor([1]).astype(undefined as never)).toThrow(/Tensor\.astype: `dtype` must be one of .*; got undefined/);
  });

  it('refuses arrays nested too deep or containing themselves with a TypeError, not a stack overflow', () => {
    let deep: unknown = [1];
    for (let i = 0; i < 1e5; i++) deep = [deep];
    expect(() => tensor(deep)).toThrow(TypeError);
    expect(() => tensor(deep)).toThrow(/tensor: `values` must be nested at most 64 levels deep/);
    const cyclic: unknown[] = [1];
    cyclic.push(cyclic);
    expect(() => tensor(cyclic)).toThrow(/tensor: `values` must not contain itself/);
  });
});

describe('typed accessors (issue 34 item 6): numbers without casts', () => {
  it('toNumber gives a number for every dtype, exact or a RangeError', () => {
    const f: number = tensor([2.5], 'float32').toNumber();
    expect(f).toBe(2.5);
    expect(tensor([true], 'bool').toNumber()).toBe(1);
    expect(tensor([-7n], 'int64').toNumber()).toBe(-7);
    expect(tensor([2n ** 53n - 1n], 'uint64').toNumber()).toBe(2 ** 53 - 1);
    expect(() => tensor([2n ** 53n], 'int64').toNumber()).toThrow(RangeError);
    expect(() => tensor([2n ** 53n], 'int64').toNumber()).toThrow(/Tensor\.toNumber: element 0 is 9007199254740992/);
    expect(() => tensor([1, 2]).toNumber()).toThrow(/Tensor\.toNumber: the tensor has 2 elements, not 1/);
  });

  it('toNumbers is flat, row-major and a copy', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]], 'int32');
    const xs: number[] = t.toNumbers();
    expect(xs).toEqual([1, 2, 3, 4, 5, 6]);
    xs[0] = 99;
    expect(t.data[0]).toBe(1);
    expect(tensor([[true, false]], 'bool').toNumbers()).toEqual([1, 0]);
    expect(() => tensor([3n, -(2n ** 60n)], 'int64').toNumbers()).toThrow(/element 1 is -1152921504606846976/);
    expect(tensor([], 'float64').toNumbers()).toEqual([]);
  });

  it('item is typed by a known dtype, toArray by the nesting the caller states', () => {
    const x: number = tensor([1.5], 'float64').item();
    const b: boolean = tensor([false], 'bool').item();
    const n: bigint = tensor([4n], 'int64').item();
    expect([x, b, n]).toEqual([1.5, false, 4n]);
    const rows = tensor([[1, 2], [3, 4]]).toArray<number[][]>();
    expect(rows[1]![0]! + rows[0]![1]!).toBe(5);
  });
});
