import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { broadcastData, reduceToShape } from '../src/tensor/broadcast.js';
import { floatStorage, isTracked, result, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, greater, minimum, mul, sigmoidScalar, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { digamma, lbeta } from '../src/tensor/ops/special.js';
import { betaincDaDb, betaincDx, betaincScalar } from '../src/tensor/special/betainc.js';
import { betaincinv } from '../src/tensor/special/betaincinv.js';
import { betaPowerLog, digammaDiff } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { gammaLogDrawDa } from './gamma.js';
import { positive, unitInterval } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { logBetainc } from './internal/log-incomplete.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { registerKL } from './kl.js';
import { detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface BetaOptions extends DistributionOptions {
  /** α > 0, the concentration of the outcome 1 (broadcasts with `concentration0`). */
  readonly concentration1: TensorLike;
  /** β > 0, the concentration of the outcome 0. */
  readonly concentration0: TensorLike;
}

const D = [0, 0];

/** log x^(α−1) (1−x)^(β−1) / B(α, β) for 0 < x < 1 (through Stirling's formula for large α + β). */
function logDensity(v: number, a: number, b: number): number {
  return betaPowerLog(a, b, v) - detLog(v) - detLog1p(-v);
}

/**
 * The beta distribution (TFP's `tfd.Beta`): density x^(α−1) (1 − x)^(β−1) / B(α, β) on [0, 1]
 * (−∞ log density outside, as TFP's `force_probs_to_zero_outside_support`).
 *
 * Sampling follows TFP on JAX: `[seed1, seed2] = splitSeed(seed, { salt: 'beta' })`, two
 * log-space gamma draws by TFP's rejection sampler (`randomLogGamma`, salts `'random_gamma'`)
 * of concentrations α and β, and x = sigmoid(log g₁ − log g₂). Draws are fully reparameterized
 * through the two gammas (implicit reparameterization gradients, as TFP's): with each gamma held
 * at its quantile, ∂x/∂α = x(1 − x)·∂log g₁/∂α and ∂x/∂β = −x(1 − x)·∂log g₂/∂β
 * (`gammaLogDrawDa`), one tape node when a concentration is tracked. Beyond TFP: `quantile` (by
 * betaincinv), `survivalFunction`, and `logCdf`/`logSurvivalFunction` that stay
 * finite in the far tails. KL: Beta–Beta (TFP's rule).
 *
 * @throws TypeError for a missing or non-numeric concentration; RangeError when the shapes do
 *   not broadcast or, with `validateArgs`, for a non-positive concentration.
 * @example
 * const b = new Beta({ concentration1: [1, 2], concentration0: 3 });
 * b.mean();                  // → Tensor float64 [2]: [0.25, 0.4]
 * b.sample(4, { seed: 1 });  // → Tensor float64 [4, 2]
 */
export class Beta extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration1: { constraint: positive },
    concentration0: { constraint: positive },
  };
  readonly concentration1: Tensor;
  readonly concentration0: Tensor;

  constructor(options: BetaOptions) {
    super('Beta', options, true);
    this.concentration1 = this.param('concentration1');
    this.concentration0 = this.param('concentration0');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const [seed1, seed2] = splitSeed(seed, { salt: 'beta' }) as [KeyArray, KeyArray];
    const c1 = broadcastData(this.fn, 'concentration1', this.concentration1, shape) as Float64Array;
    const c0 = broadcastData(this.fn, 'concentration0', this.concentration0, shape) as Float64Array;
    const g1 = randomLogGamma(shape, c1, null, seed1, dtype);
    const g2 = randomLogGamma(shape, c0, null, seed2, dtype);
    const out = floatStorage(dtype, g1.length);
    for (let i = 0; i < out.length; i++) out[i] = sigmoidScalar(g1[i]! - g2[i]!);
    const params = [this.concentration1, this.concentration0];
    const track1 = isTracked(params[0]!), track0 = isTracked(params[1]!);
    if (!track1 && !track0) return new Tensor(out, shape, dtype);
    return result(out, shape, params, (g) => {
      const d1 = track1 ? new Float64Array(out.length) : null, d0 = track0 ? new Float64Array(out.length) : null;
      for (let k = 0; k < out.length; k++) {
        const gk = g[k]!;
        if (gk === 0) continue;
        // x(1 − x) = σ(d)·σ(−d), without the cancellation of 1 − x near 1.
        const d = g1[k]! - g2[k]!, slope = gk * sigmoidScalar(d) * sigmoidScalar(-d);
        if (d1) d1[k] = slope * gammaLogDrawDa(c1[k]!, g1[k]!);
        if (d0) d0[k] = -slope * gammaLogDrawDa(c0[k]!, g2[k]!);
      }
      return [d1 && reduceToShape(d1, shape, params[0]!.shape), d0 && reduceToShape(d0, shape, params[1]!.shape)];
    }, dtype, 'Beta.sample');
  }

  protected override get support() { return unitInterval; }

  private args(x: Tensor): [string, Tensor][] {
    return [['value', x], ['concentration1', this.concentration1], ['concentration0', this.concentration0]];
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Beta.logProb', this.args(x), betaLogProb, betaLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('Beta.cdf', this.args(x),
      (v, a, b) => (v <= 0 ? 0 : v >= 1 ? 1 : betaincScalar(a, b, v)),
      (out, v, a, b) => {
        if (!(v > 0 && v < 1)) return;
        betaincDaDb(a, b, v, D);
        out[0] = betaincDx(a, b, v); out[1] = D[0]!; out[2] = D[1]!;
      });
  }

  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Beta.survivalFunction', this.args(x),
      // I_{1−x}(β, α) where 1 − x is exact, else 1 − I_x(α, β) through its log (which keeps the digits of I near 1).
      (v, a, b) => (v <= 0 ? 1 : v >= 1 ? 0 : v >= 0.5 ? betaincScalar(b, a, 1 - v) : -detExpm1(logBetainc(a, b, v)[0])),
      (out, v, a, b) => {
        if (!(v > 0 && v < 1)) return;
        betaincDaDb(a, b, v, D);
        out[0] = -betaincDx(a, b, v); out[1] = -D[0]!; out[2] = -D[1]!;
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor {
    return fusedMap('Beta.logCdf', this.args(x),
      (v, a, b) => (v <= 0 ? -Infinity : v >= 1 ? 0 : logBetainc(a, b, v)[0]),
      (out, v, a, b, _d, y) => {
        if (!(v > 0 && v < 1)) return;
        const [, da, db] = logBetainc(a, b, v, true);
        out[0] = detExp(logDensity(v, a, b) - y); out[1] = da; out[2] = db;
      });
  }

  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Beta.logSurvivalFunction', this.args(x),
      (v, a, b) => (v <= 0 ? 0 : v >= 1 ? -Infinity : logBetainc(b, a, 1 - v, false, v)[0]),
      (out, v, a, b, _d, y) => {
        if (!(v > 0 && v < 1)) return;
        const [, db, da] = logBetainc(b, a, 1 - v, true, v);
        out[0] = -detExp(logDensity(v, a, b) - y); out[1] = da; out[2] = db;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Beta.quantile', [['p', p], ['concentration1', this.concentration1], ['concentration0', this.concentration0]],
      (q, a, b) => (q >= 0 && q <= 1 && a > 0 && b > 0 ? betaincinv(q, a, b) : Number.NaN),
      (out, _q, a, b, _d, y) => {
        // x(p) solves I_x(α, β) = p: ∂x/∂p = 1/I′, ∂x/∂α = −(∂I/∂α)/I′, ∂x/∂β = −(∂I/∂β)/I′.
        const dx = betaincDx(a, b, y);
        betaincDaDb(a, b, y, D);
        out[0] = 1 / dx; out[1] = -D[0]! / dx; out[2] = -D[1]! / dx;
      });
  }

  private total(): Tensor { return add(this.concentration1, this.concentration0); }
  protected override meanImpl(): Tensor { return broadcastTo(div(this.concentration1, this.total()), this.batchShape); }
  protected override varianceImpl(): Tensor {
    const t = this.total();
    return broadcastTo(div(mul(this.concentration1, this.concentration0), mul(mul(t, t), add(t, 1))), this.batchShape);
  }
  protected override modeImpl(): Tensor {
    const m = div(sub(this.concentration1, 1), sub(this.total(), 2));
    return broadcastTo(where(greater(minimum(this.concentration1, this.concentration0), 1), m, Number.NaN), this.batchShape);
  }
  protected override entropyImpl(): Tensor {
    const a = this.concentration1, b = this.concentration0, t = this.total();
    const h = add(sub(sub(lbeta(a, b), mul(sub(a, 1), digamma(a))), mul(sub(b, 1), digamma(b))), mul(sub(t, 2), digamma(t)));
    return broadcastTo(h, this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Sigmoid({ validateArgs: this.validateArgs }); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function betaLogProb(v: number, a: number, b: number): number {
  if (Number.isNaN(v) || !(v >= 0 && v <= 1)) return Number.isNaN(v) ? Number.NaN : -Infinity;
  if (v === 0) return a === 1 ? detLog(b) : a < 1 ? Infinity : -Infinity;
  if (v === 1) return b === 1 ? detLog(a) : b < 1 ? Infinity : -Infinity;
  return logDensity(v, a, b);
}
function betaLogProbPartials(out: Float64Array, v: number, a: number, b: number): void {
  out[0] = (a - 1) / v - (b - 1) / (1 - v);
  out[1] = detLog(v) + digammaDiff(a, b);
  out[2] = detLog1p(-v) + digammaDiff(b, a);
}

/**
 * KL(Beta(α₁, β₁) ‖ Beta(α₂, β₂)) = ln B(α₂, β₂) − ln B(α₁, β₁) − ψ(α₁)(α₂ − α₁) − ψ(β₁)(β₂ − β₁)
 * + ψ(α₁ + β₁)(α₂ + β₂ − α₁ − β₁) (TFP's form).
 */
registerKL(Beta, Beta, (p, q) => {
  const a1 = p.concentration1, b1 = p.concentration0, a2 = q.concentration1, b2 = q.concentration0;
  const t1 = add(a1, b1), t2 = add(a2, b2);
  return add(
    sub(sub(sub(lbeta(a2, b2), lbeta(a1, b1)), mul(digamma(a1), sub(a2, a1))), mul(digamma(b1), sub(b2, b1))),
    mul(digamma(t1), sub(t2, t1)),
  );
});
brand(Beta, 'Beta');   // recognised across copies of stochax (src/brand.ts)
