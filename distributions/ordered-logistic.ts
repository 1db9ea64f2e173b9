import { brand } from '../src/brand.js';
import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { numbers, type TensorLike } from '../src/tensor/core.js';
import { zeros } from '../src/tensor/ops/create.js';
import { add, log1mexp, logSigmoid, neg, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo, concat, expandDims, gather } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { Ascending } from './bijectors/ascending.js';
import { Categorical, type CategoricalDType } from './categorical.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { elementwise, real, type Constraint } from './internal/constraints.js';
import { registerKL } from './kl.js';

const DTYPES: readonly string[] = ['int32', 'int64', 'float32', 'float64'];

export interface OrderedLogisticOptions extends DistributionOptions {
  /** K non-decreasing cutpoints c₀ ≤ … ≤ c_{K−1}, shape `[...batch, K]` (K ≥ 0; the order is checked under `validateArgs`). */
  readonly cutpoints: TensorLike;
  /** η, the location of the latent logistic variable, shape `[...batch]` (any real). */
  readonly loc: TensorLike;
  /** The dtype of samples and of `mode()` (default `'int32'`, as TFP). */
  readonly dtype?: CategoricalDType;
}

/** Each row (last axis) non-decreasing: what `validateArgs` checks on `cutpoints`; its bijector is TFP's `Ascending`. */
const nonDecreasing: Constraint = {
  what: 'must be non-decreasing along the last axis',
  bijector: () => new Ascending(),
  check(fn, arg, t) {
    const v = numbers(t), k = t.shape[t.ndim - 1] ?? 1;
    for (let r = 0; r < v.length; r += Math.max(k, 1)) {
      for (let j = 0; j < k; j++) if (Number.isNaN(v[r + j]!)) fail('range', fn, `${arg}[${r + j}]`, 'must not be NaN', v[r + j]);
      for (let j = 1; j < k; j++) {
        if (!(v[r + j]! >= v[r + j - 1]!)) fail('range', fn, arg, `must be non-decreasing along the last axis (row ${r / k}: ${v[r + j - 1]} then ${v[r + j]})`, v[r + j]);
      }
    }
  },
};

/**
 * The ordered logistic distribution over {0, 1, …, K} (TFP's `tfd.OrderedLogistic`, ordinal
 * regression): a latent Logistic(η, 1) variable cut at K non-decreasing cutpoints c, X the index
 * of the bin it falls in. P(X > j) = σ(η − cⱼ), so with c₋₁ = −∞ and c_K = +∞
 * P(X = j) = σ(η − cⱼ₋₁) − σ(η − cⱼ). Batch shape: the broadcast of `cutpoints.shape[:-1]` and
 * `loc.shape`; the event is a scalar.
 *
 * `categoricalLogProbs()` gives the K + 1 log probabilities from tensor ops, without the
 * cancellation of a difference of sigmoids: log P(X = j) = log σ(η − cⱼ₋₁) + log σ(cⱼ − η) +
 * log(1 − e^(cⱼ₋₁ − cⱼ)) (TFP takes log_sub_exp of the two log sigmoids; equal to rounding where
 * that is accurate). Everything else is TFP's: `sample` is
 * `Categorical({ logits: categoricalLogProbs() }).sample(n, seed)` (the seed as given, no salt),
 * and `logProb`, `cdf`, `survivalFunction`, `entropy` and the KL divergence are that
 * Categorical's (values outside {0, …, K} have log mass −∞). `mode` is the argmax class.
 * Differentiable in `cutpoints` and `loc`. Not reparameterized; no event-space bijector
 * (discrete, as TFP). Equal adjacent cutpoints give an empty class (log mass −∞).
 *
 * @throws TypeError for a missing or non-numeric parameter or a bad `dtype`; RangeError for a
 *   scalar `cutpoints`, shapes that do not broadcast, or with `validateArgs` for cutpoints that
 *   decrease (or are NaN) or a NaN `loc`, and in `logProb`/`cdf` for a value that is not an
 *   integer in [0, K].
 * @example
 * const d = new OrderedLogistic({ cutpoints: [-1, 0.5, 2], loc: [0.3, -1] });
 * d.categoricalProbs();        // → Tensor float64 [2, 4], rows summing to 1
 * d.logProb([0, 3]);           // → Tensor float64 [2]: log(1 − σ(1.3)), log σ(−3)
 * d.sample(5, { seed: 42 });   // → Tensor int32 [5, 2]
 * d.mode().toArray();          // [1, 0]
 */
