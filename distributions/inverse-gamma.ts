import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, greater, log, mul, square, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { digamma, lgamma } from '../src/tensor/ops/special.js';
import { digamma as digammaScalar, gammaPowerLog } from '../src/tensor/special/gamma.js';
import { igammaDa, igammaDx, igammaScalar, igammacScalar } from '../src/tensor/special/igamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Reciprocal } from './bijectors/reciprocal.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { igammaInv, logIgamma, logIgammac } from './internal/log-incomplete.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface InverseGammaOptions extends DistributionOptions {
  /** Shape α > 0. */
  readonly concentration: TensorLike;
  /** Scale β > 0 (1/X ~ Gamma(α, rate β)). */
  readonly scale: TensorLike;
}

/**
 * The inverse-gamma distribution (TFP's `tfd.InverseGamma`): density
 * β^α x^(−α−1) e^(−β/x) / Γ(α) on x > 0 (−∞ log density at x ≤ 0); 1/X ~ Gamma(α, rate β).
 *
 * Sampling follows TFP on JAX: x = exp(−log g) with log g drawn by TFP's log-space gamma
 * sampler (`random_gamma(..., rate=scale, log_space=True)`: `randomLogGamma` with log rate
 * ln β, salts `'random_gamma'`; no salt of its own). Draws are not differentiated. Beyond TFP,
 * `logCdf` and `logSurvivalFunction` stay finite in the far tails. TFP registers no KL rule.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast or, with `validateArgs`, for a non-positive `concentration` or `scale`.
 * @example
 * const d = new InverseGamma({ concentration: 3, scale: [1, 2] });
 * d.mean();                  // → Tensor float64 [2]: [0.5, 1]
 * d.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class InverseGamma extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
    scale: { constraint: positive },
  };
  readonly concentration: Tensor;
  readonly scale: Tensor;

  constructor(options: InverseGammaOptions) {
    super('InverseGamma', options, true);
    this.concentration = this.param('concentration');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const conc = broadcastData(this.fn, 'concentration', this.concentration, shape) as Float64Array;
    const logRate = broadcastData(this.fn, 'scale', log(this.scale), shape) as Float64Array;
    const logDraws = randomLogGamma(shape, conc, logRate, seed, dtype);
    const out = floatStorage(dtype, logDraws.length);
    for (let i = 0; i < out.length; i++) out[i] = detExp(-logDraws[i]!);
    return new Tensor(out, shape, dtype);
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['concentration', this.concentration], ['scale', this.scale]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('InverseGamma.logProb', this.args(x), inverseGammaLogProb, inverseGammaLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.incomplete('cdf', x, igammacScalar, 1); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.incomplete('survivalFunction', x, igammaScalar, -1); }

  /** Q(α, β/x) (sign +1) or P(α, β/x) (sign −1) as one fused node. */
  private incomplete(method: string, x: Tensor, f: (a: number, z: number) => number, sign: number): Tensor {
    return fusedMap(`InverseGamma.${method}`, this.args(x),
      (v, a, b) => (v <= 0 ? (sign > 0 ? 0 : 1) : f(a, b / v)),
      (out, v, a, b) => {
        if (!(v > 0)) return;
        const z = b / v, dz = igammaDx(a, z);
        out[0] = sign * dz * b / (v * v); out[1] = -sign * igammaDa(a, z); out[2] = -sign * dz / v;
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor { return this.logIncomplete('logCdf', x, logIgammac, 1); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.logIncomplete('logSurvivalFunction', x, logIgamma, -1); }

  /** log Q(α, β/x) (sign +1) or log P(α, β/x) (sign −1), finite in the far tails. */
  private logIncomplete(method: string, x: Tensor, f: (a: number, z: number, wantDa?: boolean) => [number, number], sign: number): Tensor {
    return fusedMap(`InverseGamma.${method}`, this.args(x),
      (v, a, b) => (v <= 0 ? (sign > 0 ? -Infinity : 0) : f(a, b / v)[0]),
      (out, v, a, b, _d, y) => {
        if (!(v > 0)) return;
        const z = b / v, g = detExp(gammaPowerLog(a, z) - detLog(z) - y); // Gamma density at z over the tail mass
        out[0] = sign * g * b / (v * v); out[1] = f(a, z, true)[1]; out[2] = -sign * g / v;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('InverseGamma.quantile', [['p', p], ['concentration', this.concentration], ['scale', this.scale]],
      (q, a, b) => (q >= 0 && q <= 1 && a > 0 ? b / igammaInv(a, q, true) : Number.NaN),
      (out, _q, a, b, _d, y) => {
        // x = β/z with Q(α, z) = p.
        const z = b / y, dz = igammaDx(a, z);
        out[0] = b / (z * z * dz); out[1] = (b * igammaDa(a, z)) / (z * z * dz); out[2] = 1 / z;
      });
  }

  protected override meanImpl(): Tensor {
    const a = this.concentration;
    return broadcastTo(where(greater(a, 1), div(this.scale, sub(a, 1)), Number.NaN), this.batchShape);
  }
  protected override varianceImpl(): Tensor {
    const a = this.concentration;
    const v = div(square(this.scale), mul(square(sub(a, 1)), sub(a, 2)));
    return broadcastTo(where(greater(a, 2), v, Number.NaN), this.batchShape);
  }
  protected override modeImpl(): Tensor { return broadcastTo(div(this.scale, add(this.concentration, 1)), this.batchShape); }
  protected override entropyImpl(): Tensor {
    const a = this.concentration;
    return broadcastTo(sub(add(add(a, log(this.scale)), lgamma(a)), mul(add(a, 1), digamma(a))), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Chain({
      bijectors: [new Reciprocal({ validateArgs: this.validateArgs }), new Softplus({ validateArgs: this.validateArgs })],
      validateArgs: this.validateArgs,
    });
  }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
/** With z = β/x: ln f(x) = ln(z^α e^−z/Γ(α)) + ln z − ln β (Stirling's form for large α). */
function inverseGammaLogProb(v: number, a: number, b: number): number {
  return Number.isNaN(v) ? Number.NaN : v <= 0 ? -Infinity : gammaPowerLog(a, b / v) + detLog(b / v) - detLog(b);
}
function inverseGammaLogProbPartials(out: Float64Array, v: number, a: number, b: number): void {
  out[0] = -(1 + a) / v + b / (v * v);
  out[1] = detLog(b / v) - digammaScalar(a);
  out[2] = a / b - 1 / v;
}
brand(InverseGamma, 'InverseGamma');   // recognised across copies of stochax (src/brand.ts)
