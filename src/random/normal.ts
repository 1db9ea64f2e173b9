import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { normalFromUnit } from './normal-fill.js';
import { floatDtype, type ShapeLike } from './params.js';
import { uniformFill } from './uniform.js';

/**
 * `size` standard normals exactly as JAX draws them: `√2 · erfinv(u)` with u uniform on
 * [nextafter(−1, 0), 1), i.e. u = `2f + lo` for the unit uniform f (exact in both dtypes).
 * The transform is stochax's deterministic one (src/math/normal-det.ts: our own log1p, no
 * Math.log), run by the WebAssembly kernels or the identical JS fallback, so the bits are the
 * same in every engine.
 */
export function normalData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const out = dtype === 'float64' ? new Float64Array(size) : new Float32Array(size);
  normalFill(key, out, modes);
  return out;
}

/**
 * `normalData` into `out` (its length and dtype), without a new array: the impl's fused
 * `normalFloat64`/`normalFloat32` when it has one, else the unit uniforms transformed in place.
 */
export function normalFill(key: KeyArray, out: Float64Array | Float32Array, modes: Modes): void {
  const impl = key.impl;
  if (out instanceof Float64Array) {
    if (impl.normalFloat64) return impl.normalFloat64(key.data, out, modes);
  } else if (impl.normalFloat32) return impl.normalFloat32(key.data, out, modes);
  uniformFill(key, out, modes);
  normalFromUnit(out);
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
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  return new Tensor<FloatDType>(normalData(key, sizeOf(s), dtype, modes), s, dtype);
}
