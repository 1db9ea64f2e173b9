import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, exp, expm1, greater, log, mul, pow, sub, where } from '../src/tensor/ops/elementwise.js';
import { digamma, lbeta } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, unitInterval } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { detExp, detExpm1, detLog, detLog1p, detPow } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface KumaraswamyOptions extends DistributionOptions {
  /** a > 0: the exponent of x (TFP's `concentration1`, like Beta's). */
  readonly concentration1: TensorLike;
  /** b > 0: the exponent of 1 − x^a (TFP's `concentration0`). */
  readonly concentration0: TensorLike;
}

/**
 * The Kumaraswamy distribution (TFP's `tfd.Kumaraswamy`): density a·b·x^(a−1)(1 − x^a)^(b−1) on
 * [0, 1] (−∞ log density outside), cdf 1 − (1 − x^a)^b: a Beta-like law with a closed-form cdf
 * and quantile.
 *
 * Sampling is TFP's (a Uniform(0, 1) base through the inverted `KumaraswamyCDF` bijector): the
 * seed is used as given for `samplers.uniform([n, ...batch])` on [0, 1), and the draw is
 * exp(log1p(−exp(log1p(−u)/b))/a), TFP's form of (1 − (1 − u)^(1/b))^(1/a); `quantile` is the
 * same map with −expm1 where TFP's form cancels (small p), so it keeps its digits there. The log density is TFP's log a + log b + xlogy(a − 1, x) + xlog1py(b − 1, −x^a);
 * `logCdf` is TFP's log1mexp(b·log1p(−x^a)). `mean` and `variance` come from the moments
 * b·B(1 + n/a, b); `mode` ((a − 1)/(ab − 1))^(1/a) is NaN unless a > 1 and b > 1, as TFP. The
 * default event-space bijector is TFP's `Sigmoid`. Fully reparameterized; every method is
 * differentiable in the value and both parameters.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when a parameter is not positive or a value is outside [0, 1].
 * @example
 * const d = new Kumaraswamy({ concentration1: 2, concentration0: [1, 5] });
 * d.cdf(0.5);                 // → Tensor float64 [2]: [0.25, 1 − 0.75⁵]
 * d.sample(3, { seed: 0 });   // → Tensor float64 [3, 2]
 */
