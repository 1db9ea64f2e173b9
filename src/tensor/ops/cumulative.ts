/**
 * Cumulative sums along an axis (flattened when no axis is given, as NumPy does), in linear and
 * log space, with gradients.
 */
import { checkAxis } from '../../checks.js';
import { applyLowering, asTensor, type TensorLike } from '../core.js';
import { Tensor } from '../tensor.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import { logaddexpScalar } from './elementwise.js';
import { detExp } from '../../math/index.js';
import { sizeOf } from '../shapes.js';

/** Calls `visit` with the flat index of the first element of every lane along the axis. */
function forEachLane(outer: number, len: number, inner: number, visit: (first: number) => void): void {
  for (let o = 0; o < outer; o++) for (let j = 0; j < inner; j++) visit(o * len * inner + j);
}

function lanes(fn: string, t: Tensor, axis: number | undefined): { shape: number[]; outer: number; len: number; inner: number } {
  if (axis === undefined) return { shape: [t.size], outer: 1, len: t.size, inner: 1 };
  const ax = checkAxis(fn, 'axis', axis, t.ndim);
  const prodOf = (s: readonly number[]) => sizeOf(s);
  return { shape: [...t.shape], outer: prodOf(t.shape.slice(0, ax)), len: t.shape[ax]!, inner: prodOf(t.shape.slice(ax + 1)) };
}

/**
 * Cumulative sum along `axis`; without an axis, of the flattened tensor (NumPy's `cumsum`, so
 * the result is 1-D).
 *
 * @example
 * cumsum([[1, 2], [3, 4]]).toArray();            // [1, 3, 6, 10]
 * cumsum([[1, 2], [3, 4]], 0).toArray();         // [[1, 2], [4, 6]]
 */
export function cumsum(x: TensorLike, axis?: number): Tensor {
  const fn = 'cumsum';
  const t = asTensor(fn, 'x', x);
  const { shape, outer, len, inner } = lanes(fn, t, axis);
  return applyLowering(cumsumLowering(outer, len, inner), [t], shape, t.size);
}

/** cumsum's kernel over the lanes (made by a named factory: a compiled model's workers make it again from the lane sizes). */
const cumsumLowering = kernelFactory('cumsum', (outer: number, len: number, inner: number): Lowering => {
  return {
    name: 'cumsum',
    forward(ins, out) {
      const v = ins[0]!;
      forEachLane(outer, len, inner, (first) => {
        let s = 0;
        for (let i = 0, k = first; i < len; i++, k += inner) { s += v[k]!; out[k] = s; }
      });
    },
    backward(g, _ins, _out, parts) {
      const gx = parts[0];
      if (!gx) return;
      forEachLane(outer, len, inner, (first) => {
        let s = 0;
        for (let i = len - 1, k = first + (len - 1) * inner; i >= 0; i--, k -= inner) { s += g[k]!; gx[k] = s; }
      });
    },
  };
});

/**
 * Cumulative ln Σ exp along `axis` (the flattened tensor when undefined): yᵢ = ln Σ_{l≤i} exp(xₗ),
 * computed stably as a running logaddexp. The gradient uses only exp of non-positive numbers,
 * so it neither overflows nor turns −∞ inputs into NaN.
 *
 * @example
 * cumlogsumexp([0, 0, 0]).toArray();             // [0, 0.6931471805599453, 1.0986122886681096]
 */
export function cumlogsumexp(x: TensorLike, axis?: number): Tensor {
  const fn = 'cumlogsumexp';
  const t = asTensor(fn, 'x', x);
  const { shape, outer, len, inner } = lanes(fn, t, axis);
  return applyLowering(cumlogsumexpLowering(outer, len, inner, t.size), [t], shape, t.size);
}

/** cumlogsumexp's kernel over the lanes (made by a named factory: a compiled model's workers make it again from the lane sizes). */
const cumlogsumexpLowering = kernelFactory('cumlogsumexp', (outer: number, len: number, inner: number, size: number): Lowering => {
  // The float64 running values y: the output itself when it is float64, else scratch (the backward pass reads them).
  let scratch: Float64Array | undefined;
  const values = (out: ArrayLike<number>) => (out instanceof Float64Array ? out : (scratch ??= new Float64Array(size)));
  return {
    name: 'cumlogsumexp',
    forward(ins, out) {
      const v = ins[0]!, y = values(out);
      forEachLane(outer, len, inner, (first) => {
        let s = -Infinity;
        for (let i = 0, k = first; i < len; i++, k += inner) { s = i === 0 ? v[k]! : logaddexpScalar(s, v[k]!); y[k] = s; }
      });
      if (y !== out) for (let k = 0; k < y.length; k++) out[k] = y[k]!;
    },
    backward(g, ins, out, parts) {
      // ∂/∂xⱼ = exp(xⱼ − yⱼ)·τⱼ with τⱼ = Σ_{i≥j} gᵢ·exp(yⱼ − yᵢ) = gⱼ + exp(yⱼ − yⱼ₊₁)·τⱼ₊₁ (y is non-decreasing).
      const v = ins[0]!, y = values(out), gx = parts[0];
      if (!gx) return;
      forEachLane(outer, len, inner, (first) => {
        let tau = 0, next = 0;
        for (let i = len - 1, k = first + (len - 1) * inner; i >= 0; i--, k -= inner) {
          const yk = y[k]!;
          tau = i === len - 1 ? g[k]! : g[k]! + (yk === next ? 1 : detExp(yk - next)) * tau;
          next = yk;
          const xk = v[k]!;
          gx[k] = xk === -Infinity ? 0 : (xk === yk ? 1 : detExp(xk - yk)) * tau;
        }
      });
    },
  };
});

/** Options of `variance` and `std`. */
