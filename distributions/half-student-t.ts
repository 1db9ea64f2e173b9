import type { KeyArray } from '../src/random/key-array.js';
import type { TensorLike } from '../src/tensor/core.js';
import { zeros } from '../src/tensor/ops/create.js';
import { abs, add, exp, greater, log, mul, square, sub, where } from '../src/tensor/ops/elementwise.js';
import { lgamma } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { betaincScalar } from '../src/tensor/special/betainc.js';
import { betaincinv } from '../src/tensor/special/betaincinv.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Exp } from './bijectors/exp.js';
import { Shift } from './bijectors/shift.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { atLeast, positive, real, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { logTail, logTailDdf, tail, tailDdf, tEntropy, tEntropyDdf, tLogPdf, tLogPdfDdf, tQuantile } from './internal/student-t-math.js';
import { StudentT } from './student-t.js';
import { detExp, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface HalfStudentTOptions extends DistributionOptions {
  /** Degrees of freedom ν > 0. */
  readonly df: TensorLike;
  /** Location μ: the lower end of the support (any real). */
  readonly loc: TensorLike;
  /** Scale σ > 0. */
  readonly scale: TensorLike;
}

/**
 * The half-Student's t distribution (TFP's `tfd.HalfStudentT`): |T|·σ + μ for T a standard
 * Student's t with ν degrees of freedom; density twice the Student's t density on x ≥ μ (−∞ log
 * density below μ). A common weakly informative prior for scales (Gelman 2006).
 *
 * Sampling is TFP's: a `StudentT(ν, 0, σ)` draw with the seed as given (so its salts and gamma
 * draws are `StudentT`'s), then |draw| + μ. The survival function is 2·P(T ≤ −t) from the
 * Student's t tail kernels (accurate far into the upper tail), the cdf 1 − 2·P(T ≤ −t) or, next
 * to μ, the central incomplete beta I_y(½, ν/2) (accurate there too), and
 * `quantile` μ + σ·t with P(|T| ≤ t) = p (the inverse incomplete beta for p ≤ ½, else
 * −t_ν((1 − p)/2)). `mean` is NaN for ν ≤ 1; `variance` +∞ for 1 < ν ≤ 2 and NaN
 * for ν ≤ 1, as TFP. The default event-space bijector is TFP's `Chain([Shift(loc), Exp])`.
 * Fully reparameterized; every method is differentiable in the value and all three parameters.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `df` or `scale` is not positive or a value is below `loc`.
 * @example
 * const d = new HalfStudentT({ df: 3, loc: 0, scale: [1, 2.5] });
 * d.logProb(1);               // → Tensor float64 [2]
 * d.sample(5, { seed: 0 });   // → Tensor float64 [5, 2]
 */
export class HalfStudentT extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    df: { constraint: positive },
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly df: Tensor;
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: HalfStudentTOptions) {
    super('HalfStudentT', options, true);
    this.df = this.param('df');
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const t = new StudentT({ df: this.df, loc: zeros(this.batchShape, this.dtype), scale: this.scale });
    return add(abs(t.sample(n, { seed })), this.loc);
  }

  /** Values must be ≥ loc (checked under `validateArgs`). */
  protected override get support(): Constraint { return atLeast('loc', this.loc); }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['df', this.df], ['loc', this.loc], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('HalfStudentT.logProb', this.args(x), halfTLogProb, halfTLogProbPartials, { partialOf: [dValue, dDf, dLoc, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofT('cdf', x, 0, centralMass, (df, t) => 2 * detExp(tLogPdf(df, t)), (df, t) => -2 * tailDdf(df, t));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('survivalFunction', x, 1, (df, t) => 2 * tail(df, t), (df, t) => -2 * detExp(tLogPdf(df, t)), (df, t) => 2 * tailDdf(df, t));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofT('logCdf', x, -Infinity, logCentralMass,
      (df, t) => 2 * detExp(tLogPdf(df, t)) / centralMass(df, t), (df, t) => -2 * tailDdf(df, t) / centralMass(df, t));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('logSurvivalFunction', x, 0, logSurvival, (df, t) => -detExp(tLogPdf(df, t) - logTail(df, t)), logTailDdf);
  }

  /** g(ν, (x − μ)/σ) as one fused node (`below` under μ), given g, ∂g/∂t and ∂g/∂ν. */
  private ofT(method: string, x: Tensor, below: number, g: (df: number, t: number) => number, dgdt: (df: number, t: number) => number, dgddf: (df: number, t: number) => number): Tensor {
    return fusedMap(`HalfStudentT.${method}`, this.args(x),
      (v, df, m, s) => (v < m ? below : g(df, (v - m) / s)),
      (out, v, df, m, s) => {
        if (!(v > m)) return;
        const t = (v - m) / s, d = dgdt(df, t);
        out[0] = d / s; out[1] = dgddf(df, t); out[2] = -d / s; out[3] = -d * t / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('HalfStudentT.quantile', [['p', p], ['df', this.df], ['loc', this.loc], ['scale', this.scale]],
      (q, df, m, s) => m + s * halfTQuantile(df, q),
      (out, q, df, _m, s) => {
        // t solves 1 − 2·P(T ≤ −t) = p: ∂t/∂p = 1/(2·pdf(t)), ∂t/∂ν = (∂P/∂ν)/pdf(t).
        const t = halfTQuantile(df, q), inv = detExp(-tLogPdf(df, t));
        out[0] = s * inv / 2; out[1] = s * tailDdf(df, t) * inv; out[2] = 1; out[3] = t;
      });
  }

  /** E|T|·σ = σ·2√(ν/π)·Γ((ν + 1)/2)/(Γ(ν/2)(ν − 1)) for ν > 1 (TFP's log form), ν replaced by 2 elsewhere. */
  private meanOffset(safeDf: Tensor): Tensor {
    const half = mul(0.5, safeDf);
    return exp(add(add(log(this.scale), Math.LN2 - 0.5 * detLog(Math.PI)), sub(add(mul(0.5, log(safeDf)), sub(lgamma(add(half, 0.5)), lgamma(half))), log(sub(safeDf, 1)))));
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor {
    const ok = greater(this.df, 1), safe = where(ok, this.df, 2);
    return this.asStat(where(ok, add(this.meanOffset(safe), this.loc), Number.NaN));
  }
  protected override varianceImpl(): Tensor {
    const df = this.df, finite = greater(df, 2), defined = greater(df, 1);
    const safe = where(finite, df, 3);
    const second = mul(square(this.scale), mul(safe, exp(mul(-1, log(sub(safe, 2))))));
    const v = sub(second, square(this.meanOffset(safe)));
    return this.asStat(where(finite, v, where(defined, Infinity, Number.NaN)));
  }
  protected override modeImpl(): Tensor { return this.asStat(this.loc); }
  protected override entropyImpl(): Tensor {
    // The Student's t entropy minus log 2.
    return fusedMap('HalfStudentT.entropy', [['df', broadcastTo(this.df, this.batchShape)], ['scale', this.scale]],
      (df, s) => tEntropy(df, detLog(s)) - Math.LN2,
      (out, df, s) => { out[0] = tEntropyDdf(df); out[1] = 1 / s; });
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Chain({ bijectors: [new Shift({ shift: this.loc, validateArgs: this.validateArgs }), new Exp({ validateArgs: this.validateArgs })], validateArgs: this.validateArgs });
  }
}

/**
 * P(0 ≤ T ≤ t) for t ≥ 0: 1 − 2·P(T ≤ −t) where that is at least ½, else I_y(½, ν/2) with
 * y = u²/(1 + u²), u = t/√ν (no cancellation next to 0, where the cdf is ~t).
 */
function centralMass(df: number, t: number): number {
  const p = tail(df, t);
  if (p <= 0.25 || df === Infinity) return 1 - 2 * p;
  const u2 = (t * t) / df;
  return betaincScalar(0.5, 0.5 * df, u2 / (1 + u2));
}

/** log P(0 ≤ T ≤ t): log1p(−2·P(T ≤ −t)) away from 0 (keeping the digits of a tiny tail), log of the central mass next to it. */
function logCentralMass(df: number, t: number): number {
  const p = tail(df, t);
  return p <= 0.25 ? detLog1p(-2 * p) : detLog(centralMass(df, t));
}

/** log 2·P(T ≤ −t): log1p(−P(0 ≤ T ≤ t)) next to 0 (where the tail's log would cancel), else log 2 + the tail's log. */
function logSurvival(df: number, t: number): number {
  return tail(df, t) > 0.25 ? detLog1p(-centralMass(df, t)) : Math.LN2 + logTail(df, t);
}

/**
 * t with P(|T| ≤ t) = p: for p ≤ ½ the inverse of the central incomplete beta (y = I⁻¹_p(½, ν/2),
 * t = √(νy/(1 − y)), so small p keep their digits), else −(the t quantile at (1 − p)/2), exact
 * arithmetic for p > ½ (so p near 1 keeps its digits too).
 */
function halfTQuantile(df: number, p: number): number {
  if (!(df > 0) || !(p >= 0 && p <= 1)) return Number.NaN;
  if (p > 0.5 || df === Infinity) return -tQuantile(df, (1 - p) / 2);
  if (p === 0) return 0;
  const y = betaincinv(p, 0.5, 0.5 * df);
  return Math.sqrt(df) * Math.sqrt(y / (1 - y));
}

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
/** log 2 + log t_ν((x − μ)/σ) − log σ on x ≥ μ. */
function halfTLogProb(v: number, df: number, m: number, s: number): number { return v < m ? -Infinity : tLogPdf(df, (v - m) / s) - detLog(s) + Math.LN2; }
function halfTLogProbPartials(out: Float64Array, v: number, df: number, m: number, s: number): void {
  out[0] = dValue(v, df, m, s); out[1] = dDf(v, df, m, s); out[2] = dLoc(v, df, m, s); out[3] = dScale(v, df, m, s);
}
/** (ν + 1)·t/(ν + t²), 0 at t = 0. */
function ratio(t: number, df: number): number { return (df + 1) / (t + df / t); }
function dValue(v: number, df: number, m: number, s: number): number { if (v < m) return 0; const t = (v - m) / s; return -ratio(t, df) / s; }
function dDf(v: number, df: number, m: number, s: number): number { return v < m ? 0 : tLogPdfDdf(df, (v - m) / s); }
function dLoc(v: number, df: number, m: number, s: number): number { if (v < m) return 0; const t = (v - m) / s; return ratio(t, df) / s; }
function dScale(v: number, df: number, m: number, s: number): number { if (v < m) return 0; const t = (v - m) / s; return (ratio(t, df) * t - 1) / s; }
brand(HalfStudentT, 'HalfStudentT');   // recognised across copies of stochax (src/brand.ts)
