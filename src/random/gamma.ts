/**
 * Gamma and log-gamma samplers: Marsaglia and Tsang's rejection method exactly as JAX runs it
 * (reference/jax-random.md §6.11), with JAX's key-derivation order.
 *
 * Two implementations give the same bits:
 * - `gammaReference` here: the algorithm written plainly, one element at a time, through the
 *   PRNG record (`impl.split`, `uniformUnit`, `normalData`). Used for impls without a `gamma` hook.
 * - a PRNG's fused `gamma` hook: threefry2x32's is gamma-threefry.ts, the same steps in lockstep
 *   over chunks of elements, several hash blocks side by side, no allocation per value (about
 *   30× faster than the plain path).
 * test/random/gamma.test.ts checks that the two agree bit for bit in all four modes; both take
 * their arithmetic from gamma-steps.ts.
 */
import { checkOptions } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { exponentialData } from './exponential.js';
import { candidate, finish, rejected, rounder, SQUEEZE, THIRD, type FloatArray } from './gamma-steps.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { floatDtype, floatParam, paramValues, resolveShape, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';

// ---------------------------------------------------------------------------------------------
// The plain path

/**
 * One gamma (or log-gamma) sample exactly as JAX's `_gamma_one`, written plainly: any PRNG impl,
 * one allocation-heavy step at a time. a < 0 and NaN give NaN (see `gamma`).
 */
export function gammaOne(key: KeyArray, alpha: number, logSpace: boolean, dtype: FloatDType, modes: Modes): number {
  if (!(alpha >= 0)) return Number.NaN;
  const r = rounder(dtype);
  const third = THIRD[dtype];
  const A = alpha >= 1 ? alpha : r(alpha + 1);
  const d = r(A - third);
  const c = r(third / r(Math.sqrt(d)));
  let [loopKey, subkey] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  let X = 0, V = 1, U = 2;                    // makes the condition true (unless d = ∞)
  while (rejected(X, V, U, d, SQUEEZE[dtype], r)) {
    const [next, xkey0, ukey] = splitKeys(loopKey, 3, modes) as [KeyArray, KeyArray, KeyArray];
    loopKey = next;
    let xkey = xkey0, x = 0, v = -1;
    while (v <= 0) {
      const [nextX, sk] = splitKeys(xkey, 2, modes) as [KeyArray, KeyArray];
      xkey = nextX;
      x = normalData(sk, 1, dtype, modes)[0]!;
      v = candidate(x, c, dtype === 'float32');
    }
    X = r(x * x);
    V = r(r(v * v) * v);
    U = uniformUnit(ukey, 1, dtype, modes)[0]!;
  }
  if (alpha >= 1) return finish(alpha, d, V, 0, logSpace, r);
  const w = logSpace ? -exponentialData(subkey, 1, dtype, modes)[0]! : uniformUnit(subkey, 1, dtype, modes)[0]!;
  return finish(alpha, d, V, w, logSpace, r);
}

/**
 * `size` gamma samples by the plain path: keys = split(key, size), one per element; `alpha`
 * holds one shape per element, or a single shape for all.
 */
