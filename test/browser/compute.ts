/**
 * The computation whose results must agree bit for bit on every engine (ARCHITECTURE.md
 * invariant 6): test/browser/browser.slow.test.ts runs it in Node (on the sources) and in
 * headless Chromium and Firefox (on the dist/browser bundle), test/engines/bun.test.ts in Node and under Bun
 * (JavaScriptCore, on the sources). It reaches the library only through its argument, so the
 * same code runs everywhere: the browser test compiles this file to plain JavaScript with esbuild
 * (type imports vanish) and serves it to the page. It calls no engine `Math` function itself
 * (points are literals, the NUTS target is a polynomial), so only stochax's math is compared.
 *
 * Every result is recorded as `dtype[shape]:hex`, the hex of the little-endian bytes of the
 * typed array, so NaN payloads, −0 and the last ulp all count.
 */
import type * as Core from '../../src/index.js';
import type * as Distributions from '../../distributions/index.js';
import type * as Mcmc from '../../mcmc/index.js';
import type * as Optimize from '../../optimize/index.js';

/** The four entry points, as module namespaces (the sources in Node, the bundle in a browser). */
export interface Lib {
  readonly stochax: typeof Core;
  readonly distributions: typeof Distributions;
  readonly mcmc: typeof Mcmc;
  readonly optimize: typeof Optimize;
}

type Typed = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array | Int8Array | Int16Array | Uint16Array
  | BigInt64Array | BigUint64Array;

/** Hex of the bytes of a typed array. */
export function hexOf(a: ArrayBufferView): string {
  const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i]!.toString(16).padStart(2, '0');
  return s;
}

/** `dtype[shape]:hex` for a Tensor, a KeyArray, a typed array, a number, a bigint or an array of them (a string is kept as is). */
function enc(v: unknown): string {
  if (typeof v === 'string') return `str:${v}`;
  if (typeof v === 'number') return `f64[]:${hexOf(new Float64Array([v]))}`;
  if (typeof v === 'bigint') return `i64[]:${hexOf(new BigInt64Array([v]))}`;
  if (Array.isArray(v)) return `[${v.map(enc).join(';')}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}:${hexOf(v)}`;
  if (v !== null && typeof v === 'object' && 'data' in v && 'shape' in v) {
    const t = v as { data: Typed; shape: readonly number[]; dtype?: string; impl?: { name: string } };
    const kind = t.dtype ?? `key<${t.impl?.name ?? '?'}>`;
    return `${kind}[${t.shape.join(',')}]:${hexOf(t.data)}`;
  }
  throw new TypeError(`compute: cannot encode ${String(v)}`);
}

type Dist = Distributions.Distribution;
type Bij = Distributions.bijectors.Bijector;
type Nested = number | readonly Nested[];

// Fixed evaluation points, literals only: the harness itself must not call the engine's Math.
const REAL = [-1e10, -38.5, -5.5, -1, -0.3, -1e-300, 0, 1e-8, 0.25, 1, 2.5, 7, 38.5, 1e10];
const POSITIVE = [-1, 0, 1e-300, 1e-8, 0.1, 0.5, 1, 2.5, 10, 100, 1e6];
const UNIT = [0, 1e-300, 1e-10, 0.1, 0.5, 0.9, 1 - 1e-10, 1];
const COUNTS = [-1, 0, 1, 2, 3, 5, 10, 40];
const ANGLES = [-3, -1, -0.3, 0, 0.25, 1, 2.5, 3];
const PROBS = [1e-300, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-10];

/**
 * One case per distribution (more for alternative parameterisations); `covers` is the class name
 * checked against distributions/index.ts's exports. Scalar parameters are batched (three members)
 * where that is cheap, and scalar-event points are a column broadcast against the batch.
 */
interface DistCase {
  readonly covers: string;
  readonly label: string;
  readonly make: (D: typeof Distributions, t: typeof Core.tensor) => Dist;
  /** Points besides the distribution's own sample: scalars for scalar events, else whole events. */
  readonly x?: readonly Nested[];
  /** It has no sampler (an improper prior): only the points `x` are evaluated. */
  readonly noSample?: boolean;
}

const simplex3 = [[0.2, 0.3, 0.5], [1 / 3, 1 / 3, 1 / 3], [0.9, 0.05, 0.05], [1e-300, 0.5, 0.5]];
const corr3 = (a: number, b: number, c: number) => [[1, a, b], [a, 1, c], [b, c, 1]];

