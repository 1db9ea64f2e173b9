import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { eye } from '../src/tensor/ops/create.js';
import { add, div, mul, neg, sqrt, sub, where } from '../src/tensor/ops/elementwise.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { min, sum } from '../src/tensor/ops/reduce.js';
import { digamma, lgamma } from '../src/tensor/ops/special.js';
import { expandDims } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { SoftmaxCentered } from './bijectors/softmax-centered.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, simplex } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { registerKL } from './kl.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

// logProb's functions at module scope: one function for every call, named by the portable registry (a compiled model's workers resolve them by name).
const logProbTerm = (v: number, a: number): number => (v < 0 ? -Infinity : a === 1 ? 0 : (a - 1) * detLog(v));
const logProbTermPartials = (out: Float64Array, v: number, a: number): void => { out[0] = a === 1 ? 0 : (a - 1) / v; out[1] = detLog(v); };

export interface DirichletOptions extends DistributionOptions {
  /** Concentrations α > 0, shape [..., k] with k ≥ 2 (the last axis is the event). */
  readonly concentration: TensorLike;
}

/**
 * The Dirichlet distribution (TFP's `tfd.Dirichlet`): density Πⱼ xⱼ^(αⱼ−1) / B(α) on the open
 * simplex {x ∈ ℝᵏ : xⱼ > 0, Σ xⱼ = 1}, with B(α) = Πⱼ Γ(αⱼ) / Γ(Σⱼ αⱼ). Batch shape:
 * `concentration.shape[:-1]`; event shape [k].
 *
 * Sampling follows TFP on JAX: log-space gamma draws `random_gamma([n], α, log_space=True)`
 * with the seed as given (TFP's salts `'random_gamma'`, see `internal/tfp-random-gamma.ts`),
 * normalised in log space, which keeps tiny concentrations accurate: x = exp(g − max g) /
 * Σ exp(g − max g), TFP's exp(g − logsumexp(g)) without rounding the large log-sum (log gamma
 * draws reach −1e3 for α ~ 1e-3, where that costs ~1e-13 relative).
 * Draws are not differentiated (TFP's implicit reparameterization gradients are not built).
 *
 * `logProb` = Σ xlogy(α − 1, x) − log B(α) (TFP's formula), −∞ at a value with a negative
 * entry; differentiable in the value and `concentration`. A value off the simplex (row sum ≠ 1)
 * is only detected with `validateArgs` (as TFP).
 *
 * @throws TypeError for a missing or non-numeric `concentration`; RangeError when its last
 *   dimension is below 2, or with `validateArgs` for a non-positive entry (and, in `logProb`,
 *   for a value that is not on the simplex).
 * @example
 * const d = new Dirichlet({ concentration: [1, 2, 3] });
 * d.mean();                        // → [1/6, 1/3, 1/2]
 * d.logProb([0.2, 0.3, 0.5]);      // → Tensor float64 []: log(60 · 0.3 · 0.25) ≈ 1.504
 * d.sample([4, 5], { seed: 0 });   // → Tensor float64 [4, 5, 3]
 */
