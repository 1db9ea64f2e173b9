import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, expm1, log, log1mexpScalar, mul, neg, sub, square } from '../src/tensor/ops/elementwise.js';
import { digamma, lgamma } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { zeros } from '../src/tensor/ops/create.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { Gamma } from './gamma.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface ExponentialOptions extends DistributionOptions {
  /** Rate λ > 0 (the inverse of the mean). */
  readonly rate: TensorLike;
}

/** The smallest positive normal number of each float dtype (TFP's `finfo.tiny`). */
const TINY: Record<FloatDType, number> = { float64: 2 ** -1022, float32: 2 ** -126 };

/**
 * The exponential distribution (TFP's `tfd.Exponential`, i.e. Gamma(1, λ)): density λe^(−λx)
 * on x ≥ 0 (−∞ log density at x < 0, cdf 0 and survival 1 there).
 *
 * Sampling follows TFP: u = `samplers.uniform([n, ...batch], { minval: finfo.tiny, maxval: 1 })`
 * with the seed as given (no salt), then x = −log(u)/λ (differentiable in λ).
 * Deviation: `mode()` is 0, where TFP inherits Gamma's NaN for concentration 1. Beyond TFP,
 * `logCdf` is log1mexp(λx), accurate near 0. KL rules: Exponential–Exponential, and the mixed
 * pairs with Gamma (TFP's Exponential is a Gamma subclass, so its Gamma–Gamma rule covers them).
 *
 * @throws TypeError for a missing or non-numeric `rate`; RangeError with `validateArgs` for a
 *   non-positive rate.
 * @example
 * const e = new Exponential({ rate: [1, 4] });
 * e.mean();                   // → Tensor float64 [2]: [1, 0.25]
 * e.quantile(0.5);            // → Tensor float64 [2]: [ln 2, ln 2 / 4]
 * e.sample(3, { seed: 0 });   // → Tensor float64 [3, 2]
 */
export class Exponential extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    rate: { constraint: positive },
  };
  readonly rate: Tensor;

  constructor(options: ExponentialOptions) {
    super('Exponential', options, true);
    this.rate = this.param('rate');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype, minval: TINY[dtype], maxval: 1 });
    return div(neg(log(u)), this.rate);
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['rate', this.rate]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Exponential.logProb', this.args(x), exponentialLogProb, exponentialLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('Exponential.cdf', this.args(x),
      (v, r) => (v <= 0 ? 0 : -detExpm1(-r * v)),
      (out, v, r) => { if (v > 0) { const e = detExp(-r * v); out[0] = r * e; out[1] = v * e; } });
  }

  protected override logCdfImpl(x: Tensor): Tensor {
    return fusedMap('Exponential.logCdf', this.args(x),
      (v, r) => (v <= 0 ? -Infinity : log1mexpScalar(-r * v)),
      (out, v, r) => { if (v > 0) { const d = detExpm1(r * v); out[0] = r / d; out[1] = v / d; } });
  }

  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Exponential.survivalFunction', this.args(x),
      (v, r) => (v <= 0 ? 1 : detExp(-r * v)),
      (out, v, r, _c, _d, y) => { if (v > 0) { out[0] = -r * y; out[1] = -v * y; } });
  }

  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Exponential.logSurvivalFunction', this.args(x),
      (v, r) => (v <= 0 ? 0 : -r * v),
      (out, v, r) => { if (v > 0) { out[0] = -r; out[1] = -v; } });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Exponential.quantile', [['p', p], ['rate', this.rate]],
      (q, r) => -detLog1p(-q) / r,
      (out, q, r, _c, _d, y) => { out[0] = 1 / ((1 - q) * r); out[1] = -y / r; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(div(1, this.rate), this.batchShape); }
  protected override varianceImpl(): Tensor { return broadcastTo(div(1, square(this.rate)), this.batchShape); }
  protected override stddevImpl(): Tensor { return this.meanImpl(); }
  protected override modeImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override entropyImpl(): Tensor { return broadcastTo(sub(1, log(this.rate)), this.batchShape); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Softplus({ validateArgs: this.validateArgs }); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function exponentialLogProb(v: number, r: number): number { return v < 0 ? -Infinity : detLog(r) - r * v; }
function exponentialLogProbPartials(out: Float64Array, v: number, r: number): void { if (v >= 0) { out[0] = -r; out[1] = 1 / r - v; } }

/** KL(Exp(λa) ‖ Exp(λb)) = ln λa − ln λb + expm1(ln λb − ln λa) (TFP's Gamma–Gamma rule at concentration 1). */
registerKL(Exponential, Exponential, (a, b) => {
  const d = sub(log(a.rate), log(b.rate));
  return add(d, expm1(neg(d)));
});

/** Gamma–Gamma KL given concentrations and log rates (TFP's form). */
function klGamma(c0: TensorLike, lr0: Tensor, c1: TensorLike, lr1: Tensor): Tensor {
  return add(
    add(mul(sub(c0, c1), digamma(c0)), sub(lgamma(c1), lgamma(c0))),
    add(mul(c1, sub(lr0, lr1)), mul(c0, expm1(sub(lr1, lr0)))),
  );
}
const gammaLogRate = (g: Gamma): Tensor => g.logRate ?? log(g.rate!);

// In TFP, Exponential is a Gamma subclass, so the Gamma–Gamma rule covers the mixed pairs too.
registerKL(Exponential, Gamma, (a, b) => klGamma(1, log(a.rate), b.concentration, gammaLogRate(b)));
registerKL(Gamma, Exponential, (a, b) => klGamma(a.concentration, gammaLogRate(a), 1, log(b.rate)));
brand(Exponential, 'Exponential');   // recognised across copies of stochax (src/brand.ts)
