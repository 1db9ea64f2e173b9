import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import { gammaData, oneParamSampler } from './gamma.js';
import { rounder, type FloatArray } from './gamma-steps.js';
import { splitKeys, type KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { halfDegrees } from './chisquare.js';
import type { ParamLike, ShapeLike } from './params.js';

/**
 * `size` Student's t samples as JAX draws them (§6.17): `kn, kg = split(key)`, a normal n from
 * kn and a gamma g of shape df/2 from kg, then n·√((df/2)/g). `df` holds one value per element
 * or a single value (already values of `dtype`).
 */
export function tData(key: KeyArray, df: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes): FloatArray {
  const r = rounder(dtype);
  const [kn, kg] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const n = normalData(kn, size, dtype, modes);
  const half = halfDegrees(df, dtype);
  const g = gammaData(kg, half, size, dtype, modes);
  const step = half.length === 1 ? 0 : 1;
  for (let i = 0; i < size; i++) n[i] = r(n[i]! * r(Math.sqrt(r(half[i * step]! / g[i]!))));
  return n;
}

/**
 * Student's t samples (`jax.random.t`): density ∝ (1 + x²/ν)^(−(ν + 1)/2) on ℝ with ν = `df`
 * degrees of freedom. Drawn as n·√((ν/2)/g) with n normal and g Gamma(ν/2) from
 * `kn, kg = split(key)`, as JAX does; agrees with JAX to a few float32 ulp. Non-positive or NaN
 * `df` gives NaN (see `gamma`).
 *
 * Shape: JAX's `t` defaults `shape` to `()`, so an array `df` needs an explicit shape there;
 * stochax defaults to `df`'s shape, like the other parameterised samplers (the same values
 * wherever JAX accepts the call).
 *
 * @param key a single PRNG key.
 * @param df degrees of freedom, positive; a number, nested array or Tensor.
 * @param shape result shape (default: `df`'s shape); `df` must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `df` or a bad key; RangeError when `df` does not broadcast
 *   to `shape`, or for float64 in x32 mode.
 * @example
 * random.t(random.key(0), 3, [4]);             // → Tensor float64 [4]
 */
export function t(key: KeyArray, df: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return oneParamSampler('random.t', 'df', tData, key, df, shape, options);
}
