// Models with known modes for test/optimize: each comes with its answer computed independently
// (closed form, or a 1-d root of the analytic derivative by bisection), and flat targets written
// by hand.
import { readFileSync } from 'node:fs';
import { Bernoulli, HalfNormal, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';

/**
 * Conjugate Gaussian linear regression: β ~ N(0, τ²I) [3], y ~ N(Xβ, σ²I) [6], σ and τ known.
 * Mode (= posterior mean) (XᵀX/σ² + I/τ²)⁻¹ Xᵀy/σ², solved here by Gaussian elimination.
 */
export function gaussianRegression() {
  const X = [[1, 0.5, -1.2], [1, -0.3, 0.4], [1, 1.7, 0.1], [1, -1.1, -0.8], [1, 0.2, 2.0], [1, 0.9, -0.5]];
  const y = [0.7, -0.2, 2.9, -1.5, 0.8, 1.4];
  const sigma = 0.8, tau = 2;
  const Xt = new Tensor(Float64Array.from(X.flat()), [6, 3], 'float64');
  const model = new JointDistributionNamed({
    beta: new Sample({ distribution: new Normal({ loc: 0, scale: tau }), sampleShape: [3] }),
    y: ({ beta }: { beta: Tensor }) => new Independent({ distribution: new Normal({ loc: matmul(Xt, beta), scale: sigma }), reinterpretedBatchNdims: 1 }),
  });
  const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => X.reduce((s, r) => s + r[i]! * r[j]!, 0) / sigma ** 2 + (i === j ? 1 / tau ** 2 : 0)));
  const b = [0, 1, 2].map((i) => X.reduce((s, r, n) => s + r[i]! * y[n]!, 0) / sigma ** 2);
  return { model, pins: { y }, mode: solve(a, b), precision: a };
}

/** Solves a·x = b (small, by Gaussian elimination with partial pivoting). */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length, m = a.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    const p = m.reduce((best, _, r) => (r >= c && Math.abs(m[r]![c]!) > Math.abs(m[best]![c]!) ? r : best), c);
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) { const f = m[r]![c]! / m[c]![c]!; for (let k = c; k <= n; k++) m[r]![k] = m[r]![k]! - f * m[c]![k]!; }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) { let s = m[r]![n]!; for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!; x[r] = s / m[r]![r]!; }
  return x;
}

/**
 * A scale whose mode moves with the Jacobian: σ ~ HalfNormal(1), y_i ~ N(0, σ) [2] (few, small data: the Jacobian moves the mode by 22%).
 * log p(σ) = −σ²/2 − n·log σ − S/(2σ²) + const, S = Σy²:
 * - jacobian false: d/dσ = 0 ⇔ σ⁴ + nσ² − S = 0, σ̂² = (−n + √(n² + 4S))/2;
 * - jacobian true (σ = softplus(u), log|dσ/du| = log sigmoid(u)): the root in u of
 *   (−σ − n/σ + S/σ³)·sigmoid(u) + 1 − sigmoid(u), by bisection.
 */
export function halfNormalScale() {
  const y = [0.5, -0.3];
  const n = y.length, S = y.reduce((s, v) => s + v * v, 0);
  const model = new JointDistributionNamed({
    sigma: new HalfNormal({ scale: 1 }),
    y: ({ sigma }: { sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: 0, scale: sigma }), sampleShape: [n] }),
  });
  const modeNoJacobian = Math.sqrt((-n + Math.sqrt(n * n + 4 * S)) / 2);
  const dh = (u: number) => {
    const s = Math.log1p(Math.exp(u)), sig = 1 / (1 + Math.exp(-u));
    return (-s - n / s + S / s ** 3) * sig + 1 - sig;
  };
  let lo = -5, hi = 10;   // dh(lo) > 0 > dh(hi)
  for (let k = 0; k < 200; k++) { const mid = 0.5 * (lo + hi); if (dh(mid) > 0) lo = mid; else hi = mid; }
  const modeJacobian = Math.log1p(Math.exp(0.5 * (lo + hi)));
  return { model, pins: { y }, modeNoJacobian, modeJacobian };
}

