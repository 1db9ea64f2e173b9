import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, log, square, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { full } from '../src/tensor/ops/create.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detAtan, detLog, detLog1p, detTan } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface CauchyOptions extends DistributionOptions {
  /** Location (the median and mode; any real). */
  readonly loc: TensorLike;
  /** Scale > 0: the half-width at half-maximum. */
  readonly scale: TensorLike;
}

const LOG_PI = detLog(Math.PI);

/**
 * A draw at loc m and scale s from a unit uniform p: m + s·tan(π(p − ½)) (`sampleN`'s map, and the
 * compiled predictive draw's: mcmc/internal/leaf-kernels.ts). @internal
 * @example
 * cauchyFromUnit(0.5, 1, 2);   // → 1 (the median, loc)
 */
export function cauchyFromUnit(p: number, m: number, s: number): number { return m + s * detTan(Math.PI * (p - 0.5)); }

/** log(1 + z²) without overflow for huge |z|. */
function log1psquare(z: number): number {
  const a = Math.abs(z);
  return a > 1e8 ? 2 * detLog(a) + 1 / (a * a) : detLog1p(a * a);
}

/** P(Z ≤ z) for the standard Cauchy: atan(−1/z)/π below 0 (no cancellation in the lower tail). */
export function cauchyCdf(z: number): number {
  return z < 0 ? detAtan(-1 / z) / Math.PI : 0.5 + detAtan(z) / Math.PI;
}

/** log P(Z ≤ z) for the standard Cauchy, accurate in both tails. */
export function cauchyLogCdf(z: number): number {
  if (z === 0) return -Math.LN2;
  return z < 0 ? detLog(detAtan(-1 / z)) - LOG_PI : detLog1p(-detAtan(1 / z) / Math.PI);
}

/** The standard Cauchy quantile −cot(πp) (by tan(π(p − ½)) in the middle), accurate as p → 0 or 1. */
export function cauchyQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p < 0.25) return -1 / detTan(Math.PI * p);
  if (p > 0.75) return 1 / detTan(Math.PI * (1 - p));
  return detTan(Math.PI * (p - 0.5));
}

/**
 * The Cauchy distribution (TFP's `tfd.Cauchy`): density 1 / (πσ(1 + z²)), z = (x − μ)/σ, on ℝ.
 *
 * Sampling is TFP's: the seed is used as given for `samplers.uniform([n, ...batch])` on [0, 1),
 * and the draw is μ + σ·tan(π(u − ½)) (TFP's quantile formula, kept for the draws so they match
 * TFP's). The public `quantile` computes the same function as −cot(πp) near 0 and 1, so extreme
 * quantiles keep their digits. `cdf`, `logCdf` and the survival functions are accurate far into
 * both tails. Fully reparameterized; every method is differentiable in the value and both
 * parameters. `mean`, `variance` and `stddev` are NaN (undefined), as TFP.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0`.
 * @example
 * const d = new Cauchy({ loc: 0, scale: [1, 3] });
 * d.cdf(1);                    // → Tensor float64 [2]: [0.75, 0.602…]
 * d.sample(5, { seed: 0 });    // → Tensor float64 [5, 2]
 */
export class Cauchy extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: CauchyOptions) {
    super('Cauchy', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const u = samplersUniform(shape, { minval: 0, maxval: 1, seed, dtype: this.dtype });
    return fusedMap('Cauchy.sample', [['u', u], ['loc', this.loc], ['scale', this.scale]],
      cauchyFromUnit,
      (out, p) => { out[1] = 1; out[2] = detTan(Math.PI * (p - 0.5)); });
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Cauchy.logProb', [['value', x], ['loc', this.loc], ['scale', this.scale]], cauchyLogProb, cauchyLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofZ('cdf', x, cauchyCdf, density); }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => cauchyCdf(-z), (z) => -density(z));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, cauchyLogCdf, (z) => density(z) / cauchyCdf(z));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => cauchyLogCdf(-z), (z) => -density(z) / cauchyCdf(-z));
  }

  /** g((x − μ)/σ) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`Cauchy.${method}`, [['value', x], ['loc', this.loc], ['scale', this.scale]],
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => { const z = (v - m) / s, d = dg(z); out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s; });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Cauchy.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => m + s * cauchyQuantile(q),
      (out, q, _m, s) => { const z = cauchyQuantile(q); out[0] = s * Math.PI * (1 + z * z); out[1] = 1; out[2] = z; });
  }

  protected override meanImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override stddevImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override varianceImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override entropyImpl(): Tensor {
    return broadcastTo(add(log(this.scale), detLog(4 * Math.PI)), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function cauchyLogProb(v: number, m: number, s: number): number { return -log1psquare((v - m) / s) - LOG_PI - detLog(s); }
function cauchyLogProbPartials(out: Float64Array, v: number, m: number, s: number): void {
  const z = (v - m) / s, r = 2 / (z + 1 / z); // 2z/(1 + z²), 0 at z = 0
  out[0] = -r / s; out[1] = r / s; out[2] = (r * z - 1) / s;
}

/** The standard Cauchy density 1/(π(1 + z²)). */
function density(z: number): number { return 1 / (Math.PI * (1 + z * z)); }

/**
 * KL(Cauchy(μa, σa) ‖ Cauchy(μb, σb)) = log((σa + σb)² + (μa − μb)²) − log 4 − log σa − log σb
 * (Chyzak & Nielsen 2019; symmetric in its arguments), TFP's form.
 */
registerKL(Cauchy, Cauchy, (a, b) => {
  const spread = add(square(add(a.scale, b.scale)), square(sub(a.loc, b.loc)));
  return sub(sub(log(spread), detLog(4)), add(log(a.scale), log(b.scale)));
});
brand(Cauchy, 'Cauchy');   // recognised across copies of stochax (src/brand.ts)
