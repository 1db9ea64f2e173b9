import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, exp, greater, log, mul, pow, sqrt, sub, where } from '../src/tensor/ops/elementwise.js';
import { lgamma } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detExp, detExpm1, detLog, detLog1p, detPow } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface WeibullOptions extends DistributionOptions {
  /** Shape k > 0. */
  readonly concentration: TensorLike;
  /** Scale λ > 0. */
  readonly scale: TensorLike;
}

const EULER_GAMMA = 0.5772156649015329;

/**
 * The Weibull distribution (TFP's `tfd.Weibull`): density (k/λ)(x/λ)^(k−1) e^(−(x/λ)^k) on
 * x ≥ 0 (−∞ log density below 0), cdf 1 − e^(−(x/λ)^k).
 *
 * Sampling is TFP's (a Uniform(0, 1) base through the inverted `WeibullCDF` bijector): the seed
 * is used as given for `samplers.uniform([n, ...batch])` on [0, 1), and the draw is
 * λ·(−log1p(−u))^(1/k). `cdf`, `logCdf`, the survival functions and `quantile` are closed
 * forms (log1mexp in `logCdf`, so the lower tail keeps its digits). The default event-space
 * bijector is TFP's `Softplus`. Fully reparameterized; every method is differentiable in the
 * value and both parameters. KL rule: Weibull–Weibull (TFP's). `mode` is ((k − 1)/k)^(1/k)·λ for k > 1 and 0 for k ≤ 1 (deviation:
 * TFP's formula gives NaN, or a wrong value where 1/k is an even integer, for k < 1).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when a parameter is not positive or a value is negative.
 * @example
 * const d = new Weibull({ concentration: 2, scale: [1, 3] });
 * d.cdf(1);                   // → Tensor float64 [2]: [1 − e⁻¹, 1 − e^(−1/9)]
 * d.quantile(0.5);            // → Tensor float64 [2]: λ·√(ln 2)
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 2]
 */
