import { brand } from '../src/brand.js';
import { checkFinite, checkFunction, fail } from '../src/checks.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { asTensor, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { eye, zeros } from '../src/tensor/ops/create.js';
import { add, mul, sub } from '../src/tensor/ops/elementwise.js';
import { cholesky, triangularSolve } from '../src/tensor/ops/linalg.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { broadcastTo, expandDims, squeeze, transpose } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { KeyArray } from '../src/random/key-array.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { diagPart } from './bijectors/transform-diagonal.js';
import { Distribution, NotImplementedError, toParameter, type DistributionOptions } from './distribution.js';
import { nonNegative } from './internal/constraints.js';
import { MultivariateNormalTriL } from './multivariate-normal-tri-l.js';
import { PositiveSemidefiniteKernel } from './psd-kernels/positive-semidefinite-kernel.js';

export interface GaussianProcessRegressionModelOptions extends DistributionOptions {
  /** The prior covariance function k, e.g. `new psdKernels.ExponentiatedQuadratic({ amplitude, lengthScale })`. Required. */
  readonly kernel: PositiveSemidefiniteKernel;
  /** The points x* to predict at, shape `[..., N, F]`; the event is the N predicted values. Required. */
  readonly indexPoints: TensorLike;
  /** The points xₒ where `observations` were made, `[..., M, F]`. Omit together with `observations` for the prior GP. */
  readonly observationIndexPoints?: TensorLike;
  /** The observed values y, `[..., M]` (M as in `observationIndexPoints`). */
  readonly observations?: TensorLike;
  /** σ² ≥ 0, the variance of the i.i.d. noise on `observations` (default 0). */
  readonly observationNoiseVariance?: TensorLike;
  /** σ*² ≥ 0 added to the predictive covariance's diagonal (default: `observationNoiseVariance`, as TFP). */
  readonly predictiveNoiseVariance?: TensorLike;
  /** The prior mean function m(x): points `[..., N, F]` → `[..., N]`; default 0. */
  readonly meanFn?: (indexPoints: Tensor) => TensorLike;
  /** Added to the diagonal before each Cholesky factorisation, for numerical stability (default 1e-6, TFP's). */
  readonly jitter?: number;
}

const FN = 'GaussianProcessRegressionModel';

/**
 * The posterior predictive of a Gaussian process at index points x* given noisy observations y
 * at xₒ (TFP's `tfd.GaussianProcessRegressionModel`): with f ~ GP(m, k) and y = f(xₒ) + N(0, σ²I),
 * the values f(x*) + N(0, σ*²I) are multivariate normal with
 *   mean  m(x*) + K*ₒ (Kₒₒ + σ²I)⁻¹ (y − m(xₒ)),
 *   cov   K** − K*ₒ (Kₒₒ + σ²I)⁻¹ Kₒ* + σ*²I.
 * As in TFP, both solves use L = cholesky(Kₒₒ + σ²I + jitter·I), and `sample`/`logProb` are
 * those of `MultivariateNormalTriL({ loc: mean, scaleTril: cholesky(cov + jitter·I) })` (the
 * seed used as given, so draws are reproducible); `covariance()`/`variance()` leave out that
 * second jitter. Without observations it is the prior `GaussianProcess`. Event shape `[N]`; batch
 * shape the broadcast of the kernel's, the point sets' and observations' leading dims and the
 * noise variances' shapes. Differentiable in all tensors (built from `cholesky` and `triangularSolve`).
 *
 * @throws TypeError for a missing or non-kernel `kernel`, missing `indexPoints`, only one of
 *   `observationIndexPoints`/`observations`, a non-function `meanFn`, or an unknown option;
 *   RangeError for point sets with fewer than `featureNdims + 1` dims, feature shapes that
 *   differ, `observations` whose last dim is not the number of observation points, a negative or
 *   non-finite `jitter`, shapes that do not broadcast, or (from `cholesky`) a matrix that is not
 *   positive definite even with the jitter.
 * @example
 * import { GaussianProcessRegressionModel, psdKernels } from 'stochax/distributions';
 * const kernel = new psdKernels.ExponentiatedQuadratic({ amplitude: 1, lengthScale: 0.5 });
 * const gprm = new GaussianProcessRegressionModel({
 *   kernel, indexPoints: [[0.25], [0.75]],
 *   observationIndexPoints: [[0], [0.5], [1]], observations: [0.1, 0.8, -0.3],
 *   observationNoiseVariance: 0.01,
 * });
 * gprm.mean();                     // → Tensor float64 [2] (the predictive mean)
 * gprm.stddev();                   // → Tensor float64 [2]
 * gprm.logProb([0.5, 0.2]);        // → Tensor float64 []
 * gprm.sample(3, { seed: 0 });     // → Tensor float64 [3, 2]
 */
