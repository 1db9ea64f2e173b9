import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed } from '../src/samplers/seeds.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { fail } from '../src/checks.js';
import { floatStorage, isTracked, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { mul, sigmoidScalar, softplusScalar } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { betaincDa, betaincDb, betaincDx, betaincScalar } from '../src/tensor/special/betainc.js';
import { betaPowerLog, digammaDiff, lbeta } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, NotImplementedError, type DistributionOptions } from './distribution.js';
import { nonNegativeInteger, real, unitInterval, type Constraint } from './internal/constraints.js';
import { checkExactlyOne, logitsOf, oneMinusProbsOf, probsOf } from './internal/either-parameter.js';
import { countsUpTo } from './internal/count-support.js';
import { fusedMap } from './internal/fused.js';
import { LOG_TAIL_THRESHOLD, logTailSeries } from './internal/log-tail.js';
import { randomBinomial } from './internal/tfp-random-binomial.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

// logProb's functions at module scope: one function for every call, named by the portable registry (a compiled model's workers resolve them by name).
const logProbLogits = (k: number, n: number, l: number): number => binomialLogPmf(k, n, sigmoidScalar(l), sigmoidScalar(-l), -softplusScalar(-l), -softplusScalar(l));
const logProbLogitsPartials = (out: Float64Array, k: number, n: number, l: number, _d: number, y: number): void => {
  if (!(y > -Infinity)) return;
  out[1] = -softplusScalar(l) + digammaDiff(n - k + 1, k);
  out[2] = k - n * sigmoidScalar(l);
};
const logProbProbs = (k: number, n: number, p: number): number => binomialLogPmf(k, n, p, 1 - p, detLog(p), detLog1p(-p));
const logProbProbsPartials = (out: Float64Array, k: number, n: number, p: number, _d: number, y: number): void => {
  if (!(y > -Infinity)) return;
  out[1] = detLog1p(-p) + digammaDiff(n - k + 1, k);
  out[2] = (k === 0 ? 0 : k / p) - (n - k === 0 ? 0 : (n - k) / (1 - p));
};

export interface BinomialOptions extends DistributionOptions {
  /** Number of trials n ≥ 0 (integer-valued; checked under `validateArgs`). */
  readonly totalCount: TensorLike;
  /** Log-odds of success, log(p / (1 − p)). Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probability of success p ∈ [0, 1]. */
  readonly probs?: TensorLike;
}

/**
 * The binomial distribution (TFP's `tfd.Binomial`): P(k) = C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ on
 * k ∈ {0, …, n}; values outside (or non-integers) have log mass −∞.
 *
 * Sampling follows TFP on JAX: the seed is salted with `'binomial'`, then TFP's non-CPU sampler
 * runs (`internal/tfp-random-binomial.ts`): `[inversionSeed, btrsSeed] = splitSeed(seed)`, binomial
 * inversion where n·min(p, 1 − p) < 10 and Hörmann's BTRS elsewhere (both run over every
 * element, as TFP), flipped to n − k where p ≥ ½. Draws are float (the distribution's dtype).
 *
 * The log mass is computed through Stirling's formula (`betaPowerLog`), accurate for n up to
 * 1e15; logProb, cdf and survivalFunction are fused nodes differentiable in `totalCount` (as a
 * real number) and `logits`/`probs`. The cdf takes ⌊k⌋ (TFP passes k to betainc unfloored).
 * No event-space bijector (discrete).
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given; RangeError for shapes
 *   that do not broadcast or, with `validateArgs`, a negative or fractional `totalCount`, NaN
 *   logits or probs outside [0, 1].
 * @example
 * const d = new Binomial({ totalCount: 10, probs: [0.2, 0.9] });
 * d.logProb(3);               // → Tensor float64 [2]
 * d.sample(5, { seed: 0 });   // → Tensor float64 [5, 2]
 * d.mean().toArray();         // [2, 9]
 */
