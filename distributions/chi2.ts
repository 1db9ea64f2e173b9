import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, expm1, greater, log, mul, sqrt, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { digamma, lgamma } from '../src/tensor/ops/special.js';
import { digamma as digammaScalar, gammaPowerLog } from '../src/tensor/special/gamma.js';
import { igammaDa, igammaDx, igammaScalar, igammacScalar } from '../src/tensor/special/igamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { Gamma } from './gamma.js';
import { nonNegative, positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { igammaInv, logIgamma, logIgammac } from './internal/log-incomplete.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { registerKL } from './kl.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface Chi2Options extends DistributionOptions {
  /** Degrees of freedom k > 0 (need not be an integer). */
  readonly df: TensorLike;
}

const TINY: Record<FloatDType, number> = { float64: 2 ** -1022, float32: 2 ** -126 };

/** log density of χ²(k) at x > 0: ln(z^(a−1) e^−z / Γ(a)) − ln 2 with a = k/2, z = x/2 (Stirling for large a). */
function logDensity(x: number, k: number): number {
  const a = 0.5 * k, z = 0.5 * x;
  return gammaPowerLog(a, z) - detLog(z) - Math.LN2;
}

/**
 * The chi-squared distribution (TFP's `tfd.Chi2`, Gamma(k/2, rate ½)): density
 * x^(k/2−1) e^(−x/2) / (2^(k/2) Γ(k/2)) on x ≥ 0 (−∞ log density at x < 0).
 *
 * Sampling: TFP draws `random_gamma([n], k/2, rate=½, seed)` with no salt of its own
 * (random_gamma salts `'random_gamma'`). Here the same draw comes from the log-space sampler
 * (`randomLogGamma`, exponentiated, exact zeros raised to `finfo.tiny` as TFP does). Deviation:
 * TFP takes this path in linear space, so for k ≥ 2 the draws agree with TFP's up to rounding,
 * while for k < 2 TFP's boost multiplies by U^(2/k) where the log-space path adds
 * log1p(−U)·2/k (the same distribution, different draws). Beyond TFP: `quantile`, and
 * `logCdf`/`logSurvivalFunction` that stay finite in the far tails.
 *
 * @throws TypeError for a missing or non-numeric `df`; RangeError with `validateArgs` for a
 *   non-positive `df`.
 * @example
 * const c = new Chi2({ df: [1, 5] });
 * c.mean();                  // → Tensor float64 [2]: [1, 5]
 * c.cdf(3.84);               // → Tensor float64 [2]: [≈0.95, ≈0.43]
 * c.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class Chi2 extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    df: { constraint: positive },
  };
  readonly df: Tensor;

  constructor(options: Chi2Options) {
    super('Chi2', options, true);
    this.df = this.param('df');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const df = broadcastData(this.fn, 'df', this.df, shape) as Float64Array;
    const conc = df.map((k) => 0.5 * k);
    const logDraws = randomLogGamma(shape, conc, new Float64Array(conc.length).fill(-Math.LN2), seed, dtype);
    const out = floatStorage(dtype, logDraws.length);
    for (let i = 0; i < out.length; i++) out[i] = detExp(logDraws[i]!);
    for (let i = 0; i < out.length; i++) if (out[i] === 0) out[i] = TINY[dtype];
    return new Tensor(out, shape, dtype);
  }

  protected override get support() { return nonNegative; }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['df', this.df]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Chi2.logProb', this.args(x), chi2LogProb, chi2LogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('Chi2.cdf', this.args(x),
      (v, k) => (v <= 0 ? 0 : igammaScalar(0.5 * k, 0.5 * v)),
      (out, v, k) => { if (v > 0) { out[0] = 0.5 * igammaDx(0.5 * k, 0.5 * v); out[1] = 0.5 * igammaDa(0.5 * k, 0.5 * v); } });
  }

  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Chi2.survivalFunction', this.args(x),
      (v, k) => (v <= 0 ? 1 : igammacScalar(0.5 * k, 0.5 * v)),
      (out, v, k) => { if (v > 0) { out[0] = -0.5 * igammaDx(0.5 * k, 0.5 * v); out[1] = -0.5 * igammaDa(0.5 * k, 0.5 * v); } });
  }

  protected override logCdfImpl(x: Tensor): Tensor {
    return fusedMap('Chi2.logCdf', this.args(x),
      (v, k) => (v <= 0 ? -Infinity : logIgamma(0.5 * k, 0.5 * v)[0]),
      (out, v, k, _c, _d, y) => {
        if (!(v > 0)) return;
        out[0] = detExp(logDensity(v, k) - y); out[1] = 0.5 * logIgamma(0.5 * k, 0.5 * v, true)[1];
      });
  }

  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Chi2.logSurvivalFunction', this.args(x),
      (v, k) => (v <= 0 ? 0 : logIgammac(0.5 * k, 0.5 * v)[0]),
      (out, v, k, _c, _d, y) => {
        if (!(v > 0)) return;
        out[0] = -detExp(logDensity(v, k) - y); out[1] = 0.5 * logIgammac(0.5 * k, 0.5 * v, true)[1];
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Chi2.quantile', [['p', p], ['df', this.df]],
      (q, k) => (q >= 0 && q <= 1 && k > 0 ? 2 * igammaInv(0.5 * k, q) : Number.NaN),
      (out, _q, k, _c, _d, y) => {
        // x = 2z with P(k/2, z) = p.
        const a = 0.5 * k, z = 0.5 * y, dz = igammaDx(a, z);
        out[0] = 2 / dz; out[1] = -igammaDa(a, z) / dz;
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.df, this.batchShape); }
  protected override varianceImpl(): Tensor { return broadcastTo(mul(this.df, 2), this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(sqrt(mul(this.df, 2)), this.batchShape); }
  protected override modeImpl(): Tensor { return broadcastTo(where(greater(this.df, 2), sub(this.df, 2), Number.NaN), this.batchShape); }
  protected override entropyImpl(): Tensor {
    const a = mul(this.df, 0.5);
    return broadcastTo(add(add(add(a, Math.LN2), lgamma(a)), mul(sub(1, a), digamma(a))), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Softplus({ validateArgs: this.validateArgs }); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function chi2LogProb(v: number, k: number): number {
  if (!(v > 0)) return Number.isNaN(v) ? Number.NaN : v < 0 ? -Infinity : k === 2 ? -Math.LN2 : k < 2 ? Infinity : -Infinity;
  return logDensity(v, k);
}
function chi2LogProbPartials(out: Float64Array, v: number, k: number): void { out[0] = (0.5 * k - 1) / v - 0.5; out[1] = 0.5 * (detLog(0.5 * v) - digammaScalar(0.5 * k)); }

/** KL between gammas given concentrations and log rates (TFP's Gamma–Gamma form). */
function klGammaGamma(c0: Tensor, lr0: Tensor | number, c1: Tensor, lr1: Tensor | number): Tensor {
  return add(
    add(mul(sub(c0, c1), digamma(c0)), sub(lgamma(c1), lgamma(c0))),
    add(mul(c1, sub(lr0, lr1)), mul(c0, expm1(sub(lr1, lr0)))),
  );
}

const gammaLogRate = (g: Gamma): Tensor => g.logRate ?? log(g.rate!);

registerKL(Chi2, Chi2, (a, b) => klGammaGamma(mul(a.df, 0.5), -Math.LN2, mul(b.df, 0.5), -Math.LN2));
registerKL(Chi2, Gamma, (a, b) => klGammaGamma(mul(a.df, 0.5), -Math.LN2, b.concentration, gammaLogRate(b)));
registerKL(Gamma, Chi2, (a, b) => klGammaGamma(a.concentration, gammaLogRate(a), mul(b.df, 0.5), -Math.LN2));
brand(Chi2, 'Chi2');   // recognised across copies of stochax (src/brand.ts)
