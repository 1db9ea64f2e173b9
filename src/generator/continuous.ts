/**
 * The Generator's continuous distributions with NumPy's names, parametrisations and argument
 * order, drawn with one fresh key each by the private cores of the `random.*` samplers (JAX's
 * algorithms). Arguments are checked once, here, under NumPy's names (`sampleFloat`); the cores
 * see only checked, broadcast values. Each function takes the generator's `State` and is the
 * body of the `Generator` method of the same name (documented there).
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
  checkParams, checkSize, finite, nonNegative, positive, result, values, type ParamLike, type ParamSpec, type SizeLike,
} from './args.js';
import { draw, single, type State } from './core.js';
import type { FloatOptions } from './basic.js';
import { detExp, detExpm1 } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

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

/**
 * The common path of a float sampler with parameters: checks `size`, `dtype` and every
 * parameter (converted to tensors of the dtype), resolves the output shape by NumPy's rule,
 * draws with one key (`body` returns fresh values of `shape` and `dtype`), and returns a JS
 * number or a Tensor.
 */
function sampleFloat(
  st: State, fn: string, size: SizeLike, options: FloatOptions | undefined, specs: readonly ParamSpec[],
  body: (key: KeyArray, shape: number[], params: Tensor[], dtype: FloatDType, modes: Modes) => FloatArray,
): number | Tensor<FloatDType> {
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['dtype']);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const { params, shape } = checkParams(fn, s, specs, dtype);
  const out = draw(st, fn, (k) => body(k, shape, params, dtype, modes));
  return result(new Tensor<FloatDType>(out, shape, dtype), s) as number | Tensor<FloatDType>;
}

export function exponential(st: State, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.exponential';
  return sampleFloat(st, fn, size, undefined, [['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]], (k, shape, [sct], dtype, modes) => {
    const x = exponentialData(k, sizeOf(shape), dtype, modes);
    if (!isOne(sct!)) scaleBy(x, values(fn, 'scale', sct!, shape));
    return x;
  });
}

export function standardExponential(st: State, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
  return sampleFloat(st, 'Generator.standardExponential', size, options, [], (k, shape, _, dtype, modes) => exponentialData(k, sizeOf(shape), dtype, modes));
}

export function gamma(st: State, shape: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.gamma';
  const specs: ParamSpec[] = [['shape', shape, nonNegative, MUST_BE_NON_NEGATIVE], ['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [kt, sct], dtype, modes) => {
    const x = gammaData(k, values(fn, 'shape', kt!, s), sizeOf(s), dtype, modes);
    if (!isOne(sct!)) scaleBy(x, values(fn, 'scale', sct!, s));
    return x;
  });
}

export function standardGamma(st: State, shape: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
  const fn = 'Generator.standardGamma';
  return sampleFloat(st, fn, size, options, [['shape', shape, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [kt], dtype, modes) =>
    gammaData(k, values(fn, 'shape', kt!, s), sizeOf(s), dtype, modes));
}

export function beta(st: State, a: ParamLike, b: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.beta';
  return sampleFloat(st, fn, size, undefined, [['a', a, positive, MUST_BE_POSITIVE], ['b', b, positive, MUST_BE_POSITIVE]], (k, s, [at, bt], dtype, modes) =>
    betaData(k, values(fn, 'a', at!, s), values(fn, 'b', bt!, s), sizeOf(s), dtype, modes));
}

export function laplace(st: State, loc: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  return locScale(st, 'Generator.laplace', loc, scale, size, laplaceData);
}

export function logistic(st: State, loc: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  return locScale(st, 'Generator.logistic', loc, scale, size, logisticData);
}

/** `loc + scale·z` for a standard sampler z (products and sums rounded to the dtype). */
function locScale(
  st: State, fn: string, loc: ParamLike, scale: ParamLike, size: SizeLike,
  standard: (k: KeyArray, size: number, dtype: FloatDType, modes: Modes) => FloatArray,
): number | Tensor<FloatDType> {
  const specs: ParamSpec[] = [['loc', loc, finite, 'must be finite'], ['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [lt, sct], dtype, modes) => {
    const x = standard(k, sizeOf(s), dtype, modes);
    const l = values(fn, 'loc', lt!, s), sc = values(fn, 'scale', sct!, s);
    const ls = l.length === 1 ? 0 : 1, ss = sc.length === 1 ? 0 : 1;
    mapInPlace(x, dtype === 'float32' ? (v, i) => l[i * ls]! + Math.fround(sc[i * ss]! * v) : (v, i) => l[i * ls]! + sc[i * ss]! * v);
    return x;
  });
}

export function lognormal(st: State, mean: ParamLike, sigma: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.lognormal';
  const specs: ParamSpec[] = [['mean', mean, finite, 'must be finite'], ['sigma', sigma, nonNegative, MUST_BE_NON_NEGATIVE]];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [mt, sct], dtype, modes) => {
    const x = normalData(k, sizeOf(s), dtype, modes);
    const m = values(fn, 'mean', mt!, s), sg = values(fn, 'sigma', sct!, s);
    const ms = m.length === 1 ? 0 : 1, ss = sg.length === 1 ? 0 : 1;
    const r = dtype === 'float32' ? Math.fround : (v: number) => v;
    mapInPlace(x, (v, i) => detExp(r(m[i * ms]! + r(sg[i * ss]! * v))));
    return x;
  });
}

