import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegative, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { logPhi, ndtr } from './internal/ndtr.js';
import { registerKL } from './kl.js';
import { detAcos, detCos, detExp, detLog, detSin } from '../src/math/index.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface VonMisesOptions extends DistributionOptions {
  /** μ, the circular mean (any real; 2π-periodic). */
  readonly loc: TensorLike;
  /** κ ≥ 0 (0 is the uniform distribution on the circle). */
  readonly concentration: TensorLike;
}

const TWO_PI = 2 * Math.PI;
const LOG_2PI = detLog(TWO_PI);
const TINY: Record<FloatDType, number> = { float64: 2 ** -1022, float32: 2 ** -126 };
/** Below this κ, TFP replaces s = (1 + ρ²)/(2ρ) by its limit 1/κ (float64 and float32 cut-offs). */
const S_CUTOFF: Record<FloatDType, number> = { float64: 1.2e-4, float32: 2e-2 };

/**
 * e^(−|x|) I₀(x), the exponentially scaled modified Bessel function (TF's `bessel_i0e`): the power
 * series (positive terms) up to |x| = 25, the asymptotic series above; within 3e−16 relative.
 * @example
 * besselI0e(0); // 1
 */
export function besselI0e(x: number): number {
  x = Math.abs(x);
  if (x <= 25) {
    const q = 0.25 * x * x;
    let t = 1, s = 1;
    for (let k = 1; t > 1e-17 * s; k++) { t *= q / (k * k); s += t; }
    return s * detExp(-x);
  }
  let t = 1, s = 1;
  for (let k = 1; k < 60 && Math.abs(t) > 1e-17 * s; k++) { t *= ((2 * k - 1) * (2 * k - 1)) / (8 * k * x); s += t; }
  return s / Math.sqrt(TWO_PI * x);
}

/**
 * e^(−|x|) I₁(x) (odd in x; TF's `bessel_i1e`), by the same two series.
 * @example
 * besselI1e(1); // ≈ 0.2079
 */
export function besselI1e(x: number): number {
  const ax = Math.abs(x);
  let r: number;
  if (ax <= 25) {
    const q = 0.25 * ax * ax;
    let t = 0.5 * ax, s = t;
    for (let k = 1; t > 1e-17 * s; k++) { t *= q / (k * (k + 1)); s += t; }
    r = s * detExp(-ax);
  } else {
    let t = 1, s = 1;
    for (let k = 1; k < 60 && Math.abs(t) > 1e-17 * s; k++) { t *= ((2 * k - 1) * (2 * k - 1) - 4) / (8 * k * ax); s += t; }
    r = s / Math.sqrt(TWO_PI * ax);
  }
  return x < 0 ? -r : r;
}

/** A(κ) = I₁(κ)/I₀(κ) and A′(κ) = 1 − A/κ − A². */
const besselRatio = (k: number) => besselI1e(k) / besselI0e(k);
const besselRatioD = (k: number) => { const a = besselRatio(k); return k < 1e-8 ? 0.5 : 1 - a / k - a * a; };

/** Round half to even (TF's `round`). */
function roundHalfEven(x: number): number {
  const f = Math.floor(x), d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
}

/**
 * TFP's von Mises cdf of x − loc (Hill 1977, the 8-digit row of its Table I): a 20-term
 * backward series for κ < 10.5, a corrected normal approximation above; with ∂/∂κ.
 * Values outside [−π, π] add whole periods (the cdf of x + 2π is cdf(x) + 1).
 * @example
 * vonMisesCdf(0, 3); // [0.5, 0]: the median of a centred von Mises, and ∂/∂κ
 */
