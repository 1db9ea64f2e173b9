import { brand } from '../src/brand.js';
import { checkFinite, checkFunction, fail } from '../src/checks.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { asTensor, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { eye, zeros } from '../src/tensor/ops/create.js';
import { add, mul } from '../src/tensor/ops/elementwise.js';
import { cholesky } from '../src/tensor/ops/linalg.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { KeyArray } from '../src/random/key-array.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, NotImplementedError, toParameter, type DistributionOptions } from './distribution.js';
import { nonNegative } from './internal/constraints.js';
import { MultivariateNormalTriL } from './multivariate-normal-tri-l.js';
import { PositiveSemidefiniteKernel } from './psd-kernels/positive-semidefinite-kernel.js';

export interface GaussianProcessOptions extends DistributionOptions {
  /** The covariance function, e.g. `new psdKernels.ExponentiatedQuadratic({ amplitude, lengthScale })`. Required. */
  readonly kernel: PositiveSemidefiniteKernel;
  /** The points x, shape `[..., N, F]` (F the kernel's `featureNdims` feature dims); the event is the N function values. Required. */
  readonly indexPoints: TensorLike;
  /** The mean function m(x): index points `[..., N, F]` → `[..., N]` (broadcasting); default 0. */
  readonly meanFn?: (indexPoints: Tensor) => TensorLike;
  /** σ² ≥ 0 added to the kernel matrix's diagonal (i.i.d. observation noise; default 0). Broadcasts as a batch parameter. */
  readonly observationNoiseVariance?: TensorLike;
  /** Added to the diagonal before the Cholesky factorisation only, for numerical stability (default 1e-6, TFP's). */
  readonly jitter?: number;
}

const FN = 'GaussianProcess';

/**
 * A Gaussian process at finitely many index points (TFP's `tfd.GaussianProcess`): the function
 * values f = (f(x₁), …, f(x_N)) of f ~ GP(m, k) plus i.i.d. N(0, σ²) noise are multivariate
 * normal with mean m(x) and covariance K + σ²·I, Kᵢⱼ = k(xᵢ, xⱼ). Event shape `[N]`; batch shape
 * the broadcast of the kernel's batch shape, the index points' leading dims and σ²'s shape.
 *
 * Like TFP, it is the multivariate normal `getMarginalDistribution()` =
 * `MultivariateNormalTriL({ loc: m(x), scaleTril: cholesky(K + σ²·I + jitter·I) })`: `sample`
 * is that distribution's (the seed used as given, so draws equal TFP on JAX's for the same key
 * up to the rounding of the Cholesky factor), `logProb` is the marginal likelihood
 * −½(y − m)ᵀ(K + σ²I + jitter·I)⁻¹(y − m) − ½ log det(…) − (N/2) log 2π, computed with
 * `cholesky` and `triangularSolve` — differentiable in the kernel's parameters, σ² and the
 * index points, and traceable by `compileLogDensity` (a GP node with hyperpriors samples under
 * NUTS). `covariance()` and `variance()` are K + σ²·I and its diagonal, without the jitter (as
 * TFP's). The event-space bijector is the identity.
 *
 * @throws TypeError for a missing or non-kernel `kernel`, missing or non-numeric `indexPoints`, a
 *   `meanFn` that is not a function or returns a non-numeric value, or an unknown option;
 *   RangeError for `indexPoints` with fewer than `featureNdims + 1` dims, a negative or
 *   non-finite `jitter`, shapes that do not broadcast, or (from `cholesky`, at construction) a
 *   kernel matrix that is not positive definite even with the jitter.
 * @example
 * import { GaussianProcess, psdKernels } from 'stochax/distributions';
 * const kernel = new psdKernels.ExponentiatedQuadratic({ amplitude: 1.2, lengthScale: 0.5 });
 * const gp = new GaussianProcess({ kernel, indexPoints: [[0], [0.25], [0.5], [1]], observationNoiseVariance: 0.01 });
 * gp.eventShape;                       // [4]
 * gp.logProb([0.1, 0.3, 0.2, -0.4]);  // → Tensor float64 [] (the log marginal likelihood)
 * gp.sample(2, { seed: 0 });           // → Tensor float64 [2, 4]
 * gp.covariance();                     // → Tensor float64 [4, 4]
 */
