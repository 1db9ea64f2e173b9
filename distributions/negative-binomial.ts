import type { KeyArray } from '../src/random/key-array.js';
import { gamma as samplersGamma } from '../src/samplers/gamma.js';
import { poisson as samplersPoisson } from '../src/samplers/poisson.js';
import { splitSeed } from '../src/samplers/seeds.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { div, exp, mul, neg, sigmoidScalar, softplusScalar } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { betaincDa, betaincDb, betaincDx, betaincScalar } from '../src/tensor/special/betainc.js';
import { betaPowerLog, digammaDiff, lbeta } from '../src/tensor/special/gamma.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { elementwise, nonNegativeInteger, positive, real } from './internal/constraints.js';
import { checkExactlyOne, logitsOf, oneMinusProbsOf, probsOf } from './internal/either-parameter.js';
import { fusedMap } from './internal/fused.js';
import { LOG_TAIL_THRESHOLD, logTailSeries } from './internal/log-tail.js';
import { detExp, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';
import { kernelFactory } from '../src/tensor/lowering.js';

/** [p, 1 − p, log p, log(1 − p)] from the parameter t (logits or probs). */
function parts(logits: boolean, t: number): [number, number, number, number] {
  return logits ? [sigmoidScalar(t), sigmoidScalar(-t), -softplusScalar(-t), -softplusScalar(t)] : [t, 1 - t, detLog(t), detLog1p(-t)];
}
// logProb's function and partials per parameterisation, made by named factories (a compiled model's workers make them again from the name and the flag).
const logProbOf = kernelFactory('NegativeBinomial.logProb#f', (logits: boolean) => (k: number, r: number, t: number): number => {
  const [p, q, lp, lq] = parts(logits, t);
  return negativeBinomialLogPmf(k, r, p, q, lp, lq);
});
const logProbPartialsOf = kernelFactory('NegativeBinomial.logProb#partials', (logits: boolean) => (out: Float64Array, k: number, r: number, t: number, _d: number, y: number): void => {
  if (!(y > -Infinity)) return;
  const [p, q, , lq] = parts(logits, t);
  out[1] = lq + digammaDiff(r, k);
  out[2] = logits ? k * q - r * p : (k === 0 ? 0 : k / p) - r / q;
});

export interface NegativeBinomialOptions extends DistributionOptions {
  /** r > 0, the number of failures that ends the experiment (any positive real). */
  readonly totalCount: TensorLike;
  /** Log-odds of success, log(p / (1 − p)). Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probability of success p ∈ [0, 1). */
  readonly probs?: TensorLike;
}

const probsConstraint = elementwise('must be in [0, 1)', (v) => v >= 0 && v < 1);

/**
 * The negative binomial distribution (TFP's `tfd.NegativeBinomial`): the number of successes
 * before `totalCount` = r failures, P(k) = Γ(k + r)/(Γ(r) k!) pᵏ (1 − p)ʳ on k = 0, 1, 2, …
 * (negative or non-integer values: log mass −∞). Mean r·p/(1 − p).
 *
 * Sampling follows TFP: `[gammaSeed, poissonSeed] = splitSeed(seed, { salt: 'NegativeBinomial' })`,
 * λ = `samplers.gamma([n], { alpha: r, beta: exp(−logits), seed: gammaSeed })`, then
 * `samplers.poisson([], { lam: λ, seed: poissonSeed })` (JAX's Poisson sampler, λ in float32).
 * The log mass goes through Stirling's formula (accurate for huge r and k); logProb, cdf,
 * survival function and their logs (no underflow in the tails) are fused nodes differentiable in
 * `totalCount` and `logits`/`probs` (∂/∂totalCount of a log tail is NaN where the tail
 * underflows). No event-space bijector (discrete).
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given; RangeError for shapes
 *   that do not broadcast or, with `validateArgs`, a non-positive `totalCount`, NaN logits or
 *   probs outside [0, 1).
 * @example
 * const d = new NegativeBinomial({ totalCount: 5, probs: 0.5 });
 * d.mean().item();            // 5
 * d.sample(3, { seed: 0 });   // → Tensor float64 [3]
 */
export class NegativeBinomial extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    totalCount: { constraint: positive },
    logits: { constraint: real },
    probs: { constraint: probsConstraint },
  };
  readonly totalCount: Tensor;
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;

  constructor(options: NegativeBinomialOptions) {
    super('NegativeBinomial', options, false);
    this.totalCount = this.param('totalCount');
    checkExactlyOne('NegativeBinomial', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
  }

  /** p (sigmoid(logits) when given logits), differentiable. */
  probsParameter(): Tensor { return probsOf(this.logits, this.probs); }
  /** log(p / (1 − p)), differentiable. */
  logitsParameter(): Tensor { return logitsOf(this.logits, this.probs); }
  private get paramEntry(): [string, Tensor] { return this.logits ? ['logits', this.logits] : ['probs', this.probs!]; }
  /** [p, 1 − p, log p, log(1 − p)] from the given parameter. */
  private parts(t: number): [number, number, number, number] { return parts(this.logits !== undefined, t); }
  /** d(parameter-space)/d p: 1 for probs, p(1 − p) for logits. */
  private dp(t: number): number { return this.logits ? sigmoidScalar(t) * sigmoidScalar(-t) : 1; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const [gammaSeed, poissonSeed] = splitSeed(seed, { salt: 'NegativeBinomial' }) as [KeyArray, KeyArray];
    const rate = samplersGamma([n], { alpha: this.totalCount, beta: exp(neg(this.logitsParameter())), dtype, seed: gammaSeed });
    const draws = samplersPoisson([], { lam: rate, dtype, seed: poissonSeed });
    return broadcastTo(draws, [n, ...this.batchShape]);
  }

  protected override get support() { return nonNegativeInteger; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('NegativeBinomial.logProb', [['value', x], ['totalCount', this.totalCount], this.paramEntry],
      logProbOf(this.logits !== undefined), logProbPartialsOf(this.logits !== undefined));
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, true); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, false); }

  /** I_q(r, ⌊k⌋ + 1) (lower tail) or I_p(⌊k⌋ + 1, r), as one node. */
  private tail(method: string, x: Tensor, lower: boolean): Tensor {
    return fusedMap(`NegativeBinomial.${method}`, [['value', x], ['totalCount', this.totalCount], this.paramEntry],
      (v, r, t) => {
        if (Number.isNaN(v)) return Number.NaN;
        if (v < 0) return lower ? 0 : 1;
        const [p, q] = this.parts(t), k = Math.floor(v);
        if (!lower) return betaincScalar(k + 1, r, p);
        // From probs, q = fl(1 − p) is off by (1 − q) − p: corrected to first order (see Binomial).
        const c = this.logits ? 0 : (1 - q) - p;
        return betaincScalar(r, k + 1, q) + (c === 0 ? 0 : c * betaincDx(r, k + 1, q));
      },
      (out, v, r, t) => {
        if (!(v >= 0)) return;
        const [p, q] = this.parts(t), k = Math.floor(v);
        out[1] = lower ? betaincDa(r, k + 1, q) : betaincDb(k + 1, r, p);
        out[2] = (lower ? -betaincDx(r, k + 1, q) : betaincDx(k + 1, r, p)) * this.dp(t);
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor { return this.logTail('logCdf', x, true); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.logTail('logSurvivalFunction', x, false); }

  /** log of a tail: directly above 1e−300, else the pmf series from the boundary term. */
  private logTail(method: string, x: Tensor, lower: boolean): Tensor {
    const direct = lower ? this.cdfImpl(x) : this.survivalFunctionImpl(x);
    return fusedMap(`NegativeBinomial.${method}`, [['value', x], ['totalCount', this.totalCount], this.paramEntry, ['tail', direct]],
      (v, r, t, c) => {
        if (Number.isNaN(v) || Number.isNaN(c)) return Number.NaN;
        if (c > LOG_TAIL_THRESHOLD || v < 0) return detLog(c);
        const [p, q, lp, lq] = this.parts(t), k = Math.floor(v);
        return lower
          ? logTailSeries(negativeBinomialLogPmf(k, r, p, q, lp, lq), k, 0, -1, (j) => j / ((r + j - 1) * p))
          : logTailSeries(negativeBinomialLogPmf(k + 1, r, p, q, lp, lq), k + 1, Infinity, 1, (j) => ((r + j) * p) / (j + 1));
      },
      (out, v, r, t, c, y) => {
        if (!(v >= 0) || !(y > -Infinity)) return;
        const [p, q, lp, lq] = this.parts(t), k = Math.floor(v);
        // d tail/dp = ∓ I′_q(r, k + 1) = ∓ (r + k)·pmf(k)/q.
        const g = (r + k) / q * detExp(negativeBinomialLogPmf(k, r, p, q, lp, lq) - y);
        out[1] = c > LOG_TAIL_THRESHOLD ? (lower ? betaincDa(r, k + 1, q) : betaincDb(k + 1, r, p)) / c : Number.NaN;
        out[2] = (lower ? -g : g) * this.dp(t);
      });
  }

  /** r·p/(1 − p) (r·e^logits from logits). */
  protected override meanImpl(): Tensor {
    return broadcastTo(mul(this.totalCount, exp(this.logitsParameter())), this.batchShape);
  }
  /** mean/(1 − p). */
  protected override varianceImpl(): Tensor {
    const q = oneMinusProbsOf(this.logits, this.probs);
    return broadcastTo(div(mul(this.totalCount, exp(this.logitsParameter())), q), this.batchShape);
  }
  /** ⌊(r − 1)·p/(1 − p)⌋ for r > 1, else 0 (TFP). */
  protected override modeImpl(): Tensor {
    const m = fusedMap('NegativeBinomial.mode', [['totalCount', this.totalCount], this.paramEntry],
      (r, t) => Math.floor((r > 1 ? r - 1 : 0) * (this.logits ? detExp(t) : t / (1 - t))));
    return broadcastTo(m, this.batchShape);
  }
}

/**
 * log[Γ(k + r)/(Γ(r) k!) pᵏ qʳ] (q = 1 − p, lp = log p, lq = log q given accurately), through
 * Stirling's formula where p and q are positive; −∞ for negative or non-integer k.
 */
export function negativeBinomialLogPmf(k: number, r: number, p: number, q: number, lp: number, lq: number): number {
  if (Number.isNaN(k) || Number.isNaN(r) || Number.isNaN(p)) return Number.NaN;
  if (!Number.isInteger(k) || k < 0) return -Infinity;
  if (k === 0) return r * lq + 0;
  if (p > 0 && q > 0) return betaPowerLog(k + 1, r, p, q) - lp - detLog(r + k);
  return k * lp + r * lq - lbeta(k + 1, r) - detLog(r + k);
}
brand(NegativeBinomial, 'NegativeBinomial');   // recognised across copies of stochax (src/brand.ts)
