import { fail } from '../src/checks.js';
import { detLog, detLog1p } from '../src/math/index.js';
import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { zeros } from '../src/tensor/ops/create.js';
import { add, div, mul, sqrt, square, sub } from '../src/tensor/ops/elementwise.js';
import { logDet, triangularSolve } from '../src/tensor/ops/linalg.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims, reshape, squeeze, transpose } from '../src/tensor/ops/shape.js';
import { digammaDiff, trigamma } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { scalarLike } from './internal/mvn-linear-operator.js';
import { logGammaDifference } from './lkj.js';
import { linearGamma } from './student-t.js';
import { lowerTriangularPositiveDiagonal, MultivariateNormalTriL, trilScale } from './multivariate-normal-tri-l.js';
import { brand } from '../src/brand.js';

const LOG_PI = detLog(Math.PI);

export interface MultivariateStudentTLinearOperatorOptions extends DistributionOptions {
  /** Degrees of freedom ν > 0, shape `[...batch]`. */
  readonly df: TensorLike;
  /** Location μ, shape `[..., k]` (default 0; the mean when ν > 1). At least one of `loc` and `scaleTril` is required. */
  readonly loc?: TensorLike;
  /**
   * Lower-triangular scale L, shape `[..., k, k]` (default the identity): TFP's `scale` given as
   * `tf.linalg.LinearOperatorLowerTriangular(scaleTril)`. The upper triangle is ignored.
   */
  readonly scaleTril?: TensorLike;
}

/**
 * The multivariate Student's t distribution on ℝᵏ (TFP's `tfd.MultivariateStudentTLinearOperator`):
 * density Γ((ν + k)/2) / (Γ(ν/2)·(νπ)^(k/2)·|det L|) · (1 + ‖L⁻¹(x − μ)‖²/ν)^(−(ν + k)/2),
 * the law of μ + L·z/√(G/ν) with z ~ N(0, Iₖ) and G ~ χ²(ν). Batch shape: the broadcast of
 * `df`'s shape and the leading dimensions of `loc` [..., k] and `scaleTril` [..., k, k].
 *
 * stochax has no LinearOperator, so TFP's `scale` operator is given as its lower-triangular
 * matrix, `scaleTril` (TFP's `LinearOperatorLowerTriangular`, the form of
 * `MultivariateNormalTriL`); the class keeps TFP's name so a TFP user finds it. A diagonal scale
 * is a diagonal `scaleTril`.
 *
 * Sampling is TFP's: `[normalSeed, chi2Seed] = splitSeed(seed, { salt: 'multivariate t' })`,
 * z from `MultivariateNormalTriL({ loc: 0, scaleTril })` (over the full batch shape) with
 * normalSeed, G ~ χ²(ν) from chi2Seed by TFP's `random_gamma` in linear space (as `StudentT`;
 * stochax's own `Chi2` samples in log space, which for ν < 2 gives other draws), and
 * x = μ + z·(G/ν)^(−½). Fully reparameterized
 * in `loc` and `scaleTril`. `logProb` is differentiable in the value and every parameter (a
 * triangular solve, then one fused node; the Γ ratio without cancellation for large ν).
 * `mean` is μ for ν > 1 (NaN otherwise), `covariance` L·Lᵀ·ν/(ν − 2) for ν > 2, ∞ for
 * 1 < ν ≤ 2, NaN for ν ≤ 1 (TFP's), and likewise `variance` and `stddev`. The default
 * event-space bijector is `Identity` (TFP's).
 *
 * @throws TypeError when `df` is missing, or neither `loc` nor `scaleTril` is given; RangeError
 *   when `scaleTril` is not square, when `loc`'s event size differs from `scaleTril`'s, when
 *   batch shapes do not broadcast, or with `validateArgs` for ν ≤ 0 or a `scaleTril` that is not
 *   lower-triangular with a positive diagonal.
 * @example
 * const d = new MultivariateStudentTLinearOperator({ df: 3, loc: [1, 2], scaleTril: [[1, 0], [0.5, 2]] });
 * d.logProb([0, 0]);            // → Tensor float64 []
 * d.sample(3, { seed: 42 });    // → Tensor float64 [3, 2]
 * d.covariance();               // → [[3, 1.5], [1.5, 12.75]] (L·Lᵀ·3)
 */
