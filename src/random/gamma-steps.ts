/**
 * The arithmetic of JAX's `_gamma_one` (reference/jax-random.md §6.11), shared by gamma.ts's
 * plain path and gamma-threefry.ts's fast path so that both round identically: every operation
 * is rounded to the dtype where XLA rounds it.
 */
import type { FloatDType } from '../tensor/dtype.js';
import { detLog, detPow } from '../math/index.js';
import { fma32 } from './float.js';

export type FloatArray = Float64Array | Float32Array;
export type Round = (x: number) => number;

/** 1/3 and Marsaglia–Tsang's squeeze constant 0.0331 in each dtype. */
export const THIRD: Record<FloatDType, number> = { float32: Math.fround(1 / 3), float64: 1 / 3 };
export const SQUEEZE: Record<FloatDType, number> = { float32: Math.fround(0.0331), float64: 0.0331 };

const identity = (x: number): number => x;
/** Rounding to the dtype; one function object per dtype, so hot call sites stay monomorphic. */
export const rounder = (dtype: FloatDType): Round => (dtype === 'float32' ? Math.fround : identity);

/**
 * C's pow: pow(1, y) = 1 for every y (JS gives NaN for 1^±∞, which a = 0 reaches via 1/a).
 * `detPow`, not Math.pow, whose last bit differs between engines (invariant 6).
 */
export function cpow(x: number, y: number): number {
  return x === 1 ? 1 : detPow(x, y);
}

/**
 * v = 1 + x·c. XLA:CPU fuses this multiply-add (one rounding) in float32: with the fused form
 * the JAX known answers match bit for bit, with two roundings one of them is 3 ulp off. In
 * float64 stochax rounds twice (an exact fma64 would cost the fast path a third of its speed;
 * the difference is at most an ulp of v).
 */
export function candidate(x: number, c: number, f32: boolean): number {
  return f32 ? fma32(x, c, 1) : 1 + x * c;
}

/** JAX's loop condition: true while the candidate (X = x², V = v³, U) is rejected. */
export function rejected(X: number, V: number, U: number, d: number, squeeze: number, r: Round): boolean {
  if (!(U >= r(1 - r(squeeze * r(X * X))))) return false;
  return r(detLog(U)) >= r(r(X * 0.5) + r(d * r(r(1 - V) + r(detLog(V)))));
}

/**
 * The result from the accepted V. The boost applies only when a < 1, with `w` the boost draw:
 * gamma is d·V·(1 − u)^(1/a) with w = u = uniform(subkey); loggamma is log d + log V + w/a with
 * w = −exponential(subkey) = log1p(−u), and no boost when w = 0 (JAX's guard).
 */
export function finish(alpha: number, d: number, V: number, w: number, logSpace: boolean, r: Round): number {
  const boost = alpha >= 1;
  if (logSpace) {
    const base = r(r(detLog(d)) + r(detLog(V)));
    return r(base + (boost || w === 0 ? 0 : r(w * r(1 / alpha))));
  }
  const dv = r(d * V);
  return boost ? dv : r(dv * r(cpow(r(1 - w), r(1 / alpha))));
}
