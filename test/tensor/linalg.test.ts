/**
 * Linear algebra: src/tensor/ops/matmul.ts (matmul, dot), ops/linalg.ts (cholesky,
 * triangularSolve, choleskySolve, logDet, inv) and ops/eigh.ts. Values against known
 * decompositions, direct reconstruction and plain reference code written here (nested loops,
 * Gaussian elimination); gradients against finite differences with checkGradient, including
 * batched and broadcast operands; and the error paths.
 */
import { describe, expect, it } from 'vitest';
import { checkGradient, valueAndGrad } from '../../src/tensor/autodiff.js';
import { add, mul, sub, square } from '../../src/tensor/ops/elementwise.js';
import { eigh } from '../../src/tensor/ops/eigh.js';
import { cholesky, choleskySolve, inv, logDet, triangularSolve } from '../../src/tensor/ops/linalg.js';
import { dot, matmul } from '../../src/tensor/ops/matmul.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { randTensor, spdTensor } from '../helpers.js';

// ---- helpers -------------------------------------------------------------------------------------


const rand = (shape: number[], seed: number): Tensor => randTensor(shape, seed);
const spd = (shape: number[], seed: number): Tensor => spdTensor(shape, seed);

/** Lower (or upper) triangular matrices [..., n, n] with diagonal entries in [1.5, 2.5) or their negatives. */
function triangular(shape: number[], seed: number, lower = true): Tensor {
  const n = shape[shape.length - 1]!;
  const t = rand(shape, seed).data as Float64Array;
  for (let o = 0; o < t.length; o += n * n) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const k = o + i * n + j;
        if (i === j) t[k] = (t[k]! < 0 ? -2 : 2) + 0.5 * t[k]!;
        else if (lower ? j > i : j < i) t[k] = 0;
      }
    }
  }
  return new Tensor(t, shape);
}

/** B·Bᵀ + n·I as tensor ops (a differentiable symmetric positive-definite parametrisation), B [..., n, n]. */
function gram(b: Tensor): Tensor {
  const n = b.shape[b.ndim - 1]!;
  const lead = b.shape.slice(0, -2);
  const outer = mul(b.reshape([...lead, n, 1, n]), b.reshape([...lead, 1, n, n]));
  return add(sum(outer, -1), eye(n, n));
}

function eye(n: number, scale = 1): Tensor {
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) d[i * n + i] = scale;
  return new Tensor(d, [n, n]);
}

/** Matrix i of a batch [..., r, c] as nested arrays. */
function matrixAt(t: Tensor, i: number, r: number, c: number): number[][] {
  const v = t.data as Float64Array;
  return Array.from({ length: r }, (_, a) => Array.from({ length: c }, (_, b) => v[i * r * c + a * c + b]!));
}

const naiveMatmul = (a: number[][], b: number[][]) =>
  a.map((row) => b[0]!.map((_, j) => row.reduce((s, x, k) => s + x * b[k]![j]!, 0)));
const transposeM = (a: number[][]) => a[0]!.map((_, j) => a.map((row) => row[j]!));

/** Solves A·x = B by Gaussian elimination with partial pivoting, and det A (reference code). */
function gauss(a: number[][], b: number[][]): { x: number[][]; det: number } {
  const n = a.length;
  const m = a.map((row, i) => [...row, ...b[i]!]);
  let det = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    if (p !== c) { [m[p], m[c]] = [m[c]!, m[p]!]; det = -det; }
    det *= m[c]![c]!;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k < m[r]!.length; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return { x: m.map((row, i) => row.slice(n).map((v) => v / m[i]![i]!)), det };
}

function expectClose(got: ArrayLike<number>, want: ArrayLike<number>, tol: number): void {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!) / Math.max(1, Math.abs(want[i]!)));
  expect(worst).toBeLessThan(tol);
}

const flat = (x: unknown): number[] => [x].flat(Infinity) as number[];

