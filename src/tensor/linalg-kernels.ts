/**
 * Dense linear-algebra kernels in float64 over row-major Float64Arrays, shared by the
 * differentiable tensor ops (`src/tensor/ops/linalg.ts`, `matmul.ts`, `eigh.ts`) and the matrix
 * samplers (`multivariateNormal`, `orthogonal`, through `src/random/linalg.ts`): a strided matrix
 * product, triangular solves, Cholesky and its reverse-mode gradient, a symmetric
 * eigendecomposition by cyclic Jacobi, and a Householder QR. Matrices are read from (and written
 * to) an offset, so a batch of matrices can live in one array. Sizes here are small (covariance
 * matrices, a model's parameters), so clarity wins over blocking. No allocation per element, no
 * tensors, no tape.
 */

/**
 * The lower-triangular Cholesky factor L of a symmetric positive-definite n×n matrix (L·Lᵀ = a),
 * reading only the lower triangle of `a`. Returns null when a pivot is not positive (the matrix is
 * not positive definite, or is singular) or not finite.
 */
export function cholesky(a: ArrayLike<number>, n: number, offset = 0): Float64Array | null {
  const l = new Float64Array(n * n);
  return choleskyInto(a, offset, n, l, 0) < 0 ? l : null;
}

/**
 * Writes the Cholesky factor of the n×n matrix at `a[aOff…]` (lower triangle read) into
 * `l[lOff…]` (lower triangle written; the strict upper triangle is left untouched, so pass
 * zeroed storage). `l` may be `a` itself at the same offset: each entry of a's lower triangle is
 * read once, just before the factor's entry replaces it. Returns −1 on success, or the column j
 * whose pivot was not positive and finite (the leading (j+1)×(j+1) block is not positive definite).
 */
