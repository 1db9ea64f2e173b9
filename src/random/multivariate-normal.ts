import { checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { broadcastData } from '../tensor/broadcast.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { cholesky, symmetricEigen } from './linalg.js';
import { checkKey, type KeyArray } from './key-array.js';
import { normalData } from './normal.js';
import { floatDtype, floatParam, resolveShape, rounder, type ParamLike, type ShapeLike } from './params.js';

/** How `multivariateNormal` factors the covariance, as JAX's `method`. */
export type MvnMethod = 'cholesky' | 'eigh' | 'svd';
const METHODS: readonly MvnMethod[] = ['cholesky', 'eigh', 'svd'];

/**
 * The factor F with F·Fᵀ = cov for one symmetric n×n matrix (row-major at `offset`), or a
 * RangeError naming `cov`:
 * - `'cholesky'`: the lower Cholesky factor (positive definite required);
 * - `'eigh'`: V·diag(√w), eigenvalues ascending;
 * - `'svd'`: U·diag(√s), singular values descending; for a symmetric positive semi-definite
 *   matrix U and s are the eigenvectors and eigenvalues, so it is the eigh factor with its
 *   columns in descending order.
 * Eigenvalues within 4n·2^−52·max|w| of 0 are rounding noise of the float64 solver (a singular
 * matrix's zero eigenvalues come out as such noise) and count as exactly 0, so the samples stay
 * in the covariance's range instead of leaking √noise ≈ 1e-8 into its null space. Negative
 * eigenvalues down to −4n·eps·max|w| (eps of the dtype: a semi-definite matrix rounded to
 * float32 may turn slightly indefinite) also count as 0; below that the matrix is refused.
 */
export function covarianceFactor(
  fn: string, cov: ArrayLike<number>, n: number, offset: number, method: MvnMethod, dtype: FloatDType = 'float64',
): Float64Array {
  if (method === 'cholesky') {
    const l = cholesky(cov, n, offset);
    if (l === null) {
      throw new RangeError(`${fn}: \`cov\` must be positive definite for method 'cholesky' (use 'eigh' or 'svd' for a singular covariance)`);
    }
    return l;
  }
  const { values, vectors } = symmetricEigen(cov, n, offset);
  let big = 0;
  for (const w of values) big = Math.max(big, Math.abs(w));
  const noise = 4 * Math.max(n, 1) * Number.EPSILON * big;
  const slack = 4 * Math.max(n, 1) * (dtype === 'float32' ? 2 ** -23 : Number.EPSILON) * big;
  const factor = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const w = values[k]!;
    if (w < -slack) throw new RangeError(`${fn}: \`cov\` must be positive semi-definite; it has eigenvalue ${w}`);
    const root = w > noise ? Math.sqrt(w) : 0;
    const col = method === 'eigh' ? k : n - 1 - k;
    for (let i = 0; i < n; i++) factor[i * n + col] = vectors[i * n + k]! * root;
  }
  return factor;
}

/**
 * Multivariate normal draws with JAX's structure: z = normal(key, [...batch, n]) in the dtype,
 * then mean + F·z per batch element, F from `covarianceFactor` (computed in float64 and rounded
 * to the dtype, as JAX factors in the dtype); the product is rounded to the dtype before the
 * mean is added, as JAX's einsum and add are two operations. `meanIndex`/`covIndex` map each
 * batch element to its mean vector and factor (broadcasting).
 */
export function multivariateNormalData(
  key: KeyArray, mean: ArrayLike<number>, factors: readonly Float64Array[], meanIndex: ArrayLike<number>,
  covIndex: ArrayLike<number>, n: number, dtype: FloatDType, modes: Modes,
): Float64Array | Float32Array {
  const batch = meanIndex.length;
  const z = normalData(key, batch * n, dtype, modes);
  const out = dtype === 'float32' ? new Float32Array(batch * n) : new Float64Array(batch * n);
  const r = rounder(dtype);
  const rounded = factors.map((f) => (dtype === 'float32' ? Float64Array.from(f, Math.fround) : f));
  for (let b = 0; b < batch; b++) {
    const f = rounded[covIndex[b]!]!;
    const m = meanIndex[b]! * n;
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (let j = 0; j < n; j++) dot += f[i * n + j]! * z[b * n + j]!;
      out[b * n + i] = r(mean[m + i]! + r(dot));
    }
  }
  return out;
}

/** Row-major indices 0..size−1 of a batch shape, as an int32 tensor (for broadcasting maps). */
function indexTensor(shape: readonly number[]): Tensor<'int32'> {
  const size = sizeOf(shape);
  return new Tensor(Int32Array.from({ length: size }, (_, i) => i), shape, 'int32');
}

/** `method` of `multivariateNormal` (default `'cholesky'`), checked under `fn`'s name. */
export function checkMvnMethod(fn: string, method: unknown): MvnMethod {
  return method === undefined ? 'cholesky' : checkOneOf(fn, 'method', method, METHODS);
}

/** `mean` and `cov` as tensors of `dtype`, with the batch index tensors their batch axes broadcast by. */
export interface MvnArgs {
  readonly mean: Tensor;
  readonly cov: Tensor;
  /** The event size n. */
  readonly n: number;
  readonly meanBatch: Tensor<'int32'>;
  readonly covBatch: Tensor<'int32'>;
}

