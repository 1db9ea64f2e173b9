import { checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { checkKey, type KeyArray } from './key-array.js';
import { broadcastData, broadcastShapes } from '../tensor/broadcast.js';

export { broadcastShapes };
import { allocate, intRange, isBigIntDType, type DataOf, type FloatDType, type IntDType } from '../tensor/dtype.js';
import { Tensor, tensorFrom } from '../tensor/tensor.js';

/** A sampler parameter: a number, nested arrays of numbers, or a Tensor. */
export type ParamLike = number | readonly unknown[] | Tensor;
export type ShapeLike = number | readonly number[];

const FLOATS: readonly FloatDType[] = ['float32', 'float64'];

/** The float dtype option: default float64 in x64 mode and float32 in x32 mode. */
export function floatDtype(fn: string, dtype: unknown, modes: Modes): FloatDType {
  if (dtype === undefined) return modes.x64 ? 'float64' : 'float32';
  const d = checkOneOf(fn, 'dtype', dtype, FLOATS);
  if (d === 'float64' && !modes.x64) fail('range', fn, 'dtype', "'float64' needs x64 mode (configure({ x64: true }))", d);
  return d;
}

/** A parameter as a tensor of `dtype` (values rounded to float32 for float32 samplers). */
export function floatParam(fn: string, arg: string, value: unknown, dtype: FloatDType): Tensor {
  if (value instanceof Tensor) {
    if (value.dtype === 'bool' || value.dtype === 'int64' || value.dtype === 'uint64') {
      fail('type', fn, arg, 'must be a number, an array of numbers or a numeric Tensor', `a ${value.dtype} tensor`);
    }
    return value.astype(dtype);
  }
  if (typeof value !== 'number' && !Array.isArray(value)) fail('type', fn, arg, 'must be a number, an array of numbers or a Tensor', value);
  const flat = [value].flat(Infinity);
  if (flat.some((v) => typeof v !== 'number')) fail('type', fn, arg, 'must hold only numbers', value);
  return tensorFrom(fn, arg, value, dtype);
}

/**
 * JAX's shape rule: without `shape`, the result has the parameters' broadcast shape; with it,
 * every parameter must broadcast to exactly `shape`.
 */
export function resolveShape(fn: string, shape: ShapeLike | undefined, params: [string, Tensor][]): number[] {
  const named = params.map(([n, t]) => [n, t.shape] as [string, readonly number[]]);
  if (shape === undefined) return broadcastShapes(fn, named);
  const s = checkShape(fn, 'shape', shape as number[]);
  for (const [n, t] of params) {
    const joint = broadcastShapes(fn, [['shape', s], [n, t.shape]]);
    if (joint.length !== s.length || joint.some((d, i) => d !== s[i])) {
      fail('range', fn, n, `of shape [${t.shape.join(', ')}] must broadcast to \`shape\` [${s.join(', ')}]`, t);
    }
  }
  return s;
}

/** A parameter's values broadcast to `shape`, as a Float64Array or Float32Array. */
export function paramValues(fn: string, arg: string, t: Tensor, shape: readonly number[]): Float64Array | Float32Array {
  return broadcastData(fn, arg, t, shape) as Float64Array | Float32Array;
}

/** Throws a RangeError naming `arg` unless every value satisfies `ok`. */
export function checkValues(fn: string, arg: string, values: ArrayLike<number>, ok: (v: number) => boolean, what: string): void {
  for (let i = 0; i < values.length; i++) if (!ok(values[i]!)) fail('range', fn, arg, what, values[i]);
}

/**
 * The public body of a sampler with one float parameter checked value by value (`lognormal`,
 * `pareto`, `rayleigh`, `wald`): checks the key and options, takes `arg` as a float tensor,
 * applies JAX's shape rule, checks the broadcast values with `ok` (a RangeError saying `what`)
 * and runs `core` on them.
 */
export function checkedParamSampler(
  fn: string, arg: string, ok: (v: number) => boolean, what: string,
  core: (key: KeyArray, values: Float64Array | Float32Array, dtype: FloatDType, modes: Modes) => Float64Array | Float32Array,
  key: KeyArray, value: unknown, shape: ShapeLike | undefined, options: { dtype?: FloatDType } | undefined,
): Tensor<FloatDType> {
  checkKey(fn, 'key', key);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  const t = floatParam(fn, arg, value, dtype);
  const s = resolveShape(fn, shape, [[arg, t]]);
  const values = paramValues(fn, arg, t, s);
  checkValues(fn, arg, values, ok, what);
  return new Tensor<FloatDType>(core(key, values, dtype, modes), s, dtype);
}

/** Rounding to the sampler's dtype: Math.fround for float32, identity for float64. */
export function rounder(dtype: FloatDType): (x: number) => number {
  return dtype === 'float32' ? Math.fround : (x: number) => x;
}

export type IntData = DataOf<IntDType>;

/**
 * Integer-valued floats converted to an integer dtype as XLA converts: saturating at the
 * dtype's range, NaN to 0.
 */
export function floatToIntData(values: ArrayLike<number>, dtype: IntDType): IntData {
  const n = values.length;
  const out = allocate(dtype, n);
  const [lo, hi] = intRange(dtype);
  const loN = Number(lo), hiN = Number(hi);
  if (isBigIntDType(dtype)) {
    const big = out as BigInt64Array | BigUint64Array;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      big[i] = v !== v ? 0n : v <= loN ? lo : v >= hiN ? hi : BigInt(Math.trunc(v));
    }
  } else {
    const small = out as Int32Array;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      small[i] = v !== v ? 0 : v <= loN ? loN : v >= hiN ? hiN : Math.trunc(v);
    }
  }
  return out;
}