export function gammaReference(
  key: KeyArray, alpha: ArrayLike<number>, size: number, logSpace: boolean, dtype: FloatDType, modes: Modes,
): FloatArray {
  const out = dtype === 'float32' ? new Float32Array(size) : new Float64Array(size);
  if (size === 0) return out;
  const keys = splitKeys(key, size, modes);
  const step = alpha.length === 1 ? 0 : 1;
  for (let i = 0; i < size; i++) out[i] = gammaOne(keys[i]!, alpha[i * step]!, logSpace, dtype, modes);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cores and public wrappers

function gammaCore(key: KeyArray, alpha: ArrayLike<number>, size: number, logSpace: boolean, dtype: FloatDType, modes: Modes): FloatArray {
  if (alpha.length !== 1 && alpha.length !== size) {
    throw new RangeError(`gammaData: \`alpha\` has ${alpha.length} values for ${size} samples`);
  }
  if (!key.impl.gamma) return gammaReference(key, alpha, size, logSpace, dtype, modes);
  const out = dtype === 'float32' ? new Float32Array(size) : new Float64Array(size);
  key.impl.gamma(key.data, alpha, out, logSpace, dtype, modes);
  return out;
}

/**
 * `size` standard gamma samples; `alpha` holds each element's shape (already a value of
 * `dtype`), or one shape for all. Element i uses key i of `split(key, size)`, as JAX's
 * `random_gamma_p`. Reused by the samplers built on gamma.
 */
export function gammaData(key: KeyArray, alpha: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes): FloatArray {
  return gammaCore(key, alpha, size, false, dtype, modes);
}

/** `size` log-gamma samples (see `gammaData`). */
export function loggammaData(key: KeyArray, alpha: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes): FloatArray {
  return gammaCore(key, alpha, size, true, dtype, modes);
}

/**
 * A parameter's values for the `*Data` cores: its single value when it has one (the cores
 * broadcast a length-1 array), else its values broadcast to `shape` (params.ts's `paramValues`).
 */
export function paramOrScalar(fn: string, arg: string, t: Tensor, shape: readonly number[]): FloatArray {
  if (t.size === 1) return (t.dtype === 'float32' ? Float32Array : Float64Array).of(t.data[0] as number);
  return paramValues(fn, arg, t, shape);
}

/** A `*Data` core of the one-parameter gamma-family samplers: `size` values from `key` and the parameter's values (`paramOrScalar`). */
export type OneParamCore = (key: KeyArray, values: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes) => FloatArray;

/**
 * The public body of a one-parameter gamma-family sampler (`gamma`, `loggamma`, `chisquare`,
 * `t`): checks the key and options, takes the parameter `arg` as a float tensor, applies JAX's
 * shape rule and runs `core` on the parameter's values.
 */
export function oneParamSampler(
  fn: string, arg: string, core: OneParamCore, key: KeyArray, value: ParamLike, shape: ShapeLike | undefined, options: { dtype?: FloatDType } | undefined,
): Tensor<FloatDType> {
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const t = floatParam(fn, arg, value, dtype);
  const s = resolveShape(fn, shape, [[arg, t]]);
  return new Tensor<FloatDType>(core(key, paramOrScalar(fn, arg, t, s), sizeOf(s), dtype, modes), s, dtype);
}

/**
 * Standard gamma samples (`jax.random.gamma`): density x^(a−1)·e^(−x) / Γ(a) on (0, ∞), unit
 * scale (divide by a rate, or multiply by a scale, afterwards).
 *
 * Marsaglia and Tsang's method with JAX's exact key order (per-element keys from
 * `split(key, N)`, then the rejection loop of §6.11), so values agree with JAX to a few float32
 * ulp. For a < 1 the sample is boosted as Gamma(a + 1)·U^(1/a), which underflows to 0 for a
 * good share of samples once a is small (below about 0.1 in float32, 0.01 in float64): use
 * `loggamma` there.
 *
 * Edge values follow JAX: a = 0 gives 0 (almost surely); a = ∞ gives ∞; NaN gives NaN. For
 * a < 0 stochax returns NaN, where JAX returns NaN only for a ≤ −2/3 and meaningless positive
 * numbers for −2/3 < a < 0.
 *
 * @param key a single PRNG key.
 * @param a shape parameter(s), a number, nested array or Tensor; should be positive.
 * @param shape result shape (default: `a`'s shape); `a` must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `a` or a bad key; RangeError when `a` does not broadcast to
 *   `shape`, or for float64 in x32 mode.
 * @example
 * random.gamma(random.key(0), 2.5, [3]);                  // → Tensor float64 [3]
 * random.gamma(random.key(0), [0.5, 1, 2]);               // → Tensor float64 [3], one per a
 */
export function gamma(key: KeyArray, a: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return oneParamSampler('random.gamma', 'a', gammaData, key, a, shape, options);
}

/**
 * Logarithms of standard gamma samples (`jax.random.loggamma`), computed in log space so that
 * small shapes keep their precision: `exp(loggamma(key, a))` equals `gamma(key, a)` to rounding.
 * The boost for a < 1 is log Gamma(a + 1) + log1p(−u)/a.
 *
 * Edge values follow JAX: a = 0 gives −∞, except when the boost draw is u = 0 exactly, where
 * JAX's `log_samples == 0` guard skips the boost and the result is the finite log d + log V
 * (JAX's test_loggamma_nan_corner_case); a = ∞ gives ∞; NaN gives NaN; stochax returns NaN for
 * a < 0 (see `gamma`).
 *
 * @param key a single PRNG key.
 * @param a shape parameter(s), a number, nested array or Tensor; should be positive.
 * @param shape result shape (default: `a`'s shape); `a` must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `a` or a bad key; RangeError when `a` does not broadcast to
 *   `shape`, or for float64 in x32 mode.
 * @example
 * random.loggamma(random.key(0), 1e-3, [4]);              // → Tensor float64 [4], mostly ≪ 0
 */
export function loggamma(key: KeyArray, a: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  return oneParamSampler('random.loggamma', 'a', loggammaData, key, a, shape, options);
}
