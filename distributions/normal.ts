import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, expm1, log, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { TensorLike } from '../src/tensor/core.js';
import { Identity } from './bijectors/identity.js';
import type { Bijector } from './bijectors/bijector.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap, type FusedForms } from './internal/fused.js';
import { dLogNdtr, logNdtr, logPhi, ndtr, ndtri } from './internal/ndtr.js';
import { registerKL } from './kl.js';
import { detExp, detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface NormalOptions extends DistributionOptions {
  /** Mean μ (any real; broadcasts with `scale`). */
  readonly loc: TensorLike;
  /** Standard deviation σ > 0. */
  readonly scale: TensorLike;
}

const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/**
 * The normal distribution (TFP's `tfd.Normal`): density exp(−(x − μ)²/(2σ²)) / (σ√(2π)) on ℝ.
 * Sampling uses the seed as given (no salt): `samplers.normal([n, ...batch]) · σ + μ`.
 * Fully reparameterized; every method is differentiable in the value and both parameters.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the parameter
 *   shapes do not broadcast, or with `validateArgs` when `scale ≤ 0`.
 * @example
 * const d = new Normal({ loc: 0, scale: [1, 2] });
 * d.logProb(0.5);               // → Tensor float64 [2]
 * d.sample(3, { seed: 42 });    // → Tensor float64 [3, 2]
 * d.cdf(-40).item();            // 3.6e-350 underflows to 0, but d.logCdf(-40) ≈ −804.6
 */
export class Normal extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: NormalOptions) {
    super('Normal', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const z = samplersNormal([n, ...this.batchShape], { seed, dtype: this.dtype });
    return add(mul(z, this.scale), this.loc);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Normal.logProb', [['value', x], ['loc', this.loc], ['scale', this.scale]], normalLogProb, normalLogProbPartials, NORMAL_FORMS);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofZ('cdf', x, ndtr, (z) => detExp(logPhi(z)));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofZ('logCdf', x, logNdtr, dLogNdtr);
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('survivalFunction', x, (z) => ndtr(-z), (z) => -detExp(logPhi(z)));
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofZ('logSurvivalFunction', x, (z) => logNdtr(-z), (z) => -dLogNdtr(-z));
  }

  /** g((x − μ)/σ) as one fused node, given g and g′. */
  private ofZ(method: string, x: Tensor, g: (z: number) => number, dg: (z: number) => number): Tensor {
    return fusedMap(`Normal.${method}`, [['value', x], ['loc', this.loc], ['scale', this.scale]],
      (v, m, s) => g((v - m) / s),
      (out, v, m, s) => { const z = (v - m) / s, d = dg(z); out[0] = d / s; out[1] = -d / s; out[2] = -d * z / s; });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Normal.quantile', [['p', p], ['loc', this.loc], ['scale', this.scale]],
      (q, m, s) => ndtri(q) * s + m,
      (out, q, _m, s) => { const z = ndtri(q); out[0] = s / detExp(logPhi(z)); out[1] = 1; out[2] = z; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override stddevImpl(): Tensor { return broadcastTo(this.scale, this.batchShape); }
  protected override entropyImpl(): Tensor {
    return broadcastTo(add(log(this.scale), 0.5 + LOG_SQRT_2PI), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }
}

// The log density's kernels are module functions, not closures made per call: compiled code calls
// one function object, which V8 can inline (a closure made per call it cannot, and then every
// double passed or returned is boxed).
function normalLogProb(v: number, m: number, s: number): number { return normalLogProbCore(v, m, s, 0, detLog(s)); }
function normalLogProbCore(v: number, m: number, s: number, _: number, logS: number): number { const z = (v - m) / s; return -0.5 * z * z - LOG_SQRT_2PI - logS; }

function normalLogProbPartials(out: Float64Array, v: number, m: number, s: number): void { out[0] = dValue(v, m, s); out[1] = dLoc(v, m, s); out[2] = dScale(v, m, s); }
function dValue(v: number, m: number, s: number): number { const z = (v - m) / s; return -z / s; }
function dLoc(v: number, m: number, s: number): number { const z = (v - m) / s; return z / s; }
function dScale(v: number, m: number, s: number): number { const z = (v - m) / s; return (z * z - 1) / s; }

/** The log density loop, with log σ hoisted when loc and scale are scalars: `normalLogProb`'s bits (compiled code calls that). */
function normalLogProbFill(out: Float64Array | Float32Array, n: number, values: readonly ArrayLike<number>[], strides: readonly number[]): void {
  const [xs, ms, ss] = values as [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  const [sx, sm, sS] = strides as [number, number, number];
  if (sx === 1 && sm === 0 && sS === 0) {
    const m = ms[0]!, s = ss[0]!, logS = detLog(s);
    for (let k = 0; k < n; k++) out[k] = normalLogProbCore(xs[k]!, m, s, 0, logS);
    return;
  }
  for (let k = 0; k < n; k++) out[k] = normalLogProb(xs[k * sx]!, ms[k * sm]!, ss[k * sS]!);
}

/** log σ computed once per call (at compile time for a constant scale); one partial at a time. */
const NORMAL_FORMS: FusedForms = { fill: normalLogProbFill, hoisted: { of: [2], h: detLog, core: normalLogProbCore }, partialOf: [dValue, dLoc, dScale] };

/** KL(N(μa, σa) ‖ N(μb, σb)) = ½((μa − μb)/σb)² + ½·expm1(2Δ) − Δ, Δ = log σa − log σb (TFP's form). */
registerKL(Normal, Normal, (a, b) => {
  const delta = sub(log(a.scale), log(b.scale));
  const diff = square(div(sub(a.loc, b.loc), b.scale));
  return add(mul(0.5, diff), sub(mul(0.5, expm1(mul(2, delta))), delta));
});
brand(Normal, 'Normal');   // recognised across copies of stochax (src/brand.ts)
