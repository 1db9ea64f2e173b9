import { checkPositiveInteger } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { eye } from '../src/tensor/ops/create.js';
import { add, div, log, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { mean, sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { checkSumsToZero, SumToZero } from './bijectors/sum-to-zero.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import type { Constraint } from './internal/constraints.js';
import { positive } from './internal/constraints.js';
import { detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface ZeroSumNormalOptions extends DistributionOptions {
  /** σ > 0: each coordinate of the (n−1)-dimensional subspace is N(0, σ²). Default 1. */
  readonly scale?: TensorLike;
  /** n ≥ 2, the length of the vector (its event shape is [n]). */
  readonly eventSize: number;
}

const HALF_LOG_2PI = 0.5 * detLog(2 * Math.PI);

/** Rows (last axis) that sum to zero. */
const sumsToZero: Constraint = {
  what: 'must have entries summing to 0 along the last axis',
  fixed: true,
  check(fn, arg, t) { checkSumsToZero(fn, arg, t, t.shape[t.ndim - 1] ?? 1); },
};

/**
 * A normal vector constrained to sum to zero (PyMC's `ZeroSumNormal`, Stan's
 * `sum_to_zero_vector` with a normal prior): x = z − mean(z) for z ~ N(0, σ²·Iₙ), so
 * Cov(x) = σ²·(Iₙ − 𝟙𝟙ᵀ/n). The usual prior for the group effects of a model that also has an
 * intercept: the effects are identified without fixing one group to zero.
 *
 * Its density is with respect to the (n−1)-dimensional volume on the subspace {Σ x = 0}: in any
 * orthonormal basis of it the coordinates are iid N(0, σ²), so
 * `logProb(x) = −Σ xᵢ²/(2σ²) − (n−1)·(log σ + ½ log 2π)` (PyMC's formula). The default
 * event-space bijector is {@link SumToZero} (an isometry from ℝⁿ⁻¹, log-Jacobian 0), so NUTS
 * samples the n−1 free coordinates. A value off the subspace is only detected with
 * `validateArgs`, or in pinned data (as a support check).
 *
 * Batch shape: `scale`'s shape; event shape [n]. One summed axis (PyMC's `n_zerosum_axes = 1`).
 *
 * @throws TypeError for a non-numeric `scale` or `eventSize`; RangeError for `eventSize` < 2, or
 *   with `validateArgs` for a non-positive scale (and in `logProb` for a value that does not sum
 *   to 0).
 * @example
 * const d = new ZeroSumNormal({ scale: 2, eventSize: 3 });
 * d.sample([], { seed: 0 }).toNumbers();   // three numbers summing to 0
 * d.variance();                             // → [8/3, 8/3, 8/3]: σ²·(1 − 1/n)
 * d.logProb([1, -1, 0]);                    // → −1/4 − 2·(log 2 + ½ log 2π) ≈ −3.476
 */
export class ZeroSumNormal extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    scale: { constraint: positive },
  };
  static override readonly optionNames: readonly string[] = ['eventSize'];
  readonly scale: Tensor;
  readonly eventSize: number;

  constructor(options: ZeroSumNormalOptions) {
    super('ZeroSumNormal', { scale: 1, ...options }, true);
    this.scale = this.param('scale');
    this.eventSize = checkPositiveInteger(this.fn, 'eventSize', options.eventSize);
    if (this.eventSize < 2) throw new RangeError(`ZeroSumNormal: \`eventSize\` must be at least 2 (one free coordinate); got ${this.eventSize}`);
  }

  override get eventShape(): readonly number[] { return [this.eventSize]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const z = samplersNormal([n, ...this.batchShape, this.eventSize], { seed, dtype: this.dtype });
    const x = mul(z, expandDims(this.scale, -1));
    return sub(x, mean(x, -1, true));
  }

  protected override get support() { return sumsToZero; }

  protected override logProbImpl(x: Tensor): Tensor {
    const s = this.scale, free = this.eventSize - 1;
    const quad = div(sum(square(x), -1), mul(2, square(s)));
    return sub(mul(-free, add(log(s), HALF_LOG_2PI)), quad);
  }

  protected override meanImpl(): Tensor {
    return broadcastTo(mul(0, expandDims(this.scale, -1)), [...this.batchShape, this.eventSize]);
  }
  protected override varianceImpl(): Tensor {
    const v = mul(square(this.scale), 1 - 1 / this.eventSize);
    return broadcastTo(expandDims(v, -1), [...this.batchShape, this.eventSize]);
  }
  protected override covarianceImpl(): Tensor {
    const n = this.eventSize;
    const centring = sub(eye(n, n, 0, 'float64'), 1 / n);
    return mul(expandDims(expandDims(square(this.scale), -1), -1), centring);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new SumToZero({ validateArgs: this.validateArgs }); }
}
brand(ZeroSumNormal, 'ZeroSumNormal');   // recognised across copies of stochax (src/brand.ts)
