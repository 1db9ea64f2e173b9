import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed } from '../src/samplers/seeds.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { exp, log } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { gammaPowerLog, lgamma } from '../src/tensor/special/gamma.js';
import { igammaDx, igammaScalar, igammacScalar } from '../src/tensor/special/igamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, nonNegativeInteger, real } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { fusedMap } from './internal/fused.js';
import { LOG_TAIL_THRESHOLD, logTailSeries } from './internal/log-tail.js';
import { randomPoisson } from './internal/tfp-random-poisson.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface PoissonOptions extends DistributionOptions {
  /** Rate λ ≥ 0. Exactly one of `rate` and `logRate`. */
  readonly rate?: TensorLike;
  /** log λ, used directly where a log rate is needed. */
  readonly logRate?: TensorLike;
}

/**
 * The Poisson distribution (TFP's `tfd.Poisson`): P(k) = λᵏ e^(−λ) / k! on k = 0, 1, 2, …
 * Negative and non-integer values have log mass −∞ (TFP's `force_probs_to_zero_outside_support`
 * behaviour; TFP's default instead evaluates the continuous formula there).
 *
 * Sampling follows TFP on JAX: the seed is used as given (no salt) by TFP's `random_poisson`
 * (`internal/tfp-random-poisson.ts`): `[seedLo, seedHi] = splitSeed(seed)`, transformed rejection for
 * λ ≥ 10 and Knuth's method below, both run over every element. The log mass goes through
 * Stirling's formula for k ≥ 9 (accurate at λ = 1e4 and beyond); logProb, cdf and
 * survivalFunction are fused nodes differentiable in `rate` or `logRate`. No event-space bijector.
 *
 * @throws TypeError unless exactly one of `rate` and `logRate` is given; RangeError for shapes
 *   that do not broadcast or, with `validateArgs`, a negative rate or NaN log rate.
 * @example
 * const d = new Poisson({ rate: [0.5, 1e4] });
 * d.logProb(3);               // → Tensor float64 [2]
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 2]
 */