/** Checks `mean` (rank ≥ 1, finite) and `cov` (shape `[..., n, n]`) under `fn`'s name. */
export function mvnArgs(fn: string, mean: unknown, cov: unknown, dtype: FloatDType): MvnArgs {
  const mt = floatParam(fn, 'mean', mean, dtype);
  const ct = floatParam(fn, 'cov', cov, dtype);
  if (mt.ndim < 1) fail('range', fn, 'mean', 'must have at least 1 dimension (shape [..., n])', mt);
  if (ct.ndim < 2) fail('range', fn, 'cov', 'must have at least 2 dimensions (shape [..., n, n])', ct);
  const n = mt.shape[mt.ndim - 1]!;
  if (ct.shape[ct.ndim - 1] !== n || ct.shape[ct.ndim - 2] !== n) {
    fail('range', fn, 'cov', `must have shape [..., ${n}, ${n}] to match \`mean\` [${mt.shape.join(', ')}]; its shape is [${ct.shape.join(', ')}]`, ct);
  }
  for (const v of mt.data as Float64Array | Float32Array) if (!Number.isFinite(v)) fail('range', fn, 'mean', 'must be finite', v);
  return { mean: mt, cov: ct, n, meanBatch: indexTensor(mt.shape.slice(0, -1)), covBatch: indexTensor(ct.shape.slice(0, -2)) };
}

/**
 * The draw for checked arguments and a batch shape `s` they broadcast to: each covariance
 * checked (finite, symmetric within 64 ulp of its largest entry), symmetrized and factored,
 * then `multivariateNormalData`.
 */
export function mvnSample(
  fn: string, key: KeyArray, args: MvnArgs, s: readonly number[], method: MvnMethod, dtype: FloatDType, modes: Modes,
): Tensor<FloatDType> {
  const { n, covBatch } = args;
  const meanIndex = broadcastData(fn, 'mean', args.meanBatch, s) as Int32Array;
  const covIndex = broadcastData(fn, 'cov', covBatch, s) as Int32Array;
  const covData = Float64Array.from(args.cov.data as Float64Array | Float32Array);
  const tol = (dtype === 'float32' ? 2 ** -23 : 2 ** -52) * 64;
  const factors: Float64Array[] = [];
  for (let c = 0; c < covBatch.size; c++) {
    const off = c * n * n;
    let big = 0;
    for (let k = 0; k < n * n; k++) {
      const v = covData[off + k]!;
      if (!Number.isFinite(v)) fail('range', fn, 'cov', 'must be finite', v);
      big = Math.max(big, Math.abs(v));
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < i; j++) {
        const aij = covData[off + i * n + j]!, aji = covData[off + j * n + i]!;
        if (Math.abs(aij - aji) > tol * big) {
          throw new RangeError(`${fn}: \`cov\` must be symmetric; entries [${i}, ${j}] = ${aij} and [${j}, ${i}] = ${aji}`);
        }
        covData[off + i * n + j] = covData[off + j * n + i] = (aij + aji) / 2;
      }
    }
    factors.push(covarianceFactor(fn, covData, n, off, method, dtype));
  }
  const data = multivariateNormalData(key, args.mean.data as Float64Array | Float32Array, factors, meanIndex, covIndex, n, dtype, modes);
  return new Tensor<FloatDType>(data, [...s, n], dtype);
}

/**
 * Multivariate normal samples (`jax.random.multivariate_normal`): density
 * (2π)^(−n/2)·det(Σ)^(−1/2)·exp(−½(x − μ)ᵀΣ⁻¹(x − μ)) on ℝⁿ, as μ + F·z with F·Fᵀ = Σ and z
 * standard normal of shape `[...shape, n]`, batching over the leading axes of `mean` and `cov`.
 *
 * With `'cholesky'` (the default) values agree with JAX to a few ulp of the terms' magnitude
 * (the factor is unique; JAX factors in the dtype, this code in float64 and rounds).
 * `'eigh'` and `'svd'` give the same distribution, and accept singular (semi-definite)
 * covariances, but eigenvector signs are a convention of the eigensolver, so their values
 * generally differ from JAX's LAPACK-based ones. The result has `dtype`; the covariance is
 * symmetrized ((Σ + Σᵀ)/2, as JAX does) after a symmetry check and factored in float64.
 *
 * @param mean μ, shape `[..., n]` (number arrays or a Tensor), finite.
 * @param cov Σ, shape `[..., n, n]`, symmetric; positive definite for `'cholesky'`, positive
 *   semi-definite for `'eigh'` and `'svd'`. Batch axes broadcast against `mean`'s.
 * @param shape batch shape of the result (the result is `[...shape, n]`); defaults to the
 *   broadcast of `mean`'s and `cov`'s batch shapes, which must broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @param options.method `'cholesky'` (default), `'eigh'` or `'svd'`.
 * @throws RangeError naming `mean` or `cov` for wrong ranks or shapes, non-finite entries, a
 *   non-symmetric `cov`, a `cov` that is not positive definite (`'cholesky'`) or not positive
 *   semi-definite (`'eigh'`, `'svd'`), or batch shapes that do not broadcast.
 * @example
 * random.multivariateNormal(random.key(0), [0, 0], [[1, 0.5], [0.5, 1]], [100]); // → Tensor float64 [100, 2]
 * random.multivariateNormal(random.key(0), [0, 0], [[1, 1], [1, 1]], [], { method: 'eigh' }); // singular Σ
 */
export function multivariateNormal(
  key: KeyArray, mean: ParamLike, cov: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType; method?: MvnMethod },
): Tensor<FloatDType> {
  const fn = 'random.multivariateNormal';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype', 'method']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const method = checkMvnMethod(fn, opts.method);
  const args = mvnArgs(fn, mean, cov, dtype);
  const s = resolveShape(fn, shape, [['mean', args.meanBatch], ['cov', args.covBatch]]);
  checkShape(fn, 'shape', [...s, args.n]); // the result, not just the batch, must fit
  return mvnSample(fn, key, args, s, method, dtype, modes);
}
