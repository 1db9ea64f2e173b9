import type { KeyArray } from '../src/random/key-array.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import type { TensorLike } from '../src/tensor/core.js';
import { add, exp, log, sigmoidScalar, softplusScalar } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Exp } from './bijectors/exp.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { Logistic } from './logistic.js';
import { detExp, detLog, detLog1p, detSin, detTan } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface LogLogisticOptions extends DistributionOptions {
  /** Location μ of log X (any real); e^μ is the median. */
  readonly loc: TensorLike;
  /** Scale σ > 0 of log X (the reciprocal of the usual shape β = 1/σ). */
  readonly scale: TensorLike;
}

/**
 * The log-logistic (Fisk) distribution (TFP's `tfd.LogLogistic`): X = e^Y with
 * Y ~ Logistic(μ, σ); with z = (log x − μ)/σ, cdf sigmoid(z) and density
 * e^(−z)/(σx(1 + e^(−z))²) on x > 0.
 *
 * Sampling is TFP's (an `Exp` bijector over a Logistic base): a `Logistic(μ, σ)` draw with the
 * seed as given, exponentiated. The log density is TFP's −log σ − μ + (1 − σ)z − 2·softplus(z)
 * (at x = 0 its limit: −∞ for σ < 1, +∞ for σ > 1; −∞ below 0); `logCdf` is TFP's −softplus(−z)
 * and `logSurvivalFunction` −softplus(z) (TFP's logCdf − z, the same value without its
 * cancellation for z ≪ 0); `quantile` is exp(μ + σ·logit p). `mean` e^μ·πσ/sin(πσ) is NaN for
 * σ ≥ 1 and `variance` for σ ≥ ½ (TFP: σ > 1 and σ > ½); `mode` is 0 for σ ≥ 1. The default
 * event-space bijector is TFP's `Exp`. Fully reparameterized; every method is differentiable in
 * the value and both parameters.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0` or a value is negative.
 * @example
 * const d = new LogLogistic({ loc: 0, scale: [0.25, 0.5] });
 * d.quantile(0.5);            // → Tensor float64 [2]: [1, 1] (the median e^μ)
 * d.sample(3, { seed: 0 });   // → Tensor float64 [3, 2]
 */
