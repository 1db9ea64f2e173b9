import { checkNonNegativeInteger, checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { householderQr } from './linalg.js';
import { normalData } from './normal.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';

/**
 * `batch` Haar-distributed n×m (semi-)orthogonal matrices as JAX draws them (Mezzadri 2007):
 * z = normal(key, [batch, max(n, m), min(n, m)]) in the dtype; the reduced QR z = Q·R
 * (Householder, in float64); Q with column j multiplied by sign(R[j][j]) (sign(0) = 0, as
 * JAX's jnp.sign); transposed when n < m. Row-major, rounded to the dtype.
 */
export function orthogonalData(key: KeyArray, batch: number, n: number, m: number, dtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const rows = Math.max(n, m), cols = Math.min(n, m), size = rows * cols;
  const z = normalData(key, batch * size, dtype, modes);
  const out = dtype === 'float32' ? new Float32Array(batch * size) : new Float64Array(batch * size);
  const round = rounder(dtype);
  for (let b = 0; b < batch; b++) {
    const { q, rDiag } = householderQr(z, rows, cols, b * size);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const v = round(q[i * cols + j]! * Math.sign(rDiag[j]!));
        if (n >= m) out[b * size + i * cols + j] = v;
        else out[b * size + j * rows + i] = v;   // transpose: result is cols × rows = n × m
      }
    }
  }
  return out;
}

/**
 * Haar-random orthogonal matrices (`jax.random.orthogonal`): uniform on the orthogonal group
 * O(n), or, for m ≠ n, on the n×m matrices with orthonormal rows (n ≤ m) or columns (n ≥ m).
 * The QR of a standard normal matrix with R's diagonal made positive, as JAX does; since that
 * decomposition is unique, values agree with JAX's LAPACK-based ones to rounding (about 1e-6
 * absolute in float32, where LAPACK works in float32 and this code in float64, and 1e-13 in
 * float64).
 *
 * @param n number of rows (a non-negative integer).
 * @param shape batch shape (default `[]`); the result has shape `[...shape, n, m]`.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @param options.m number of columns (default `n`).
 * @throws TypeError / RangeError for a bad key, shape, dtype, `n` or `m`.
 * @example
 * random.orthogonal(random.key(0), 3);                 // → Tensor float64 [3, 3]
 * random.orthogonal(random.key(0), 2, [10], { m: 4 }); // → Tensor float64 [10, 2, 4]
 */
export function orthogonal(key: KeyArray, n: number, shape: ShapeLike = [], options?: { dtype?: FloatDType; m?: number }): Tensor<FloatDType> {
  const fn = 'random.orthogonal';
  checkKey(fn, 'key', key);
  const nn = checkNonNegativeInteger(fn, 'n', n);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype', 'm']);
  const m = opts.m === undefined ? nn : checkNonNegativeInteger(fn, 'm', opts.m);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const full = checkShape(fn, 'shape', [...s, nn, m]);
  const batch = sizeOf(s);
  return new Tensor<FloatDType>(orthogonalData(key, batch, nn, m, dtype, modes), full, dtype);
}
