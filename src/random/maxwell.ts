import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';

/**
 * `size` Maxwell samples as JAX draws them: the Euclidean norm of each row of
 * normal(key, [size, 3]), summed in order and rounded to the dtype after every operation.
 */
export function maxwellData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const z = normalData(key, 3 * size, dtype, modes);
  const out = dtype === 'float32' ? new Float32Array(size) : new Float64Array(size);
  const r = rounder(dtype);
  for (let i = 0; i < size; i++) {
    const a = z[3 * i]!, b = z[3 * i + 1]!, c = z[3 * i + 2]!;
    out[i] = r(Math.sqrt(r(r(r(a * a) + r(b * b)) + r(c * c))));
  }
  return out;
}

/**
 * Maxwell samples (`jax.random.maxwell`): density √(2/π)·x²·e^(−x²/2) on [0, ∞), the length of a
 * standard normal 3-vector (a chi distribution with 3 degrees of freedom). Agrees with JAX to a
 * few ulp.
 *
 * @param shape result shape (default `[]`, a scalar); draws normal(key, [...shape, 3]).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError / RangeError for a bad key, shape or dtype.
 * @example
 * random.maxwell(random.key(0), [3]); // → Tensor float64 [3]
 */
export function maxwell(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.maxwell';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  checkShape(fn, 'shape', [...s, 3]); // it draws 3 normals per value
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  return new Tensor<FloatDType>(maxwellData(key, sizeOf(s), dtype, modes), s, dtype);
}
