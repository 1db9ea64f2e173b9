/** Variance and standard deviation over axes, with gradients. */
import { checkNonNegativeInteger, checkOptions } from '../../checks.js';
import { asTensor, floatKind, floatStorage, numbers, result, type TensorLike } from '../core.js';
import type { Tensor } from '../tensor.js';
import { keep, reduction, type Axes } from './reduce.js';

export interface MomentOptions {
  /** Delta degrees of freedom: the divisor is N − ddof; default 0. */
  readonly ddof?: number;
}

/** Per output element: the mean, Σ(x − mean)², and the divisor N − ddof. */
function moments(fn: string, x: TensorLike, axis: Axes, keepdims: boolean | undefined, options: MomentOptions | undefined) {
  const t = asTensor(fn, 'x', x);
  const opts = checkOptions(fn, options);
  const ddof = opts.ddof === undefined ? 0 : checkNonNegativeInteger(fn, 'ddof', opts.ddof);
  const r = reduction(fn, t.shape, axis, keep(fn, keepdims));
  const v = numbers(t);
  const mu = new Float64Array(r.size);
  for (let k = 0; k < v.length; k++) mu[r.map[k]!]! += v[k]!;
  for (let j = 0; j < r.size; j++) mu[j]! /= r.count;
  const ss = new Float64Array(r.size);
  for (let k = 0; k < v.length; k++) { const j = r.map[k]!, d = v[k]! - mu[j]!; ss[j]! += d * d; }
  return { t, r, v, mu, ss, div: Math.max(r.count - ddof, 0) };
}

/**
 * Variance over `axis` (all axes by default): Σ(x − mean)²/(N − ddof), two-pass. With N ≤ ddof
 * the result is NaN or +∞, as in NumPy.
 *
 * @example
 * variance([1, 2, 3, 4]).item();                 // 1.25
 * variance([1, 2, 3, 4], 0, false, { ddof: 1 }).item(); // 1.6666666666666667
 */
export function variance(x: TensorLike, axis?: Axes, keepdims?: boolean, options?: MomentOptions): Tensor {
  const { t, r, v, mu, ss, div } = moments('variance', x, axis, keepdims, options);
  const out = floatStorage(floatKind(t), r.size);
  for (let j = 0; j < r.size; j++) out[j] = ss[j]! / div;
  return result(out, r.shape, [t], (g) => {
    const gx = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) { const j = r.map[k]!; gx[k] = (2 * g[j]! * (v[k]! - mu[j]!)) / div; }
    return [gx];
  });
}

/**
 * Standard deviation over `axis`: √variance. Where it is 0 the gradient is taken as 0 (the
 * derivative does not exist there).
 *
 * @example
 * std([2, 4, 4, 4, 5, 5, 7, 9]).item();          // 2
 */
export function std(x: TensorLike, axis?: Axes, keepdims?: boolean, options?: MomentOptions): Tensor {
  const { t, r, v, mu, ss, div } = moments('std', x, axis, keepdims, options);
  const sd = new Float64Array(r.size);
  for (let j = 0; j < r.size; j++) sd[j] = Math.sqrt(ss[j]! / div);
  const out = floatStorage(floatKind(t), r.size);
  out.set(sd);
  return result(out, r.shape, [t], (g) => {
    const gx = new Float64Array(v.length);
    for (let k = 0; k < v.length; k++) {
      const j = r.map[k]!;
      gx[k] = sd[j] === 0 ? 0 : (g[j]! * (v[k]! - mu[j]!)) / (div * sd[j]!);
    }
    return [gx];
  });
}
