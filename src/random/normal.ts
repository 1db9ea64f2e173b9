import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { normalF32Fill, normalF64Fill, normalFromUnit } from './normal-fill.js';
import { floatDtype, type ShapeLike } from './params.js';
import { threefry2x32 } from './threefry-impl.js';
import { uniformUnit } from './uniform.js';

/**
 * `size` standard normals exactly as JAX draws them: `√2 · erfinv(u)` with u uniform on
 * [nextafter(−1, 0), 1), i.e. u = `2f + lo` for the unit uniform f (exact in both dtypes).
 * The transform is stochax's deterministic one (src/math/normal-det.ts: our own log1p, no
 * Math.log), run by the WebAssembly kernels or the identical JS fallback, so the bits are the
 * same in every engine.
 */
export function normalData(key: KeyArray, size: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  if (key.impl === threefry2x32) {
    const k0 = key.data[0]!, k1 = key.data[1]!;
    if (dtype === 'float64') {
      const out = new Float64Array(size);
      if (modes.partitionable) normalF64Fill(k0, k1, 0, 0, 0, size, out);
      else normalF64Fill(k0, k1, 0, size, 1, size, out);   // original mode pairs blocks (i, i + n)
      return out;
    }
    if (modes.partitionable) {
      const out = new Float32Array(size);
      normalF32Fill(k0, k1, 0, 0, 0, size, out);
      return out;
    }
  }
  const out = uniformUnit(key, size, dtype, modes);        // philox keys, original-mode float32
  normalFromUnit(out);                                     // the same transform, in place
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
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  return new Tensor<FloatDType>(normalData(key, s.reduce((a, b) => a * b, 1), dtype, modes), s, dtype);
}
