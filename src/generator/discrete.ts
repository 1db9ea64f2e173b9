/**
 * The Generator's discrete and multivariate distributions with NumPy's names and conventions:
 * integer counts come back in the default int dtype, and `size` is the batch shape of the
 * multivariate ones (the event axis is appended). Arguments are checked once, here, under
 * NumPy's names; the private cores of the `random.*` samplers draw. Each function takes the
 * generator's `State` and is the body of the `Generator` method of the same name (documented
 * there).
 */
import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { binomialData } from '../random/binomial.js';
import { dirichletData } from '../random/dirichlet.js';
import { paramOrScalar } from '../random/gamma.js';
import { geometricData } from '../random/geometric.js';
import { KeyArray } from '../random/key-array.js';
import { multinomialData } from '../random/multinomial.js';
import { checkMvnMethod, mvnArgs, mvnSample, type MvnMethod } from '../random/multivariate-normal.js';
import { floatDtype, floatToIntData, paramValues, type IntData } from '../random/params.js';
import { poissonPtrs64 } from '../random/poisson-f64.js';
import { poissonData } from '../random/poisson.js';
import { defaultIntDtype } from '../random/permutation.js';
import type { FloatDType, IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import {
  checkParams, checkSize, constrain, outputShape, param, result, type ParamLike, type ParamSpec, type Scalar, type SizeLike,
} from './args.js';
import { draw, single, type State } from './core.js';

/**
 * NumPy's largest Poisson rate, int64 max − 10·√(int64 max): above it a count would overflow
 * int64 (NumPy raises "lam value too large" rather than return a clamped value).
 */
const POISSON_LAM_MAX = 9223372036854775807 - Math.sqrt(9223372036854775807) * 10;

/**
 * Above this rate `poisson` leaves JAX's float32 draw (whose rejection test is too coarse there:
 * its variance is 2.7% high at λ = 1e6, and float32 stops holding every integer at 2^24) for
 * float64 transformed rejection from `foldIn(key, 'pois')` (`poissonPtrs64`), correct at any rate.
 */
const POISSON_F64_RATE = 1e5;
const POISSON_FOLD = 0x706f6973; // 'pois'

const isCount = (v: number): boolean => Number.isInteger(v) && v >= 0;
const isProbability = (v: number): boolean => v >= 0 && v <= 1;

type FloatArray = Float64Array | Float32Array;

/**
 * A count sampler: float parameters (default float dtype) checked by NumPy's rules, then `body`
 * draws the counts as floats (converted as XLA converts) or already as integers of `intDtype`,
 * the default int dtype.
 */
function sampleCounts(
  st: State, fn: string, size: SizeLike, specs: readonly ParamSpec[],
  body: (k: KeyArray, shape: number[], params: Tensor[], dtype: FloatDType, intDtype: IntDType, modes: Modes) => FloatArray | IntData,
): Scalar | Tensor<IntDType> {
  const s = checkSize(fn, size);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, undefined, modes);
  const { params, shape } = checkParams(fn, s, specs, dtype);
  const intDtype = defaultIntDtype(modes);
  const out = draw(st, fn, (k) => body(k, shape, params, dtype, intDtype, modes));
  const data = out instanceof Float64Array || out instanceof Float32Array ? floatToIntData(out, intDtype) : out;
  return result(new Tensor<IntDType>(data, shape, intDtype), s) as Scalar | Tensor<IntDType>;
}

export function binomial(st: State, n: ParamLike, p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
  const fn = 'Generator.binomial';
  return sampleCounts(st, fn, size, [['n', n, isCount, 'must be a non-negative integer'], ['p', p, isProbability, 'must be a probability in [0, 1]']],
    (k, s, [nt, pt], dtype, _, modes) => binomialData(k, paramValues(fn, 'n', nt!, s), paramValues(fn, 'p', pt!, s), dtype, dtype, modes));
}

export function poisson(st: State, lam: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
  const fn = 'Generator.poisson';
  return sampleCounts(st, fn, size, [['lam', lam, (v) => v >= 0 && v <= POISSON_LAM_MAX, `must be non-negative and at most ${POISSON_LAM_MAX} (lam value too large, as NumPy says)`]],
    (k, s, [lt], _, intDtype, modes) => {
      const lam = paramValues(fn, 'lam', lt!, s);
      const highIdx: number[] = [], highLam: number[] = [];
      for (let i = 0; i < lam.length; i++) if (lam[i]! > POISSON_F64_RATE) { highIdx.push(i); highLam.push(lam[i]!); }
      // JAX's float32 draw, with the high rates as 0; then those drawn in float64 from foldIn(key, 'pois').
      const counts = poissonData(k, Float32Array.from(lam, (v) => (v > POISSON_F64_RATE ? 0 : v)), intDtype, modes);
      if (highIdx.length === 0) return counts;
      const high = new Float64Array(lam.length);
      poissonPtrs64(new KeyArray(k.impl, k.impl.foldIn(k.data, POISSON_FOLD, modes), []), highLam, highIdx, high, modes);
      for (const i of highIdx) counts[i] = (typeof counts[i] === 'bigint' ? BigInt(high[i]!) : high[i]!) as never;
      return counts;
    });
}

