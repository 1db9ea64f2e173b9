/**
 * Shape ops: reshaping, adding and removing unit axes, permuting, joining, slicing, gathering and
 * broadcasting. They move values without arithmetic, so the result keeps the input's dtype
 * (joined tensors of different dtypes become float64, or float32 when all are float32). All are
 * differentiable: the gradient of a copy is a scatter-add of the output adjoint back to where
 * each value came from (so repeated gather indices accumulate).
 *
 * @example
 * transpose([[1, 2, 3]]).toArray();              // [[1], [2], [3]]
 * concat([[1, 2], [3]]).toArray();               // [1, 2, 3]
 * gather([10, 20, 30], [2, 0]).toArray();        // [30, 10]
 * slice([[1, 2, 3], [4, 5, 6]], [0, 1], [2, -1]).toArray(); // [[2, 3], [5, 6]]
 */
import { checkAxis, checkInteger, checkShape, fail, show } from '../../checks.js';
import { asTensor, floatKind, numbers, result, type TensorLike } from '../core.js';
import { allocate, type DType, type TensorData } from '../dtype.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import { sizeOf } from '../shapes.js';
import { Tensor } from '../tensor.js';

const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;

/** Row-major strides of `shape`. */
function stridesOf(shape: readonly number[]): number[] {
  const st = new Array<number>(shape.length);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) { st[i] = s; s *= shape[i]!; }
  return st;
}

/** Flat input index of every element of `shape` for a strided view: base + Σ index[d]·strides[d]. */
function stridedIndex(shape: readonly number[], base: number, strides: readonly number[]): Int32Array {
  const n = sizeOf(shape);
  const idx = new Int32Array(n);
  const nd = shape.length;
  const index = new Array<number>(nd).fill(0);
  let o = base;
  for (let k = 0; k < n; k++) {
    idx[k] = o;
    for (let d = nd - 1; d >= 0; d--) {
      index[d]!++;
      o += strides[d]!;
      if (index[d]! < shape[d]!) break;
      o -= strides[d]! * index[d]!;
      index[d] = 0;
    }
  }
  return idx;
}

/**
 * out[k] = x[idx[k]] with x's dtype, as a tensor of `shape`; the gradient scatter-adds. `result`
 * stores any typed array, so integer tensors keep their dtype (and a tracked one its gradient).
 */
function take(x: Tensor, idx: Int32Array, shape: readonly number[]): Tensor {
  const op = takeLowering(idx);
  const out = allocate(x.dtype, idx.length) as TensorData;
  op.forward([x.data as ArrayLike<number>], out as Float64Array);
  return result(out as Float64Array, shape, [x], (g) => {
    const gx = new Float64Array(x.size);
    op.backward!(g, [], [], [gx]);
    return [gx];
  }, x.dtype, op);
}

/** out[k] = x[idx[k]]; the adjoint scatter-adds back. */
const takeLowering = kernelFactory('take', (idx: Int32Array): Lowering => {
  return {
    name: 'take',
    forward(ins, out) {
      const src = ins[0]!;
      for (let k = 0; k < idx.length; k++) out[k] = src[idx[k]!]!;
    },
    backward(g, _ins, _out, parts) {
      const gx = parts[0]!;
      gx.fill(0);
      for (let k = 0; k < idx.length; k++) gx[idx[k]!]! += g[k]!;
    },
  };
});

/** The same data and tape node viewed with another shape of the same size. */
function view(x: Tensor, shape: readonly number[]): Tensor {
  return new Tensor(x.data, shape, x.dtype, x.node);
}

/**
 * `x` with a new shape of the same number of elements (row-major order is unchanged; the data
 * is shared). One entry may be -1, inferred from the others. Function form of `Tensor.reshape`.
 *
 * @throws RangeError if the sizes differ or more than one entry is -1.
 * @example
 * reshape([1, 2, 3, 4, 5, 6], [2, -1]).toArray(); // [[1, 2, 3], [4, 5, 6]]
 * reshape([[5]], []).item();                       // 5
 */
