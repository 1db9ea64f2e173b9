import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';
import { uniformData } from './uniform.js';
import { detTan } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** finfo(dtype).eps: the gap above 1. */
const EPS: Record<FloatDType, number> = { float32: 2 ** -23, float64: 2 ** -52 };

/** `size` standard Cauchy samples as JAX draws them: u uniform on [eps, 1), tan(π·(u − ½)). */
export function cauchyData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const u = uniformData(key, size, dtype, EPS[dtype], 1, modes);
  const round = rounder(dtype);
  const pi = round(Math.PI);
  for (let i = 0; i < size; i++) u[i] = round(detTan(round(pi * (u[i]! - 0.5))));
  return u;
}

/**
 * Standard Cauchy samples (`jax.random.cauchy`): density 1/(π(1 + x²)) on ℝ. Agrees with JAX to
 * a few ulp.
 *
 * @param shape result shape (default `[]`, a scalar).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError / RangeError for a bad key, shape or dtype.
 * @example
 * random.cauchy(random.key(0), [3]); // → Tensor float64 [3]
 */
export function cauchy(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.cauchy';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  return new Tensor<FloatDType>(cauchyData(key, sizeOf(s), dtype, modes), s, dtype);
}
