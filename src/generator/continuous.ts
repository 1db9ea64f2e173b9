/**
 * The Generator's continuous distributions with NumPy's names, parametrisations and argument
 * order, drawn with one fresh key each by the private cores of the `random.*` samplers (JAX's
 * algorithms). Arguments are checked once, here, under NumPy's names (`sampleFloat`); the cores
 * see only checked, broadcast values.
 */
import { checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { betaData } from '../random/beta.js';
import { cauchyData } from '../random/cauchy.js';
import { chisquareData } from '../random/chisquare.js';
import { exponentialData } from '../random/exponential.js';
import { fData } from '../random/f.js';
import { gammaData } from '../random/gamma.js';
import type { KeyArray } from '../random/key-array.js';
import { laplaceData } from '../random/laplace.js';
import { logisticData } from '../random/logistic.js';
import { normalData } from '../random/normal.js';
import { floatDtype, paramValues } from '../random/params.js';
import { rayleighData } from '../random/rayleigh.js';
import { tData } from '../random/t.js';
import { triangularData } from '../random/triangular.js';
import { waldData } from '../random/wald.js';
import { weibullMinData } from '../random/weibull-min.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import {
  checkSize, constrain, finite, nonNegative, outputShape, param, positive, result, values,
  type ParamLike, type SizeLike,
} from './args.js';
import { ArrayMethods } from './arrays.js';
import type { FloatOptions } from './basic.js';
import { detExp, detExpm1 } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/** A parameter: NumPy's name, the value, its constraint and the constraint's wording. */
export type ParamSpec = readonly [name: string, value: unknown, ok: (v: number) => boolean, what: string];

/** What a sampler body returns: the values (fresh storage, `shape`, `dtype`) or a Tensor of them. */
type Drawn = Float64Array | Float32Array | Tensor;

type FloatArray = Float64Array | Float32Array;

const MUST_BE_POSITIVE = 'must be positive and finite';
const MUST_BE_NON_NEGATIVE = 'must be non-negative and finite';

/** In place `x[i] ← s[i]·x[i]` rounded to x's dtype (`s` of length 1 broadcasts). */
function scaleBy(x: FloatArray, s: ArrayLike<number>): void {
  const step = s.length === 1 ? 0 : 1;
  if (x instanceof Float32Array) for (let i = 0; i < x.length; i++) x[i] = Math.fround(s[i * step]! * x[i]!);
  else for (let i = 0; i < x.length; i++) x[i] = s[i * step]! * x[i]!;
}

/** In place `x[i] ← f(x[i], i)` rounded to x's dtype. */
function mapInPlace(x: FloatArray, f: (v: number, i: number) => number): void {
  if (x instanceof Float32Array) for (let i = 0; i < x.length; i++) x[i] = Math.fround(f(x[i]!, i));
  else for (let i = 0; i < x.length; i++) x[i] = f(x[i]!, i);
}

/** `n` ones of the dtype (a unit scale for the cores that take one per element). */
const ones = (dtype: FloatDType, n: number): FloatArray => (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n)).fill(1);
const isOne = (t: Tensor): boolean => t.size === 1 && t.data[0] === 1;

