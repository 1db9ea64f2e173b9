import { checkNonNegativeInteger } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { eye } from '../src/tensor/ops/create.js';
import { log, mul } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { CorrelationCholesky } from './bijectors/correlation-cholesky.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { sampleLkj } from './internal/lkj-onion.js';
import { correlationCholeskyFactor, dLogNormalizer, dLogNormalizerOf, logNormalizer, logNormalizerOf } from './lkj.js';
import { kernelFactory } from '../src/tensor/lowering.js';
import { brand } from '../src/brand.js';

// logProb's scalar function and partials for dimension D, made by named factories (sent to workers as the name and D).
// A NaN or −∞ sum means a diagonal entry < 0, = 0 or NaN: off the support.
const logProbOf = kernelFactory('CholeskyLKJ.logProb#f', (D: number) => (s: number, t: number, eta: number) =>
  (Number.isNaN(s) || Number.isNaN(t) || s === -Infinity ? -Infinity : (2 * eta - 2) * s + t - logNormalizer(D, eta)));
const logProbPartialsOf = kernelFactory('CholeskyLKJ.logProb#partials', (D: number) => (out: Float64Array, s: number, _t: number, eta: number) => {
  out[0] = 2 * eta - 2; out[1] = 1; out[2] = 2 * s - dLogNormalizer(D, eta);
});

export interface CholeskyLKJOptions extends DistributionOptions {
  /** D, the size of the factors (a non-negative integer). */
  readonly dimension: number;
  /** η > 0; L·Lᵀ ~ LKJ(η) (η = 1: correlation matrices uniform). */
  readonly concentration: TensorLike;
}

/**
 * The LKJ distribution on Cholesky factors of D×D correlation matrices (TFP's
 * `tfd.CholeskyLKJ`): if L ~ CholeskyLKJ(η) then L·Lᵀ ~ LKJ(η). The support is the
 * lower-triangular matrices with a positive diagonal and unit rows; with respect to the
 * D(D−1)/2 free entries below the diagonal the density is
 * Πᵢ Lᵢᵢ^(D − 1 − i + 2η − 2) / Z(η) (0-based i), Z the LKJ normalizer (`LKJ.logNormalization`).
 * Batch shape: `concentration`'s shape; event shape [D, D].
 *
 * Sampling is TFP's `sample_lkj(…, cholesky_space=True)`, the onion method with its seeds (salt
 * `'sample_lkj'`; the same draws as `new LKJ({ …, inputOutputCholesky: true })`). Not
 * reparameterized (as TFP). `logProb` is differentiable in the factor and in η; it reads only the
 * diagonal (as TFP) and is −∞ where a diagonal entry is not positive (TFP: NaN).
 * `defaultEventSpaceBijector()` is `CorrelationCholesky` (TFP's). Deviation from TFP:
 * `validateArgs` requires η > 0 (TFP: η ≥ 1, though the sampler and density hold for η > 0)
 * and checks values (lower-triangular, positive diagonal, unit rows within 1e-6).
 *
 * @throws TypeError for a non-integer `dimension` or a bad `concentration`; RangeError for a
 *   negative `dimension`, with `validateArgs` for η ≤ 0 or a value that is not the Cholesky
 *   factor of a correlation matrix, and for a value whose last two dimensions are not [D, D].
 * @example
 * const d = new CholeskyLKJ({ dimension: 3, concentration: [1, 2.5] });
 * const L = d.sample(4, { seed: 42 });   // → Tensor float64 [4, 2, 3, 3], lower-triangular
 * d.logProb(L);                          // → Tensor float64 [4, 2]
 * d.defaultEventSpaceBijector().forward([0.3, -0.2, 0.5]); // → a 3×3 factor with unit rows
 */
export class CholeskyLKJ extends Distribution<FloatDType> {
  static override readonly optionNames = ['dimension'];
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
  };
  readonly dimension: number;
  readonly concentration: Tensor;

  constructor(options: CholeskyLKJOptions) {
    super('CholeskyLKJ', options, false);
    this.dimension = checkNonNegativeInteger('CholeskyLKJ', 'dimension', options.dimension);
    this.concentration = this.param('concentration');
  }

  override get eventShape(): readonly number[] { return [this.dimension, this.dimension]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const conc = broadcastData(this.fn, 'concentration', this.concentration, this.batchShape) as ArrayLike<number>;
    return sampleLkj(n, this.dimension, conc, this.batchShape, true, seed, this.dtype);
  }

  protected override get support(): Constraint { return correlationCholeskyFactor; }

  protected override logProbImpl(x: Tensor): Tensor {
    const D = this.dimension;
    const logDiag = log(sum(mul(x, eye(D, D, 0, x.dtype)), -1));   // [..., D]
    const w = x.dtype === 'float32' ? new Float32Array(D) : new Float64Array(D);
    for (let i = 0; i < D; i++) w[i] = D - 1 - i;
    // Σᵢ (2η − 2 + D − 1 − i)·log Lᵢᵢ − log Z(η) = (2η − 2)·S + T − log Z(η).
    const S = sum(logDiag, -1), T = sum(mul(new Tensor(w, [D], x.dtype), logDiag), -1);
    return fusedMap('CholeskyLKJ.logProb', [['Σ log diag', S], ['Σ (D − 1 − i)·log diag', T], ['concentration', this.concentration]],
      logProbOf(D), logProbPartialsOf(D));
  }

  /**
   * log Z(η), of shape `batchShape` (the LKJ normalizer; differentiable in η).
   * @example
   * new CholeskyLKJ({ dimension: 2, concentration: 1 }).logNormalization(); // → log 2
   */
  logNormalization(): Tensor {
    const D = this.dimension;
    return fusedMap('CholeskyLKJ.logNormalization', [['concentration', this.concentration]], logNormalizerOf(D), dLogNormalizerOf(D));
  }

  protected override defaultEventSpaceBijectorImpl(): Bijector { return new CorrelationCholesky({ validateArgs: this.validateArgs }); }
}
brand(CholeskyLKJ, 'CholeskyLKJ');   // recognised across copies of stochax (src/brand.ts)
