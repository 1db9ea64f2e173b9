import { checkOptions } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { loggammaData, paramOrScalar } from './gamma.js';
import { rounder, type FloatArray } from './gamma-steps.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, resolveShape, type ParamLike, type ShapeLike } from './params.js';
import { detExp } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/**
 * `size` Beta(a, b) samples as JAX draws them (§6.12): `ka, kb = split(key)`, log-gammas
 * la = loggamma(ka, a) and lb = loggamma(kb, b), then with m = max(la, lb),
 * e^(la − m) / (e^(la − m) + e^(lb − m)), which keeps precision when both shapes are small.
 * `a` and `b` hold one value per element or a single value (already values of `dtype`).
 */
export function betaData(
  key: KeyArray, a: ArrayLike<number>, b: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes,
): FloatArray {
  const [ka, kb] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const la = loggammaData(ka, a, size, dtype, modes);
  const lb = loggammaData(kb, b, size, dtype, modes);
  const r = rounder(dtype);
  for (let i = 0; i < size; i++) {
    const m = Math.max(la[i]!, lb[i]!);          // NaN-propagating, as lax.max
    const ga = r(detExp(r(la[i]! - m)));
    const gb = r(detExp(r(lb[i]! - m)));
    la[i] = r(ga / r(ga + gb));
  }
  return la;
}

/**
 * Beta samples (`jax.random.beta`): density x^(a−1)·(1 − x)^(b−1) / B(a, b) on [0, 1].
 *
 * Drawn as Ga/(Ga + Gb) from two log-space gamma draws (`ka, kb = split(key)`), so shapes far
 * below 1 work: with a, b < 0.1 most samples sit within rounding of 0 or 1, as they should.
 * Agrees with JAX to a few float32 ulp. Non-positive or NaN shapes give NaN (see `gamma`).
 *
 * @param key a single PRNG key.
 * @param a first shape parameter(s), positive; a number, nested array or Tensor.
 * @param b second shape parameter(s), positive; must broadcast with `a`.
 * @param shape result shape (default: the broadcast shape of `a` and `b`), to which both must
 *   broadcast.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for non-numeric parameters or a bad key; RangeError for parameters that do
 *   not broadcast to `shape`, or float64 in x32 mode.
 * @example
 * random.beta(random.key(0), 0.5, 0.5, [4]);        // → Tensor float64 [4]
 * random.beta(random.key(0), [1, 2], 3);            // → Tensor float64 [2]
 */
export function beta(
  key: KeyArray, a: ParamLike, b: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.beta';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const at = floatParam(fn, 'a', a, dtype);
  const bt = floatParam(fn, 'b', b, dtype);
  const s = resolveShape(fn, shape, [['a', at], ['b', bt]]);
  const size = sizeOf(s);
  const data = betaData(key, paramOrScalar(fn, 'a', at, s), paramOrScalar(fn, 'b', bt, s), size, dtype, modes);
  return new Tensor<FloatDType>(data, s, dtype);
}
