/** src/random/linalg.ts: Cholesky, the Jacobi symmetric eigensolver and Householder QR. */
import { describe, expect, it } from 'vitest';
import { cholesky, householderQr, symmetricEigen } from '../../src/random/linalg.js';

const SPD = [4, 2, 0.6, 2, 5, 1.5, 0.6, 1.5, 3];

function matmul(a: ArrayLike<number>, b: ArrayLike<number>, n: number, k: number, m: number): number[] {
  const out = new Array<number>(n * m).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) for (let l = 0; l < k; l++) out[i * m + j]! += a[i * k + l]! * b[l * m + j]!;
  return out;
}
const transpose = (a: ArrayLike<number>, n: number, m: number) => Array.from({ length: n * m }, (_, i) => a[(i % n) * m + Math.floor(i / n)]!);
const expectClose = (got: ArrayLike<number>, want: ArrayLike<number>, tol: number) => Array.from(got).forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThan(tol));

describe('cholesky', () => {
  it('returns the lower factor L with L·Lᵀ = a, reading an offset', () => {
    const l = cholesky([9, ...SPD], 3, 1)!;
    expect([l[1], l[2], l[5]]).toEqual([0, 0, 0]);
    expectClose(matmul(l, transpose(l, 3, 3), 3, 3, 3), SPD, 1e-14);
    expect(l[0]).toBe(2);
  });

  it('returns null for matrices that are not positive definite', () => {
    expect(cholesky([1, 2, 2, 1], 2)).toBeNull();
    expect(cholesky([1, 1, 1, 1], 2)).toBeNull();
    expect(cholesky([NaN, 0, 0, 1], 2)).toBeNull();
    expect(cholesky([], 0)).toEqual(new Float64Array(0));
  });
});

describe('symmetricEigen', () => {
  it('diagonalizes: a·V = V·diag(w), Vᵀ·V = I, w ascending, each vector\'s largest entry positive', () => {
    for (const [a, n] of [[SPD, 3], [[2, 1, 1, 2], 2], [[1, 1, 0, 1, 2, 2, 0, 2, 4], 3], [[-1, 3, 0, 0, 3, 2, 1, 0, 0, 1, 0, 5, 0, 0, 5, 1], 4]] as const) {
      const { values, vectors } = symmetricEigen(a, n);
      for (let k = 1; k < n; k++) expect(values[k]!).toBeGreaterThanOrEqual(values[k - 1]!);
      const av = matmul(a, vectors, n, n, n);
      const vw = Array.from(vectors, (v, i) => v * values[i % n]!);
      expectClose(av, vw, 1e-13);
      expectClose(matmul(transpose(vectors, n, n), vectors, n, n, n), Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0)), 1e-14);
      for (let k = 0; k < n; k++) {
        const col = Array.from({ length: n }, (_, i) => vectors[i * n + k]!);
        const big = col.reduce((p, v) => (Math.abs(v) > Math.abs(p) ? v : p), 0);
        expect(big).toBeGreaterThan(0);
      }
    }
  });

  it('finds the zero eigenvalue of a singular matrix to rounding, and leaves a diagonal matrix alone', () => {
    const { values } = symmetricEigen([1, 1, 0, 1, 2, 2, 0, 2, 4], 3);
    expect(Math.abs(values[0]!)).toBeLessThan(1e-15);
    const d = symmetricEigen([3, 0, 0, 0, 1, 0, 0, 0, 2], 3);
    expect(Array.from(d.values)).toEqual([1, 2, 3]);
    expect(Array.from(d.vectors)).toEqual([0, 0, 1, 1, 0, 0, 0, 1, 0]);
  });
});

describe('householderQr', () => {
  it('gives Q with orthonormal columns, Qᵀ·a upper triangular with R\'s diagonal, LAPACK\'s signs', () => {
    const a = [3, -1, 2, 4, 1, 0.5, -2, 2, 1, 0.3, 7, -4];   // 4×3
    const { q, rDiag } = householderQr(a, 4, 3);
    expectClose(matmul(transpose(q, 4, 3), q, 3, 4, 3), [1, 0, 0, 0, 1, 0, 0, 0, 1], 1e-14);
    const r = matmul(transpose(q, 4, 3), a, 3, 4, 3);
    for (let i = 0; i < 3; i++) for (let j = 0; j < i; j++) expect(Math.abs(r[i * 3 + j]!)).toBeLessThan(1e-13);
    for (let i = 0; i < 3; i++) expect(r[i * 3 + i]).toBeCloseTo(rDiag[i]!, 13);
    expectClose(matmul(q, r, 4, 3, 3), a, 1e-13);
    expect(rDiag[0]).toBeCloseTo(-Math.hypot(3, 4, -2, 0.3), 14);   // β = −sign(x₀)·‖x‖
  });

  it('gives a zero diagonal entry for a zero column', () => {
    const { rDiag } = householderQr([0, 1, 0, 2], 2, 2);
    expect(rDiag[0]).toBe(0);
  });
});
