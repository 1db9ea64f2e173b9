/**
 * Creation and shape ops: values against reference loops written here (and a few NumPy/Python
 * tables), dtypes, gradients with checkGradient (including broadcasting) and error paths.
 */
import { describe, expect, it } from 'vitest';
import { checkGradient, grad } from '../../src/tensor/autodiff.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { arange, eye, full, linspace, ones, onesLike, zeros, zerosLike } from '../../src/tensor/ops/create.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo, concat, expandDims, gather, reshape, slice, squeeze, stack, transpose } from '../../src/tensor/ops/shape.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

const vals = (t: Tensor) => Array.from(t.data as ArrayLike<number>);
const rng = (seed: number) => () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 2 ** 32; };
const rand = (shape: number[], r = rng(7)) => {
  const n = shape.reduce((a, b) => a * b, 1);
  return new Tensor(Float64Array.from({ length: n }, () => 4 * r() - 2), shape);
};
const strides = (s: readonly number[]) => s.map((_, i) => s.slice(i + 1).reduce((a, b) => a * b, 1));
/** Multi-index of flat index k in shape s. */
const unravel = (k: number, s: readonly number[]) => s.map((d, i) => Math.floor(k / strides(s)[i]!) % d);
const ravel = (idx: readonly number[], s: readonly number[]) => idx.reduce((a, v, i) => a + v * strides(s)[i]!, 0);
/** A scalar test function: Σ w ⊙ op(x) for fixed random weights w of op's output shape. */
const weighted = (op: (x: Tensor) => Tensor, seed = 3) => (x: Tensor) => {
  const y = op(x);
  return sum(mul(y, rand([...y.shape], rng(seed))));
};
const TOL = 1e-7;

