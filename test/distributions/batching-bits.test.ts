// Bits that do not depend on batching (issue 16, item 2): for every distribution exported from
// distributions/index.ts, the same (parameters, point) pair evaluated through every layout (scalar
// parameters and a scalar point; scalar parameters against a batch of points; one parameter set
// per element; some parameters scalar and the others batched; batched parameters at one point; an
// outer-product broadcast; a batch of 1 against a batch of 4 with the same element 0) must give
// the same bits (Object.is per element) for logProb, prob and whichever of the cdf family and
// quantile it has; logProb also under a tape (values, and per-element partials up to the sign of
// zero) and in float32. A fast path for scalar parameters that rounds differently makes chain 0's
// log density depend on how many chains ran beside it. Points are fixed and include tails, edges
// and points off the support. A new distribution must add a case here (the first test lists the
// exported classes without one).
import { describe, expect, it } from 'vitest';
import * as D from '../../distributions/index.js';
import type { Distribution } from '../../distributions/index.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

type Nested = number | readonly Nested[];
type Params = Readonly<Record<string, Nested>>;
type T = Tensor;
type Method = 'logProb' | 'prob' | 'cdf' | 'logCdf' | 'survivalFunction' | 'logSurvivalFunction' | 'quantile';
const VALUE_METHODS: readonly Method[] = ['logProb', 'prob', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'];

interface Case {
  /** The exported class (or classes) this case covers. */
  readonly covers: readonly string[];
  readonly label: string;
  /** Parameter sets, one batch member each; a parameter's nesting depth is its event rank. */
  readonly sets: readonly Params[];
  /** Points, one event each. */
  readonly points: readonly Nested[];
  /** Probabilities for `quantile` (omit when the distribution has none). */
  readonly probs?: readonly number[];
  /** The sets of parameters to hold scalar while the others are batched (default below). */
  readonly mixed?: readonly (readonly string[])[];
  /** Builds the distribution from tensor parameters whose batch axes lead. */
  make(p: Readonly<Record<string, T>>): Distribution;
}

const REAL = [-Infinity, -1e300, -1e10, -38.5, -5.5, -1, -0.3, -1e-300, 0, 5e-324, 1e-300, 1e-8, 0.25, 1, 2.5, 7, 38.5, 1e10, 1e300, Infinity, NaN];
const POSITIVE = [-1, -1e-300, 0, 5e-324, 1e-300, 1e-8, 0.1, 0.5, 1, 2.5, 10, 100, 1e6, 1e300, Infinity, NaN];
const UNIT = [-0.1, 0, 5e-324, 1e-300, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1 - 2 ** -53, 1, 1.1, NaN];
const COUNTS = [-1, 0, 1, 2, 3, 5, 10, 40, 1e6, 1.5, Infinity, NaN];
const PROBS = [0, 5e-324, 1e-300, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10, 1 - 2 ** -53, 1, -0.1, 1.1, NaN];

const locScale = [{ loc: 0, scale: 1 }, { loc: 1.3, scale: 0.7 }, { loc: -2.1, scale: 3.3 }, { loc: 1e3, scale: 1e-3 }, { loc: 0.1, scale: 1e5 }];
const logits = [0, 1.3, -2.1, 30, -745, 1e-12];
const probs = [0.5, 0.3, 1e-300, 1 - 1e-10, 1, 0];
const conc = [0.1, 0.5, 1, 2.7, 30, 1e4];
const rates = [1e-8, 0.3, 1, 4.2, 1e3];

/** Two-parameter sets: `a[i]` with `b[j]` for a few (i, j). */
const pairs = (ka: string, a: readonly number[], kb: string, b: readonly number[]): Params[] =>
  a.map((x, i) => ({ [ka]: x, [kb]: b[(i * 3 + 1) % b.length]! }));

const corr3 = (r01: number, r02: number, r12: number) => [[1, r01, r02], [r01, 1, r12], [r02, r12, 1]];
const chol3 = (a: number, b: number, c: number) => {
  const l11 = Math.sqrt(1 - a * a), l21 = (c - a * b) / l11, l22 = Math.sqrt(1 - b * b - l21 * l21);
  return [[1, 0, 0], [a, l11, 0], [b, l21, l22]];
};

/** n fixed pseudo-random numbers in [lo, hi]: long events exercise the reductions' order. */
const wave = (n: number, lo: number, hi: number, phase: number) => Array.from({ length: n }, (_, k) => lo + (hi - lo) * (0.5 + 0.5 * Math.sin(1.7 * k + phase)));
const simplex = (n: number, phase: number) => { const v = wave(n, 0.01, 1, phase), t = v.reduce((a, b) => a + b); return v.map((x) => x / t); };
const tril = (n: number, phase: number) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j > i ? 0 : j === i ? 0.5 + wave(1, 0, 2, phase + i)[0]! : wave(1, -1, 1, phase + 7 * i + j)[0]!)));

