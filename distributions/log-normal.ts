import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, exp, expm1, log, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Exp } from './bijectors/exp.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { dLogNdtr, logNdtr, logPhi, ndtr, ndtri } from './internal/ndtr.js';
import { registerKL } from './kl.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface LogNormalOptions extends DistributionOptions {
  /** μ, the mean of log X (any real). */
  readonly loc: TensorLike;
  /** σ > 0, the standard deviation of log X. */
  readonly scale: TensorLike;
}

const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/**
 * The log-normal distribution (TFP's `tfd.LogNormal`, there a TransformedDistribution of
 * Normal(μ, σ) by Exp): density exp(−(ln x − μ)²/(2σ²)) / (xσ√(2π)) on x > 0 (−∞ log density
 * at x ≤ 0). Written out directly so each method is one fused node.
 *
 * Sampling is TFP's: the Normal's draw with the seed as given (no salt), exponentiated:
 * exp(`samplers.normal([n, ...batch])` · σ + μ), differentiable in μ and σ. Beyond TFP's
 * transformed-distribution methods: `logCdf`/`logSurvivalFunction` accurate in both tails.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast or, with `validateArgs`, for a non-positive `scale`.
 * @example
 * const d = new LogNormal({ loc: 0, scale: [0.5, 1] });
 * d.mode();                  // → Tensor float64 [2]: [e^−0.25, e^−1]
 * d.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class LogNormal extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: LogNormalOptions) {
    super('LogNormal', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const z = samplersNormal([n, ...this.batchShape], { seed, dtype: this.dtype });
    return exp(add(mul(z, this.scale), this.loc));
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('LogNormal.logProb', this.args(x), logNormalLogProb, logNormalLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.ofZ('cdf', x, ndtr, (z) => detExp(logPhi(z)), 0); }
  protected override logCdfImpl(x: Tensor): Tensor { return this.ofZ('logCdf', x, logNdtr, dLogNdtr, -Infinity); }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => ndtr(-z), (z) => -detExp(logPhi(z)), 1);
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => logNdtr(-z), (z) => -dLogNdtr(-z), 0);
  }

  /** g((ln x − μ)/σ) as one fused node given g and g′ (`atZero` for x ≤ 0). */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number, atZero: number): Tensor {
    return fusedMap(`LogNormal.${method}`, this.args(x),
      (v, m, s) => (v > 0 ? g((detLog(v) - m) / s) : Number.isNaN(v) ? Number.NaN : atZero),
      (out, v, m, s) => {
        if (!(v > 0)) return;
        const z = (detLog(v) - m) / s, d = dg(z);
        out[0] = d / (s * v); out[1] = -d / s; out[2] = -d * z / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('LogNormal.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => detExp(ndtri(q) * s + m),
      (out, q, _m, s, _d, y) => { const z = ndtri(q); out[0] = (y * s) / detExp(logPhi(z)); out[1] = y; out[2] = y * z; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(exp(add(this.loc, mul(0.5, square(this.scale)))), this.batchShape); }
  protected override varianceImpl(): Tensor {
    const v = square(this.scale);
    return broadcastTo(mul(expm1(v), exp(add(mul(2, this.loc), v))), this.batchShape);
  }
  protected override modeImpl(): Tensor { return broadcastTo(exp(sub(this.loc, square(this.scale))), this.batchShape); }
  protected override entropyImpl(): Tensor {
    return broadcastTo(add(add(this.loc, log(this.scale)), 0.5 + LOG_SQRT_2PI), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Exp({ validateArgs: this.validateArgs }); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function logNormalLogProb(v: number, m: number, s: number): number {
  if (!(v > 0)) return Number.isNaN(v) ? Number.NaN : -Infinity;
  const lv = detLog(v), z = (lv - m) / s;
  return -0.5 * z * z - LOG_SQRT_2PI - detLog(s) - lv;
}
function logNormalLogProbPartials(out: Float64Array, v: number, m: number, s: number): void {
  if (!(v > 0)) return;
  const z = (detLog(v) - m) / s;
  out[0] = -(z / s + 1) / v; out[1] = z / s; out[2] = (z * z - 1) / s;
}

/** KL(LogNormal(μa, σa) ‖ LogNormal(μb, σb)) = KL of the underlying normals (TFP's rule). */
registerKL(LogNormal, LogNormal, (a, b) => {
  const delta = sub(log(a.scale), log(b.scale));
  const diff = square(div(sub(a.loc, b.loc), b.scale));
  return add(mul(0.5, diff), sub(mul(0.5, expm1(mul(2, delta))), delta));
});
brand(LogNormal, 'LogNormal');   // recognised across copies of stochax (src/brand.ts)
