/**
 * Reductions over axes. A reduction with no axis reduces over everything. Each axis reduction is
 * built on one index map from input elements to output elements, so gradients are a gather
 * through the map; the cumulative ops walk lanes along one axis instead.
 * Values are computed in float64; the result is float32 only for float32 input. `argmax` and
 * `argmin` return int32 positions and have no gradient. The cumulative ops (`cumsum`,
 * `cumlogsumexp`) follow NumPy: without an axis they run over the flattened tensor.
 *
 * @example
 * sum([[1, 2], [3, 4]]).item();            // 10
 * sum([[1, 2], [3, 4]], 0).toArray();      // [4, 6]
 * mean([[1, 2], [3, 4]], -1, true).shape;  // [2, 1]
 * max([[1, 5], [3, 4]], 1).toArray();      // [5, 4]
 * cumsum([1, 2, 3]).toArray();             // [1, 3, 6]
 */
import { checkAxis, checkBoolean, fail } from '../../checks.js';
import { applyLowering, asTensor, numbers, type TensorLike } from '../core.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import { Tensor } from '../tensor.js';
import { detExp, detLog1p } from '../../math/index.js';
import { sizeOf } from '../shapes.js';

export type Axes = number | readonly number[] | undefined;

/** How a reduction maps the input onto its output. */
export interface Reduction {
  /** Output shape (reduced axes removed, or kept as 1 with keepdims). */
  readonly shape: number[];
  /** Output flat index of every input element. */
  readonly map: Int32Array;
  /** Number of output elements. */
  readonly size: number;
  /** Number of input elements per output element. */
  readonly count: number;
}

/** Normalised, de-duplicated axes of a reduction (all axes when undefined). */
export function checkAxes(fn: string, axes: Axes, ndim: number): number[] {
  if (axes === undefined) return Array.from({ length: ndim }, (_, i) => i);
  const list = typeof axes === 'number' ? [axes] : [...axes];
  if (!Array.isArray(list)) fail('type', fn, 'axis', 'must be an integer or an array of integers', axes);
  const out = list.map((a) => checkAxis(fn, 'axis', a, ndim));
  if (new Set(out).size !== out.length) fail('range', fn, 'axis', 'must not repeat an axis', axes);
  return out.sort((a, b) => a - b);
}

export function reduction(fn: string, shape: readonly number[], axes: Axes, keepdims: boolean): Reduction {
  const ax = new Set(checkAxes(fn, axes, shape.length));
  const outShape: number[] = [];
  shape.forEach((d, i) => { if (!ax.has(i)) outShape.push(d); else if (keepdims) outShape.push(1); });
  // Output strides for kept axes, 0 for reduced ones.
  const strides = new Array<number>(shape.length).fill(0);
  for (let i = shape.length - 1, s = 1; i >= 0; i--) {
    if (ax.has(i)) continue;
    strides[i] = s;
    s *= shape[i]!;
  }
  const inSize = sizeOf(shape);
  const size = sizeOf(outShape);
  const map = new Int32Array(inSize);
  const index = new Array<number>(shape.length).fill(0);
  let o = 0;
  for (let k = 0; k < inSize; k++) {
    map[k] = o;
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d]!++;
      o += strides[d]!;
      if (index[d]! < shape[d]!) break;
      o -= strides[d]! * index[d]!;
      index[d] = 0;
    }
  }
  return { shape: outShape, map, size, count: size === 0 ? 0 : inSize / size };
}

export function keep(fn: string, keepdims: unknown): boolean {
  return keepdims === undefined ? false : checkBoolean(fn, 'keepdims', keepdims);
}

/** Sum over `axis` (all axes by default). */
export function sum(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const t = asTensor('sum', 'x', x);
  if (axis === undefined && !keepdims) return total(t, 1);
  return mapped('sum', t, reduction('sum', t.shape, axis, keep('sum', keepdims)), 1);
}

/** Mean over `axis` (all axes by default). */
export function mean(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const t = asTensor('mean', 'x', x);
  if (axis === undefined && !keepdims) return total(t, 1 / t.size);
  return mapped('mean', t, reduction('mean', t.shape, axis, keep('mean', keepdims)), 0);
}