describe('creation', () => {
  it('fills zeros, ones and full with the requested dtype', () => {
    expect(zeros([2, 3]).toArray()).toEqual([[0, 0, 0], [0, 0, 0]]);
    expect(zeros(3, 'int32').dtype).toBe('int32');
    expect(ones([2], 'float32').data).toBeInstanceOf(Float32Array);
    expect(ones([2], 'bool').toArray()).toEqual([true, true]);
    expect(ones([1], 'int64').toArray()).toEqual([1n]);
    expect(full([2, 2], 7).toArray()).toEqual([[7, 7], [7, 7]]);
    expect(full(2, true).dtype).toBe('bool');
    expect(full([], 5n).toArray()).toBe(5n);
    expect(full([], -2.7, 'int32').item()).toBe(-2);
    expect(full([1], 0.1, 'float32').item()).toBe(Math.fround(0.1));
    expect(zeros([0, 3]).shape).toEqual([0, 3]);
    expect(zerosLike(tensor([[1, 2]], 'int16')).dtype).toBe('int16');
    expect(onesLike([[1, 2]]).toArray()).toEqual([[1, 1]]);
    expect(onesLike([1, 2], 'uint8').dtype).toBe('uint8');
  });

  it('arange matches NumPy bit for bit', () => {
    // python3 -c "import numpy as np; print(np.arange(-3, 3, 0.7).tolist(), np.arange(5, 1, -1.5).tolist(), np.arange(0, 1, 0.1).tolist())"
    expect(vals(arange(-3, 3, 0.7))).toEqual([-3.0, -2.3, -1.5999999999999996, -0.8999999999999995, -0.1999999999999993,
      0.5000000000000009, 1.200000000000001, 1.9000000000000012, 2.6000000000000014]);
    expect(vals(arange(5, 1, -1.5))).toEqual([5, 3.5, 2]);
    expect(vals(arange(0, 1, 0.1))).toEqual([0.0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9]);
    expect(vals(arange(4))).toEqual([0, 1, 2, 3]);
    expect(vals(arange(2, 5))).toEqual([2, 3, 4]);
    expect(arange(3, 1).shape).toEqual([0]);
    expect(arange(-2).shape).toEqual([0]);
    const i = arange(0, 3, 1, 'int32');
    expect(i.dtype).toBe('int32');
    expect(vals(i)).toEqual([0, 1, 2]);
  });

  it('linspace matches NumPy, including the exact endpoint and subnormal steps', () => {
    // python3 -c "import numpy as np; print(np.linspace(-0.3, 1.1, 8).tolist(), np.linspace(-1, 2.5, 6, endpoint=False).tolist(), np.linspace(1e-320, 2e-320, 3).tolist())"
    expect(vals(linspace(-0.3, 1.1, 8))).toEqual([-0.3, -0.09999999999999998, 0.10000000000000003, 0.3000000000000001, 0.5, 0.7,
      0.9000000000000001, 1.1]);
    expect(vals(linspace(-1, 2.5, 6, { endpoint: false }))).toEqual([-1, -0.41666666666666663, 0.16666666666666674, 0.75,
      1.3333333333333335, 1.916666666666667]);
    expect(vals(linspace(1e-320, 2e-320, 3))).toEqual([1e-320, 1.5e-320, 2e-320]);
    expect(linspace(0, 1).shape).toEqual([50]);
    expect(vals(linspace(2, 3, 1))).toEqual([2]);
    expect(linspace(2, 3, 0).shape).toEqual([0]);
    expect(linspace(0, 4, 5, { dtype: 'int32' }).dtype).toBe('int32');
  });

  it('linspace checks its options: an unknown name is a TypeError naming it', () => {
    expect(() => linspace(0, 1, 3, { endPoint: false } as never)).toThrow(TypeError);
    expect(() => linspace(0, 1, 3, { endPoint: false } as never)).toThrow(/linspace: `options` has unknown option `endPoint` \(known: endpoint, dtype\)/);
    expect(() => linspace(0, 1, 3, { endpoint: 'no' } as never)).toThrow(/linspace: `endpoint` must be a boolean/);
    expect(() => linspace(0, 1, 3, { dtype: 'float99' } as never)).toThrow(/linspace: `dtype`/);
    expect(() => linspace(0, 1, 3, 5 as never)).toThrow(/linspace: `options` must be an object/);
  });

  it('eye puts ones on the k-th diagonal', () => {
    for (const [n, m, k] of [[3, 3, 0], [2, 4, 1], [4, 2, -1], [3, 5, -3], [2, 2, 5]] as const) {
      const e = eye(n, m, k);
      expect(e.shape).toEqual([n, m]);
      for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) expect(e.data[i * m + j]).toBe(j - i === k ? 1 : 0);
    }
    expect(eye(2).toArray()).toEqual([[1, 0], [0, 1]]);
    expect(eye(2, undefined, 0, 'int64').toArray()).toEqual([[1n, 0n], [0n, 1n]]);
  });

  it('rejects bad shapes, dtypes and ranges', () => {
    expect(() => zeros([2, -1])).toThrow(RangeError);
    expect(() => zeros([1.5])).toThrow(/zeros: `shape\[0\]`/);
    expect(() => ones([2], 'complex' as never)).toThrow(/ones: `dtype`/);
    expect(() => full([2], 'a' as never)).toThrow(TypeError);
    expect(() => full([2], NaN, 'int64')).toThrow(RangeError);
    expect(() => arange(0, 1, 0)).toThrow(/arange: `step` must not be 0/);
    expect(() => arange(Infinity)).toThrow(RangeError);
    expect(() => arange(0, 1e10, 1e-10)).toThrow(RangeError);
    expect(() => linspace(0, 1, -1)).toThrow(/linspace: `num`/);
    expect(() => linspace(0, 1, 3, { endpoint: 1 as never })).toThrow(TypeError);
    expect(() => eye(-1)).toThrow(/eye: `n`/);
    expect(() => eye(2, 2, 0.5)).toThrow(/eye: `k`/);
  });
});