/** checkGradient of sum(f(x)·w) for fixed random weights w of f's output shape. */
function gradError(f: (x: Tensor) => Tensor, x: Tensor, seed = 99): number {
  const w = rand(f(x).shape as number[], seed);
  return checkGradient((t) => sum(mul(f(t), w)), x).maxRelativeError;
}

const GRAD_TOL = 1e-6;

// ---- matmul and dot ----------------------------------------------------------------------------

describe('matmul', () => {
  it('multiplies matrices and promotes vectors as NumPy does', () => {
    const a = rand([3, 4], 1), b = rand([4, 2], 2);
    expectClose(matmul(a, b).data as Float64Array, flat(naiveMatmul(matrixAt(a, 0, 3, 4), matrixAt(b, 0, 4, 2))), 1e-15);
    expect(matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]]).toArray()).toEqual([[19, 22], [43, 50]]);
    expect(matmul([[1, 2], [3, 4]], [5, 6]).toArray()).toEqual([17, 39]);       // matrix · vector → [m]
    expect(matmul([5, 6], [[1, 2], [3, 4]]).toArray()).toEqual([23, 34]);       // vector · matrix → [n]
    const s = matmul([1, 2, 3], [4, 5, 6]);                                      // vector · vector → []
    expect(s.shape).toEqual([]);
    expect(s.item()).toBe(32);
  });

  it('broadcasts batch dimensions', () => {
    const a = rand([2, 1, 3, 4], 3), b = rand([5, 4, 2], 4);
    const c = matmul(a, b);
    expect(c.shape).toEqual([2, 5, 3, 2]);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 5; j++) {
        expectClose(flat(matrixAt(c, i * 5 + j, 3, 2)), flat(naiveMatmul(matrixAt(a, i, 3, 4), matrixAt(b, j, 4, 2))), 1e-15);
      }
    }
    expect(matmul(rand([2, 3, 4], 5), rand([4], 6)).shape).toEqual([2, 3]);
    expect(matmul(rand([4], 5), rand([2, 4, 3], 6)).shape).toEqual([2, 3]);
    expect(matmul(rand([0, 3, 4], 5), rand([4, 2], 6)).shape).toEqual([0, 3, 2]);
    expect(Array.from(matmul(rand([2, 0], 5), rand([0, 3], 6)).data as Float64Array)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('keeps float32 only when both operands are float32', () => {
    const a = tensor([[1, 2]], 'float32'), b = tensor([[3], [4]], 'float32');
    expect(matmul(a, b).dtype).toBe('float32');
    expect(matmul(a, [[3], [4]]).dtype).toBe('float64');
  });

  it('has gradients for both operands, summed over broadcast batches', () => {
    const cases: [number[], number[]][] = [[[3, 4], [4, 2]], [[4], [4, 3]], [[3, 4], [4]], [[4], [4]], [[2, 1, 3, 4], [5, 4, 2]], [[3, 4], [2, 4, 2]]];
    cases.forEach(([sa, sb], i) => {
      const a = rand(sa, 10 + i), b = rand(sb, 20 + i);
      expect(gradError((t) => matmul(t, b), a)).toBeLessThan(GRAD_TOL);
      expect(gradError((t) => matmul(a, t), b)).toBeLessThan(GRAD_TOL);
    });
    expect(checkGradient((t) => matmul(t, t), rand([3], 7)).maxRelativeError).toBeLessThan(GRAD_TOL);   // same operand twice
  });

  it('rejects scalars, mismatched inner dimensions and non-broadcasting batches, naming both shapes', () => {
    expect(() => matmul(2, [1, 2])).toThrow(/matmul: `a` \[\] and `b` \[2\] must each have at least one dimension/);
    expect(() => matmul(rand([2, 3], 1), rand([4, 2], 2))).toThrow(/matmul: the inner dimensions of `a` \[2, 3\] and `b` \[4, 2\] do not match/);
    expect(() => matmul([1, 2], [1, 2, 3])).toThrow(RangeError);
    expect(() => matmul(rand([2, 3, 4], 1), rand([3, 4, 5], 2))).toThrow(/matmul: the batch dimensions of `a` \[2, 3, 4\] and `b` \[3, 4, 5\] do not broadcast/);
    expect(() => matmul('x' as never, [1])).toThrow(TypeError);
  });
});

