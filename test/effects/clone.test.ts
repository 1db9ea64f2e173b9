// Copying effect arguments and chain results: tensors and keys survive structuredClone.
import { describe, expect, it } from 'vitest';
import { copyValue, decodeValue, encodeValue } from '../../src/effects/clone.js';
import { random } from '../../src/index.js';
import { KeyArray } from '../../src/random/key-array.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

describe('encodeValue / decodeValue / copyValue', () => {
  it('round-trips tensors, keys, arrays and records with their own storage', () => {
    const x = { t: tensor([[1, 2]], 'float32'), k: random.split(random.key(3), 2), list: [1, 'a', true, null, 5n], u: Uint8Array.of(1) };
    const y = copyValue('f', 'x', x) as typeof x;
    expect(y.t).toBeInstanceOf(Tensor);
    expect(y.t.dtype).toBe('float32');
    expect(y.t.toArray()).toEqual([[1, 2]]);
    expect(y.t.data).not.toBe(x.t.data);
    expect(y.k).toBeInstanceOf(KeyArray);
    expect(y.k.shape).toEqual([2]);
    expect(Array.from(y.k.data)).toEqual(Array.from(x.k.data));
    expect(y.list).toEqual(x.list);
    expect(y.u).toEqual(x.u);
  });

  it('copies only the visible part of a view', () => {
    const big = new Float64Array(1000);
    const view = new Tensor(big.subarray(10, 12), [2]);
    const e = encodeValue('f', 'x', [view, view]) as { data: Float64Array }[];
    expect(e[0]!.data.buffer.byteLength).toBe(16);
    expect((decodeValue(structuredClone(e)) as Tensor[])[1]!.shape).toEqual([2]);
  });

  it('names what cannot be cloned', () => {
    expect(() => encodeValue('effects.callback', 'args', [1, { f: () => 1 }])).toThrow(/^effects\.callback: `args\[1\]\.f` must be cloneable/);
    expect(() => encodeValue('g', 'x', Symbol('s'))).toThrow(TypeError);
    expect(() => encodeValue('g', 'x', new (class Thing {})())).toThrow(/`x` must be cloneable .*; got a Thing/);
  });
});