export const DIST_CASES: readonly DistCase[] = [
  { covers: 'Normal', label: 'Normal', x: REAL, make: (D) => new D.Normal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'Cauchy', label: 'Cauchy', x: REAL, make: (D) => new D.Cauchy({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'Laplace', label: 'Laplace', x: REAL, make: (D) => new D.Laplace({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'Logistic', label: 'Logistic', x: REAL, make: (D) => new D.Logistic({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'Gumbel', label: 'Gumbel', x: REAL, make: (D) => new D.Gumbel({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'LogNormal', label: 'LogNormal', x: POSITIVE, make: (D) => new D.LogNormal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'LogLogistic', label: 'LogLogistic', x: POSITIVE, make: (D) => new D.LogLogistic({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'HalfCauchy', label: 'HalfCauchy', x: REAL, make: (D) => new D.HalfCauchy({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'HalfNormal', label: 'HalfNormal', x: REAL, make: (D) => new D.HalfNormal({ scale: [1, 0.7, 3.3] }) },
  { covers: 'StudentT', label: 'StudentT', x: REAL, make: (D) => new D.StudentT({ df: [1, 3.5, 30], loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'HalfStudentT', label: 'HalfStudentT', x: REAL, make: (D) => new D.HalfStudentT({ df: [1, 3.5, 30], loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }) },
  { covers: 'TruncatedNormal', label: 'TruncatedNormal', x: REAL, make: (D) => new D.TruncatedNormal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3], low: [-1, 0, 5], high: [2, 3, 40] }) },
  { covers: 'VonMises', label: 'VonMises', x: ANGLES, make: (D) => new D.VonMises({ loc: [0, 1.3, -2.1], concentration: [1, 1e-3, 10.5] }) },
  { covers: 'Weibull', label: 'Weibull', x: POSITIVE, make: (D) => new D.Weibull({ concentration: [0.5, 1, 2.7], scale: [1, 0.3, 4.2] }) },
  { covers: 'Pareto', label: 'Pareto', x: POSITIVE, make: (D) => new D.Pareto({ concentration: [0.5, 1, 2.7], scale: [1, 0.3, 4.2] }) },
  { covers: 'GeneralizedPareto', label: 'GeneralizedPareto', x: REAL, make: (D) => new D.GeneralizedPareto({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3], concentration: [0, 0.5, -0.25] }) },
  { covers: 'InverseGaussian', label: 'InverseGaussian', x: POSITIVE, make: (D) => new D.InverseGaussian({ loc: [0.3, 1, 4.2], concentration: [0.5, 1, 2.7] }) },
  { covers: 'Kumaraswamy', label: 'Kumaraswamy', x: UNIT, make: (D) => new D.Kumaraswamy({ concentration1: [0.5, 1, 2.7], concentration0: [0.3, 1, 2.5] }) },
  { covers: 'Horseshoe', label: 'Horseshoe', x: REAL, make: (D) => new D.Horseshoe({ scale: [0.5, 1, 7] }) },
  { covers: 'Uniform', label: 'Uniform', x: REAL, make: (D) => new D.Uniform({ low: [0, -2.1, 0.25], high: [1, 3.3, 7] }) },
  { covers: 'Exponential', label: 'Exponential', x: POSITIVE, make: (D) => new D.Exponential({ rate: [0.3, 1, 4.2] }) },
  { covers: 'Gamma', label: 'Gamma', x: POSITIVE, make: (D) => new D.Gamma({ concentration: [0.5, 1, 2.7], rate: [1, 0.3, 4.2] }) },
  { covers: 'Gamma', label: 'Gamma(logRate)', x: POSITIVE, make: (D) => new D.Gamma({ concentration: [0.2, 4, 30], logRate: [-3, 0, 1.2] }) },
  { covers: 'InverseGamma', label: 'InverseGamma', x: POSITIVE, make: (D) => new D.InverseGamma({ concentration: [0.5, 1, 2.7], scale: [1, 0.3, 4.2] }) },
  { covers: 'Chi2', label: 'Chi2', x: POSITIVE, make: (D) => new D.Chi2({ df: [0.2, 2, 5.5] }) },
  { covers: 'Beta', label: 'Beta', x: UNIT, make: (D) => new D.Beta({ concentration1: [0.5, 1, 2.7], concentration0: [0.3, 1, 80] }) },
  { covers: 'Deterministic', label: 'Deterministic', x: REAL, make: (D) => new D.Deterministic({ loc: [0, 1, 7], atol: [0, 0.1, 0], rtol: [0, 0, 0.5] }) },
  { covers: 'Bernoulli', label: 'Bernoulli(logits)', x: COUNTS, make: (D) => new D.Bernoulli({ logits: [0, 1.3, -2.1] }) },
  { covers: 'Bernoulli', label: 'Bernoulli(probs)', x: COUNTS, make: (D) => new D.Bernoulli({ probs: [0.5, 0.3, 1e-3] }) },
  { covers: 'Geometric', label: 'Geometric(logits)', x: COUNTS, make: (D) => new D.Geometric({ logits: [0, 1.3, -2.1] }) },
  { covers: 'Geometric', label: 'Geometric(probs)', x: COUNTS, make: (D) => new D.Geometric({ probs: [0.5, 0.3, 0.05] }) },
  { covers: 'Poisson', label: 'Poisson', x: COUNTS, make: (D) => new D.Poisson({ rate: [0.3, 4.2, 40] }) },
  { covers: 'Poisson', label: 'Poisson(logRate)', x: COUNTS, make: (D) => new D.Poisson({ logRate: [-1, 1.5, 9] }) },
  { covers: 'Binomial', label: 'Binomial(probs)', x: COUNTS, make: (D) => new D.Binomial({ totalCount: [1, 5, 40], probs: [0.3, 0.5, 0.7] }) },
  { covers: 'Binomial', label: 'Binomial(logits)', x: COUNTS, make: (D) => new D.Binomial({ totalCount: [1, 5, 40], logits: [0, 1.3, -2.1] }) },
  { covers: 'NegativeBinomial', label: 'NegativeBinomial(probs)', x: COUNTS, make: (D) => new D.NegativeBinomial({ totalCount: [0.5, 5, 40], probs: [0.3, 0.5, 0.7] }) },
  { covers: 'NegativeBinomial', label: 'NegativeBinomial(logits)', x: COUNTS, make: (D) => new D.NegativeBinomial({ totalCount: [0.5, 5, 40], logits: [0, 1.3, -2.1] }) },
  { covers: 'BetaBinomial', label: 'BetaBinomial', x: COUNTS, make: (D) => new D.BetaBinomial({ totalCount: [5, 10, 40], concentration1: [0.5, 2, 30], concentration0: [2, 3, 0.1] }) },
  { covers: 'Categorical', label: 'Categorical(logits)', x: [-1, 0, 1, 2, 3, 4], make: (D) => new D.Categorical({ logits: [[0, 0, 0, 0], [1.3, -2.1, 0.5, 30], [-745, 0, -1e-12, 2]] }) },
  { covers: 'Categorical', label: 'Categorical(probs)', x: [-1, 0, 1, 2, 3, 4], make: (D) => new D.Categorical({ probs: [[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [1e-300, 0, 0.5, 0.5]] }) },
  { covers: 'OneHotCategorical', label: 'OneHotCategorical', x: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]], make: (D) => new D.OneHotCategorical({ logits: [1.3, -2.1, 0.5, 3] }) },
  { covers: 'Multinomial', label: 'Multinomial(probs)', x: [[2, 3, 5], [10, 0, 0], [0, 4, 6]], make: (D) => new D.Multinomial({ totalCount: 10, probs: [0.2, 0.3, 0.5] }) },
  { covers: 'Multinomial', label: 'Multinomial(logits)', x: [[2, 3, 5], [10, 0, 0], [0, 4, 6]], make: (D) => new D.Multinomial({ totalCount: 10, logits: [1.3, -2.1, 3] }) },
  { covers: 'DirichletMultinomial', label: 'DirichletMultinomial', x: [[2, 3, 5], [10, 0, 0], [0, 4, 6]], make: (D) => new D.DirichletMultinomial({ totalCount: 10, concentration: [0.5, 2, 30] }) },
  { covers: 'ZeroSumNormal', label: 'ZeroSumNormal', x: [[0, 0, 0], [1, -1, 0], [2.5, -3, 0.5]], make: (D) => new D.ZeroSumNormal({ scale: 1.7, eventSize: 3 }) },
  { covers: 'Dirichlet', label: 'Dirichlet', x: simplex3, make: (D) => new D.Dirichlet({ concentration: [0.5, 2, 30] }) },
  { covers: 'MultivariateNormalDiag', label: 'MultivariateNormalDiag', x: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40]], make: (D) => new D.MultivariateNormalDiag({ loc: [1.3, -2.1, 0.5], scaleDiag: [0.7, 3.3, 1e-3] }) },
  {
    covers: 'MultivariateNormalTriL', label: 'MultivariateNormalTriL', x: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40]],
    make: (D) => new D.MultivariateNormalTriL({ loc: [1.3, -2.1, 0.5], scaleTril: [[0.7, 0, 0], [0.3, 3.3, 0], [-1.1, 0.2, 0.5]] }),
  },
  {
    covers: 'GaussianProcess', label: 'GaussianProcess(MaternFiveHalves)', x: [[0, 0, 0], [1, -2, 3.5], [0.3, 0.2, -0.1]],
    make: (D) => new D.GaussianProcess({ kernel: new D.psdKernels.MaternFiveHalves({ amplitude: 1.5, lengthScale: 0.8 }), indexPoints: [[0], [0.5], [1.3]], observationNoiseVariance: 0.1 }),
  },
  {
    covers: 'GaussianProcessRegressionModel', label: 'GaussianProcessRegressionModel(MaternFiveHalves)', x: [[0, 0, 0], [1, -2, 3.5], [0.3, 0.2, -0.1]],
    make: (D) => new D.GaussianProcessRegressionModel({
      kernel: new D.psdKernels.MaternFiveHalves({ amplitude: 1.5, lengthScale: 0.8 }), indexPoints: [[0.2], [0.9], [1.6]],
      observationIndexPoints: [[0], [0.5], [1.3]], observations: [0.4, -0.3, 1.1], observationNoiseVariance: 0.1,
    }),
  },
  { covers: 'ImproperUniform', label: 'ImproperUniform(low, high)', x: REAL, noSample: true, make: (D) => new D.ImproperUniform({ low: [-1, 0, 2], high: 5 }) },
  { covers: 'LKJ', label: 'LKJ', x: [corr3(0, 0, 0), corr3(0.3, -0.2, 0.5), corr3(0.9, -0.9, 0.9)], make: (D) => new D.LKJ({ dimension: 3, concentration: 2.7 }) },
  { covers: 'LKJ', label: 'LKJ(cholesky)', make: (D) => new D.LKJ({ dimension: 3, concentration: 0.5, inputOutputCholesky: true }) },
  { covers: 'Independent', label: 'Independent(Normal)', x: [[0, 0, 0], [1, -2, 3.5]], make: (D) => new D.Independent({ distribution: new D.Normal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }), reinterpretedBatchNdims: 1 }) },
  { covers: 'Sample', label: 'Sample(Gamma)', x: [[0.5, 1, 2], [1e-300, 3, 1e6]], make: (D) => new D.Sample({ distribution: new D.Gamma({ concentration: 2.7, rate: 0.3 }), sampleShape: 3 }) },
  {
    covers: 'TransformedDistribution', label: 'TransformedDistribution(Normal, Chain[Shift, Scale, Exp])', x: POSITIVE,
    make: (D) => new D.TransformedDistribution({
      distribution: new D.Normal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }),
      bijector: new D.bijectors.Chain({ bijectors: [new D.bijectors.Shift({ shift: 0.5 }), new D.bijectors.Scale({ scale: 3 }), new D.bijectors.Exp()] }),
    }),
  },
  {
    covers: 'MixtureSameFamily', label: 'MixtureSameFamily(Normal)', x: REAL,
    make: (D) => new D.MixtureSameFamily({ mixtureDistribution: new D.Categorical({ logits: [1.3, -2.1, 3] }), componentsDistribution: new D.Normal({ loc: [-2.1, 1e3, 0.1], scale: [3.3, 1e-3, 1e5] }) }),
  },
  {
    covers: 'Mixture', label: 'Mixture(Normal, Gamma)', x: REAL,
    make: (D) => new D.Mixture({ cat: new D.Categorical({ logits: [1.3, -2.1] }), components: [new D.Normal({ loc: -2.1, scale: 3.3 }), new D.Gamma({ concentration: 0.5, rate: 4.2 })] }),
  },
  {
    covers: 'HiddenMarkovModel', label: 'HiddenMarkovModel', x: [[0, 0, 0], [-2, 0.5, 15]],
    make: (D) => new D.HiddenMarkovModel({
      initialDistribution: new D.Categorical({ logits: [1.3, -2.1] }),
      transitionDistribution: new D.Categorical({ logits: [[0.5, -1], [-2, 0]] }),
      observationDistribution: new D.Normal({ loc: [-2, 10], scale: [0.5, 3] }),
      numSteps: 3,
    }),
  },
  {
    covers: 'OrderedLogistic', label: 'OrderedLogistic', x: [-1, 0, 1, 2, 3, 4],
    make: (D) => new D.OrderedLogistic({ cutpoints: [[-1, 0.5, 2], [-3, -2.9, 4], [0, 1, 1.5]], loc: [0.3, 7.5, -1] }),
  },
  { covers: 'CholeskyLKJ', label: 'CholeskyLKJ', make: (D) => new D.CholeskyLKJ({ dimension: 3, concentration: [0.5, 2.7] }) },
  {
    covers: 'MultivariateStudentTLinearOperator', label: 'MultivariateStudentTLinearOperator', x: [[0, 0, 0], [1, -2, 3.5], [1e3, 1e-3, -40]],
    make: (D) => new D.MultivariateStudentTLinearOperator({ df: [0.8, 3, 30], loc: [1.3, -2.1, 0.5], scaleTril: [[0.7, 0, 0], [0.3, 3.3, 0], [-1.1, 0.2, 0.5]] }),
  },
  { covers: 'Inflated', label: 'Inflated(Poisson)', x: COUNTS, make: (D) => new D.Inflated({ distribution: new D.Poisson({ rate: [0.3, 4.2, 40] }), inflatedLocProbs: 0.2 }) },
  {
    covers: 'Inflated', label: 'Inflated(Normal, logits)', x: REAL,
    make: (D) => new D.Inflated({ distribution: new D.Normal({ loc: [0, 1.3, -2.1], scale: [1, 0.7, 3.3] }), inflatedLocLogits: [0.3, -1, 2], inflatedLoc: [0, 1, -1e-300] }),
  },
];

/** One case per bijector (more for options): a point `x` in its domain, mapped forward and back. */
interface BijCase {
  readonly covers: string;
  readonly label: string;
  readonly make: (B: typeof Distributions.bijectors) => Bij;
  readonly x: Nested;
}

export const BIJECTOR_CASES: readonly BijCase[] = [
  { covers: 'Exp', label: 'Exp', make: (B) => new B.Exp(), x: REAL.slice(1, -1) },
  { covers: 'Log', label: 'Log', make: (B) => new B.Log(), x: POSITIVE.slice(2) },
  { covers: 'Identity', label: 'Identity', make: (B) => new B.Identity(), x: REAL },
  { covers: 'Reciprocal', label: 'Reciprocal', make: (B) => new B.Reciprocal(), x: POSITIVE.slice(2) },
  { covers: 'Scale', label: 'Scale', make: (B) => new B.Scale({ scale: [0.7, 3.3] }), x: [[1, -2], [0.25, 7]] },
  { covers: 'Scale', label: 'Scale(logScale)', make: (B) => new B.Scale({ logScale: [-0.3, 2.5] }), x: [[1, -2], [0.25, 7]] },
  { covers: 'Shift', label: 'Shift', make: (B) => new B.Shift({ shift: [1.3, -2.1] }), x: [[1, -2], [0.25, 7]] },
  { covers: 'Sigmoid', label: 'Sigmoid', make: (B) => new B.Sigmoid(), x: [-38.5, -5.5, -1, -0.3, 0, 1e-8, 0.25, 1, 2.5, 7, 30] },
  { covers: 'Sigmoid', label: 'Sigmoid(low, high)', make: (B) => new B.Sigmoid({ low: -1, high: 3.3 }), x: [-5.5, -1, 0, 0.25, 2.5, 7] },
  { covers: 'Softplus', label: 'Softplus', make: (B) => new B.Softplus(), x: [-38.5, -5.5, -1, -0.3, 0, 1e-8, 0.25, 1, 2.5, 7, 38.5] },
  { covers: 'Softplus', label: 'Softplus(hingeSoftness, low)', make: (B) => new B.Softplus({ hingeSoftness: 0.7, low: 0.1 }), x: [-5.5, -1, 0, 0.25, 2.5, 7] },
  { covers: 'SumToZero', label: 'SumToZero', make: (B) => new B.SumToZero(), x: [[0, 0], [1.3, -2.1], [-30, 7]] },
  { covers: 'SoftmaxCentered', label: 'SoftmaxCentered', make: (B) => new B.SoftmaxCentered(), x: [[0, 0, 0], [1.3, -2.1, 0.5], [-30, 7, 2.5]] },
  { covers: 'FillTriangular', label: 'FillTriangular', make: (B) => new B.FillTriangular(), x: [[1, -2, 0.5, 3.5, 0.25, 7], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]] },
  { covers: 'FillTriangular', label: 'FillTriangular(upper)', make: (B) => new B.FillTriangular({ upper: true }), x: [[1, -2, 0.5, 3.5, 0.25, 7]] },
  { covers: 'FillScaleTriL', label: 'FillScaleTriL', make: (B) => new B.FillScaleTriL(), x: [[1, -2, 0.5, 3.5, 0.25, 7], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]] },
  { covers: 'FillScaleTriL', label: 'FillScaleTriL(Exp, diagShift)', make: (B) => new B.FillScaleTriL({ diagBijector: new B.Exp(), diagShift: 1e-3 }), x: [[1, -2, 0.5, 3.5, 0.25, 7]] },
  { covers: 'CorrelationCholesky', label: 'CorrelationCholesky', make: (B) => new B.CorrelationCholesky(), x: [[0, 0, 0], [1.3, -2.1, 0.5], [7, -0.3, 2.5]] },
  { covers: 'TransformDiagonal', label: 'TransformDiagonal(Softplus)', make: (B) => new B.TransformDiagonal({ diagBijector: new B.Softplus() }), x: [[[1, 0], [0.5, -2]], [[-0.3, 0], [7, 2.5]]] },
  { covers: 'Invert', label: 'Invert(Sigmoid)', make: (B) => new B.Invert({ bijector: new B.Sigmoid() }), x: UNIT.slice(1, -1) },
  {
    covers: 'Chain', label: 'Chain(Shift, Scale, Softplus)', make: (B) => new B.Chain({ bijectors: [new B.Shift({ shift: 0.5 }), new B.Scale({ scale: 3 }), new B.Softplus()] }),
    x: [-5.5, -1, -0.3, 0, 0.25, 1, 2.5, 7],
  },
  { covers: 'Chain', label: 'Chain(Exp, Log)', make: (B) => new B.Chain({ bijectors: [new B.Exp(), new B.Log()] }), x: POSITIVE.slice(2) },
  { covers: 'Ascending', label: 'Ascending', make: (B) => new B.Ascending(), x: [[0, 0, 0], [1.3, -2.1, 0.5], [-30, 7, 2.5]] },
  { covers: 'PositiveOrdered', label: 'PositiveOrdered', make: (B) => new B.PositiveOrdered(), x: [[0, 0, 0], [1.3, -2.1, 0.5], [-30, 7, 2.5]] },
  { covers: 'Power', label: 'Power(2.7)', make: (B) => new B.Power({ power: 2.7 }), x: POSITIVE.slice(2) },
  { covers: 'Power', label: 'Power(3)', make: (B) => new B.Power({ power: 3 }), x: [-5.5, -1, -0.3, 0.25, 1, 2.5, 7] },
  { covers: 'Tanh', label: 'Tanh', make: (B) => new B.Tanh(), x: [-19, -5.5, -1, -0.3, 0, 1e-8, 0.25, 1, 2.5, 7] },
  { covers: 'NormalCDF', label: 'NormalCDF', make: (B) => new B.NormalCDF(), x: [-37, -5.5, -1, -0.3, 0, 1e-8, 0.25, 1, 2.5, 7] },
  { covers: 'CholeskyOuterProduct', label: 'CholeskyOuterProduct', make: (B) => new B.CholeskyOuterProduct(), x: [[[1.5, 0], [0.3, 0.7]], [[2, 0], [-1.1, 3.3]]] },
  { covers: 'ScaleMatvecTriL', label: 'ScaleMatvecTriL', make: (B) => new B.ScaleMatvecTriL({ scaleTril: [[0.7, 0], [0.3, 3.3]] }), x: [[1, -2], [0.25, 7]] },
  { covers: 'ScaleMatvecTriL', label: 'ScaleMatvecTriL(adjoint)', make: (B) => new B.ScaleMatvecTriL({ scaleTril: [[0.7, 0], [0.3, 3.3]], adjoint: true }), x: [[1, -2], [0.25, 7]] },
  { covers: 'Reshape', label: 'Reshape', make: (B) => new B.Reshape({ eventShapeOut: [3, 2], eventShapeIn: [6] }), x: [[1, -2, 0.5, 3.5, 0.25, 7]] },
];