describe('dot', () => {
  it('follows NumPy: inner product, matrix product, scalar multiple, N-D with 1-D and M-D', () => {
    expect(dot([1, 2, 3], [4, 5, 6]).item()).toBe(32);
    expect(dot([[1, 0], [0, 2]], [[1, 2], [3, 4]]).toArray()).toEqual([[1, 2], [6, 8]]);
    expect(dot(2, [[1, 2]]).toArray()).toEqual([[2, 4]]);
    expect(dot([[1, 2], [3, 4]], [1, 1]).toArray()).toEqual([3, 7]);
    const a = rand([2, 3, 4], 1), b = rand([5, 4, 6], 2);
    const c = dot(a, b);
    expect(c.shape).toEqual([2, 3, 5, 6]);
    const av = a.data as Float64Array, bv = b.data as Float64Array, cv = c.data as Float64Array;
    let worst = 0;
    for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 5; k++) for (let m = 0; m < 6; m++) {
      let s = 0;
      for (let t = 0; t < 4; t++) s += av[(i * 3 + j) * 4 + t]! * bv[(k * 4 + t) * 6 + m]!;
      worst = Math.max(worst, Math.abs(cv[((i * 3 + j) * 5 + k) * 6 + m]! - s));
    }
    expect(worst).toBeLessThan(1e-15);
    expect(dot(rand([2, 3, 4], 1), rand([4], 2)).shape).toEqual([2, 3]);
  });

  it('has gradients for both operands', () => {
    const cases: [number[], number[]][] = [[[4], [4]], [[3, 4], [4, 2]], [[2, 3, 4], [5, 4, 2]], [[2, 3, 4], [4]], [[4], [3, 4, 2]], [[], [2, 3]]];
    cases.forEach(([sa, sb], i) => {
      const a = rand(sa, 30 + i), b = rand(sb, 40 + i);
      expect(gradError((t) => dot(t, b), a)).toBeLessThan(GRAD_TOL);
      expect(gradError((t) => dot(a, t), b)).toBeLessThan(GRAD_TOL);
    });
  });

  it('names both shapes when the summed dimensions differ', () => {
    expect(() => dot([1, 2], [1, 2, 3])).toThrow(/dot: the last dimension of `a` \[2\] and the last dimension of `b` \[3\] differ/);
    expect(() => dot(rand([2, 3], 1), rand([2, 3], 2))).toThrow(/dot: the last dimension of `a` \[2, 3\] and the second-to-last dimension of `b` \[2, 3\] differ/);
  });
});

// ---- Cholesky ----------------------------------------------------------------------------------

