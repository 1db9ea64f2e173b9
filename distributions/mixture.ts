import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { numbers } from '../src/tensor/core.js';
import { add, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { logsumexp } from '../src/tensor/ops/reduce.js';
import { gather, reshape, stack, type SliceSpec } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { Categorical } from './categorical.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { selectComponents } from './mixture-same-family.js';
import { brand } from '../src/brand.js';

export interface MixtureOptions extends DistributionOptions {
  /** The mixing weights: a Categorical over K = `components.length` classes, with the mixture's batch shape. */
  readonly cat: Categorical;
  /** K ≥ 1 distributions with the same dtype, batch shape (that of `cat`) and event shape. */
  readonly components: readonly Distribution[];
}

const show = (s: readonly number[]) => `[${s.join(', ')}]`;
const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * A mixture of arbitrary distributions (TFP's `tfd.Mixture`): density p(x) = Σₖ wₖ pₖ(x) with
 * w = `cat.probsParameter()` and pₖ = `components[k]`; the support is the union of the
 * components' supports. Batch shape: `cat.batchShape` (every component must have it); event
 * shape and dtype those of the components.
 *
 * Sampling follows TFP: the seed is split into K + 1 keys with salt `'Mixture'`; key 0 draws
 * `cat.sample(n)` and key k + 1 draws `components[k].sample(n)`; each draw keeps the component
 * its class selects (TFP's one-hot mask and sum, done as a gather). `logProb` is
 * logsumexp_k(log wₖ + log pₖ(x)), `logCdf` likewise and `cdf` Σₖ wₖ Fₖ(x); `mean` is Σ wₖ μₖ and
 * `variance` Σ wₖ σₖ² + Σ wₖ (μₖ − μ)² (TFP computes the same as `stddev`).
 * `entropyLowerBound()` gives Σₖ wₖ H(pₖ) ≤ H(p). Not reparameterized; no event-space bijector.
 *
 * @throws TypeError when `cat` is not a Categorical, `components` not a non-empty array of
 *   Distributions, or their dtypes differ; RangeError when `cat.numCategories` ≠ the number of
 *   components, or a component's batch or event shape differs (naming both shapes).
 * @example
 * const m = new Mixture({
 *   cat: new Categorical({ probs: [0.3, 0.7] }),
 *   components: [new Normal({ loc: -1, scale: 0.1 }), new Gamma({ concentration: 2, rate: 1 })],
 * });
 * m.logProb(0.5);             // → Tensor float64 []
 * m.sample(4, { seed: 0 });   // → Tensor float64 [4]
 */
export class Mixture extends Distribution {
  static override readonly optionNames = ['cat', 'components'];
  readonly cat: Categorical;
  readonly components: readonly Distribution[];

  constructor(options: MixtureOptions) {
    const fn = 'Mixture';
    const cat = options?.cat, cs = options?.components;
    if (!(cat instanceof Categorical)) fail('type', fn, 'cat', 'must be a Categorical', cat);
    if (!Array.isArray(cs) || cs.length === 0) fail('type', fn, 'components', 'must be a non-empty array of Distributions', cs);
    cs.forEach((c, i) => { if (!(c instanceof Distribution)) fail('type', fn, `components[${i}]`, 'must be a Distribution', c); });
    const list = cs as readonly Distribution[];
    if (cat.numCategories !== list.length) {
      fail('range', fn, 'cat', `must have one category per component: \`cat\` batchShape + [K] is ${show([...cat.batchShape, cat.numCategories])} but there are ${list.length} \`components\``, cat);
    }
    const d0 = list[0]!;
    list.forEach((c, i) => {
      if (c.dtype !== d0.dtype) fail('type', fn, `components[${i}]`, `must have the dtype of components[0] (${d0.dtype}); its dtype is ${c.dtype}`, c);
      if (!same(c.batchShape, cat.batchShape)) {
        fail('range', fn, `components[${i}]`, `must have the batch shape of \`cat\`: \`cat.batchShape\` ${show(cat.batchShape)} vs \`components[${i}].batchShape\` ${show(c.batchShape)}`, c);
      }
      if (!same(c.eventShape, d0.eventShape)) {
        fail('range', fn, `components[${i}]`, `must have the event shape of components[0]: ${show(d0.eventShape)} vs ${show(c.eventShape)}`, c);
      }
    });
    super(fn, options, false, d0.dtype);
    this.cat = cat;
    this.components = Object.freeze([...list]);
  }

  /** K, the number of components. */
  get numComponents(): number { return this.components.length; }

  protected override batchShapeImpl(): readonly number[] { return this.cat.batchShape; }
  override get eventShape(): readonly number[] { return this.components[0]!.eventShape; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const seeds = splitSeed(seed, { n: this.numComponents + 1, salt: 'Mixture' });
    const idx = this.cat.sample(n, { seed: seeds[0] }); // [n, B]
    const draws = this.components.map((c, k) => c.sample(n, { seed: seeds[k + 1] })); // K × [n, B, E]
    const x = stack(draws, 1 + this.batchShape.length); // [n, B, K, E]
    return selectComponents(x, numbers(idx), n, this.batchShape, this.eventShape);
  }


  /** logsumexp_k(log wₖ + f_k(x)) (weights `[B]` against values `[S, B]`). */
  private logMix(f: (c: Distribution) => Tensor): Tensor {
    const lw = this.cat.logitsParameter();
    return logsumexp(stack(this.components.map((c, k) => add(f(c), gather(lw, k, -1))), 0), 0);
  }

  protected override logProbImpl(x: Tensor): Tensor { return this.logMix((c) => c.logProb(x)); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.logMix((c) => c.logCdf(x)); }
  protected override cdfImpl(x: Tensor): Tensor {
    const w = this.cat.probsParameter();
    return this.components.map((c, k) => mul(c.cdf(x), gather(w, k, -1))).reduce((a, b) => add(a, b));
  }

  /** Σ wₖ f(componentₖ) for a `[B, E]` statistic. */
  private weighted(f: (c: Distribution) => Tensor): Tensor {
    const p = this.cat.probsParameter();
    const w = reshape(p, [...p.shape, ...this.eventShape.map(() => 1)]); // [B, K, 1…]
    return this.components.map((c, k) => mul(gather(w, k, this.batchShape.length), f(c))).reduce((a, b) => add(a, b));
  }

  protected override meanImpl(): Tensor { return this.weighted((c) => c.mean()); }
  protected override varianceImpl(): Tensor {
    const mu = this.meanImpl();
    return add(this.weighted((c) => c.variance()), this.weighted((c) => square(sub(c.mean(), mu))));
  }

  /**
   * A lower bound on the entropy, Σₖ wₖ H(pₖ) (by concavity of −p log p; TFP's
   * `entropy_lower_bound`), of shape `batchShape`.
   * @throws NotImplementedError when a component has no entropy.
   * @example
   * m.entropyLowerBound(); // → Tensor float64 []
   */
  entropyLowerBound(): Tensor {
    const w = this.cat.probsParameter();
    return this.components.map((c, k) => mul(gather(w, k, -1), c.entropy())).reduce((a, b) => add(a, b));
  }

  protected override slicedParameters(_fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    return { cat: this.cat.slice(...specs), components: this.components.map((c) => c.slice(...specs)) };
  }
}
brand(Mixture, 'Mixture');   // recognised across copies of stochax (src/brand.ts)
