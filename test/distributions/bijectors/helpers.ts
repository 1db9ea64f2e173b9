/**
 * Shared checks for the bijector tests: deterministic random inputs, a central-difference
 * Jacobian of the forward map, log|det| by LU, and the generic round-trip / log-det-Jacobian /
 * eventNdims / gradient checks every bijector gets.
 */
import { expect } from 'vitest';
import type { Bijector } from '../../../distributions/bijectors/bijector.js';
import { checkGradient } from '../../../src/tensor/autodiff.js';
import { mul } from '../../../src/tensor/ops/elementwise.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
import { reshape } from '../../../src/tensor/ops/shape.js';
import { tensor, Tensor } from '../../../src/tensor/tensor.js';
import { mulberry32 } from '../../helpers.js';

/** Deterministic uniforms on (0, 1): mulberry32 shifted by half a step (test inputs only). */
export function uniforms(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() + 0.5 / 4294967296;
}

/** A float64 tensor of `shape` with standard normal entries times `scale` (Box–Muller on `uniforms`). */
export function randn(seed: number, shape: readonly number[], scale = 1): Tensor {
  const u = uniforms(seed), n = shape.reduce((p, d) => p * d, 1), out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = scale * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  return reshape(tensor(out), [...shape]);
}

export const values = (t: Tensor): number[] => Array.from(t.data as ArrayLike<number>, Number);

/** |a − b| ≤ tol·max(1, |b|) element-wise (NaN never passes; equal infinities do). */
export function expectClose(actual: Tensor | ArrayLike<number> | number, expected: Tensor | ArrayLike<number> | number, tol = 1e-12, what = ''): void {
  const flat = (x: Tensor | ArrayLike<number> | number) => (typeof x === 'number' ? [x] : x instanceof Tensor ? values(x) : Array.from(x));
  const a = flat(actual), b = flat(expected);
  expect(a.length, `${what} length`).toBe(b.length);
  a.forEach((v, i) => {
    const ok = v === b[i] || Math.abs(v - b[i]!) <= tol * Math.max(1, Math.abs(b[i]!));
    expect(ok, `${what}[${i}]: ${v} vs ${b[i]} (tol ${tol})`).toBe(true);
  });
}

/** Central-difference Jacobian of `f` at x: rows are the flattened outputs, columns the flattened inputs. */
export function fdJacobian(f: (x: Tensor) => Tensor, x: Tensor, eps = 1e-6): number[][] {
  const base = values(x), y0 = values(f(x));
  const jac = y0.map(() => new Array<number>(base.length).fill(0));
  for (let c = 0; c < base.length; c++) {
    const h = eps * Math.max(1, Math.abs(base[c]!));
    const up = [...base], down = [...base];
    up[c]! += h; down[c]! -= h;
    const yu = values(f(reshape(tensor(up), x.shape))), yd = values(f(reshape(tensor(down), x.shape)));
    for (let r = 0; r < y0.length; r++) jac[r]![c] = (yu[r]! - yd[r]!) / (up[c]! - down[c]!);
  }
  return jac;
}

/** log|det A| by LU with partial pivoting. */
export function logAbsDet(a: readonly (readonly number[])[]): number {
  const m = a.map((r) => [...r]), n = m.length;
  expect(m.every((r) => r.length === n), 'logAbsDet needs a square matrix').toBe(true);
  let s = 0;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(m[i]![k]!) > Math.abs(m[p]![k]!)) p = i;
    [m[k], m[p]] = [m[p]!, m[k]!];
    const d = m[k]![k]!;
    s += Math.log(Math.abs(d));
    for (let i = k + 1; i < n; i++) {
      const f = m[i]![k]! / d;
      for (let j = k; j < n; j++) m[i]![j]! -= f * m[k]![j]!;
    }
  }
  return s;
}

/** ½·log det(JᵀJ): the volume factor of a map into a higher-dimensional space. */
export function gramLogDet(j: readonly (readonly number[])[]): number {
  const c = j[0]!.length;
  const g = Array.from({ length: c }, (_, a) => Array.from({ length: c }, (_, b) => j.reduce((s, r) => s + r[a]! * r[b]!, 0)));
  return 0.5 * logAbsDet(g);
}

/** The rows of a Jacobian for the given flat output indices. */
export const pickRows = (j: readonly (readonly number[])[], rows: readonly number[]): number[][] => rows.map((r) => [...j[r]!]);