export function reshape(x: TensorLike, shape: number | readonly number[]): Tensor {
  const fn = 'reshape';
  const t = asTensor(fn, 'x', x);
  const dims = typeof shape === 'number' ? [shape] : Array.isArray(shape) ? [...shape] : fail('type', fn, 'shape', 'must be an array of integers', shape);
  const free = dims.indexOf(-1);
  if (free >= 0) {
    if (dims.indexOf(-1, free + 1) >= 0) fail('range', fn, 'shape', 'may contain -1 only once', shape);
    const rest = checkShape(fn, 'shape', dims.filter((_, i) => i !== free));
    const known = sizeOf(rest);
    if (known === 0 ? t.size !== 0 : t.size % known !== 0) {
      fail('range', fn, 'shape', `cannot hold the ${t.size} elements of shape ${fmt(t.shape)}`, shape);
    }
    dims[free] = known === 0 ? 0 : t.size / known;
  }
  const s = checkShape(fn, 'shape', dims);
  if (sizeOf(s) !== t.size) fail('range', fn, 'shape', `must have ${t.size} elements like ${fmt(t.shape)}`, shape);
  return view(t, s);
}

/**
 * `x` with a new axis of length 1 inserted at position `axis` of the result (negative counts
 * from the end of the result, so -1 appends). Several axes may be given, as in NumPy.
 *
 * @example
 * expandDims([1, 2], 0).shape;       // [1, 2]
 * expandDims([1, 2], -1).shape;      // [2, 1]
 * expandDims([1, 2], [0, 2]).shape;  // [1, 2, 1]
 */
export function expandDims(x: TensorLike, axis: number | readonly number[]): Tensor {
  const fn = 'expandDims';
  const t = asTensor(fn, 'x', x);
  const list = typeof axis === 'number' ? [axis] : Array.isArray(axis) ? axis : fail('type', fn, 'axis', 'must be an integer or an array of integers', axis);
  const nd = t.ndim + list.length;
  const axes = list.map((a) => checkAxis(fn, 'axis', a, nd));
  if (new Set(axes).size !== axes.length) fail('range', fn, 'axis', 'must not repeat an axis', axis);
  const shape: number[] = [];
  for (let i = 0, j = 0; i < nd; i++) shape.push(axes.includes(i) ? 1 : t.shape[j++]!);
  return view(t, shape);
}

/**
 * `x` without axes of length 1: all of them by default, or only those in `axis` (each must
 * have length 1).
 *
 * @throws RangeError if a named axis does not have length 1.
 * @example
 * squeeze([[[1], [2]]]).shape;       // [2]
 * squeeze([[[1], [2]]], -1).shape;   // [1, 2]
 */
export function squeeze(x: TensorLike, axis?: number | readonly number[]): Tensor {
  const fn = 'squeeze';
  const t = asTensor(fn, 'x', x);
  let drop: Set<number>;
  if (axis === undefined) drop = new Set(t.shape.flatMap((d, i) => (d === 1 ? [i] : [])));
  else {
    const list = typeof axis === 'number' ? [axis] : Array.isArray(axis) ? axis : fail('type', fn, 'axis', 'must be an integer or an array of integers', axis);
    drop = new Set(list.map((a) => checkAxis(fn, 'axis', a, t.ndim)));
    for (const a of drop) {
      if (t.shape[a] !== 1) fail('range', fn, 'axis', `names axis ${a} of length ${t.shape[a]} in shape ${fmt(t.shape)}; only length-1 axes can be squeezed`, axis);
    }
  }
  return view(t, t.shape.filter((_, i) => !drop.has(i)));
}