export function chisquare(st: State, df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.chisquare';
  return sampleFloat(st, fn, size, undefined, [['df', df, positive, MUST_BE_POSITIVE]], (k, s, [dt], dtype, modes) =>
    chisquareData(k, values(fn, 'df', dt!, s), sizeOf(s), dtype, modes));
}

export function standardT(st: State, df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.standardT';
  return sampleFloat(st, fn, size, undefined, [['df', df, positive, MUST_BE_POSITIVE]], (k, s, [dt], dtype, modes) =>
    tData(k, values(fn, 'df', dt!, s), sizeOf(s), dtype, modes));
}

export function standardCauchy(st: State, size?: SizeLike): number | Tensor<FloatDType> {
  return sampleFloat(st, 'Generator.standardCauchy', size, undefined, [], (k, s, _, dtype, modes) => cauchyData(k, sizeOf(s), dtype, modes));
}

export function pareto(st: State, a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.pareto';
  return sampleFloat(st, fn, size, undefined, [['a', a, positive, MUST_BE_POSITIVE]], (k, s, [at], dtype, modes) => {
    const x = exponentialData(k, sizeOf(s), dtype, modes);
    const av = values(fn, 'a', at!, s), step = av.length === 1 ? 0 : 1;
    const r = dtype === 'float32' ? Math.fround : (v: number) => v;
    mapInPlace(x, (v, i) => detExpm1(r(v / av[i * step]!)));
    return x;
  });
}

export function weibull(st: State, a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.weibull';
  return sampleFloat(st, fn, size, undefined, [['a', a, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [at], dtype, modes) => {
    const av = paramValues(fn, 'a', at!, s);
    const conc = av.map((v) => (v === 0 ? 1 : v));
    const x = weibullMinData(k, ones(dtype, conc.length), conc, dtype, modes);
    for (let i = 0; i < x.length; i++) if (av[i] === 0) x[i] = 0;
    return x;
  });
}

export function rayleigh(st: State, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.rayleigh';
  return sampleFloat(st, fn, size, undefined, [['scale', scale, nonNegative, MUST_BE_NON_NEGATIVE]], (k, s, [sct], dtype, modes) => {
    const x = rayleighData(k, ones(dtype, sizeOf(s)), dtype, modes);
    if (!isOne(sct!)) scaleBy(x, values(fn, 'scale', sct!, s));
    return x;
  });
}

export function triangular(st: State, left: ParamLike, mode: ParamLike, right: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.triangular';
  const specs: ParamSpec[] = [['left', left, finite, 'must be finite'], ['mode', mode, finite, 'must be finite'], ['right', right, finite, 'must be finite']];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [lt, mt, rt], dtype, modes) => {
    const ls = paramValues(fn, 'left', lt!, s), ms = paramValues(fn, 'mode', mt!, s), rs = paramValues(fn, 'right', rt!, s);
    for (let i = 0; i < ls.length; i++) {
      const l = ls[i]!, m = ms[i]!, r = rs[i]!;
      if (!(l < r)) fail('range', fn, 'left', `must be less than \`right\` (${r})`, l);
      if (!(l <= m && m <= r)) fail('range', fn, 'mode', `must lie in [left, right] = [${l}, ${r}]`, m);
    }
    return triangularData(k, ls, ms, rs, dtype, modes);
  });
}

export function wald(st: State, mean: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.wald';
  const specs: ParamSpec[] = [['mean', mean, positive, MUST_BE_POSITIVE], ['scale', scale, positive, MUST_BE_POSITIVE]];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [mt, sct], dtype, modes) => {
    const m = paramValues(fn, 'mean', mt!, s), sc = values(fn, 'scale', sct!, s);
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

export function f(st: State, dfnum: ParamLike, dfden: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
  const fn = 'Generator.f';
  const specs: ParamSpec[] = [['dfnum', dfnum, positive, MUST_BE_POSITIVE], ['dfden', dfden, positive, MUST_BE_POSITIVE]];
  return sampleFloat(st, fn, size, undefined, specs, (k, s, [nt, dt], dtype, modes) =>
    fData(k, values(fn, 'dfnum', nt!, s), values(fn, 'dfden', dt!, s), sizeOf(s), dtype, modes));
}
