import { checkOptions, checkPositive, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { gammaData } from './gamma.js';
import { cpow, rounder, type FloatArray } from './gamma-steps.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { floatDtype, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

/** A shape parameter `p`: a positive, finite number (JAX takes a Python float). */
export function checkPower(fn: string, arg: string, p: unknown): number {
  return checkPositive(fn, arg, p);
}

/**
 * `size` generalized-normal samples as JAX draws them (§6.17): `keys = split(key)`,
 * g = gamma(keys[0], 1/p), a Rademacher sign from keys[1], and sign·g^(1/p). The sign is
 * 2·bernoulli(keys[1], 0.5) − 1 with p = 0.5 a Python float, so it compares a float64 uniform
 * with ½ in x64 mode and a float32 one in x32 mode, whatever `dtype` is (bernoulli.ts's rule).
 */
export function generalizedNormalData(key: KeyArray, p: number, size: number, dtype: FloatDType, modes: Modes): FloatArray {
  const r = rounder(dtype);
  const [kg, ks] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const inv = r(1 / p);
  const out = gammaData(kg, [inv], size, dtype, modes);
  const u = uniformUnit(ks, size, modes.x64 ? 'float64' : 'float32', modes);
  for (let i = 0; i < size; i++) {
    const m = r(cpow(out[i]!, inv));
    out[i] = u[i]! < 0.5 ? m : -m;
  }
  return out;
}

/**
 * Generalized normal samples (`jax.random.generalized_normal`): density
 * p / (2Γ(1/p)) · e^(−|x|^p) on ℝ. p = 2 is a normal with variance ½, p = 1 a Laplace.
 * Drawn as ±G^(1/p) with G ~ Gamma(1/p), as JAX does; agrees with JAX to a few float32 ulp.
 * For large p (1/p below about 0.01 in float32) the gamma draw underflows to 0 and the sample
 * is ±0, as in JAX.
 *
 * @param key a single PRNG key.
 * @param p the shape, a positive finite number.
 * @param shape result shape (default `[]`, a scalar).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `p` or a bad key; RangeError for p ≤ 0, p = ∞ or NaN, a bad
 *   shape, or float64 in x32 mode.
 * @example
 * random.generalizedNormal(random.key(0), 1.5, [4]);   // → Tensor float64 [4]
 */
export function generalizedNormal(key: KeyArray, p: number, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.generalizedNormal';
  checkKey(fn, 'key', key);
  const pp = checkPower(fn, 'p', p);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  return new Tensor<FloatDType>(generalizedNormalData(key, pp, sizeOf(s), dtype, modes), s, dtype);
}