export function choleskyInto(a: ArrayLike<number>, aOff: number, n: number, l: Float64Array, lOff: number): number {
  for (let j = 0; j < n; j++) {
    const rj = lOff + j * n;
    let d = a[aOff + j * n + j]!;
    for (let k = 0; k < j; k++) d -= l[rj + k]! * l[rj + k]!;
    if (!(d > 0) || !Number.isFinite(d)) return j;
    const ljj = Math.sqrt(d);
    l[rj + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      const ri = lOff + i * n;
      let s = a[aOff + i * n + j]!;
      for (let k = 0; k < j; k++) s -= l[ri + k]! * l[rj + k]!;
      l[ri + j] = s / ljj;
    }
  }
  return -1;
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

/**
 * C += A·B for an m×k matrix A and a k×n matrix B given by offsets and strides: A[i, p] is
 * a[aOff + i·aRow + p·aCol], B[p, j] is b[bOff + p·bRow + j·bCol], and C[i, j] is
 * c[cOff + i·cRow + j]. A transposed operand is the same call with its strides swapped.
 */
export function gemm(
  m: number, n: number, k: number,
  a: ArrayLike<number>, aOff: number, aRow: number, aCol: number,
  b: ArrayLike<number>, bOff: number, bRow: number, bCol: number,
  c: Float64Array, cOff: number, cRow: number,
): void {
  for (let i = 0; i < m; i++) {
    const ci = cOff + i * cRow;
    for (let p = 0; p < k; p++) {
      const aip = a[aOff + i * aRow + p * aCol]!;
      const bp = bOff + p * bRow;
      for (let j = 0; j < n; j++) c[ci + j]! += aip * b[bp + j * bCol]!;
    }
  }
}

/**
 * Solves op(T)·X = B in place for an n×n triangular T at `t[tOff…]` and an n×m right-hand side B
 * at `b[bOff…]` (row-major, overwritten by X). Only T's lower (`lower`) or upper triangle is
 * read; op(T) is Tᵀ when `transpose`. A zero on T's diagonal gives infinities or NaN, as LAPACK's
 * trsm does. Either way T is read along its rows: row-oriented substitution for T, and
 * column-oriented (each solved row of X eliminated from the rows after it) for Tᵀ.
 */
export function trsm(
  t: ArrayLike<number>, tOff: number, n: number, lower: boolean, transpose: boolean, b: Float64Array, bOff: number, m: number,
): void {
  for (let step = 0; step < n; step++) {
    // Without transpose, a lower T is solved top-down; with it, Tᵀ is upper and solved bottom-up.
    const i = lower !== transpose ? step : n - 1 - step;
    const ti = tOff + i * n, xi = bOff + i * m, d = t[ti + i]!;
    const from = lower ? 0 : i + 1, to = lower ? i : n;   // the off-diagonal part of T's row i
    if (!transpose) {                                    // xᵢ = (bᵢ − Σⱼ Tᵢⱼ·xⱼ) / Tᵢᵢ over solved rows j
      if (m === 1) {
        let s = b[xi]!;
        for (let j = from; j < to; j++) s -= t[ti + j]! * b[bOff + j]!;
        b[xi] = s / d;
        continue;
      }
      for (let j = from; j < to; j++) {
        const tij = t[ti + j]!, xj = bOff + j * m;
        for (let c = 0; c < m; c++) b[xi + c]! -= tij * b[xj + c]!;
      }
      for (let c = 0; c < m; c++) b[xi + c]! /= d;
    } else {                                             // xᵢ is final: xⱼ −= Tᵢⱼ·xᵢ for the rows j it feeds
      if (m === 1) {
        const xv = b[xi]! / d;
        b[xi] = xv;
        for (let j = from; j < to; j++) b[bOff + j]! -= t[ti + j]! * xv;
        continue;
      }
      for (let c = 0; c < m; c++) b[xi + c]! /= d;
      for (let j = from; j < to; j++) {
        const tij = t[ti + j]!, xj = bOff + j * m;
        for (let c = 0; c < m; c++) b[xj + c]! -= tij * b[xi + c]!;
      }
    }
  }
}

/**
 * The gradient of x = op(T)⁻¹·b with respect to T, given x and b̄ = op(T)⁻ᵀ·x̄ (both n×m at
 * `x[off…]` and `gb[off…]`): adds −b̄·xᵀ (or −x·b̄ᵀ when `transpose`) on T's read triangle into
 * `out[outOff…]`. O(n²·m).
 */
export function trsmGradT(
  n: number, m: number, lower: boolean, transpose: boolean, x: Float64Array, gb: Float64Array, off: number, out: Float64Array, outOff: number,
): void {
  const u = transpose ? x : gb, v = transpose ? gb : x;   // out[i, j] −= Σ_c u[i, c]·v[j, c]
  for (let i = 0; i < n; i++) {
    const ui = off + i * m;
    for (let j = lower ? 0 : i; j < (lower ? i + 1 : n); j++) {
      const vj = off + j * m;
      let s = 0;
      for (let c = 0; c < m; c++) s += u[ui + c]! * v[vj + c]!;
      out[outOff + i * n + j]! -= s;
    }
  }
}

/**
 * The gradient of x = (L·Lᵀ)⁻¹·b with respect to L, given x and b̄ = (L·Lᵀ)⁻¹·x̄ (both n×m at
 * `x[off…]` and `gb[off…]`): adds L̄ = −tril((b̄·xᵀ + x·b̄ᵀ)·L) into `out[outOff…]`, computed as
 * −tril(b̄·(Lᵀx)ᵀ + x·(Lᵀb̄)ᵀ) in O(n²·m).
 */
export function choleskySolveGradL(
  l: ArrayLike<number>, lOff: number, n: number, m: number, x: Float64Array, gb: Float64Array, off: number, out: Float64Array, outOff: number,
): void {
  const lx = new Float64Array(n * m), lg = new Float64Array(n * m);   // Lᵀ·x and Lᵀ·b̄
  for (let p = 0; p < n; p++) {
    const lp = lOff + p * n, xp = off + p * m;
    for (let j = 0; j <= p; j++) {
      const lpj = l[lp + j]!;
      for (let c = 0; c < m; c++) {
        lx[j * m + c]! += lpj * x[xp + c]!;
        lg[j * m + c]! += lpj * gb[xp + c]!;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const ri = off + i * m;
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let c = 0; c < m; c++) s += gb[ri + c]! * lx[j * m + c]! + x[ri + c]! * lg[j * m + c]!;
      out[outOff + i * n + j]! -= s;
    }
  }
}

/** out[outOff…] = (A + Aᵀ)/2 for the n×n matrix A at a[aOff…]. */
export function symmetrizeInto(a: ArrayLike<number>, aOff: number, n: number, out: Float64Array, outOff: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const s = 0.5 * (a[aOff + i * n + j]! + a[aOff + j * n + i]!);
      out[outOff + i * n + j] = s;
      out[outOff + j * n + i] = s;
    }
  }
}

/** out[outOff…] += (M + Mᵀ)/2 for the n×n matrix M (the gradient of a symmetrised input). */
function addSymmetrized(mat: Float64Array, n: number, out: Float64Array, outOff: number): void {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) out[outOff + i * n + j]! += 0.5 * (mat[i * n + j]! + mat[j * n + i]!);
  }
}