describe('cholesky', () => {
  it('gives the known factor of a textbook matrix', () => {
    expect(cholesky([[4, 12, -16], [12, 37, -43], [-16, -43, 98]]).toArray()).toEqual([[2, 0, 0], [6, 1, 0], [-8, 5, 3]]);
    expect(cholesky([[9]]).toArray()).toEqual([[3]]);
    expect(cholesky(rand([0, 0], 1)).shape).toEqual([0, 0]);
  });

  it('reconstructs L·Lᵀ = A, lower triangular, for single and batched matrices', () => {
    for (const shape of [[6, 6], [2, 3, 5, 5]]) {
      const a = spd(shape, 7);
      const l = cholesky(a);
      expect(l.shape).toEqual(shape);
      const n = shape[shape.length - 1]!, count = a.size / (n * n);
      for (let q = 0; q < count; q++) {
        const lq = matrixAt(l, q, n, n);
        lq.forEach((row, i) => row.forEach((x, j) => { if (j > i) expect(x).toBe(0); else if (i === j) expect(x).toBeGreaterThan(0); }));
        expectClose(flat(naiveMatmul(lq, transposeM(lq))), flat(matrixAt(a, q, n, n)), 1e-14);
      }
    }
  });

  it('factors the symmetric part of a non-symmetric input, as JAX does', () => {
    const a = spd([4, 4], 3), skew = rand([4, 4], 4);
    const asym = add(a, sub(skew, new Tensor(Float64Array.from(transposeM(matrixAt(skew, 0, 4, 4)).flat()), [4, 4])));
    expectClose(cholesky(asym).data as Float64Array, cholesky(a).data as Float64Array, 1e-14);
  });

  it('computes in float64, returning float32 only for float32 input', () => {
    const a32 = tensor([[4, 2], [2, 3]], 'float32');
    expect(cholesky(a32).dtype).toBe('float32');
    expect(eigh(a32).values.dtype).toBe('float32');
    expect(triangularSolve(cholesky(a32), tensor([1, 2], 'float32')).dtype).toBe('float32');
    expect(triangularSolve(cholesky(a32), [1, 2]).dtype).toBe('float64');
    expect(cholesky(tensor([[4, 2], [2, 3]], 'int32')).dtype).toBe('float64');
    expectClose(cholesky(a32).data as Float32Array, [2, 0, 1, Math.fround(Math.SQRT2)], 1e-7);
  });

  it('has the Cholesky backward gradient, through A = B·Bᵀ + n·I and directly, batched', () => {
    expect(gradError((b) => cholesky(gram(b)), rand([4, 4], 1))).toBeLessThan(GRAD_TOL);
    expect(gradError((b) => cholesky(gram(b)), rand([2, 3, 3], 2))).toBeLessThan(GRAD_TOL);
    expect(gradError((a) => cholesky(a), spd([5, 5], 3))).toBeLessThan(GRAD_TOL);
    expect(gradError((a) => cholesky(a), spd([2, 1, 3, 3], 4))).toBeLessThan(GRAD_TOL);
    // Symmetric gradient: ∂/∂aᵢⱼ = ∂/∂aⱼᵢ.
    const g = checkGradient((a) => sum(mul(cholesky(a), rand([3, 3], 5))), spd([3, 3], 6)).analytic;
    expectClose([g[1]!, g[2]!, g[5]!], [g[3]!, g[6]!, g[7]!], 1e-15);
  });

  it('agrees with the standard backward formula Ā = sym(L⁻ᵀ·Φ(Lᵀ·L̄)·L⁻¹) (Murray 2016)', () => {
    const n = 7;
    const a = spd([n, n], 8), w = rand([n, n], 9);
    const [, g] = valueAndGrad((t: Tensor) => sum(mul(cholesky(t), w)))(a) as [Tensor, Tensor];
    const l = matrixAt(cholesky(a), 0, n, n);
    const lbar = matrixAt(w, 0, n, n).map((row, i) => row.map((x, j) => (j <= i ? x : 0)));
    const phi = naiveMatmul(transposeM(l), lbar).map((row, i) => row.map((x, j) => (j < i ? x : j === i ? x / 2 : 0)));
    const lInv = gauss(l, l.map((_, i) => l.map((__, j) => (i === j ? 1 : 0)))).x;
    const s = naiveMatmul(naiveMatmul(transposeM(lInv), phi), lInv);
    expectClose(g.data as Float64Array, flat(s.map((row, i) => row.map((x, j) => (x + s[j]![i]!) / 2))), 1e-13);
  });

  it('says so when a matrix is not positive definite, naming the argument and the batch entry', () => {
    expect(() => cholesky([[1, 2], [2, 1]])).toThrow(/cholesky: `a` is not positive definite \(its leading 2×2 minor is not positive\)/);
    expect(() => cholesky([[0]])).toThrow(RangeError);
    expect(() => cholesky([[[1, 0], [0, 1]], [[-1, 0], [0, 1]]])).toThrow(/in matrix \[1\] of the batch, its leading 1×1 minor is not positive/);
    expect(() => cholesky([[1, NaN], [NaN, 1]])).toThrow(/cholesky: `a` is not positive definite \(it has a non-finite entry\)/);
    expect(() => cholesky(rand([2, 3], 1))).toThrow(/cholesky: `a` must be a square matrix or a batch of them \(shape \[\.\.\., n, n\]\); got shape \[2, 3\]/);
    expect(() => cholesky([1, 2])).toThrow(/got shape \[2\]/);
  });
});