/**
 * `x` with its axes permuted: axis i of the result is axis `axes[i]` of `x`. By default the
 * axes are reversed (a matrix transpose for 2-D input).
 *
 * @throws RangeError if `axes` is not a permutation of the axes of `x`.
 * @example
 * transpose([[1, 2], [3, 4]]).toArray();         // [[1, 3], [2, 4]]
 * transpose(zeros([2, 3, 4]), [1, 0, 2]).shape;  // [3, 2, 4]
 */
export function transpose(x: TensorLike, axes?: readonly number[]): Tensor {
  const fn = 'transpose';
  const t = asTensor(fn, 'x', x);
  const nd = t.ndim;
  let perm: number[];
  if (axes === undefined) perm = Array.from({ length: nd }, (_, i) => nd - 1 - i);
  else {
    if (!Array.isArray(axes)) fail('type', fn, 'axes', 'must be an array of integers', axes);
    if (axes.length !== nd) fail('range', fn, 'axes', `must list each of the ${nd} axes of shape ${fmt(t.shape)} once`, axes);
    perm = axes.map((a) => checkAxis(fn, 'axes', a, nd));
    if (new Set(perm).size !== nd) fail('range', fn, 'axes', `must list each of the ${nd} axes of shape ${fmt(t.shape)} once`, axes);
  }
  if (perm.every((p, i) => p === i)) return view(t, t.shape);
  const st = stridesOf(t.shape);
  const shape = perm.map((p) => t.shape[p]!);
  return take(t, stridedIndex(shape, 0, perm.map((p) => st[p]!)), shape);
}

/** The dtype of a join: the common dtype, else float64 (float32 if all are float32). */
function joinDType(ts: readonly Tensor[]): DType {
  const d = ts[0]!.dtype;
  return ts.every((t) => t.dtype === d) ? d : floatKind(...ts);
}

function tensorList(fn: string, xs: unknown): Tensor[] {
  if (!Array.isArray(xs)) fail('type', fn, 'xs', 'must be an array of tensors', xs);
  if (xs.length === 0) fail('range', fn, 'xs', 'must hold at least one tensor', xs);
  return xs.map((x, i) => asTensor(fn, `xs[${i}]`, x));
}

/** concat's kernel: input i is `blocks[i]` contiguous values per outer index, placed at its offset in each output row of `row` values. */
const concatLowering = kernelFactory('concat', (blocks: readonly number[], outer: number, row: number): Lowering => ({
  name: 'concat',
  forward(ins, out) {
    let start = 0;
    for (let i = 0; i < ins.length; i++) {
      const src = ins[i]!, b = blocks[i]!;
      for (let o = 0; o < outer; o++) for (let j = 0; j < b; j++) out[o * row + start + j] = src[o * b + j]!;
      start += b;
    }
  },
  backward(g, _ins, _out, parts) {
    let start = 0;
    for (let i = 0; i < parts.length; i++) {
      const gx = parts[i], b = blocks[i]!;
      if (gx) for (let o = 0; o < outer; o++) for (let j = 0; j < b; j++) gx[o * b + j] = g[o * row + start + j]!;
      start += b;
    }
  },
}));

/**
 * Joins tensors along an existing axis. Every tensor must have the same number of dimensions
 * and the same length on every other axis.
 *
 * @param xs - the tensors (at least one, each with at least one dimension).
 * @param axis - the axis to join along; default 0.
 * @throws RangeError naming both shapes when two tensors do not match.
 * @example
 * concat([[[1, 2]], [[3, 4]]]).toArray();       // [[1, 2], [3, 4]]
 * concat([[[1], [2]], [[3], [4]]], 1).toArray(); // [[1, 3], [2, 4]]
 */