describe('reshape, expandDims, squeeze', () => {
  it('change the shape, keep the data and the dtype', () => {
    const x = tensor([1, 2, 3, 4, 5, 6], 'int32');
    expect(reshape(x, [3, -1]).shape).toEqual([3, 2]);
    expect(reshape(x, [3, -1]).dtype).toBe('int32');
    expect(reshape([[7]], []).shape).toEqual([]);
    expect(reshape(zeros([0, 4]), [-1, 2]).shape).toEqual([0, 2]);
    expect(expandDims([1, 2], 0).shape).toEqual([1, 2]);
    expect(expandDims([1, 2], -1).shape).toEqual([2, 1]);
    expect(expandDims([1, 2], [0, -1]).shape).toEqual([1, 2, 1]);
    expect(expandDims(5, 0).toArray()).toEqual([5]);
    expect(squeeze(zeros([1, 2, 1, 3, 1])).shape).toEqual([2, 3]);
    expect(squeeze(zeros([1, 2, 1]), -1).shape).toEqual([1, 2]);
    expect(squeeze(zeros([1, 2, 1]), [0, 2]).shape).toEqual([2]);
    expect(squeeze([[4]]).shape).toEqual([]);
  });

  it('pass gradients through', () => {
    const x = rand([2, 3]);
    expect(checkGradient(weighted((t) => reshape(t, [3, 1, 2])), x).maxRelativeError).toBeLessThan(TOL);
    expect(checkGradient(weighted((t) => expandDims(t, 1)), x).maxRelativeError).toBeLessThan(TOL);
    expect(checkGradient(weighted((t) => squeeze(reshape(t, [1, 6, 1]))), x).maxRelativeError).toBeLessThan(TOL);
    // A view used twice and with broadcasting: d/dx Σ w ⊙ (x[:, None] + x[None, :]).
    const f = (t: Tensor) => { const v = reshape(t, [-1]); return add(expandDims(v, 1), expandDims(v, 0)); };
    expect(checkGradient(weighted(f), x).maxRelativeError).toBeLessThan(TOL);
  });

  it('reject bad shapes and axes', () => {
    expect(() => reshape([1, 2, 3], [2, -1])).toThrow(/reshape: `shape` cannot hold the 3 elements of shape \[3\]/);
    expect(() => reshape([1, 2, 3, 4], [-1, -1])).toThrow(/only once/);
    expect(() => reshape([1, 2, 3], [2, 2])).toThrow(RangeError);
    expect(() => reshape([1, 2], [2.5])).toThrow(TypeError);
    expect(() => expandDims([1, 2], 3)).toThrow(/expandDims: `axis` must be an axis in \[-2, 2\)/);
    expect(() => expandDims([1, 2], [0, 0])).toThrow(/repeat/);
    expect(() => squeeze(zeros([1, 2]), 1)).toThrow(/squeeze: `axis` names axis 1 of length 2 in shape \[1, 2\]/);
    expect(() => squeeze(zeros([1, 2]), 2)).toThrow(RangeError);
  });
});

describe('transpose', () => {
  it('matches a reference loop for every permutation of a 3-D tensor', () => {
    const shape = [2, 3, 4];
    const x = rand(shape);
    for (const perm of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
      const y = transpose(x, perm);
      const outShape = perm.map((p) => shape[p]!);
      expect(y.shape).toEqual(outShape);
      for (let k = 0; k < y.size; k++) {
        const o = unravel(k, outShape);
        const i: number[] = [];
        perm.forEach((p, d) => { i[p] = o[d]!; });
        expect(y.data[k]).toBe(x.data[ravel(i, shape)]);
      }
      expect(checkGradient(weighted((t) => transpose(t, perm)), x).maxRelativeError).toBeLessThan(TOL);
    }
    expect(transpose([[1, 2, 3]]).toArray()).toEqual([[1], [2], [3]]);
    expect(transpose(x).shape).toEqual([4, 3, 2]);
    expect(transpose(x, [-1, 0, 1]).shape).toEqual([4, 2, 3]);
    expect(transpose(tensor([[1, 2]], 'uint8')).dtype).toBe('uint8');
    expect(transpose(7).item()).toBe(7);
  });

  it('rejects an axes list that is not a permutation', () => {
    expect(() => transpose(zeros([2, 3]), [0, 0])).toThrow(/transpose: `axes` must list each of the 2 axes of shape \[2, 3\] once/);
    expect(() => transpose(zeros([2, 3]), [0])).toThrow(RangeError);
    expect(() => transpose(zeros([2, 3]), [0, 2])).toThrow(RangeError);
  });
});