const CASES: readonly Case[] = [
  { covers: ['Normal'], label: 'Normal', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.Normal({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['Cauchy'], label: 'Cauchy', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.Cauchy({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['Laplace'], label: 'Laplace', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.Laplace({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['Logistic'], label: 'Logistic', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.Logistic({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['LogNormal'], label: 'LogNormal', sets: locScale, points: POSITIVE, probs: PROBS, make: (p) => new D.LogNormal({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['HalfCauchy'], label: 'HalfCauchy', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.HalfCauchy({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['HalfNormal'], label: 'HalfNormal', sets: locScale.map(({ scale }) => ({ scale })), points: REAL, probs: PROBS, make: (p) => new D.HalfNormal({ scale: p.scale! }) },
  {
    covers: ['StudentT'], label: 'StudentT', points: REAL, probs: PROBS,
    sets: [{ df: 1, loc: 0, scale: 1 }, { df: 0.5, loc: 1.3, scale: 0.7 }, { df: 3, loc: -2.1, scale: 3.3 }, { df: 30, loc: 1e3, scale: 1e-3 }, { df: 1e8, loc: 0.1, scale: 2 }],
    make: (p) => new D.StudentT({ df: p.df!, loc: p.loc!, scale: p.scale! }),
  },
  {
    covers: ['TruncatedNormal'], label: 'TruncatedNormal', points: REAL, probs: PROBS,
    sets: [
      { loc: 0, scale: 1, low: -1, high: 2 }, { loc: 1.3, scale: 0.7, low: -Infinity, high: 0 }, { loc: -2.1, scale: 3.3, low: 5, high: 40 },
      { loc: 0, scale: 1, low: 8, high: Infinity }, { loc: 0.1, scale: 1e-3, low: -1e-4, high: 1e-4 },
    ],
    make: (p) => new D.TruncatedNormal({ loc: p.loc!, scale: p.scale!, low: p.low!, high: p.high! }),
  },
  {
    covers: ['VonMises'], label: 'VonMises', points: [-4, -Math.PI, -1, -0.3, 0, 1e-300, 0.25, 1, 2.5, Math.PI, 7, Infinity, NaN],
    sets: [{ loc: 0, concentration: 1 }, { loc: 1.3, concentration: 1e-3 }, { loc: -2.1, concentration: 10.5 }, { loc: 3, concentration: 100 }, { loc: 0.1, concentration: 1e4 }],
    make: (p) => new D.VonMises({ loc: p.loc!, concentration: p.concentration! }),
  },
  { covers: ['Gumbel'], label: 'Gumbel', sets: locScale, points: REAL, probs: PROBS, make: (p) => new D.Gumbel({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['Weibull'], label: 'Weibull', sets: pairs('concentration', conc, 'scale', rates), points: POSITIVE, probs: PROBS, make: (p) => new D.Weibull({ concentration: p.concentration!, scale: p.scale! }) },
  { covers: ['Pareto'], label: 'Pareto', sets: pairs('concentration', conc, 'scale', rates), points: POSITIVE, probs: PROBS, make: (p) => new D.Pareto({ concentration: p.concentration!, scale: p.scale! }) },
  {
    covers: ['GeneralizedPareto'], label: 'GeneralizedPareto', points: REAL, probs: PROBS,
    sets: [{ loc: 0, scale: 1, c: 0 }, { loc: 1.3, scale: 0.7, c: 0.5 }, { loc: -2.1, scale: 3.3, c: -0.25 }, { loc: 1e3, scale: 1e-3, c: 1e-9 }, { loc: 0.1, scale: 2, c: -2 }],
    make: (p) => new D.GeneralizedPareto({ loc: p.loc!, scale: p.scale!, concentration: p.c! }),
  },
  {
    covers: ['HalfStudentT'], label: 'HalfStudentT', points: REAL, probs: PROBS,
    sets: [{ df: 1, loc: 0, scale: 1 }, { df: 0.5, loc: 1.3, scale: 0.7 }, { df: 3, loc: -2.1, scale: 3.3 }, { df: 30, loc: 1e3, scale: 1e-3 }, { df: 1e8, loc: 0.1, scale: 2 }],
    make: (p) => new D.HalfStudentT({ df: p.df!, loc: p.loc!, scale: p.scale! }),
  },
  { covers: ['InverseGaussian'], label: 'InverseGaussian', sets: pairs('loc', rates, 'concentration', conc), points: POSITIVE, probs: PROBS, make: (p) => new D.InverseGaussian({ loc: p.loc!, concentration: p.concentration! }) },
  { covers: ['Kumaraswamy'], label: 'Kumaraswamy', sets: pairs('concentration1', conc, 'concentration0', [0.3, 1, 2.5, 80, 1e5]), points: UNIT, probs: PROBS, make: (p) => new D.Kumaraswamy({ concentration1: p.concentration1!, concentration0: p.concentration0! }) },
  { covers: ['LogLogistic'], label: 'LogLogistic', sets: locScale, points: POSITIVE, probs: PROBS, make: (p) => new D.LogLogistic({ loc: p.loc!, scale: p.scale! }) },
  { covers: ['Horseshoe'], label: 'Horseshoe', sets: [1e-3, 0.5, 1, 7, 1e5].map((scale) => ({ scale })), points: REAL, make: (p) => new D.Horseshoe({ scale: p.scale! }) },
  { covers: ['ImproperUniform'], label: 'ImproperUniform', sets: pairs('low', [-1e10, -3, 0, 1e-8, 7], 'high', [8, 38.5, 1e10]), points: REAL, make: (p) => new D.ImproperUniform({ low: p.low!, high: p.high! }) },
  { covers: ['ImproperUniform'], label: 'ImproperUniform(low)', sets: [-1e10, -3, 0, 1e-8, 7].map((low) => ({ low })), points: REAL, make: (p) => new D.ImproperUniform({ low: p.low! }) },
  {
    covers: ['Uniform'], label: 'Uniform', points: REAL, probs: PROBS,
    sets: [{ low: 0, high: 1 }, { low: -2.1, high: 3.3 }, { low: 1e3, high: 1e3 + 1e-3 }, { low: -1e300, high: 1e300 }, { low: 0.25, high: 7 }],
    make: (p) => new D.Uniform({ low: p.low!, high: p.high! }),
  },
  { covers: ['Exponential'], label: 'Exponential', sets: rates.map((rate) => ({ rate })), points: POSITIVE, probs: PROBS, make: (p) => new D.Exponential({ rate: p.rate! }) },
  { covers: ['Gamma'], label: 'Gamma(rate)', sets: pairs('concentration', conc, 'rate', rates), points: POSITIVE, probs: PROBS, make: (p) => new D.Gamma({ concentration: p.concentration!, rate: p.rate! }) },
  { covers: ['Gamma'], label: 'Gamma(logRate)', sets: pairs('concentration', conc, 'logRate', [-3, 0, 1.2, 7]), points: POSITIVE, probs: PROBS, make: (p) => new D.Gamma({ concentration: p.concentration!, logRate: p.logRate! }) },
  { covers: ['InverseGamma'], label: 'InverseGamma', sets: pairs('concentration', conc, 'scale', rates), points: POSITIVE, probs: PROBS, make: (p) => new D.InverseGamma({ concentration: p.concentration!, scale: p.scale! }) },
  { covers: ['Chi2'], label: 'Chi2', sets: [0.2, 1, 2, 5.5, 300].map((df) => ({ df })), points: POSITIVE, probs: PROBS, make: (p) => new D.Chi2({ df: p.df! }) },
  { covers: ['Beta'], label: 'Beta', sets: pairs('concentration1', conc, 'concentration0', [0.3, 1, 2.5, 80, 1e5]), points: UNIT, probs: PROBS, make: (p) => new D.Beta({ concentration1: p.concentration1!, concentration0: p.concentration0! }) },
  {
    covers: ['Deterministic'], label: 'Deterministic', points: REAL, probs: PROBS,
    sets: [{ loc: 0, atol: 0, rtol: 0 }, { loc: 1, atol: 0.1, rtol: 0 }, { loc: 7, atol: 0, rtol: 0.5 }, { loc: -1e10, atol: 1, rtol: 1e-3 }],
    make: (p) => new D.Deterministic({ loc: p.loc!, atol: p.atol!, rtol: p.rtol! }),
  },
  { covers: ['Bernoulli'], label: 'Bernoulli(logits)', sets: logits.map((l) => ({ logits: l })), points: [-1, 0, 1, 0.5, 2, NaN], make: (p) => new D.Bernoulli({ logits: p.logits! }) },
  { covers: ['Bernoulli'], label: 'Bernoulli(probs)', sets: probs.map((q) => ({ probs: q })), points: [-1, 0, 1, 0.5, 2, NaN], make: (p) => new D.Bernoulli({ probs: p.probs! }) },
  { covers: ['Geometric'], label: 'Geometric(logits)', sets: logits.map((l) => ({ logits: l })), points: COUNTS, make: (p) => new D.Geometric({ logits: p.logits! }) },
  { covers: ['Geometric'], label: 'Geometric(probs)', sets: probs.map((q) => ({ probs: q })), points: COUNTS, make: (p) => new D.Geometric({ probs: p.probs! }) },
  { covers: ['Poisson'], label: 'Poisson(rate)', sets: [0, 1e-8, 0.3, 4.2, 40, 1e5].map((rate) => ({ rate })), points: COUNTS, make: (p) => new D.Poisson({ rate: p.rate! }) },
  { covers: ['Poisson'], label: 'Poisson(logRate)', sets: [-20, -1, 0, 1.5, 9].map((logRate) => ({ logRate })), points: COUNTS, make: (p) => new D.Poisson({ logRate: p.logRate! }) },
  { covers: ['Binomial'], label: 'Binomial(logits)', sets: pairs('totalCount', [0, 1, 5, 40, 1e6], 'logits', logits), points: COUNTS, make: (p) => new D.Binomial({ totalCount: p.totalCount!, logits: p.logits! }) },
  { covers: ['Binomial'], label: 'Binomial(probs)', sets: pairs('totalCount', [0, 1, 5, 40, 1e6], 'probs', probs), points: COUNTS, make: (p) => new D.Binomial({ totalCount: p.totalCount!, probs: p.probs! }) },
  { covers: ['NegativeBinomial'], label: 'NegativeBinomial(logits)', sets: pairs('totalCount', [0.5, 1, 5, 40, 1e6], 'logits', logits), points: COUNTS, make: (p) => new D.NegativeBinomial({ totalCount: p.totalCount!, logits: p.logits! }) },
  { covers: ['NegativeBinomial'], label: 'NegativeBinomial(probs)', sets: pairs('totalCount', [0.5, 1, 5, 40, 1e6], 'probs', probs.slice(0, 4)), points: COUNTS, make: (p) => new D.NegativeBinomial({ totalCount: p.totalCount!, probs: p.probs! }) },
  {
    covers: ['BetaBinomial'], label: 'BetaBinomial', points: COUNTS,
    sets: [{ n: 0, a: 1, b: 1 }, { n: 5, a: 0.5, b: 2 }, { n: 40, a: 30, b: 0.1 }, { n: 1e6, a: 2.7, b: 1e4 }],
    make: (p) => new D.BetaBinomial({ totalCount: p.n!, concentration1: p.a!, concentration0: p.b! }),
  },
  {
    covers: ['Categorical'], label: 'Categorical(logits)', points: [-1, 0, 1, 2, 3, 4, 1.5, NaN],
    sets: [{ l: [0, 0, 0, 0] }, { l: [1.3, -2.1, 0.5, 30] }, { l: [-745, 0, -1e-12, 2] }, { l: [-Infinity, 1, 2, 3] }],
    make: (p) => new D.Categorical({ logits: p.l! }),
  },
  {
    covers: ['Categorical'], label: 'Categorical(probs)', points: [-1, 0, 1, 2, 3, 4, NaN],
    sets: [{ q: [0.25, 0.25, 0.25, 0.25] }, { q: [0.1, 0.2, 0.3, 0.4] }, { q: [1e-300, 0, 0.5, 0.5] }, { q: [0.7, 0.1, 0.1, 0.1] }],
    make: (p) => new D.Categorical({ probs: p.q! }),
  },
  {
    covers: ['OneHotCategorical'], label: 'OneHotCategorical', points: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0], [1, 1, 0, 0]],
    sets: [{ l: [0, 0, 0, 0] }, { l: [1.3, -2.1, 0.5, 30] }, { l: [-745, 0, -1e-12, 2] }, { l: [-Infinity, 1, 2, 3] }],
    make: (p) => new D.OneHotCategorical({ logits: p.l! }),
  },
  {
    covers: ['Multinomial'], label: 'Multinomial(probs)', points: [[0, 0, 0], [1, 0, 0], [2, 3, 5], [10, 0, 0], [0, 4, 6], [-1, 5, 6], [1e6, 0, 0]],
    sets: [{ n: 0, q: [0.2, 0.3, 0.5] }, { n: 10, q: [0.2, 0.3, 0.5] }, { n: 10, q: [1e-300, 0.5, 0.5] }, { n: 1e6, q: [1, 0, 0] }],
    make: (p) => new D.Multinomial({ totalCount: p.n!, probs: p.q! }),
  },
  {
    covers: ['Multinomial'], label: 'Multinomial(logits)', points: [[0, 0, 0], [1, 0, 0], [2, 3, 5], [10, 0, 0], [0, 4, 6]],
    sets: [{ n: 10, l: [0, 0, 0] }, { n: 10, l: [1.3, -2.1, 30] }, { n: 1, l: [-745, 0, 2] }],
    make: (p) => new D.Multinomial({ totalCount: p.n!, logits: p.l! }),
  },
  {
    covers: ['DirichletMultinomial'], label: 'DirichletMultinomial', points: [[0, 0, 0], [1, 0, 0], [2, 3, 5], [10, 0, 0], [0, 4, 6], [-1, 5, 6]],
    sets: [{ n: 0, a: [1, 1, 1] }, { n: 10, a: [0.5, 2, 30] }, { n: 10, a: [1e-3, 1e4, 1] }, { n: 1e6, a: [2.7, 0.1, 5] }],
    make: (p) => new D.DirichletMultinomial({ totalCount: p.n!, concentration: p.a! }),
  },
  {
    covers: ['Dirichlet'], label: 'Dirichlet', points: [[0.2, 0.3, 0.5], [1 / 3, 1 / 3, 1 / 3], [1, 0, 0], [1e-300, 0.5, 0.5], [0.9, 0.05, 0.05], [0.5, 0.5, 0.5], [-0.1, 0.6, 0.5]],
    sets: [{ a: [1, 1, 1] }, { a: [0.5, 2, 30] }, { a: [1e-3, 1e4, 1] }, { a: [2.7, 0.1, 5] }],
    make: (p) => new D.Dirichlet({ concentration: p.a! }),
  },
  {
    covers: ['ZeroSumNormal'], label: 'ZeroSumNormal', points: [[0, 0, 0], [1, -1, 0], [2.5, -3, 0.5], [1e3, -1e3, 0], [1e-300, -1e-300, 0], [Infinity, -Infinity, 0], [NaN, 0, 0]],
    sets: [0.5, 1, 2.5, 1e-3, 1e5, POSITIVE[3]!].map((s) => ({ s })),
    make: (p) => new D.ZeroSumNormal({ scale: p.s!, eventSize: 3 }),
  },
  {
    covers: ['MultivariateNormalDiag'], label: 'MultivariateNormalDiag', points: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40], [Infinity, 0, 0], [NaN, 0, 0]],
    sets: [{ m: [0, 0, 0], s: [1, 1, 1] }, { m: [1.3, -2.1, 0.5], s: [0.7, 3.3, 1e-3] }, { m: [1e3, 0, 0], s: [1e5, 2, 0.1] }, { m: [-1, 1, -1], s: [1, 2, 3] }],
    make: (p) => new D.MultivariateNormalDiag({ loc: p.m!, scaleDiag: p.s! }),
  },
  {
    covers: ['MultivariateNormalTriL'], label: 'MultivariateNormalTriL', points: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40], [Infinity, 0, 0], [NaN, 0, 0]],
    sets: [
      { m: [0, 0, 0], L: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }, { m: [1.3, -2.1, 0.5], L: [[0.7, 0, 0], [0.3, 3.3, 0], [-1.1, 0.2, 1e-3]] },
      { m: [1e3, 0, 0], L: [[1e5, 0, 0], [7, 2, 0], [0.5, 0.25, 0.1]] }, { m: [-1, 1, -1], L: [[1, 0, 0], [2, 2, 0], [3, 3, 3]] },
    ],
    make: (p) => new D.MultivariateNormalTriL({ loc: p.m!, scaleTril: p.L! }),
  },
  {
    // A batch of kernels (and noise variances) at fixed index points: kernel matrix, cholesky, solve.
    covers: ['GaussianProcess'], label: 'GaussianProcess', points: [[0, 0, 0], [1, -2, 3.5], [0.3, 0.2, -0.1], [40, 1e-3, -40], [NaN, 0, 0]],
    sets: [{ a: 1, l: 1, s: 0 }, { a: 0.3, l: 2.5, s: 0.1 }, { a: 7, l: 0.2, s: 1e-3 }, { a: 1.5, l: 40, s: 2 }],
    make: (p) => new D.GaussianProcess({ kernel: new D.psdKernels.MaternFiveHalves({ amplitude: p.a!, lengthScale: p.l! }), indexPoints: [[0], [0.5], [1.3]], observationNoiseVariance: p.s! }),
  },
  {
    // A batch of kernels and noise variances conditioned on fixed observations: two Cholesky factors and solves.
    covers: ['GaussianProcessRegressionModel'], label: 'GaussianProcessRegressionModel', points: [[0, 0, 0], [1, -2, 3.5], [0.3, 0.2, -0.1], [40, 1e-3, -40], [NaN, 0, 0]],
    sets: [{ a: 1, l: 1, s: 0 }, { a: 0.3, l: 2.5, s: 0.1 }, { a: 7, l: 0.2, s: 1e-3 }, { a: 1.5, l: 40, s: 2 }],
    make: (p) => new D.GaussianProcessRegressionModel({
      kernel: new D.psdKernels.MaternFiveHalves({ amplitude: p.a!, lengthScale: p.l! }), indexPoints: [[0.2], [0.9], [1.6]],
      observationIndexPoints: [[0], [0.5], [1.3]], observations: [0.4, -0.3, 1.1], observationNoiseVariance: p.s!,
    }),
  },
  {
    covers: ['LKJ'], label: 'LKJ', points: [corr3(0, 0, 0), corr3(0.3, -0.2, 0.5), corr3(0.99, 0.98, 0.97), corr3(-0.5, 0.1, 0.1), corr3(0.9, -0.9, 0.9)],
    sets: [0.5, 1, 2.7, 100].map((c) => ({ c })),
    make: (p) => new D.LKJ({ dimension: 3, concentration: p.c! }),
  },
  {
    covers: ['LKJ'], label: 'LKJ(cholesky)', points: [chol3(0, 0, 0), chol3(0.3, -0.2, 0.5), chol3(0.99, 0.98, 0.97), chol3(-0.5, 0.1, 0.1)],
    sets: [0.5, 1, 2.7, 100].map((c) => ({ c })),
    make: (p) => new D.LKJ({ dimension: 3, concentration: p.c!, inputOutputCholesky: true }),
  },
  {
    covers: ['Independent'], label: 'Independent(Normal)', points: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40], [Infinity, 0, 0]],
    sets: [{ m: [0, 0, 0], s: [1, 1, 1] }, { m: [1.3, -2.1, 0.5], s: [0.7, 3.3, 1e-3] }, { m: [1e3, 0, 0], s: [1e5, 2, 0.1] }],
    make: (p) => new D.Independent({ distribution: new D.Normal({ loc: p.m!, scale: p.s! }), reinterpretedBatchNdims: 1 }),
  },
  {
    covers: ['Independent'], label: 'Independent(Normal), 37-element events', points: [0, 1, 2].map((k) => wave(37, -5, 5, k)),
    sets: [0, 1, 2].map((k) => ({ m: wave(37, -1, 1, 10 + k), s: wave(37, 0.1, 3, 20 + k) })),
    make: (p) => new D.Independent({ distribution: new D.Normal({ loc: p.m!, scale: p.s! }), reinterpretedBatchNdims: 1 }),
  },
  {
    covers: ['MultivariateNormalTriL'], label: 'MultivariateNormalTriL, k = 9', points: [0, 1, 2].map((k) => wave(9, -5, 5, k)),
    sets: [0, 1, 2].map((k) => ({ m: wave(9, -1, 1, 10 + k), L: tril(9, 20 + k) })),
    make: (p) => new D.MultivariateNormalTriL({ loc: p.m!, scaleTril: p.L! }),
  },
  {
    covers: ['Dirichlet'], label: 'Dirichlet, K = 17', points: [0, 1, 2].map((k) => simplex(17, k)),
    sets: [0, 1, 2].map((k) => ({ a: wave(17, 0.1, 20, 10 + k) })),
    make: (p) => new D.Dirichlet({ concentration: p.a! }),
  },
  {
    covers: ['Categorical'], label: 'Categorical(logits), K = 40', points: [0, 7, 39, 40],
    sets: [0, 1, 2].map((k) => ({ l: wave(40, -30, 30, 10 + k) })),
    make: (p) => new D.Categorical({ logits: p.l! }),
  },
  {
    covers: ['Sample'], label: 'Sample(Gamma)', points: [[0.5, 1, 2], [1e-300, 3, 1e6], [1, 1, -1]],
    sets: pairs('c', conc, 'r', rates),
    make: (p) => new D.Sample({ distribution: new D.Gamma({ concentration: p.c!, rate: p.r! }), sampleShape: 3 }),
  },
  {
    covers: ['TransformedDistribution'], label: 'TransformedDistribution(Normal, Chain[Shift, Scale, Exp])', points: POSITIVE, probs: PROBS,
    sets: locScale,
    make: (p) => new D.TransformedDistribution({
      distribution: new D.Normal({ loc: p.loc!, scale: p.scale! }),
      bijector: new D.bijectors.Chain({ bijectors: [new D.bijectors.Shift({ shift: 0.5 }), new D.bijectors.Scale({ scale: 3 }), new D.bijectors.Exp()] }),
    }),
  },
  {
    covers: ['TransformedDistribution'], label: 'TransformedDistribution(Beta, Sigmoid inverted)', points: REAL,
    sets: pairs('a', conc, 'b', [0.3, 1, 2.5, 80]),
    make: (p) => new D.TransformedDistribution({
      distribution: new D.Beta({ concentration1: p.a!, concentration0: p.b! }),
      bijector: new D.bijectors.Invert({ bijector: new D.bijectors.Sigmoid() }),
    }),
  },
  {
    covers: ['MixtureSameFamily'], label: 'MixtureSameFamily(Normal)', points: REAL,
    mixed: [['l'], ['m'], ['s'], ['l', 'm'], ['l', 's']],   // components batched whenever the weights are
    sets: [{ l: [0, 0, 0], m: [0, 1, 2], s: [1, 1, 1] }, { l: [1.3, -2.1, 30], m: [-2.1, 1e3, 0.1], s: [3.3, 1e-3, 1e5] }, { l: [-745, 0, 2], m: [0, 0, 0], s: [0.5, 1, 2] }],
    make: (p) => new D.MixtureSameFamily({ mixtureDistribution: new D.Categorical({ logits: p.l! }), componentsDistribution: new D.Normal({ loc: p.m!, scale: p.s! }) }),
  },
  {
    covers: ['Mixture'], label: 'Mixture(Normal, Gamma)', points: REAL,
    mixed: [],   // the weights' batch shape must equal the components'
    sets: [{ l: [0, 0], m: 0, s: 1, c: 2, r: 1 }, { l: [1.3, -2.1], m: -2.1, s: 3.3, c: 0.5, r: 4.2 }, { l: [-745, 0], m: 1e3, s: 1e-3, c: 30, r: 1e-8 }],
    make: (p) => new D.Mixture({
      cat: new D.Categorical({ logits: p.l! }),
      components: [new D.Normal({ loc: p.m!, scale: p.s! }), new D.Gamma({ concentration: p.c!, rate: p.r! })],
    }),
  },
  {
    covers: ['HiddenMarkovModel'], label: 'HiddenMarkovModel', points: [[0, 0, 0], [-2, 0.5, 15], [1e3, -1e3, 0], [Infinity, 0, 0]],
    sets: [
      { i: [0, 0], t: [[0, 0], [0, 0]], m: [0, 15], s: [5, 10] },
      { i: [1.3, -2.1], t: [[0.5, -1], [-745, 0]], m: [-2, 1e3], s: [0.5, 1e-3] },
      { i: [-745, 0], t: [[30, 0], [0, 30]], m: [0, 0], s: [1, 2] },
    ],
    make: (p) => new D.HiddenMarkovModel({
      initialDistribution: new D.Categorical({ logits: p.i! }),
      transitionDistribution: new D.Categorical({ logits: p.t! }),
      observationDistribution: new D.Normal({ loc: p.m!, scale: p.s! }),
      numSteps: 3,
    }),
  },
  {
    covers: ['OrderedLogistic'], label: 'OrderedLogistic', points: [-1, 0, 1, 2, 3, 4, 1.5, NaN],
    sets: [{ c: [-1, 0.5, 2], l: 0.3 }, { c: [-3, -2.9, 4], l: 7.5 }, { c: [0, 0, 1], l: -1 }, { c: [-40, -39, 30], l: 0 }, { c: [-1e-3, 1e-3, 0.5], l: -745 }],
    make: (p) => new D.OrderedLogistic({ cutpoints: p.c!, loc: p.l! }),
  },
  {
    covers: ['CholeskyLKJ'], label: 'CholeskyLKJ', points: [chol3(0, 0, 0), chol3(0.3, -0.2, 0.5), chol3(0.99, 0.98, 0.97), chol3(-0.5, 0.1, 0.1)],
    sets: [0.5, 1, 2.7, 100].map((c) => ({ c })),
    make: (p) => new D.CholeskyLKJ({ dimension: 3, concentration: p.c! }),
  },
  {
    covers: ['MultivariateStudentTLinearOperator'], label: 'MultivariateStudentTLinearOperator', points: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40], [Infinity, 0, 0], [NaN, 0, 0]],
    sets: [
      { d: 3, m: [0, 0, 0], L: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] }, { d: 0.5, m: [1.3, -2.1, 0.5], L: [[0.7, 0, 0], [0.3, 3.3, 0], [-1.1, 0.2, 1e-3]] },
      { d: 1e6, m: [1e3, 0, 0], L: [[1e5, 0, 0], [7, 2, 0], [0.5, 0.25, 0.1]] }, { d: 30, m: [-1, 1, -1], L: [[1, 0, 0], [2, 2, 0], [3, 3, 3]] },
    ],
    make: (p) => new D.MultivariateStudentTLinearOperator({ df: p.d!, loc: p.m!, scaleTril: p.L! }),
  },
  {
    covers: ['Inflated'], label: 'Inflated(Poisson)', points: COUNTS,
    mixed: [['p']],   // the weight broadcasts to the distribution's batch shape, not the reverse
    sets: [{ p: 0.2, r: 3 }, { p: 1e-10, r: 1e-8 }, { p: 0.9, r: 40 }, { p: 0.5, r: 1e5 }],
    make: (p) => new D.Inflated({ distribution: new D.Poisson({ rate: p.r! }), inflatedLocProbs: p.p! }),
  },
  {
    covers: ['Inflated'], label: 'Inflated(Normal, logits, inflatedLoc)', points: REAL,
    mixed: [['l'], ['m'], ['s'], ['z'], ['l', 'z'], ['l', 'm'], ['s', 'z'], ['l', 's', 'z']],   // never both of the distribution's parameters scalar alone
    sets: [{ l: 0, m: 0, s: 1, z: 0 }, { l: 1.3, m: 1.3, s: 0.7, z: 1 }, { l: -2.1, m: -2.1, s: 3.3, z: 2.5 }, { l: 30, m: 1e3, s: 1e-3, z: -1e-300 }],
    make: (p) => new D.Inflated({ distribution: new D.Normal({ loc: p.m!, scale: p.s! }), inflatedLocLogits: p.l!, inflatedLoc: p.z! }),
  },
];

// ---- layouts ------------------------------------------------------------------------------------

const depth = (x: Nested): number => (typeof x === 'number' ? 0 : 1 + depth(x[0]!));
const shapeOf = (x: Nested): number[] => (typeof x === 'number' ? [] : [x.length, ...shapeOf(x[0]!)]);
const bits = (t: T): number[] => Array.from(t.data as ArrayLike<number>, Number);
const f64 = (x: Nested): T => tensor(x, 'float64');
type Dt = 'float64' | 'float32';
const params = (entries: readonly (readonly [string, Nested])[], dt: Dt): Record<string, T> => Object.fromEntries(entries.map(([k, v]) => [k, tensor(v, dt)]));
const range = (n: number) => Array.from({ length: n }, (_, k) => k);
const call = (d: Distribution, m: Method, x: T): T => (d[m] as (v: T) => T).call(d, x);

/**
 * A layout: parameters and points as tensors, which (set, point) each result element is, and
 * which arguments hold one entry per result element (their partials are per element too).
 */
interface Layout {
  readonly name: string;
  readonly p: Readonly<Record<string, T>>;
  readonly x: T;
  readonly at: readonly (readonly [number, number])[];
  readonly perElement: readonly string[];
}

function* layouts(c: Case, points: readonly Nested[], dt: Dt): Generator<Layout> {
  const t = (x: Nested) => tensor(x, dt), ps = (e: readonly (readonly [string, Nested])[]) => params(e, dt);
  const J = c.sets.length, V = points.length, keys = Object.keys(c.sets[0]!);
  // every proper subset for up to three parameters; beyond, each parameter alone scalar or alone batched
  const mixed = c.mixed ?? (keys.length <= 3 ? range(2 ** keys.length - 2).map((m) => keys.filter((_, b) => ((m + 1) >> b) & 1))
    : keys.flatMap((k) => [[k], keys.filter((o) => o !== k)]));
  const set = (j: number) => ps(keys.map((k) => [k, c.sets[j]![k]!]));
  const stacked = (js: readonly number[]) => ps(keys.map((k) => [k, js.map((j) => c.sets[j]![k]!)]));
  for (let j = 0; j < J; j++) {
    // scalar parameters against a batch of points
    yield { name: 'scalar parameters, batch of points', p: set(j), x: t(points), at: range(V).map((i) => [j, i]), perElement: [VALUE] };
    // some parameters scalar, the others one copy per point (every stride pattern)
    for (const scalar of mixed) {
      const p = ps(keys.map((k) => [k, scalar.includes(k) ? c.sets[j]![k]! : range(V).map(() => c.sets[j]![k]!)]));
      yield { name: `[${scalar.join(', ')}] scalar, the rest batched`, p, x: t(points), at: range(V).map((i) => [j, i]), perElement: [VALUE, ...keys.filter((k) => !scalar.includes(k))] };
    }
  }
  // one parameter set per element, every (set, point) pair
  const all = range(J).flatMap((j) => range(V).map((i) => [j, i] as const));
  yield { name: 'one parameter set per element', p: stacked(all.map(([j]) => j)), x: t(all.map(([, i]) => points[i]!)), at: all, perElement: [VALUE, ...keys] };
  // batched parameters against one point
  for (let i = 0; i < V; i++) yield { name: 'batched parameters, one point', p: stacked(range(J)), x: t(points[i]!), at: range(J).map((j) => [j, i]), perElement: keys };
  // outer product: parameters [J, 1, ...event] against points [V, ...event] (gathered by index map)
  const outer = ps(keys.map((k) => [k, range(J).map((j) => [c.sets[j]![k]!])]));
  yield { name: 'outer broadcast [J, 1] × [V]', p: outer, x: t(points), at: all, perElement: [] };
  // a batch of 1 against a batch of 4 that starts with it (every point, the sets in turn)
  for (const [j, i] of range(V).map((i) => [i % J, i] as const)) {
    yield { name: 'batch of 1', p: stacked([j]), x: t([points[i]!]), at: [[j, i]], perElement: [VALUE, ...keys] };
    const js = range(4).map((k) => (j + k) % J), is = range(4).map((k) => (i + 3 * k) % V);
    yield { name: 'batch of 4', p: stacked(js), x: t(is.map((k) => points[k]!)), at: range(4).map((k) => [js[k]!, is[k]!]), perElement: [VALUE, ...keys] };
  }
}

const VALUE = '(value)';

/** `method` at `x`, as plain bits; with `grads`, under a tape: also ∂Σ/∂(value and each parameter). */
function evaluate(c: Case, method: Method, p: Readonly<Record<string, T>>, x: T, grads: boolean): { value: number[]; grad?: Record<string, number[]> } {
  if (!grads) return { value: bits(call(c.make(p), method, x)) };
  const keys = Object.keys(p);
  let value: number[] = [];
  const [, g] = valueAndGrad((xt: T, ...ps: T[]) => {
    const r = call(c.make(Object.fromEntries(keys.map((k, n) => [k, ps[n]!]))), method, xt);
    value = bits(r);
    return sum(r);
  }, range(keys.length + 1))(x, ...keys.map((k) => p[k]!)) as [T, T[]];
  return { value, grad: Object.fromEntries([VALUE, ...keys].map((k, n) => [k, bits(g[n]!)])) };
}

/**
 * Partials are compared up to the sign of zero: the tensor ops' broadcast backward sums into a
 * zero-filled buffer (0 + −0 = +0) where the same-shape path writes g·∂ (−0) directly.
 */
const sameUpToZeroSign = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

const show = (x: unknown) => JSON.stringify(x, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));

/**
 * The mismatches of every layout against one (set, point) at a time with unbatched parameters:
 * values, and with `grads` also the values under a tape and the per-element partials.
 */
function mismatches(c: Case, method: Method, points: readonly Nested[], grads: boolean, dt: Dt = 'float64'): string[] | undefined {
  const t = (x: Nested) => tensor(x, dt), ps = (e: readonly (readonly [string, Nested])[]) => params(e, dt);
  const ref: { value: number; grad?: Record<string, number[]> }[][] = [];
  for (const s of c.sets) {
    const p = ps(Object.entries(s));
    const row: { value: number; grad?: Record<string, number[]> }[] = [];
    for (const x of points) {
      let r: ReturnType<typeof evaluate>;
      try { r = evaluate(c, method, p, t(x), grads); } catch (e) {
        if (e instanceof D.NotImplementedError) return undefined;
        throw e;
      }
      expect(r.value.length, `${c.label}.${method}: an unbatched distribution at one point`).toBe(1);
      row.push({ value: r.value[0]!, ...(r.grad ? { grad: r.grad } : {}) });
    }
    ref.push(row);
  }
  const out: string[] = [];
  for (const l of layouts(c, points, dt)) {
    const got = evaluate(c, method, l.p, l.x, grads);
    expect(got.value.length, `${c.label}.${method} ${l.name}`).toBe(l.at.length);
    const where = (j: number, i: number) => `${l.name}${grads ? ' (taped)' : ''}${dt === 'float32' ? ' (float32)' : ''}: set ${j} ${show(c.sets[j])}, point ${show(points[i])}`;
    l.at.forEach(([j, i], k) => {
      const want = ref[j]![i]!;
      if (!Object.is(got.value[k], want.value)) out.push(`${where(j, i)}: ${got.value[k]} ≠ ${want.value}`);
      for (const name of grads ? l.perElement : []) {
        const w = want.grad![name]!, g = got.grad![name]!.slice(k * w.length, (k + 1) * w.length);
        if (!g.every((v, e) => sameUpToZeroSign(v, w[e]!))) out.push(`${where(j, i)}: ∂/∂${name} ${show(g)} ≠ ${show(w)}`);
      }
    });
  }
  return out;
}

describe('bits that do not depend on batching', () => {
  it('every distribution class exported from distributions/index.ts has a case', () => {
    const exported = Object.entries(D).filter(([, v]) => typeof v === 'function' && v.prototype instanceof D.Distribution).map(([k]) => k);
    const joint = ['JointDistribution', 'JointDistributionSequential', 'JointDistributionNamed', 'JointDistributionCoroutine'];
    const covered = new Set([...CASES.flatMap((c) => c.covers), ...joint]);
    expect(exported.filter((k) => !covered.has(k)), 'distributions without a case in this file').toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.label}: every method gives the same bits in every layout`, () => {
      expect(new Set(c.sets.map((s) => JSON.stringify(Object.keys(s)))).size).toBe(1);
      expect(c.sets.every((s) => Object.entries(s).every(([k, v]) => depth(v) === depth(c.sets[0]![k]!)))).toBe(true);
      expect(new Set(c.points.map((x) => JSON.stringify(shapeOf(x)))).size).toBe(1);
      const report: string[] = [];
      let ran = 0;
      for (const m of VALUE_METHODS) {
        const r = mismatches(c, m, c.points, false);
        if (r === undefined) continue;
        ran++;
        report.push(...r.map((s) => `${m} ${s}`));
      }
      // the log density under a tape (as MCMC evaluates it), with its per-element partials; and in float32
      report.push(...mismatches(c, 'logProb', c.points, true)!.map((s) => `logProb ${s}`));
      report.push(...mismatches(c, 'logProb', c.points, false, 'float32')!.map((s) => `logProb ${s}`));
      if (c.probs) {
        const r = mismatches(c, 'quantile', c.probs, false);
        if (r !== undefined) { ran++; report.push(...r.map((s) => `quantile ${s}`)); }
      }
      expect(ran).toBeGreaterThan(0);
      expect(report.length, report.slice(0, 12).join('\n')).toBe(0);
    });
  }

  // Joint distributions: a batch of 1 against a batch of 4 (and unbatched) with the same first draw.
  const normalGamma = () => [
    new D.Normal({ loc: 0.3, scale: 2 }),
    new D.Gamma({ concentration: 2.5, rate: 1.5 }),
    (g: T, n: T) => new D.Normal({ loc: n, scale: g }),
  ] as const;
  const X = [[0.1, -3, 1e3, 0.5], [0.7, 1e-300, 2, 1e6], [-0.2, 5, -1e-8, 40]];
  const take = (n: number) => X.map((row) => f64(row.slice(0, n)));
  const scalarOf = (k: number) => X.map((row) => f64(row[k]!));

  const joints: readonly (readonly [string, (xs: readonly T[]) => T])[] = [
    ['JointDistributionSequential', (xs) => new D.JointDistributionSequential([...normalGamma()] as never).logProb(xs as never)],
    ['JointDistributionNamed', (xs) => new D.JointDistributionNamed({
      n: new D.Normal({ loc: 0.3, scale: 2 }), g: new D.Gamma({ concentration: 2.5, rate: 1.5 }), x: (g: T, n: T) => new D.Normal({ loc: n, scale: g }),
    } as never).logProb({ n: xs[0], g: xs[1], x: xs[2] } as never)],
    ['JointDistributionCoroutine', (xs) => new D.JointDistributionCoroutine(function* () {
      const n = (yield D.Root(new D.Normal({ loc: 0.3, scale: 2 }))) as T;
      const g = (yield D.Root(new D.Gamma({ concentration: 2.5, rate: 1.5 }))) as T;
      yield new D.Normal({ loc: n, scale: g });
    } as never).logProb(xs as never)],
  ];
  for (const [name, lp] of joints) {
    it(`${name}.logProb: element k of a batch equals the unbatched value`, () => {
      const one = bits(lp(take(1))), four = bits(lp(take(4)));
      expect(one.length).toBe(1);
      expect(four.length).toBe(4);
      for (let k = 0; k < 4; k++) {
        const want = bits(lp(scalarOf(k)))[0]!;
        expect(Object.is(four[k], want), `draw ${k}: ${four[k]} ≠ ${want}`).toBe(true);
        if (k === 0) expect(Object.is(one[0], want), `batch of 1: ${one[0]} ≠ ${want}`).toBe(true);
      }
    });
  }

  // What MCMC evaluates: a pinned model's log density and gradient with one state per chain. Chain
  // 0 must not see how many chains run beside it.
  it('JointDistributionPinned: chain 0 of 1 and of 4 chains has the same log density and gradient bits', () => {
    const target = new D.JointDistributionNamed({
      n: new D.Normal({ loc: 0.3, scale: 2 }),
      g: new D.Gamma({ concentration: 2.5, rate: 1.5 }),
      x: (g: T, n: T) => new D.Sample({ distribution: new D.StudentT({ df: 4, loc: n, scale: g }), sampleShape: 5 }),
    } as never).experimentalPin({ x: f64([0.25, -1.5, 3, 1e-3, 40]) } as never);
    const chains = { n: [0.1, -3, 1e3, 0.5], g: [0.7, 1e-3, 2, 1e6] };
    const run = (c: number | undefined) => {
      const at = (v: readonly number[]) => f64(c === undefined ? v[0]! : v.slice(0, c));
      let value: number[] = [];
      const [, g] = valueAndGrad((n: T, s: T) => {
        const lp = target.unnormalizedLogProb({ n, g: s } as never);
        value = bits(lp);
        return sum(lp);
      }, [0, 1])(at(chains.n), at(chains.g)) as [T, T[]];
      return [value, ...g.map(bits)].map((a) => a.slice(0, 1));
    };
    const one = run(undefined);
    for (const c of [1, 4]) {
      const got = run(c);
      got.forEach((a, k) => expect(sameUpToZeroSign(a[0]!, one[k]![0]!) && (k > 0 || Object.is(a[0], one[k]![0])), `${c} chains, output ${k}: ${a[0]} ≠ ${one[k]![0]}`).toBe(true));
    }
  });
});
