import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, expm1, log, mul, sub } from '../src/tensor/ops/elementwise.js';
import { lgamma } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface GumbelOptions extends DistributionOptions {
  /** Location μ (the mode; any real). */
  readonly loc: TensorLike;
  /** Scale β > 0. */
  readonly scale: TensorLike;
}

const EULER_GAMMA = 0.5772156649015329;
/** The smallest positive normal number of each float dtype (TFP's `finfo.tiny`, the base uniform's `low`). */
const TINY: Record<FloatDType, number> = { float64: 2 ** -1022, float32: 2 ** -126 };

/**
 * The Gumbel (maximum extreme value) distribution (TFP's `tfd.Gumbel`): density
 * exp(−(z + e^(−z)))/β, z = (x − μ)/β, on ℝ; cdf exp(−e^(−z)).
 *
 * Sampling is TFP's (a Uniform(tiny, 1) base through the inverted `GumbelCDF` bijector): the
 * seed is used as given for `samplers.uniform([n, ...batch])` on [0, 1), then
 * v = tiny + (1 − tiny)·u (tiny: the dtype's smallest normal number) and the draw is
 * μ − β·log(−log v). The default event-space bijector is TFP's `Identity`. Fully
 * reparameterized; every method is differentiable in the value and both parameters.
 * KL rule: Gumbel–Gumbel (TFP's).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0`.
 * @example
 * const d = new Gumbel({ loc: 0, scale: [1, 2] });
 * d.cdf(0);                   // → Tensor float64 [2]: [e⁻¹, e⁻¹]
 * d.mean();                   // → Tensor float64 [2]: [γ, 2γ] (Euler's constant γ)
 * d.sample(3, { seed: 0 });   // → Tensor float64 [3, 2]
 */
export class Gumbel extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: GumbelOptions) {
    super('Gumbel', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype });
    return fusedMap('Gumbel.sample', [['u', u], ['loc', this.loc], ['scale', this.scale]], dtype === 'float32' ? gumbelSample32 : gumbelSample64,
      (out, p) => { const t = TINY[dtype]; out[1] = 1; out[2] = -detLog(-detLog(t + (1 - t) * p)); });
  }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Gumbel.logProb', this.args(x), gumbelLogProb, gumbelLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dLoc, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofZ('cdf', x, (z) => detExp(-detExp(-z)), (z) => { const e = detExp(-z); return detExp(-e) * e; });
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, (z) => -detExp(-z), (z) => detExp(-z));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => -detExpm1(-detExp(-z)), (z) => { const e = detExp(-z); return -detExp(-e) * e; });
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => log1mexpNeg(detExp(-z)), (z) => { const e = detExp(-z); return e === 0 ? -1 : -e / detExpm1(e); });
  }

  /** g((x − μ)/β) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`Gumbel.${method}`, this.args(x),
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => { const z = (v - m) / s, d = dg(z); out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s; });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Gumbel.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]], gumbelQuantile,
      (out, q, _m, s) => { const l = detLog(q); out[0] = -s / (q * l); out[1] = 1; out[2] = -detLog(-l); });
  }

  /** A statistic broadcast to the batch shape, in the distribution's dtype (number constants would make it float64). */
  private asStat(t: Tensor): Tensor { return broadcastTo(t, this.batchShape).astype(this.dtype); }

  protected override meanImpl(): Tensor { return this.asStat(add(this.loc, mul(this.scale, EULER_GAMMA))); }
  protected override stddevImpl(): Tensor { return this.asStat(mul(this.scale, Math.PI / Math.sqrt(6))); }
  protected override modeImpl(): Tensor { return this.asStat(this.loc); }
  protected override entropyImpl(): Tensor { return this.asStat(add(log(this.scale), 1 + EULER_GAMMA)); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity({ validateArgs: this.validateArgs }); }
}

/** log(1 − e^(−t)) for t ≥ 0, accurate at both ends. */
function log1mexpNeg(t: number): number { return t < Math.LN2 ? detLog(-detExpm1(-t)) : detLog1p(-detExp(-t)); }

/** TFP's draw from u: v = tiny + (1 − tiny)·u (tiny per dtype), then μ − β·log(−log v). */
function gumbelSample64(u: number, m: number, s: number): number { const t = TINY.float64; return m - s * detLog(-detLog(t + (1 - t) * u)); }
function gumbelSample32(u: number, m: number, s: number): number { const t = TINY.float32; return m - s * detLog(-detLog(t + (1 - t) * u)); }

/** μ − β·log(−log p). */
function gumbelQuantile(p: number, m: number, s: number): number { return m - s * detLog(-detLog(p)); }

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function gumbelLogProb(v: number, m: number, s: number): number { return gumbelLogProbCore(v, m, s, 0, detLog(s)); }
function gumbelLogProbCore(v: number, m: number, s: number, _: number, logS: number): number { const z = (v - m) / s; return -(z + detExp(-z)) - logS; }
/** log β computed once per call (at compile time for a constant scale). */
const LOG_PROB: Hoisted = { of: [2], h: detLog, core: gumbelLogProbCore };
function gumbelLogProbPartials(out: Float64Array, v: number, m: number, s: number): void { out[0] = dValue(v, m, s); out[1] = dLoc(v, m, s); out[2] = dScale(v, m, s); }
/** (e^(−z) − 1)/β. */
function dValue(v: number, m: number, s: number): number { const z = (v - m) / s; return -detExpm1(-z) * -1 / s; }
function dLoc(v: number, m: number, s: number): number { const z = (v - m) / s; return -detExpm1(-z) / s; }
/** (z(1 − e^(−z)) − 1)/β. */
function dScale(v: number, m: number, s: number): number { const z = (v - m) / s; return (-z * detExpm1(-z) - 1) / s; }

/** KL(Gumbel(μa, βa) ‖ Gumbel(μb, βb)) (TFP's form): log βb − log βa + γ(βa/βb − 1) + expm1((μb − μa)/βb + lgamma(βa/βb + 1)) + (μa − μb)/βb. */
registerKL(Gumbel, Gumbel, (a, b) => {
  const r = div(a.scale, b.scale);
  return add(
    add(sub(log(b.scale), log(a.scale)), mul(EULER_GAMMA, sub(r, 1))),
    add(expm1(add(div(sub(b.loc, a.loc), b.scale), lgamma(add(r, 1)))), div(sub(a.loc, b.loc), b.scale)),
  );
});
brand(Gumbel, 'Gumbel');   // recognised across copies of stochax (src/brand.ts)