describe('concat and stack', () => {
  it('join along any axis like a reference loop', () => {
    const r = rng(11);
    for (const axis of [0, 1, 2, -1]) {
      const ax = (axis + 3) % 3;
      const shapes = [2, 1, 3].map((len) => { const s = [2, 3, 2]; s[ax] = len; return s; });
      const xs = shapes.map((s) => rand(s, r));
      const y = concat(xs, axis);
      const outShape = [2, 3, 2];
      outShape[ax] = 6;
      expect(y.shape).toEqual(outShape);
      for (let k = 0; k < y.size; k++) {
        const idx = unravel(k, outShape);
        let which = 0, pos = idx[ax]!;
        while (pos >= shapes[which]![ax]!) pos -= shapes[which++]![ax]!;
        idx[ax] = pos;
        expect(y.data[k]).toBe(xs[which]!.data[ravel(idx, shapes[which]!)]);
      }
    }
    expect(concat([[1, 2], [3], []]).toArray()).toEqual([1, 2, 3]);
  });

  it('stack along a new axis', () => {
    expect(stack([[1, 2], [3, 4]]).toArray()).toEqual([[1, 2], [3, 4]]);
    expect(stack([[1, 2], [3, 4]], 1).toArray()).toEqual([[1, 3], [2, 4]]);
    expect(stack([[1, 2], [3, 4]], -1).toArray()).toEqual([[1, 3], [2, 4]]);
    expect(stack([1, 2, 3]).toArray()).toEqual([1, 2, 3]);
    const xs = [rand([2, 3], rng(1)), rand([2, 3], rng(2))];
    const y = stack(xs, 1);
    expect(y.shape).toEqual([2, 2, 3]);
    for (let i = 0; i < 2; i++) for (let s = 0; s < 2; s++) for (let j = 0; j < 3; j++) {
      expect(y.data[(i * 2 + s) * 3 + j]).toBe(xs[s]!.data[i * 3 + j]);
    }
  });

  it('keep a common dtype and promote mixed ones', () => {
    expect(concat([tensor([1], 'int32'), tensor([2], 'int32')]).dtype).toBe('int32');
    expect(concat([tensor([1n]), tensor([2n])]).toArray()).toEqual([1n, 2n]);
    expect(concat([tensor([1], 'float32'), tensor([2], 'float32')]).dtype).toBe('float32');
    const m = concat([tensor([1], 'int32'), tensor([2.5], 'float32'), tensor([3n])]);
    expect(m.dtype).toBe('float64');
    expect(vals(m)).toEqual([1, 2.5, 3]);
  });

  it('send each input its part of the gradient', () => {
    const b = rand([2, 2], rng(5));
    expect(checkGradient(weighted((t) => concat([t, b, t], 1)), rand([2, 3])).maxRelativeError).toBeLessThan(TOL);
    expect(checkGradient(weighted((t) => stack([t, b, t], 2)), rand([2, 2])).maxRelativeError).toBeLessThan(TOL);
    // Gradient with respect to two joined arguments at once, one of them broadcast first.
    const g = grad((u: Tensor, v: Tensor) => sum(mul(concat([broadcastTo(u, [2, 2]), v]), [[1, 2], [3, 4], [5, 6]])), [0, 1])(
      [10, 20], [[1, 1]]) as Tensor[];
    expect(g[0]!.toArray()).toEqual([4, 6]);
    expect(g[1]!.toArray()).toEqual([[5, 6]]);
  });

  it('name both shapes when they do not match', () => {
    expect(() => concat([zeros([2, 3]), zeros([2, 4])])).toThrow(/concat: `xs\[1\]` of shape \[2, 4\] does not match `xs\[0\]` of shape \[2, 3\]/);
    expect(() => concat([zeros([2, 3]), zeros([2, 3, 1])], 1)).toThrow(/\[2, 3, 1\].*\[2, 3\]/);
    expect(() => concat([zeros([2])], 1)).toThrow(/concat: `axis`/);
    expect(() => concat([1, 2])).toThrow(/at least one dimension/);
    expect(() => concat([])).toThrow(/concat: `xs` must hold at least one tensor/);
    expect(() => concat(zeros([2]) as never)).toThrow(TypeError);
    expect(() => stack([zeros([2, 3]), zeros([3, 2])])).toThrow(/stack: `xs\[1\]` of shape \[3, 2\] does not match `xs\[0\]` of shape \[2, 3\]/);
    expect(() => stack([zeros([2])], 2)).toThrow(/stack: `axis`/);
  });
});

