import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { numbers } from '../src/tensor/core.js';
import { add, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { logsumexp, sum } from '../src/tensor/ops/reduce.js';
import { expandDims, gather, reshape, type SliceSpec } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Categorical } from './categorical.js';
import { Distribution, NotImplementedError, type DistributionOptions } from './distribution.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface MixtureSameFamilyOptions extends DistributionOptions {
  /** The mixing weights: a Categorical over K components, batch shape `[]` or the mixture's batch shape. */
  readonly mixtureDistribution: Categorical;
  /** The components: any distribution whose rightmost batch dim (of size K) indexes the component. */
  readonly componentsDistribution: Distribution;
}

const show = (s: readonly number[]) => `[${s.join(', ')}]`;

/**
 * A mixture of K distributions of one family (TFP's `tfd.MixtureSameFamily`): density
 * p(x) = Σₖ wₖ pₖ(x) with w = `mixtureDistribution.probsParameter()` and pₖ the k-th member of the
 * components' rightmost batch dim. Batch shape: `componentsDistribution.batchShape[:-1]`; event
 * shape and support those of the components.
 *
 * Sampling follows TFP: the seed is split in two with salt `'MixtureSameFamily'`; the first
 * key draws `componentsDistribution.sample(n)` (all K components, `[n, B, K, E]`), the second
 * `mixtureDistribution.sample(n)` (`[n, B]`), and each draw keeps its selected component (TFP's
 * one-hot mask and sum, done as a gather: the same values). `logProb` is
 * logsumexp_k(log wₖ + log pₖ(x)); `logCdf`/`logSurvivalFunction` likewise, and `cdf`/survival
 * Σₖ wₖ Fₖ(x) (defined for any event shape the components support). `mean` is Σ wₖ μₖ;
 * `variance` (and `covariance` for vector events) by the law of total variance. Not
 * reparameterized (TFP's implicit `reparameterize` option is not implemented); no event-space
 * bijector (TFP has none).
 *
 * @throws TypeError when `mixtureDistribution` is not a Categorical or `componentsDistribution`
 *   not a Distribution; RangeError when the components have no batch dim, when the number of
 *   categories differs from the components' last batch dim, or when the mixture batch shape is
 *   neither `[]` nor the components' batch shape without its last dim (naming both shapes).
 * @example
 * const gm = new MixtureSameFamily({
 *   mixtureDistribution: new Categorical({ probs: [0.3, 0.7] }),
 *   componentsDistribution: new Normal({ loc: [-1, 1], scale: [0.1, 0.5] }),
 * });
 * gm.mean().item();          // ≈ 0.4
 * gm.variance().item();      // ≈ 1.018
 * gm.sample(5, { seed: 0 }); // → Tensor float64 [5]
 */
export class MixtureSameFamily extends Distribution {
  static override readonly optionNames = ['mixtureDistribution', 'componentsDistribution'];
  readonly mixtureDistribution: Categorical;
  readonly componentsDistribution: Distribution;

  constructor(options: MixtureSameFamilyOptions) {
    const fn = 'MixtureSameFamily';
    const m = options?.mixtureDistribution, c = options?.componentsDistribution;
    if (!(m instanceof Categorical)) fail('type', fn, 'mixtureDistribution', 'must be a Categorical', m);
    if (!(c instanceof Distribution)) fail('type', fn, 'componentsDistribution', 'must be a Distribution', c);
    const cb = c.batchShape, mb = m.batchShape, k = m.numCategories;
    if (cb.length === 0) fail('range', fn, 'componentsDistribution', 'must have a batch dim indexing the components; its batch shape is []', c);
    if (cb[cb.length - 1] !== k) {
      fail('range', fn, 'componentsDistribution',
        `must have as many components as \`mixtureDistribution\` has categories: \`mixtureDistribution\` batchShape + [K] is ${show([...mb, k])} but \`componentsDistribution.batchShape\` is ${show(cb)}`, c);
    }
    const outer = cb.slice(0, -1);
    if (mb.length !== 0 && (mb.length !== outer.length || mb.some((d, i) => d !== outer[i]))) {
      fail('range', fn, 'mixtureDistribution',
        `must have batch shape [] or the components' batch shape without its last dim: \`mixtureDistribution.batchShape\` ${show(mb)} vs \`componentsDistribution.batchShape\` ${show(cb)}`, m);
    }
    super(fn, options, false, c.dtype);
    this.mixtureDistribution = m;
    this.componentsDistribution = c;
  }

  protected override batchShapeImpl(): readonly number[] { return this.componentsDistribution.batchShape.slice(0, -1); }
  override get eventShape(): readonly number[] { return this.componentsDistribution.eventShape; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const [componentsSeed, mixSeed] = splitSeed(seed, { salt: 'MixtureSameFamily' });
    const x = this.componentsDistribution.sample(n, { seed: componentsSeed }); // [n, B, K, E]
    const idx = this.mixtureDistribution.sample(n, { seed: mixSeed }); // [n, B] or [n]
    return selectComponents(x, numbers(idx), n, this.batchShape, this.eventShape);
  }

