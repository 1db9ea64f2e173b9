import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { erfinv32, erfinv64 } from './erfinv.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

const SQRT2_F32 = Math.fround(Math.SQRT2);

/**
 * `size` standard normals exactly as JAX draws them: `√2 · erfinv(u)` with u uniform on
 * [nextafter(−1, 0), 1). That u is `2f + lo` for the unit uniform f, which is exact in both
 * dtypes (no fused multiply-add question arises).
 */
export function normalData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = uniformUnit(key, size, dtype, modes);
  if (dtype === 'float32') {
    const lo = -(1 - 2 ** -24);
    for (let i = 0; i < size; i++) out[i] = Math.fround(SQRT2_F32 * erfinv32(2 * out[i]! + lo));
  } else {
    const lo = -(1 - 2 ** -53);
    for (let i = 0; i < size; i++) out[i] = Math.SQRT2 * erfinv64(2 * out[i]! + lo);
  }
  return out;
}

/**
 * Standard normal samples (`jax.random.normal`): density exp(−x²/2)/√(2π) on ℝ. Agrees with
 * JAX to a few float32 ulp (XLA's `log1p` differs from ours in the last bit now and then) and
 * to 1e-12 relative in float64.
 *
 * @example
 * random.normal(random.key(0), [3]);                    // → Tensor float64 [3]
 * random.normal(random.key(0), [2, 2], { dtype: 'float32' });
 */
export function normal(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.normal';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  return new Tensor<FloatDType>(normalData(key, s.reduce((a, b) => a * b, 1), dtype, modes), s, dtype);
}
