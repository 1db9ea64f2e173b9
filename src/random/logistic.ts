import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';
import { uniformData } from './uniform.js';
import { detLog, detLog1p } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** finfo(dtype).tiny: the smallest normal number. */
const TINY: Record<FloatDType, number> = { float32: 2 ** -126, float64: 2 ** -1022 };

/** `size` standard logistic samples as JAX draws them: x uniform on [tiny, 1), log(x) − log1p(−x). */
export function logisticData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const x = uniformData(key, size, dtype, TINY[dtype], 1, modes);
  const round = rounder(dtype);
  for (let i = 0; i < size; i++) x[i] = round(round(detLog(x[i]!)) - round(detLog1p(-x[i]!)));
  return x;
}

/**
 * Standard logistic samples (`jax.random.logistic`): density e^(−x)/(1 + e^(−x))² on ℝ. Agrees
 * with JAX to a few ulp.
 *
 * @param shape result shape (default `[]`, a scalar).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError / RangeError for a bad key, shape or dtype.
 * @example
 * random.logistic(random.key(0), [3]); // → Tensor float64 [3]
 */
export function logistic(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.logistic';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  return new Tensor<FloatDType>(logisticData(key, sizeOf(s), dtype, modes), s, dtype);
}
