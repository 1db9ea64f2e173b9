import { detExp, detLog, detPow } from '../src/math/index.js';
import type { KeyArray } from '../src/random/key-array.js';
import { normal as samplersNormal } from '../src/samplers/normal.js';
import { sanitizeSeed, splitSeed } from '../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { broadcastData } from '../src/tensor/broadcast.js';
import { floatStorage, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, mul } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Identity } from './bijectors/identity.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { positive, real } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import {
  logTailDdf, tail, tailDdf, tCdf, tEntropy, tEntropyDdf, tLogCdf, tLogPdf, tLogPdfDdf, tQuantile,
} from './internal/student-t-math.js';
import { brand } from '../src/brand.js';

export interface StudentTOptions extends DistributionOptions {
  /** Degrees of freedom ν > 0. */
  readonly df: TensorLike;
  /** Location μ (any real; the mean when ν > 1). */
  readonly loc: TensorLike;
  /** Scale σ > 0 (not the standard deviation, which is σ√(ν/(ν−2)) for ν > 2). */
  readonly scale: TensorLike;
}

const TINY64 = 2 ** -1022, TINY32 = 2 ** -126;

/**
 * Student's t distribution (TFP's `tfd.StudentT`): density
 * Γ((ν+1)/2) / (Γ(ν/2) √(νπ) σ) · (1 + y²/ν)^(−(ν+1)/2), y = (x − μ)/σ, on ℝ.
 *
 * Sampling follows TFP's `student_t.sample_n`: `[normalSeed, gammaSeed] = splitSeed(seed,
 * { salt: 'student_t' })`, z = `samplers.normal([n, ...batch])` from normalSeed, and
 * G ~ Gamma(ν/2, rate ½) from gammaSeed by TFP's rejection sampler (`random_gamma`, salts
 * `'random_gamma'`; `internal/tfp-random-gamma.ts`); the draw is z/√(G/ν)·σ + μ. TFP calls
 * `random_gamma` outside log space, where ν/2 < 1 is boosted by U^(2/ν) (U drawn from the
 * sampler's concentration-fix seed) rather than the log-space (1 − U)^(2/ν); that is done here
 * too, so draws follow TFP's for every ν (up to rounding: G is exp(log v³ + log d) here, v³·d in
 * TFP). Zero gamma draws become the smallest normal number, as in TFP.
 *
 * `cdf`, `logCdf`, the survival functions and `quantile` are computed as described in
 * `internal/student-t-math.ts` (accurate, and finite in log space, far into both tails, for
 * ν from 0.05 to 1e10). Every method is differentiable in the value, `df`, `loc` and `scale`;
 * draws are differentiable in `loc` and `scale` only (TFP's implicit gradient in ν is not built).
 * `mean` is NaN for ν ≤ 1; `variance` is ∞ for 1 < ν ≤ 2 and NaN for ν ≤ 1 (as TFP).
 * Deviation from TFP: with `validateArgs`, `scale` must be positive (TFP checks only `df`).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast, or with `validateArgs` when `df ≤ 0` or `scale ≤ 0`.
 * @example
 * const d = new StudentT({ df: 3, loc: 0, scale: [1, 2] });
 * d.logProb(0.5);              // → Tensor float64 [2]
 * d.sample(4, { seed: 42 });   // → Tensor float64 [4, 2]
 * d.logCdf(-1e150);           // → [−1036.07, −1033.99], where the cdf underflows to 0
 */