export class Binomial extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    totalCount: { constraint: nonNegativeInteger },
    logits: { constraint: real },
    probs: { constraint: unitInterval },
  };
  readonly totalCount: Tensor;
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;

  constructor(options: BinomialOptions) {
    super('Binomial', options, false);
    this.totalCount = this.param('totalCount');
    checkExactlyOne('Binomial', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
  }

  /** p (sigmoid(logits) when given logits), differentiable. */
  probsParameter(): Tensor { return probsOf(this.logits, this.probs); }
  /** log(p / (1 − p)), differentiable. */
  logitsParameter(): Tensor { return logitsOf(this.logits, this.probs); }
  /** 1 − p, accurate from logits. */
  private oneMinusProbs(): Tensor { return oneMinusProbsOf(this.logits, this.probs); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape], dtype = this.dtype;
    const counts = broadcastData(this.fn, 'totalCount', this.totalCount, shape) as Float64Array;
    const probs = broadcastData(this.fn, 'probs', this.probsParameter(), shape) as Float64Array;
    const draws = randomBinomial(shape, counts, probs, sanitizeSeed(seed, { salt: 'binomial' }), dtype);
    const out = floatStorage(dtype, draws.length);
    out.set(draws);
    return new Tensor(out, shape, dtype);
  }

  protected override get support(): Constraint { return countsUpTo(this.totalCount); }

  /**
   * 0, 1, …, n for a `totalCount` n that is the same for every batch member and does not depend
   * on the model's parameters (it must be known before the log density runs).
   */
  protected override enumerateSupportImpl(): Tensor {
    const fn = 'Binomial.enumerateSupport';
    if (isTracked(this.totalCount)) throw new NotImplementedError(`${fn}: \`totalCount\` depends on the model's parameters, so the support is not known in advance`);
    const counts = this.totalCount.data as ArrayLike<number>;
    const n = counts[0] ?? 0;
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] !== n) throw new NotImplementedError(`${fn}: \`totalCount\` differs across the batch (${n} and ${counts[i]}); the support must be the same for every member`);
    }
    if (!Number.isInteger(n) || n < 0) fail('range', fn, 'totalCount', 'must be a non-negative integer', n);
    const out = floatStorage(this.dtype, n + 1);
    for (let i = 0; i <= n; i++) out[i] = i;
    return new Tensor(out, [n + 1], this.dtype);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    if (this.logits !== undefined) {
      return fusedMap('Binomial.logProb', [['value', x], ['totalCount', this.totalCount], ['logits', this.logits]], logProbLogits, logProbLogitsPartials);
    }
    return fusedMap('Binomial.logProb', [['value', x], ['totalCount', this.totalCount], ['probs', this.probs!]], logProbProbs, logProbProbsPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, true); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, false); }

  /** P[X ≤ ⌊k⌋] = I_q(n − ⌊k⌋, ⌊k⌋ + 1) or P[X > ⌊k⌋] = I_p(⌊k⌋ + 1, n − ⌊k⌋), as one node in (n, p or logits). */
  private tail(method: string, x: Tensor, lower: boolean): Tensor {
    const logits = this.logits !== undefined;
    const param = this.logits ?? this.probs!;
    return fusedMap(`Binomial.${method}`, [['value', x], ['totalCount', this.totalCount], [logits ? 'logits' : 'probs', param]],
      (v, n, t) => {
        if (Number.isNaN(v)) return Number.NaN;
        const k = Math.floor(v), p = logits ? sigmoidScalar(t) : t, q = logits ? sigmoidScalar(-t) : 1 - t;
        if (k < 0) return lower ? 0 : 1;
        if (k >= n) return lower ? 1 : 0;
        if (k === 0) {   // (1 − p)ⁿ from log1p, exact where betainc would see 1 − p rounded
          const lq = logits ? -softplusScalar(t) : detLog1p(-t);
          return lower ? detExp(n * lq) : -detExpm1(n * lq);
        }
        if (!lower) return betaincScalar(k + 1, n - k, p);
        if (logits) return betaincScalar(n - k, k + 1, q);
        // q = fl(1 − p) is off by r = (1 − q) − p (exact); a first-order correction keeps the
        // n·r/q relative error (1e−7 at n = 1e9) out of the lower tail.
        const r = (1 - q) - p;
        return betaincScalar(n - k, k + 1, q) + (r === 0 ? 0 : r * betaincDx(n - k, k + 1, q));
      },
      (out, v, n, t) => {
        const k = Math.floor(v), p = logits ? sigmoidScalar(t) : t, q = logits ? sigmoidScalar(-t) : 1 - t;
        if (!(k >= 0 && k < n)) return;
        // d/dp of the lower tail is −I′_q; of the upper tail +I′_p (the same density, betaincDx).
        const dens = lower ? betaincDx(n - k, k + 1, q) : betaincDx(k + 1, n - k, p);
        const dp = lower ? -dens : dens;
        out[1] = lower ? betaincDa(n - k, k + 1, q) : betaincDb(k + 1, n - k, p);
        out[2] = logits ? dp * p * q : dp;
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor { return this.logTail('logCdf', x, true); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.logTail('logSurvivalFunction', x, false); }

  /**
   * log P[X ≤ ⌊k⌋] or log P[X > ⌊k⌋]: the log of the tail where it is above 1e−300, else the
   * pmf series from the boundary term. ∂/∂p = ∓(n − k)·pmf(k)/((1 − p)·tail), from logs;
   * ∂/∂n is NaN where the tail underflows.
   */
  private logTail(method: string, x: Tensor, lower: boolean): Tensor {
    const logits = this.logits !== undefined;
    const param = this.logits ?? this.probs!;
    const tail = lower ? this.cdfImpl.bind(this) : this.survivalFunctionImpl.bind(this);
    const parts = (t: number): [number, number, number, number] => (logits
      ? [sigmoidScalar(t), sigmoidScalar(-t), -softplusScalar(-t), -softplusScalar(t)]
      : [t, 1 - t, detLog(t), detLog1p(-t)]);
    const direct = tail(x);   // the tail itself (with its own partials), for the regime where it is representable
    return fusedMap(`Binomial.${method}`, [['value', x], ['totalCount', this.totalCount], [logits ? 'logits' : 'probs', param], ['tail', direct]],
      (v, n, t, c) => {
        if (Number.isNaN(v) || Number.isNaN(c)) return Number.NaN;
        if (c > LOG_TAIL_THRESHOLD || c === 0 && (v < 0 || v >= n)) return detLog(c);
        const [p, q, lp, lq] = parts(t), k = Math.floor(v);
        return lower
          ? logTailSeries(binomialLogPmf(k, n, p, q, lp, lq), k, 0, -1, (j) => (j / (n - j + 1)) * (q / p))
          : logTailSeries(binomialLogPmf(k + 1, n, p, q, lp, lq), k + 1, n, 1, (j) => ((n - j) / (j + 1)) * (p / q));
      },
      (out, v, n, t, c, y) => {
        const k = Math.floor(v);
        if (!(k >= 0 && k < n) || !(y > -Infinity)) return;
        const [p, q, lp, lq] = parts(t);
        const r = (n - k) / q * detExp(binomialLogPmf(k, n, p, q, lp, lq) - y);
        const dp = lower ? -r : r;
        out[1] = c > LOG_TAIL_THRESHOLD ? (lower ? betaincDa(n - k, k + 1, q) : betaincDb(k + 1, n - k, p)) / c : Number.NaN;
        out[2] = logits ? dp * p * q : dp;
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(mul(this.totalCount, this.probsParameter()), this.batchShape); }
  protected override varianceImpl(): Tensor {
    return broadcastTo(mul(mul(this.totalCount, this.probsParameter()), this.oneMinusProbs()), this.batchShape);
  }
  /** min(n, ⌊(n + 1)p⌋): the larger mode when there are two (TFP). */
  protected override modeImpl(): Tensor {
    const m = fusedMap('Binomial.mode', [['totalCount', this.totalCount], ['probs', this.probsParameter()]], (n, p) => Math.min(n, Math.floor((n + 1) * p)));
    return broadcastTo(m, this.batchShape);
  }
}

/**
 * log C(n, k) pᵏ qⁿ⁻ᵏ (q = 1 − p, with lp = log p and lq = log q given accurately): through
 * Stirling's formula where p and q are positive, else k·lp + (n − k)·lq − log((n + 1) B(k + 1, n − k + 1))
 * with 0·(−∞) = 0. −∞ for k outside {0, …, n}.
 */
export function binomialLogPmf(k: number, n: number, p: number, q: number, lp: number, lq: number): number {
  if (Number.isNaN(k) || Number.isNaN(n) || Number.isNaN(p)) return Number.NaN;
  if (!Number.isInteger(k) || k < 0 || k > n) return -Infinity;
  if (k === 0) return n * lq + 0;   // + 0: no −0
  if (k === n) return n * lp + 0;
  if (p > 0 && q > 0 && n >= 1) return betaPowerLog(k + 1, n - k + 1, p, q) - lp - lq - detLog(n + 1);
  const a = k === 0 ? 0 : k * lp, b = n - k === 0 ? 0 : (n - k) * lq;
  return a + b - lbeta(k + 1, n - k + 1) - detLog(n + 1);
}
brand(Binomial, 'Binomial');   // recognised across copies of stochax (src/brand.ts)