export function geometric(st: State, p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
  const fn = 'Generator.geometric';
  return sampleCounts(st, fn, size, [['p', p, (v) => v > 0 && v <= 1, 'must be a probability in (0, 1]']],
    (k, s, [pt], dtype, intDtype, modes) => geometricData(k, paramValues(fn, 'p', pt!, s), dtype, intDtype, modes));
}

/** A parameter whose last axis is the event (categories): a tensor of `dtype`, rank ≥ 1, values checked. */
function eventParam(fn: string, arg: string, value: unknown, dtype: FloatDType, ok: (v: number) => boolean, what: string): Tensor {
  const t = param(fn, arg, value, dtype);
  if (t.ndim < 1) fail('range', fn, arg, 'must have at least one axis (the categories)', value);
  constrain(fn, arg, t, ok, what);
  return t;
}

export function multinomial(st: State, n: ParamLike, pvals: ParamLike, size?: SizeLike): Tensor<IntDType> {
  const fn = 'Generator.multinomial';
  const s = checkSize(fn, size);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, undefined, modes);
  const nt = param(fn, 'n', n, dtype);
  constrain(fn, 'n', nt, isCount, 'must be a non-negative integer');
  let pt = eventParam(fn, 'pvals', pvals, dtype, isProbability, 'must hold probabilities in [0, 1]');
  const K = pt.shape[pt.ndim - 1]!;
  if (K === 0) fail('range', fn, 'pvals', 'must have at least one category', pvals);
  pt = lastFromRest(fn, pt, K);
  const batch = outputShape(fn, s, [['n', nt], ['pvals', { shape: pt.shape.slice(0, -1) }]]);
  const shape = checkShape(fn, 'size', [...batch, K]);   // the result, not just the batch, must fit
  const counts = paramValues(fn, 'n', nt, batch), probs = paramValues(fn, 'pvals', pt, shape);
  const intDtype = defaultIntDtype(modes);
  const out = draw(st, fn, (k) => floatToIntData(multinomialData(k, counts, probs, K, dtype, dtype, modes), intDtype));
  return new Tensor<IntDType>(out, shape, intDtype);
}

export function dirichlet(st: State, alpha: ParamLike, size?: SizeLike): Tensor<FloatDType> {
  const fn = 'Generator.dirichlet';
  const s = checkSize(fn, size);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, undefined, modes);
  const at = eventParam(fn, 'alpha', alpha, dtype, (v) => v > 0 && v < Infinity, 'must hold positive, finite concentrations');
  const k = at.shape[at.ndim - 1]!;
  const batch = outputShape(fn, s, [['alpha', { shape: at.shape.slice(0, -1) }]]);
  const shape = checkShape(fn, 'size', [...batch, k]);   // the result, not just the batch, must fit
  const a = paramOrScalar(fn, 'alpha', at, shape);
  return new Tensor<FloatDType>(draw(st, fn, (key) => dirichletData(key, a, sizeOf(batch), k, dtype, modes)), shape, dtype);
}

export function multivariateNormal(st: State, mean: ParamLike, cov: ParamLike, size?: SizeLike, options?: { method?: MvnMethod }): Tensor<FloatDType> {
  const fn = 'Generator.multivariateNormal';
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['method']);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, undefined, modes);
  const method = checkMvnMethod(fn, opts.method);
  const args = mvnArgs(fn, mean, cov, dtype);
  const shape = outputShape(fn, s, [['mean', args.meanBatch], ['cov', args.covBatch]]);
  checkShape(fn, 'size', [...shape, args.n]);   // the result, not just the batch, must fit
  return draw(st, fn, (k) => mvnSample(fn, k, args, shape, method, dtype, modes));
}

/**
 * NumPy's multinomial rule: sum(pvals[..., :-1]) ≤ 1 (+1e-12), and the last entry is the
 * remainder. Rows already summing to 1 within 1e-12 are kept as given (so the JAX draw sees the
 * caller's exact numbers); other rows get the remainder as their last entry.
 */
function lastFromRest(fn: string, pt: Tensor, K: number): Tensor {
  const d = pt.data as Float64Array | Float32Array;
  let out: Float64Array | Float32Array | null = null;
  for (let row = 0; row < d.length / K; row++) {
    let rest = 0;
    for (let i = 0; i < K - 1; i++) rest += d[row * K + i]!;
    if (rest > 1 + 1e-12) fail('range', fn, 'pvals', 'must have sum(pvals[..., :-1]) <= 1', rest);
    const last = d[row * K + K - 1]!;
    if (Math.abs(rest + last - 1) > 1e-12) {
      out ??= d.slice();
      out[row * K + K - 1] = Math.max(0, 1 - rest);
    }
  }
  return out === null ? pt : new Tensor(out, pt.shape, pt.dtype);
}