/** Sum (scale 1) or mean (scale 0: divide by the count) through the reduction's index map. */
function mapped(name: string, t: Tensor, r: Reduction, scale: 0 | 1): Tensor {
  return applyLowering(mappedLowering(name, r, scale), [t], r.shape, r.size);
}

/** sum's or mean's kernel for the reduction `r` (made by a named factory: a compiled model's workers make it again from its arguments). */
const mappedLowering = kernelFactory('sum/mean', (name: string, r: Reduction, scale: 0 | 1): Lowering => {
  const acc = new Float64Array(r.size);
  return {
    name,
    // A sum down to one element is `total`'s arithmetic (0 + x₀ + x₁ + …, times 1).
    ...(scale === 1 ? { elementwise: r.size === 1 ? { kind: 'total' as const, scale: 1 } : { kind: 'segmentSum' as const, map: r.map } } : {}),
    forward(ins, out) {
      const v = ins[0]!;
      acc.fill(0);
      for (let k = 0; k < v.length; k++) acc[r.map[k]!]! += v[k]!;
      if (scale === 1) for (let j = 0; j < r.size; j++) out[j] = acc[j]!;
      else for (let j = 0; j < r.size; j++) out[j] = acc[j]! / r.count;
    },
    backward(g, _ins, _out, parts) {
      const gx = parts[0]!;
      if (scale === 1) for (let k = 0; k < gx.length; k++) gx[k] = g[r.map[k]!]!;
      else for (let k = 0; k < gx.length; k++) gx[k] = g[r.map[k]!]! / r.count;
    },
  };
});

/** scale · (sum of all elements), as a scalar: the common full reduction, without an index map. */
function total(t: Tensor, scale: number): Tensor {
  const op: Lowering = {
    name: 'sum',
    elementwise: { kind: 'total', scale },
    forward(ins, o) {
      const v = ins[0]!;
      let acc = 0;
      for (let k = 0; k < v.length; k++) acc += v[k]!;
      o[0] = acc * scale;
    },
    backward(g, _ins, _out, parts) { parts[0]!.fill(g[0]! * scale); },
  };
  return applyLowering(op, [t], SCALAR, 1);
}

const SCALAR: readonly number[] = Object.freeze([]);

/**
 * Input indices grouped by output element: group j is `order[j·count, (j+1)·count)`, each group
 * in input (row-major) order.
 */
export function groupOrder(r: Reduction): Int32Array {
  const order = new Int32Array(r.map.length);
  const pos = new Int32Array(r.size);
  for (let j = 0; j < r.size; j++) pos[j] = j * r.count;
  for (let k = 0; k < r.map.length; k++) order[pos[r.map[k]!]!++] = k;
  return order;
}

/**
 * Product over `axis` (all axes by default). The gradient is the product of the other elements
 * (prefix times suffix products), so it is exact when the input holds zeros.
 *
 * @example
 * prod([[1, 2], [3, 4]], 1).toArray();                   // [2, 12]
 * grad((x) => prod(x))([2, 0, 5]).toArray();             // [0, 10, 0]
 */
export function prod(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const t = asTensor('prod', 'x', x);
  const r = reduction('prod', t.shape, axis, keep('prod', keepdims));
  return applyLowering(prodLowering(r), [t], r.shape, r.size);
}

/** prod's kernel for the reduction `r` (made by a named factory: a compiled model's workers make it again from its arguments). */
const prodLowering = kernelFactory('prod', (r: Reduction): Lowering => {
  const acc = new Float64Array(r.size);
  return {
    name: 'prod',
    forward(ins, out) {
      const v = ins[0]!;
      acc.fill(1);
      for (let k = 0; k < v.length; k++) acc[r.map[k]!]! *= v[k]!;
      for (let j = 0; j < r.size; j++) out[j] = acc[j]!;
    },
    backward(g, ins, _out, parts) {
      const v = ins[0]!, gx = parts[0]!;
      const order = groupOrder(r), c = r.count;
      gx.fill(0);
      for (let j = 0; j < r.size; j++) {
        let p = 1;
        for (let i = 0; i < c; i++) { const k = order[j * c + i]!; gx[k] = p; p *= v[k]!; }
        let s = g[j]!;
        for (let i = c - 1; i >= 0; i--) { const k = order[j * c + i]!; gx[k]! *= s; s *= v[k]!; }
      }
    },
  };
});

