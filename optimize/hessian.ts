/**
 * The Hessian of a function whose gradient is known, by central finite differences of the
 * gradient, symmetrised: what Stan's Newton and `laplace_sample` use (they have the gradient, not
 * second derivatives). Step h_i = ε^{1/3}·max(1, |x_i|) balances the O(h²) truncation error
 * against the O(ε/h) rounding error; for a quadratic the differences are exact up to rounding.
 */
import { detCbrt } from '../src/math/index.js';

/** `f(x)` with its gradient written into `grad`; undefined when f fails at x. */
export type GradientFn = (x: Float64Array, grad: Float64Array) => number | undefined;

/** ε^{1/3}: the relative step of a central difference. */
const REL_STEP = detCbrt(Number.EPSILON);

/**
 * The n×n Hessian (row-major) of the function at `x`, from 2n gradient evaluations; undefined
 * when the function fails at one of the shifted points. `x` is restored before returning.
 *
 * @example
 * // f(x) = −(x0² + 3·x0·x1 + 5·x1²)/2, gradient −(x0 + 1.5·x1, 1.5·x0 + 5·x1)
 * const h = fdHessian((x, g) => { g[0] = -(x[0]! + 1.5 * x[1]!); g[1] = -(1.5 * x[0]! + 5 * x[1]!); return 0; }, Float64Array.of(1, 2));
 * // h ≈ [-1, -1.5, -1.5, -5]
 */
export function fdHessian(f: GradientFn, x: Float64Array): Float64Array | undefined {
  const n = x.length, h = new Float64Array(n * n);
  const up = new Float64Array(n), down = new Float64Array(n), y = Float64Array.from(x);
  for (let i = 0; i < n; i++) {
    const xi = x[i]!, step = REL_STEP * Math.max(1, Math.abs(xi));
    // The step as represented (x + h − x), so the quotient divides by the distance actually moved.
    y[i] = xi + step; const hi = y[i]! - xi;
    if (f(y, up) === undefined) return undefined;
    y[i] = xi - step; const lo = xi - y[i]!;
    if (f(y, down) === undefined) return undefined;
    y[i] = xi;
    for (let j = 0; j < n; j++) h[j * n + i] = (up[j]! - down[j]!) / (hi + lo);
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) { const m = 0.5 * (h[i * n + j]! + h[j * n + i]!); h[i * n + j] = m; h[j * n + i] = m; }
  }
  return h;
}