export function vonMisesCdf(x: number, k: number): [number, number] {
  const periods = roundHalfEven(x / TWO_PI);
  x -= TWO_PI * periods;
  let cdf: number, d: number;
  if (k < 1e-150) {
    cdf = 0.5 + x / TWO_PI + (k * detSin(x)) / TWO_PI; d = detSin(x) / TWO_PI;
  } else if (k < 10.5) {
    let rn = 0, drn = 0, vn = 0, dvn = 0;
    for (let n = 20; n > 0; n--) {
      const den = (2 * n) / k + rn, dden = (-2 * n) / (k * k) + drn;
      rn = 1 / den; drn = -dden / (den * den);
      const mult = detSin(n * x) / n + vn;
      dvn = drn * mult + rn * dvn;
      vn = rn * mult;
    }
    cdf = 0.5 + x / TWO_PI + vn / Math.PI; d = dvn / Math.PI;
    if (cdf < 0 || cdf > 1) { cdf = Math.min(Math.max(cdf, 0), 1); d = 0; }
  } else {
    const a = besselRatio(k);
    const z = (Math.sqrt(2 / Math.PI) / besselI0e(k)) * detSin(0.5 * x), dz = z * (1 - a);
    const z2 = z * z, c = 24 * k;
    const b = z2 * z2 + 1.75 * z2 + 83.5, den = c - 53 - z2;
    const A = (c - 2 * z2 - 16) / 3 - b / den;
    const dAdz = (-4 * z) / 3 - (4 * z2 * z + 3.5 * z) / den - (2 * z * b) / (den * den);
    const dAdk = 24 * (1 / 3 + b / (den * den));
    const xi = z - (z2 * z) / (A * A);
    const dxi = (1 - (3 * z2) / (A * A)) * dz + ((2 * z2 * z) / (A * A * A)) * (dAdz * dz + dAdk);
    cdf = ndtr(xi); d = detExp(logPhi(xi)) * dxi;
  }
  return [cdf + periods, d];
}

