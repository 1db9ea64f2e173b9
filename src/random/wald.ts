import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import { fma32, fma64 } from './float.js';
import { splitKeys, type KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { checkedParamSampler, rounder, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

/** Above this t = μv²/2 JAX's form of the root has lost more than 11 bits to cancellation. */
export const WALD_STABLE_ROOT_ABOVE = 32;

/**
 * Wald samples with JAX's key order and algorithm (Michael, Schucany and Haas 1976):
 * `k1, k2 = split(key)`, v standard normal from k1, z uniform from k2, y = v²; x is the smaller
 * root μ + μ²y/2 − (μ/2)·√(4μy + μ²y²), and the result is x when z ≤ μ/(μ + x), else μ²/x.
 *
 * While t = μy/2 ≤ WALD_STABLE_ROOT_ABOVE the root is computed with JAX's own operations,
 * rounded to the dtype as XLA:CPU does (fused multiply-adds in √(4μ·y + μ²·y²) and in the final
 * subtraction), so values agree with JAX to a few ulp; its relative rounding error is about
 * 2(t + 1)²·eps, so this costs at most 11 bits. Beyond, where JAX's form fails (in float32 it
 * returns 0 or negative values once μ is a few hundred), the same root is computed without
 * cancellation as μ/(1 + t + √(t² + 2t)) and rounded once.
 */
export function waldData(key: KeyArray, mean: ArrayLike<number>, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const size = mean.length;
  const [k1, k2] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const v = normalData(k1, size, dtype, modes);
  const z = uniformUnit(k2, size, dtype, modes);
  const r = rounder(dtype);
  const fma = dtype === 'float32' ? fma32 : fma64;
  for (let i = 0; i < size; i++) {
    const mu = mean[i]!;
    const y = r(v[i]! * v[i]!);
    const muSq = r(mu * mu);
    const t = (mu * y) / 2;
    let x: number;
    if (t <= WALD_STABLE_ROOT_ABOVE) {
      const root = r(Math.sqrt(fma(r(4 * mu), y, r(muSq * r(y * y)))));
      x = fma(-r(mu / 2), root, r(mu + r(r(muSq * y) / 2)));
    } else {
      x = r(mu / (1 + t + Math.sqrt(t * (t + 2))));
    }
    v[i] = z[i]! <= r(mu / r(mu + x)) ? x : r(muSq / x);
  }
  return v;
}

/**
 * Wald (inverse Gaussian) samples with shape λ = 1 (`jax.random.wald`): density
 * (2πx³)^(−1/2)·exp(−(x − μ)²/(2μ²x)) on (0, ∞), mean μ. Same keys and algorithm as JAX, and
 * values agree with JAX to a few ulp, except for draws with μv²/2 > 32, where JAX's formula
 * has lost more than 11 bits to cancellation (and in float32 gives 0 or negative values once μ
 * is a few hundred): those take the same root computed without cancellation.
 *
 * @param mean μ > 0, finite (number, array or Tensor).
 * @param shape result shape; defaults to `mean`'s shape, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when `mean` is not positive and finite, or does not broadcast to `shape`.
 * @example
 * random.wald(random.key(0), 2, [4]); // → Tensor float64 [4]
 */
export function wald(key: KeyArray, mean: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return checkedParamSampler('random.wald', 'mean', (v) => v > 0 && v < Infinity, 'must be positive and finite', waldData, key, mean, shape, options);
}
