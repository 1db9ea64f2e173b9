import { detLog, detLog1p, detTanh } from '../src/math/index.js';
import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, log, mul, sigmoidScalar, softplusScalar } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { brand } from '../src/brand.js';

export interface LogisticOptions extends DistributionOptions {
  /** Location μ (mean, median and mode; any real). */
  readonly loc: TensorLike;
  /** Scale s > 0 (the standard deviation is sπ/√3). */
  readonly scale: TensorLike;
}

/** The smallest positive normal number of each float dtype (TFP's `finfo.tiny`). */
const TINY = { float64: 2 ** -1022, float32: 2 ** -126 } as const;

/**
 * The logistic distribution (TFP's `tfd.Logistic`): density e^(−z) / (s(1 + e^(−z))²),
 * z = (x − μ)/s, on ℝ; cdf σ(z).
 *
 * Sampling is TFP's: the seed is used as given for `samplers.uniform([n, ...batch])` on
 * [tiny, 1) (tiny the smallest positive normal number, so the interval is open at 0), and the
 * draw is (log u − log1p(−u))·s + μ. The log cdf and log survival function are −softplus(∓z),
 * exact in both tails. Fully reparameterized; every method is differentiable in the value and
 * both parameters. TFP registers no KL divergence for it.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `scale ≤ 0`.
 * @example
 * const d = new Logistic({ loc: 1, scale: 2 });
 * d.cdf(1).item();             // 0.5
 * d.logCdf(-2000).item();      // −1000.5 (the cdf underflows)
 * d.sample([2, 3], { seed: 0 }); // → Tensor float64 [2, 3]
 */
export class Logistic extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: LogisticOptions) {
    super('Logistic', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const u = samplersUniform([n, ...this.batchShape], { minval: TINY[dtype], maxval: 1, seed, dtype });
    return fusedMap('Logistic.sample', [['u', u], ['loc', this.loc], ['scale', this.scale]],
      (w, m, s) => (detLog(w) - detLog1p(-w)) * s + m,
      (out, w) => { out[1] = 1; out[2] = detLog(w) - detLog1p(-w); });
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Logistic.logProb', [['value', x], ['loc', this.loc], ['scale', this.scale]], logisticLogProb, logisticLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofZ('cdf', x, sigmoidScalar, (z) => sigmoidScalar(z) * sigmoidScalar(-z));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => sigmoidScalar(-z), (z) => -sigmoidScalar(z) * sigmoidScalar(-z));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, (z) => -softplusScalar(-z), (z) => sigmoidScalar(-z));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => -softplusScalar(z), (z) => -sigmoidScalar(z));
  }

  /** g((x − μ)/s) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`Logistic.${method}`, [['value', x], ['loc', this.loc], ['scale', this.scale]],
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => { const z = (v - m) / s, d = dg(z); out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s; });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Logistic.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => m + s * (detLog(q) - detLog1p(-q)),
      (out, q, _m, s) => { out[0] = s / (q * (1 - q)); out[1] = 1; out[2] = detLog(q) - detLog1p(-q); });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(mul(this.scale, Math.PI / Math.sqrt(3)), this.batchShape); }
  protected override entropyImpl(): Tensor { return broadcastTo(add(log(this.scale), 2), this.batchShape); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function logisticLogProb(v: number, m: number, s: number): number { const z = (v - m) / s; return -z - 2 * softplusScalar(-z) - detLog(s); }
function logisticLogProbPartials(out: Float64Array, v: number, m: number, s: number): void {
  const z = (v - m) / s, t = detTanh(z / 2); // d/dz log density = −tanh(z/2)
  out[0] = -t / s; out[1] = t / s; out[2] = (z * t - 1) / s;
}
brand(Logistic, 'Logistic');   // recognised across copies of stochax (src/brand.ts)