export class LogLogistic extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: LogLogisticOptions) {
    super('LogLogistic', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    return exp(new Logistic({ loc: this.loc, scale: this.scale }).sample(n, { seed }));
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('LogLogistic.logProb', this.args(x), logLogisticLogProb, logLogisticLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dLoc, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofZ('cdf', x, 0, sigmoidScalar, (z) => sigmoidScalar(z) * sigmoidScalar(-z)); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.ofZ('logCdf', x, -Infinity, (z) => -softplusScalar(-z), (z) => sigmoidScalar(-z)); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.ofZ('survivalFunction', x, 1, (z) => sigmoidScalar(-z), (z) => -sigmoidScalar(z) * sigmoidScalar(-z)); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.ofZ('logSurvivalFunction', x, 0, (z) => -softplusScalar(z), (z) => -sigmoidScalar(z)); }

  /** g(z), z = (log x − μ)/σ, as one fused node (`atZero` at x ≤ 0), given g and g′ (∂z/∂x = 1/(σx), ∂z/∂μ = −1/σ, ∂z/∂σ = −z/σ). */
  private ofZ(method: string, x: Tensor, atZero: number, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`LogLogistic.${method}`, this.args(x),
      (v, m, s) => (v <= 0 ? atZero : g((detLog(v) - m) / s)),
      (out, v, m, s) => {
        if (!(v > 0)) return;
        const z = (detLog(v) - m) / s, d = dg(z);
        out[0] = d / (s * v); out[1] = -d / s; out[2] = -d * z / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('LogLogistic.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => detExp(m + s * (detLog(q) - detLog1p(-q))),
      (out, q, _m, s, _d, y) => { out[0] = (y * s) / (q * (1 - q)); out[1] = y; out[2] = y * (detLog(q) - detLog1p(-q)); });
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor {
    return fusedMap('LogLogistic.mean', [['loc', broadcastTo(this.loc, this.batchShape)], ['scale', this.scale]],
      (m, s) => (s < 1 ? detExp(m) / sinc(s) : Number.NaN),
      (out, m, s, _c, _d, y) => { if (s < 1) { out[0] = y; out[1] = -y * dLogSinc(s); } });
  }
  protected override varianceImpl(): Tensor {
    return fusedMap('LogLogistic.variance', [['loc', broadcastTo(this.loc, this.batchShape)], ['scale', this.scale]],
      (m, s) => (s < 0.5 ? detExp(2 * m) * (1 / sinc(2 * s) - 1 / sinc(s) ** 2) : Number.NaN),
      (out, m, s, _c, _d, y) => {
        if (!(s < 0.5)) return;
        const e = detExp(2 * m), a = 1 / sinc(2 * s), b = 1 / sinc(s) ** 2;
        out[0] = 2 * y; out[1] = e * (-2 * a * dLogSinc(2 * s) + 2 * b * dLogSinc(s));
      });
  }
  protected override modeImpl(): Tensor {
    return fusedMap('LogLogistic.mode', [['loc', broadcastTo(this.loc, this.batchShape)], ['scale', this.scale]],
      (m, s) => (s < 1 ? detExp(m + s * (detLog1p(-s) - detLog1p(s))) : 0),
      (out, _m, s, _c, _d, y) => { if (s < 1) { out[0] = y; out[1] = y * (detLog1p(-s) - detLog1p(s) - s / (1 - s) - s / (1 + s)); } });
  }
  protected override entropyImpl(): Tensor { return this.asStat(add(add(this.loc, log(this.scale)), 2)); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Exp({ validateArgs: this.validateArgs }); }
}

/** sin(πx)/(πx), 1 at 0. */
function sinc(x: number): number { return x === 0 ? 1 : detSin(Math.PI * x) / (Math.PI * x); }
/** d/dx log sinc(x) = π·cot(πx) − 1/x (0 at 0). */
function dLogSinc(x: number): number { return x === 0 ? 0 : Math.PI / detTan(Math.PI * x) - 1 / x; }

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function logLogisticLogProb(v: number, m: number, s: number): number { return logLogisticLogProbCore(v, m, s, 0, -detLog(s) - m); }
/** TFP's −log σ − μ + (1 − σ)z − 2·softplus(z), z = (log x − μ)/σ; its limit at x = 0, −∞ below. */
function logLogisticLogProbCore(v: number, m: number, s: number, _: number, h: number): number {
  if (!(v > 0)) return Number.isNaN(v) ? Number.NaN : v < 0 || s < 1 ? -Infinity : s > 1 ? Infinity : h;
  if (v === Infinity) return -Infinity;
  const z = (detLog(v) - m) / s;
  return h + (1 - s) * z - 2 * softplusScalar(z);
}
/** −log σ − μ computed once per call (at compile time for constant parameters). */
const LOG_PROB: Hoisted = { of: [1, 2], h: (m, s) => -detLog(s) - m, core: logLogisticLogProbCore };
function logLogisticLogProbPartials(out: Float64Array, v: number, m: number, s: number): void { out[0] = dValue(v, m, s); out[1] = dLoc(v, m, s); out[2] = dScale(v, m, s); }
/** ∂/∂z = (1 − σ) − 2·sigmoid(z); partials are 0 outside 0 < x < ∞. */
function dz(z: number, s: number): number { return 1 - s - 2 * sigmoidScalar(z); }
function dValue(v: number, m: number, s: number): number { if (!(v > 0 && v < Infinity)) return 0; const z = (detLog(v) - m) / s; return dz(z, s) / (s * v); }
function dLoc(v: number, m: number, s: number): number { if (!(v > 0 && v < Infinity)) return 0; const z = (detLog(v) - m) / s; return -1 - dz(z, s) / s; }
function dScale(v: number, m: number, s: number): number { if (!(v > 0 && v < Infinity)) return 0; const z = (detLog(v) - m) / s; return -1 / s - z - (dz(z, s) * z) / s; }
brand(LogLogistic, 'LogLogistic');   // recognised across copies of stochax (src/brand.ts)
