/**
 * The Generator's discrete and multivariate distributions with NumPy's names and conventions:
 * integer counts come back in the default int dtype, and `size` is the batch shape of the
 * multivariate ones (the event axis is appended).
 */
import { checkOptions, fail } from '../checks.js';
import { getModes } from '../config.js';
import * as random from '../random/index.js';
import type { MvnMethod } from '../random/multivariate-normal.js';
import { floatDtype, floatToIntData, paramValues } from '../random/params.js';
import { poissonPtrs64 } from '../random/poisson-f64.js';
import { defaultIntDtype } from '../random/permutation.js';
import type { FloatDType, IntDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import {
  checkSize, constrain, outputShape, param, renamed, result, type ParamLike, type Scalar, type SizeLike,
} from './args.js';
import { ContinuousMethods } from './continuous.js';

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

/** Float counts (integer-valued) as a Tensor of the default int dtype. */
function toInts(t: Tensor, dtype: IntDType): Tensor<IntDType> {
  return new Tensor<IntDType>(floatToIntData(t.data as Float64Array | Float32Array, dtype) as Tensor<IntDType>['data'], t.shape, dtype);
}

/** `Generator` methods for discrete and multivariate distributions (see `Generator`). */
export class DiscreteMethods extends ContinuousMethods {
  /** A count sampler: float parameters checked by NumPy's rules, results in the default int dtype. */
  private sampleCounts(
    fn: string, size: SizeLike, specs: readonly (readonly [string, unknown, (v: number) => boolean, string])[],
    body: (k: random.KeyArray, shape: number[], params: Tensor[], dtype: FloatDType) => Tensor,
  ): Scalar | Tensor<IntDType> {
    const s = checkSize(fn, size);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, undefined, modes);
    const params = specs.map(([name, v, ok, what]) => {
      const t = param(fn, name, v, dtype);
      constrain(fn, name, t, ok, what);
      return t;
    });
    const shape = outputShape(fn, s, specs.map(([name], i) => [name, params[i]!] as const));
    const intDtype = defaultIntDtype(modes);
    const out = this.draw(fn, (k) => renamed(fn, { shape: 'size' }, () => body(k, shape, params, dtype)));
    return result(out.dtype === 'float32' || out.dtype === 'float64' ? toInts(out, intDtype) : out, s) as Scalar | Tensor<IntDType>;
  }

  /**
   * Binomial counts (NumPy's `Generator.binomial(n, p, size)`): P(k) = C(n, k)·p^k·(1−p)^(n−k)
   * on k = 0..n. `random.binomial(key(), n, p, shape)`, returned in the default int dtype (as
   * NumPy returns int64): a bigint scalar in x64 mode, a number in x32 mode.
   *
   * @param n number of trials, a non-negative integer.
   * @param p success probability in [0, 1].
   * @example
   * rng.binomial(10, 0.5);        // 0n .. 10n (x64 mode)
   * rng.binomial(100, 0.3, [4]);  // → Tensor int64 [4]
   */
  binomial(n: ParamLike, p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
    return this.sampleCounts('Generator.binomial', size, [['n', n, isCount, 'must be a non-negative integer'], ['p', p, isProbability, 'must be a probability in [0, 1]']],
      (k, s, [nt, pt], dtype) => random.binomial(k, nt!, pt!, s, { dtype }));
  }

  /**
   * Poisson counts (NumPy's `Generator.poisson(lam=1, size)`): P(k) = λ^k·e^(−λ)/k! on k ≥ 0.
   * `random.poisson(key(), lam, shape)` (JAX draws with a float32 λ) in the default int dtype,
   * for λ up to 10⁵; larger rates are drawn in float64 by transformed rejection from
   * `foldIn(key(), 'pois')` (the others still from `random.poisson`, with those rates as 0).
   *
   * @param lam λ ≥ 0, at most NumPy's `POISSON_LAM_MAX` ≈ 9.2234e18 (default 1).
   * @throws RangeError for a negative λ, or a λ above that limit (NumPy: "lam value too large").
   * @example
   * rng.poisson(4, [5]); // → Tensor int64 [5]
   */
  poisson(lam: ParamLike = 1, size?: SizeLike): Scalar | Tensor<IntDType> {
    return this.sampleCounts('Generator.poisson', size, [['lam', lam, (v) => v >= 0 && v <= POISSON_LAM_MAX, `must be non-negative and at most ${POISSON_LAM_MAX} (lam value too large, as NumPy says)`]],
      (k, s, [lt]) => {
        const lam = paramValues('Generator.poisson', 'lam', lt!, s);
        const highIdx: number[] = [], highLam: number[] = [];
        for (let i = 0; i < lam.length; i++) if (lam[i]! > POISSON_F64_RATE) { highIdx.push(i); highLam.push(lam[i]!); }
        if (highIdx.length === 0) return random.poisson(k, lt!, s);
        const low = new Tensor(Float64Array.from(lam, (v) => (v > POISSON_F64_RATE ? 0 : v)), s, 'float64');
        const counts = random.poisson(k, low, s);
        const high = new Float64Array(lam.length);
        poissonPtrs64(random.foldIn(k, POISSON_FOLD), highLam, highIdx, high, getModes());
        const data = counts.data;
        for (const i of highIdx) data[i] = (typeof data[i] === 'bigint' ? BigInt(high[i]!) : high[i]!) as never;
        return counts;
      });
  }

  /**
   * Geometric counts (NumPy's `Generator.geometric(p, size)`): the number of Bernoulli(p)
   * trials up to and including the first success, P(k) = p(1−p)^(k−1) on k = 1, 2, …
   * `random.geometric(key(), p, shape)` in the default int dtype.
   *
   * @param p success probability in (0, 1].
   * @example
   * rng.geometric(0.25); // 1n, 2n, ... (x64 mode)
   */
  geometric(p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
    return this.sampleCounts('Generator.geometric', size, [['p', p, (v) => v > 0 && v <= 1, 'must be a probability in (0, 1]']],
      (k, s, [pt]) => random.geometric(k, pt!, s));
  }

  /**
   * Multinomial counts (NumPy's `Generator.multinomial(n, pvals, size)`): n trials over the k
   * categories of `pvals`' last axis. As in NumPy, the last probability is taken to be
   * 1 − sum(pvals[..., :-1]) (so `pvals` need only sum to 1 up to rounding, and
   * sum(pvals[..., :-1]) must not exceed 1), `size` is the batch shape and the result has shape
   * `[...size, k]` in the default int dtype. Drawn by `random.multinomial(key(), n, pvals')`
   * (JAX's sequential conditional binomials).
   *
   * @param n number of trials: a non-negative integer, or an array broadcasting to the batch shape.
   * @param pvals probabilities, shape `[..., k]`, each in [0, 1].
   * @param size batch shape; omitted for the broadcast of `n` and `pvals[..., 0]`.
   * @example
   * rng.multinomial(20, [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]); // → Tensor int64 [6]
   * rng.multinomial([10, 100], [0.5, 0.5], [2]);                     // → Tensor int64 [2, 2]
   */
  multinomial(n: ParamLike, pvals: ParamLike, size?: SizeLike): Tensor<IntDType> {
    const fn = 'Generator.multinomial';
    const s = checkSize(fn, size);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, undefined, modes);
    const nt = param(fn, 'n', n, dtype);
    constrain(fn, 'n', nt, isCount, 'must be a non-negative integer');
    let pt = param(fn, 'pvals', pvals, dtype);
    if (pt.ndim < 1) fail('range', fn, 'pvals', 'must have at least one axis (the categories)', pvals);
    constrain(fn, 'pvals', pt, isProbability, 'must hold probabilities in [0, 1]');
    const K = pt.shape[pt.ndim - 1]!;
    if (K === 0) fail('range', fn, 'pvals', 'must have at least one category', pvals);
    pt = lastFromRest(fn, pt, K);
    const batch = outputShape(fn, s, [['n', nt], ['pvals', { shape: pt.shape.slice(0, -1) }]]);
    const out = this.draw(fn, (k) => renamed(fn, { shape: 'size', p: 'pvals' }, () => random.multinomial(k, nt, pt, { shape: [...batch, K], dtype })));
    return toInts(out, defaultIntDtype(modes));
  }

  /**
   * Dirichlet samples (NumPy's `Generator.dirichlet(alpha, size)`): density ∝ ∏ x_i^(α_i−1) on
   * the simplex. `random.dirichlet(key(), alpha, size)`; `size` is the batch shape and the result
   * has shape `[...size, k]` (NumPy's convention; `alpha` may also carry batch axes).
   *
   * @param alpha concentrations > 0, shape `[..., k]`.
   * @example
   * rng.dirichlet([1, 1, 1]);      // → Tensor float64 [3], sums to 1
   * rng.dirichlet([0.5, 2], [4]);  // → Tensor float64 [4, 2]
   */
  dirichlet(alpha: ParamLike, size?: SizeLike): Tensor<FloatDType> {
    const fn = 'Generator.dirichlet';
    const s = checkSize(fn, size);
    this.single(fn);
    const dtype = floatDtype(fn, undefined, getModes());
    const at = param(fn, 'alpha', alpha, dtype);
    if (at.ndim < 1) fail('range', fn, 'alpha', 'must have at least one axis (the categories)', alpha);
    constrain(fn, 'alpha', at, (v) => v > 0 && v < Infinity, 'must hold positive, finite concentrations');
    const batch = outputShape(fn, s, [['alpha', { shape: at.shape.slice(0, -1) }]]);
    return this.draw(fn, (k) => renamed(fn, { shape: 'size' }, () => random.dirichlet(k, at, batch, { dtype })));
  }

  /**
   * Multivariate normal samples (NumPy's `Generator.multivariate_normal(mean, cov, size,
   * method)`): density (2π)^(−n/2)·det(Σ)^(−1/2)·exp(−½(x−μ)ᵀΣ⁻¹(x−μ)).
   * `random.multivariateNormal(key(), mean, cov, size, { method })`; `size` is the batch shape
   * and the result has shape `[...size, n]`. The default method is JAX's `'cholesky'` (NumPy's
   * is `'svd'`; pass `{ method: 'svd' }` or `'eigh'` for a singular covariance). NumPy's
   * `check_valid` and `tol` are not offered: a covariance that is not symmetric positive
   * (semi-)definite is always an error.
   *
   * @param mean μ, shape `[..., n]`.
   * @param cov Σ, shape `[..., n, n]`, symmetric positive definite (semi-definite for 'svd'/'eigh').
   * @param options.method `'cholesky'` (default), `'eigh'` or `'svd'`.
   * @example
   * rng.multivariateNormal([0, 0], [[1, 0.5], [0.5, 1]], [100]); // → Tensor float64 [100, 2]
   */
  multivariateNormal(mean: ParamLike, cov: ParamLike, size?: SizeLike, options?: { method?: MvnMethod }): Tensor<FloatDType> {
    const fn = 'Generator.multivariateNormal';
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['method']);
    this.single(fn);
    const dtype = floatDtype(fn, undefined, getModes());
    const method = opts.method;
    return this.draw(fn, (k) => renamed(fn, { shape: 'size' }, () => random.multivariateNormal(k, mean, cov, s, { dtype, ...(method === undefined ? {} : { method }) })));
  }
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

