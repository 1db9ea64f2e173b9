import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed } from '../src/samplers/seeds.js';
import { broadcastData, reduceToShape } from '../src/tensor/broadcast.js';
import { floatStorage, isTracked, result, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, exp, log, mul, sqrt, square, sub, where, greater } from '../src/tensor/ops/elementwise.js';
import { digamma, lgamma } from '../src/tensor/ops/special.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { digamma as digammaScalar, gammaPowerLog, lgamma as lgammaScalar } from '../src/tensor/special/gamma.js';
import { igammaDa, igammaDx, igammaScalar, igammacScalar } from '../src/tensor/special/igamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { finite, positive } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { fusedMap } from './internal/fused.js';
import { igammainv } from './internal/igammainv.js';
import { gammaContinuedFraction } from './internal/log-incomplete.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { registerKL } from './kl.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface GammaOptions extends DistributionOptions {
  /** Shape α > 0. */
  readonly concentration: TensorLike;
  /** Rate β > 0 (inverse scale). Exactly one of `rate` and `logRate`. */
  readonly rate?: TensorLike;
  /** log β, used directly where a log rate is needed (no exp/log round trip). */
  readonly logRate?: TensorLike;
}

/**
 * The gamma distribution (TFP's `tfd.Gamma`): density β^α x^(α−1) e^(−βx) / Γ(α) on x > 0
 * (−∞ log density at x < 0).
 *
 * Sampling follows TFP on JAX: the seed is salted with `'gamma'`, then drawn by TFP's log-space
 * rejection sampler (salts `'random_gamma'` twice, the batched Las Vegas loop, the α < 1 boost;
 * see `internal/tfp-random-gamma.ts`) and exponentiated. Draws are fully reparameterized, as TFP's,
 * by implicit reparameterization gradients (Figurnov, Mohamed & Mnih 2018): with the draw held
 * at its quantile, ∂x/∂α = −(∂P/∂α)(α, βx) / (β·p(βx; α)) (P the regularized lower incomplete
 * gamma function, p the Gamma(α, 1) density), ∂x/∂rate = −x/rate and ∂x/∂logRate = −x, recorded
 * as one tape node when a parameter is tracked (summed over the sample dims and un-broadcast
 * to the parameters' shapes). The draws themselves do not depend on tracking.
 *
 * @throws TypeError unless exactly one of `rate` and `logRate` is given; RangeError for shapes
 *   that do not broadcast or, with `validateArgs`, a non-positive `concentration` or `rate`.
 * @example
 * const g = new Gamma({ concentration: 2, rate: [1, 4] });
 * g.mean();                  // → Tensor float64 [2]: [2, 0.5]
 * g.sample(5, { seed: 0 });  // → Tensor float64 [5, 2]
 */