/** max (sign 1) or min (sign −1) with the adjoint split equally among tied extremes, as in JAX. */
function extremum(fn: string, x: TensorLike, axis: Axes, keepdims: boolean | undefined, sign: 1 | -1): Tensor {
  const t = asTensor(fn, 'x', x);
  const r = reduction(fn, t.shape, axis, keep(fn, keepdims));
  return applyLowering(extremumLowering(fn, r, sign), [t], r.shape, r.size);
}

/** max's or min's kernel for the reduction `r` (made by a named factory: a compiled model's workers make it again from its arguments). */
const extremumLowering = kernelFactory('max/min', (fn: string, r: Reduction, sign: 1 | -1): Lowering => {
  const acc = new Float64Array(r.size), ties = new Float64Array(r.size);
  const hit = (a: number, m: number) => a === m || (a !== a && m !== m);
  return {
    name: fn,
    forward(ins, out) {
      const v = ins[0]!;
      acc.fill(-sign * Infinity);
      for (let k = 0; k < v.length; k++) {
        const a = v[k]!, j = r.map[k]!;
        if (sign * a > sign * acc[j]! || a !== a) acc[j] = a; // NaN wins and stays
      }
      for (let j = 0; j < r.size; j++) out[j] = acc[j]!;
    },
    backward(g, ins, _out, parts) {
      const v = ins[0]!, gx = parts[0]!;
      ties.fill(0);
      for (let k = 0; k < v.length; k++) { const j = r.map[k]!; if (hit(v[k]!, acc[j]!)) ties[j]!++; }
      for (let k = 0; k < v.length; k++) { const j = r.map[k]!; gx[k] = hit(v[k]!, acc[j]!) ? g[j]! / ties[j]! : 0; }
    },
  };
});

/**
 * Maximum over `axis` (all axes by default). NaN propagates; an empty reduction gives −∞ (as
 * in JAX). The gradient is split equally among elements tied for the maximum (JAX's rule).
 *
 * @example
 * max([[1, 5], [3, 4]]).item();                  // 5
 * grad((x) => max(x))([1, 3, 3]).toArray();      // [0, 0.5, 0.5]
 */
export function max(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  return extremum('max', x, axis, keepdims, 1);
}

/**
 * Minimum over `axis` (all axes by default). NaN propagates; an empty reduction gives +∞. The
 * gradient is split equally among elements tied for the minimum.
 *
 * @example
 * min([[1, 5], [3, 4]], 0).toArray();            // [1, 4]
 */
export function min(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  return extremum('min', x, axis, keepdims, -1);
}

/**
 * ln Σ exp(x) over `axis` (all axes by default), computed stably as m + log1p(Σ' exp(x − m))
 * with m the maximum (Σ' leaves out one maximal element). All −∞ (or an empty reduction) gives
 * −∞ with a zero gradient; the gradient is softmax(x) along the reduced axes.
 *
 * @example
 * logsumexp([1000, 1000]).item();                // 1000.6931471805599
 * logsumexp([[0, -Infinity]], 1).toArray();      // [0]
 */
export function logsumexp(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const fn = 'logsumexp';
  const t = asTensor(fn, 'x', x);
  const r = reduction(fn, t.shape, axis, keep(fn, keepdims));
  return applyLowering(logsumexpLowering(r), [t], r.shape, r.size);
}

