import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';
import { detLog1p } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** `size` standard exponentials as JAX draws them: −log1p(−u), u uniform on [0, 1). */
export function exponentialData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = uniformUnit(key, size, dtype, modes);
  const round = rounder(dtype);
  for (let i = 0; i < size; i++) out[i] = round(-detLog1p(-out[i]!));
  return out;
}

/**
 * Standard exponential samples (`jax.random.exponential`): density e^(−x) on [0, ∞).
 *
 * @example
 * random.exponential(random.key(0), [3]); // → Tensor float64 [3]
 */
export function exponential(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.exponential';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  return new Tensor<FloatDType>(exponentialData(key, sizeOf(s), dtype, modes), s, dtype);
}