export class Gamma extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    concentration: { constraint: positive },
    rate: { constraint: positive },
    logRate: { constraint: finite },
  };
  readonly concentration: Tensor;
  readonly rate: Tensor | undefined;
  readonly logRate: Tensor | undefined;

  constructor(options: GammaOptions) {
    super('Gamma', options, true);
    this.concentration = this.param('concentration');
    checkExactlyOne('Gamma', options, 'rate', 'logRate');
    this.rate = this.params.rate;
    this.logRate = this.params.logRate;
  }

  /** β as a tensor (exp(logRate) when given in log space). */
  rateParameter(): Tensor { return this.rate ?? exp(this.logRate!); }
  private logRateParameter(): Tensor { return this.logRate ?? log(this.rate!); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    // Scalar parameters are passed as single values; others are broadcast to the draws' shape.
    const values = (name: string, t: Tensor) => (t.size === 1 ? Float64Array.of(Number(t.data[0])) : broadcastData(this.fn, name, t, shape) as Float64Array);
    const conc = values('concentration', this.concentration);
    const logRate = values('rate', this.logRate ?? log(this.rate!));
    const logDraws = randomLogGamma(shape, conc, logRate, sanitizeSeed(seed, { salt: 'gamma' }), dtype);
    const rateT = this.logRate ?? this.rate!;
    const trackA = isTracked(this.concentration), trackR = isTracked(rateT);
    // The log draws, kept for the gradient (a draw that underflows to 0 still has its log).
    const logX = trackA || trackR ? Float64Array.from(logDraws) : null;
    // float64: exponentiate in place (randomLogGamma returns a fresh array).
    const out = dtype === 'float64' ? logDraws : floatStorage(dtype, logDraws.length);
    for (let i = 0; i < out.length; i++) out[i] = detExp(logDraws[i]!);
    if (logX === null) return new Tensor(out, shape, dtype);
    const byLog = this.logRate !== undefined, params = [this.concentration, rateT];
    return result(out, shape, params, (g) => {
      const a = values('concentration', this.concentration), r = values(byLog ? 'logRate' : 'rate', rateT);
      const sa = a.length === 1 ? 0 : 1, sr = r.length === 1 ? 0 : 1;
      const ga = trackA ? new Float64Array(out.length) : null, gr = trackR ? new Float64Array(out.length) : null;
      for (let k = 0; k < out.length; k++) {
        const gk = g[k]!;
        if (gk === 0) continue;
        const x = out[k]!, rk = r[k * sr]!;
        const logRateK = byLog ? rk : detLog(rk);
        if (ga) ga[k] = gk * x * gammaLogDrawDa(a[k * sa]!, logX[k]! + logRateK);
        if (gr) gr[k] = gk * (byLog ? -x : -x / rk);
      }
      return [ga && reduceToShape(ga, shape, params[0]!.shape), gr && reduceToShape(gr, shape, params[1]!.shape)];
    }, dtype, 'Gamma.sample');
  }

  protected override get support() { return positive; }

  protected override logProbImpl(x: Tensor): Tensor {
    if (this.logRate !== undefined) {
      return fusedMap('Gamma.logProb', [['value', x], ['concentration', this.concentration], ['logRate', this.logRate]],
        gammaLogProbByLogRate, gammaLogProbByLogRatePartials);
    }
    return fusedMap('Gamma.logProb', [['value', x], ['concentration', this.concentration], ['rate', this.rate!]],
      gammaLogProb, gammaLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.incomplete('cdf', x, igammaScalar, 1); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.incomplete('survivalFunction', x, igammacScalar, -1); }

  /** P(α, βx) or Q(α, βx) as one fused node (sign: +1 for P, −1 for Q = 1 − P). */
  private incomplete(method: string, x: Tensor, f: (a: number, z: number) => number, sign: number): Tensor {
    return fusedMap(`Gamma.${method}`, [['value', x], ['concentration', this.concentration], ['rate', this.rateParameter()]],
      (v, a, b) => (v <= 0 ? (sign > 0 ? 0 : 1) : f(a, b * v)),
      (out, v, a, b) => {
        if (v <= 0) return;
        const dz = igammaDx(a, b * v);
        out[0] = sign * dz * b; out[1] = sign * igammaDa(a, b * v); out[2] = sign * dz * v;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Gamma.quantile', [['p', p], ['concentration', this.concentration], ['rate', this.rateParameter()]],
      (q, a, b) => igammainv(a, q) / b,
      (out, q, a, b, _d, y) => {
        // x(p) solves P(α, βx) = p: ∂x/∂p = 1/(β·P'), ∂x/∂α = −(∂P/∂α)/(β·P'), ∂x/∂β = −x/β.
        const z = y * b, dz = igammaDx(a, z);
        out[0] = 1 / (b * dz); out[1] = -igammaDa(a, z) / (b * dz); out[2] = -y / b;
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(div(this.concentration, this.rateParameter()), this.batchShape); }
  protected override varianceImpl(): Tensor { return broadcastTo(div(this.concentration, square(this.rateParameter())), this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(div(sqrt(this.concentration), this.rateParameter()), this.batchShape); }
  protected override modeImpl(): Tensor {
    const m = div(sub(this.concentration, 1), this.rateParameter());
    return broadcastTo(where(greater(this.concentration, 1), m, Number.NaN), this.batchShape);
  }
  protected override entropyImpl(): Tensor {
    const a = this.concentration;
    return broadcastTo(add(sub(a, this.logRateParameter()), add(lgamma(a), mul(sub(1, a), digamma(a)))), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Softplus(); }
}

function xlogy(a: number, v: number): number { return a === 0 ? 0 : a * detLog(v); }

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function gammaLogProbByLogRate(v: number, a: number, lr: number): number { return v < 0 ? -Infinity : xlogy(a - 1, v) - detExp(lr) * v - lgammaScalar(a) + a * lr; }
function gammaLogProbByLogRatePartials(out: Float64Array, v: number, a: number, lr: number): void {
  const b = detExp(lr); out[0] = (a - 1) / v - b; out[1] = detLog(v) - digammaScalar(a) + lr; out[2] = a - b * v;
}
function gammaLogProb(v: number, a: number, b: number): number { return v < 0 ? -Infinity : xlogy(a - 1, v) - b * v - lgammaScalar(a) + a * detLog(b); }
function gammaLogProbPartials(out: Float64Array, v: number, a: number, b: number): void {
  out[0] = (a - 1) / v - b; out[1] = detLog(v) - digammaScalar(a) + detLog(b); out[2] = a / b - v;
}

/**
 * (∂z/∂α)/z for a standard gamma draw z = exp(logZ) (rate 1) held at its quantile u = P(α, z):
 * −(∂P/∂α)(α, z) / (z·p(z; α)), the implicit reparameterization gradient of log z. So a
 * Gamma(α, β) draw x = z/β has ∂x/∂α = x · gammaLogDrawDa(α, log(βx)).
 *
 * z·p(z; α) = exp(L) with L = gammaPowerLog(α, z). Where that underflows (L < −690: draws in the
 * extreme tails, or z itself below the smallest double), ∂P/∂α underflows with it, so the ratio
 * is taken with the common power prefactor divided out: below α + 1 by the lower series
 * P = z^α e^−z/Γ(α+1) · s, giving −(s·(log z − ψ(α+1)) + ∂s/∂α)/α; above it by Legendre's
 * continued fraction Q = z^α e^−z/Γ(α) / K, giving (log z − ψ(α))/K − (∂K/∂α)/K².
 */
export function gammaLogDrawDa(a: number, logZ: number): number {
  if (!(a > 0) || Number.isNaN(logZ)) return Number.NaN;
  if (logZ === Infinity) return Number.NaN;
  const z = detExp(logZ);
  if (z > 0 && z < Infinity) {
    const L = gammaPowerLog(a, z);
    if (L > -690) return -igammaDa(a, z) * detExp(-L);
  }
  if (z < a + 1) {
    // s = Σ tₙ, tₙ = zⁿ/((α+1)…(α+n)); ∂s/∂α = −Σ tₙ·Σⱼ≤ₙ 1/(α+j). The terms fall at least
    // geometrically (ratio z/(α+n) < 1).
    let t = 1, sum = 1, h = 0, ds = 0;
    for (let n = 1; n < 100000; n++) {
      t *= z / (a + n);
      h += 1 / (a + n);
      sum += t; ds -= t * h;
      if (t <= 1e-17 * sum && t * h <= 1e-17 * -ds) break;
    }
    return -(sum * (logZ - digammaScalar(a + 1)) + ds) / a;
  }
  // Legendre's continued fraction K for Γ(α, z) and its α-tangent.
  const [k, dk] = gammaContinuedFraction(a, z);
  return (logZ - digammaScalar(a)) / k - dk / (k * k);
}

/** KL(Ga(αa, βa) ‖ Ga(αb, βb)) = (αa − αb)ψ(αa) − lnΓ(αa) + lnΓ(αb) + αb(ln βa − ln βb) + αa(βb/βa − 1). */
registerKL(Gamma, Gamma, (a, b) => {
  const aa = a.concentration, ab = b.concentration, ra = a.rateParameter(), rb = b.rateParameter();
  return add(
    add(mul(sub(aa, ab), digamma(aa)), sub(lgamma(ab), lgamma(aa))),
    add(mul(ab, sub(log(ra), log(rb))), mul(aa, sub(div(rb, ra), 1))),
  );
});
brand(Gamma, 'Gamma');   // recognised across copies of stochax (src/brand.ts)