// ---- triangular and Cholesky solves ------------------------------------------------------------

describe('triangularSolve', () => {
  it('solves small known systems', () => {
    expect(triangularSolve([[2, 0], [1, 1]], [4, 5]).toArray()).toEqual([2, 3]);
    expect(triangularSolve([[2, 0], [1, 1]], [4, 5], { transpose: true }).toArray()).toEqual([-0.5, 5]);
    expect(triangularSolve([[2, 1], [0, 1]], [4, 5], { lower: false }).toArray()).toEqual([-0.5, 5]);
    expect(triangularSolve([[2, 1], [0, 1]], [[4], [5]], { lower: false, transpose: true }).toArray()).toEqual([[2], [3]]);
  });

  it('reads only the chosen triangle and reconstructs op(a)·x = b', () => {
    const n = 5;
    for (const lower of [true, false]) {
      for (const transpose of [false, true]) {
        const t = triangular([n, n], 3, lower);
        const noise = rand([n, n], 4).data as Float64Array;
        const full = new Float64Array(t.data as Float64Array);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (lower ? j > i : j < i) full[i * n + j] = noise[i * n + j]!;
        const b = rand([n, 3], 5);
        const x = triangularSolve(new Tensor(full, [n, n]), b, { lower, transpose });
        const op = transpose ? transposeM(matrixAt(t, 0, n, n)) : matrixAt(t, 0, n, n);
        expectClose(flat(naiveMatmul(op, matrixAt(x, 0, n, 3))), b.data as Float64Array, 1e-14);
      }
    }
  });

  it('broadcasts batches of a against b, and a vector b against a batch of a', () => {
    const a = triangular([2, 1, 4, 4], 1), b = rand([3, 4, 2], 2);
    const x = triangularSolve(a, b);
    expect(x.shape).toEqual([2, 3, 4, 2]);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 3; j++) {
        expectClose(flat(naiveMatmul(matrixAt(a, i, 4, 4), matrixAt(x, i * 3 + j, 4, 2))), flat(matrixAt(b, j, 4, 2)), 1e-14);
      }
    }
    const v = triangularSolve(a, [1, 2, 3, 4]);
    expect(v.shape).toEqual([2, 1, 4]);
    expectClose(flat(naiveMatmul(matrixAt(a, 1, 4, 4), matrixAt(v, 1, 4, 1))), [1, 2, 3, 4], 1e-14);
  });

  it('has gradients for a (its read triangle) and b, in every mode and with broadcasting', () => {
    const cases: [number[], number[]][] = [[[4, 4], [4]], [[4, 4], [4, 2]], [[2, 3, 3], [3]], [[3, 3], [2, 3, 2]], [[2, 1, 3, 3], [4, 3, 1]]];
    for (const lower of [true, false]) {
      for (const transpose of [false, true]) {
        cases.forEach(([sa, sb], i) => {
          const a = triangular(sa, 50 + i, lower), b = rand(sb, 60 + i);
          const opts = { lower, transpose };
          expect(gradError((t) => triangularSolve(t, b, opts), a)).toBeLessThan(GRAD_TOL);
          expect(gradError((t) => triangularSolve(a, t, opts), b)).toBeLessThan(GRAD_TOL);
        });
      }
    }
    const other = checkGradient((t) => sum(triangularSolve(t, [1, 2, 3])), triangular([3, 3], 7)).analytic;
    expect([other[1], other[2], other[5]]).toEqual([0, 0, 0]);   // the upper triangle is never read
  });

  it('rejects mismatched shapes naming both, and bad options', () => {
    expect(() => triangularSolve(eye(3), [1, 2])).toThrow(/triangularSolve: the shapes of `a` \[3, 3\] and `b` \[2\] do not match/);
    expect(() => triangularSolve(eye(3), rand([2, 3], 1))).toThrow(/`a` \[3, 3\] and `b` \[2, 3\]/);
    expect(() => triangularSolve(triangular([2, 3, 3], 1), rand([3, 3, 1], 2))).toThrow(/triangularSolve: the batch dimensions of `a` \[2, 3, 3\] and `b` \[3, 3, 1\] do not broadcast/);
    expect(() => triangularSolve(rand([3, 2], 1), [1, 2])).toThrow(/triangularSolve: `a` must be a square matrix/);
    expect(() => triangularSolve(eye(2), 1)).toThrow(RangeError);
    expect(() => triangularSolve(eye(2), [1, 2], { lower: 'yes' as never })).toThrow(/triangularSolve: `options.lower` must be a boolean/);
    expect(() => triangularSolve(eye(2), [1, 2], { transpose: 1 as never })).toThrow(TypeError);
    expect(() => triangularSolve(eye(2), [1, 2], null as never)).toThrow(/`options` must be an object/);
  });
});