export function concat(xs: readonly TensorLike[], axis = 0): Tensor {
  const fn = 'concat';
  const ts = tensorList(fn, xs);
  const first = ts[0]!;
  if (first.ndim === 0) fail('range', fn, 'xs[0]', 'must have at least one dimension (use stack to join scalars)', xs[0]);
  const ax = checkAxis(fn, 'axis', axis, first.ndim);
  ts.forEach((t, i) => {
    if (t.ndim !== first.ndim || t.shape.some((d, j) => j !== ax && d !== first.shape[j])) {
      throw new RangeError(`${fn}: \`xs[${i}]\` of shape ${fmt(t.shape)} does not match \`xs[0]\` of shape ${fmt(first.shape)} `
        + `on the axes other than axis ${ax}`);
    }
  });
  const shape = [...first.shape];
  shape[ax] = ts.reduce((a, t) => a + t.shape[ax]!, 0);
  const outer = sizeOf(first.shape.slice(0, ax));
  const inner = sizeOf(first.shape.slice(ax + 1));
  const blocks = ts.map((t) => t.shape[ax]! * inner); // contiguous run of each input per outer index
  const row = blocks.reduce((a, b) => a + b, 0);
  const dtype = joinDType(ts);
  const op = concatLowering(blocks, outer, row);
  const out = allocate(dtype, outer * row) as TensorData;
  // Same-dtype inputs are copied as they are (bigints stay bigints); others as numbers.
  op.forward(ts.map((t) => (t.dtype === dtype ? t.data : numbers(t)) as ArrayLike<number>), out as Float64Array);
  return result(out as Float64Array, shape, ts, (g) => {
    const parts = ts.map((t) => new Float64Array(t.size));
    op.backward!(g, [], [], parts);
    return parts;
  }, dtype, op);
}

/**
 * Joins tensors of one shape along a new axis (`axis` indexes the result, so -1 appends).
 *
 * @throws RangeError naming both shapes when two tensors differ in shape.
 * @example
 * stack([[1, 2], [3, 4]]).toArray();      // [[1, 2], [3, 4]]
 * stack([[1, 2], [3, 4]], 1).toArray();   // [[1, 3], [2, 4]]
 * stack([1, 2, 3]).shape;                 // [3]
 */
export function stack(xs: readonly TensorLike[], axis = 0): Tensor {
  const fn = 'stack';
  const ts = tensorList(fn, xs);
  const first = ts[0]!;
  ts.forEach((t, i) => {
    if (t.ndim !== first.ndim || t.shape.some((d, j) => d !== first.shape[j])) {
      throw new RangeError(`${fn}: \`xs[${i}]\` of shape ${fmt(t.shape)} does not match \`xs[0]\` of shape ${fmt(first.shape)}`);
    }
  });
  const ax = checkAxis(fn, 'axis', axis, first.ndim + 1);
  return concat(ts.map((t) => expandDims(t, ax)), ax);
}

/** One axis of a NumPy-style slice: Python's `start:stop:step` (each optional). */
export interface SliceSpec {
  readonly start?: number;
  readonly stop?: number;
  readonly step?: number;
}

/**
 * A rectangular (optionally strided) part of `x`, in one of two forms:
 *
 * - TensorFlow's `slice(x, begin, size)`: `begin[i]` is the first index on axis i (0 ≤ begin ≤
 *   length) and `size[i]` the number of elements, or -1 for "to the end". `begin` and `size` may
 *   be shorter than the rank; the remaining axes are taken whole.
 * - NumPy's basic slicing: `slice(x, [{ start, stop, step }, ...])`, one object (or `null` for
 *   the whole axis) per leading axis, with Python's rules: negative indices count from the end,
 *   out-of-range bounds are clipped, a negative step walks backwards. `x[1:, ::-2]` is
 *   `slice(x, [{ start: 1 }, { step: -2 }])`. No axis is dropped.
 *
 * The gradient scatters the output adjoint back into a zero tensor of x's shape.
 *
 * @throws RangeError for a TF-style slice out of bounds, or a step of 0.
 * @example
 * slice([1, 2, 3, 4, 5], [1], [3]).toArray();                 // [2, 3, 4]
 * slice([1, 2, 3, 4, 5], [{ step: -2 }]).toArray();           // [5, 3, 1]
 * slice([[1, 2, 3], [4, 5, 6]], [null, { start: -2 }]).toArray(); // [[2, 3], [5, 6]]
 */
