import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed, zerosSeed } from '../src/samplers/seeds.js';
import { broadcastData, broadcastShapes } from '../src/tensor/broadcast.js';
import { floatStorage, numbers, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { zeros } from '../src/tensor/ops/create.js';
import {
  abs, add, log, log1p, logaddexp, logSigmoid, mul, neg, sigmoid, square, stopGradient, sub, where,
} from '../src/tensor/ops/elementwise.js';
import type { SliceSpec } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Bernoulli } from './bernoulli.js';
import { BetaBinomial } from './beta-binomial.js';
import { Binomial } from './binomial.js';
import { Categorical } from './categorical.js';
import { Distribution, NotImplementedError, type DistributionOptions } from './distribution.js';
import { Geometric } from './geometric.js';
import { nonNegative, real, unitInterval } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { fusedMap } from './internal/fused.js';
import { NegativeBinomial } from './negative-binomial.js';
import { OrderedLogistic } from './ordered-logistic.js';
import { Poisson } from './poisson.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface InflatedOptions extends DistributionOptions {
  /** The distribution to inflate: scalar events, a float dtype, a batch shape every parameter below broadcasts to. */
  readonly distribution: Distribution;
  /** "Excess log-odds" l of the point mass: its weight is softmax([l, −l])₀ = σ(2l) (TFP's). Exactly one of this and `inflatedLocProbs`. */
  readonly inflatedLocLogits?: TensorLike;
  /** The weight π ∈ [0, 1] of the point mass. */
  readonly inflatedLocProbs?: TensorLike;
  /** Where the point mass sits (default 0). */
  readonly inflatedLoc?: TensorLike;
  /** Absolute tolerance ≥ 0 for "at `inflatedLoc`" (default 0). */
  readonly inflatedLocAtol?: TensorLike;
  /** Relative tolerance ≥ 0, times |inflatedLoc| (default 0). */
  readonly inflatedLocRtol?: TensorLike;
}