describe('choleskySolve, logDet and inv', () => {
  const n = 6;
  const a = spd([n, n], 11);
  const am = matrixAt(a, 0, n, n);
  const ref = gauss(am, am.map((_, i) => am.map((__, j) => (i === j ? 1 : 0))));   // A⁻¹ and det A

  it('choleskySolve solves (L·Lᵀ)·x = b like Gaussian elimination, vector and matrix b', () => {
    const l = cholesky(a);
    const b = rand([n, 2], 12);
    expectClose(choleskySolve(l, b).data as Float64Array, flat(gauss(am, matrixAt(b, 0, n, 2)).x), 1e-13);
    const v = choleskySolve(l, [1, 2, 3, 4, 5, 6]);
    expect(v.shape).toEqual([n]);
    expectClose(flat(naiveMatmul(am, matrixAt(v, 0, n, 1))), [1, 2, 3, 4, 5, 6], 1e-13);
    expectClose(choleskySolve(cholesky([[4, 2], [2, 3]]), [6, 5]).data as Float64Array, [1, 1], 1e-15);
  });

  it('choleskySolve broadcasts batches', () => {
    const ab = spd([3, 1, 4, 4], 13), b = rand([2, 4, 3], 14);
    const x = choleskySolve(cholesky(ab), b);
    expect(x.shape).toEqual([3, 2, 4, 3]);
    expectClose(flat(naiveMatmul(matrixAt(ab, 2, 4, 4), matrixAt(x, 2 * 2 + 1, 4, 3))), flat(matrixAt(b, 1, 4, 3)), 1e-13);
  });

  it('logDet is log det A from the factor, per matrix of a batch', () => {
    expect(logDet(cholesky([[4, 12, -16], [12, 37, -43], [-16, -43, 98]])).item()).toBeCloseTo(Math.log(36), 14);
    expect(logDet(cholesky(a)).item()).toBeCloseTo(Math.log(ref.det), 12);
    const ab = spd([2, 3, 3], 15);
    const d = logDet(cholesky(ab));
    expect(d.shape).toEqual([2]);
    for (let q = 0; q < 2; q++) expect(d.data[q]).toBeCloseTo(Math.log(gauss(matrixAt(ab, q, 3, 3), [[0], [0], [0]]).det), 12);
  });

  it('inv inverts an SPD matrix like Gaussian elimination, and is symmetric', () => {
    const x = inv(a);
    expectClose(x.data as Float64Array, flat(ref.x), 1e-13);
    const xm = matrixAt(x, 0, n, n);
    expect(xm).toEqual(transposeM(xm));
    expectClose(flat(naiveMatmul(am, xm)), flat(matrixAt(eye(n), 0, n, n)), 1e-13);
    expectClose(inv([[4, 2], [2, 3]]).data as Float64Array, [0.375, -0.25, -0.25, 0.5], 1e-15);
    expect(inv(spd([2, 3, 3], 16)).shape).toEqual([2, 3, 3]);
  });

  it('have gradients, batched and broadcast', () => {
    const l = cholesky(a), b = rand([n, 2], 17);
    expect(gradError((t) => choleskySolve(t, b), l)).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => choleskySolve(l, t), b)).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => choleskySolve(l, t), rand([n], 18))).toBeLessThan(GRAD_TOL);
    const lb = cholesky(spd([2, 1, 3, 3], 19)), bb = rand([4, 3, 2], 20);
    expect(gradError((t) => choleskySolve(t, bb), lb)).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => choleskySolve(lb, t), bb)).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => choleskySolve(cholesky(gram(t)), bb), rand([2, 1, 3, 3], 21))).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => logDet(t), l)).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => logDet(cholesky(t)), spd([2, 4, 4], 22))).toBeLessThan(GRAD_TOL);
    // d log det A / dA = A⁻¹ for a symmetric A.
    const g = checkGradient((t) => logDet(cholesky(t)), a).analytic;
    expectClose(g, flat(ref.x), 1e-12);
    expect(gradError((t) => inv(t), spd([4, 4], 23))).toBeLessThan(GRAD_TOL);
    expect(gradError((t) => inv(gram(t)), rand([2, 3, 3], 24))).toBeLessThan(GRAD_TOL);
  });

  it('reject bad shapes naming both, and non-SPD input to inv', () => {
    expect(() => choleskySolve(eye(3), rand([4, 2], 1))).toThrow(/choleskySolve: the shapes of `l` \[3, 3\] and `b` \[4, 2\] do not match/);
    expect(() => choleskySolve(rand([2, 3, 3], 1), rand([3, 3, 2], 2))).toThrow(/choleskySolve: the batch dimensions of `l` \[2, 3, 3\] and `b` \[3, 3, 2\]/);
    expect(() => logDet(rand([3, 2], 1))).toThrow(/logDet: `l` must be a square matrix/);
    expect(() => inv([[1, 2], [2, 1]])).toThrow(/inv: `a` is not positive definite/);
    expect(() => inv(rand([2, 3], 1))).toThrow(/inv: `a` must be a square matrix.*\[2, 3\]/);
  });
});