/** inverse(forward(x)) ≈ x and forward(inverse(forward(x))) ≈ forward(x). */
export function expectRoundTrip(b: Bijector, x: Tensor, tol = 1e-12): void {
  const y = b.forward(x), back = b.inverse(y);
  expect(back.shape).toEqual(x.shape);
  expectClose(back, x, tol, `${b.name} inverse(forward(x))`);
  expectClose(b.forward(back), y, tol, `${b.name} forward(inverse(y))`);
}

/** inverseLogDetJacobian(forward(x)) = −forwardLogDetJacobian(x) at the minimal and the full event rank. */
export function expectInverseLdj(b: Bijector, x: Tensor, tol = 1e-12): void {
  const y = b.forward(x);
  const f = values(b.forwardLogDetJacobian(x)), i = values(b.inverseLogDetJacobian(y));
  expectClose(i, f.map((v) => -v), tol, `${b.name} ildj(forward(x))`);
  const rankChange = b.inverseMinEventNdims - b.forwardMinEventNdims;
  expectClose(b.inverseLogDetJacobian(y, y.ndim), -(b.forwardLogDetJacobian(x, y.ndim - rankChange).item() as number), tol, `${b.name} full-rank ildj`);
}

/** forwardLogDetJacobian at eventNdims = min + k equals the minimal one summed over k more axes. */
export function expectEventNdimsSum(b: Bijector, x: Tensor, tol = 1e-12): void {
  const min = b.forwardMinEventNdims, base = b.forwardLogDetJacobian(x);
  for (let k = 1; min + k <= x.ndim; k++) {
    const axes = Array.from({ length: k }, (_, i) => base.ndim - k + i);
    expectClose(b.forwardLogDetJacobian(x, min + k), sum(base, axes), tol, `${b.name} eventNdims ${min + k}`);
  }
  const y = b.forward(x), imin = b.inverseMinEventNdims, ibase = b.inverseLogDetJacobian(y);
  for (let k = 1; imin + k <= y.ndim; k++) {
    const axes = Array.from({ length: k }, (_, i) => ibase.ndim - k + i);
    expectClose(b.inverseLogDetJacobian(y, imin + k), sum(ibase, axes), tol, `${b.name} inverse eventNdims ${imin + k}`);
  }
  expect(() => b.forwardLogDetJacobian(x, min - 1)).toThrow(/`eventNdims`/);
  expect(() => b.forwardLogDetJacobian(x, x.ndim + 1)).toThrow(/`eventNdims`/);
}

/**
 * Reverse-mode gradients of Σ w·forward(x) (fixed random weights, so a sum-preserving map is
 * still probed), Σ fldj(x), and (unless `skipInverse`, for images too close to a boundary for a
 * finite-difference step of 1e-6) Σ w'·inverse(y) and Σ ildj(y) at y = forward(x), against
 * central differences (checkGradient).
 */
export function expectBijectorGradients(b: Bijector, x: Tensor, options: { tol?: number; skipInverse?: boolean } = {}): void {
  const tol = options.tol ?? 1e-6;
  const w = randn(99, b.forward(x).shape);
  const check = (what: string, f: (t: Tensor) => Tensor, at: Tensor) => {
    const r = checkGradient(f, at);
    expect(r.maxRelativeError, `${b.name} ∂${what}: analytic ${r.analytic} numeric ${r.numeric}`).toBeLessThan(tol);
  };
  check('forward', (t) => sum(mul(b.forward(t), w)), x);
  check('fldj', (t) => sum(b.forwardLogDetJacobian(t)), x);
  if (options.skipInverse) return;
  const y = b.forward(x);
  const wi = randn(98, x.shape);
  check('inverse', (t) => sum(mul(b.inverse(t), wi)), y);
  check('ildj', (t) => sum(b.inverseLogDetJacobian(t)), y);
}

/** fldj(x) with the whole of x as one event equals log|det| of the numeric Jacobian (same-size maps). */
export function expectLdjMatchesJacobian(b: Bijector, x: Tensor, tol = 1e-7): void {
  const jac = fdJacobian((t) => b.forward(t), x);
  expectClose(b.forwardLogDetJacobian(x, x.ndim), logAbsDet(jac), tol, `${b.name} fldj vs numeric log|det J|`);
}
