import { brand } from '../src/brand.js';
import { checkNonNegativeInteger, fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { sum } from '../src/tensor/ops/reduce.js';
import type { SliceSpec } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { registerKL } from './kl.js';

export interface IndependentOptions extends DistributionOptions {
  /** The distribution whose rightmost batch dims become event dims. */
  readonly distribution: Distribution;
  /** How many rightmost batch dims to reinterpret (a non-negative integer ≤ the batch rank; default: all of them). */
  readonly reinterpretedBatchNdims?: number;
}

/**
 * Reinterprets batch dims of a distribution as event dims (TFP's `tfd.Independent`): with
 * `r = reinterpretedBatchNdims`, the batch shape is `distribution.batchShape[:-r]` and the
 * event shape `distribution.batchShape[-r:] + distribution.eventShape`, and the log density is
 * the sum of the inner log densities over the reinterpreted dims: log p(x) = Σᵢ log pᵢ(xᵢ).
 * The support is the product of the inner supports.
 *
 * Sampling draws `distribution.sample(n)` with the seed as given (no salt, no split), as TFP.
 * `logCdf` is the sum of the inner log cdfs (the joint cdf of independent parts); `entropy` the
 * sum of the inner entropies; mean, variance, stddev and mode are the inner ones. The default
 * event-space bijector is the inner one (it acts element by element on the extra dims).
 * Reparameterized exactly when the inner distribution is.
 *
 * @throws TypeError when `distribution` is not a Distribution or `reinterpretedBatchNdims` is
 *   not a non-negative integer; RangeError when `reinterpretedBatchNdims` exceeds the inner
 *   batch rank (naming the inner batch shape).
 * @example
 * const d = new Independent({ distribution: new Normal({ loc: [[0, 1, 2], [3, 4, 5]], scale: 1 }), reinterpretedBatchNdims: 1 });
 * d.batchShape;               // [2]
 * d.eventShape;               // [3]
 * d.logProb([[0, 1, 2], [3, 4, 5]]); // → Tensor float64 [2]: 3·log φ(0) each
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 2, 3]
 */
export class Independent extends Distribution {
  static override readonly optionNames = ['distribution', 'reinterpretedBatchNdims'];
  readonly distribution: Distribution;

  /** The data check of the distribution it wraps (element by element, so any reshaping of batch into event keeps it). @internal */
  override checkDataSupport(fn: string, arg: string, value: Tensor): void { this.distribution.checkDataSupport(fn, arg, value); }
  readonly reinterpretedBatchNdims: number;

  constructor(options: IndependentOptions) {
    const d = options?.distribution;
    if (!(d instanceof Distribution)) fail('type', 'Independent', 'distribution', 'must be a Distribution', d);
    super('Independent', options, d.reparameterizationType === 'FULLY_REPARAMETERIZED', d.dtype);
    this.distribution = d;
    const rank = d.batchShape.length;
    if (options.reinterpretedBatchNdims === undefined) {
      this.reinterpretedBatchNdims = rank;
    } else {
      const r = checkNonNegativeInteger('Independent', 'reinterpretedBatchNdims', options.reinterpretedBatchNdims);
      if (r > rank) {
        fail('range', 'Independent', 'reinterpretedBatchNdims',
          `must not exceed the batch rank ${rank} of \`distribution\` (batch shape [${d.batchShape.join(', ')}])`, r);
      }
      this.reinterpretedBatchNdims = r;
    }
  }

  protected override batchShapeImpl(): readonly number[] {
    const b = this.distribution.batchShape;
    return b.slice(0, b.length - this.reinterpretedBatchNdims);
  }
  override get eventShape(): readonly number[] {
    const b = this.distribution.batchShape;
    return [...b.slice(b.length - this.reinterpretedBatchNdims), ...this.distribution.eventShape];
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    return this.distribution.sample(n, { seed });
  }

  /** Sums a tensor over its last `reinterpretedBatchNdims` axes. */
  private reduce(t: Tensor): Tensor {
    const r = this.reinterpretedBatchNdims;
    return r === 0 ? t : sum(t, Array.from({ length: r }, (_, i) => t.ndim - r + i));
  }

  protected override logProbImpl(x: Tensor): Tensor { return this.reduce(this.distribution.logProb(x)); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.reduce(this.distribution.logCdf(x)); }
  protected override entropyImpl(): Tensor { return this.reduce(this.distribution.entropy()); }
  protected override meanImpl(): Tensor { return this.distribution.mean(); }
  protected override varianceImpl(): Tensor { return this.distribution.variance(); }
  protected override stddevImpl(): Tensor { return this.distribution.stddev(); }
  protected override modeImpl(): Tensor { return this.distribution.mode(); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return this.distribution.defaultEventSpaceBijector(); }

  /** Slices the outer batch dims of the inner distribution and keeps the reinterpreted ones whole. */
  protected override slicedParameters(_fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    const rest = Array.from({ length: this.reinterpretedBatchNdims }, () => ({}) as SliceSpec);
    return { distribution: this.distribution.slice(...specs, ...rest), reinterpretedBatchNdims: this.reinterpretedBatchNdims };
  }
}
brand(Independent, 'Independent');   // recognised across copies of stochax (src/brand.ts)

/** KL(Independent(p) ‖ Independent(q)) = Σ KL(p ‖ q) over the reinterpreted dims (TFP's rule; event shapes must match). */
registerKL(Independent, Independent, (a, b) => {
  const same = (s: readonly number[], t: readonly number[]) => s.length === t.length && s.every((v, i) => v === t[i]);
  if (!same(a.eventShape, b.eventShape) || !same(a.distribution.eventShape, b.distribution.eventShape)) {
    throw new RangeError(`Independent.klDivergence: event shapes differ: [${a.eventShape.join(', ')}] and [${b.eventShape.join(', ')}] (inner [${a.distribution.eventShape.join(', ')}] and [${b.distribution.eventShape.join(', ')}])`);
  }
  const kl = a.distribution.klDivergence(b.distribution);
  const r = a.eventShape.length - a.distribution.eventShape.length;
  return r === 0 ? kl : sum(kl, Array.from({ length: r }, (_, i) => kl.ndim - r + i));
});
