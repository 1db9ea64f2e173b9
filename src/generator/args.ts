/**
 * Argument handling shared by the Generator's methods: NumPy's `size` rule, parameters as
 * tensors of the draw's dtype, NumPy's value constraints and scalar-or-tensor results. Every
 * check runs here, once, under the Generator method's name and NumPy's argument names; the
 * `random` cores underneath see only checked values.
 */
import { checkShape, fail } from '../checks.js';
import { broadcastShapes, floatParam, paramValues } from '../random/params.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';

/** A sampler parameter: a number, nested arrays of numbers, or a Tensor. */
export type ParamLike = number | readonly unknown[] | Tensor;
/** NumPy's `size`: an output shape, a length, or undefined/null for "no size" (a scalar draw). */
export type SizeLike = number | readonly number[] | null | undefined;

/** A JS scalar result: numbers for floats and 32-bit-or-narrower integers, bigints for 64-bit. */
export type Scalar = number | bigint;

/** `size` as a shape, or undefined when omitted (undefined or null). */
export function checkSize(fn: string, size: unknown): number[] | undefined {
  if (size === undefined || size === null) return undefined;
  return checkShape(fn, 'size', size);
}

/**
 * The output shape by NumPy's rule: without `size`, the parameters' broadcast shape; with it,
 * `size` itself, and every parameter must broadcast to it.
 */
export function outputShape(
  fn: string, size: readonly number[] | undefined, params: readonly (readonly [string, { readonly shape: readonly number[] }])[],
): number[] {
  const named = params.map(([n, t]) => [n, t.shape] as [string, readonly number[]]);
  if (size === undefined) return broadcastShapes(fn, named);
  for (const [n, t] of params) {
    const joint = broadcastShapes(fn, [['size', size], [n, t.shape]]);
    if (joint.length !== size.length || joint.some((d, i) => d !== size[i])) {
      throw new RangeError(`${fn}: \`${n}\` of shape [${t.shape.join(', ')}] does not broadcast to \`size\` [${size.join(', ')}]`);
    }
  }
  return [...size];
}

/** A parameter as a tensor of `dtype`; numbers act as Python floats of that dtype. */
export function param(fn: string, arg: string, value: unknown, dtype: FloatDType): Tensor {
  return floatParam(fn, arg, value, dtype);
}

/** A parameter: NumPy's name, the value, its constraint and the constraint's wording. */
export type ParamSpec = readonly [name: string, value: unknown, ok: (v: number) => boolean, what: string];

/**
 * Every parameter of `specs` as a tensor of `dtype`, its values checked, and the output shape
 * they and `size` give by NumPy's rule (`outputShape`).
 */
export function checkParams(
  fn: string, size: readonly number[] | undefined, specs: readonly ParamSpec[], dtype: FloatDType,
): { params: Tensor[]; shape: number[] } {
  const params = specs.map(([name, v, ok, what]) => {
    const t = param(fn, name, v, dtype);
    constrain(fn, name, t, ok, what);
    return t;
  });
  return { params, shape: outputShape(fn, size, specs.map(([name], i) => [name, params[i]!] as const)) };
}

/**
 * Checks every value of a parameter tensor (NaN always fails): throws a RangeError naming the
 * argument and the rule.
 */
export function constrain(fn: string, arg: string, t: Tensor, ok: (v: number) => boolean, what: string): void {
  const d = t.data as Float64Array | Float32Array;
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!;
    if (!(v === v && ok(v))) fail('range', fn, arg, what, v);
  }
}

export const finite = (v: number): boolean => Number.isFinite(v);
export const nonNegative = (v: number): boolean => v >= 0 && v < Infinity;
export const positive = (v: number): boolean => v > 0 && v < Infinity;

/** A parameter's values broadcast to `shape` (a length-1 array when it has a single value). */
export function values(fn: string, arg: string, t: Tensor, shape: readonly number[]): Float64Array | Float32Array {
  if (t.size === 1) return (t.dtype === 'float32' ? Float32Array : Float64Array).of(t.data[0] as number);
  return paramValues(fn, arg, t, shape);
}

/** True when every parameter is a plain JS number (the common scalar case). */
export function allNumbers(...xs: unknown[]): boolean {
  for (const x of xs) if (typeof x !== 'number') return false;
  return true;
}

/**
 * NumPy's return rule: without `size` and with a 0-d result, a JS scalar (the single value:
 * a number, or a bigint for 64-bit integers); otherwise the Tensor.
 */
export function result(t: Tensor, size: readonly number[] | undefined): Tensor | Scalar {
  if (size === undefined && t.ndim === 0) return t.data[0] as Scalar;
  return t;
}

/**
 * In place, `x[i] ← loc[i] + scale[i]·x[i]` with both operations rounded to the dtype (the
 * product, then the sum, as JAX's stateful `normal` computes `loc + scale * z` op by op).
 * `loc` and `scale` have length 1 (broadcast) or x.length.
 */
export function affine(x: Float64Array | Float32Array, loc: ArrayLike<number>, scale: ArrayLike<number>): void {
  const n = x.length;
  const lstep = loc.length === 1 ? 0 : 1, sstep = scale.length === 1 ? 0 : 1;
  if (x instanceof Float32Array) {
    for (let i = 0; i < n; i++) x[i] = Math.fround(loc[i * lstep]! + Math.fround(scale[i * sstep]! * x[i]!));
  } else {
    for (let i = 0; i < n; i++) x[i] = loc[i * lstep]! + scale[i * sstep]! * x[i]!;
  }
}
