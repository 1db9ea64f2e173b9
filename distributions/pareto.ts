import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, greater, greaterEqual, log, mul, square, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Shift } from './bijectors/shift.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { atLeast, positive, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface ParetoOptions extends DistributionOptions {
  /** Shape (tail index) α > 0. */
  readonly concentration: TensorLike;
  /** Scale σ > 0: the lower end of the support. */
  readonly scale: TensorLike;
}

/**
 * The Pareto (type I) distribution (TFP's `tfd.Pareto`): density α σ^α / x^(α+1) on x ≥ σ
 * (−∞ log density below σ); survival function (σ/x)^α.
 *
 * Sampling is TFP's: the seed is used as given for `samplers.uniform([n, ...batch])` on [0, 1),
 * and the draw is σ·exp(−log1p(−u)/α). The log density is TFP's log(α/x) + α·log(σ/x) (accurate
 * for large α), with log(σ/x) taken as −log1p((x − σ)/σ) below 2σ so that values next to σ keep
 * their digits (there the cdf and its log too; TFP's log(σ/x) loses them). The default event-space bijector is TFP's `Chain([Shift(scale), Softplus])`.
 * `mean` (α > 1) and `variance` (α > 2) are +∞ otherwise, as TFP. KL rule: Pareto–Pareto (TFP's). Beyond TFP: `quantile`
 * σ·(1 − p)^(−1/α) and `entropy` log(σ/α) + 1/α + 1. Deviation: below the support
 * `logSurvivalFunction` is 0 (TFP returns +∞ there). Fully reparameterized; every method is
 * differentiable in the value and both parameters.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when a parameter is not positive or a value is below `scale`.
 * @example
 * const d = new Pareto({ concentration: 3, scale: [1, 2] });
 * d.survivalFunction(4);      // → Tensor float64 [2]: [1/64, 1/8]
 * d.mean();                   // → Tensor float64 [2]: [1.5, 3]
 * d.sample(5, { seed: 0 });   // → Tensor float64 [5, 2]
 */
export class Pareto extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
    scale: { constraint: positive },
  };
  readonly concentration: Tensor;
  readonly scale: Tensor;

  constructor(options: ParetoOptions) {
    super('Pareto', options, true);
    this.concentration = this.param('concentration');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype: this.dtype });
    return fusedMap('Pareto.sample', [['u', u], ['concentration', this.concentration], ['scale', this.scale]], paretoQuantile,
      (out, _p, k, s, _d, y) => { out[1] = -(y * detLog(y / s)) / k; out[2] = y / s; });
  }

  /** Values must be ≥ scale (checked under `validateArgs`). */
  protected override get support(): Constraint { return atLeast('scale', this.scale); }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['concentration', this.concentration], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Pareto.logProb', this.args(x), paretoLogProb, paretoLogProbPartials, { partialOf: [dValue, dConcentration, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofL('cdf', x, (l) => 0 - detExpm1(l), 0, (l) => -detExp(l));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    // TFP's log1p(−(σ/x)^α) far from σ; log(−expm1(L)) near it, where (σ/x)^α is close to 1.
    return this.ofL('logCdf', x, (l) => (l < -Math.LN2 ? detLog1p(-detExp(l)) : detLog(-detExpm1(l))), -Infinity, (l) => -1 / detExpm1(-l));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofL('survivalFunction', x, detExp, 1, detExp);
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofL('logSurvivalFunction', x, (l) => l, 0, () => 1);
  }

  /** g(L), L = α·log(σ/x) (the log survival function), as one fused node, given g, its value below σ and g′(L). */
  private ofL(method: string, x: Tensor, g: (l: number) => number, below: number, dg: (l: number) => number): Tensor {
    return fusedMap(`Pareto.${method}`, this.args(x),
      (v, k, s) => (v < s ? below : g(k * logRatio(s, v))),
      (out, v, k, s) => {
        if (!(v > s)) return;
        const r = logRatio(s, v), d = dg(k * r);
        out[0] = -d * k / v; out[1] = d * r; out[2] = d * k / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Pareto.quantile', [['p', p], ['concentration', this.concentration], ['scale', this.scale]], paretoQuantile,
      (out, q, k, s, _d, y) => { out[0] = y / (k * (1 - q)); out[1] = -(y * detLog(y / s)) / k; out[2] = y / s; });
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor {
    const k = this.concentration;
    return this.asStat(where(greater(k, 1), div(mul(k, this.scale), sub(k, 1)), Infinity));
  }
  protected override varianceImpl(): Tensor {
    const k = this.concentration;
    const v = div(mul(square(this.scale), k), mul(square(sub(k, 1)), sub(k, 2)));
    return this.asStat(where(greater(k, 2), v, Infinity));
  }
  protected override modeImpl(): Tensor { return this.asStat(this.scale); }
  protected override entropyImpl(): Tensor {
    const k = this.concentration;
    return this.asStat(add(sub(log(this.scale), log(k)), add(div(1, k), 1)));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Chain({ bijectors: [new Shift({ shift: this.scale, validateArgs: this.validateArgs }), new Softplus({ validateArgs: this.validateArgs })], validateArgs: this.validateArgs });
  }
}

/** log(σ/x) for x ≥ σ: −log1p((x − σ)/σ) below 2σ (x − σ is exact there, so the log keeps its digits next to σ). */
function logRatio(s: number, v: number): number { return v < 2 * s ? -detLog1p((v - s) / s) : detLog(s / v); }

/** σ·exp(−log1p(−p)/α): the quantile, and TFP's draw from a uniform u = p. */
function paretoQuantile(p: number, k: number, s: number): number { return s * detExp(-detLog1p(-p) / k); }

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function paretoLogProb(v: number, k: number, s: number): number { return v < s ? -Infinity : detLog(k / v) + k * logRatio(s, v); }
function paretoLogProbPartials(out: Float64Array, v: number, k: number, s: number): void { out[0] = dValue(v, k, s); out[1] = dConcentration(v, k, s); out[2] = dScale(v, k, s); }
/** −(α + 1)/x; 0 below the support. */
function dValue(v: number, k: number, s: number): number { return v < s ? 0 : -(k + 1) / v; }
/** 1/α + log(σ/x). */
function dConcentration(v: number, k: number, s: number): number { return v < s ? 0 : 1 / k + logRatio(s, v); }
/** α/σ. */
function dScale(v: number, k: number, s: number): number { return v < s ? 0 : k / s; }

/**
 * KL(Pareto(αa, σa) ‖ Pareto(αb, σb)) (TFP's form): αb·(log σa − log σb) + log αa − log αb +
 * αb/αa − 1 where σa ≥ σb, +∞ otherwise (a's support then leaves b's).
 */
registerKL(Pareto, Pareto, (a, b) => {
  const ka = a.concentration, kb = b.concentration;
  const kl = add(add(mul(kb, sub(log(a.scale), log(b.scale))), sub(log(ka), log(kb))), sub(div(kb, ka), 1));
  return where(greaterEqual(a.scale, b.scale), kl, Infinity);
});
brand(Pareto, 'Pareto');   // recognised across copies of stochax (src/brand.ts)
