import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import { loggammaData, oneParamSampler } from './gamma.js';
import { rounder, type FloatArray } from './gamma-steps.js';
import type { KeyArray } from './key-array.js';
import type { ParamLike, ShapeLike } from './params.js';
import { detExp } from '../math/index.js';

/**
 * `size` chi-square samples as JAX draws them (§6.17): 2·exp(loggamma(key, df/2)). `df` holds
 * one value per element or a single value (already values of `dtype`).
 */
export function chisquareData(key: KeyArray, df: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes): FloatArray {
  const r = rounder(dtype);
  const out = loggammaData(key, halfDegrees(df, dtype), size, dtype, modes);
  for (let i = 0; i < size; i++) out[i] = r(r(detExp(out[i]!)) * 2);
  return out;
}

/** ν/2 for each degrees-of-freedom value, rounded to `dtype` (the Gamma shape of χ² and t). */
export function halfDegrees(df: ArrayLike<number>, dtype: FloatDType): FloatArray {
  const r = rounder(dtype);
  const half = dtype === 'float32' ? new Float32Array(df.length) : new Float64Array(df.length);
  for (let i = 0; i < df.length; i++) half[i] = r(df[i]! / 2);
  return half;
}

/**
 * Chi-square samples (`jax.random.chisquare`): density ∝ x^(ν/2 − 1)·e^(−x/2) on (0, ∞) with
 * ν = `df` degrees of freedom. Drawn as 2·exp(loggamma(key, ν/2)), as JAX does; agrees with JAX
 * to a few float32 ulp. Non-positive or NaN `df` gives NaN (see `gamma`).
 *
 * @param key a single PRNG key.
 * @param df degrees of freedom, positive; a number, nested array or Tensor.
 * @param shape result shape (default: `df`'s shape); `df` must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `df` or a bad key; RangeError when `df` does not broadcast
 *   to `shape`, or for float64 in x32 mode.
 * @example
 * random.chisquare(random.key(0), 3, [4]);     // → Tensor float64 [4]
 */
export function chisquare(key: KeyArray, df: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return oneParamSampler('random.chisquare', 'df', chisquareData, key, df, shape, options);
}