describe('slice', () => {
  it('TF form (begin, size) matches a reference loop', () => {
    const shape = [3, 4, 5];
    const x = rand(shape);
    const cases: [number[], number[]][] = [[[0, 0, 0], [3, 4, 5]], [[1, 2, 0], [2, -1, 3]], [[2, 3, 4], [1, 1, 1]], [[0, 1], [-1, 2]], [[1, 0, 5], [1, 2, 0]]];
    for (const [begin, size] of cases) {
      const y = slice(x, begin, size);
      const counts = shape.map((d, i) => (i >= size.length ? d : size[i] === -1 ? d - begin[i]! : size[i]!));
      expect(y.shape).toEqual(counts);
      for (let k = 0; k < y.size; k++) {
        const idx = unravel(k, counts).map((v, i) => v + (begin[i] ?? 0));
        expect(y.data[k]).toBe(x.data[ravel(idx, shape)]);
      }
      expect(checkGradient(weighted((t) => slice(t, begin, size)), x).maxRelativeError).toBeLessThan(TOL);
    }
    expect(slice([[1, 2, 3], [4, 5, 6]], [0, 1], [2, -1]).toArray()).toEqual([[2, 3], [5, 6]]);
  });

  it('NumPy form ({ start, stop, step }) follows Python slicing', () => {
    // python3 -c "L = list(range(7)); print(L[start:stop:step])" for each row
    const table: [(number | null)[], number[]][] = [
      [[null, null, null], [0, 1, 2, 3, 4, 5, 6]], [[2, null, null], [2, 3, 4, 5, 6]], [[-3, null, null], [4, 5, 6]],
      [[null, -2, null], [0, 1, 2, 3, 4]], [[1, 5, 2], [1, 3]], [[5, 1, -1], [5, 4, 3, 2]], [[null, null, -1], [6, 5, 4, 3, 2, 1, 0]],
      [[null, null, -3], [6, 3, 0]], [[-1, -8, -2], [6, 4, 2, 0]], [[10, null, null], []], [[-10, 3, null], [0, 1, 2]],
      [[3, 3, null], []], [[4, 2, null], []], [[null, null, 10], [0]], [[6, null, -4], [6, 2]], [[-2, 100, 1], [5, 6]],
      [[100, -100, -2], [6, 4, 2, 0]], [[0, -1, 3], [0, 3]], [[-100, null, -1], []], [[null, -100, -1], [6, 5, 4, 3, 2, 1, 0]],
    ];
    const x = arange(7);
    for (const [[start, stop, step], expected] of table) {
      const spec = { ...(start !== null && { start }), ...(stop !== null && { stop }), ...(step !== null && { step }) };
      expect(vals(slice(x, [spec])), JSON.stringify(spec)).toEqual(expected);
    }
    // python3 -c "import numpy as np; print(np.arange(24).reshape(2, 3, 4)[::-1, 1:, ::-2].tolist())"
    const a = reshape(arange(24), [2, 3, 4]);
    expect(slice(a, [{ step: -1 }, { start: 1 }, { step: -2 }]).toArray()).toEqual([[[19, 17], [23, 21]], [[7, 5], [11, 9]]]);
    expect(slice(a, [null, { stop: 1 }]).shape).toEqual([2, 1, 4]);
    expect(slice(a, []).shape).toEqual([2, 3, 4]);
    expect(checkGradient(weighted((t) => slice(t, [{ step: -1 }, { start: 1 }, { step: -2 }])), rand([2, 3, 4])).maxRelativeError).toBeLessThan(TOL);
  });

  it('keeps the dtype and rejects out-of-bounds slices', () => {
    expect(slice(tensor([1, 2, 3], 'int32'), [1], [2]).dtype).toBe('int32');
    const x = zeros([3, 4]);
    expect(() => slice(x, [0, 5], [1, 1])).toThrow(/slice: `begin\[1\]` must be in \[0, 4\] for axis 1 of shape \[3, 4\]/);
    expect(() => slice(x, [1, 0], [3, 1])).toThrow(/slice: `size\[0\]` must be -1 or in \[0, 2\]/);
    expect(() => slice(x, [0, 0, 0], [1, 1, 1])).toThrow(/more than the 2 axes/);
    expect(() => slice(x, [0], [1, 1])).toThrow(/slice: `size`/);
    expect(() => slice(x, [1])).toThrow(/slice: `size` must be an array/);
    expect(() => slice(x, [{ step: 0 }])).toThrow(/slice: `begin\[0\].step` must not be 0/);
    expect(() => slice(x, [{ start: 0.5 }])).toThrow(TypeError);
    expect(() => slice(x, [3 as never, { start: 1 }])).toThrow(TypeError);
  });
});

