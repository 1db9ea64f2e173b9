import { checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { fma32, fma64 } from './float.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { maxwellData } from './maxwell.js';
import { broadcastShapes, checkValues, floatDtype, floatParam, paramValues, type ParamLike, type ShapeLike } from './params.js';
import { rademacherData } from './rademacher.js';

/**
 * Double-sided Maxwell samples with JAX's key order: `maxwellKey, rademacherKey = split(key)`;
 * sign·maxwell·scale + loc, the last multiply-add fused as XLA:CPU emits it.
 */
export function doubleSidedMaxwellData(
  key: KeyArray, loc: ArrayLike<number>, scale: ArrayLike<number>, dtype: FloatDType, modes: Modes,
): Float64Array | Float32Array {
  const size = loc.length;
  const [maxwellKey, signKey] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const out = maxwellData(maxwellKey, size, dtype, modes);
  const signs = rademacherData(signKey, size, modes);
  const fma = dtype === 'float32' ? fma32 : fma64;
  for (let i = 0; i < size; i++) out[i] = fma(signs[i]! * out[i]!, scale[i]!, loc[i]!);
  return out;
}

/**
 * Double-sided Maxwell samples (`jax.random.double_sided_maxwell`): density
 * ∝ z²·e^(−z²/2) with z = (x − loc)/scale, on ℝ. Agrees with JAX to a few ulp.
 *
 * Shape rule (JAX's, kept as is): with p the broadcast shape of `loc` and `scale`, the result
 * has shape `[...shape, ...p]` when `shape` is non-empty and `[...p, ...p]` when it is empty, so
 * scalar parameters give exactly `shape`.
 *
 * @param loc centre (finite; number, array or Tensor).
 * @param scale scale > 0, finite.
 * @param shape batch shape prepended to the parameters' shape (default `[]`).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when `loc` is not finite, `scale` is not positive and finite, or the
 *   parameters do not broadcast together.
 * @example
 * random.doubleSidedMaxwell(random.key(0), 1, 2, [5]); // → Tensor float64 [5]
 */
export function doubleSidedMaxwell(
  key: KeyArray, loc: ParamLike, scale: ParamLike, shape: ShapeLike = [], options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.doubleSidedMaxwell';
  checkKey(fn, 'key', key);
  const batch = checkShape(fn, 'shape', shape as number[]);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  const lt = floatParam(fn, 'loc', loc, dtype);
  const st = floatParam(fn, 'scale', scale, dtype);
  const p = broadcastShapes(fn, [['loc', lt.shape], ['scale', st.shape]]);
  const s = [...(batch.length > 0 ? batch : p), ...p];
  const ls = paramValues(fn, 'loc', lt, s);
  const ss = paramValues(fn, 'scale', st, s);
  checkValues(fn, 'loc', ls, Number.isFinite, 'must be finite');
  checkValues(fn, 'scale', ss, (v) => v > 0 && v < Infinity, 'must be positive and finite');
  return new Tensor<FloatDType>(doubleSidedMaxwellData(key, ls, ss, dtype, modes), s, dtype);
}
