import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';
import { uniformData } from './uniform.js';
import { detLog1p } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** finfo(dtype).epsneg: the gap below 1. */
const EPSNEG: Record<FloatDType, number> = { float32: 2 ** -24, float64: 2 ** -53 };

/**
 * `size` standard Laplace samples as JAX draws them: u uniform on [−1 + epsneg, 1) (so |u| < 1),
 * then sign(u)·log1p(−|u|).
 */
export function laplaceData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const u = uniformData(key, size, dtype, -1 + EPSNEG[dtype], 1, modes);
  const round = rounder(dtype);
  for (let i = 0; i < size; i++) {
    const v = u[i]!;
    u[i] = Math.sign(v) * round(detLog1p(-Math.abs(v)));
  }
  return u;
}

/**
 * Standard Laplace samples (`jax.random.laplace`): density e^(−|x|)/2 on ℝ. Agrees with JAX to
 * a few ulp.
 *
 * @param shape result shape (default `[]`, a scalar).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError / RangeError for a bad key, shape or dtype.
 * @example
 * random.laplace(random.key(0), [3]); // → Tensor float64 [3]
 */
export function laplace(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.laplace';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  return new Tensor<FloatDType>(laplaceData(key, sizeOf(s), dtype, modes), s, dtype);
}