/** Rosenbrock's banana as a flat target: log p = −(100(b − a²)² + (1 − a)²), maximum at (1, 1). */
export function rosenbrock(): FlatTarget & { calls: Float64Array[] } {
  const calls: Float64Array[] = [];
  const lp = (a: number, b: number) => -(100 * (b - a * a) ** 2 + (1 - a) ** 2);
  return {
    dim: 2, paramNames: ['a', 'b'], calls,
    logDensity: (x) => lp(x[0]!, x[1]!),
    logDensityGradient(x, g) {
      calls.push(Float64Array.from(x));
      const a = x[0]!, b = x[1]!;
      g[0] = 400 * a * (b - a * a) + 2 * (1 - a);
      g[1] = -200 * (b - a * a);
      return lp(a, b);
    },
  };
}

/** A 2-d Gaussian log density (flat target) with mean m and precision P: −½(x − m)ᵀP(x − m). */
export function gaussian2(m: readonly number[], P: readonly number[][]): FlatTarget {
  const lp = (x: ArrayLike<number>, g?: Float64Array) => {
    const d = [x[0]! - m[0]!, x[1]! - m[1]!];
    const pd = [P[0]![0]! * d[0]! + P[0]![1]! * d[1]!, P[1]![0]! * d[0]! + P[1]![1]! * d[1]!];
    if (g !== undefined) { g[0] = -pd[0]!; g[1] = -pd[1]!; }
    return -0.5 * (d[0]! * pd[0]! + d[1]! * pd[1]!);
  };
  return { dim: 2, paramNames: ['x', 'y'], logDensity: (x) => lp(x), logDensityGradient: (x, g) => lp(x, g) };
}

export interface ScipyFixture {
  X: number[][]; y: number[]; priorScaleAlpha: number; priorScaleBeta: number;
  mode: { alpha: number; beta: number[] }; logDensity: number; hessian: number[][];
  lbfgsbDefault: { nit: number; nfev: number; njev: number; maxAbsError: number };
}

/** The logistic regression of test/fixtures/optimize/logistic_scipy.py, with SciPy's answers. */
export function scipyLogistic() {
  const f = JSON.parse(readFileSync(new URL('../fixtures/optimize/logistic-scipy.json', import.meta.url), 'utf8')) as ScipyFixture;
  const N = f.X.length, D = f.X[0]!.length;
  const Xt = new Tensor(Float64Array.from(f.X.flat()), [N, D], 'float64');
  const model = new JointDistributionNamed({
    alpha: new Normal({ loc: 0, scale: f.priorScaleAlpha }),
    beta: new Sample({ distribution: new Normal({ loc: 0, scale: f.priorScaleBeta }), sampleShape: [D] }),
    y: ({ alpha, beta }: { alpha: Tensor; beta: Tensor }) => new Independent({ distribution: new Bernoulli({ logits: add(alpha, matmul(Xt, beta)) }), reinterpretedBatchNdims: 1 }),
  });
  return { model, pins: { y: f.y }, fixture: f };
}

/**
 * A d-dimensional Gaussian log density (flat target) with mean m and precision P, plus a constant
 * c: −½(x − m)ᵀP(x − m) + c. `throwWhere(x)` true makes it throw a RangeError there (a region where
 * the model fails numerically).
 */
export function gaussianN(m: readonly number[], P: readonly number[][], c = 0, throwWhere?: (x: ArrayLike<number>) => boolean): FlatTarget {
  const d = m.length;
  const lp = (x: ArrayLike<number>, g?: Float64Array) => {
    if (throwWhere?.(x)) throw new RangeError(`the model fails at x[0] = ${x[0]}`);
    let s = 0;
    for (let i = 0; i < d; i++) {
      let r = 0;
      for (let j = 0; j < d; j++) r += P[i]![j]! * (x[j]! - m[j]!);
      if (g !== undefined) g[i] = -r;
      s += (x[i]! - m[i]!) * r;
    }
    return -0.5 * s + c;
  };
  return { dim: d, paramNames: m.map((_, i) => `x[${i}]`), logDensity: (x) => lp(x), logDensityGradient: (x, g) => lp(x, g) };
}