/** Generator methods that are internal helpers, not NumPy's API (they need no case). */
const GENERATOR_INTERNAL = new Set(['constructor', 'toString']);
/** `random` exports that are not samplers (covered in the `keys` group). */
const RANDOM_NOT_SAMPLERS = new Set(['KeyArray', 'key', 'split', 'foldIn', 'keyData', 'wrapKeyData', 'keyImpl', 'bits']);

/**
 * Runs the workload and returns `group:name` → encoded result, in the groups `keys`, `random`,
 * `samplers`, `compat`, `generator`, `tensor`, `distributions`, `bijectors`, `compiled`, `nuts`
 * and `windowed`. `_wasmActive` records whether the WebAssembly kernels were in use, and
 * `_uncovered` lists exported samplers, Generator methods, distributions and bijectors that
 * have no case here (the tests require it to be empty, so coverage stays complete).
 */
export function compute(lib: Lib): Record<string, string> {
  const { random, samplers, compat, configure, getModes, defaultRng, prng, tensor, add, mul, expandDims, sum, valueAndGrad } = lib.stochax;
  const D = lib.distributions;
  const M = lib.mcmc;
  const out: Record<string, string> = {};
  let group = '';
  const put = (name: string, v: unknown) => { out[`${group}:${name}`] = enc(v); };
  const saved = getModes();
  const uncovered: string[] = [];
  /** Tries an optional method: NotImplementedError is recorded as such, anything else throws. */
  const tryPut = (name: string, f: () => unknown) => {
    let v: unknown;
    try { v = f(); } catch (e) {
      if ((e as Error)?.name !== 'NotImplementedError') throw e;
      v = 'NotImplementedError';
    }
    put(name, v);
  };

  // ---- keys, split, foldIn, bits and samplers in all four modes --------------------------------
  group = 'keys';
  for (const x64 of [true, false]) {
    for (const threefryPartitionable of [true, false]) {
      configure({ x64, threefryPartitionable });
      const m = `${x64 ? 'x64' : 'x32'}/${threefryPartitionable ? 'part' : 'nopart'}`;
      const key = random.key(42);
      put(`${m}/key`, random.keyData(key));
      put(`${m}/key(2^40+7)`, random.keyData(random.key(2 ** 40 + 7)));
      const [k1, k2] = random.split(key);
      put(`${m}/split`, random.keyData(random.split(key, 5)));
      put(`${m}/split[2,3]`, random.keyData(random.split(k1!, [2, 3])));
      put(`${m}/foldIn`, random.keyData(random.foldIn(k2!, 1234567)));
      put(`${m}/bits`, random.bits(k1!, [3, 7]));
      put(`${m}/bits-u32-1000`, random.bits(k1!, [1000], { dtype: 'uint32' }));
      put(`${m}/bits-u8`, random.bits(k2!, [33], { dtype: 'uint8' }));
      group = 'random';
      put(`${m}/uniform`, random.uniform(k1!, [257]));
      put(`${m}/uniform-f32`, random.uniform(k2!, [50], { dtype: 'float32' }));
      put(`${m}/normal`, random.normal(k1!, [1001]));
      put(`${m}/normal-f32`, random.normal(k2!, [99], { dtype: 'float32' }));
      put(`${m}/randint`, random.randint(k1!, [40], -5, 1000));
      put(`${m}/gamma`, random.gamma(k2!, tensor([0.3, 1, 2.5, 17]), [25, 4]));
      put(`${m}/poisson`, random.poisson(k1!, tensor([0.5, 4, 30, 400]), [10, 4]));
      put(`${m}/permutation`, random.permutation(k2!, 50));
      group = 'keys';
      const pk = random.key(7, { impl: 'philox4x32' });
      put(`${m}/philox-key`, random.keyData(pk));
      put(`${m}/philox-split`, random.keyData(random.split(pk, 3)));
      group = 'random';
      put(`${m}/philox-uniform`, random.uniform(random.foldIn(pk, 3), [130]));
      group = 'keys';
    }
  }
  configure({ x64: saved.x64, threefryPartitionable: saved.partitionable });

  // ---- every stateless sampler (x64, partitionable: the defaults) ------------------------------
  group = 'random';
  const keys = random.split(random.key(2024), 40);
  let i = 0;
  const k = () => keys.at(i++);
  put('bernoulli', random.bernoulli(k(), 0.3, [64]));
  put('categorical', random.categorical(k(), tensor([[0, 1, 2], [3, -1, 0]]), { axis: -1, shape: [5, 2] }));
  put('gumbel', random.gumbel(k(), [64]));
  put('exponential', random.exponential(k(), [64]));
  put('loggamma', random.loggamma(k(), 0.2, [64]));
  put('beta', random.beta(k(), 0.5, 3, [64]));
  put('dirichlet', random.dirichlet(k(), tensor([0.5, 1, 4]), [10]));
  put('binomial', random.binomial(k(), 20, 0.3, [64]));
  put('multinomial', random.multinomial(k(), 50, tensor([0.2, 0.3, 0.5]), { shape: [4, 3] }));
  put('choice', random.choice(k(), 100, [10], { replace: false }));
  put('truncatedNormal', random.truncatedNormal(k(), -1, 2, [64]));
  put('multivariateNormal', random.multivariateNormal(k(), tensor([1, -1]), tensor([[2, 0.5], [0.5, 1]]), [16]));
  put('laplace', random.laplace(k(), [64]));
  put('logistic', random.logistic(k(), [64]));
  put('cauchy', random.cauchy(k(), [64]));
  put('t', random.t(k(), 3.5, [64]));
  put('chisquare', random.chisquare(k(), 4, [64]));
  put('f', random.f(k(), 3, 7, [64]));
  put('pareto', random.pareto(k(), 2, [64]));
  put('weibullMin', random.weibullMin(k(), 1.5, 2, [64]));
  put('rayleigh', random.rayleigh(k(), 2, [64]));
  put('maxwell', random.maxwell(k(), [64]));
  put('doubleSidedMaxwell', random.doubleSidedMaxwell(k(), 0, 1, [64]));
  put('rademacher', random.rademacher(k(), [64]));
  put('geometric', random.geometric(k(), 0.2, [64]));
  put('lognormal', random.lognormal(k(), 0.5, [64]));
  put('triangular', random.triangular(k(), 0, 1, 3, [64]));
  put('wald', random.wald(k(), 2, [64]));
  put('generalizedNormal', random.generalizedNormal(k(), 1.5, [64]));
  put('ball', random.ball(k(), 3, 2, [8]));
  put('orthogonal', random.orthogonal(k(), 4));
  put('uniform-big', random.uniform(k(), [100_000]));       // long wasm fills, several chunks
  put('normal-big', random.normal(k(), [50_000]));
  // float32 and small-parameter paths, where the samplers take other branches
  put('gamma-small-f32', random.gamma(k(), tensor([1e-3, 0.05, 0.9]), [20, 3], { dtype: 'float32' }));
  put('beta-f32', random.beta(k(), 2, 0.3, [64], { dtype: 'float32' }));
  put('exponential-f32', random.exponential(k(), [64], { dtype: 'float32' }));
  put('poisson-big', random.poisson(k(), tensor([1e4, 1e7]), [20, 2]));
  put('binomial-big', random.binomial(k(), 1e6, 0.3, [32]));
  {
    const names = new Set(Object.keys(out).filter((n) => n.startsWith('random:')).map((n) => n.slice(7).split('/').pop()!.split('-')[0]!));
    for (const s of Object.keys(random)) if (!RANDOM_NOT_SAMPLERS.has(s) && !names.has(s)) uncovered.push(`random.${s}`);
  }

  group = 'samplers';
  // ---- samplers (TFP) with salts --------------------------------------------------------------
  put('samplers.sanitizeSeed', samplers.sanitizeSeed(5));
  put('samplers.sanitizeSeed-salt', samplers.sanitizeSeed(5, { salt: 'mcmc.sample_chain' }));
  put('samplers.sanitizeSeed-pair', samplers.sanitizeSeed([3, 9], { salt: 'Normal' }));
  put('samplers.splitSeed', samplers.splitSeed(11, { n: 4, salt: 'gamma' }).map((s) => random.keyData(s).data.join(',')).join(';'));
  put('samplers.foldIn-str', samplers.foldIn(1, 'JointDistribution'));
  put('samplers.foldIn-int', samplers.foldIn(1, 77));
  put('samplers.getIntegerSeed', samplers.getIntegerSeed(123));
  put('samplers.zerosSeed', random.keyData(samplers.zerosSeed()));
  put('samplers.cloneSeed', random.keyData(samplers.cloneSeed([7, 8])));
  put('samplers.normal', samplers.normal([33], { seed: samplers.sanitizeSeed(8, { salt: 'normal' }), mean: 1, stddev: 2 }));
  put('samplers.uniform', samplers.uniform([33], { seed: 9, minval: -1, maxval: 4 }));
  put('samplers.gamma', samplers.gamma([20], { alpha: [0.5, 3], beta: 2, seed: 10 }));
  put('samplers.poisson', samplers.poisson([20], { lam: [1, 50], seed: 11 }));
  put('samplers.categorical', samplers.categorical([[0, 0, 5], [5, 0, 0]], 9, { seed: 12 }));
  put('samplers.shuffle', samplers.shuffle(Array.from({ length: 30 }, (_, j) => j), { seed: 13 }));
  samplers.setGlobalSeed(99);
  put('samplers.global', samplers.normal([5]));

  group = 'compat';
  // ---- compat -----------------------------------------------------------------------------------
  const tf = compat.tensorflow;
  const kc = tf.statelessRandomGetKeyCounter([1, 2]);
  put('tf.statelessRandomGetKeyCounter', enc(kc.key) + enc(kc.counter));
  put('tf.statelessUniform', tf.statelessUniform([40], [1, 2]));
  put('tf.statelessUniform-f64', tf.statelessUniform([40], [1, 2], { dtype: 'float64' }));
  put('tf.statelessUniform-f16', tf.statelessUniform([40], [1, 2], { dtype: 'float16' }));
  put('tf.statelessUniform-bf16', tf.statelessUniform([40], [1, 2], { dtype: 'bfloat16' }));
  put('tf.statelessUniformFullInt', tf.statelessUniformFullInt([40], [5, 6]));
  put('tf.statelessUniformFullInt-u64', tf.statelessUniformFullInt([20], [5, 6], { dtype: 'uint64' }));
  put('tf.statelessNormal', tf.statelessNormal([40], [3, 4]));
  put('tf.statelessNormal-f64', tf.statelessNormal([40], [3, 4], { dtype: 'float64' }));
  put('tf.statelessTruncatedNormal', tf.statelessTruncatedNormal([40], [3, 4]));
  put('tf.statelessTruncatedNormal-f64', tf.statelessTruncatedNormal([40], [3, 4], { dtype: 'float64' }));
  put('tf.statelessSplit', tf.statelessSplit([1, 2], 3));
  put('tf.statelessFoldIn', tf.statelessFoldIn([1, 2], 17));
  for (const outputType of compat.openvino.OUTPUT_TYPES) {
    const int = outputType === 'i32' || outputType === 'i64';
    put(`ov.randomUniform-${outputType}`, compat.openvino.randomUniform({ shape: [50], outputType, minval: int ? -100 : -2.5, maxval: int ? 100 : 4, globalSeed: 1, opSeed: 2 }));
  }

  group = 'generator';
  // ---- the stateful Generator: every NumPy method ------------------------------------------------
  const g = defaultRng(1701);
  const gen = g as unknown as Record<string, (...a: unknown[]) => unknown>;
  const genCovered = new Set<string>();
  const gput = (method: string, label: string, ...args: unknown[]) => { genCovered.add(method); put(`gen.${label}`, gen[method]!.apply(g, args)); };
  gput('random', 'random-scalar');
  gput('random', 'random', 500);
  gput('random', 'random-f32', [40], { dtype: 'float32' });
  gput('uniform', 'uniform', -1, 4, [40]);
  gput('normal', 'normal', 1, 2, [40]);
  gput('standardNormal', 'standardNormal', [40]);
  gput('standardNormal', 'standardNormal-f32', [40], { dtype: 'float32' });
  gput('integers', 'integers', 0, 1000, [40]);
  gput('integers', 'integers-big', 0n, 2n ** 62n, [10], { dtype: 'int64' });
  gput('bytes', 'bytes', 16);
  gput('choice', 'choice', 20, [5], { replace: false });
  gput('choice', 'choice-p', 5, [20], { p: [0.1, 0.2, 0.3, 0.15, 0.25] });
  const shuffled = Array.from({ length: 20 }, (_, j) => j);
  g.shuffle(shuffled); genCovered.add('shuffle');
  put('gen.shuffle', Float64Array.from(shuffled));
  gput('permuted', 'permuted', tensor([[1, 2, 3], [4, 5, 6]]), { axis: 1 });
  gput('permutation', 'permutation', 25);
  gput('exponential', 'exponential', 2, [40]);
  gput('standardExponential', 'standardExponential', [40]);
  gput('gamma', 'gamma', 2.5, 1, [40]);
  gput('gamma', 'gamma-small', 0.05, 3, [40]);
  gput('standardGamma', 'standardGamma', 0.3, [40]);
  gput('beta', 'beta', 0.5, 0.5, [40]);
  gput('laplace', 'laplace', 0, 1, [40]);
  gput('logistic', 'logistic', 0, 1, [40]);
  gput('lognormal', 'lognormal', 0, 1, [40]);
  gput('chisquare', 'chisquare', 3, [40]);
  gput('standardT', 'standardT', 3, [40]);
  gput('standardCauchy', 'standardCauchy', [40]);
  gput('pareto', 'pareto', 2, [40]);
  gput('weibull', 'weibull', 1.5, [40]);
  gput('rayleigh', 'rayleigh', 2, [40]);
  gput('triangular', 'triangular', 0, 1, 3, [40]);
  gput('wald', 'wald', 2, 1, [40]);
  gput('f', 'f', 3, 7, [40]);
  gput('binomial', 'binomial', 30, 0.4, [40]);
  gput('poisson', 'poisson', 7, [40]);
  gput('poisson', 'poisson-big', 5000, [40]);
  gput('geometric', 'geometric', 0.2, [40]);
  gput('multinomial', 'multinomial', 20, [0.2, 0.3, 0.5], [4]);
  gput('dirichlet', 'dirichlet', [1, 2, 3], [4]);
  gput('multivariateNormal', 'multivariateNormal', [1, -1], [[2, 0.5], [0.5, 1]], [8]);
  put('gen.key', random.keyData(g.key())); genCovered.add('key');
  const kids = g.split(3); genCovered.add('split').add('at').add('map');
  put('gen.split', kids.map((c) => enc(c.normal(0, 1, [3]))).join(';'));
  put('gen.at', kids.at(1).random(4));
  const spawned = g.spawn(2); genCovered.add('spawn');
  put('gen.spawn', spawned.map((c) => enc(c.random(3))).join(';'));
  put('gen.toJSON', JSON.stringify(g.toJSON())); genCovered.add('toJSON');
  for (let p = Object.getPrototypeOf(g); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) {
      if (typeof Object.getOwnPropertyDescriptor(p, n)!.value === 'function' && !GENERATOR_INTERNAL.has(n) && !genCovered.has(n)) uncovered.push(`Generator.${n}`);
    }
  }

  group = 'tensor';
  // ---- tensor ops (special functions included) and their gradients -----------------------------
  const ops = lib.stochax as unknown as Record<string, (...a: unknown[]) => Core.Tensor>;
  const xr = tensor([-30, -5.5, -1, -0.3, -1e-8, 0, 1e-8, 0.25, 1, 2.5, 7, 30]);
  const xp = tensor([1e-300, 1e-8, 0.1, 0.5, 1, 2.5, 10, 100, 1e6]);
  const xp2 = tensor([2.5, 0.3, 7, 1, 0.5, 40, 1e-3, 3, 0.9]);
  const xu = tensor([1e-10, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1 - 1e-10]);
  const unary: ReadonlyArray<readonly [string, Core.Tensor]> = [
    ['exp', xr], ['expm1', xr], ['log', xp], ['log1p', xp], ['sigmoid', xr], ['softplus', xr], ['logSigmoid', xr],
    ['tanh', xr], ['sin', xr], ['cos', xr], ['sqrt', xp], ['erf', xr], ['erfc', xr], ['erfinv', tensor([-0.999999, -0.5, 0, 0.3, 0.9, 0.999999])],
    ['lgamma', xp], ['digamma', xp], ['trigamma', xp], ['log1mexp', tensor([-1e-8, -0.1, -0.7, -1, -5, -40])],
  ];
  for (const [name, x] of unary) {
    put(name, ops[name]!(x));
    put(`${name}.grad`, valueAndGrad((v: Core.Tensor) => sum(ops[name]!(v)))(x)[1]);
  }
  const binary: ReadonlyArray<readonly [string, Core.Tensor, Core.Tensor]> = [
    ['pow', xp, xp2], ['pow', xr, tensor(3)], ['xlogy', xp2, xp], ['xlog1py', xp2, xp], ['logaddexp', xr, tensor(0.5)],
    ['lbeta', xp2, xp], ['igamma', xp2, xp], ['igammac', xp2, xp],
  ];
  for (const [name, a, b] of binary) {
    put(`${name}(${a.shape},${b.shape})`, ops[name]!(a, b));
    put(`${name}(${a.shape},${b.shape}).grad`, valueAndGrad((u: Core.Tensor, v: Core.Tensor) => sum(ops[name]!(u, v)), [0, 1])(a, b)[1] as never);
  }
  put('betainc', ops.betainc!(xp2, tensor([3, 0.5, 1, 2.5, 0.9, 1e3, 2, 0.1, 5]), xu));
  put('logsumexp', ops.logsumexp!(xr));
  put('cumlogsumexp', ops.cumlogsumexp!(xr));
  const spd = tensor([[4, 1.2, -0.5], [1.2, 3, 0.7], [-0.5, 0.7, 2]]);
  const chol = ops.cholesky!(spd);
  put('cholesky', chol);
  put('logDet', ops.logDet!(chol));
  put('inv', ops.inv!(spd));
  put('choleskySolve', ops.choleskySolve!(chol, tensor([[1], [-2], [0.5]])));
  const eig = (lib.stochax.eigh as (a: Core.Tensor) => { values: Core.Tensor; vectors: Core.Tensor })(spd);
  put('eigh.values', eig.values);
  put('eigh.vectors', eig.vectors);

  group = 'distributions';
  // ---- every distribution: sample, logProb, the cdf family and quantile ------------------------
  const col = (xs: readonly Nested[]) => tensor(xs.map((v) => [v]) as never);
  type Method = 'cdf' | 'logCdf' | 'survivalFunction' | 'logSurvivalFunction';
  const CDFS: readonly Method[] = ['cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'];
  for (const c of DIST_CASES) {
    const d = c.make(D, tensor);
    const s = c.noSample === true ? undefined : d.sample([4], { seed: 31 });
    if (s !== undefined) put(`${c.label}.sample`, s);
    const scalarEvent = d.eventShape.length === 0;
    const points: Array<readonly [string, Core.Tensor]> = s === undefined ? [] : [['sample', s]];
    if (c.x !== undefined) points.push(['x', scalarEvent ? col(c.x) : tensor(c.x as never)]);
    for (const [pn, x] of points) {
      put(`${c.label}.logProb(${pn})`, d.logProb(x));
      for (const m of CDFS) tryPut(`${c.label}.${m}(${pn})`, () => d[m](x));
    }
    if (scalarEvent) tryPut(`${c.label}.quantile`, () => d.quantile(col(PROBS)));
  }
  {
    const covered = new Set(DIST_CASES.map((c) => c.covers));
    for (const [n, v] of Object.entries(D)) {
      if (typeof v === 'function' && n !== 'Distribution' && v.prototype instanceof D.Distribution && !covered.has(n)) uncovered.push(`distributions.${n}`);
    }
  }

  // Eight schools (non-centered), as in test/mcmc/eight-schools.test.ts.
  const y = tensor([28, 8, -3, 7, -1, 1, 18, 12]);
  const sigma = tensor([15, 10, 16, 11, 9, 11, 10, 18]);
  const schools = new D.JointDistributionNamed({
    mu: new D.Normal({ loc: 0, scale: 5 }),
    tau: new D.HalfCauchy({ loc: 0, scale: 5 }),
    thetaTilde: new D.Sample({ distribution: new D.Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
    y: (mu: Core.Tensor, tau: Core.Tensor, thetaTilde: Core.Tensor) => new D.Independent({
      distribution: new D.Normal({ loc: add(expandDims(mu, -1), mul(expandDims(tau, -1), thetaTilde)), scale: sigma }),
      reinterpretedBatchNdims: 1,
    }),
  }, { name: 'EightSchoolsNonCentered' });
  const draw = schools.sample([3], { seed: 5 }) as Record<string, Core.Tensor>;
  for (const n of ['mu', 'tau', 'thetaTilde', 'y']) put(`JointDistributionNamed.sample.${n}`, draw[n]);
  put('JointDistributionNamed.logProb', schools.logProb(draw));
  const pinnedSchools = schools.experimentalPin({ y });
  put('JointDistributionPinned.unnormalizedLogProb', pinnedSchools.unnormalizedLogProb({ mu: draw.mu, tau: draw.tau, thetaTilde: draw.thetaTilde }));
  // Logistic regression: Bernoulli logits from a linear predictor (softplus in the density).
  const X = tensor([[1, 0.5], [-0.3, 2], [0.7, -1.2], [2.5, 0.1], [-1.1, -0.4]]);
  const yb = tensor([1, 0, 1, 1, 0]);
  const logit = new D.JointDistributionSequential([
    new D.Normal({ loc: 0, scale: 5 }),
    new D.Sample({ distribution: new D.Normal({ loc: 0, scale: 2 }), sampleShape: 2 }),
    (beta: Core.Tensor, alpha: Core.Tensor) => new D.Independent({
      distribution: new D.Bernoulli({ logits: add(expandDims(alpha, -1), sum(mul(expandDims(beta, -2), X), -1)) }),
      reinterpretedBatchNdims: 1,
    }),
  ]);
  const ld0 = logit.sample([3], { seed: 6 }) as Core.Tensor[];
  ld0.forEach((t, j) => put(`JointDistributionSequential.sample.${j}`, t));
  put('JointDistributionSequential.logProb', logit.logProb(ld0 as never));
  const coroutine = new D.JointDistributionCoroutine(function* (): Distributions.CoroutineModel {
    const m: Core.Tensor = yield D.Root(new D.Normal({ loc: 0, scale: 10, name: 'm' }));
    const s: Core.Tensor = yield D.Root(new D.HalfNormal({ scale: 1, name: 's' }));
    yield new D.Sample({ distribution: new D.StudentT({ df: 4, loc: m, scale: s }), sampleShape: 4, name: 'obs' });
  });
  const cd = coroutine.sample([3], { seed: 7 }) as unknown as Record<string, Core.Tensor>;   // a struct or a list
  for (const [n, t] of Object.entries(cd)) put(`JointDistributionCoroutine.sample.${n}`, t);
  put('JointDistributionCoroutine.logProb', coroutine.logProb(cd as never));
  for (const n of Object.keys(D)) {
    if (n.startsWith('JointDistribution') && n !== 'JointDistribution' && !Object.keys(out).some((o) => o.startsWith(`distributions:${n}.`))) uncovered.push(`distributions.${n}`);
  }

  group = 'bijectors';
  // ---- every bijector: forward, inverse, both log-det-Jacobians ---------------------------------
  const B = D.bijectors;
  for (const c of BIJECTOR_CASES) {
    const b = c.make(B);
    const x = tensor(c.x as never);
    const fy = b.forward(x);
    put(`${c.label}.forward`, fy);
    put(`${c.label}.inverse`, b.inverse(fy));
    put(`${c.label}.forwardLogDetJacobian`, b.forwardLogDetJacobian(x));
    put(`${c.label}.inverseLogDetJacobian`, b.inverseLogDetJacobian(fy));
  }
  {
    const jm = new B.JointMap({ bijectors: { a: new B.Exp(), b: new B.Sigmoid(), c: new B.SoftmaxCentered() } });
    const x = { a: tensor([-1, 0.25, 2.5]), b: tensor([-5.5, 0, 1]), c: tensor([1.3, -2.1]) };
    const fy = jm.forward(x) as Record<string, Core.Tensor>;
    const back = jm.inverse(fy as never) as Record<string, Core.Tensor>;
    for (const n of ['a', 'b', 'c']) { put(`JointMap.forward.${n}`, fy[n]); put(`JointMap.inverse.${n}`, back[n]); }
    put('JointMap.forwardLogDetJacobian', jm.forwardLogDetJacobian(x));
    put('JointMap.inverseLogDetJacobian', jm.inverseLogDetJacobian(fy as never));
    const covered = new Set([...BIJECTOR_CASES.map((c) => c.covers), 'JointMap', 'Bijector']);
    for (const [n, v] of Object.entries(B)) if (typeof v === 'function' && !covered.has(n)) uncovered.push(`bijectors.${n}`);
  }

  group = 'compiled';
  // ---- compileLogDensity: values and gradients of the generated code ----------------------------
  const compiled: Array<readonly [string, Distributions.CompiledLogDensity]> = [
    ['schools', D.compileLogDensity(schools, { pins: { y } })],
    ['logistic', D.compileLogDensity(logit, { pins: [undefined, undefined, yb] as never })],
    ['coroutine', D.compileLogDensity(coroutine, { pins: { obs: tensor([0.5, -1, 2, 7]) } })],
  ];
  // Every continuous distribution alone (batch dims made event dims), in its unconstrained space.
  for (const c of DIST_CASES) {
    const d = c.make(D, tensor);
    const node = d.batchShape.length === 0 ? d : new D.Independent({ distribution: d, reinterpretedBatchNdims: d.batchShape.length });
    // Discrete distributions: enumerated away when their support is finite (then nothing is left
    // to sample: a RangeError), else a node for Gibbs steps, which compileLogDensity refuses (a
    // RangeError); recorded as such.
    tryPut(`${c.label}.compile`, () => {
      try {
        compiled.push([c.label, D.compileLogDensity(new D.JointDistributionNamed({ x: node }))]);
      } catch (e) {
        if (e instanceof RangeError && /nothing is left to sample/.test(e.message)) return 'enumerated';
        if (e instanceof RangeError && /Gibbs steps/.test(e.message)) return 'gibbs';
        throw e;
      }
      return 'ok';
    });
  }
  for (const [name, ld] of compiled) {
    const grad = new Float64Array(ld.dim);
    for (const s of [0.3, -0.8, 1.7]) {
      // a fixed, irregular point: s · ((7j mod 5) − 2) / 2
      const x = Float64Array.from({ length: ld.dim }, (_, j) => (s * (((7 * j) % 5) - 2)) / 2);
      put(`${name}.logDensity(${s})`, ld.logDensity(x));
      put(`${name}.logDensityGradient(${s})`, ld.logDensityGradient(x, grad));
      put(`${name}.gradient(${s})`, grad);
    }
  }

  group = 'nuts';
  // ---- a short NUTS chain: 2 chains × 20 draws on a small model ---------------------------------
  // The target is a polynomial (a correlated Gaussian with a quartic tail in the second coordinate)
  // so that only the library's own math can make the engines differ.
  const target = (x: Core.Tensor) => {
    const data = x.data as Float64Array, c = x.shape[0]!, lp = new Float64Array(c);
    for (let j = 0; j < c; j++) {
      const a = data[2 * j]!, b = data[2 * j + 1]!;
      lp[j] = -0.5 * (2 * a * a - 1.2 * a * b + b * b) - 0.05 * b * b * b * b;
    }
    return new lib.stochax.Tensor(lp, [c], 'float64');
  };
  const targetAndGrad = (x: Core.Tensor): readonly [Core.Tensor, readonly Core.Tensor[]] => {
    const data = x.data as Float64Array, c = x.shape[0]!, gr = new Float64Array(2 * c);
    for (let j = 0; j < c; j++) {
      const a = data[2 * j]!, b = data[2 * j + 1]!;
      gr[2 * j] = -(2 * a - 0.6 * b);
      gr[2 * j + 1] = -(b - 0.6 * a) - 0.2 * b * b * b;
    }
    return [target(x), [new lib.stochax.Tensor(gr, [c, 2], 'float64')]];
  };
  const nuts = new M.NoUTurnSampler({ targetLogProbAndGradFn: targetAndGrad, stepSize: 0.5 });
  const run = M.sampleChain({
    numResults: 20, numBurninSteps: 5, currentState: tensor([[0.1, -0.2], [1, 1]]), kernel: nuts, seed: 2718,
    traceFn: (_s, r) => ({ lp: r.targetLogProb, leapfrogs: r.leapfrogsTaken, div: r.hasDivergence }),
  });
  put('nuts.allStates', run.allStates);
  const tr = run.trace as Record<string, Core.Tensor>;
  for (const n of ['lp', 'leapfrogs', 'div']) put(`nuts.trace.${n}`, tr[n]);
  put('nuts.finalSeed', random.keyData(run.finalSeed));

  group = 'windowed';
  // Autodiff targets through a joint distribution, with step-size and mass-matrix adaptation:
  // per-chain (the default) and pooled (TFP's pipeline, as the browser demo runs it).
  for (const adaptation of ['per-chain', 'pooled'] as const) {
    const w = M.windowedAdaptiveNuts(schools, { pins: { y }, seed: 3, nChains: 2, numAdaptationSteps: 100, nDraws: 20, adaptation });
    const wd = w.draws as Record<string, Core.Tensor>;
    for (const n of ['mu', 'tau', 'thetaTilde']) put(`windowed.${adaptation}.${n}`, wd[n]);
    put(`windowed.${adaptation}.stepSize`, (w.trace as { stepSize: Core.Tensor }).stepSize);
  }

  group = 'optimize';
  // Mode, Laplace, Pathfinder and ADVI on eight schools: L-BFGS, finite-difference Hessians,
  // PSIS resampling and stochastic gradients, each a pure function of its seed.
  const O = lib.optimize;
  const parts = (prefix: string, values: unknown) => {
    for (const n of ['mu', 'tau', 'thetaTilde']) put(`${prefix}.${n}`, (values as Record<string, Core.Tensor>)[n]);
  };
  const mode = O.optimize(schools, { pins: { y }, seed: 1 });
  parts('optimize', mode.params);
  put('optimize.unconstrained', mode.unconstrained);
  put('optimize.logDensity', mode.logDensity);
  const lap = O.laplace(schools, { pins: { y }, seed: 2, draws: 40 });
  parts('laplace', lap.draws);
  put('laplace.logQ', lap.logQ);
  const pf = O.pathfinder(schools, { pins: { y }, seed: 3, numPaths: 2, draws: 40 });
  parts('pathfinder', pf.draws);
  put('pathfinder.paretoK', pf.paretoK);
  put('pathfinder.logQ', pf.logQ);
  const vi = O.advi(schools, { pins: { y }, seed: 4, iter: 200, adaptIter: 20, outputDraws: 40, psisResample: true });
  parts('advi', vi.draws);
  put('advi.logQ', vi.logQ);

  out._wasmActive = String(prng.wasmActive());
  out._uncovered = uncovered.join(', ');
  return out;
}

/** The groups of {@link compute}, each its own test in the browser and Bun tests. */
export const GROUPS: readonly (readonly [string, string])[] = [
  ['keys', 'keys, split, foldIn, keyData and bits in all four modes (threefry and philox)'],
  ['random', 'every stateless sampler (float32 and large-parameter branches included)'],
  ['samplers', 'samplers.* with salts, and the global seed'],
  ['compat', 'compat.tensorflow (every stateless op) and compat.openvino (all six output types)'],
  ['generator', 'every Generator method, split, spawn and toJSON'],
  ['tensor', 'tensor ops and special functions, with their gradients'],
  ['distributions', "every distribution's sample, logProb, cdf family and quantile; joint distributions"],
  ['bijectors', 'every bijector: forward, inverse and both log-det-Jacobians'],
  ['compiled', "compileLogDensity's values and gradients (three models, every continuous distribution)"],
  ['nuts', 'sampleChain with NoUTurnSampler, 2 chains × 20 draws'],
  ['windowed', 'windowedAdaptiveNuts on eight schools, per-chain and pooled (2 chains, 100 + 20 steps)'],
  ['optimize', 'optimize, laplace, pathfinder and advi on eight schools'],
];

/**
 * Names whose encodings differ between `a` (Node) and `b` (the other engine), each with where it
 * first differs; only `group`'s names if given, else every name but the `_` entries.
 */
export function differences(a: Record<string, string>, b: Record<string, string>, group?: string, other = 'the browser'): string[] {
  const out: string[] = [];
  const inGroup = (k: string) => (group === undefined ? !k.startsWith('_') : k.startsWith(`${group}:`));
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)].filter(inGroup))) {
    const x = a[k], y = b[k];
    if (x === y) continue;
    if (x === undefined || y === undefined) { out.push(`${k}: only in ${x === undefined ? other : 'Node'}`); continue; }
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    out.push(`${k}: differs at character ${i} (Node …${x.slice(Math.max(0, i - 8), i + 16)}… vs ${other} …${y.slice(Math.max(0, i - 8), i + 16)}…)`);
  }
  return out;
}