/** `Generator` methods for continuous distributions (see `Generator`). */
export class ContinuousMethods extends ArrayMethods {
  /**
   * The common path of a float sampler with parameters: checks `size`, `dtype` and every
   * parameter (converted to tensors of the dtype), resolves the output shape by NumPy's rule,
   * draws with one key, and returns a JS number or a Tensor.
   */
  protected sampleFloat(
    fn: string, size: SizeLike, options: FloatOptions | undefined, specs: readonly ParamSpec[],
    body: (key: KeyArray, shape: number[], params: Tensor[], dtype: FloatDType, modes: Modes) => Drawn,
  ): number | Tensor<FloatDType> {
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['dtype']);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, opts.dtype, modes);
    const params = specs.map(([name, v, ok, what]) => {
      const t = param(fn, name, v, dtype);
      constrain(fn, name, t, ok, what);
      return t;
    });
    const shape = outputShape(fn, s, specs.map(([name], i) => [name, params[i]!] as const));
    const out = this.draw(fn, (k) => body(k, shape, params, dtype, modes));
    const t = out instanceof Tensor ? (out as Tensor<FloatDType>) : new Tensor<FloatDType>(out, shape, dtype);
    return result(t, s) as number | Tensor<FloatDType>;
  }

  /**
   * Exponential samples with mean `scale` (NumPy's `Generator.exponential(scale=1, size)`):
   * density e^(−x/scale)/scale on [0, ∞). `scale · random.exponential(key(), shape)`.
   *
   * @param scale β ≥ 0, finite (default 1).
   * @param size output shape; omitted for `scale`'s shape (a JS number when scalar).
   * @throws RangeError for a negative or non-finite `scale`, or shapes that do not broadcast.
   * @example
   * rng.exponential();          // a number
   * rng.exponential(2, [1000]); // → Tensor float64 [1000], mean ≈ 2
   */
  exponential(scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.exponential';
    return this.sampleFloat(fn, size, undefined, [['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]], (k, shape, [st], dtype, modes) => {
      const x = exponentialData(k, sizeOf(shape), dtype, modes);
      if (!isOne(st!)) scaleBy(x, values(fn, 'scale', st!, shape));
      return x;
    });
  }

  /**
   * Standard exponential samples (NumPy's `Generator.standard_exponential(size, dtype)`):
   * density e^(−x) on [0, ∞). `random.exponential(key(), shape, { dtype })`.
   *
   * @example
   * rng.standardExponential([3], { dtype: 'float32' }); // → Tensor float32 [3]
   */
  standardExponential(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return this.sampleFloat('Generator.standardExponential', size, options, [], (k, shape, _, dtype, modes) => exponentialData(k, sizeOf(shape), dtype, modes));
  }

  /**
   * Gamma samples with shape k and scale θ (NumPy's `Generator.gamma(shape, scale=1, size)`):
   * density x^(k−1)·e^(−x/θ)/(Γ(k)·θ^k) on (0, ∞). `scale · random.gamma(key(), shape)`
   * (Marsaglia–Tsang with JAX's per-element keys).
   *
   * @param shape k ≥ 0, finite (k = 0 gives 0).
   * @param scale θ ≥ 0, finite (default 1).
   * @throws RangeError for negative or non-finite parameters, or shapes that do not broadcast.
   * @example
   * rng.gamma(2, 3);        // a number, mean 6
   * rng.gamma([0.5, 5], 1); // → Tensor float64 [2]
   */
  gamma(shape: ParamLike, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.gamma';
    const specs: ParamSpec[] = [['shape', shape, nonNegative, MUST_BE_NON_NEGATIVE], ['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [kt, st], dtype, modes) => {
      const x = gammaData(k, values(fn, 'shape', kt!, s), sizeOf(s), dtype, modes);
      if (!isOne(st!)) scaleBy(x, values(fn, 'scale', st!, s));
      return x;
    });
  }

  /**
   * Standard gamma samples (NumPy's `Generator.standard_gamma(shape, size, dtype)`): `gamma`
   * with scale 1, `random.gamma(key(), shape, size, { dtype })`.
   *
   * @param shape k ≥ 0, finite.
   * @example
   * rng.standardGamma(0.5, [4]); // → Tensor float64 [4]
   */
  standardGamma(shape: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    const fn = 'Generator.standardGamma';
    return this.sampleFloat(fn, size, options, [['shape', shape, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [kt], dtype, modes) =>
      gammaData(k, values(fn, 'shape', kt!, s), sizeOf(s), dtype, modes));
  }

  /**
   * Beta samples (NumPy's `Generator.beta(a, b, size)`): density x^(a−1)(1−x)^(b−1)/B(a, b) on
   * [0, 1]. `random.beta(key(), a, b, shape)`.
   *
   * @param a α > 0, finite.
   * @param b β > 0, finite.
   * @example
   * rng.beta(2, 5, [3]); // → Tensor float64 [3]
   */
  beta(a: ParamLike, b: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.beta';
    return this.sampleFloat(fn, size, undefined, [['a', a, positive, MUST_BE_POSITIVE], ['b', b, positive, MUST_BE_POSITIVE]], (k, s, [at, bt], dtype, modes) =>
      betaData(k, values(fn, 'a', at!, s), values(fn, 'b', bt!, s), sizeOf(s), dtype, modes));
  }

  /**
   * Laplace (double exponential) samples (NumPy's `Generator.laplace(loc=0, scale=1, size)`):
   * density e^(−|x−μ|/λ)/(2λ). `loc + scale · random.laplace(key(), shape)`.
   *
   * @param loc μ, finite (default 0).
   * @param scale λ ≥ 0, finite (default 1).
   * @example
   * rng.laplace(0, 2, [3]); // → Tensor float64 [3]
   */
  laplace(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return this.locScale('Generator.laplace', loc, scale, size, laplaceData);
  }

  /**
   * Logistic samples (NumPy's `Generator.logistic(loc=0, scale=1, size)`): density
   * e^(−(x−μ)/s)/(s(1 + e^(−(x−μ)/s))²). `loc + scale · random.logistic(key(), shape)`.
   *
   * @param loc μ, finite (default 0).
   * @param scale s ≥ 0, finite (default 1).
   * @example
   * rng.logistic(1, 0.5); // a number
   */
  logistic(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return this.locScale('Generator.logistic', loc, scale, size, logisticData);
  }

  /** `loc + scale·z` for a standard sampler z (products and sums rounded to the dtype). */
  private locScale(
    fn: string, loc: ParamLike, scale: ParamLike, size: SizeLike,
    standard: (k: KeyArray, size: number, dtype: FloatDType, modes: Modes) => FloatArray,
  ): number | Tensor<FloatDType> {
    const specs: ParamSpec[] = [['loc', loc, finite, 'must be finite'], ['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [lt, st], dtype, modes) => {
      const x = standard(k, sizeOf(s), dtype, modes);
      const l = values(fn, 'loc', lt!, s), sc = values(fn, 'scale', st!, s);
      const ls = l.length === 1 ? 0 : 1, ss = sc.length === 1 ? 0 : 1;
      mapInPlace(x, dtype === 'float32' ? (v, i) => l[i * ls]! + Math.fround(sc[i * ss]! * v) : (v, i) => l[i * ls]! + sc[i * ss]! * v);
      return x;
    });
  }

  /**
   * Log-normal samples (NumPy's `Generator.lognormal(mean=0, sigma=1, size)`): exp(mean + sigma·z)
   * for z = `random.normal(key(), shape)`, the mean and standard deviation of the underlying
   * normal. (JAX's `random.lognormal(key, sigma)` is the `mean = 0` case.)
   *
   * @param mean μ of log x, finite (default 0).
   * @param sigma σ ≥ 0 of log x, finite (default 1).
   * @example
   * rng.lognormal(0, 0.25, [3]); // → Tensor float64 [3]
   */
  lognormal(mean: ParamLike = 0, sigma: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.lognormal';
    const specs: ParamSpec[] = [['mean', mean, finite, 'must be finite'], ['sigma', sigma, nonNegative, MUST_BE_NON_NEGATIVE]];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [mt, st], dtype, modes) => {
      const x = normalData(k, sizeOf(s), dtype, modes);
      const m = values(fn, 'mean', mt!, s), sg = values(fn, 'sigma', st!, s);
      const ms = m.length === 1 ? 0 : 1, ss = sg.length === 1 ? 0 : 1;
      const r = dtype === 'float32' ? Math.fround : (v: number) => v;
      mapInPlace(x, (v, i) => detExp(r(m[i * ms]! + r(sg[i * ss]! * v))));
      return x;
    });
  }

  /**
   * Chi-square samples (NumPy's `Generator.chisquare(df, size)`): density ∝ x^(ν/2−1)e^(−x/2)
   * on (0, ∞). `random.chisquare(key(), df, shape)`.
   *
   * @param df ν > 0, finite.
   * @example
   * rng.chisquare(3, [4]); // → Tensor float64 [4]
   */
  chisquare(df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.chisquare';
    return this.sampleFloat(fn, size, undefined, [['df', df, positive, MUST_BE_POSITIVE]], (k, s, [dt], dtype, modes) =>
      chisquareData(k, values(fn, 'df', dt!, s), sizeOf(s), dtype, modes));
  }

  /**
   * Student's t samples (NumPy's `Generator.standard_t(df, size)`): density
   * ∝ (1 + x²/ν)^(−(ν+1)/2) on ℝ. `random.t(key(), df, shape)`.
   *
   * @param df ν > 0, finite.
   * @example
   * rng.standardT(5); // a number
   */
  standardT(df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.standardT';
    return this.sampleFloat(fn, size, undefined, [['df', df, positive, MUST_BE_POSITIVE]], (k, s, [dt], dtype, modes) =>
      tData(k, values(fn, 'df', dt!, s), sizeOf(s), dtype, modes));
  }

  /**
   * Standard Cauchy samples (NumPy's `Generator.standard_cauchy(size)`): density 1/(π(1 + x²)).
   * `random.cauchy(key(), shape)`.
   *
   * @example
   * rng.standardCauchy([3]); // → Tensor float64 [3]
   */
  standardCauchy(size?: SizeLike): number | Tensor<FloatDType> {
    return this.sampleFloat('Generator.standardCauchy', size, undefined, [], (k, s, _, dtype, modes) => cauchyData(k, sizeOf(s), dtype, modes));
  }

  /**
   * Pareto II (Lomax) samples, NumPy's `Generator.pareto(a, size)`: density a/(1 + x)^(a+1) on
   * [0, ∞), i.e. a classical Pareto with x_m = 1, shifted by −1. This is JAX's
   * `random.pareto(key(), b=a) − 1` (JAX's is the classical Pareto on [1, ∞)), computed as
   * `expm1(e/a)` from the same exponential draw e, so small values keep their precision.
   *
   * @param a shape > 0, finite.
   * @example
   * rng.pareto(3, [4]); // → Tensor float64 [4], values ≥ 0
   */
  pareto(a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.pareto';
    return this.sampleFloat(fn, size, undefined, [['a', a, positive, MUST_BE_POSITIVE]], (k, s, [at], dtype, modes) => {
      const x = exponentialData(k, sizeOf(s), dtype, modes);
      const av = values(fn, 'a', at!, s), st = av.length === 1 ? 0 : 1;
      const r = dtype === 'float32' ? Math.fround : (v: number) => v;
      mapInPlace(x, (v, i) => detExpm1(r(v / av[i * st]!)));
      return x;
    });
  }

  /**
   * Weibull samples with shape a and scale 1 (NumPy's `Generator.weibull(a, size)`): density
   * a·x^(a−1)·e^(−x^a) on [0, ∞). JAX's `random.weibullMin(key(), scale=1, concentration=a)`;
   * a = 0 gives 0, as in NumPy.
   *
   * @param a shape ≥ 0, finite.
   * @example
   * rng.weibull(1.5, [4]); // → Tensor float64 [4]
   */
  weibull(a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.weibull';
    return this.sampleFloat(fn, size, undefined, [['a', a, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [at], dtype, modes) => {
      const av = paramValues(fn, 'a', at!, s);
      const conc = av.map((v) => (v === 0 ? 1 : v));
      const x = weibullMinData(k, ones(dtype, conc.length), conc, dtype, modes);
      for (let i = 0; i < x.length; i++) if (av[i] === 0) x[i] = 0;
      return x;
    });
  }

  /**
   * Rayleigh samples (NumPy's `Generator.rayleigh(scale=1, size)`): density
   * (x/σ²)·e^(−x²/(2σ²)) on [0, ∞). `scale · random.rayleigh(key(), 1, shape)`.
   *
   * @param scale σ ≥ 0, finite (default 1).
   * @example
   * rng.rayleigh(2, [3]); // → Tensor float64 [3]
   */
  rayleigh(scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.rayleigh';
    return this.sampleFloat(fn, size, undefined, [['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [st], dtype, modes) => {
      const x = rayleighData(k, ones(dtype, sizeOf(s)), dtype, modes);
      if (!isOne(st!)) scaleBy(x, values(fn, 'scale', st!, s));
      return x;
    });
  }

  /**
   * Triangular samples (NumPy's `Generator.triangular(left, mode, right, size)`): density rising
   * linearly from `left` to a peak at `mode`, then falling to `right`.
   * `random.triangular(key(), left, mode, right, shape)`.
   *
   * @param left lower limit, finite.
   * @param mode peak, left ≤ mode ≤ right.
   * @param right upper limit, left < right.
   * @throws RangeError for non-finite limits, `left >= right`, or a mode outside [left, right].
   * @example
   * rng.triangular(0, 1, 3, [4]); // → Tensor float64 [4]
   */
  triangular(left: ParamLike, mode: ParamLike, right: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.triangular';
    const specs: ParamSpec[] = [['left', left, finite, 'must be finite'], ['mode', mode, finite, 'must be finite'], ['right', right, finite, 'must be finite']];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [lt, mt, rt], dtype, modes) => {
      const ls = paramValues(fn, 'left', lt!, s), ms = paramValues(fn, 'mode', mt!, s), rs = paramValues(fn, 'right', rt!, s);
      for (let i = 0; i < ls.length; i++) {
        const l = ls[i]!, m = ms[i]!, r = rs[i]!;
        if (!(l < r)) fail('range', fn, 'left', `must be less than \`right\` (${r})`, l);
        if (!(l <= m && m <= r)) fail('range', fn, 'mode', `must lie in [left, right] = [${l}, ${r}]`, m);
      }
      return triangularData(k, ls, ms, rs, dtype, modes);
    });
  }

  /**
   * Wald (inverse Gaussian) samples with mean μ and shape λ (NumPy's `Generator.wald(mean,
   * scale, size)`, where `scale` is λ): density √(λ/(2πx³))·exp(−λ(x − μ)²/(2μ²x)) on (0, ∞).
   * JAX's `random.wald(key, m)` is the inverse Gaussian IG(m, 1) (mean m, shape 1), and
   * λ·IG(μ/λ, 1) is IG(μ, λ), so this is `scale · random.wald(key(), mean / scale, shape)`.
   *
   * @param mean μ > 0, finite.
   * @param scale λ > 0, finite.
   * @example
   * rng.wald(1, 3, [4]); // → Tensor float64 [4], mean 1
   */
  wald(mean: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.wald';
    const specs: ParamSpec[] = [['mean', mean, positive, MUST_BE_POSITIVE], ['scale', scale, positive, MUST_BE_POSITIVE]];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [mt, st], dtype, modes) => {
      const m = paramValues(fn, 'mean', mt!, s), sc = values(fn, 'scale', st!, s);
      const ss = sc.length === 1 ? 0 : 1;
      const ratio = m.map((v, i) => v / sc[i * ss]!);   // rounded to the dtype by the typed array
      if (ratio.some((v) => !(v > 0 && v < Infinity))) {
        throw new RangeError(`${fn}: \`mean\` / \`scale\` must be positive and finite in the dtype (${dtype}); it over- or underflows`);
      }
      const x = waldData(k, ratio, dtype, modes);
      scaleBy(x, sc);
      return x;
    });
  }

  /**
   * F (Fisher–Snedecor) samples (NumPy's `Generator.f(dfnum, dfden, size)`):
   * `random.f(key(), dfnum, dfden, shape)`.
   *
   * @param dfnum numerator degrees of freedom, > 0.
   * @param dfden denominator degrees of freedom, > 0.
   * @example
   * rng.f(5, 10, [3]); // → Tensor float64 [3]
   */
  f(dfnum: ParamLike, dfden: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    const fn = 'Generator.f';
    const specs: ParamSpec[] = [['dfnum', dfnum, positive, MUST_BE_POSITIVE], ['dfden', dfden, positive, MUST_BE_POSITIVE]];
    return this.sampleFloat(fn, size, undefined, specs, (k, s, [nt, dt], dtype, modes) =>
      fData(k, values(fn, 'dfnum', nt!, s), values(fn, 'dfden', dt!, s), sizeOf(s), dtype, modes));
  }
}
