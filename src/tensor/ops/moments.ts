/** Variance and standard deviation over axes, with gradients. */
import { checkNonNegativeInteger, checkOptions } from '../../checks.js';
import { applyLowering, asTensor, type TensorLike } from '../core.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import type { Tensor } from '../tensor.js';
import { keep, reduction, type Axes, type Reduction } from './reduce.js';

export interface MomentOptions {
  /** Delta degrees of freedom: the divisor is N − ddof; default 0. */
  readonly ddof?: number;
}

/**
 * The checked arguments of a moment: the tensor, its reduction and the divisor N − ddof.
 */
function moments(fn: string, x: TensorLike, axis: Axes, keepdims: boolean | undefined, options: MomentOptions | undefined) {
  const t = asTensor(fn, 'x', x);
  const opts = checkOptions(fn, options, ['ddof']);
  const ddof = opts.ddof === undefined ? 0 : checkNonNegativeInteger(fn, 'ddof', opts.ddof);
  const r = reduction(fn, t.shape, axis, keep(fn, keepdims));
  return { t, r, div: Math.max(r.count - ddof, 0) };
}

/** Per output element of `r`: the mean into `mu` and Σ(x − mean)² into `ss` (two passes). */
function sums(v: ArrayLike<number>, r: Reduction, mu: Float64Array, ss: Float64Array): void {
  mu.fill(0);
  for (let k = 0; k < v.length; k++) mu[r.map[k]!]! += v[k]!;
  for (let j = 0; j < r.size; j++) mu[j]! /= r.count;
  ss.fill(0);
  for (let k = 0; k < v.length; k++) { const j = r.map[k]!, d = v[k]! - mu[j]!; ss[j]! += d * d; }
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
  const { t, r, div } = moments('variance', x, axis, keepdims, options);
  return applyLowering(varianceLowering(r, div), [t], r.shape, r.size);
}

/** variance's kernel for the reduction `r` and divisor (made by a named factory: a compiled model's workers make it again from them). */
const varianceLowering = kernelFactory('variance', (r: Reduction, div: number): Lowering => {
  const mu = new Float64Array(r.size), ss = new Float64Array(r.size);
  return {
    name: 'variance',
    forward(ins, out) {
      sums(ins[0]!, r, mu, ss);
      for (let j = 0; j < r.size; j++) out[j] = ss[j]! / div;
    },
    backward(g, ins, _out, parts) {
      const v = ins[0]!, gx = parts[0];
      if (!gx) return;
      for (let k = 0; k < v.length; k++) { const j = r.map[k]!; gx[k] = (2 * g[j]! * (v[k]! - mu[j]!)) / div; }
    },
  };
});

/**
 * Standard deviation over `axis`: √variance. Where it is 0 the gradient is taken as 0 (the
 * derivative does not exist there).
 *
 * @example
 * std([2, 4, 4, 4, 5, 5, 7, 9]).item();          // 2
 */
export function std(x: TensorLike, axis?: Axes, keepdims?: boolean, options?: MomentOptions): Tensor {
  const { t, r, div } = moments('std', x, axis, keepdims, options);
  return applyLowering(stdLowering(r, div), [t], r.shape, r.size);
}

/** std's kernel for the reduction `r` and divisor (made by a named factory: a compiled model's workers make it again from them). */
const stdLowering = kernelFactory('std', (r: Reduction, div: number): Lowering => {
  const mu = new Float64Array(r.size), ss = new Float64Array(r.size), sd = new Float64Array(r.size);
  return {
    name: 'std',
    forward(ins, out) {
      sums(ins[0]!, r, mu, ss);
      for (let j = 0; j < r.size; j++) sd[j] = Math.sqrt(ss[j]! / div);
      for (let j = 0; j < r.size; j++) out[j] = sd[j]!;
    },
    backward(g, ins, _out, parts) {
      const v = ins[0]!, gx = parts[0];
      if (!gx) return;
      for (let k = 0; k < v.length; k++) {
        const j = r.map[k]!;
        gx[k] = sd[j] === 0 ? 0 : (g[j]! * (v[k]! - mu[j]!)) / (div * sd[j]!);
      }
    },
  };
});
