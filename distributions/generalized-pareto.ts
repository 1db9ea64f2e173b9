import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { broadcastData, broadcastShapes } from '../src/tensor/broadcast.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { abs, add, div, less, log, mul, square, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Shift } from './bijectors/shift.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface GeneralizedParetoOptions extends DistributionOptions {
  /** Location μ: the lower end of the support (any real). */
  readonly loc: TensorLike;
  /** Scale σ > 0. */
  readonly scale: TensorLike;
  /** Shape ξ (any real): ξ > 0 heavy tails, ξ = 0 exponential, ξ < 0 support bounded by μ − σ/ξ. */
  readonly concentration: TensorLike;
}

/**
 * The generalized Pareto distribution (TFP's `tfd.GeneralizedPareto`): with z = (x − μ)/σ,
 * density (1 + ξz)^(−1/ξ − 1)/σ on z ≥ 0 (and z ≤ −1/ξ when ξ < 0); e^(−z)/σ at ξ = 0.
 * Survival function (1 + ξz)^(−1/ξ).
 *
 * Sampling is TFP's (inversion): the seed is used as given for `samplers.uniform([n, ...batch])`
 * on [0, 1), ℓ = log1p(−u), and the draw is μ + σ/ξ·expm1(−ξℓ) (μ − σℓ at ξ = 0). The log
 * survival function is TFP's −log1p(ξz)/ξ, and `logCdf` is log1mexp of it; `quantile` is TFP's
 * μ + σ·expm1(ξw)/ξ, w = −log1p(−p). `mean` (ξ < 1) and `variance` (ξ < ½) are NaN otherwise, as
 * TFP. The default event-space bijector is TFP's `GeneralizedPareto` bijector: per element,
 * `Shift(μ)∘Softplus` for ξ ≥ 0 and `Sigmoid(low: μ, high: μ + |σ/ξ|)` for ξ < 0, chosen with
 * `where` so it stays differentiable in every parameter. Deviation: outside the support the log
 * density is −∞ (TFP returns its formula's value there). Fully reparameterized; every method is
 * differentiable in the value and all three parameters, across ξ = 0.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0` or a value is outside the support.
 * @example
 * const d = new GeneralizedPareto({ loc: 0, scale: 1, concentration: [0, 0.5, -0.5] });
 * d.survivalFunction(1);      // → Tensor float64 [3]: [e⁻¹, 1/2.25, 1/4]
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 3]
 */