export class OrderedLogistic extends Distribution<CategoricalDType> {
  static override readonly optionNames = ['dtype'];
  static override readonly parameterProperties = {
    cutpoints: { eventNdims: 1, constraint: nonDecreasing },
    loc: { constraint: real },
  };
  readonly cutpoints: Tensor;
  readonly loc: Tensor;
  private catCache: Categorical | undefined;

  constructor(options: OrderedLogisticOptions) {
    super('OrderedLogistic', options, false, options?.dtype ?? 'int32');
    this.cutpoints = this.param('cutpoints');
    this.loc = this.param('loc');
    if (!DTYPES.includes(this.dtype)) fail('type', 'OrderedLogistic', 'dtype', `must be one of ${DTYPES.join(', ')}`, this.dtype);
  }

  /** K + 1, the number of classes. */
  get numCategories(): number { return this.cutpoints.shape[this.cutpoints.ndim - 1]! + 1; }

  /**
   * log P(X = j) for j = 0…K, of shape `batchShape + [K + 1]` (differentiable in both parameters).
   * @example
   * new OrderedLogistic({ cutpoints: [0], loc: 0 }).categoricalLogProbs(); // → [log ½, log ½]
   */
  categoricalLogProbs(): Tensor {
    const K = this.numCategories - 1, batch = this.batchShape;
    if (K === 0) return zeros([...batch, 1], this.cutpoints.dtype);
    const c = broadcastTo(this.cutpoints, [...batch, K]);
    const d = sub(expandDims(this.loc, -1), c);            // η − cⱼ
    const up = logSigmoid(d), down = logSigmoid(neg(d));   // log P(X > j), log P(X ≤ j)
    const parts = [gather(down, [0], -1)];
    if (K > 1) {
      const lo = range(0, K - 1), hi = range(1, K);
      const gap = log1mexp(sub(gather(c, lo, -1), gather(c, hi, -1)));   // log(1 − e^(cⱼ₋₁ − cⱼ))
      parts.push(add(add(gather(up, lo, -1), gather(down, hi, -1)), gap));
    }
    parts.push(gather(up, [K - 1], -1));
    return concat(parts, -1);
  }

  /**
   * P(X = j) for j = 0…K, of shape `batchShape + [K + 1]`.
   * @example
   * new OrderedLogistic({ cutpoints: [-2, 0, 2], loc: 0 }).categoricalProbs(); // → [0.119, 0.381, 0.381, 0.119]
   */
  categoricalProbs(): Tensor { return this.categorical().probsParameter(); }

  /** The Categorical over the K + 1 classes that TFP samples and evaluates through. */
  private categorical(): Categorical {
    return (this.catCache ??= new Categorical({ logits: this.categoricalLogProbs(), dtype: this.dtype }));
  }

  protected sampleN(n: number, seed: KeyArray): Tensor { return this.categorical().sample(n, { seed }); }

  protected override get support(): Constraint {
    const k = this.numCategories;
    return elementwise(`must be an integer in [0, ${k - 1}]`, (v) => Number.isInteger(v) && v >= 0 && v < k);
  }

  protected override logProbImpl(x: Tensor): Tensor { return this.categorical().logProb(x); }
  protected override cdfImpl(x: Tensor): Tensor { return this.categorical().cdf(x); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.categorical().survivalFunction(x); }
  protected override entropyImpl(): Tensor { return this.categorical().entropy(); }
  protected override modeImpl(): Tensor { return this.categorical().mode(); }

  /** @internal KL(this ‖ b) between the two class distributions (TFP's registration). */
  klTo(b: OrderedLogistic): Tensor { return this.categorical().klDivergence(b.categorical()); }
}
brand(OrderedLogistic, 'OrderedLogistic');   // recognised across copies of stochax (src/brand.ts)

function range(a: number, b: number): number[] { return Array.from({ length: b - a }, (_, i) => a + i); }

/** KL(a ‖ b) = Σⱼ P_a(j)·(log P_a(j) − log P_b(j)) over the K + 1 classes (TFP's). */
registerKL(OrderedLogistic, OrderedLogistic, (a, b) => a.klTo(b));