export class Weibull extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
    scale: { constraint: positive },
  };
  readonly concentration: Tensor;
  readonly scale: Tensor;

  constructor(options: WeibullOptions) {
    super('Weibull', options, true);
    this.concentration = this.param('concentration');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype: this.dtype });
    return fusedMap('Weibull.sample', [['u', u], ['concentration', this.concentration], ['scale', this.scale]], weibullQuantile, weibullQuantileParamPartials);
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['concentration', this.concentration], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Weibull.logProb', this.args(x), weibullLogProb, weibullLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dConcentration, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofT('cdf', x, (t) => 0 - detExpm1(-t), 0, (t) => detExp(-t));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return fusedMap('Weibull.logCdf', this.args(x), weibullLogCdf, (out, v, k, s) => {
      if (!(v > 0)) return;
      const z = v / s, t = detPow(z, k), d = t / detExpm1(t);
      out[0] = d * k / v; out[1] = d * detLog(z); out[2] = -d * k / s;
    });
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('survivalFunction', x, (t) => detExp(-t), 1, (t) => -detExp(-t));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('logSurvivalFunction', x, (t) => -t, 0, () => -1);
  }

  /**
   * g(t), t = (x/λ)^k, as one fused node, given g, its value at x ≤ 0 and g′(t)
   * (∂t/∂x = kt/x, ∂t/∂k = t·log(x/λ), ∂t/∂λ = −kt/λ).
   */
  private ofT(method: string, x: Tensor, g: (t: number) => number, below: number, dg: (t: number) => number): Tensor {
    return fusedMap(`Weibull.${method}`, this.args(x),
      (v, k, s) => (v <= 0 ? below : g(detPow(v / s, k))),
      (out, v, k, s) => {
        if (!(v > 0)) return;
        const z = v / s, t = detPow(z, k), d = dg(t) * t;
        out[0] = d * k / v; out[1] = d * detLog(z); out[2] = -d * k / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Weibull.quantile', [['p', p], ['concentration', this.concentration], ['scale', this.scale]], weibullQuantile, weibullQuantilePartials);
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor {
    return this.asStat(mul(this.scale, exp(lgamma(add(1, div(1, this.concentration))))));
  }
  protected override varianceImpl(): Tensor {
    const k = this.concentration;
    const m2 = sub(exp(lgamma(add(1, div(2, k)))), exp(mul(2, lgamma(add(1, div(1, k))))));
    return this.asStat(mul(mul(this.scale, this.scale), m2));
  }
  protected override stddevImpl(): Tensor { return sqrt(this.varianceImpl()); }
  protected override modeImpl(): Tensor {
    const k = this.concentration, peaked = greater(k, 1), safe = where(peaked, k, 2);
    return this.asStat(where(peaked, mul(pow(div(sub(safe, 1), safe), div(1, safe)), this.scale), 0));
  }
  protected override entropyImpl(): Tensor {
    const k = this.concentration;
    return this.asStat(add(add(mul(EULER_GAMMA, sub(1, div(1, k))), sub(log(this.scale), log(k))), 1));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Softplus({ validateArgs: this.validateArgs }); }
}

/**
 * log(1 − e^(−t)), t = (x/λ)^k: for tiny t, k·log(x/λ) + log1p(−t/2 + t²/6) (so t may underflow
 * to 0 and the log still keeps its digits); log(−expm1(−t)) below ln 2, log1p(−e^(−t)) above.
 */
function weibullLogCdf(v: number, k: number, s: number): number {
  if (v <= 0) return -Infinity;
  const z = v / s, t = detPow(z, k);
  if (t < 1e-5) return k * detLog(z) + detLog1p(t * (t / 6 - 0.5));
  return t < Math.LN2 ? detLog(-detExpm1(-t)) : detLog1p(-detExp(-t));
}

/** (k − 1)·log z, 0 when k = 1 (so x = 0 has density k/λ there). */
function xlogz(a: number, z: number): number { return a === 0 ? 0 : a * detLog(z); }

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function weibullLogProb(v: number, k: number, s: number): number { return weibullLogProbCore(v, k, s, 0, detLog(k / s)); }
function weibullLogProbCore(v: number, k: number, s: number, _: number, logKOverS: number): number {
  if (v < 0) return -Infinity;
  const z = v / s;
  return logKOverS + xlogz(k - 1, z) - detPow(z, k);
}
/** log(k/λ) computed once per call (at compile time for constant parameters). */
const LOG_PROB: Hoisted = { of: [1, 2], h: (k, s) => detLog(k / s), core: weibullLogProbCore };
function weibullLogProbPartials(out: Float64Array, v: number, k: number, s: number): void { out[0] = dValue(v, k, s); out[1] = dConcentration(v, k, s); out[2] = dScale(v, k, s); }
/** ((k − 1) − k·z^k)/x; 0 outside x > 0. */
function dValue(v: number, k: number, s: number): number { if (!(v > 0)) return 0; const t = detPow(v / s, k); return (k - 1 - k * t) / v; }
/** 1/k + log z·(1 − z^k). */
function dConcentration(v: number, k: number, s: number): number { if (!(v > 0)) return 0; const z = v / s; return 1 / k + detLog(z) * (1 - detPow(z, k)); }
/** k(z^k − 1)/λ. */
function dScale(v: number, k: number, s: number): number { if (!(v > 0)) return 0; const t = detPow(v / s, k); return k * (t - 1) / s; }

/** λ·(−log1p(−p))^(1/k): the quantile, and TFP's draw from a uniform u = p. */
function weibullQuantile(p: number, k: number, s: number): number { return s * detPow(-detLog1p(-p), 1 / k); }
function weibullQuantilePartials(out: Float64Array, p: number, k: number, s: number, _d: number, y: number): void {
  const w = -detLog1p(-p);
  out[0] = y / (k * w * (1 - p));
  weibullQuantileParamPartials(out, p, k, s, _d, y);
}
function weibullQuantileParamPartials(out: Float64Array, p: number, k: number, _s: number, _d: number, y: number): void {
  const w = -detLog1p(-p);
  out[1] = w > 0 ? -y * detLog(w) / (k * k) : 0;
  out[2] = detPow(w, 1 / k);
}

/**
 * KL(Weibull(ka, λa) ‖ Weibull(kb, λb)) (TFP's form, Bauckhage 2013): log ka − ka·log λa −
 * (log kb − kb·log λb) + (ka − kb)(log λa − γ/ka) + (λa/λb)^kb·Γ(kb/ka + 1) − 1.
 */
registerKL(Weibull, Weibull, (a, b) => {
  const ka = a.concentration, kb = b.concentration, la = log(a.scale), lb = log(b.scale);
  return add(
    add(sub(sub(log(ka), mul(ka, la)), sub(log(kb), mul(kb, lb))), mul(sub(ka, kb), sub(la, div(EULER_GAMMA, ka)))),
    sub(mul(pow(div(a.scale, b.scale), kb), exp(lgamma(add(div(kb, ka), 1)))), 1),
  );
});
brand(Weibull, 'Weibull');   // recognised across copies of stochax (src/brand.ts)