/** logsumexp's kernel for the reduction `r` (made by a named factory: a compiled model's workers make it again from `r`). */
const logsumexpLowering = kernelFactory('logsumexp', (r: Reduction): Lowering => {
  const fn = 'logsumexp';
  const m = new Float64Array(r.size), s = new Float64Array(r.size), y = new Float64Array(r.size);
  const first = new Int32Array(r.size);
  return {
    name: fn,
    forward(ins, out) {
      const v = ins[0]!;
      m.fill(-Infinity); first.fill(-1); s.fill(0);
      for (let k = 0; k < v.length; k++) {
        const a = v[k]!, j = r.map[k]!;
        if (first[j] === -1 || a > m[j]! || (a !== a && m[j] === m[j])) { m[j] = a; first[j] = k; } // NaN wins
      }
      for (let k = 0; k < v.length; k++) { const j = r.map[k]!; if (k !== first[j]) s[j]! += detExp(v[k]! - m[j]!); }
      for (let j = 0; j < r.size; j++) y[j] = Number.isFinite(m[j]!) ? m[j]! + detLog1p(s[j]!) : m[j]!;
      for (let j = 0; j < r.size; j++) out[j] = y[j]!;
    },
    backward(g, ins, _out, parts) {
      const v = ins[0]!, gx = parts[0]!;
      gx.fill(0);
      let inf: Float64Array | undefined; // count of +∞ elements per group whose result is +∞
      for (let k = 0; k < v.length; k++) {
        const j = r.map[k]!, yj = y[j]!;
        if (yj === -Infinity) continue;
        if (yj === Infinity) {
          if (inf === undefined) {
            inf = new Float64Array(r.size);
            for (let i = 0; i < v.length; i++) if (v[i] === Infinity) inf[r.map[i]!]!++;
          }
          if (v[k] === Infinity) gx[k] = g[j]! / inf[j]!;
          continue;
        }
        gx[k] = g[j]! * detExp(v[k]! - yj);
      }
    },
  };
});

/** The position of the first extreme element along one axis (or of the flattened tensor). */
function argExtremum(fn: string, x: TensorLike, axis: number | undefined, keepdims: boolean | undefined, sign: 1 | -1): Tensor {
  const t = asTensor(fn, 'x', x);
  if (axis !== undefined && typeof axis !== 'number') fail('type', fn, 'axis', 'must be an integer (or undefined for the flattened tensor)', axis);
  const r = reduction(fn, t.shape, axis, keep(fn, keepdims));
  if (t.size === 0 || r.count === 0) fail('range', fn, 'x', `has no elements along the reduced axis (shape [${t.shape.join(', ')}])`, x);
  const v = numbers(t);
  const best = new Float64Array(r.size), pos = new Int32Array(r.size), seen = new Int32Array(r.size);
  for (let k = 0; k < v.length; k++) {
    const a = v[k]!, j = r.map[k]!, i = seen[j]!++;
    const b = best[j]!;
    // The first NaN wins (NumPy); otherwise a strictly better value.
    if (i === 0 || (b === b && (a !== a || sign * a > sign * b))) { best[j] = a; pos[j] = i; }
  }
  return new Tensor(pos, r.shape, 'int32');
}

/**
 * Position (int32) of the first maximum along `axis`, or in the flattened tensor when `axis`
 * is undefined; NaN counts as the maximum (NumPy). No gradient.
 *
 * @throws RangeError if the reduced axis is empty.
 * @example
 * argmax([3, 7, 7]).item();                      // 1
 * argmax([[1, 9], [8, 2]], 1).toArray();         // [1, 0]
 */
export function argmax(x: TensorLike, axis?: number, keepdims?: boolean): Tensor {
  return argExtremum('argmax', x, axis, keepdims, 1);
}

/**
 * Position (int32) of the first minimum along `axis`, or in the flattened tensor when `axis`
 * is undefined; NaN counts as the minimum (NumPy). No gradient.
 *
 * @example
 * argmin([[1, 9], [8, 2]], 0).toArray();         // [0, 1]
 */
export function argmin(x: TensorLike, axis?: number, keepdims?: boolean): Tensor {
  return argExtremum('argmin', x, axis, keepdims, -1);
}

/** Lanes of a cumulative op: element i of lane (o, j) is at (o·len + i)·inner + j. */
