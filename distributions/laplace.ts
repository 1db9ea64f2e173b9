import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { abs, add, div, exp, log, mul, neg, sub } from '../src/tensor/ops/elementwise.js';
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

export interface LaplaceOptions extends DistributionOptions {
  /** Location μ (mean, median and mode; any real). */
  readonly loc: TensorLike;
  /** Scale b > 0 (the standard deviation is √2·b). */
  readonly scale: TensorLike;
}

/** The smallest float above −1: −1 + 2⁻⁵³ (float64) or −1 + 2⁻²⁴ (float32). */
const ABOVE_MINUS_ONE = { float64: -1 + 2 ** -53, float32: -1 + 2 ** -24 } as const;

/** TFP's `log_cdf_laplace(z)`: log ½ + z below 0, log1p(−½e^(−z)) above. */
function logCdfLaplace(z: number): number {
  return z < 0 ? z - Math.LN2 : detLog1p(-0.5 * detExp(-z));
}
/** d/dz logCdfLaplace(z): 1 below 0, 1/(2e^z − 1) above. */
function dLogCdfLaplace(z: number): number {
  return z < 0 ? 1 : 1 / (2 * detExp(z) - 1);
}
/** The standard Laplace cdf: ½e^z below 0 (TFP's ½ + ½·expm1(z) loses the lower tail), ½ − ½·expm1(−z) above. */
function cdfLaplace(z: number): number {
  return z < 0 ? 0.5 * detExp(z) : 0.5 - 0.5 * detExpm1(-z);
}

/**
 * The Laplace distribution (TFP's `tfd.Laplace`): density exp(−|x − μ|/b) / (2b) on ℝ.
 *
 * Sampling is TFP's: the seed is used as given for `samplers.uniform([n, ...batch])` on
 * [nextafter(−1, 1), 1) (the open interval (−1, 1)), and the draw is
 * μ − b·sign(u)·log1p(−|u|). `logCdf` and `logSurvivalFunction` are TFP's `log_cdf_laplace`;
 * `cdf` is ½e^z below the location (TFP's ½ − ½·sign(z)·expm1(−|z|) cancels there), so every
 * method is exact in both tails. Fully reparameterized; every method is differentiable in the value and
 * both parameters (at x = μ the derivative of |x − μ| is taken as 0).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0`.
 * @example
 * const d = new Laplace({ loc: 0, scale: [1, 2] });
 * d.stddev();                  // → Tensor float64 [2]: [√2, 2√2]
 * d.logCdf(-800).data[0];      // −800.69… (the cdf underflows)
 * d.sample(5, { seed: 0 });    // → Tensor float64 [5, 2]
 */
export class Laplace extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: LaplaceOptions) {
    super('Laplace', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const u = samplersUniform([n, ...this.batchShape], { minval: ABOVE_MINUS_ONE[dtype], maxval: 1, seed, dtype });
    return fusedMap('Laplace.sample', [['u', u], ['loc', this.loc], ['scale', this.scale]],
      (w, m, s) => m - s * Math.sign(w) * detLog1p(-Math.abs(w)),
      (out, w) => { out[1] = 1; out[2] = -Math.sign(w) * detLog1p(-Math.abs(w)); });
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Laplace.logProb', [['value', x], ['loc', this.loc], ['scale', this.scale]], laplaceLogProb, laplaceLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofZ('cdf', x, cdfLaplace, (z) => 0.5 * detExp(-Math.abs(z)));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => cdfLaplace(-z), (z) => -0.5 * detExp(-Math.abs(z)));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, logCdfLaplace, dLogCdfLaplace);
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => logCdfLaplace(-z), (z) => -dLogCdfLaplace(-z));
  }

  /** g((x − μ)/b) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`Laplace.${method}`, [['value', x], ['loc', this.loc], ['scale', this.scale]],
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => { const z = (v - m) / s, d = dg(z); out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s; });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    // μ + b·log(2p) up to ½, μ − b·(log 2 + log1p(−p)) above.
    return fusedMap('Laplace.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => m + s * laplaceQuantile(q),
      (out, q, _m, s) => { out[0] = s / (q <= 0.5 ? q : 1 - q); out[1] = 1; out[2] = laplaceQuantile(q); });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(mul(this.scale, Math.SQRT2), this.batchShape); }
  protected override entropyImpl(): Tensor { return broadcastTo(add(log(this.scale), Math.LN2 + 1), this.batchShape); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function laplaceLogProb(v: number, m: number, s: number): number { return -Math.abs((v - m) / s) - Math.LN2 - detLog(s); }
function laplaceLogProbPartials(out: Float64Array, v: number, m: number, s: number): void {
  const z = (v - m) / s, sg = Math.sign(z);
  out[0] = -sg / s; out[1] = sg / s; out[2] = (Math.abs(z) - 1) / s;
}

function laplaceQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  return p <= 0.5 ? detLog(2 * p) : -(Math.LN2 + detLog1p(-p));
}

/**
 * KL(Laplace(μa, ba) ‖ Laplace(μb, bb)) = −δ + d/bb − 1 + exp(−d/ba + δ), d = |μa − μb|,
 * δ = log ba − log bb (TFP's form).
 */
registerKL(Laplace, Laplace, (a, b) => {
  const d = abs(sub(a.loc, b.loc));
  const delta = sub(log(a.scale), log(b.scale));
  return add(sub(div(d, b.scale), add(delta, 1)), exp(add(neg(div(d, a.scale)), delta)));
});
brand(Laplace, 'Laplace');   // recognised across copies of stochax (src/brand.ts)