describe('gather', () => {
  it('matches a reference loop on every axis, with index tensors of any shape', () => {
    const shape = [3, 4, 2];
    const x = rand(shape);
    for (const axis of [0, 1, 2]) {
      const n = shape[axis]!;
      const ind = [[0, n - 1, 1], [-1, 0, 0]];
      const y = gather(x, ind, axis);
      const outShape = [...shape.slice(0, axis), 2, 3, ...shape.slice(axis + 1)];
      expect(y.shape).toEqual(outShape);
      for (let k = 0; k < y.size; k++) {
        const o = unravel(k, outShape);
        const pick = ind[o[axis]!]![o[axis + 1]!]!;
        const idx = [...o.slice(0, axis), pick < 0 ? pick + n : pick, ...o.slice(axis + 2)];
        expect(y.data[k]).toBe(x.data[ravel(idx, shape)]);
      }
      expect(checkGradient(weighted((t) => gather(t, ind, axis)), x).maxRelativeError).toBeLessThan(TOL);
    }
    expect(gather([1, 2, 3], 2).shape).toEqual([]);
    expect(gather([1, 2, 3], tensor([2, 0], 'int32')).toArray()).toEqual([3, 1]);
    expect(gather(tensor([5, 6], 'int32'), [1, 1]).dtype).toBe('int32');
    expect(gather([1, 2], []).shape).toEqual([0]);
  });

  it('scatter-adds repeated indices in the gradient', () => {
    const g = grad((t: Tensor) => sum(mul(gather(t, [2, 0, 2, 2]), [1, 10, 100, 1000])))([1, 2, 3, 4]) as Tensor;
    expect(g.toArray()).toEqual([10, 0, 1101, 0]);
  });

  it('rejects non-integer and out-of-range indices', () => {
    expect(() => gather([1, 2, 3], [0, 3])).toThrow(/gather: `indices` must be in \[-3, 3\) for axis 0 of shape \[3\]; element 1 is 3/);
    expect(() => gather([1, 2, 3], [-4])).toThrow(RangeError);
    expect(() => gather([1, 2, 3], [0.5])).toThrow(/gather: `indices` must be integers/);
    expect(() => gather([1, 2, 3], [true])).toThrow(TypeError);
    expect(() => gather([[1, 2]], [0], 2)).toThrow(/gather: `axis`/);
    expect(() => gather(1, [0])).toThrow(/at least one dimension/);
  });
});

describe('broadcastTo', () => {
  it('stretches like a reference loop and sums the gradient back', () => {
    const target = [2, 3, 4];
    for (const shape of [[3, 1], [4], [1, 3, 4], [], [2, 1, 1]]) {
      const x = rand(shape);
      const y = broadcastTo(x, target);
      expect(y.shape).toEqual(target);
      for (let k = 0; k < y.size; k++) {
        const o = unravel(k, target).slice(target.length - shape.length);
        expect(y.data[k]).toBe(x.data[ravel(o.map((v, i) => (shape[i] === 1 ? 0 : v)), shape)]);
      }
      expect(checkGradient(weighted((t) => broadcastTo(t, target)), x).maxRelativeError).toBeLessThan(TOL);
    }
    expect(broadcastTo(5, 3).toArray()).toEqual([5, 5, 5]);
    expect(broadcastTo(tensor([true]), [2]).dtype).toBe('bool');
  });

  it('names both shapes when x does not broadcast', () => {
    expect(() => broadcastTo(zeros([2, 3]), [4, 3])).toThrow(/broadcastTo: `x` of shape \[2, 3\] cannot be broadcast to `shape` \[4, 3\]/);
    expect(() => broadcastTo(zeros([2, 3]), [3])).toThrow(RangeError);
    expect(() => broadcastTo(1, [-1])).toThrow(RangeError);
  });
});
