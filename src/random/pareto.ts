import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import { exponentialData } from './exponential.js';
import type { KeyArray } from './key-array.js';
import { checkedParamSampler, rounder, type ParamLike, type ShapeLike } from './params.js';
import { detExp } from '../math/index.js';

/** Pareto samples as JAX draws them: exp(e/b) with e standard exponential; `b` per element. */
export function paretoData(key: KeyArray, b: ArrayLike<number>, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = exponentialData(key, b.length, dtype, modes);
  const round = rounder(dtype);
  for (let i = 0; i < out.length; i++) out[i] = round(detExp(round(out[i]! / b[i]!)));
  return out;
}

/**
 * Pareto samples (`jax.random.pareto`): density b/x^(b+1) on [1, ∞), computed as exp(e/b) for a
 * standard exponential e. Agrees with JAX to a few ulp.
 *
 * @param b shape parameter, positive and finite (number, array or Tensor).
 * @param shape result shape; defaults to `b`'s shape, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when `b` is not positive and finite, or does not broadcast to `shape`.
 * @example
 * random.pareto(random.key(0), 3, [4]); // → Tensor float64 [4]
 */
export function pareto(key: KeyArray, b: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return checkedParamSampler('random.pareto', 'b', (v) => v > 0 && v < Infinity, 'must be positive and finite', paretoData, key, b, shape, options);
}