export class GaussianProcessRegressionModel extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    observationNoiseVariance: { eventNdims: 0, constraint: nonNegative },
    predictiveNoiseVariance: { eventNdims: 0, constraint: nonNegative },
  };
  static override readonly optionNames: readonly string[] = ['kernel', 'indexPoints', 'observationIndexPoints', 'observations', 'meanFn', 'jitter'];

  readonly kernel: PositiveSemidefiniteKernel;
  readonly indexPoints: Tensor;
  readonly observationIndexPoints: Tensor | undefined;
  readonly observations: Tensor | undefined;
  readonly meanFn: ((indexPoints: Tensor) => TensorLike) | undefined;
  readonly observationNoiseVariance: Tensor | undefined;
  /** σ*²: the option, else `observationNoiseVariance`. */
  readonly predictiveNoiseVariance: Tensor | undefined;
  readonly jitter: number;
  private readonly loc: Tensor;
  /** The predictive covariance without the final jitter, `batchShape + [N, N]`. */
  private readonly cov: Tensor;
  private readonly marginal: MultivariateNormalTriL;
  override readonly dtype: FloatDType;

  constructor(options: GaussianProcessRegressionModelOptions) {
    super(FN, options, true);
    const o = options;
    const kernel: unknown = o.kernel;
    if (!(kernel instanceof PositiveSemidefiniteKernel)) fail('type', FN, 'kernel', 'must be a positive-semidefinite kernel (e.g. new psdKernels.ExponentiatedQuadratic(...))', kernel);
    this.kernel = kernel as PositiveSemidefiniteKernel;
    const f = this.kernel.featureNdims;
    const points = (arg: string, v: TensorLike): Tensor => {
      const t = toParameter(FN, arg, v);
      if (t.ndim < f + 1) fail('range', FN, arg, `must have at least ${f + 1} dims ([..., N] and the kernel's ${f} feature dim(s)); shape [${t.shape.join(', ')}]`, t.shape);
      return t;
    };
    if (o.indexPoints === undefined || o.indexPoints === null) fail('type', FN, 'indexPoints', 'is required (points [..., N, F])', o.indexPoints);
    const x = points('indexPoints', o.indexPoints);
    this.indexPoints = x;
    if ((o.observationIndexPoints === undefined) !== (o.observations === undefined)) {
      const missing = o.observations === undefined ? 'observations' : 'observationIndexPoints';
      fail('type', FN, missing, 'is required when the other of observationIndexPoints/observations is given', undefined);
    }
    const xo = o.observationIndexPoints === undefined ? undefined : points('observationIndexPoints', o.observationIndexPoints);
    const y = o.observations === undefined ? undefined : toParameter(FN, 'observations', o.observations);
    if (xo !== undefined && y !== undefined) {
      const fx = x.shape.slice(x.ndim - f), fo = xo.shape.slice(xo.ndim - f);
      if (fx.some((d, i) => d !== fo[i])) fail('range', FN, 'observationIndexPoints', `must have the same feature shape as indexPoints ([${fx.join(', ')}]); shape [${xo.shape.join(', ')}]`, xo.shape);
      const m = xo.shape[xo.ndim - f - 1]!;
      if (y.ndim < 1 || y.shape[y.ndim - 1] !== m) fail('range', FN, 'observations', `must have shape [..., M] with M = ${m} (the number of observationIndexPoints, shape [${xo.shape.join(', ')}]); shape [${y.shape.join(', ')}]`, y.shape);
    }
    this.observationIndexPoints = xo;
    this.observations = y;
    if (o.meanFn !== undefined) checkFunction(FN, 'meanFn', o.meanFn, 'must be a function of the index points');
    this.meanFn = o.meanFn;
    this.jitter = o.jitter === undefined ? 1e-6 : checkFinite(FN, 'jitter', o.jitter);
    if (this.jitter < 0) fail('range', FN, 'jitter', 'must be non-negative', this.jitter);
    const noise = this.params.observationNoiseVariance;
    this.observationNoiseVariance = noise;
    const pnoise = this.params.predictiveNoiseVariance ?? noise;
    this.predictiveNoiseVariance = pnoise;

    const n = x.shape[x.ndim - f - 1]!;
    const meanAt = (arg: string, t: Tensor, size: number): Tensor | undefined => {
      if (this.meanFn === undefined) return undefined;
      const v = asTensor(`${FN}.meanFn`, 'result', this.meanFn(t));
      if (v.ndim > 0 && v.shape[v.ndim - 1] !== size && v.shape[v.ndim - 1] !== 1) {
        fail('range', FN, 'meanFn', `must return [..., N] values for ${arg}, N = ${size}; got shape [${v.shape.join(', ')}]`, v.shape);
      }
      return v;
    };
    const mx = meanAt('indexPoints', x, n);
    const kxx = this.kernel.matrix(x, x);                                // [...b, N, N]
    const dt = kxx.dtype;
    const idN = eye(n, n, 0, dt);
    let loc: Tensor = mx ?? zeros([n], dt);
    let cov = kxx;
    const batchParts: [string, readonly number[]][] = [
      ['kernel.batchShape', this.kernel.batchShape],
      ['indexPoints (batch dims)', x.shape.slice(0, x.ndim - f - 1)],
      ['predictiveNoiseVariance', pnoise?.shape ?? []],
      ['meanFn(indexPoints) (batch dims)', mx === undefined ? [] : mx.shape.slice(0, -1)],
    ];
    const m = xo === undefined ? 0 : xo.shape[xo.ndim - f - 1]!;
    if (xo !== undefined && y !== undefined && m > 0) {
      const mo = meanAt('observationIndexPoints', xo, m);
      batchParts.push(
        ['observationIndexPoints (batch dims)', xo.shape.slice(0, xo.ndim - f - 1)],
        ['observations (batch dims)', y.shape.slice(0, -1)],
        ['observationNoiseVariance', noise?.shape ?? []],
        ['meanFn(observationIndexPoints) (batch dims)', mo === undefined ? [] : mo.shape.slice(0, -1)],
      );
      broadcastShapes(FN, batchParts);                                   // a named error before the linear algebra's
      const idM = eye(m, m, 0, dt);
      const koo = this.kernel.matrix(xo, xo);                            // [..., M, M]
      const shift = noise === undefined ? this.jitter : add(expandDims(noise, [-1, -2]), this.jitter);
      const l = cholesky(add(koo, mul(shift, idM)));                     // chol(Kₒₒ + σ²I + jitter·I), TFP's divisor
      const kox = this.kernel.matrix(xo, x);                             // [..., M, N]
      const a = triangularSolve(l, kox);                                 // L⁻¹Kₒ*
      const resid = mo === undefined ? y : sub(y, mo);
      const w = triangularSolve(l, expandDims(resid, -1));               // L⁻¹(y − m(xₒ)), [..., M, 1]
      const at = transpose(a, [...a.shape.keys()].map((i) => (i < a.ndim - 2 ? i : 2 * a.ndim - 3 - i)));   // swap the last two axes
      loc = add(loc, squeeze(matmul(at, w), -1));
      cov = sub(cov, matmul(at, a));
    }
    const batch = broadcastShapes(FN, batchParts);
    if (pnoise !== undefined) cov = add(cov, mul(expandDims(pnoise, [-1, -2]), idN));
    this.cov = broadcastTo(cov, [...broadcastShapes(FN, [['batch', batch], ['covariance', cov.shape.slice(0, -2)]]), n, n]);
    const full = this.cov.shape.slice(0, -2);
    this.loc = broadcastTo(loc, [...full, n]);
    const scaleTril = cholesky(this.jitter === 0 ? this.cov : add(this.cov, mul(this.jitter, idN)));
    this.marginal = new MultivariateNormalTriL({ loc: this.loc, scaleTril, validateArgs: this.validateArgs, allowNanStats: this.allowNanStats });
    this.dtype = this.marginal.dtype;
  }

  /**
   * The multivariate normal of the predicted values: `MultivariateNormalTriL` with the predictive
   * mean and scale cholesky(covariance() + jitter·I).
   * @example
   * gprm.getMarginalDistribution().scaleTril;   // → Tensor float64 [N, N]
   */
  getMarginalDistribution(): MultivariateNormalTriL { return this.marginal; }

  override get eventShape(): readonly number[] { return this.marginal.eventShape; }
  protected override batchShapeImpl(): readonly number[] { return this.marginal.batchShape; }

  protected sampleN(n: number, seed: KeyArray): Tensor { return this.marginal.sample([n], { seed }); }
  protected override logProbImpl(x: Tensor): Tensor { return this.marginal.logProb(x); }
  protected override meanImpl(): Tensor { return this.loc; }
  protected override modeImpl(): Tensor { return this.loc; }
  protected override covarianceImpl(): Tensor { return this.cov; }
  protected override varianceImpl(): Tensor { return diagPart(FN, 'covariance', this.cov); }
  protected override entropyImpl(): Tensor { return this.marginal.entropy(); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }

  /** Batch slicing would have to slice the kernel's parameters and the point sets too: not implemented. */
  protected override slicedParameters(): Record<string, unknown> {
    throw new NotImplementedError(`${FN}.slice is not implemented (slice the kernel's parameters, the points and observations, and build a new ${FN})`);
  }
}
brand(GaussianProcessRegressionModel, 'GaussianProcessRegressionModel');   // recognised across copies of stochax (src/brand.ts)