export class GaussianProcess extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    observationNoiseVariance: { eventNdims: 0, constraint: nonNegative },
  };
  static override readonly optionNames: readonly string[] = ['kernel', 'indexPoints', 'meanFn', 'jitter'];

  readonly kernel: PositiveSemidefiniteKernel;
  readonly indexPoints: Tensor;
  readonly meanFn: ((indexPoints: Tensor) => TensorLike) | undefined;
  readonly observationNoiseVariance: Tensor | undefined;
  readonly jitter: number;
  /** m(x), broadcast to `batchShape + [N]`. */
  private readonly loc: Tensor;
  /** K + σ²·I (no jitter), `batchShape + [N, N]`. */
  private readonly cov: Tensor;
  private readonly marginal: MultivariateNormalTriL;
  /** The marginal's dtype: known only once the constructor has built it, so set there. */
  override readonly dtype: FloatDType;

  constructor(options: GaussianProcessOptions) {
    super(FN, options, true);
    const o = options;
    const kernel: unknown = o.kernel;
    if (!(kernel instanceof PositiveSemidefiniteKernel)) fail('type', FN, 'kernel', 'must be a positive-semidefinite kernel (e.g. new psdKernels.ExponentiatedQuadratic(...))', kernel);
    this.kernel = kernel as PositiveSemidefiniteKernel;
    if (o.indexPoints === undefined || o.indexPoints === null) fail('type', FN, 'indexPoints', 'is required (points [..., N, F])', o.indexPoints);
    const x = toParameter(FN, 'indexPoints', o.indexPoints);
    const f = this.kernel.featureNdims;
    if (x.ndim < f + 1) fail('range', FN, 'indexPoints', `must have at least ${f + 1} dims ([..., N] and the kernel's ${f} feature dim(s)); shape [${x.shape.join(', ')}]`, x.shape);
    this.indexPoints = x;
    if (o.meanFn !== undefined) checkFunction(FN, 'meanFn', o.meanFn, 'must be a function of the index points');
    this.meanFn = o.meanFn;
    this.jitter = o.jitter === undefined ? 1e-6 : checkFinite(FN, 'jitter', o.jitter);
    if (this.jitter < 0) fail('range', FN, 'jitter', 'must be non-negative', this.jitter);
    const noise = this.params.observationNoiseVariance;
    this.observationNoiseVariance = noise;

    const n = x.shape[x.ndim - f - 1]!;
    const k = this.kernel.matrix(x, x);                                   // [...kb ⊕ xb, N, N]
    const dt = k.dtype;
    const id = eye(n, n, 0, dt);
    const cov = noise === undefined ? k : add(k, mul(expandDims(noise, [-1, -2]), id));
    const mean = this.meanFn === undefined ? undefined : asTensor(`${FN}.meanFn`, 'result', this.meanFn(x));
    const batch = broadcastShapes(FN, [
      ['kernel.batchShape', this.kernel.batchShape],
      ['indexPoints (batch dims)', x.shape.slice(0, x.ndim - f - 1)],
      ['observationNoiseVariance', noise?.shape ?? []],
      ['meanFn(indexPoints) (batch dims)', mean === undefined ? [] : mean.shape.slice(0, -1)],
    ]);
    if (mean !== undefined && mean.ndim > 0 && mean.shape[mean.ndim - 1] !== n && mean.shape[mean.ndim - 1] !== 1) {
      fail('range', FN, 'meanFn', `must return [..., N] = [..., ${n}] values; got shape [${mean.shape.join(', ')}]`, mean.shape);
    }
    this.cov = broadcastTo(cov, [...batch, n, n]);
    this.loc = mean === undefined ? zeros([...batch, n], dt) : broadcastTo(mean, [...batch, n]);
    const scaleTril = cholesky(this.jitter === 0 ? this.cov : add(this.cov, mul(this.jitter, id)));
    this.marginal = new MultivariateNormalTriL({ loc: this.loc, scaleTril, validateArgs: this.validateArgs, allowNanStats: this.allowNanStats });
    this.dtype = this.marginal.dtype;
  }

  /**
   * The multivariate normal of the function values (TFP's `get_marginal_distribution`):
   * `MultivariateNormalTriL` with loc m(x) and scale cholesky(K + σ²·I + jitter·I).
   * @example
   * gp.getMarginalDistribution().scaleTril;   // → Tensor float64 [N, N]
   */
  getMarginalDistribution(): MultivariateNormalTriL { return this.marginal; }

  override get eventShape(): readonly number[] { return this.marginal.eventShape; }
  protected override batchShapeImpl(): readonly number[] { return this.marginal.batchShape; }

  protected sampleN(n: number, seed: KeyArray): Tensor { return this.marginal.sample([n], { seed }); }
  protected override logProbImpl(x: Tensor): Tensor { return this.marginal.logProb(x); }
  protected override meanImpl(): Tensor { return this.loc; }
  protected override modeImpl(): Tensor { return this.loc; }
  protected override covarianceImpl(): Tensor { return this.cov; }
  protected override varianceImpl(): Tensor {
    const k = this.kernel.apply(this.indexPoints, this.indexPoints, { exampleNdims: 1 });
    const noise = this.observationNoiseVariance;
    return broadcastTo(noise === undefined ? k : add(k, expandDims(noise, -1)), [...this.batchShape, ...this.eventShape]);
  }
  protected override entropyImpl(): Tensor { return this.marginal.entropy(); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }

  /** Batch slicing would have to slice the kernel's parameters and the index points too: not implemented. */
  protected override slicedParameters(): Record<string, unknown> {
    throw new NotImplementedError(`${FN}.slice is not implemented (slice the kernel's parameters and the index points, and build a new GaussianProcess)`);
  }
}
brand(GaussianProcess, 'GaussianProcess');   // recognised across copies of stochax (src/brand.ts)