/**
 * The reverse-mode gradient of the Cholesky factorisation of a symmetric input: given the factor
 * L at `l[lOff…]` and the adjoint L̄ at `lbar[gOff…]` (its strict upper triangle is ignored, since
 * L's is constant zero), adds Ā into `out[outOff…]`, split symmetrically between aᵢⱼ and aⱼᵢ.
 * The result equals the standard formula Ā = sym(L⁻ᵀ·Φ(Lᵀ·L̄)·L⁻¹), Φ taking the lower triangle
 * with a halved diagonal (Murray 2016, "Differentiation of the Cholesky decomposition"; Seeger et
 * al. 2017), but is computed as Murray's unblocked algorithm does: by running the column-by-column
 * factorisation of `choleskyInto` backwards, which costs about n³/3 multiply–adds (twice the
 * factorisation) instead of the formula's two dense triangular solves.
 */
export function choleskyBackward(
  l: ArrayLike<number>, lOff: number, n: number, lbar: ArrayLike<number>, gOff: number, out: Float64Array, outOff: number,
): void {
  // g holds the adjoints of L's lower triangle; column j is complete once the columns after it are undone.
  const g = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let k = 0; k <= i; k++) g[i * n + k] = lbar[gOff + i * n + k]!;
  for (let j = n - 1; j >= 0; j--) {
    const rj = j * n, ljj = l[lOff + rj + j]!;
    // Forward, for i > j: lᵢⱼ = (aᵢⱼ − Σₖ₍ₖ<ⱼ₎ lᵢₖ·lⱼₖ) / lⱼⱼ.
    let gjj = g[rj + j]!;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      const gs = g[ri + j]! / ljj;                       // adjoint of the numerator sᵢⱼ
      gjj -= gs * l[lOff + ri + j]!;                     // through the division by lⱼⱼ
      out[outOff + ri + j]! += 0.5 * gs;                 // aᵢⱼ is read as (aᵢⱼ + aⱼᵢ)/2
      out[outOff + rj + i]! += 0.5 * gs;
      for (let k = 0; k < j; k++) {
        g[ri + k]! -= gs * l[lOff + rj + k]!;
        g[rj + k]! -= gs * l[lOff + ri + k]!;
      }
    }
    // Forward: lⱼⱼ = √(aⱼⱼ − Σₖ₍ₖ<ⱼ₎ lⱼₖ²).
    const gd = gjj / (2 * ljj);
    out[outOff + rj + j]! += gd;
    for (let k = 0; k < j; k++) g[rj + k]! -= 2 * gd * l[lOff + rj + k]!;
  }
}

/**
 * The reverse-mode gradient of a symmetric eigendecomposition A = V·diag(w)·Vᵀ (Giles 2008,
 * "An extended collection of matrix derivative results"): given w, V (eigenvectors in columns,
 * row-major) and the adjoints w̄ and V̄ (either may be null), adds
 * Ā = sym(V·(diag(w̄) + F∘(Vᵀ·V̄))·Vᵀ) into `out[outOff…]`, where F[i, j] = 1/(w[j] − w[i]) off
 * the diagonal and 0 on it. Repeated eigenvalues make the V̄ term infinite or NaN: eigenvectors
 * are then not differentiable.
 */
export function eighBackward(
  w: ArrayLike<number>, wOff: number, v: ArrayLike<number>, vOff: number, n: number,
  wbar: ArrayLike<number> | null, wbarOff: number, vbar: ArrayLike<number> | null, vbarOff: number,
  out: Float64Array, outOff: number,
): void {
  const c = new Float64Array(n * n);
  if (vbar !== null) {
    gemm(n, n, n, v, vOff, 1, n, vbar, vbarOff, n, 1, c, 0, n);   // Vᵀ·V̄
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) c[i * n + j] = i === j ? 0 : c[i * n + j]! / (w[wOff + j]! - w[wOff + i]!);
    }
  }
  if (wbar !== null) for (let i = 0; i < n; i++) c[i * n + i]! += wbar[wbarOff + i]!;
  const vc = new Float64Array(n * n);
  gemm(n, n, n, v, vOff, n, 1, c, 0, n, 1, vc, 0, n);              // V·C
  const a = new Float64Array(n * n);
  gemm(n, n, n, vc, 0, n, 1, v, vOff, 1, n, a, 0, n);              // (V·C)·Vᵀ
  addSymmetrized(a, n, out, outOff);
}
