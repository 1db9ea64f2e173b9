import { checkOptions } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { detLog1p, detPow } from '../math/index.js';
import { checkKey, type KeyArray } from './key-array.js';
import { checkValues, floatDtype, floatParam, paramValues, resolveShape, rounder, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

/**
 * Weibull samples as JAX draws them: (−log1p(−u))^(1/c)·scale with u uniform on [0, 1);
 * `scale` and `concentration` per element.
 */
export function weibullMinData(
  key: KeyArray, scale: ArrayLike<number>, concentration: ArrayLike<number>, dtype: FloatDType, modes: Modes,
): Float64Array | Float32Array {
  const out = uniformUnit(key, scale.length, dtype, modes);
  const round = rounder(dtype);
  for (let i = 0; i < out.length; i++) {
    const e = round(-detLog1p(-out[i]!));
    out[i] = round(round(detPow(e, round(1 / concentration[i]!))) * scale[i]!);
  }
  return out;
}

/**
 * Weibull samples (`jax.random.weibull_min`): density (c/σ)(x/σ)^(c−1)·e^(−(x/σ)^c) on [0, ∞)
 * for scale σ and concentration c, by inversion of the CDF. Agrees with JAX to a few ulp.
 *
 * Shape rule: like the other parametrized samplers, `shape` defaults to the parameters'
 * broadcast shape and they must broadcast to it, and every element gets its own uniform. (JAX's
 * `weibull_min` defaults `shape` to `()` and then broadcasts one scalar uniform across array
 * parameters; with scalar parameters or an explicit shape both agree.)
 *
 * @param scale σ > 0, finite (number, array or Tensor).
 * @param concentration c > 0, finite.
 * @param shape result shape; defaults to the broadcast shape of `scale` and `concentration`.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws RangeError when a parameter is not positive and finite, or the shapes do not broadcast.
 * @example
 * random.weibullMin(random.key(0), 1, 1.5, [4]); // → Tensor float64 [4]
 */
export function weibullMin(
  key: KeyArray, scale: ParamLike, concentration: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.weibullMin';
  checkKey(fn, 'key', key);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  const st = floatParam(fn, 'scale', scale, dtype);
  const ct = floatParam(fn, 'concentration', concentration, dtype);
  const s = resolveShape(fn, shape, [['scale', st], ['concentration', ct]]);
  const ss = paramValues(fn, 'scale', st, s);
  const cs = paramValues(fn, 'concentration', ct, s);
  checkValues(fn, 'scale', ss, (v) => v > 0 && v < Infinity, 'must be positive and finite');
  checkValues(fn, 'concentration', cs, (v) => v > 0 && v < Infinity, 'must be positive and finite');
  return new Tensor<FloatDType>(weibullMinData(key, ss, cs, dtype, modes), s, dtype);
}
