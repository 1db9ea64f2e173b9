import type { KeyArray } from '../src/random/key-array.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { zeros } from '../src/tensor/ops/create.js';
import { abs, add, mul, neg } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { Bijector } from './bijectors/bijector.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { brand } from '../src/brand.js';

export interface DeterministicOptions extends DistributionOptions {
  /** The point the distribution sits on (any real; broadcasts with `atol` and `rtol`). */
  readonly loc: TensorLike;
  /** Absolute tolerance ≥ 0 for comparing values with `loc` (default 0). */
  readonly atol?: TensorLike;
  /** Relative tolerance ≥ 0, times |loc| (default 0). */
  readonly rtol?: TensorLike;
}

/**
 * The point mass at `loc` (TFP's `tfd.Deterministic`): with slack = atol + rtol·|loc|,
 * prob(x) = 1 when |x − loc| ≤ slack and 0 otherwise, so `logProb` is 0 or −∞, and
 * cdf(x) = 1 when x ≥ loc − slack. `sample` returns `loc` broadcast to
 * `[...sampleShape, ...batchShape]` and ignores the seed (as TFP). `logProb`, `prob` and `cdf`
 * are step functions: their gradients are zero (none is recorded for `loc`). Draws and the
 * moments are differentiable in `loc`. `mean` and `mode` are `loc`; `variance`, `stddev` and
 * `entropy` are 0. `quantile(p)` (not in TFP) is the cdf's generalized inverse: loc − slack for
 * p in (0, 1], −∞ at 0.
 *
 * The default event-space bijector is TFP's: it maps the empty vector ℝ⁰ (event shape [0]) onto
 * the point `loc` (TFP builds it as `Shift(loc) ∘ Reshape ∘ Pad`). KL(Deterministic ‖ any
 * distribution q) = −q.logProb(loc), registered against the `Distribution` base class as TFP.
 *
 * @throws TypeError for a missing or non-numeric `loc`; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `atol` or `rtol` is negative.
 * @example
 * const d = new Deterministic({ loc: [0, 1], atol: 0.1 });
 * d.prob([0.05, 2]);           // → Tensor float64 [2]: [1, 0]
 * d.logProb([0, 1]);           // → Tensor float64 [2]: [0, 0]
 * d.sample(3, { seed: 0 });    // → Tensor float64 [3, 2]: rows [0, 1]
 */
export class Deterministic extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    atol: { constraint: nonNegative },
    rtol: { constraint: nonNegative },
  };
  readonly loc: Tensor;
  readonly atol: Tensor;
  readonly rtol: Tensor;

  constructor(options: DeterministicOptions) {
    super('Deterministic', options, true);
    this.loc = this.param('loc');
    this.atol = this.params.atol ?? zeros([], this.loc.dtype);
    this.rtol = this.params.rtol ?? zeros([], this.loc.dtype);
  }

  /** atol + rtol·|loc| (just atol when no `rtol` was given, as TFP). */
  slack(): Tensor {
    return this.params.rtol === undefined ? this.atol : add(this.atol, mul(this.rtol, abs(this.loc)));
  }

  protected sampleN(n: number, _seed: KeyArray): Tensor {
    return broadcastTo(this.loc, [n, ...this.batchShape]);
  }

  protected override probImpl(x: Tensor): Tensor {
    return fusedMap('Deterministic.prob', [['value', x], ['loc', this.loc], ['slack', this.slack()]],
      (v, m, sl) => (Math.abs(v - m) <= sl ? 1 : 0));
  }
  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Deterministic.logProb', [['value', x], ['loc', this.loc], ['slack', this.slack()]],
      (v, m, sl) => (Math.abs(v - m) <= sl ? 0 : -Infinity));
  }
  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('Deterministic.cdf', [['value', x], ['loc', this.loc], ['slack', this.slack()]],
      (v, m, sl) => (v >= m - sl ? 1 : 0));
  }
  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Deterministic.quantile', [['p', p], ['loc', this.loc], ['slack', this.slack()]],
      (q, m, sl) => (q > 0 && q <= 1 ? m - sl : q === 0 ? -Infinity : Number.NaN),
      (out) => { out[1] = 1; out[2] = -1; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override varianceImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override stddevImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override entropyImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new PointBijector(this.loc); }
}

/**
 * ℝ⁰ → {loc}: forward maps x of shape [..., 0] to `loc` broadcast against x's leading shape;
 * inverse maps y to the empty vector of shape [...y.shape, 0]; log-det-Jacobian 0.
 */
class PointBijector extends Bijector {
  readonly forwardMinEventNdims = 1;
  override readonly isConstantJacobian = true;
  constructor(private readonly loc: Tensor) { super('DeterministicEventSpace', {}); }
  override get inverseMinEventNdims(): number { return 0; }
  protected forwardImpl(x: Tensor): Tensor { return add(zeros(x.shape.slice(0, -1), this.loc.dtype), this.loc); }
  protected inverseImpl(y: Tensor): Tensor { return zeros([...y.shape, 0], y.dtype); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return zeros(x.shape.slice(0, -1), x.dtype); }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor { return zeros(y.shape, y.dtype); }
  override forwardEventShape(shape: readonly number[]): number[] { return shape.slice(0, -1); }
  override inverseEventShape(shape: readonly number[]): number[] { return [...shape, 0]; }
}

/** KL(Deterministic(loc) ‖ q) = −q.logProb(loc) for any distribution q (TFP's registration). */
registerKL(Deterministic, Distribution, (a, b) => neg(b.logProb(a.loc)));
brand(Deterministic, 'Deterministic');   // recognised across copies of stochax (src/brand.ts)
