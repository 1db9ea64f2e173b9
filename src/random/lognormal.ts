import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { checkedParamSampler, rounder, type ParamLike, type ShapeLike } from './params.js';
import { detExp } from '../math/index.js';

/** Log-normal samples as JAX draws them: exp(σ·z) with z standard normal; `sigma` per element. */
export function lognormalData(key: KeyArray, sigma: ArrayLike<number>, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = normalData(key, sigma.length, dtype, modes);
  const round = rounder(dtype);
  for (let i = 0; i < out.length; i++) out[i] = round(detExp(round(out[i]! * sigma[i]!)));
  return out;
}

/**
 * Log-normal samples (`jax.random.lognormal`): density e^(−(log x)²/(2σ²))/(xσ√(2π)) on (0, ∞),
 * computed as exp(σ·z) for a standard normal z. Agrees with JAX to a few ulp.
 *
 * @param sigma σ ≥ 0, finite (default 1; σ = 0 gives the constant 1).
 * @param shape result shape; defaults to `sigma`'s shape, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when `sigma` is negative, NaN or infinite, or does not broadcast to `shape`.
 * @example
 * random.lognormal(random.key(0), 0.5, [4]); // → Tensor float64 [4]
 */
export function lognormal(key: KeyArray, sigma: ParamLike = 1, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return checkedParamSampler('random.lognormal', 'sigma', (v) => v >= 0 && v < Infinity, 'must be non-negative and finite', lognormalData, key, sigma, shape, options);
}