export function slice(x: TensorLike, begin: readonly number[] | readonly (SliceSpec | null)[], size?: readonly number[]): Tensor {
  const fn = 'slice';
  const t = asTensor(fn, 'x', x);
  if (!Array.isArray(begin)) fail('type', fn, 'begin', 'must be an array of integers or of {start, stop, step} objects', begin);
  if (begin.length > t.ndim) fail('range', fn, 'begin', `has ${begin.length} entries, more than the ${t.ndim} axes of shape ${fmt(t.shape)}`, begin);
  const starts = t.shape.map(() => 0), steps = t.shape.map(() => 1), counts = [...t.shape];
  const numeric = begin.every((b) => typeof b === 'number');
  if (size !== undefined || (numeric && begin.length > 0)) {
    if (!numeric) fail('type', fn, 'begin', 'must be integers when `size` is given', begin);
    if (!Array.isArray(size)) fail('type', fn, 'size', 'must be an array of integers (-1 means to the end)', size);
    if (size.length !== begin.length) fail('range', fn, 'size', `must have the ${begin.length} entries of \`begin\``, size);
    (begin as readonly number[]).forEach((b, i) => {
      const n = t.shape[i]!;
      const s = checkInteger(fn, `begin[${i}]`, b);
      if (s < 0 || s > n) fail('range', fn, `begin[${i}]`, `must be in [0, ${n}] for axis ${i} of shape ${fmt(t.shape)}`, begin);
      const c = checkInteger(fn, `size[${i}]`, size[i]);
      if (c === -1) counts[i] = n - s;
      else if (c < 0 || s + c > n) fail('range', fn, `size[${i}]`, `must be -1 or in [0, ${n - s}] for begin ${s} on axis ${i} of shape ${fmt(t.shape)}`, size);
      else counts[i] = c;
      starts[i] = s;
    });
  } else {
    (begin as readonly unknown[]).forEach((spec, i) => {
      if (spec === null || spec === undefined) return;
      if (typeof spec !== 'object' || Array.isArray(spec)) fail('type', fn, `begin[${i}]`, 'must be a {start, stop, step} object or null', spec);
      const { start, stop, step } = spec as SliceSpec;
      const [a, st, c] = sliceIndices(fn, i, t.shape[i]!, start, stop, step);
      starts[i] = a; steps[i] = st; counts[i] = c;
    });
  }
  if (counts.every((c, i) => c === t.shape[i]) && steps.every((s) => s === 1)) return view(t, t.shape);
  const st = stridesOf(t.shape);
  const base = starts.reduce((a, s, i) => a + s * st[i]!, 0);
  return take(t, stridedIndex(counts, base, steps.map((s, i) => s * st[i]!)), counts);
}

/** Python's `slice(start, stop, step).indices(n)`, as [first index, step, count]. */
function sliceIndices(fn: string, axis: number, n: number, start?: number, stop?: number, step?: number): [number, number, number] {
  const s = step === undefined ? 1 : checkInteger(fn, `begin[${axis}].step`, step);
  if (s === 0) fail('range', fn, `begin[${axis}].step`, 'must not be 0', step);
  const lower = s > 0 ? 0 : -1, upper = s > 0 ? n : n - 1;
  const clip = (v: number | undefined, arg: string, dflt: number) => {
    if (v === undefined) return dflt;
    let i = checkInteger(fn, `begin[${axis}].${arg}`, v);
    if (i < 0) i += n;
    return Math.min(Math.max(i, lower), upper);
  };
  const a = clip(start, 'start', s > 0 ? lower : upper);
  const b = clip(stop, 'stop', s > 0 ? upper : lower);
  const count = s > 0 ? Math.max(0, Math.ceil((b - a) / s)) : Math.max(0, Math.ceil((a - b) / -s));
  return [a, s, count];
}

