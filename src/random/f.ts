import { checkOptions } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { chisquareData } from './chisquare.js';
import { paramOrScalar } from './gamma.js';
import { rounder, type FloatArray } from './gamma-steps.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, resolveShape, type ParamLike, type ShapeLike } from './params.js';

/**
 * `size` F samples as JAX draws them (§6.17): `kd, kn = split(key)` (the denominator's key
 * first), then (χ²(kn, dfnum)/dfnum) / (χ²(kd, dfden)/dfden). `dfnum` and `dfden` hold one
 * value per element or a single value (already values of `dtype`).
 */
export function fData(
  key: KeyArray, dfnum: ArrayLike<number>, dfden: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes,
): FloatArray {
  const r = rounder(dtype);
  const [kd, kn] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const num = chisquareData(kn, dfnum, size, dtype, modes);
  const den = chisquareData(kd, dfden, size, dtype, modes);
  const sn = dfnum.length === 1 ? 0 : 1, sd = dfden.length === 1 ? 0 : 1;
  for (let i = 0; i < size; i++) num[i] = r(r(num[i]! / dfnum[i * sn]!) / r(den[i]! / dfden[i * sd]!));
  return num;
}

/**
 * F-distribution samples (`jax.random.f`): density ∝ x^(ν₁/2 − 1)·(1 + ν₁x/ν₂)^(−(ν₁ + ν₂)/2) on
 * (0, ∞), with ν₁ = `dfnum` and ν₂ = `dfden`. Drawn as a ratio of scaled chi-squares from
 * `kd, kn = split(key)`, as JAX does; agrees with JAX to a few float32 ulp. Non-positive or NaN
 * degrees of freedom give NaN (see `gamma`).
 *
 * @param key a single PRNG key.
 * @param dfnum numerator degrees of freedom, positive; a number, nested array or Tensor.
 * @param dfden denominator degrees of freedom, positive; must broadcast with `dfnum`.
 * @param shape result shape (default: the broadcast shape of `dfnum` and `dfden`).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for non-numeric parameters or a bad key; RangeError for parameters that do
 *   not broadcast to `shape`, or float64 in x32 mode.
 * @example
 * random.f(random.key(0), 5, 10, [4]);         // → Tensor float64 [4]
 */
export function f(
  key: KeyArray, dfnum: ParamLike, dfden: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.f';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const nt = floatParam(fn, 'dfnum', dfnum, dtype);
  const dt = floatParam(fn, 'dfden', dfden, dtype);
  const s = resolveShape(fn, shape, [['dfden', dt], ['dfnum', nt]]);
  const data = fData(key, paramOrScalar(fn, 'dfnum', nt, s), paramOrScalar(fn, 'dfden', dt, s), sizeOf(s), dtype, modes);
  return new Tensor<FloatDType>(data, s, dtype);
}