  /** log softmax of the mixture logits, `[B, K]` or `[K]`. */
  private logWeights(): Tensor { return this.mixtureDistribution.logitsParameter(); }
  /** The mixture probabilities reshaped to `[B, K, 1…]` (or `[K, 1…]`) against `[B, K, E]`. */
  private weights(extra = 0): Tensor {
    const p = this.mixtureDistribution.probsParameter();
    return reshape(p, [...p.shape, ...new Array<number>(this.eventShape.length + extra).fill(1)]);
  }

  /** logsumexp_k(log wₖ + f_k(x)) with f a component method, x padded with a component axis. */
  private logMix(f: (x: Tensor) => Tensor, x: Tensor): Tensor {
    const lp = f(expandDims(x, x.ndim - this.eventShape.length)); // [S, B, K]
    return logsumexp(add(lp, this.logWeights()), -1);
  }
  /** Σ_k wₖ f_k(x). */
  private linMix(f: (x: Tensor) => Tensor, x: Tensor): Tensor {
    const v = f(expandDims(x, x.ndim - this.eventShape.length)); // [S, B, K]
    return sum(mul(v, this.mixtureDistribution.probsParameter()), -1);
  }

  protected override logProbImpl(x: Tensor): Tensor { return this.logMix((v) => this.componentsDistribution.logProb(v), x); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.logMix((v) => this.componentsDistribution.logCdf(v), x); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.logMix((v) => this.componentsDistribution.logSurvivalFunction(v), x); }
  protected override cdfImpl(x: Tensor): Tensor { return this.linMix((v) => this.componentsDistribution.cdf(v), x); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.linMix((v) => this.componentsDistribution.survivalFunction(v), x); }

  /** The component axis of `[B, K, E]` statistics. */
  private get kAxis(): number { return this.batchShape.length; }

  protected override meanImpl(): Tensor {
    return sum(mul(this.weights(), this.componentsDistribution.mean()), this.kAxis);
  }

  /** Law of total variance: Σ wₖ σₖ² + Σ wₖ (μₖ − μ)². */
  protected override varianceImpl(): Tensor {
    const w = this.weights(), means = this.componentsDistribution.mean(), vars = this.componentsDistribution.variance();
    const mu = sum(mul(w, means), this.kAxis, true);
    return add(sum(mul(w, vars), this.kAxis), sum(mul(w, square(sub(means, mu))), this.kAxis));
  }

  /** Σ wₖ Σₖ + Σ wₖ (μₖ − μ)(μₖ − μ)ᵀ for vector events. */
  protected override covarianceImpl(): Tensor {
    if (this.eventShape.length !== 1) throw new NotImplementedError(`${this.fn}.covariance is only defined for vector events (event shape ${show(this.eventShape)})`);
    const w = this.weights(1), means = this.componentsDistribution.mean(), covs = this.componentsDistribution.covariance();
    const mu = sum(mul(this.weights(), means), this.kAxis, true);
    const z = sub(means, mu);
    const outer = mul(expandDims(z, -1), expandDims(z, -2));
    return add(sum(mul(w, covs), this.kAxis), sum(mul(w, outer), this.kAxis));
  }

  /** Slices the mixture (when batched) and the components' outer batch dims, keeping the component axis whole. */
  protected override slicedParameters(_fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    const m = this.mixtureDistribution;
    return {
      mixtureDistribution: m.batchShape.length === 0 ? m : m.slice(...specs),
      componentsDistribution: this.componentsDistribution.slice(...specs, {}),
    };
  }
}

/**
 * @internal Draw i keeps component idx[i] of x `[n, B, K, E]` (TFP's one-hot mask and sum):
 * `idx` is `[n, B]` or `[n]` (one choice per draw shared across the batch). A gather, so the
 * dtype is kept and gradients flow to the chosen entries.
 */
export function selectComponents(x: Tensor, idx: ArrayLike<number>, n: number, batch: readonly number[], event: readonly number[]): Tensor {
  const b = sizeOf(batch), e = sizeOf(event), k = x.shape[1 + batch.length]!;
  const perDraw = idx.length / Math.max(n, 1);
  const picks = new Int32Array(n * b * e);
  for (let j = 0, o = 0; j < n; j++) {
    for (let i = 0; i < b; i++) {
      const c = idx[j * perDraw + (perDraw === 1 ? 0 : i)]!;
      const base = ((j * b + i) * k + c) * e;
      for (let t = 0; t < e; t++) picks[o++] = base + t;
    }
  }
  const flat = gather(reshape(x, [x.size]), new Tensor(picks, [picks.length], 'int32'));
  return reshape(flat, [n, ...batch, ...event]);
}
brand(MixtureSameFamily, 'MixtureSameFamily');   // recognised across copies of stochax (src/brand.ts)
