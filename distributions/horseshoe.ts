import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import { splitSeed } from '../src/samplers/seeds.js';
import type { TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Hoisted } from '../src/tensor/lowering.js';
import { full, zeros } from '../src/tensor/ops/create.js';
import { mul } from '../src/tensor/ops/elementwise.js';
import { tensor, type Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { HalfCauchy } from './half-cauchy.js';
import { positive } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { detExp, detLog, detPow } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface HorseshoeOptions extends DistributionOptions {
  /** Global shrinkage scale τ > 0. */
  readonly scale: TensorLike;
}

const EULER_GAMMA = 0.5772156649015329;
/** −½·log(2π³). */
const LOG_C = -0.5 * detLog(2 * detPow(Math.PI, 3));

/**
 * The horseshoe distribution (TFP's `tfd.Horseshoe`, Carvalho, Polson & Scott 2010): X = τλZ
 * with λ ~ HalfCauchy(0, 1) and Z ~ Normal(0, 1), the sparsity prior of regression
 * coefficients. Its density is exact here: with u = x²/(2τ²),
 * p(x) = e^u·E₁(u)/(τ√(2π³)) (E₁ the exponential integral; +∞ at x = 0).
 *
 * Sampling is TFP's: the seed is split in two with the salt `'random_horseshoe'`; λ is a
 * `HalfCauchy(0, 1)` draw of shape [n, ...batch] on the first, Z a `samplers.normal` draw of that
 * shape on the second, and the draw is Z·(τ·λ) (differentiable in τ). `mean` and `mode` are 0;
 * `variance` and `stddev` are NaN (undefined), as TFP. No cdf (TFP has none). The default
 * event-space bijector is TFP's `Identity`. Deviation: TFP's log density is a bound-based
 * approximation of log E₁ (accurate to a few parts in 10⁴); this one evaluates e^u·E₁(u) by its
 * series (u < 1) or continued fraction (u ≥ 1) to about 1e-15.
 *
 * @throws TypeError for a missing or non-numeric `scale`; RangeError with `validateArgs` when
 *   `scale ≤ 0`.
 * @example
 * const d = new Horseshoe({ scale: [0.1, 1] });
 * d.logProb(0.5);             // → Tensor float64 [2]
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 2]
 */
export class Horseshoe extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    scale: { constraint: positive },
  };
  readonly scale: Tensor;

  constructor(options: HorseshoeOptions) {
    super('Horseshoe', options, true);
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const dtype = this.dtype;
    const shape = [n, ...this.batchShape];
    const [shrinkageSeed, sampleSeed] = splitSeed(seed, { salt: 'random_horseshoe' }) as [KeyArray, KeyArray];
    const local = new HalfCauchy({ loc: tensor(0, dtype), scale: tensor(1, dtype) }).sample(shape, { seed: shrinkageSeed });
    const z = samplersNormal(shape, { seed: sampleSeed, dtype });
    return mul(z, mul(this.scale, local));
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Horseshoe.logProb', [['value', x], ['scale', this.scale]], horseshoeLogProb, horseshoeLogProbPartials, { hoisted: LOG_PROB, partialOf: [dValue, dScale] });
  }

  protected override meanImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override modeImpl(): Tensor { return zeros(this.batchShape, this.dtype); }
  protected override varianceImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override stddevImpl(): Tensor { return full(this.batchShape, Number.NaN, this.dtype); }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity({ validateArgs: this.validateArgs }); }
}

/**
 * e^u·E₁(u) for u > 0 (+∞ at 0): the series E₁(u) = −γ − log u + Σₖ (−1)^(k+1) u^k/(k·k!) times
 * e^u below 1, the continued fraction 1/(u + 1 − 1²/(u + 3 − 2²/(u + 5 − …))) (modified Lentz)
 * from 1 on, which never overflows.
 */
export function scaledExp1(u: number): number {
  if (!(u >= 0)) return Number.NaN;
  if (u === 0) return Infinity;
  if (u === Infinity) return 0;
  if (u < 1) {
    let term = 1, sum = 0;
    for (let k = 1; k < 40; k++) {
      term *= -u / k;            // (−u)^k / k!
      const t = -term / k;
      sum += t;
      if (Math.abs(t) < 1e-17 * Math.abs(sum)) break;
    }
    return detExp(u) * (-EULER_GAMMA - detLog(u) + sum);
  }
  const TINY = 1e-300;
  let b = u + 1, c = 1 / TINY, d = 1 / b, h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * i;
    b += 2;
    d = 1 / (an * d + b);
    c = b + an / c;
    const del = c * d;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

// The log density's kernels are module functions (one function object V8 can inline into compiled code).
function horseshoeLogProb(v: number, s: number): number { return horseshoeLogProbCore(v, s, 0, 0, LOG_C - detLog(s)); }
/** −½ log(2π³) − log τ + log(e^u E₁(u)), u = x²/(2τ²). */
function horseshoeLogProbCore(v: number, s: number, _c: number, _d: number, h: number): number {
  const z = v / s;
  return h + detLog(scaledExp1(0.5 * z * z));
}
/** −½ log(2π³) − log τ computed once per call (at compile time for a constant scale). */
const LOG_PROB: Hoisted = { of: [1], h: (s) => LOG_C - detLog(s), core: horseshoeLogProbCore };
function horseshoeLogProbPartials(out: Float64Array, v: number, s: number): void { out[0] = dValue(v, s); out[1] = dScale(v, s); }
/** d log p/du = 1 − 1/(u·e^u E₁(u)); partials are 0 at x = 0 (where the density is infinite). */
function dLogDu(u: number): number { return 1 - 1 / (u * scaledExp1(u)); }
function dValue(v: number, s: number): number { if (v === 0) return 0; const z = v / s, u = 0.5 * z * z; return dLogDu(u) * z / s; }
function dScale(v: number, s: number): number { if (v === 0) return 0; const z = v / s, u = 0.5 * z * z; return -1 / s - dLogDu(u) * 2 * u / s; }
brand(Horseshoe, 'Horseshoe');   // recognised across copies of stochax (src/brand.ts)