/**
 * The engine's own Math functions on fixed pseudo-random inputs, as `name` → hex (not part of
 * the library: the test reports which of them differ between Node and the browser, to explain
 * a failure of the comparisons above).
 */
export function probeMath(): Record<string, string> {
  let s = 12345;
  const rnd = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 4294967296; };
  const n = 20000, xs = new Float64Array(n), ys = new Float64Array(n);
  for (let i = 0; i < n; i++) { xs[i] = (rnd() - 0.5) * 40 * (i % 3 === 0 ? rnd() : 1); ys[i] = (rnd() - 0.5) * 8; }
  const fns: Record<string, (x: number, y: number) => number> = {
    exp: (x) => Math.exp(x), log: (x) => Math.log(Math.abs(x)), log1p: (x) => Math.log1p(Math.abs(x)),
    expm1: (x) => Math.expm1(x), log2: (x) => Math.log2(Math.abs(x)), log10: (x) => Math.log10(Math.abs(x)),
    'pow(|x|, y)': (x, y) => Math.pow(Math.abs(x), y), 'x ** 3': (x) => x ** 3, 'x ** 2': (x) => x ** 2,
    sqrt: (x) => Math.sqrt(Math.abs(x)), cbrt: (x) => Math.cbrt(x), sin: (x) => Math.sin(x), cos: (x) => Math.cos(x),
    tan: (x) => Math.tan(x), atan: (x) => Math.atan(x), atan2: (x, y) => Math.atan2(x, y), asin: (x) => Math.asin(x / 20),
    acos: (x) => Math.acos(x / 20), sinh: (x) => Math.sinh(x), cosh: (x) => Math.cosh(x), tanh: (x) => Math.tanh(x),
    asinh: (x) => Math.asinh(x), acosh: (x) => Math.acosh(1 + Math.abs(x)), atanh: (x) => Math.atanh(x / 21),
    hypot: (x, y) => Math.hypot(x, y),
  };
  const out: Record<string, string> = {};
  for (const [name, f] of Object.entries(fns)) {
    const r = new Float64Array(n);
    for (let i = 0; i < n; i++) r[i] = f(xs[i]!, ys[i]!);
    out[name] = hexOf(r);
  }
  return out;
}