export class GeneralizedPareto extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
    concentration: { constraint: real },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;
  readonly concentration: Tensor;

  constructor(options: GeneralizedParetoOptions) {
    super('GeneralizedPareto', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
    this.concentration = this.param('concentration');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype: this.dtype });
    return fusedMap('GeneralizedPareto.sample', [['u', u], ['loc', this.loc], ['scale', this.scale], ['concentration', this.concentration]],
      gpdSample, (out, p, _m, s, k) => {
        const w = -detLog1p(-p);
        out[1] = 1; out[2] = expm1Over(k, w); out[3] = s * w * w * expm1OverDk(k * w);
      });
  }

  /** Values must be ≥ loc, and ≤ loc − scale/concentration where concentration < 0 (checked under `validateArgs`). */
  protected override get support(): Constraint {
    const { loc, scale, concentration } = this;
    return {
      what: 'must be in the support',
      check(fn, arg, t) {
        const shape = broadcastShapes(fn, [[arg, t.shape], ['loc', loc.shape], ['scale', scale.shape], ['concentration', concentration.shape]]);
        const v = broadcastData(fn, arg, t, shape) as ArrayLike<number>;
        const m = broadcastData(fn, 'loc', loc, shape) as ArrayLike<number>;
        const s = broadcastData(fn, 'scale', scale, shape) as ArrayLike<number>;
        const k = broadcastData(fn, 'concentration', concentration, shape) as ArrayLike<number>;
        for (let i = 0; i < v.length; i++) {
          const name = t.ndim === 0 ? arg : `${arg}[${i}]`;
          if (!(v[i]! >= m[i]!)) fail('range', fn, name, `must be at least \`loc\` (${m[i]})`, v[i]);
          if (k[i]! < 0 && !(v[i]! <= m[i]! - s[i]! / k[i]!)) fail('range', fn, name, `must be at most \`loc − scale/concentration\` (${m[i]! - s[i]! / k[i]!}) where \`concentration\` < 0`, v[i]);
        }
      },
    };
  }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['scale', this.scale], ['concentration', this.concentration]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('GeneralizedPareto.logProb', this.args(x), gpdLogProb, gpdLogProbPartials, { partialOf: [dValue, dLoc, dScale, dConcentration] });
  }

  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.ofL('logSurvivalFunction', x, (l) => l, () => 1); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.ofL('survivalFunction', x, detExp, detExp); }
  protected override cdfImpl(x: Tensor): Tensor { return this.ofL('cdf', x, (l) => 0 - detExpm1(l), (l) => -detExp(l)); }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofL('logCdf', x, log1mexpNeg, (l) => -1 / detExpm1(-l));
  }

  /** g(L), L the log survival function, as one fused node, given g and g′(L). */
  private ofL(method: string, x: Tensor, g: (l: number) => number, dg: (l: number) => number): Tensor {
    return fusedMap(`GeneralizedPareto.${method}`, this.args(x),
      (v, m, s, k) => g(gpdLogSurvival(v, m, s, k)),
      (out, v, m, s, k) => {
        const z = (v - m) / s;
        if (!inSupportInterior(z, k)) return;
        const d = dg(gpdLogSurvival(v, m, s, k)), lz = -1 / (1 + k * z);
        out[0] = d * lz / s; out[1] = -d * lz / s; out[2] = -d * lz * z / s; out[3] = d * z * z * log1pRatio(k * z);
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('GeneralizedPareto.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale], ['concentration', this.concentration]],
      gpdQuantile, (out, q, _m, s, k) => {
        const w = -detLog1p(-q);
        out[0] = s * detExp(k * w) / (1 - q); out[1] = 1; out[2] = expm1Over(k, w); out[3] = s * w * w * expm1OverDk(k * w);
      });
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor {
    const k = this.concentration, valid = less(k, 1);
    const safe = where(valid, k, 0.5);
    return this.asStat(where(valid, add(this.loc, div(this.scale, sub(1, safe))), Number.NaN));
  }
  protected override varianceImpl(): Tensor {
    const k = this.concentration, valid = less(k, 0.5);
    const safe = where(valid, k, 0.25);
    const v = div(square(this.scale), mul(square(sub(1, safe)), sub(1, mul(2, safe))));
    return this.asStat(where(valid, v, Number.NaN));
  }
  protected override modeImpl(): Tensor { return this.asStat(this.loc); }
  protected override entropyImpl(): Tensor {
    return this.asStat(add(log(this.scale), add(this.concentration, 1)));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new GeneralizedParetoBijector({ loc: this.loc, scale: this.scale, concentration: this.concentration, validateArgs: this.validateArgs });
  }
}

interface GeneralizedParetoBijectorOptions extends BijectorOptions {
  readonly loc: Tensor;
  readonly scale: Tensor;
  readonly concentration: Tensor;
}

/**
 * TFP's `tfb.GeneralizedPareto`: ℝ onto the support of GeneralizedPareto(μ, σ, ξ), element by
 * element `Shift(μ)∘Softplus` where ξ ≥ 0 and `Sigmoid(low: μ, high: μ + |σ/ξ|)` where ξ < 0.
 * Both branches are computed and one kept with `where` (ξ replaced by −1 in the unused branch,
 * so its gradient stays finite).
 *
 * @example
 * const d = new GeneralizedPareto({ loc: 1, scale: 2, concentration: -0.5 });
 * d.defaultEventSpaceBijector().forward(0);   // → Tensor float64 []: 3 (the middle of [1, 5])
 */
class GeneralizedParetoBijector extends Bijector {
  readonly forwardMinEventNdims = 0;
  private readonly useNegative: Tensor;
  private readonly negative: Bijector;
  private readonly nonNegative: Bijector;

  constructor(options: GeneralizedParetoBijectorOptions) {
    super('GeneralizedPareto', { validateArgs: options.validateArgs ?? false }, { loc: options.loc, scale: options.scale, concentration: options.concentration });
    const { loc, scale, concentration } = options;
    this.useNegative = less(concentration, 0);
    const safe = where(this.useNegative, concentration, -1);
    this.negative = new Sigmoid({ low: loc, high: add(loc, abs(div(scale, safe))) });
    this.nonNegative = new Chain({ bijectors: [new Shift({ shift: loc }), new Softplus()] });
  }
  protected forwardImpl(x: Tensor): Tensor { return where(this.useNegative, this.negative.forward(x), this.nonNegative.forward(x)); }
  protected inverseImpl(y: Tensor): Tensor { return where(this.useNegative, this.negative.inverse(y), this.nonNegative.inverse(y)); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    return where(this.useNegative, this.negative.forwardLogDetJacobian(x), this.nonNegative.forwardLogDetJacobian(x));
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    return where(this.useNegative, this.negative.inverseLogDetJacobian(y), this.nonNegative.inverseLogDetJacobian(y));
  }
}

/** log(1 − e^L) for L ≤ 0, accurate at both ends. */
function log1mexpNeg(l: number): number { return l > -Math.LN2 ? detLog(-detExpm1(l)) : detLog1p(-detExp(l)); }

/** z in the support: z ≥ 0, and 1 + ξz > 0 (z < −1/ξ) when ξ < 0. */
function inSupportInterior(z: number, k: number): boolean { return z >= 0 && 1 + k * z > 0; }

/** (log1p(w) − w/(1 + w))/w² (½ at w = 0), by its series near 0: Σₙ≥₂ (−1)ⁿ(n − 1)/n·wⁿ⁻². */
function log1pRatio(w: number): number {
  if (Math.abs(w) >= 0.05) return (detLog1p(w) - w / (1 + w)) / (w * w);
  let s = 0, p = 1;
  for (let n = 2; n < 16; n++) { s += ((n % 2 === 0 ? 1 : -1) * (n - 1) / n) * p; p *= w; }
  return s;
}
/** expm1(ξw)/ξ (w at ξ = 0). */
function expm1Over(k: number, w: number): number { return k === 0 ? w : detExpm1(k * w) / k; }
/** (t·eᵗ − expm1(t))/t² (½ at t = 0), by its series near 0: Σₘ≥₂ (m − 1)/m!·tᵐ⁻². So ∂/∂ξ expm1(ξw)/ξ = w²·this(ξw). */
function expm1OverDk(t: number): number {
  if (Math.abs(t) >= 0.05) return (t * detExp(t) - detExpm1(t)) / (t * t);
  let s = 0, p = 1, f = 2;
  for (let m = 2; m < 16; m++) { s += ((m - 1) / f) * p; p *= t; f *= m + 1; }
  return s;
}

/** TFP's draw: ℓ = log1p(−u), μ + σ/ξ·expm1(−ξℓ) (μ − σℓ at ξ = 0). */
function gpdSample(u: number, m: number, s: number, k: number): number {
  const l = detLog1p(-u);
  return k === 0 ? m - s * l : m + (s / k) * detExpm1(-k * l);
}
/** TFP's quantile μ + σ·expm1(ξw)/ξ, w = −log1p(−p) (μ + σw at ξ = 0). */
function gpdQuantile(p: number, m: number, s: number, k: number): number {
  const w = -detLog1p(-p);
  return m + s * (k === 0 ? w : detExpm1(k * w) / k);
}
/** log P(X > x): 0 below μ, −log1p(ξz)/ξ (−z at ξ = 0), −∞ above the upper end when ξ < 0. */
function gpdLogSurvival(v: number, m: number, s: number, k: number): number {
  const z = (v - m) / s;
  if (!(z >= 0)) return Number.isNaN(z) ? Number.NaN : 0;
  if (k === 0) return -z;
  if (!(1 + k * z > 0)) return -Infinity;
  return -detLog1p(k * z) / k;
}

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
/** −log σ − (1/ξ + 1)·log1p(ξz) (TFP's form; −log σ − z at ξ = 0); −∞ outside the support. */
function gpdLogProb(v: number, m: number, s: number, k: number): number {
  const z = (v - m) / s;
  if (z < 0) return -Infinity;
  if (k === 0) return -detLog(s) - z;
  if (k < 0 && !(1 + k * z >= 0)) return -Infinity;
  const y = 1 / k + 1;
  return -detLog(s) - (y === 0 ? 0 : y * detLog1p(k * z));
}
function gpdLogProbPartials(out: Float64Array, v: number, m: number, s: number, k: number): void {
  out[0] = dValue(v, m, s, k); out[1] = dLoc(v, m, s, k); out[2] = dScale(v, m, s, k); out[3] = dConcentration(v, m, s, k);
}
/** ∂/∂z = −(ξ + 1)/(1 + ξz); partials are 0 outside the interior of the support. */
function dz(v: number, m: number, s: number, k: number): number { const z = (v - m) / s; return inSupportInterior(z, k) ? -(k + 1) / (1 + k * z) : 0; }
function dValue(v: number, m: number, s: number, k: number): number { return dz(v, m, s, k) / s; }
function dLoc(v: number, m: number, s: number, k: number): number { return -dz(v, m, s, k) / s; }
/** (z − 1)/(σ(1 + ξz)). */
function dScale(v: number, m: number, s: number, k: number): number { const z = (v - m) / s; return inSupportInterior(z, k) ? (z - 1) / (s * (1 + k * z)) : 0; }
/** z²·log1pRatio(ξz) − z/(1 + ξz) (z²/2 − z at ξ = 0). */
function dConcentration(v: number, m: number, s: number, k: number): number {
  const z = (v - m) / s;
  return inSupportInterior(z, k) ? z * z * log1pRatio(k * z) - z / (1 + k * z) : 0;
}
brand(GeneralizedPareto, 'GeneralizedPareto');   // recognised across copies of stochax (src/brand.ts)
