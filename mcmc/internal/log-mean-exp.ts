/**
 * Log-space means over axes (TFP's `tfp.math.reduce_logmeanexp` and
 * `reduce_log_harmonic_mean_exp`): the reductions step-size adapters apply to per-chain log
 * acceptance probabilities.
 */
import { fail } from '../../src/checks.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { neg, sub } from '../../src/tensor/ops/elementwise.js';
import { logsumexp } from '../../src/tensor/ops/reduce.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { detLog } from '../../src/math/index.js';

/**
 * A log-space reduction `(x, axis, keepdims) → y` over the listed axes (an empty list reduces
 * nothing). `reduceLogMeanExp` and `reduceLogHarmonicMeanExp` are the two TFP provides.
 */
export type LogReduceFn = (x: Tensor, axis: readonly number[], keepdims: boolean) => Tensor;

function axesOf(fn: string, t: Tensor, axis: number | readonly number[] | undefined): number[] {
  if (axis === undefined) return t.shape.map((_, i) => i);
  const list = typeof axis === 'number' ? [axis] : Array.isArray(axis) ? [...axis] : fail('type', fn, 'axis', 'must be an integer or an array of integers', axis);
  return list.map((a) => {
    if (typeof a !== 'number' || !Number.isInteger(a) || a < -t.ndim || a >= t.ndim) fail('range', fn, 'axis', `must hold axes in [${-t.ndim}, ${t.ndim})`, axis);
    return a < 0 ? a + t.ndim : a;
  });
}

/**
 * log(mean(exp(x))) over `axis` (default: every axis), computed stably as
 * `logsumexp(x) − log n`. With an empty axis list `x` is returned unchanged.
 *
 * @param x - values in log space (e.g. per-chain log acceptance probabilities).
 * @param axis - axes to reduce (default all); negative axes count from the end.
 * @param keepdims - keep reduced axes with size 1 (default false).
 * @throws TypeError/RangeError for a non-tensor `x` or an axis out of range.
 * @example
 * reduceLogMeanExp(tensor([Math.log(0.2), Math.log(0.6)])); // → Tensor float64 []: log(0.4)
 */
export function reduceLogMeanExp(x: TensorLike, axis?: number | readonly number[], keepdims = false): Tensor {
  const fn = 'reduceLogMeanExp';
  const t = asTensor(fn, 'x', x);
  const axes = axesOf(fn, t, axis);
  if (axes.length === 0) return t;
  const n = axes.reduce((p, a) => p * t.shape[a]!, 1);
  return sub(logsumexp(t, axes, keepdims), detLog(n));
}

/**
 * log of the harmonic mean of exp(x) over `axis`: `−reduceLogMeanExp(−x)`. Dominated by the
 * smallest values, so one chain that never accepts (log acceptance −∞) drives the result to −∞
 * — the robust choice for adapting a shared step size (`windowedAdaptiveNuts` uses it).
 *
 * @param x - values in log space.
 * @param axis - axes to reduce (default all).
 * @param keepdims - keep reduced axes with size 1 (default false).
 * @throws TypeError/RangeError for a non-tensor `x` or an axis out of range.
 * @example
 * reduceLogHarmonicMeanExp(tensor([Math.log(0.2), Math.log(0.6)])); // → log(0.3)
 */
export function reduceLogHarmonicMeanExp(x: TensorLike, axis?: number | readonly number[], keepdims = false): Tensor {
  const fn = 'reduceLogHarmonicMeanExp';
  const t = asTensor(fn, 'x', x);
  const axes = axesOf(fn, t, axis);
  if (axes.length === 0) return t;
  return neg(reduceLogMeanExp(neg(t), axes, keepdims));
}
