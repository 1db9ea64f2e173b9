import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { div, exp, log1mexpScalar, neg, sigmoidScalar, softplusScalar, square, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { zeros } from '../src/tensor/ops/create.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { elementwise, nonNegativeInteger, real } from './internal/constraints.js';
import { checkExactlyOne, logitsOf, probsOf } from './internal/either-parameter.js';
import { fusedMap } from './internal/fused.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface GeometricOptions extends DistributionOptions {
  /** Log-odds of success, log(p / (1 − p)). Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probability of success of each trial, p ∈ (0, 1]. */
  readonly probs?: TensorLike;
}

const TINY: Record<FloatDType, number> = { float32: 2 ** -126, float64: 2 ** -1022 };
const probsConstraint = elementwise('must be in (0, 1]', (v) => v > 0 && v <= 1);

/**
 * The geometric distribution (TFP's `tfd.Geometric`): the number of failures before the first
 * success, P(k) = (1 − p)ᵏ p on k = 0, 1, 2, …; negative or non-integer values have log mass −∞
 * (TFP floors the value when `validateArgs` is off; here −∞ marks values off the support).
 *
 * Sampling uses the seed as given, as TFP: u = `samplers.uniform([n, ...batch], { minval: tiny,
 * maxval: 1 })` (tiny = the dtype's smallest normal, so u > 0), draw = ⌊log u / log1p(−p)⌋.
 * cdf, survival function and their logs are closed forms accurate in both tails; every method
 * is one fused node differentiable in `logits` or `probs`. No event-space bijector.
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given; RangeError with
 *   `validateArgs` for probs outside (0, 1] or NaN logits.
 * @example
 * const d = new Geometric({ probs: 0.25 });
 * d.mean().item();            // 3
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4]
 */
export class Geometric extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    logits: { constraint: real },
    probs: { constraint: probsConstraint },
  };
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;

  constructor(options: GeometricOptions) {
    super('Geometric', options, false);
    checkExactlyOne('Geometric', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
  }

  /** p (sigmoid(logits) when given logits), differentiable. */
  probsParameter(): Tensor { return probsOf(this.logits, this.probs); }
  /** log(p / (1 − p)), differentiable. */
  logitsParameter(): Tensor { return logitsOf(this.logits, this.probs); }
  private get paramEntry(): [string, Tensor] { return this.logits ? ['logits', this.logits] : ['probs', this.probs!]; }
  /** [p, log p, log(1 − p), d log(1 − p)/dθ] for θ the given parameter. */
  private parts(t: number): [number, number, number, number] {
    if (this.logits) { const p = sigmoidScalar(t); return [p, -softplusScalar(-t), -softplusScalar(t), -p]; }
    return [t, detLog(t), detLog1p(-t), -1 / (1 - t)];
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype, shape = [n, ...this.batchShape];
    const p = broadcastTo(this.probsParameter(), this.batchShape).data as ArrayLike<number>;
    const u = samplersUniform(shape, { seed, dtype, minval: TINY[dtype], maxval: 1 }).data as Float64Array | Float32Array;
    const out = floatStorage(dtype, u.length), m = p.length;
    for (let i = 0; i < u.length; i++) out[i] = Math.floor(detLog(u[i]!) / detLog1p(-p[i % m]!)) + 0;
    return new Tensor(out, shape, dtype);
  }

  protected override get support() { return nonNegativeInteger; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Geometric.logProb', [['value', x], this.paramEntry],
      (k, t) => {
        if (Number.isNaN(k) || Number.isNaN(t)) return Number.NaN;
        if (!Number.isInteger(k) || k < 0) return -Infinity;
        const [, lp, lq] = this.parts(t);
        return (k === 0 ? 0 : k * lq) + lp;
      },
      (out, k, t, _c, _d, y) => {
        if (!(y > -Infinity)) return;
        const [p, , , dlq] = this.parts(t);
        out[1] = k * dlq + (this.logits ? 1 - p : 1 / t);
      });
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, (m) => -detExpm1(m), (m) => -detExp(m), 0); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.tail('logCdf', x, log1mexpScalar, (m) => -1 / detExpm1(-m), -Infinity); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, detExp, detExp, 1); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.tail('logSurvivalFunction', x, (m) => m, () => 1, 0); }

  /** g((⌊k⌋ + 1)·log(1 − p)) (P[X > k] = (1 − p)^(⌊k⌋+1)), `below` for k < 0, given g and g′. */
  private tail(method: string, x: Tensor, g: (m: number) => number, dg: (m: number) => number, below: number): Tensor {
    return fusedMap(`Geometric.${method}`, [['value', x], this.paramEntry],
      (v, t) => {
        if (Number.isNaN(v) || Number.isNaN(t)) return Number.NaN;
        if (v < 0) return below;
        const [, , lq] = this.parts(t);
        return g((Math.floor(v) + 1) * lq);
      },
      (out, v, t) => {
        if (!(v >= 0)) return;
        const [, , lq, dlq] = this.parts(t), c = Math.floor(v) + 1;
        out[1] = dg(c * lq) * c * dlq;
      });
  }

  protected override meanImpl(): Tensor {
    return broadcastTo(this.logits ? exp(neg(this.logits)) : div(sub(1, this.probs!), this.probs!), this.batchShape);
  }
  /** (1 − p)/p² (e^(−logits)/p from logits). */
  protected override varianceImpl(): Tensor {
    const p = this.probsParameter();
    return broadcastTo(this.logits ? div(exp(neg(this.logits)), p) : div(sub(1, p), square(p)), this.batchShape);
  }
  protected override modeImpl(): Tensor { return zeros(this.batchShape, this.dtype); }

  /** [−(1 − p) log(1 − p) − p log p] / p (0 at p = 1). */
  protected override entropyImpl(): Tensor {
    const h = fusedMap('Geometric.entropy', [this.paramEntry],
      (t) => {
        const [p, lp, lq] = this.parts(t);
        const q = this.logits ? sigmoidScalar(-t) : 1 - t;
        return (q === 0 ? 0 : -(q / p) * lq) - lp;
      },
      (out, t) => {
        // dH/dp = log(1 − p)/p².
        const [p, , lq] = this.parts(t);
        const dp = lq / (p * p);
        out[0] = this.logits ? dp * p * sigmoidScalar(-t) : dp;
      });
    return broadcastTo(h, this.batchShape);
  }
}
brand(Geometric, 'Geometric');   // recognised across copies of stochax (src/brand.ts)
