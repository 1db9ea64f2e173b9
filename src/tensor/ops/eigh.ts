/**
 * The eigendecomposition of small symmetric matrices, with reverse-mode gradients for the
 * eigenvalues and the eigenvectors.
 *
 * @example
 * const { values, vectors } = eigh([[2, 1], [1, 2]]);
 * values.toArray();   // ≈ [1, 3]
 */
import { asTensor, floatKind, numbers, result, type TensorLike } from '../core.js';
import { eighBackward, symmetricEigen, symmetrizeInto } from '../linalg-kernels.js';
import type { Tensor } from '../tensor.js';
import { squareSize, storeAs } from './linalg-batch.js';

/** What `eigh` returns. */
export interface Eigh {
  /** Eigenvalues in ascending order, shape [..., n]. */
  readonly values: Tensor;
  /**
   * Orthonormal eigenvectors as columns, shape [..., n, n]: column k belongs to values[k]. Each is
   * signed so that its entry of largest magnitude (the first such) is positive.
   */
  readonly vectors: Tensor;
}

/**
 * The eigendecomposition A = V·diag(w)·Vᵀ of a symmetric matrix [n, n] or of each matrix of a
 * batch [..., n, n], by the cyclic Jacobi method: accurate (eigenvalues to a few ulp of ‖A‖) and
 * meant for small matrices (O(n³) per sweep, a handful of sweeps). As in JAX, the symmetric part
 * (A + Aᵀ)/2 is decomposed, so gradients are symmetric.
 *
 * Gradients: the eigenvalues' is V·diag(w̄)·Vᵀ; the eigenvectors' is V·(F∘(Vᵀ·V̄))·Vᵀ with
 * F[i, j] = 1/(w[j] − w[i]), which exists only when the eigenvalues are distinct (repeated
 * eigenvalues give infinite or NaN gradients, as in JAX), and only while the sign convention
 * above picks its entry continuously (no tie in largest magnitude within a vector).
 *
 * @throws RangeError if `a` is not square.
 * @example
 * const { values, vectors } = eigh([[2, 1], [1, 2]]);
 * values.toArray();    // ≈ [1, 3]
 * vectors.toArray();   // [[0.7071…, 0.7071…], [-0.7071…, 0.7071…]]
 */
export function eigh(aLike: TensorLike): Eigh {
  const fn = 'eigh';
  const a = asTensor(fn, 'a', aLike);
  const n = squareSize(fn, 'a', a);
  const batch = a.shape.slice(0, -2);
  const count = batch.reduce((p, d) => p * d, 1), nn = n * n;
  const av = numbers(a);
  const w = new Float64Array(count * n), v = new Float64Array(a.size);
  const sym = new Float64Array(nn);
  for (let q = 0; q < count; q++) {
    symmetrizeInto(av, q * nn, n, sym, 0);
    const e = symmetricEigen(sym, n, 0);
    w.set(e.values, q * n);
    v.set(e.vectors, q * nn);
  }
  const kind = floatKind(a);
  const backward = (which: 'values' | 'vectors') => (g: Float64Array) => {
    const ga = new Float64Array(a.size);
    for (let q = 0; q < count; q++) {
      if (which === 'values') eighBackward(w, q * n, v, q * nn, n, g, q * n, null, 0, ga, q * nn);
      else eighBackward(w, q * n, v, q * nn, n, null, 0, g, q * nn, ga, q * nn);
    }
    return [ga];
  };
  return {
    values: result(storeAs(kind, w), [...batch, n], [a], backward('values')),
    vectors: result(storeAs(kind, v), a.shape, [a], backward('vectors')),
  };
}
