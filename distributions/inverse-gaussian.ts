import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import { sanitizeSeed, splitSeed } from '../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { div, pow } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Log } from './bijectors/log.js';
import { Scale } from './bijectors/scale.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { logNdtr, ndtr } from './internal/ndtr.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface InverseGaussianOptions extends DistributionOptions {
  /** Mean μ > 0. */
  readonly loc: TensorLike;
  /** Shape λ > 0 (the variance is μ³/λ). */
  readonly concentration: TensorLike;
}

const LOG_2PI = detLog(2 * Math.PI);

/**
 * The inverse Gaussian (Wald) distribution (TFP's `tfd.InverseGaussian`): density
 * √(λ/(2πx³))·exp(−λ(x − μ)²/(2μ²x)) on x > 0 (−∞ log density at x ≤ 0).
 *
 * Sampling is TFP's (Michael, Schucany & Haas 1976): the seed is salted with
 * `'inverse_gaussian'` and split in two with the same salt; y = z² from `samplers.normal` on the
 * first, u from `samplers.uniform` on the second (both of shape [n, ...batch]); with
 * r = 4λ/(μy), w = μ·sqrt1pm1(r)/(1 + √(r + 1)) (μ where r overflows), the draw is w when
 * u ≤ μ/(μ + w), else μ²/w. Draws are reparameterized as TFP's, by implicit gradients:
 * ∂x/∂θ = −(∂F/∂θ)/p(x) for F the cdf. The cdf is TFP's Φ(a) + e^(2λ/μ)·Φ(−b),
 * a = √(λ/x)(x/μ − 1), b = √(λ/x)(x/μ + 1), with the second term taken as exp(2λ/μ + log Φ(−b))
 * so it does not overflow; the survival function is Φ(−a) − that term, and whichever of the two
 * is smaller is computed directly, the other as one minus it (so neither tail cancels). `mean` μ and `variance`
 * μ³/λ as TFP; beyond TFP, `mode` μ(√(1 + (3μ/2λ)²) − 3μ/2λ). No `quantile` or `entropy`
 * (TFP has neither). The default event-space bijector is TFP's
 * `Chain([Softplus, Scale(−1), Log, Softplus])`.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when a parameter is not positive or a value is negative.
 * @example
 * const d = new InverseGaussian({ loc: 1, concentration: [1, 4] });
 * d.variance();               // → Tensor float64 [2]: [1, 0.25]
 * d.sample(5, { seed: 0 });   // → Tensor float64 [5, 2]
 */
export class InverseGaussian extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: positive },
    concentration: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly concentration: Tensor;

  constructor(options: InverseGaussianOptions) {
    super('InverseGaussian', options, true);
    this.loc = this.param('loc');
    this.concentration = this.param('concentration');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const [chi2Seed, unifSeed] = splitSeed(sanitizeSeed(seed, { salt: 'inverse_gaussian' }), { salt: 'inverse_gaussian' }) as [KeyArray, KeyArray];
    const z = samplersNormal(shape, { seed: chi2Seed, dtype }).data as ArrayLike<number>;
    const u = samplersUniform(shape, { seed: unifSeed, dtype }).data as ArrayLike<number>;
    const m = broadcastData(this.fn, 'loc', this.loc, shape) as ArrayLike<number>;
    const l = broadcastData(this.fn, 'concentration', this.concentration, shape) as ArrayLike<number>;
    const out = floatStorage(dtype, z.length);
    for (let i = 0; i < out.length; i++) out[i] = inverseGaussianDraw(z[i]! * z[i]!, u[i]!, m[i]!, l[i]!);
    // The draws as one node whose partials are the implicit reparameterization gradients.
    return fusedMap('InverseGaussian.sample', [['draw', new Tensor(out, shape, dtype)], ['loc', this.loc], ['concentration', this.concentration]],
      (x) => x, (o, x, mu, lam) => {
        const inv = detExp(-inverseGaussianLogProb(x, mu, lam)), e = secondTerm(x, mu, lam), ra = Math.sqrt(lam / x) * (x / mu - 1);
        o[1] = ((2 * lam) / (mu * mu)) * e * inv;
        o[2] = (detExp(-0.5 * ra * ra) / Math.sqrt(2 * Math.PI * lam * x) - (2 / mu) * e) * inv;
      });
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['concentration', this.concentration]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('InverseGaussian.logProb', this.args(x), inverseGaussianLogProb, inverseGaussianLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dLoc, dConcentration] });
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofF('cdf', x, 0, false, false); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.ofF('survivalFunction', x, 1, true, false); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.ofF('logCdf', x, -Infinity, false, true); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.ofF('logSurvivalFunction', x, 0, true, true); }

  /**
   * F, 1 − F, or their logs, as one fused node (`below` at x ≤ 0). The smaller of F and 1 − F is
   * computed directly (cdf: Φ(a) + E; survival: Φ(−a) − E, E = e^(2λ/μ)Φ(−b)) and the larger as
   * one minus it, so neither tail cancels; logs take log1p of the smaller one's negation.
   */
  private ofF(method: string, x: Tensor, below: number, upper: boolean, logged: boolean): Tensor {
    return fusedMap(`InverseGaussian.${method}`, this.args(x),
      (v, m, l) => (v <= 0 ? below : tailValue(v, m, l, upper, logged)),
      (out, v, m, l, _d, y) => {
        if (!(v > 0)) return;
        const e = secondTerm(v, m, l), ra = a(v, m, l), phiA = detExp(-0.5 * ra * ra) / Math.sqrt(2 * Math.PI);
        // ∂F/∂x = p(x); ∂F/∂μ = −(2λ/μ²)·E; ∂F/∂λ = −φ(a)/√(λx) + (2/μ)·E (using e^(2λ/μ)φ(b) = φ(a)).
        const scale = (upper ? -1 : 1) / (logged ? detExp(y) : 1);
        out[0] = scale * detExp(inverseGaussianLogProb(v, m, l));
        out[1] = -scale * ((2 * l) / (m * m)) * e;
        out[2] = scale * (-phiA / Math.sqrt(l * v) + (2 / m) * e);
      });
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor { return this.asStat(this.loc); }
  protected override varianceImpl(): Tensor { return this.asStat(div(pow(this.loc, 3), this.concentration)); }
  protected override modeImpl(): Tensor {
    return fusedMap('InverseGaussian.mode', [['loc', broadcastTo(this.loc, this.batchShape)], ['concentration', this.concentration]],
      (m, l) => { const r = (1.5 * m) / l; return m * (Math.sqrt(1 + r * r) - r); },
      (out, m, l) => {
        const r = (1.5 * m) / l, q = Math.sqrt(1 + r * r), dr = r / q - 1; // d/dr (√(1 + r²) − r)
        out[0] = q - r + m * dr * (1.5 / l); out[1] = -m * dr * r / l;
      });
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    const v = this.validateArgs;
    return new Chain({ bijectors: [new Softplus({ validateArgs: v }), new Scale({ scale: -1, validateArgs: v }), new Log({ validateArgs: v }), new Softplus({ validateArgs: v })], validateArgs: v });
  }
}