export class Dirichlet extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration: { eventNdims: 1, constraint: positive },
  };
  readonly concentration: Tensor;

  constructor(options: DirichletOptions) {
    super('Dirichlet', options, true);
    this.concentration = this.param('concentration');
    const k = this.concentration.shape[this.concentration.ndim - 1]!;
    if (k < 2) fail('range', this.fn, 'concentration', `must have an event size (last dimension) of at least 2; shape [${this.concentration.shape.join(', ')}]`, this.concentration.shape);
  }

  override get eventShape(): readonly number[] { return [this.k]; }
  private get k(): number { return this.concentration.shape[this.concentration.ndim - 1]!; }

  /**
   * α₀ = Σⱼ αⱼ, of shape `batchShape`.
   * @example
   * new Dirichlet({ concentration: [[1, 2], [3, 4]] }).totalConcentration(); // → [3, 7]
   */
  totalConcentration(): Tensor { return sum(this.concentration, -1); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const k = this.k, shape = [n, ...this.batchShape, k];
    const dtype = this.dtype;
    const conc = broadcastData(this.fn, 'concentration', this.concentration, shape) as ArrayLike<number>;
    const g = randomLogGamma(shape, conc, null, seed, dtype);
    const out = floatStorage(dtype, g.length);
    for (let o = 0; o < g.length; o += k) {
      let m = -Infinity;
      for (let j = 0; j < k; j++) m = Math.max(m, g[o + j]!);
      if (!Number.isFinite(m)) m = 0;
      let s = 0;
      for (let j = 0; j < k; j++) s += detExp(g[o + j]! - m);
      for (let j = 0; j < k; j++) out[o + j] = detExp(g[o + j]! - m) / s;
    }
    return new Tensor(out, shape, dtype);
  }

  protected override get support() { return simplex(); }

  protected override logProbImpl(x: Tensor): Tensor {
    const terms = fusedMap('Dirichlet.logProb', [['value', x], ['concentration', this.concentration]], logProbTerm, logProbTermPartials);
    return sub(sum(terms, -1), this.logBeta());
  }

  /** log B(α) = Σ lgamma(αⱼ) − lgamma(α₀), of shape `batchShape`. */
  private logBeta(): Tensor { return sub(sum(lgamma(this.concentration), -1), lgamma(this.totalConcentration())); }

  protected override meanImpl(): Tensor { return div(this.concentration, sum(this.concentration, -1, true)); }
  protected override varianceImpl(): Tensor {
    // TFP: s = (1 + α₀)^(−1/2), x = s·mean, var = x·(s − x).
    const s = div(1, sqrt(add(1, sum(this.concentration, -1, true))));
    const x = mul(s, this.meanImpl());
    return mul(x, sub(s, x));
  }
  protected override covarianceImpl(): Tensor {
    const s = div(1, sqrt(add(1, sum(this.concentration, -1, true))));
    const x = mul(s, this.meanImpl());
    const outer = neg(matmul(expandDims(x, -1), expandDims(x, -2)));
    const id = eye(this.k, this.k, 0, outer.dtype);
    return add(mul(outer, sub(1, id)), mul(expandDims(mul(x, sub(s, x)), -1), id));
  }
  protected override modeImpl(): Tensor {
    const a = this.concentration;
    const m = div(sub(a, 1), sub(sum(a, -1, true), this.k));
    return where(expandDims(greaterThanOne(a), -1), m, Number.NaN);
  }
  protected override entropyImpl(): Tensor {
    const a = this.concentration, a0 = this.totalConcentration();
    return sub(add(this.logBeta(), mul(sub(a0, this.k), digamma(a0))), sum(mul(sub(a, 1), digamma(a)), -1));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new SoftmaxCentered({ validateArgs: this.validateArgs }); }
}

/** True where every concentration of the event exceeds 1 (the mode is defined), shape `batchShape`. */
function greaterThanOne(a: Tensor): Tensor {
  const m = min(a, -1);
  const v = m.data as ArrayLike<number>, out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! > 1 ? 1 : 0;
  return new Tensor(out, m.shape, 'float64');
}

/**
 * KL(Dir(a) ‖ Dir(b)) = Σⱼ (aⱼ − bⱼ)(ψ(aⱼ) − ψ(a₀)) − log B(a) + log B(b) (TFP's formula).
 * @throws RangeError when the event sizes differ.
 */
registerKL(Dirichlet, Dirichlet, (d1, d2) => {
  const a = d1.concentration, b = d2.concentration;
  const ka = a.shape[a.ndim - 1], kb = b.shape[b.ndim - 1];
  if (ka !== kb) fail('range', 'Dirichlet.klDivergence', 'other', `has event shape [${kb}] but this distribution has event shape [${ka}]`, b.shape);
  const lb = (c: Tensor) => sub(sum(lgamma(c), -1), lgamma(sum(c, -1)));
  const dig = sub(digamma(a), digamma(sum(a, -1, true)));
  return add(sub(sum(mul(sub(a, b), dig), -1), lb(a)), lb(b));
});
brand(Dirichlet, 'Dirichlet');   // recognised across copies of stochax (src/brand.ts)
