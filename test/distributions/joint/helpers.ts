/**
 * Shared checks for the joint-distribution tests: hand-written log densities (independent of
 * the library), central finite differences over a record of scalars, and bitwise tensor equality.
 */
import { expect } from 'vitest';
import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample, deterministic, factor } from '../../../distributions/index.js';
import { add, mul } from '../../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../../src/tensor/tensor.js';

export const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
/** log N(x; m, s), written out. */
export const normalLp = (x: number, m: number, s: number) => -0.5 * ((x - m) / s) ** 2 - Math.log(s) - LOG_SQRT_2PI;
/** log HalfNormal(x; s) for x ≥ 0, written out. */
export const halfNormalLp = (x: number, s: number) => 0.5 * Math.log(2 / Math.PI) - Math.log(s) - 0.5 * (x / s) ** 2;

export const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);
export const num = (t: Tensor) => Number(t.item());

/** Bitwise equality of two tensors' shapes and data. */
export function expectSameTensor(a: Tensor, b: Tensor, label = ''): void {
  expect(a.shape, `${label} shape`).toEqual(b.shape);
  expect(arr(a), `${label} data`).toEqual(arr(b));
}

/** Central differences of f over each entry of a record of scalars (step h·max(1, |x|)). */
export function finiteDiff(f: (x: Record<string, number>) => number, x: Record<string, number>, h = 1e-6): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(x)) {
    const step = h * Math.max(1, Math.abs(x[k]!));
    out[k] = (f({ ...x, [k]: x[k]! + step }) - f({ ...x, [k]: x[k]! - step })) / (2 * step);
  }
  return out;
}

export function expectClose(a: number, b: number, rel: number, label = ''): void {
  expect(Math.abs(a - b), `${label}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
}

/** log|det A| of a small dense matrix by Gaussian elimination with partial pivoting. */
export function logAbsDet(a: number[][]): number {
  const m = a.map((r) => [...r]);
  const n = m.length;
  let s = 0;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    s += Math.log(Math.abs(m[c]![c]!));
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k < n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return s;
}

/** Eight schools, non-centred, with a derived `theta` and a `factor` term: every kind of variable a model graph shows. */
export const graphSchools = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfCauchy({ loc: 0, scale: 5 }),
  thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
  theta: deterministic((mu: Tensor, tau: Tensor, thetaTilde: Tensor) => add(mu, mul(tau, thetaTilde))),
  y: (theta: Tensor) => new Independent({ distribution: new Normal({ loc: theta, scale: 10 }), reinterpretedBatchNdims: 1 }),
  penalty: factor((tau: Tensor) => mul(tau, -0.01)),
}, { name: 'Schools' });
