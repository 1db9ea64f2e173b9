/**
 * Small dense linear algebra in float64 for the matrix samplers (`multivariateNormal`,
 * `orthogonal`): Cholesky, a symmetric eigendecomposition by cyclic Jacobi, and a Householder QR.
 * Matrices are row-major Float64Arrays read from (and written to) an offset, so a batch of
 * matrices can live in one array. Sizes here are small (a covariance matrix, an orthogonal
 * matrix), so clarity wins over blocking.
 */

/**
 * The lower-triangular Cholesky factor L of a symmetric positive-definite n×n matrix (L·Lᵀ = a),
 * reading only the lower triangle of `a`. Returns null when a pivot is not positive (the matrix is
 * not positive definite, or is singular) or not finite.
 */
export function cholesky(a: ArrayLike<number>, n: number, offset = 0): Float64Array | null {
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[offset + j * n + j]!;
    for (let k = 0; k < j; k++) d -= l[j * n + k]! * l[j * n + k]!;
    if (!(d > 0) || !Number.isFinite(d)) return null;
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[offset + i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[i * n + k]! * l[j * n + k]!;
      l[i * n + j] = s / ljj;
    }
  }
  return l;
}

export interface SymmetricEigen {
  /** Eigenvalues in ascending order. */
  values: Float64Array;
  /**
   * Eigenvectors as the columns of a row-major n×n matrix (column k belongs to values[k]), each
   * signed so that its entry of largest magnitude (the first such) is positive.
   */
  vectors: Float64Array;
}

/**
 * Eigendecomposition a = V·diag(w)·Vᵀ of a symmetric n×n matrix by the cyclic Jacobi method:
 * sweeps of plane rotations that zero each off-diagonal entry in turn, until the off-diagonal
 * part is negligible (quadratic convergence; a handful of sweeps for small n). Reads the whole
 * matrix, so the caller symmetrizes first.
 */
export function symmetricEigen(a: ArrayLike<number>, n: number, offset = 0): SymmetricEigen {
  const m = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) m[i] = a[offset + i]!;
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(m[i]!));
  const negligible = Number.EPSILON * 1e-3 * scale;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off = Math.max(off, Math.abs(m[p * n + q]!));
    if (off <= negligible) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q]!;
        if (Math.abs(apq) <= negligible) { m[p * n + q] = 0; m[q * n + p] = 0; continue; }
        const app = m[p * n + p]!, aqq = m[q * n + q]!;
        // The rotation angle θ with tan 2θ = 2·apq/(aqq − app); t = tan θ, the smaller root.
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) {            // columns p and q: m ← m·J
          const mkp = m[k * n + p]!, mkq = m[k * n + q]!;
          m[k * n + p] = c * mkp - s * mkq;
          m[k * n + q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < n; k++) {            // rows p and q: m ← Jᵀ·m
          const mpk = m[p * n + k]!, mqk = m[q * n + k]!;
          m[p * n + k] = c * mpk - s * mqk;
          m[q * n + k] = s * mpk + c * mqk;
        }
        m[p * n + q] = 0;
        m[q * n + p] = 0;
        for (let k = 0; k < n; k++) {            // accumulate V ← V·J
          const vkp = v[k * n + p]!, vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => m[i * n + i]! - m[j * n + j]!);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = m[src * n + src]!;
    let big = 0, sign = 1;
    for (let k = 0; k < n; k++) {
      const x = v[k * n + src]!;
      if (Math.abs(x) > big) { big = Math.abs(x); sign = x < 0 ? -1 : 1; }
    }
    for (let k = 0; k < n; k++) vectors[k * n + dst] = sign * v[k * n + src]!;
  });
  return { values, vectors };
}

export interface ReducedQr {
  /** Q: rows×cols with orthonormal columns, row-major. */
  q: Float64Array;
  /** The diagonal of R (cols entries); the rest of R is not kept. */
  rDiag: Float64Array;
}

/**
 * The reduced QR decomposition a = Q·R of a rows×cols matrix (rows ≥ cols) by Householder
 * reflections, with LAPACK's sign convention: each reflection maps its column x to
 * β·e₁ with β = −sign(x₀)·‖x‖ (sign(0) = +), so R's diagonal may be negative. A zero column
 * gives an identity reflection and a zero diagonal entry.
 */
export function householderQr(a: ArrayLike<number>, rows: number, cols: number, offset = 0): ReducedQr {
  const r = new Float64Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) r[i] = a[offset + i]!;
  const vs: Float64Array[] = [];
  const taus = new Float64Array(cols);     // H = I − τ·v·vᵀ
  const rDiag = new Float64Array(cols);
  for (let j = 0; j < cols; j++) {
    const len = rows - j;
    const v = new Float64Array(len);
    let norm2 = 0;
    for (let i = 0; i < len; i++) { v[i] = r[(j + i) * cols + j]!; norm2 += v[i]! * v[i]!; }
    const x0 = v[0]!;
    const norm = Math.sqrt(norm2);
    if (norm === 0) { vs.push(v); taus[j] = 0; rDiag[j] = 0; continue; }
    const beta = x0 >= 0 ? -norm : norm;
    v[0] = x0 - beta;
    const vv = norm2 - x0 * x0 + v[0]! * v[0]!;
    const tau = vv === 0 ? 0 : 2 / vv;
    vs.push(v);
    taus[j] = tau;
    rDiag[j] = beta;
    for (let k = j + 1; k < cols; k++) {   // apply H to the remaining columns
      let dot = 0;
      for (let i = 0; i < len; i++) dot += v[i]! * r[(j + i) * cols + k]!;
      dot *= tau;
      for (let i = 0; i < len; i++) r[(j + i) * cols + k]! -= dot * v[i]!;
    }
  }
  // Q = H₀·H₁···H_{cols−1} applied to the first cols columns of the identity, right to left.
  const q = new Float64Array(rows * cols);
  for (let i = 0; i < cols; i++) q[i * cols + i] = 1;
  for (let j = cols - 1; j >= 0; j--) {
    const v = vs[j]!, tau = taus[j]!, len = rows - j;
    if (tau === 0) continue;
    for (let k = 0; k < cols; k++) {
      let dot = 0;
      for (let i = 0; i < len; i++) dot += v[i]! * q[(j + i) * cols + k]!;
      dot *= tau;
      for (let i = 0; i < len; i++) q[(j + i) * cols + k]! -= dot * v[i]!;
    }
  }
  return { q, rDiag };
}