// ---- eigh --------------------------------------------------------------------------------------

describe('eigh', () => {
  it('decomposes a 2×2 matrix and a matrix with known eigenvalues', () => {
    const { values, vectors } = eigh([[2, 1], [1, 2]]);
    expectClose(values.data as Float64Array, [1, 3], 1e-15);
    const r = Math.SQRT1_2;
    expectClose(vectors.data as Float64Array, [r, r, -r, r], 1e-15);
    // The tridiagonal [−1, 2, −1] matrix of order n has eigenvalues 2 − 2·cos(kπ/(n + 1)).
    const n = 7;
    const t = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (__, j) => (i === j ? 2 : Math.abs(i - j) === 1 ? -1 : 0)));
    const want = Array.from({ length: n }, (_, k) => 2 - 2 * Math.cos(((k + 1) * Math.PI) / (n + 1)));
    expectClose(eigh(t).values.data as Float64Array, want, 1e-14);
  });

  it('reconstructs V·diag(w)·Vᵀ = A with orthonormal V and ascending w, batched', () => {
    const n = 5;
    const a = rand([2, 3, n, n], 8);
    const { values, vectors } = eigh(a);
    expect(values.shape).toEqual([2, 3, n]);
    expect(vectors.shape).toEqual([2, 3, n, n]);
    for (let q = 0; q < 6; q++) {
      const v = matrixAt(vectors, q, n, n);
      const w = Array.from((values.data as Float64Array).subarray(q * n, q * n + n));
      for (let i = 1; i < n; i++) expect(w[i]!).toBeGreaterThanOrEqual(w[i - 1]!);
      const am = matrixAt(a, q, n, n);
      const sym = am.map((row, i) => row.map((x, j) => (x + am[j]![i]!) / 2));
      expectClose(flat(naiveMatmul(naiveMatmul(v, w.map((x, i) => w.map((_, j) => (i === j ? x : 0)))), transposeM(v))), flat(sym), 1e-14);
      expectClose(flat(naiveMatmul(transposeM(v), v)), flat(matrixAt(eye(n), 0, n, n)), 1e-14);
    }
  });

  it('has gradients for the eigenvalues and the eigenvectors, batched', () => {
    expect(gradError((a) => eigh(a).values, rand([5, 5], 9))).toBeLessThan(GRAD_TOL);
    expect(gradError((a) => eigh(a).values, rand([2, 4, 4], 10))).toBeLessThan(GRAD_TOL);
    expect(gradError((a) => eigh(a).vectors, rand([4, 4], 11))).toBeLessThan(GRAD_TOL);
    expect(gradError((a) => eigh(a).vectors, rand([3, 3, 3], 12))).toBeLessThan(GRAD_TOL);
    expect(checkGradient((a) => {
      const { values, vectors } = eigh(a);
      return add(sum(square(values)), sum(mul(vectors, rand([4, 4], 13))));
    }, rand([4, 4], 14)).maxRelativeError).toBeLessThan(GRAD_TOL);
  });

  it('rejects a non-square matrix', () => {
    expect(() => eigh(rand([2, 3], 1))).toThrow(/eigh: `a` must be a square matrix.*got shape \[2, 3\]/);
    expect(() => eigh(3)).toThrow(RangeError);
  });
});