/**
 * The von Mises distribution on the circle (TFP's `tfd.VonMises`): density
 * exp(κ cos(x − μ)) / (2π I₀(κ)), 2π-periodic in x; draws lie in [−π, π].
 *
 * Sampling is TFP's `random_von_mises` (Best–Fisher rejection with a wrapped Cauchy proposal):
 * `seed = sanitizeSeed(seed, { salt: 'von_mises' })`, then until every element is accepted (at
 * most 100 rounds) `[uSeed, vSeed, seed] = splitSeed(seed, { n: 3 })`, u ~ U[−1, 1), v ~ U[0, 1)
 * over the whole batch, w = (1 + s cos πu)/(s + cos πu) kept where not yet accepted, acceptance
 * y(2 − y) ≥ v or ln(y/v) + 1 ≥ y with y = κ(s − w); the draw is sign(u_last)·acos(w) + μ,
 * wrapped to [−π, π] with round-half-even as TF. κ is raised to `finfo.tiny`. Deviation: the
 * arithmetic is float64 for float32 distributions too (the uniforms are float32), and draws
 * are not differentiated. The cdf is TFP's (series / normal approximation, about 8 digits) with
 * its gradient; mean and mode are μ, variance the circular variance 1 − I₁(κ)/I₀(κ).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast or, with `validateArgs`, for a negative `concentration`.
 * @example
 * const d = new VonMises({ loc: 0, concentration: [0.5, 8] });
 * d.cdf(0);                  // → Tensor float64 [2]: [0.5, 0.5]
 * d.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class VonMises extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: real },
    concentration: { constraint: nonNegative },
  };
  readonly loc: Tensor;
  readonly concentration: Tensor;

  constructor(options: VonMisesOptions) {
    super('VonMises', options, true);
    this.loc = this.param('loc');
    this.concentration = this.param('concentration');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const size = sizeOf(shape);
    const conc = Float64Array.from(broadcastData(this.fn, 'concentration', this.concentration, shape) as Float64Array, (k) => Math.max(k, TINY[dtype]));
    const loc = broadcastData(this.fn, 'loc', this.loc, shape) as Float64Array;
    const s = conc.map((k) => {
      if (!(k > S_CUTOFF[dtype])) return 1 / k;
      const r = 1 + Math.sqrt(1 + 4 * k * k), rho = (r - Math.sqrt(2 * r)) / (2 * k);
      return (1 + rho * rho) / (2 * rho);
    });
    const done = new Uint8Array(size), w = new Float64Array(size);
    let u: ArrayLike<number> = new Float64Array(size);
    let key = sanitizeSeed(seed, { salt: 'von_mises' });
    for (let iter = 0; iter < 100 && done.indexOf(0) >= 0; iter++) {
      const [uSeed, vSeed, next] = splitSeed(key, { n: 3 }) as [KeyArray, KeyArray, KeyArray];
      u = samplersUniform(shape, { seed: uSeed, minval: -1, maxval: 1, dtype }).data as Float64Array;
      const v = samplersUniform(shape, { seed: vSeed, minval: 0, maxval: 1, dtype }).data as Float64Array;
      for (let i = 0; i < size; i++) {
        const z = detCos(Math.PI * u[i]!), si = s[i]!;
        if (!done[i]) w[i] = (1 + si * z) / (si + z);
        const y = conc[i]! * (si - w[i]!);
        if (y * (2 - y) >= v[i]! || detLog(y / v[i]!) + 1 >= y) done[i] = 1;
      }
      key = next;
    }
    const out = floatStorage(dtype, size);
    for (let i = 0; i < size; i++) {
      const x = Math.sign(u[i]!) * detAcos(w[i]!) + loc[i]!;
      out[i] = x - TWO_PI * roundHalfEven(x / TWO_PI);
    }
    return new Tensor(out, shape, dtype);
  }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['loc', this.loc], ['concentration', this.concentration]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('VonMises.logProb', this.args(x), vonMisesLogProb, vonMisesLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('VonMises.cdf', this.args(x),
      (v, m, k) => vonMisesCdf(v - m, k)[0],
      (out, v, m, k) => {
        const p = detExp(k * (detCos(v - m) - 1) - LOG_2PI - detLog(besselI0e(k)));
        out[0] = p; out[1] = -p; out[2] = vonMisesCdf(v - m, k)[1];
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override modeImpl(): Tensor { return this.meanImpl(); }
  protected override varianceImpl(): Tensor {
    return broadcastTo(fusedMap('VonMises.variance', [['concentration', this.concentration]],
      (k) => 1 - besselRatio(k), (out, k) => { out[0] = -besselRatioD(k); }), this.batchShape);
  }
  protected override entropyImpl(): Tensor {
    return broadcastTo(fusedMap('VonMises.entropy', [['concentration', this.concentration]],
      (k) => k * (1 - besselRatio(k)) + detLog(besselI0e(k)) + LOG_2PI,
      (out, k) => { out[0] = -k * besselRatioD(k); }), this.batchShape);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Sigmoid({ low: -Math.PI, high: Math.PI, validateArgs: this.validateArgs });
  }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function vonMisesLogProb(v: number, m: number, k: number): number { return k * (detCos(v - m) - 1) - LOG_2PI - detLog(besselI0e(k)); }
function vonMisesLogProbPartials(out: Float64Array, v: number, m: number, k: number): void {
  const sn = detSin(v - m); out[0] = -k * sn; out[1] = k * sn; out[2] = detCos(v - m) - besselRatio(k);
}

/**
 * KL(vM(μ₁, κ₁) ‖ vM(μ₂, κ₂)) = κ₂ − κ₁ + ln(I₀ᵉ(κ₂)/I₀ᵉ(κ₁)) + (κ₁ − κ₂ cos(μ₁ − μ₂)) A(κ₁),
 * A = I₁/I₀ (TFP's form, with exponentially scaled Bessel functions).
 */
registerKL(VonMises, VonMises, (a, b) => fusedMap('VonMises.klDivergence',
  [['a.loc', a.loc], ['a.concentration', a.concentration], ['b.loc', b.loc], ['b.concentration', b.concentration]],
  (m1, k1, m2, k2) => k2 - k1 + detLog(besselI0e(k2) / besselI0e(k1)) + (k1 - k2 * detCos(m1 - m2)) * besselRatio(k1),
  (out, m1, k1, m2, k2) => {
    const a1 = besselRatio(k1), sn = detSin(m1 - m2), cs = detCos(m1 - m2);
    out[0] = k2 * sn * a1; out[1] = (k1 - k2 * cs) * besselRatioD(k1); out[2] = -k2 * sn * a1; out[3] = besselRatio(k2) - cs * a1;
  }));
brand(VonMises, 'VonMises');   // recognised across copies of stochax (src/brand.ts)
