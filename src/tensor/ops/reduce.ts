/**
 * Reductions over axes. A reduction with no axis reduces over everything. Each is built on one
 * index map from input elements to output elements, so gradients are a gather through the map.
 *
 * @example
 * sum([[1, 2], [3, 4]]).item();            // 10
 * sum([[1, 2], [3, 4]], 0).toArray();      // [4, 6]
 * mean([[1, 2], [3, 4]], -1, true).shape;  // [2, 1]
 */
import { checkAxis, checkBoolean, fail } from '../../checks.js';
import { asTensor, floatKind, floatStorage, numbers, result, type TensorLike } from '../core.js';
import type { Tensor } from '../tensor.js';

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
  const inSize = shape.reduce((a, b) => a * b, 1);
  const size = outShape.reduce((a, b) => a * b, 1);
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

function keep(fn: string, keepdims: unknown): boolean {
  return keepdims === undefined ? false : checkBoolean(fn, 'keepdims', keepdims);
}

/** Sum over `axis` (all axes by default). */
export function sum(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const t = asTensor('sum', 'x', x);
  const r = reduction('sum', t.shape, axis, keep('sum', keepdims));
  const v = numbers(t);
  const acc = new Float64Array(r.size);
  for (let k = 0; k < v.length; k++) acc[r.map[k]!]! += v[k]!;
  const out = floatStorage(floatKind(t), r.size);
  out.set(acc);
  return result(out, r.shape, [t], (g) => {
    const gx = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) gx[k] = g[r.map[k]!]!;
    return [gx];
  });
}

/** Mean over `axis` (all axes by default). */
export function mean(x: TensorLike, axis?: Axes, keepdims?: boolean): Tensor {
  const t = asTensor('mean', 'x', x);
  const r = reduction('mean', t.shape, axis, keep('mean', keepdims));
  const v = numbers(t);
  const acc = new Float64Array(r.size);
  for (let k = 0; k < v.length; k++) acc[r.map[k]!]! += v[k]!;
  const out = floatStorage(floatKind(t), r.size);
  for (let j = 0; j < r.size; j++) out[j] = acc[j]! / r.count;
  return result(out, r.shape, [t], (g) => {
    const gx = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) gx[k] = g[r.map[k]!]! / r.count;
    return [gx];
  });
}
