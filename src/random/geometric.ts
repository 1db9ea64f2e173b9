import { checkOptions } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType, IntDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { inexactDtype } from './binomial.js';
import { checkKey, type KeyArray } from './key-array.js';
import { checkValues, floatParam, paramValues, resolveShape, rounder, type ParamLike, type ShapeLike } from './params.js';
import { floatToIntData } from './params.js';
import { log1pXla } from './xla-math.js';
import { checkIntDtype } from './randint.js';
import { uniformUnit } from './uniform.js';
import { detLog } from '../math/index.js';

/**
 * Geometric samples as JAX draws them: u uniform in `dtype` (p's dtype), u = 0 mapped to 1,
 * then floor(log u / log1p(−p)) + 1 in `dtype`, converted to `outDtype` (saturating).
 */
export function geometricData(key: KeyArray, p: Float64Array | Float32Array, dtype: FloatDType, outDtype: IntDType, modes: Modes) {
  const n = p.length;
  const r = rounder(dtype);
  const u = uniformUnit(key, n, dtype, modes);
  const g = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const ui = u[i] === 0 ? 1 : u[i]!;
    g[i] = r(Math.floor(r(r(detLog(ui)) / log1pXla(-p[i]!, r))) + 1);
  }
  return floatToIntData(g, outDtype);
}

/**
 * Geometric samples (`jax.random.geometric`): the number of Bernoulli(p) trials up to and
 * including the first success, P(k) = p (1 − p)^(k−1) on k = 1, 2, …
 *
 * As in JAX, p takes its inexact dtype (a plain number acts as a Python float: float64 draws
 * in x64 mode, float32 in x32; a float Tensor keeps its dtype), the draw is
 * floor(log u / log1p(−p)) + 1 and a uniform of exactly 0 counts as 1 (JAX ≥ 0.6). Values
 * beyond the integer dtype's range saturate, as XLA's conversion does.
 *
 * @param p success probability in (0, 1], a number, array or Tensor.
 * @param shape result shape; defaults to `p`'s shape, and `p` must broadcast to it.
 * @param options.dtype integer dtype; default `int64` in x64 mode (bigints), `int32` in x32.
 * @throws RangeError for p outside (0, 1] or NaN, or a `p` that does not broadcast to `shape`.
 * @example
 * random.geometric(random.key(0), 0.25, [5]);   // → Tensor int64 [5]
 */
export function geometric(key: KeyArray, p: ParamLike, shape?: ShapeLike, options?: { dtype?: IntDType }): Tensor<IntDType> {
  const fn = 'random.geometric';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const outDtype = checkIntDtype(fn, opts.dtype, modes);
  const dtype = inexactDtype(fn, 'p', p, modes);
  const pT = floatParam(fn, 'p', p, dtype);
  const s = resolveShape(fn, shape, [['p', pT]]);
  const probs = paramValues(fn, 'p', pT, s);
  checkValues(fn, 'p', pT.data as ArrayLike<number>, (v) => v > 0 && v <= 1, 'must be a probability in (0, 1]');
  return new Tensor<IntDType>(geometricData(key, probs, dtype, outDtype, modes), s, outDtype);
}