export class Kumaraswamy extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration1: { constraint: positive },
    concentration0: { constraint: positive },
  };
  readonly concentration1: Tensor;
  readonly concentration0: Tensor;

  constructor(options: KumaraswamyOptions) {
    super('Kumaraswamy', options, true);
    this.concentration1 = this.param('concentration1');
    this.concentration0 = this.param('concentration0');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype: this.dtype });
    return fusedMap('Kumaraswamy.sample', [['u', u], ['concentration1', this.concentration1], ['concentration0', this.concentration0]], kumaraswamyQuantile, kumaraswamyQuantilePartials);
  }

  protected override get support() { return unitInterval; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['concentration1', this.concentration1], ['concentration0', this.concentration0]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Kumaraswamy.logProb', this.args(x), kumaraswamyLogProb, kumaraswamyLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dConcentration1, dConcentration0] });
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofL('cdf', x, 0, 1, (l) => 0 - detExpm1(l), (l) => -detExp(l)); }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofL('logCdf', x, -Infinity, 0, (l) => (l > -Math.LN2 ? detLog(-detExpm1(l)) : detLog1p(-detExp(l))), (l) => -1 / detExpm1(-l));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.ofL('survivalFunction', x, 1, 0, detExp, detExp); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.ofL('logSurvivalFunction', x, 0, -Infinity, (l) => l, () => 1); }

  /**
   * g(L), L = b·log1p(−x^a) (the log survival function), as one fused node: `below` at x ≤ 0,
   * `above` at x ≥ 1, given g and g′(L) (∂L/∂x = −abt/(x(1 − t)), ∂L/∂a = −bt·log x/(1 − t),
   * ∂L/∂b = log1p(−t), t = x^a).
   */
  private ofL(method: string, x: Tensor, below: number, above: number, g: (l: number) => number, dg: (l: number) => number): Tensor {
    return fusedMap(`Kumaraswamy.${method}`, this.args(x),
      (v, a, b) => (v <= 0 ? below : v >= 1 ? above : g(b * detLog1p(-detPow(v, a)))),
      (out, v, a, b) => {
        if (!(v > 0 && v < 1)) return;
        const t = detPow(v, a), l1 = detLog1p(-t), d = dg(b * l1), r = t / (1 - t);
        out[0] = -d * a * b * r / v; out[1] = -d * b * r * detLog(v); out[2] = d * l1;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Kumaraswamy.quantile', [['p', p], ['concentration1', this.concentration1], ['concentration0', this.concentration0]], kumaraswamyAccurateQuantile, kumaraswamyQuantilePartials);
  }

  /** log E[Xⁿ] = log b + log B(1 + n/a, b) (TFP's). */
  private logMoment(n: number): Tensor {
    const b = this.concentration0;
    return add(log(b), lbeta(add(1, div(n, this.concentration1)), b));
  }
  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor { return this.asStat(exp(this.logMoment(1))); }
  protected override varianceImpl(): Tensor {
    // E[X²] − E[X]² = E[X²]·(−expm1(2 log E[X] − log E[X²])).
    const m2 = this.logMoment(2), m1 = this.logMoment(1);
    return this.asStat(mul(exp(m2), mul(-1, expm1(sub(mul(2, m1), m2)))));
  }
  protected override modeImpl(): Tensor {
    const a = this.concentration1, b = this.concentration0;
    const ok = mul(greater(a, 1), greater(b, 1));
    const sa = where(ok, a, 2), sb = where(ok, b, 2);
    const mode = pow(div(sub(sa, 1), sub(mul(sa, sb), 1)), div(1, sa));
    return this.asStat(where(ok, mode, Number.NaN));
  }
  protected override entropyImpl(): Tensor {
    const a = this.concentration1, b = this.concentration0;
    const harmonic = sub(digamma(add(b, 1)), digamma(1));
    return this.asStat(sub(sub(add(sub(1, div(1, b)), mul(sub(1, div(1, a)), harmonic)), log(a)), log(b)));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Sigmoid({ validateArgs: this.validateArgs }); }
}

/** TFP's inverse cdf: exp(log1p(−exp(log1p(−p)/b))/a). */
function kumaraswamyQuantile(p: number, a: number, b: number): number { return detExp(detLog1p(-detExp(detLog1p(-p) / b)) / a); }
/**
 * The same map with 1 − (1 − p)^(1/b) taken as −expm1(log1p(−p)/b) where (1 − p)^(1/b) > ½,
 * so small p keep their digits (TFP's log1p(−exp(·)) cancels there; the sampler keeps TFP's form
 * for parity).
 */
function kumaraswamyAccurateQuantile(p: number, a: number, b: number): number {
  const l = detLog1p(-p) / b;
  return detExp((l > -Math.LN2 ? detLog(-detExpm1(l)) : detLog1p(-detExp(l))) / a);
}
function kumaraswamyQuantilePartials(out: Float64Array, p: number, a: number, b: number, _d: number, y: number): void {
  const lp = detLog1p(-p), e = detExp(lp / b), le = detLog1p(-e);
  out[0] = (y / a) * e / (b * (1 - p) * (1 - e));
  out[1] = -y * le / (a * a);
  out[2] = (y / a) * e * lp / (b * b * (1 - e));
}

function xlogy(c: number, v: number): number { return c === 0 ? 0 : c * detLog(v); }
function xlog1py(c: number, v: number): number { return c === 0 ? 0 : c * detLog1p(v); }

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function kumaraswamyLogProb(v: number, a: number, b: number): number { return kumaraswamyLogProbCore(v, a, b, 0, detLog(a) + detLog(b)); }
/** log a + log b + xlogy(a − 1, x) + xlog1py(b − 1, −x^a) on [0, 1]; −∞ outside. */
function kumaraswamyLogProbCore(v: number, a: number, b: number, _: number, h: number): number {
  if (!(v >= 0 && v <= 1)) return Number.isNaN(v) ? Number.NaN : -Infinity;
  return h + xlogy(a - 1, v) + xlog1py(b - 1, -detPow(v, a));
}
/** log a + log b computed once per call (at compile time for constant parameters). */
const LOG_PROB: Hoisted = { of: [1, 2], h: (a, b) => detLog(a) + detLog(b), core: kumaraswamyLogProbCore };
function kumaraswamyLogProbPartials(out: Float64Array, v: number, a: number, b: number): void { out[0] = dValue(v, a, b); out[1] = dConcentration1(v, a, b); out[2] = dConcentration0(v, a, b); }
/** (a − 1)/x − (b − 1)·a·t/(x(1 − t)), t = x^a; partials are 0 outside (0, 1). */
function dValue(v: number, a: number, b: number): number { if (!(v > 0 && v < 1)) return 0; const t = detPow(v, a); return (a - 1) / v - ((b - 1) * a * t) / (v * (1 - t)); }
/** 1/a + log x·(1 − (b − 1)t/(1 − t)). */
function dConcentration1(v: number, a: number, b: number): number { if (!(v > 0 && v < 1)) return 0; const t = detPow(v, a); return 1 / a + detLog(v) * (1 - ((b - 1) * t) / (1 - t)); }
/** 1/b + log1p(−t). */
function dConcentration0(v: number, a: number, b: number): number { if (!(v > 0 && v < 1)) return 0; return 1 / b + detLog1p(-detPow(v, a)); }
brand(Kumaraswamy, 'Kumaraswamy');   // recognised across copies of stochax (src/brand.ts)
