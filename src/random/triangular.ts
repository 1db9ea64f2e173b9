import { checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, paramValues, resolveShape, rounder, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

/**
 * Triangular samples as JAX draws them, by inversion with one uniform u: with
 * fc = (mode − left)/(right − left), left + √(u·(right − left)·(mode − left)) when u < fc, else
 * right − √((1 − u)·(right − left)·(right − mode)); parameters per element, in the dtype.
 */
export function triangularData(
  key: KeyArray, left: ArrayLike<number>, mode: ArrayLike<number>, right: ArrayLike<number>, dtype: FloatDType, modes: Modes,
): Float64Array | Float32Array {
  const out = uniformUnit(key, left.length, dtype, modes);
  const r = rounder(dtype);
  for (let i = 0; i < out.length; i++) {
    const u = out[i]!, lo = left[i]!, m = mode[i]!, hi = right[i]!;
    const width = r(hi - lo), below = r(m - lo), above = r(hi - m);
    const fc = r(below / width);
    out[i] = u < fc
      ? r(lo + r(Math.sqrt(r(r(u * width) * below))))
      : r(hi - r(Math.sqrt(r(r(r(1 - u) * width) * above))));
  }
  return out;
}

/**
 * Triangular samples (`jax.random.triangular`): density rising linearly from `left` to a peak at
 * `mode` and falling linearly to `right`, by inversion of the CDF. Agrees with JAX to a few ulp.
 *
 * @param left lower limit (finite; number, array or Tensor).
 * @param mode peak, with left ≤ mode ≤ right.
 * @param right upper limit, greater than `left`.
 * @param shape result shape; defaults to the parameters' broadcast shape, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when a parameter is not finite, when left ≤ mode ≤ right or left < right
 *   fails anywhere, or when the shapes do not broadcast.
 * @example
 * random.triangular(random.key(0), 0, 1, 3, [4]); // → Tensor float64 [4]
 */
export function triangular(
  key: KeyArray, left: ParamLike, mode: ParamLike, right: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.triangular';
  checkKey(fn, 'key', key);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  const lt = floatParam(fn, 'left', left, dtype);
  const mt = floatParam(fn, 'mode', mode, dtype);
  const rt = floatParam(fn, 'right', right, dtype);
  const s = resolveShape(fn, shape, [['left', lt], ['mode', mt], ['right', rt]]);
  const ls = paramValues(fn, 'left', lt, s);
  const ms = paramValues(fn, 'mode', mt, s);
  const rs = paramValues(fn, 'right', rt, s);
  for (let i = 0; i < ls.length; i++) {
    const l = ls[i]!, m = ms[i]!, r = rs[i]!;
    if (!Number.isFinite(l)) fail('range', fn, 'left', 'must be finite', l);
    if (!Number.isFinite(m)) fail('range', fn, 'mode', 'must be finite', m);
    if (!Number.isFinite(r)) fail('range', fn, 'right', 'must be finite', r);
    if (!(l < r)) fail('range', fn, 'left', `must be less than \`right\` (${r})`, l);
    if (!(l <= m && m <= r)) fail('range', fn, 'mode', `must lie in [left, right] = [${l}, ${r}]`, m);
  }
  return new Tensor<FloatDType>(triangularData(key, ls, ms, rs, dtype, modes), s, dtype);
}
