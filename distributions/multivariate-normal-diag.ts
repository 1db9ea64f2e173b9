import { fail } from '../src/checks.js';
import type { TensorLike } from '../src/tensor/core.js';
import { eye, ones } from '../src/tensor/ops/create.js';
import { abs, div, log, mul, square } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { MultivariateNormalLinearOperator } from './internal/mvn-linear-operator.js';
import { brand } from '../src/brand.js';

export interface MultivariateNormalDiagOptions extends DistributionOptions {
  /** Mean μ, shape [..., k] (default 0). At least one of `loc` and `scaleDiag` is required. */
  readonly loc?: TensorLike;
  /** Standard deviations σ > 0, shape [..., k]: covariance diag(σ²) (default all ones). */
  readonly scaleDiag?: TensorLike;
}

/**
 * The multivariate normal with a diagonal scale (TFP's `tfd.MultivariateNormalDiag`): density
 * Πᵢ exp(−½((xᵢ − μᵢ)/σᵢ)²) / (σᵢ√(2π)) on ℝᵏ, covariance diag(σ²). Batch shape: the broadcast
 * of the leading dimensions of `loc` [..., k] and `scaleDiag` [..., k].
 *
 * Sampling (TFP on JAX, a `MultivariateNormalLinearOperator` with `LinearOperatorDiag`): the
 * seed is used as given, `samplers.normal([n, k, ...batch])` with the event axis then moved last
 * (TFP's `Sample` transpose), and y = μ + σ·z. Fully reparameterized; `logProb` is
 * differentiable in the value, `loc` and `scaleDiag`. KL divergence is registered against any
 * multivariate normal (TriL or Diag).
 *
 * @throws TypeError when neither `loc` nor `scaleDiag` is given; RangeError when the event sizes
 *   of `loc` and `scaleDiag` differ (both shapes are named), when batch shapes do not broadcast,
 *   or with `validateArgs` when an entry of `scaleDiag` is not positive.
 * @example
 * const d = new MultivariateNormalDiag({ loc: [0, 1], scaleDiag: [1, 2] });
 * d.variance();                 // → [1, 4]
 * d.logProb([[0, 1], [1, 1]]);  // → Tensor float64 [2]
 * d.sample([2, 3], { seed: 0 }); // → Tensor float64 [2, 3, 2]
 */
export class MultivariateNormalDiag extends MultivariateNormalLinearOperator {
  static override readonly parameterProperties = {
    loc: { eventNdims: 1, constraint: real },
    scaleDiag: { eventNdims: 1, constraint: positive },
  };
  /** `scaleDiag` as given (`undefined`: all ones). */
  readonly scaleDiag: Tensor | undefined;
  /** σ (ones when `scaleDiag` is omitted), shape [..., k]. */
  private readonly sigma: Tensor;
  private readonly k: number;

  constructor(options: MultivariateNormalDiagOptions) {
    super('MultivariateNormalDiag', options);
    const s = this.params.scaleDiag;
    if (s === undefined && this.loc === undefined) fail('type', this.fn, 'loc', 'or `scaleDiag` must be given', undefined);
    this.scaleDiag = s;
    this.k = s !== undefined ? s.shape[s.ndim - 1]! : this.loc!.shape[this.loc!.ndim - 1]!;
    this.sigma = s ?? ones([this.k], this.dtype);
    this.checkLocEventSize('scaleDiag', this.sigma.shape);
  }

  get eventSize(): number { return this.k; }
  get isDiagonal(): boolean { return true; }

  scaleMatvec(z: Tensor): Tensor { return mul(this.sigma, z); }
  scaleSolve(v: Tensor): Tensor { return div(v, this.sigma); }
  scaleSolveMatrix(m: Tensor): Tensor { return div(m, expandDims(this.sigma, -1)); }
  scaleLogAbsDet(): Tensor { return sum(log(abs(this.sigma)), -1); }
  scaleDense(): Tensor { return mul(expandDims(this.sigma, -1), eye(this.k, this.k, 0, this.sigma.dtype)); }
  scaleDiagPart(): Tensor { return this.sigma; }

  protected override covarianceImpl(): Tensor {
    const d = mul(expandDims(square(this.sigma), -1), eye(this.k, this.k, 0, this.sigma.dtype));
    return broadcastTo(d, [...this.batchShape, this.k, this.k]);
  }
  protected override varianceImpl(): Tensor { return broadcastTo(square(this.sigma), [...this.batchShape, this.k]); }
  protected override stddevImpl(): Tensor { return broadcastTo(abs(this.sigma), [...this.batchShape, this.k]); }
}
brand(MultivariateNormalDiag, 'MultivariateNormalDiag');   // recognised across copies of stochax (src/brand.ts)