/** √(λ/x)(x/μ − 1). */
function a(v: number, m: number, l: number): number { return Math.sqrt(l / v) * (v / m - 1); }
/** e^(2λ/μ)·Φ(−√(λ/x)(x/μ + 1)), as exp(2λ/μ + log Φ(−b)). */
function secondTerm(v: number, m: number, l: number): number { return detExp((2 * l) / m + logNdtr(-Math.sqrt(l / v) * (v / m + 1))); }

/** F or 1 − F (or their logs) at x > 0: the smaller directly, the larger as one minus it. */
function tailValue(v: number, m: number, l: number, upper: boolean, logged: boolean): number {
  const e = secondTerm(v, m, l), ra = a(v, m, l);
  const lower = ndtr(ra) + e, up = ndtr(-ra) - e;
  const small = Math.min(lower, up), smallIsUpper = up < lower;
  if (smallIsUpper === upper) return logged ? detLog(small) : small;
  return logged ? detLog1p(-small) : 1 - small;
}

/** One draw from y = z², u (TFP's transformation with its sqrt1pm1 form). */
function inverseGaussianDraw(y: number, u: number, m: number, l: number): number {
  const arg = (4 * l) / (m * y);
  const finite = arg < Infinity, safe = finite ? arg : 1;
  const ratio = detExpm1(0.5 * detLog1p(safe)) / (1 + Math.sqrt(safe + 1));
  const w = m * (finite ? ratio : 1);
  return u <= m / (m + w) ? w : (m * m) / w;
}

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function inverseGaussianLogProb(v: number, m: number, l: number): number { return inverseGaussianLogProbCore(v, m, l, 0, 0.5 * (detLog(l) - LOG_2PI)); }
/** ½(log λ − log 2π) − (3/2)·log x − λ(x − μ)²/(2μ²x); −∞ at x ≤ 0. */
function inverseGaussianLogProbCore(v: number, m: number, l: number, _: number, h: number): number {
  if (!(v > 0)) return Number.isNaN(v) ? Number.NaN : -Infinity;
  const d = v - m;
  return h - 1.5 * detLog(v) - (l * d * d) / (2 * m * m * v);
}
/** ½(log λ − log 2π) computed once per call (at compile time for a constant concentration). */
const LOG_PROB: Hoisted = { of: [2], h: (l) => 0.5 * (detLog(l) - LOG_2PI), core: inverseGaussianLogProbCore };
function inverseGaussianLogProbPartials(out: Float64Array, v: number, m: number, l: number): void { out[0] = dValue(v, m, l); out[1] = dLoc(v, m, l); out[2] = dConcentration(v, m, l); }
/** −3/(2x) − λ(x² − μ²)/(2μ²x²). */
function dValue(v: number, m: number, l: number): number { return v > 0 ? -1.5 / v - (l * (v - m) * (v + m)) / (2 * m * m * v * v) : 0; }
/** λ(x − μ)/μ³. */
function dLoc(v: number, m: number, l: number): number { return v > 0 ? (l * (v - m)) / (m * m * m) : 0; }
/** 1/(2λ) − (x − μ)²/(2μ²x). */
function dConcentration(v: number, m: number, l: number): number { if (!(v > 0)) return 0; const d = v - m; return 0.5 / l - (d * d) / (2 * m * m * v); }

brand(InverseGaussian, 'InverseGaussian');   // recognised across copies of stochax (src/brand.ts)