// ---- a multivariate normal log density ---------------------------------------------------------

describe('multivariate normal log density through the ops', () => {
  /** −½(x−μ)ᵀΣ⁻¹(x−μ) − ½log|Σ| with Σ given directly. */
  const logDensity = (x: Tensor, mu: Tensor, sigma: Tensor): Tensor => {
    const l = cholesky(sigma);
    const z = triangularSolve(l, sub(x, mu));
    return sub(mul(-0.5, sum(square(z))), mul(0.5, logDet(l)));
  };

  it('matches Gaussian elimination in value and finite differences in gradient', () => {
    const n = 8;
    const sigma = spd([n, n], 30), x = rand([n], 31), mu = rand([n], 32);
    const sm = matrixAt(sigma, 0, n, n);
    const r = Array.from(x.data as Float64Array, (v, i) => v - (mu.data as Float64Array)[i]!);
    const { x: sr, det } = gauss(sm, r.map((v) => [v]));
    const want = -0.5 * r.reduce((s, v, i) => s + v * sr[i]![0]!, 0) - 0.5 * Math.log(det);
    const [value, grads] = valueAndGrad(logDensity, [0, 1, 2])(x, mu, sigma) as [Tensor, Tensor[]];
    expect(value.item()).toBeCloseTo(want, 12);
    expectClose(grads[0]!.data as Float64Array, sr.map((row) => -row[0]!), 1e-12);   // ∂/∂x = −Σ⁻¹(x − μ)
    expect(checkGradient((t) => logDensity(x, mu, t), sigma).maxRelativeError).toBeLessThan(GRAD_TOL);
    expect(checkGradient((t) => logDensity(x, t, sigma), mu).maxRelativeError).toBeLessThan(GRAD_TOL);
    // The same density through choleskySolve and dot.
    const viaSolve = (s: Tensor) => { const l = cholesky(s); const d = sub(x, mu); return sub(mul(-0.5, dot(d, choleskySolve(l, d))), mul(0.5, logDet(l))); };
    expect(viaSolve(sigma).item()).toBeCloseTo(want, 12);
    expect(checkGradient(viaSolve, sigma).maxRelativeError).toBeLessThan(GRAD_TOL);
  });
});
