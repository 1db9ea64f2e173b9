import type { KeyArray } from '../src/random/key-array.js';
import { erf } from '../src/random/erf.js';
import { erfinv64 } from '../src/random/erfinv.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { abs, add, div, log, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { zeros } from '../src/tensor/ops/create.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { dLogNdtr, logNdtr, logPhi, ndtr, ndtri } from './internal/ndtr.js';
import { registerKL } from './kl.js';
import { detExp, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface HalfNormalOptions extends DistributionOptions {
  /** σ > 0, the scale of the normal that is folded at 0. */
  readonly scale: TensorLike;
}

const HALF_LOG_2_OVER_PI = 0.5 * detLog(2 / Math.PI);

/** P[|N(0, 1)| ≤ z] = erf(z/√2) for z ≥ 0, from the tail where that is the accurate side. */
const cdfZ = (z: number) => (z < 1 ? erf(z * Math.SQRT1_2) : 1 - 2 * ndtr(-z));
/** 2φ(z), the half-normal density at z (unit scale). */
const twoPhi = (z: number) => 2 * detExp(logPhi(z));

/**
 * The half-normal distribution (TFP's `tfd.HalfNormal`): density √(2/π)/σ · exp(−x²/(2σ²)) on
 * x ≥ 0 (−∞ log density at x < 0); |N(0, σ²)|.
 *
 * Sampling is TFP's: |`samplers.normal([n, ...batch])` · σ| with the seed as given (no salt),
 * differentiable in σ. Beyond TFP: `survivalFunction`, `logCdf` and `logSurvivalFunction`,
 * accurate in both tails, and a quantile that keeps its digits for p near 1.
 *
 * @throws TypeError for a missing or non-numeric `scale`; RangeError with `validateArgs` for a
 *   non-positive scale.
 * @example
 * const d = new HalfNormal({ scale: [1, 2] });
 * d.quantile(0.5);           // → Tensor float64 [2]: [≈0.674, ≈1.349]
 * d.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class HalfNormal extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    scale: { constraint: positive },
  };
  readonly scale: Tensor;

  constructor(options: HalfNormalOptions) {
    super('HalfNormal', options, true);
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const z = samplersNormal([n, ...this.batchShape], { seed, dtype: this.dtype });
    return abs(mul(z, this.scale));
  }

  protected override get support() { return nonNegative; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('HalfNormal.logProb', [['value', x], ['scale', this.scale]], halfNormalLogProb, halfNormalLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofZ('cdf', x, cdfZ, twoPhi, 0); }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, (z) => (z < 1 ? detLog(erf(z * Math.SQRT1_2)) : detLog1p(-2 * ndtr(-z))), (z) => twoPhi(z) / cdfZ(z), -Infinity);
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.ofZ('survivalFunction', x, (z) => 2 * ndtr(-z), (z) => -twoPhi(z), 1); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x,
      (z) => (z < 1 ? detLog1p(-erf(z * Math.SQRT1_2)) : Math.LN2 + logNdtr(-z)),
      (z) => (z < 1 ? -twoPhi(z) / (1 - erf(z * Math.SQRT1_2)) : -dLogNdtr(-z)), 0);
  }

  /** g(x/σ) for x ≥ 0 (`below` for x < 0) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number, below: number): Tensor {
    return fusedMap(`HalfNormal.${method}`, [['value', x], ['scale', this.scale]],
      (v, s) => (v >= 0 ? g(v / s) : Number.isNaN(v) ? Number.NaN : below),
      (out, v, s) => { if (v > 0) { const z = v / s, d = dg(z); out[0] = d / s; out[1] = -d * z / s; } });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('HalfNormal.quantile', [['p', p], ['scale', this.scale]],
      (q, s) => (!(q >= 0 && q <= 1) ? Number.NaN : q < 0.5 ? Math.SQRT2 * erfinv64(q) * s : -ndtri(0.5 * (1 - q)) * s),
      (out, _q, s, _c, _d, y) => { const z = y / s; out[0] = s / twoPhi(z); out[1] = z; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(mul(this.scale, Math.sqrt(2 / Math.PI)), this.batchShape); }
  protected override varianceImpl(): Tensor { return broadcastTo(mul(square(this.scale), 1 - 2 / Math.PI), this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(mul(this.scale, Math.sqrt(1 - 2 / Math.PI)), this.batchShape); }
  protected override modeImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override entropyImpl(): Tensor {
    return broadcastTo(add(log(this.scale), 0.5 * detLog(Math.PI / 2) + 0.5), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Softplus({ validateArgs: this.validateArgs }); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function halfNormalLogProb(v: number, s: number): number { if (!(v >= 0)) return Number.isNaN(v) ? Number.NaN : -Infinity; const z = v / s; return HALF_LOG_2_OVER_PI - detLog(s) - 0.5 * z * z; }
function halfNormalLogProbPartials(out: Float64Array, v: number, s: number): void { if (v >= 0) { const z = v / s; out[0] = -z / s; out[1] = (z * z - 1) / s; } }

/** KL(HN(σa) ‖ HN(σb)) = ln σb − ln σa + (σa² − σb²)/(2σb²) (TFP's rule). */
registerKL(HalfNormal, HalfNormal, (a, b) => {
  const sb2 = square(b.scale);
  return add(sub(log(b.scale), log(a.scale)), div(sub(square(a.scale), sb2), mul(2, sb2)));
});
brand(HalfNormal, 'HalfNormal');   // recognised across copies of stochax (src/brand.ts)