export class Poisson extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    rate: { constraint: nonNegative },
    logRate: { constraint: real },
  };
  readonly rate: Tensor | undefined;
  readonly logRate: Tensor | undefined;

  constructor(options: PoissonOptions) {
    super('Poisson', options, false);
    checkExactlyOne('Poisson', options, 'rate', 'logRate');
    this.rate = this.params.rate;
    this.logRate = this.params.logRate;
  }

  /** λ (exp(logRate) when given in log space), differentiable. */
  rateParameter(): Tensor { return this.rate ?? exp(this.logRate!); }
  /** log λ, differentiable. */
  logRateParameter(): Tensor { return this.logRate ?? log(this.rate!); }
  private get paramEntry(): [string, Tensor] { return this.rate ? ['rate', this.rate] : ['logRate', this.logRate!]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape], dtype = this.dtype;
    const lr = broadcastData(this.fn, 'logRate', this.logRateParameter(), shape) as Float64Array;
    const draws = randomPoisson(shape, lr, sanitizeSeed(seed));
    const out = floatStorage(dtype, draws.length);
    out.set(draws);
    return new Tensor(out, shape, dtype);
  }

  protected override get support() { return nonNegativeInteger; }

  protected override logProbImpl(x: Tensor): Tensor {
    return this.logRate !== undefined
      ? fusedMap('Poisson.logProb', [['value', x], this.paramEntry], poissonLogProbByLogRate, poissonLogProbByLogRatePartials)
      : fusedMap('Poisson.logProb', [['value', x], this.paramEntry], poissonLogProb, poissonLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, true); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, false); }

  /** P[X ≤ ⌊k⌋] = Q(⌊k⌋ + 1, λ) (lower) or P[X > ⌊k⌋] = P(⌊k⌋ + 1, λ), as one node. */
  private tail(method: string, x: Tensor, lower: boolean): Tensor {
    const isLog = this.logRate !== undefined;
    return fusedMap(`Poisson.${method}`, [['value', x], this.paramEntry],
      (v, t) => {
        if (Number.isNaN(v)) return Number.NaN;
        const lam = isLog ? detExp(t) : t;
        if (v < 0) return lower ? 0 : 1;
        const a = Math.floor(v) + 1;
        return lower ? igammacScalar(a, lam) : igammaScalar(a, lam);
      },
      (out, v, t) => {
        if (!(v >= 0)) return;
        const lam = isLog ? detExp(t) : t, d = igammaDx(Math.floor(v) + 1, lam);
        const dl = lower ? -d : d;
        out[1] = isLog ? dl * lam : dl;
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor { return this.logTail('logCdf', x, true); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.logTail('logSurvivalFunction', x, false); }

  /**
   * log P[X ≤ ⌊k⌋] or log P[X > ⌊k⌋]: the log of the tail where it is above 1e−300, else the
   * pmf series from the boundary term (no underflow). ∂/∂λ = ∓pmf(⌊k⌋)/tail, from logs.
   */
  private logTail(method: string, x: Tensor, lower: boolean): Tensor {
    const isLog = this.logRate !== undefined;
    return fusedMap(`Poisson.${method}`, [['value', x], this.paramEntry],
      (v, t) => {
        if (Number.isNaN(v)) return Number.NaN;
        if (v < 0) return lower ? -Infinity : 0;
        const lam = isLog ? detExp(t) : t, lr = isLog ? t : detLog(t), k = Math.floor(v);
        const direct = lower ? igammacScalar(k + 1, lam) : igammaScalar(k + 1, lam);
        if (direct > LOG_TAIL_THRESHOLD) return detLog(direct);
        return lower
          ? logTailSeries(poissonLogPmf(k, lam, lr), k, 0, -1, (j) => j / lam)
          : logTailSeries(poissonLogPmf(k + 1, lam, lr), k + 1, Infinity, 1, (j) => lam / (j + 1));
      },
      (out, v, t, _c, _d, y) => {
        if (!(v >= 0) || !(y > -Infinity)) return;
        const lam = isLog ? detExp(t) : t, lr = isLog ? t : detLog(t);
        const r = detExp(poissonLogPmf(Math.floor(v), lam, lr) - y);
        const dl = lower ? -r : r;
        out[1] = isLog ? dl * lam : dl;
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.rateParameter(), this.batchShape); }
  protected override varianceImpl(): Tensor { return broadcastTo(this.rateParameter(), this.batchShape); }
  /** ⌊λ⌋ (the larger of the two modes when λ is an integer, as TFP). */
  protected override modeImpl(): Tensor {
    return broadcastTo(fusedMap('Poisson.mode', [['rate', this.rateParameter()]], Math.floor), this.batchShape);
  }
}

/**
 * k log λ − λ − log k! (λ = rate, lr = log λ): exact at k = 0 (−λ), direct for small k, and
 * through Stirling's formula (`gammaPowerLog`) for k ≥ 9. −∞ for negative or non-integer k.
 */
export function poissonLogPmf(k: number, lam: number, lr: number): number {
  if (Number.isNaN(k) || Number.isNaN(lam)) return Number.NaN;
  if (!Number.isInteger(k) || k < 0) return -Infinity;
  if (k === 0) return -lam;
  if (lam === 0) return -Infinity;
  if (lam === Infinity) return -Infinity;
  return k < 9 ? k * lr - lam - lgamma(k + 1) : gammaPowerLog(k + 1, lam) - lr;
}

// The log mass's kernels (rate and log-rate forms) are module functions, not closures made per
// call, so compiled code can inline them (see normal.ts).
function poissonLogProb(k: number, t: number): number { return poissonLogPmf(k, t, detLog(t)); }
function poissonLogProbPartials(out: Float64Array, k: number, t: number, _c: number, _d: number, y: number): void {
  if (!(y > -Infinity)) return;
  out[1] = (k === 0 ? 0 : k / t) - 1;
}
function poissonLogProbByLogRate(k: number, t: number): number { return poissonLogPmf(k, detExp(t), t); }
function poissonLogProbByLogRatePartials(out: Float64Array, k: number, t: number, _c: number, _d: number, y: number): void {
  if (!(y > -Infinity)) return;
  out[1] = k - detExp(t);
}
brand(Poisson, 'Poisson');   // recognised across copies of stochax (src/brand.ts)
