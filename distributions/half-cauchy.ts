import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { full } from '../src/tensor/ops/create.js';
import { add, log } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Exp } from './bijectors/exp.js';
import { Shift } from './bijectors/shift.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { atLeast, positive, real, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { detAtan, detLog, detLog1p, detTan } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface HalfCauchyOptions extends DistributionOptions {
  /** Location μ: the lower end of the support (any real). */
  readonly loc: TensorLike;
  /** Scale σ > 0. */
  readonly scale: TensorLike;
}

const LOG_2_OVER_PI = detLog(2 / Math.PI);

/** log(1 + z²) without overflow for huge |z|. */
function log1psquare(z: number): number {
  const a = Math.abs(z);
  return a > 1e8 ? 2 * detLog(a) + 1 / (a * a) : detLog1p(a * a);
}

/**
 * A draw at loc m and scale s from a unit uniform p: m + s·tan(πp/2) (`sampleN`'s map, and the
 * compiled predictive draw's: mcmc/internal/leaf-kernels.ts). @internal
 * @example
 * halfCauchyFromUnit(0.5, 0, 2);   // → 2 (the median, loc + scale)
 */
export function halfCauchyFromUnit(p: number, m: number, s: number): number { return m + s * detTan((Math.PI / 2) * p); }

/** (2/π)·atan(1/z) = P(Z > z) for z ≥ 0, accurate in the upper tail. */
function upper(z: number): number { return (2 / Math.PI) * detAtan(1 / z); }

/**
 * The half-Cauchy distribution (TFP's `tfd.HalfCauchy`): density 2 / (πσ(1 + z²)),
 * z = (x − μ)/σ, on x ≥ μ (−∞ log density below μ).
 *
 * Sampling is TFP's: the seed is used as given for `samplers.uniform([n, ...batch])` on [0, 1),
 * and the draw is μ + σ·tan(π/2 · u). `quantile` evaluates the same function as
 * μ + σ/tan(π/2 · (1 − p)) above p = ½ so the upper quantiles keep their digits; `cdf`,
 * `logCdf` and the survival functions are accurate in both tails. The default event-space
 * bijector is TFP's `Chain([Shift(loc), Exp])`. Fully reparameterized; every method is
 * differentiable in the value and both parameters. `mean`, `variance` and `stddev` are NaN
 * (undefined), as TFP. With `validateArgs`, values below `loc` throw.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0` or a value is below `loc`.
 * @example
 * const d = new HalfCauchy({ loc: 1, scale: 2 });
 * d.cdf(3).item();             // 0.5
 * d.logProb(0).item();         // −Infinity (below loc)
 * d.sample(5, { seed: 0 });    // → Tensor float64 [5]
 */
export class HalfCauchy extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: HalfCauchyOptions) {
    super('HalfCauchy', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const u = samplersUniform(shape, { minval: 0, maxval: 1, seed, dtype: this.dtype });
    return fusedMap('HalfCauchy.sample', [['u', u], ['loc', this.loc], ['scale', this.scale]],
      halfCauchyFromUnit,
      (out, p) => { out[1] = 1; out[2] = detTan((Math.PI / 2) * p); });
  }

  /** Values must be ≥ loc (checked under `validateArgs`). */
  protected override get support(): Constraint { return atLeast('loc', this.loc); }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('HalfCauchy.logProb', [['value', x], ['loc', this.loc], ['scale', this.scale]], logProbScalar, logProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dLoc, dScale] });
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofZ('cdf', x, (z) => (z <= 0 ? 0 : z < 1 ? (2 / Math.PI) * detAtan(z) : 1 - upper(z)), (z) => density(z));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => (z <= 0 ? 1 : upper(z)), (z) => -density(z));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    // TFP's log(2/π) + log(atan(z)), with log1p(−(2/π)·atan(1/z)) in the upper tail.
    return this.ofZ('logCdf', x,
      (z) => (z <= 0 ? -Infinity : z < 1 ? LOG_2_OVER_PI + detLog(detAtan(z)) : detLog1p(-upper(z))),
      (z) => density(z) / (z < 1 ? (2 / Math.PI) * detAtan(z) : 1 - upper(z)));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x,
      (z) => (z <= 0 ? 0 : z < 1 ? detLog1p(-(2 / Math.PI) * detAtan(z)) : LOG_2_OVER_PI + detLog(detAtan(1 / z))),
      (z) => -density(z) / upper(z));
  }

  /** g((x − μ)/σ) as one fused node, given g and g′ (g′ used only inside the support). */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`HalfCauchy.${method}`, [['value', x], ['loc', this.loc], ['scale', this.scale]],
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => {
        const z = (v - m) / s;
        if (!(z > 0)) return;
        const d = dg(z);
        out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('HalfCauchy.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => m + s * halfCauchyQuantile(q),
      (out, q, _m, s) => { const z = halfCauchyQuantile(q); out[0] = (s * Math.PI * (1 + z * z)) / 2; out[1] = 1; out[2] = z; });
  }

  protected override meanImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override stddevImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override varianceImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override entropyImpl(): Tensor {
    return broadcastTo(add(log(this.scale), detLog(2 * Math.PI)), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Chain({ bijectors: [new Shift({ shift: this.loc }), new Exp()] });
  }
}

/** The standard half-Cauchy density 2/(π(1 + z²)) (z ≥ 0). */
// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function logProbScalar(v: number, m: number, s: number): number { return logProbCore(v, m, s, 0, detLog(s)); }
function logProbCore(v: number, m: number, s: number, _: number, logS: number): number { return v < m ? -Infinity : LOG_2_OVER_PI - logS - log1psquare((v - m) / s); }
/** log σ computed once per call (at compile time for a constant scale). */
const LOG_PROB: Hoisted = { of: [2], h: detLog, core: logProbCore };
function logProbPartials(out: Float64Array, v: number, m: number, s: number): void { out[0] = dValue(v, m, s); out[1] = dLoc(v, m, s); out[2] = dScale(v, m, s); }
/** 2z/(1 + z²) over σ, 0 at z = 0 and below the support. */
function dLoc(v: number, m: number, s: number): number { if (v < m) return 0; const z = (v - m) / s, r = 2 / (z + 1 / z); return r / s; }
function dValue(v: number, m: number, s: number): number { if (v < m) return 0; const z = (v - m) / s, r = 2 / (z + 1 / z); return -r / s; }
function dScale(v: number, m: number, s: number): number { if (v < m) return 0; const z = (v - m) / s, r = 2 / (z + 1 / z); return (r * z - 1) / s; }

function density(z: number): number { return 2 / (Math.PI * (1 + z * z)); }

/** tan(π/2 · p), as 1/tan(π/2 · (1 − p)) above ½. NaN outside [0, 1]. */
function halfCauchyQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  return p <= 0.5 ? detTan((Math.PI / 2) * p) : 1 / detTan((Math.PI / 2) * (1 - p));
}
brand(HalfCauchy, 'HalfCauchy');   // recognised across copies of stochax (src/brand.ts)