/** TFP's `DiscreteDistributionMixin` classes among stochax's scalar-event distributions. */
const DISCRETE = [Bernoulli, BetaBinomial, Binomial, Categorical, Geometric, NegativeBinomial, OrderedLogistic, Poisson];

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * A distribution with extra mass π at one point (TFP's `tfd.Inflated`; zero inflation by
 * default): the mixture π·δ(`inflatedLoc`) + (1 − π)·p with p = `distribution`, π =
 * `inflatedLocProbs` or σ(2·`inflatedLocLogits`) (TFP builds `Categorical(logits=[l, −l])`, so
 * l is half the log-odds). "At the point" means |x − loc| ≤ atol + rtol·|loc| (TFP's
 * `Deterministic` slack). Batch shape: `distribution.batchShape`; the event is a scalar.
 *
 * `logProb` follows TFP. For a discrete `distribution` (TFP's `DiscreteDistributionMixin`:
 * Bernoulli, BetaBinomial, Binomial, Categorical, Geometric, NegativeBinomial, OrderedLogistic,
 * Poisson) it is the mixture's log mass, log(π + (1 − π)·p(x)) at the point and
 * log(1 − π) + log p(x) elsewhere. For any other (continuous) distribution it is TFP's
 * "censored" form: log π at the point (a probability, not a density) and
 * log(1 − π) + log p(x) elsewhere, with `distribution.logProb` evaluated away from the point
 * (at `distribution.sample` with the zeros seed, as TFP: one draw per call) so its gradients
 * stay finite. `logCdf` is log(π·[x ≥ loc − slack] + (1 − π)·F(x)) (TFP's mixture); `cdf` and
 * the survival functions follow from it. `mean` is π·loc + (1 − π)·μ and `variance`
 * (1 − π)·σ² + π(1 − π)(loc − μ)² (TFP's mixture moments). `logProb` and `logCdf` are
 * differentiable in the weight, the distribution's parameters and (away from the point) the
 * value; `mean` and `variance` also in `inflatedLoc`.
 *
 * Sampling is TFP's mixture sampler: `splitSeed(seed, { n: 3, salt: 'Mixture' })`; key 0 draws
 * the class from `Categorical` over [π, 1 − π] (logits [l, −l], or log of the probabilities),
 * key 1 is the point mass's (unused), key 2 draws `distribution.sample(n)`; class 0 takes the
 * point. Not reparameterized. No default event-space bijector (TFP's Mixture has none).
 * Deviation from TFP: the weight and the point broadcast to the distribution's batch shape
 * (TFP requires equal batch shapes).
 *
 * @throws TypeError when `distribution` is not a Distribution, has an integer dtype (use e.g.
 *   `Bernoulli({ …, dtype: 'float32' })`), or unless exactly one of `inflatedLocLogits` and
 *   `inflatedLocProbs` is given; RangeError when the distribution's event is not a scalar,
 *   when a parameter does not broadcast to `distribution.batchShape`, or with `validateArgs`
 *   for π outside [0, 1] or negative tolerances.
 * @example
 * const zip = new Inflated({ distribution: new Poisson({ rate: 3 }), inflatedLocProbs: 0.2 });
 * zip.prob(0);                  // → 0.2 + 0.8·e⁻³
 * zip.sample(5, { seed: 42 });  // → Tensor float64 [5]
 * const spike = new Inflated({ distribution: new Normal({ loc: [1, 2], scale: 2 }), inflatedLocProbs: 0.3 });
 * spike.logProb([0, 0.5]);      // → Tensor float64 [2]: [log 0.3, log 0.7 + log N(0.5; 2, 2)]
 */
export class Inflated extends Distribution<FloatDType> {
  static override readonly optionNames = ['distribution'];
  static override readonly parameterProperties = {
    inflatedLocLogits: { constraint: real },
    inflatedLocProbs: { constraint: unitInterval },
    inflatedLoc: { constraint: real },
    inflatedLocAtol: { constraint: nonNegative },
    inflatedLocRtol: { constraint: nonNegative },
  };
  readonly distribution: Distribution;
  readonly inflatedLocLogits: Tensor | undefined;
  readonly inflatedLocProbs: Tensor | undefined;
  readonly inflatedLoc: Tensor;
  private readonly isDiscrete: boolean;

  constructor(options: InflatedOptions) {
    const fn = 'Inflated';
    const dist = options?.distribution;
    if (!(dist instanceof Distribution)) fail('type', fn, 'distribution', 'must be a Distribution', dist);
    if (dist.eventShape.length !== 0) fail('range', fn, 'distribution', `must have scalar events (its event shape is [${dist.eventShape.join(', ')}])`, dist);
    if (dist.dtype !== 'float32' && dist.dtype !== 'float64') fail('type', fn, 'distribution', `must have a float dtype, as the point mass (its dtype is ${dist.dtype})`, dist);
    super(fn, options, false, dist.dtype);
    checkExactlyOne(fn, options, 'inflatedLocLogits', 'inflatedLocProbs');
    this.distribution = dist;
    this.isDiscrete = DISCRETE.some((C) => dist instanceof C);
    this.inflatedLocLogits = this.params.inflatedLocLogits;
    this.inflatedLocProbs = this.params.inflatedLocProbs;
    this.inflatedLoc = this.params.inflatedLoc ?? zeros([], dist.dtype);
    for (const [name, t] of Object.entries(this.params)) {
      const b = broadcastShapes(fn, [[name, t.shape], ['distribution.batchShape', dist.batchShape]]);
      if (!same(b, dist.batchShape)) {
        fail('range', fn, name, `must broadcast to \`distribution.batchShape\` [${dist.batchShape.join(', ')}]; its shape is [${t.shape.join(', ')}]`, t.shape);
      }
    }
  }

  protected override batchShapeImpl(): readonly number[] { return this.distribution.batchShape; }

  /** atol + rtol·|loc| (TFP's `Deterministic` slack). */
  private slack(): Tensor {
    const atol = this.params.inflatedLocAtol ?? zeros([], this.dtype);
    const rtol = this.params.inflatedLocRtol;
    return rtol === undefined ? atol : add(atol, mul(rtol, abs(this.inflatedLoc)));
  }

  /** [log π, log(1 − π)] (differentiable). */
  private logWeights(): [Tensor, Tensor] {
    const l = this.inflatedLocLogits;
    if (l !== undefined) { const l2 = mul(2, l); return [logSigmoid(l2), logSigmoid(neg(l2))]; }
    const p = this.inflatedLocProbs!;
    return [log(p), log1p(neg(p))];
  }

  /** [π, 1 − π] (differentiable). */
  private weights(): [Tensor, Tensor] {
    const l = this.inflatedLocLogits;
    if (l !== undefined) { const l2 = mul(2, l); return [sigmoid(l2), sigmoid(neg(l2))]; }
    const p = this.inflatedLocProbs!;
    return [p, sub(1, p)];
  }

  /** 1 where the value is at the point (|x − loc| ≤ slack), else 0 (no gradient). */
  private atPoint(x: Tensor): Tensor {
    return fusedMap('Inflated.atPoint', [['value', x], ['inflatedLoc', this.inflatedLoc], ['slack', this.slack()]],
      (v, m, s) => (Math.abs(v - m) <= s ? 1 : 0));
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const batch = this.batchShape, B = sizeOf(batch), dtype = this.dtype;
    const seeds = splitSeed(seed, { n: 3, salt: 'Mixture' });
    const l = this.inflatedLocLogits, p = this.inflatedLocProbs;
    const pair = (a: ArrayLike<number>, f: (v: number) => [number, number]) => {
      const out = floatStorage(dtype, 2 * B);
      for (let i = 0; i < B; i++) [out[2 * i], out[2 * i + 1]] = f(a[i]!);
      return new Tensor(out, [...batch, 2], dtype);
    };
    const cat = l !== undefined
      ? new Categorical({ logits: pair(broadcastData(this.fn, 'inflatedLocLogits', l, batch) as ArrayLike<number>, (v) => [v, -v]) })
      : new Categorical({ probs: pair(broadcastData(this.fn, 'inflatedLocProbs', p!, batch) as ArrayLike<number>, (v) => [v, 1 - v]) });
    const idx = numbers(cat.sample(n, { seed: seeds[0] }));                   // [n, ...batch]
    const draws = this.distribution.sample(n, { seed: seeds[2] });           // [n, ...batch]
    const loc = broadcastData(this.fn, 'inflatedLoc', this.inflatedLoc, batch) as ArrayLike<number>;
    const d = numbers(draws), out = floatStorage(dtype, d.length);
    for (let i = 0; i < out.length; i++) out[i] = idx[i] === 0 ? loc[i % B]! : d[i]!;
    return new Tensor(out, [n, ...batch], dtype);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const [lw0, lw1] = this.logWeights(), at = this.atPoint(x);
    if (this.isDiscrete) {
      const rest = add(lw1, this.distribution.logProb(x));
      return where(at, logaddexp(lw0, rest), rest);
    }
    // TFP's censored form, with the continuous density evaluated away from the point.
    const safe = where(at, stopGradient(this.safeValue() ?? x), x);
    return where(at, lw0, add(lw1, this.distribution.logProb(safe)));
  }

  /** TFP's `_safe_value_for_distribution`: a draw with the zeros seed (undefined when the distribution cannot sample). */
  private safeValue(): Tensor | undefined {
    try {
      return this.distribution.sample([], { seed: zerosSeed() });
    } catch (e) {
      if (e instanceof NotImplementedError) return undefined;
      throw e;
    }
  }

  protected override logCdfImpl(x: Tensor): Tensor {
    const [lw0, lw1] = this.logWeights();
    const above = fusedMap('Inflated.abovePoint', [['value', x], ['inflatedLoc', this.inflatedLoc], ['slack', this.slack()]],
      (v, m, s) => (v >= m - s ? 1 : 0));
    const rest = add(lw1, this.distribution.logCdf(x));
    return where(above, logaddexp(lw0, rest), rest);
  }

  protected override meanImpl(): Tensor {
    const [w0, w1] = this.weights();
    return add(mul(w0, this.inflatedLoc), mul(w1, this.distribution.mean()));
  }
  protected override varianceImpl(): Tensor {
    const [w0, w1] = this.weights();
    return add(mul(w1, this.distribution.variance()), mul(mul(w0, w1), square(sub(this.inflatedLoc, this.distribution.mean()))));
  }

  protected override slicedParameters(fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    return { ...super.slicedParameters(fn, specs), distribution: this.distribution.slice(...specs) };
  }
}

brand(Inflated, 'Inflated');   // recognised across copies of stochax (src/brand.ts)
