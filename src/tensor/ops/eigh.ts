/**
 * The eigendecomposition of small symmetric matrices, with reverse-mode gradients for the
 * eigenvalues and the eigenvectors.
 *
 * @example
 * const { values, vectors } = eigh([[2, 1], [1, 2]]);
 * values.toArray();   // ≈ [1, 3]
 */
import { asTensor, floatKind, numbers, result, tracing, type TensorLike } from '../core.js';
import { eighBackward, symmetricEigen, symmetrizeInto } from '../linalg-kernels.js';
import type { Lowering } from '../lowering.js';
import { sizeOf } from '../shapes.js';
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
  const count = sizeOf(batch), nn = n * n;
  const sym = new Float64Array(nn);
  /** Eigenvalues into w and eigenvectors into v for every matrix of `av`. */
  const decompose = (av: ArrayLike<number>, w: Float64Array, v: Float64Array) => {
    for (let q = 0; q < count; q++) {
      symmetrizeInto(av, q * nn, n, sym, 0);
      const e = symmetricEigen(sym, n, 0);
      w.set(e.values, q * n);
      v.set(e.vectors, q * nn);
    }
  };
  /** ā into `ga` for the adjoint g of the values or of the vectors. */
  const gradient = (which: 'values' | 'vectors', g: Float64Array, w: Float64Array, v: Float64Array, ga: Float64Array) => {
    ga.fill(0);
    for (let q = 0; q < count; q++) {
      if (which === 'values') eighBackward(w, q * n, v, q * nn, n, g, q * n, null, 0, ga, q * nn);
      else eighBackward(w, q * n, v, q * nn, n, null, 0, g, q * nn, ga, q * nn);
    }
  };
  const w = new Float64Array(count * n), v = new Float64Array(a.size);
  decompose(numbers(a), w, v);
  const kind = floatKind(a);
  const backward = (which: 'values' | 'vectors') => (g: Float64Array) => {
    const ga = new Float64Array(a.size);
    gradient(which, g, w, v, ga);
    return [ga];
  };
  // Compiled, each output is its own node that decomposes its input again (into its own scratch).
  const lowering = (which: 'values' | 'vectors'): Lowering | string => {
    if (!tracing()) return fn;
    const lw = new Float64Array(count * n), lv = new Float64Array(a.size);
    return {
      name: fn,
      forward(ins, out) {
        decompose(ins[0]!, lw, lv);
        const src = which === 'values' ? lw : lv;
        for (let i = 0; i < src.length; i++) out[i] = src[i]!;
      },
      backward(g, _ins, _out, parts) {
        if (parts[0]) gradient(which, g, lw, lv, parts[0]);
      },
    };
  };
  return {
    values: result(storeAs(kind, w), [...batch, n], [a], backward('values'), undefined, lowering('values')),
    vectors: result(storeAs(kind, v), a.shape, [a], backward('vectors'), undefined, lowering('vectors')),
  };
}
