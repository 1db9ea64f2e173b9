// Conjugate models with analytic posteriors for the gradient-based kernels' correctness tests,
// and the "within 4 MCSE" check. Each model gives its target both ways: a plain log density
// (gradients by autodiff) and a hand-written log density and gradient (fast).
//
// False-failure rate: each comparison |estimate − truth| < 4·MCSE fails with probability
// ≈ 6.3e-5 under a normal approximation of the estimator; a test file makes ≲ 100 comparisons,
// so a correct sampler fails one with probability ≲ 0.6% over the choice of seed. The seeds are
// fixed, so the outcome is deterministic.
import { expect } from 'vitest';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Sample } from '../../distributions/sample.js';
import { mcseMean } from '../../mcmc/diagnostics/mcse.js';
import type { TransitionKernel } from '../../mcmc/kernel.js';
import { sampleChain } from '../../mcmc/sample-chain.js';
import type { Seed } from '../../src/samplers/seeds.js';
import { digamma as digammaScalar, trigamma as trigammaScalar } from '../../src/tensor/special/gamma.js';
import { add, exp, mul, square } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { inv } from '../../src/tensor/ops/linalg.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

export interface ConjugateModel {
  readonly name: string;
  /** Event shape of the single state part (chains are prepended). */
  readonly event: readonly number[];
  readonly targetLogProbFn: (x: Tensor) => Tensor;
  readonly targetLogProbAndGradFn: (x: Tensor) => readonly [Tensor, readonly Tensor[]];
  readonly mean: readonly number[];
  readonly variance: readonly number[];
}

/** mu ~ N(0, 1), y_i ~ N(mu, 1): mu | y ~ N(Σy/(n+1), 1/(n+1)). State [C]. */
export function normalNormal(): ConjugateModel {
  const y = [0.8, 1.9, 0.3, 1.4, 2.2];
  const n = y.length, sy = y.reduce((a, b) => a + b, 0);
  const prior = new Normal({ loc: 0, scale: 1 });
  return {
    name: 'normal–normal',
    event: [],
    targetLogProbFn: (mu) => y.reduce<Tensor>((acc, yi) => add(acc, new Normal({ loc: mu, scale: 1 }).logProb(yi)), prior.logProb(mu)),
    targetLogProbAndGradFn: (mu) => {
      const m = mu.data as Float64Array;
      const lp = new Float64Array(m.length), g = new Float64Array(m.length);
      for (let c = 0; c < m.length; c++) {
        let s = -0.5 * m[c]! * m[c]!;
        for (const yi of y) s -= 0.5 * (yi - m[c]!) ** 2;
        lp[c] = s; g[c] = sy - (n + 1) * m[c]!;
      }
      return [new Tensor(lp, mu.shape), [new Tensor(g, mu.shape)]];
    },
    mean: [sy / (n + 1)],
    variance: [1 / (n + 1)],
  };
}

/**
 * λ ~ Gamma(a, b), y_i ~ Poisson(λ), sampled as θ = log λ (with the log-Jacobian θ):
 * λ | y ~ Gamma(a + Σy, b + n), so E[θ] = ψ(α) − log β and Var[θ] = ψ′(α). State [C].
 */
export function gammaPoisson(): ConjugateModel {
  const a = 2, b = 1, y = [3, 1, 4, 1, 5, 2];
  const alpha = a + y.reduce((s, v) => s + v, 0), beta = b + y.length;
  const lpOf = (t: number) => alpha * t - beta * Math.exp(t);   // up to a constant
  return {
    name: 'gamma–poisson (log λ)',
    event: [],
    // log Gamma(λ; a, b) + θ + Σ log Poisson(y_i; λ) with λ = exp θ, up to a constant.
    targetLogProbFn: (theta) => add(mul(alpha, theta), mul(-beta, exp(theta))),
    targetLogProbAndGradFn: (theta) => {
      const t = theta.data as Float64Array;
      const lp = new Float64Array(t.length), g = new Float64Array(t.length);
      for (let c = 0; c < t.length; c++) { lp[c] = lpOf(t[c]!); g[c] = alpha - beta * Math.exp(t[c]!); }
      return [new Tensor(lp, theta.shape), [new Tensor(g, theta.shape)]];
    },
    mean: [digammaScalar(alpha) - Math.log(beta)],
    variance: [trigammaScalar(alpha)],
  };
}

/** The 10-dim correlated Gaussian N(0, Σ), Σ_ij = s_i s_j 0.7^|i−j|, s from 0.5 to 2. State [C, 10]. */
export function correlatedGaussian(d = 10): ConjugateModel {
  const s = Array.from({ length: d }, (_, i) => 0.5 + (1.5 * i) / (d - 1));
  const cov = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => s[i]! * s[j]! * 0.7 ** Math.abs(i - j)));
  const prec = inv(tensor(cov));
  const P = prec.data as Float64Array;
  return {
    name: `${d}-dim correlated Gaussian`,
    event: [d],
    targetLogProbFn: (x) => mul(-0.5, sum(mul(matmul(x, prec), x), -1)),
    targetLogProbAndGradFn: (x) => {
      const xs = x.data as Float64Array, C = xs.length / d;
      const lp = new Float64Array(C), g = new Float64Array(xs.length);
      for (let c = 0; c < C; c++) {
        let q = 0;
        for (let i = 0; i < d; i++) {
          let r = 0;
          for (let j = 0; j < d; j++) r += P[i * d + j]! * xs[c * d + j]!;
          g[c * d + i] = -r; q += r * xs[c * d + i]!;
        }
        lp[c] = -0.5 * q;
      }
      return [new Tensor(lp, x.shape.slice(0, -1)), [new Tensor(g, x.shape)]];
    },
    mean: new Array<number>(d).fill(0),
    variance: s.map((v) => v * v),
  };
}