export class MultivariateStudentTLinearOperator extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    df: { constraint: positive },
    loc: { eventNdims: 1, constraint: real },
    scaleTril: { eventNdims: 2, constraint: lowerTriangularPositiveDiagonal },
  };
  readonly df: Tensor;
  /** The location as given (`undefined`: zero). */
  readonly loc: Tensor | undefined;
  /** `scaleTril` as given (`undefined`: the identity). */
  readonly scaleTril: Tensor | undefined;
  /** The lower triangle of `scaleTril` (or the identity) that every method uses. */
  private readonly tril: Tensor;
  private readonly k: number;

  constructor(options: MultivariateStudentTLinearOperatorOptions) {
    super('MultivariateStudentTLinearOperator', options, true);
    this.df = this.param('df');
    this.loc = this.params.loc;
    this.scaleTril = this.params.scaleTril;
    ({ k: this.k, tril: this.tril } = trilScale(this.fn, this.loc, this.scaleTril, this.floatDtype));
    const loc = this.loc, s = this.scaleTril;
    if (loc !== undefined && s !== undefined) {
      const kl = loc.shape[loc.ndim - 1]!;
      if (kl !== this.k && kl !== 1) {
        fail('range', this.fn, 'loc', `has event size ${kl} but \`scaleTril\` [${s.shape.join(', ')}] has event size ${this.k}; the shapes of \`loc\` [${loc.shape.join(', ')}] and \`scaleTril\` do not match`, loc.shape);
      }
    }
  }

  override get eventShape(): readonly number[] { return [this.k]; }

  private get floatDtype(): FloatDType { return this.dtype; }
  private full(): number[] { return [...this.batchShape, this.k]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const [normalSeed, chi2Seed] = splitSeed(seed, { salt: 'multivariate t' }) as [KeyArray, KeyArray];
    const batch = this.batchShape;
    const mvn = new MultivariateNormalTriL({ loc: zeros(this.full(), this.floatDtype), scaleTril: this.tril });
    const z = mvn.sample(n, { seed: normalSeed });                                       // [n, ...batch, k]
    // TFP's Chi2(df).sample(n): random_gamma in linear space (stochax's Chi2 samples in log space,
    // whose boost for ν < 2 gives other draws), as StudentT's sampler.
    const shape = [n, ...batch], dtype = this.floatDtype;
    const df = broadcastData(this.fn, 'df', this.df, shape) as ArrayLike<number>;
    const g = new Tensor(Float64Array.from(linearGamma(shape, df, chi2Seed, dtype)), shape, 'float64').astype(dtype);   // [n, ...batch]
    const y = mul(z, expandDims(div(scalarLike(1, g), sqrt(div(g, this.df))), -1));
    return this.loc === undefined ? y : add(this.loc, y);
  }

  /** log|det L|, of L's batch shape. */
  private scaleLogAbsDet(): Tensor { return mul(scalarLike(0.5, this.tril), logDet(this.tril)); }

  protected override logProbImpl(x: Tensor): Tensor {
    const r = this.loc === undefined ? x : sub(x, this.loc);
    const z = squeeze(triangularSolve(this.tril, expandDims(r, -1)), -1);
    const k = this.k;
    return fusedMap('MultivariateStudentTLinearOperator.logProb',
      [['‖L⁻¹(x − loc)‖²', sum(square(z), -1)], ['df', this.df], ['log|det L|', this.scaleLogAbsDet()]],
      (q, df, l) => mvtLogKernel(k, q, df) - l,
      (out, q, df) => {
        const h = 0.5 * (k + df);
        out[0] = -h / (df + q);
        // ∂/∂ν of −h·log1p(q/ν) − [lnΓ(ν/2) − lnΓ((ν+k)/2)] − (k/2)·log(νπ).
        out[1] = -0.5 * detLog1p(q / df) + (h * q) / (df * (df + q)) + 0.5 * digammaDiff(0.5 * df, 0.5 * k) - (0.5 * k) / df;
        out[2] = -1;
      });
  }

  /** One of TFP's df-dependent statistics: `stat`·factor(ν) for ν > 2, ∞ for 1 < ν ≤ 2, NaN for ν ≤ 1. */
  private dfStatistic(method: string, stat: Tensor, eventRank: number, factor: (df: number) => number, dFactor: (df: number) => number): Tensor {
    const df = reshape(broadcastTo(this.df, this.batchShape), [...this.batchShape, ...Array<number>(eventRank).fill(1)]);
    return fusedMap(`MultivariateStudentTLinearOperator.${method}`, [['df', df], [method, stat]],
      (nu, s) => (nu > 2 ? s * factor(nu) : nu > 1 ? Infinity : Number.NaN),
      (out, nu, s) => { if (nu > 2) { out[0] = s * dFactor(nu); out[1] = factor(nu); } });
  }

  protected override meanImpl(): Tensor {
    const df = expandDims(broadcastTo(this.df, this.batchShape), -1);
    const loc = this.loc === undefined ? zeros(this.full(), this.floatDtype) : broadcastTo(this.loc, this.full());
    return fusedMap('MultivariateStudentTLinearOperator.mean', [['df', df], ['loc', loc]], (nu, m) => (nu > 1 ? m : Number.NaN), (out) => { out[1] = 1; });
  }
  protected override modeImpl(): Tensor {
    return this.loc === undefined ? zeros(this.full(), this.floatDtype) : broadcastTo(this.loc, this.full());
  }
  protected override covarianceImpl(): Tensor {
    const nd = this.tril.ndim;
    const cov = matmul(this.tril, transpose(this.tril, [...Array.from({ length: nd - 2 }, (_, i) => i), nd - 1, nd - 2]));
    return this.dfStatistic('covariance', broadcastTo(cov, [...this.full(), this.k]), 2, ratio, dRatio);
  }
  protected override varianceImpl(): Tensor {
    return this.dfStatistic('variance', broadcastTo(sum(square(this.tril), -1), this.full()), 1, ratio, dRatio);
  }
  protected override stddevImpl(): Tensor {
    return this.dfStatistic('stddev', broadcastTo(sqrt(sum(square(this.tril), -1)), this.full()), 1,
      (nu) => Math.sqrt(ratio(nu)), (nu) => dRatio(nu) / (2 * Math.sqrt(ratio(nu))));
  }
  protected override entropyImpl(): Tensor {
    const k = this.k;
    // log|det L| + (k/2)·log(νπ) + lnΓ(ν/2) − lnΓ((ν+k)/2) + (ν+k)/2·(ψ((ν+k)/2) − ψ(ν/2)) (TFP's).
    return fusedMap('MultivariateStudentTLinearOperator.entropy',
      [['df', broadcastTo(this.df, this.batchShape)], ['log|det L|', broadcastTo(this.scaleLogAbsDet(), this.batchShape)]],
      (df, l) => l + 0.5 * k * (detLog(df) + LOG_PI) + logGammaDifference(0.5 * k, 0.5 * df) + 0.5 * (df + k) * digammaDiff(0.5 * df, 0.5 * k),
      // ∂/∂ν = k/(2ν) + (ν+k)/4·(ψ′((ν+k)/2) − ψ′(ν/2)) (the digamma terms cancel).
      (out, df) => { out[0] = (0.5 * k) / df + 0.25 * (df + k) * (trigamma(0.5 * (df + k)) - trigamma(0.5 * df)); out[1] = 1; });
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity({ validateArgs: this.validateArgs }); }
}

/** ν/(ν − 2) and its derivative −2/(ν − 2)². */
function ratio(nu: number): number { return nu / (nu - 2); }
function dRatio(nu: number): number { return -2 / ((nu - 2) * (nu - 2)); }

/**
 * The log density without log|det L|: −(ν + k)/2·log1p(q/ν) − [lnΓ(ν/2) − lnΓ((ν + k)/2)] −
 * (k/2)·log(νπ), q = ‖L⁻¹(x − μ)‖² (the Γ ratio by `logGammaDifference`, accurate for large ν).
 * @example
 * mvtLogKernel(1, 0, 1); // → −log π (the standard Cauchy at 0)
 */
export function mvtLogKernel(k: number, q: number, df: number): number {
  return -0.5 * (k + df) * detLog1p(q / df) - logGammaDifference(0.5 * k, 0.5 * df) - 0.5 * k * (detLog(df) + LOG_PI);
}
brand(MultivariateStudentTLinearOperator, 'MultivariateStudentTLinearOperator');   // recognised across copies of stochax (src/brand.ts)