export class StudentT extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    df: { constraint: positive },
    loc: { constraint: real },
    scale: { constraint: positive },
  };
  readonly df: Tensor;
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(options: StudentTOptions) {
    super('StudentT', options, true);
    this.df = this.param('df');
    this.loc = this.param('loc');
    this.scale = this.param('scale');
  }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const [normalSeed, gammaSeed] = splitSeed(seed, { salt: 'student_t' }) as [KeyArray, KeyArray];
    const z = samplersNormal(shape, { seed: normalSeed, dtype }).data as Float64Array | Float32Array;
    const df = broadcastData(this.fn, 'df', this.df, shape) as Float64Array | Float32Array;
    const gammas = linearGamma(shape, df, gammaSeed, dtype);
    const out = floatStorage(dtype, z.length);
    for (let i = 0; i < out.length; i++) out[i] = df[i] === Infinity ? z[i]! : z[i]! / Math.sqrt(gammas[i]! / df[i]!);
    return add(mul(new Tensor(out, shape, dtype), this.scale), this.loc);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('StudentT.logProb', [['value', x], ['df', this.df], ['loc', this.loc], ['scale', this.scale]],
      studentTLogProb, studentTLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return this.ofT('cdf', x, tCdf, (df, t) => detExp(tLogPdf(df, t)), (df, t) => (t < 0 ? 1 : -1) * tailDdf(df, t));
  }
  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('survivalFunction', x, (df, t) => tCdf(df, -t), (df, t) => -detExp(tLogPdf(df, t)), (df, t) => (t > 0 ? 1 : -1) * tailDdf(df, t));
  }
  protected override logCdfImpl(x: Tensor): Tensor {
    return this.ofT('logCdf', x, tLogCdf, (df, t) => detExp(tLogPdf(df, t) - tLogCdf(df, t)), dLogCdfDdf);
  }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return this.ofT('logSurvivalFunction', x, (df, t) => tLogCdf(df, -t), (df, t) => -detExp(tLogPdf(df, t) - tLogCdf(df, -t)), (df, t) => dLogCdfDdf(df, -t));
  }

  /** g(ν, (x − μ)/|σ|) as one fused node, given g, ∂g/∂t and ∂g/∂ν. */
  private ofT(method: string, x: Tensor, g: (df: number, t: number) => number, dgdt: (df: number, t: number) => number, dgddf: (df: number, t: number) => number): Tensor {
    return fusedMap(`StudentT.${method}`, [['value', x], ['df', this.df], ['loc', this.loc], ['scale', this.scale]],
      (v, df, m, s) => g(df, (v - m) / Math.abs(s)),
      (out, v, df, m, s) => {
        const a = Math.abs(s), t = (v - m) / a, d = dgdt(df, t);
        out[0] = d / a; out[1] = dgddf(df, t); out[2] = -d / a; out[3] = -d * t / s;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('StudentT.quantile', [['p', p], ['df', this.df], ['loc', this.loc], ['scale', this.scale]],
      (q, df, m, s) => m + Math.abs(s) * tQuantile(df, q),
      (out, q, df, m, s) => {
        // t(p) solves cdf(t) = p: ∂t/∂p = 1/pdf(t), ∂t/∂ν = −(∂cdf/∂ν)/pdf(t).
        const t = tQuantile(df, q), a = Math.abs(s), inv = detExp(-tLogPdf(df, t));
        out[0] = a * inv; out[1] = -a * (t < 0 ? 1 : -1) * tailDdf(df, t) * inv; out[2] = 1; out[3] = Math.sign(s) * t;
      });
  }

  protected override meanImpl(): Tensor {
    return fusedMap('StudentT.mean', [['df', broadcastTo(this.df, this.batchShape)], ['loc', this.loc]],
      (df, m) => (df > 1 ? m : Number.NaN), (out) => { out[1] = 1; });
  }
  protected override varianceImpl(): Tensor {
    return fusedMap('StudentT.variance', [['df', broadcastTo(this.df, this.batchShape)], ['scale', this.scale]],
      (df, s) => (df > 2 ? (s * s * df) / (df - 2) : df > 1 ? Infinity : Number.NaN),
      (out, df, s) => { if (df > 2) { out[0] = (-2 * s * s) / ((df - 2) * (df - 2)); out[1] = (2 * s * df) / (df - 2); } });
  }
  protected override modeImpl(): Tensor { return broadcastTo(this.loc, this.batchShape); }
  protected override entropyImpl(): Tensor {
    return fusedMap('StudentT.entropy', [['df', broadcastTo(this.df, this.batchShape)], ['scale', this.scale]],
      (df, s) => tEntropy(df, detLog(Math.abs(s))),
      (out, df, s) => { out[0] = tEntropyDdf(df); out[1] = 1 / s; });
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return new Identity(); }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function studentTLogProb(v: number, df: number, m: number, s: number): number { return tLogPdf(df, (v - m) / s) - detLog(Math.abs(s)); }
function studentTLogProbPartials(out: Float64Array, v: number, df: number, m: number, s: number): void {
  const y = (v - m) / s, r = (df + 1) / (y + df / y); // (ν+1)·y/(ν+y²), 0 at y = 0
  out[0] = -r / s; out[1] = tLogPdfDdf(df, y); out[2] = r / s; out[3] = (r * y - 1) / s;
}

/** ∂ log cdf(t)/∂ν. */
function dLogCdfDdf(df: number, t: number): number {
  if (t < 0) return logTailDdf(df, t);
  return -tailDdf(df, t) / (1 - tail(df, t));
}

/**
 * TFP's `random_gamma([n], ν/2, rate=½, seed)` outside log space, as G: for α = ν/2 ≥ 1 (or a
 * bad α) exp of the log-space draw; for 0 < α < 1 the rejection draw for α + 1 (the same trials:
 * they depend only on d = α' − ⅓) times U^(1/α), U from the sampler's second seed, as TFP.
 * (Also TFP's `Chi2(ν).sample` inside `MultivariateStudentTLinearOperator`.)
 * @example
 * linearGamma([4], Float64Array.of(3, 3, 3, 3), key(0), 'float64'); // → four χ²(3) draws as TFP's
 */
export function linearGamma(shape: readonly number[], df: ArrayLike<number>, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = df.length;
  const conc = new Float64Array(size);
  // ν = ∞ (a normal) draws with α = 1 to keep the loop finite; its G is not used.
  for (let i = 0; i < size; i++) { const a = 0.5 * df[i]!; conc[i] = a === Infinity ? 1 : a > 0 && a < 1 ? a + 1 : a; }
  const logG = randomLogGamma(shape, conc, null, seed, dtype);
  // The boost uniform: TFP's concentration-fix seed (the second half of the salted split).
  const salted = sanitizeSeed(seed, { salt: 'random_gamma' });
  const fixSeed = splitSeed(salted, { salt: 'random_gamma' })[1]!;
  const u = samplersUniform(shape, { seed: fixSeed, dtype }).data as Float64Array | Float32Array;
  const tiny = dtype === 'float32' ? TINY32 : TINY64;
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const a = 0.5 * df[i]!;
    let g = detExp(logG[i]!) * (a > 0 && a < 1 ? detPow(u[i]!, 1 / a) : 1) / 0.5;
    if (g === 0) g = tiny;
    out[i] = g;
  }
  return out;
}
brand(StudentT, 'StudentT');   // recognised across copies of stochax (src/brand.ts)