/** A standard normal in d dims with a hand-written gradient (state [C, d]). */
export function stdNormalGrad(x: Tensor): readonly [Tensor, readonly Tensor[]] {
  const xs = x.data as Float64Array, d = x.shape[x.ndim - 1]!, C = xs.length / d;
  const lp = new Float64Array(C), g = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) { lp[Math.floor(i / d)] -= 0.5 * xs[i]! * xs[i]!; g[i] = -xs[i]!; }
  return [new Tensor(lp, x.shape.slice(0, -1)), [new Tensor(g, x.shape)]];
}

export const stdNormal = (x: Tensor): Tensor => sum(mul(-0.5, square(x)), -1);

/**
 * Asserts that the posterior mean and variance estimated from `draws` ([N, C, ...event]) are within
 * 4 MCSE of the truth, per component. The variance is estimated as the mean of (x − truth)², whose
 * MCSE is `mcseMean` of those squared deviations.
 */
export function expectMoments(label: string, draws: Tensor, mean: readonly number[], variance: readonly number[]): void {
  const n = draws.shape[0]! * draws.shape[1]!, d = draws.size / n;
  const x = draws.data as Float64Array;
  const sq = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) sq[i] = (x[i]! - mean[i % d]!) ** 2;
  const mcseM = mcseMean(draws).data as Float64Array;
  const mcseV = mcseMean(new Tensor(sq, draws.shape)).data as Float64Array;
  for (let j = 0; j < d; j++) {
    let m = 0, v = 0;
    for (let i = j; i < x.length; i += d) { m += x[i]!; v += sq[i]!; }
    m /= n; v /= n;
    const zm = (m - mean[j]!) / mcseM[j]!, zv = (v - variance[j]!) / mcseV[j]!;
    expect(Math.abs(zm), `${label}: mean[${j}] ${m} vs ${mean[j]} (MCSE ${mcseM[j]})`).toBeLessThan(4);
    expect(Math.abs(zv), `${label}: variance[${j}] ${v} vs ${variance[j]} (MCSE ${mcseV[j]})`).toBeLessThan(4);
  }
}

/**
 * The normal–normal model as a joint distribution (for `windowedAdaptiveNuts`): μ ~ N(0, 10²),
 * y_i ~ N(μ, 2²) with `y` observed, so μ | y ~ N(mean, variance).
 */
export function normalNormalJoint() {
  const y = [1.3, 2.9, 0.4, 2.2, 3.1, 1.7];
  const variance = 1 / (1 / 100 + y.length / 4);
  return {
    model: new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      y: (mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: 2 }), sampleShape: y.length }),
    }, { name: 'NormalNormal' }),
    y, variance, mean: (variance * y.reduce((a, b) => a + b, 0)) / 4,
  };
}

/** The last draw of `allStates` (a Tensor [N, ...]) as a state. */
export function lastDraw(all: Tensor): Tensor {
  const n = all.shape[0]!, size = all.size / n;
  return new Tensor((all.data as Float64Array).slice((n - 1) * size), all.shape.slice(1));
}

/**
 * Runs `kernel` for `total` results in one go and in `chunks` pieces (each resuming from the
 * previous piece's last state, finalKernelResults and finalSeed) and returns both allStates.
 */
export function chunkedAndWhole(kernel: TransitionKernel<object>, init: Tensor, total: number, chunks: number[], seed: number): [Tensor, Tensor] {
  const whole = sampleChain({ numResults: total, currentState: init, kernel, seed }).allStates as Tensor;
  let state: Tensor = init;
  let results: object | undefined;
  let s: Seed = seed;
  const pieces: Float64Array[] = [];
  for (const n of chunks) {
    const r: { allStates: unknown; finalKernelResults: object; finalSeed: Seed } = sampleChain({ numResults: n, currentState: state, kernel, seed: s, previousKernelResults: results });
    pieces.push((r.allStates as Tensor).data as Float64Array);
    state = lastDraw(r.allStates as Tensor);
    results = r.finalKernelResults;
    s = r.finalSeed;
  }
  const data = new Float64Array(whole.size);
  let off = 0;
  for (const p of pieces) { data.set(p, off); off += p.length; }
  return [whole, new Tensor(data, whole.shape)];
}

/** −½a² − ½Σb² − 0.3·a·b₀ over parts a [C] and b [C, 2], with its gradient: a two-part target for the seed-usage tests. */
export function twoParts(a: Tensor, b: Tensor): readonly [Tensor, readonly Tensor[]] {
  const ad = a.data as Float64Array, bd = b.data as Float64Array, C = ad.length;
  const lp = new Float64Array(C), ga = new Float64Array(C), gb = new Float64Array(2 * C);
  for (let c = 0; c < C; c++) {
    const x = ad[c]!, y0 = bd[2 * c]!, y1 = bd[2 * c + 1]!;
    lp[c] = -0.5 * x * x - 0.5 * (y0 * y0 + y1 * y1) - 0.3 * x * y0;
    ga[c] = -x - 0.3 * y0; gb[2 * c] = -y0 - 0.3 * x; gb[2 * c + 1] = -y1;
  }
  return [new Tensor(lp, [C]), [new Tensor(ga, [C]), new Tensor(gb, [C, 2])]];
}