/**
 * Elements of `x` picked along `axis` by integer `indices` (NumPy's `take`, TF's `gather`):
 * the result has shape `x.shape[:axis] + indices.shape + x.shape[axis+1:]`. Negative indices
 * count from the end. The gradient scatter-adds, so a repeated index accumulates.
 *
 * @param indices - integers in [-n, n) for an axis of length n (an integer tensor, or numbers).
 * @param axis - the axis to pick along; default 0.
 * @throws TypeError if an index is not an integer; RangeError if one is out of range.
 * @example
 * gather([[1, 2], [3, 4], [5, 6]], [2, 2, 0]).toArray(); // [[5, 6], [5, 6], [1, 2]]
 * gather([[1, 2], [3, 4]], [1], 1).toArray();            // [[2], [4]]
 * gather([1, 2, 3], -1).item();                          // 3
 */
export function gather(x: TensorLike, indices: TensorLike, axis = 0): Tensor {
  const fn = 'gather';
  const t = asTensor(fn, 'x', x);
  if (t.ndim === 0) fail('range', fn, 'x', 'must have at least one dimension', x);
  const ax = checkAxis(fn, 'axis', axis, t.ndim);
  const it = asTensor(fn, 'indices', indices);
  if (it.dtype === 'bool') fail('type', fn, 'indices', 'must be integers, not booleans', indices);
  const n = t.shape[ax]!;
  const iv = numbers(it);
  const picks = new Int32Array(iv.length);
  for (let k = 0; k < iv.length; k++) {
    const v = iv[k]!;
    if (!Number.isInteger(v)) fail('type', fn, 'indices', `must be integers; element ${k} is ${show(v)}`, indices);
    if (v < -n || v >= n) {
      fail('range', fn, 'indices', `must be in [${-n}, ${n}) for axis ${ax} of shape ${fmt(t.shape)}; element ${k} is ${v}`, indices);
    }
    picks[k] = v < 0 ? v + n : v;
  }
  const outer = sizeOf(t.shape.slice(0, ax)), inner = sizeOf(t.shape.slice(ax + 1));
  const shape = [...t.shape.slice(0, ax), ...it.shape, ...t.shape.slice(ax + 1)];
  const idx = new Int32Array(outer * picks.length * inner);
  let k = 0;
  for (let o = 0; o < outer; o++) {
    for (let p = 0; p < picks.length; p++) {
      const base = (o * n + picks[p]!) * inner;
      for (let j = 0; j < inner; j++) idx[k++] = base + j;
    }
  }
  return take(t, idx, shape);
}

/**
 * `x` broadcast to `shape` by NumPy's rules (the values are copied). The gradient sums over the
 * stretched axes.
 *
 * @throws RangeError naming both shapes when `x` does not broadcast to `shape`.
 * @example
 * broadcastTo([1, 2], [2, 2]).toArray();   // [[1, 2], [1, 2]]
 * broadcastTo(5, [3]).toArray();           // [5, 5, 5]
 */
export function broadcastTo(x: TensorLike, shape: number | readonly number[]): Tensor {
  const fn = 'broadcastTo';
  const t = asTensor(fn, 'x', x);
  const s = checkShape(fn, 'shape', shape);
  const off = s.length - t.ndim;
  if (off < 0 || t.shape.some((d, i) => d !== 1 && d !== s[off + i])) {
    throw new RangeError(`${fn}: \`x\` of shape ${fmt(t.shape)} cannot be broadcast to \`shape\` ${fmt(s)}`);
  }
  if (off === 0 && t.shape.every((d, i) => d === s[i])) return view(t, s);
  const full = new Array<number>(s.length).fill(0);
  const st = stridesOf(t.shape);
  t.shape.forEach((d, i) => { full[off + i] = d === 1 ? 0 : st[i]!; });
  return take(t, stridedIndex(s, 0, full), s);
}
