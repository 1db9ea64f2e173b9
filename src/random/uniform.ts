import { checkFinite, checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { randomBits } from './bits.js';
import { checkKey, type KeyArray } from './key-array.js';
import { scaleUnitFill, unitF32, unitF64 } from './unit.js';

const FLOATS: readonly FloatDType[] = ['float32', 'float64'];

/** Checks a float dtype option against the mode: the default follows x64, float64 needs it. */
export function checkFloatDtype(fn: string, dtype: unknown, modes: Modes): FloatDType {
  if (dtype === undefined) return modes.x64 ? 'float64' : 'float32';
  const d = checkOneOf(fn, 'dtype', dtype, FLOATS);
  if (d === 'float64' && !modes.x64) fail('range', fn, 'dtype', "'float64' needs x64 mode (configure({ x64: true }))", d);
  return d;
}

/**
 * `size` uniforms in [0, 1) by JAX's mantissa trick (unit.ts's `unitF64`/`unitF32`): the top
 * mantissa bits of a 64-bit (float64) or 32-bit (float32) draw under the exponent of 1.0, minus
 * 1. So float64 values are multiples of 2^-52 and float32 values multiples of 2^-23.
 */
export function uniformUnit(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = dtype === 'float64' ? new Float64Array(size) : new Float32Array(size);
  uniformFill(key, out, modes);
  return out;
}

/**
 * `uniformUnit` into `out` (its length and dtype), without a new array: the impl's fused
 * `uniformFloat64`/`uniformFloat32` when it has one, else from `bits`.
 */
export function uniformFill(key: KeyArray, out: Float64Array | Float32Array, modes: Modes): void {
  const impl = key.impl;
  const size = out.length;
  if (out instanceof Float64Array) {
    if (impl.uniformFloat64) impl.uniformFloat64(key.data, out, modes);
    else {
      const w = randomBits(key, 64, size, modes);
      for (let i = 0; i < size; i++) out[i] = unitF64(w[2 * i]!, w[2 * i + 1]!);
    }
  } else if (impl.uniformFloat32) impl.uniformFloat32(key.data, out, modes);
  else {
    const w = randomBits(key, 32, size, modes);
    for (let i = 0; i < size; i++) out[i] = unitF32(w[i]!);
  }
}

/**
 * Uniforms in [minval, maxval) exactly as JAX computes them on CPU: unit uniforms scaled by
 * `scaleUnitFill` (unit.ts: `max(mn, fma(f, mx − mn, mn))` in the dtype, finite and in range
 * where `mx − mn` overflows the dtype).
 */
export function uniformData(
  key: KeyArray, size: number, dtype: FloatDType, minval: number, maxval: number, modes: Modes,
): Float64Array | Float32Array {
  const out = uniformUnit(key, size, dtype, modes);
  if (minval === 0 && maxval === 1) return out;
  scaleUnitFill(out, minval, maxval, dtype);
  return out;
}

export interface UniformOptions {
  /** `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode). */
  dtype?: FloatDType;
  /** Lower bound, included (default 0). */
  minval?: number;
  /** Upper bound, excluded (default 1). */
  maxval?: number;
}

/**
 * Uniform random floats in [minval, maxval) (`jax.random.uniform`), bit-exact with JAX 0.10.2
 * on CPU in all four modes. Float64 values have 52 random bits, float32 values 23.
 *
 * @param shape result shape (default `[]`, a scalar).
 * @throws RangeError when `minval > maxval` or either is not finite (in float32: beyond its
 *   maximum, 3.4028234663852886e+38). Bounds whose difference overflows give finite values in
 *   range (JAX gives NaN and ±∞ there).
 * @example
 * random.uniform(random.key(0), [3]);                       // → Tensor float64 [3]
 * random.uniform(random.key(0), [2], { minval: -1, maxval: 1, dtype: 'float32' });
 */
export function uniform(key: KeyArray, shape: number | readonly number[] = [], options?: UniformOptions): Tensor<FloatDType> {
  const fn = 'random.uniform';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype', 'minval', 'maxval']);
  const modes = getModes();
  const dtype = checkFloatDtype(fn, opts.dtype, modes);
  const minval = opts.minval === undefined ? 0 : checkFinite(fn, 'minval', opts.minval);
  const maxval = opts.maxval === undefined ? 1 : checkFinite(fn, 'maxval', opts.maxval);
  if (minval > maxval) fail('range', fn, 'minval', `must not exceed \`maxval\` (${maxval})`, minval);
  if (dtype === 'float32') {
    for (const [arg, v] of [['minval', minval], ['maxval', maxval]] as const) {
      if (!Number.isFinite(Math.fround(v))) fail('range', fn, arg, 'must be finite in float32 (|x| ≤ 3.4028234663852886e+38)', v);
    }
  }
  const size = sizeOf(s);
  return new Tensor<FloatDType>(uniformData(key, size, dtype, minval, maxval, modes), s, dtype);
}
