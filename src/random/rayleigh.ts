import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { KeyArray } from './key-array.js';
import { checkedParamSampler, rounder, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';
import { detLog } from '../math/index.js';

/**
 * Rayleigh samples as JAX draws them: scale·√(−2·log u) with u uniform on [0, 1), so u = 0
 * (probability 2^−23 per float32 draw, 2^−52 per float64 draw) gives +∞ as in JAX.
 */
export function rayleighData(key: KeyArray, scale: ArrayLike<number>, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = uniformUnit(key, scale.length, dtype, modes);
  const round = rounder(dtype);
  for (let i = 0; i < out.length; i++) {
    out[i] = round(scale[i]! * round(Math.sqrt(round(round(detLog(out[i]!)) * -2))));
  }
  return out;
}

/**
 * Rayleigh samples (`jax.random.rayleigh`): density (x/σ²)·e^(−x²/(2σ²)) on [0, ∞), by inversion
 * of the CDF. Agrees with JAX to a few ulp. A zero uniform gives +∞, as in JAX (probability
 * 2^−23 per float32 draw).
 *
 * @param scale σ > 0, finite (number, array or Tensor).
 * @param shape result shape; defaults to `scale`'s shape, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when `scale` is not positive and finite, or does not broadcast to `shape`.
 * @example
 * random.rayleigh(random.key(0), 2, [4]); // → Tensor float64 [4]
 */
export function rayleigh(key: KeyArray, scale: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return checkedParamSampler('random.rayleigh', 'scale', (v) => v > 0 && v < Infinity, 'must be positive and finite', rayleighData, key, scale, shape, options);
}
