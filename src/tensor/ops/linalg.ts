/**
 * Differentiable linear algebra on symmetric positive-definite and triangular matrices, in
 * float64: `cholesky`, `triangularSolve`, `choleskySolve`, `logDet` (from a Cholesky factor) and
 * `inv` (via Cholesky). Every op works on a matrix [n, n] or a batch of them [..., n, n], with
 * batch dimensions broadcast between the operands of a solve. Products are in `matmul.ts`, the
 * symmetric eigendecomposition in `eigh.ts`, the kernels in `../linalg-kernels.ts`.
 *
 * @example
 * // A multivariate normal log density, −½(x−μ)ᵀΣ⁻¹(x−μ) − ½log|Σ| (without −(n/2)·log 2π):
 * const l = cholesky(sigma);
 * const z = triangularSolve(l, sub(x, mu));
 * const lp = sub(mul(-0.5, sum(square(z))), mul(0.5, logDet(l)));
 */
import { checkBoolean, fail } from '../../checks.js';
import { applyLowering, asTensor, type TensorLike } from '../core.js';
import { choleskyBackward, choleskyInto, choleskySolveGradL, gemm, symmetrizeInto, trsm, trsmGradT } from '../linalg-kernels.js';
import { kernelFactory, type Flat, type Lowering } from '../lowering.js';
import type { Tensor } from '../tensor.js';
import { batchIndex, batchPlan, squareSize, type BatchPlan } from './linalg-batch.js';
import { detLog } from '../../math/index.js';
import { showShape, sizeOf } from '../shapes.js';

/**
 * Float64 working storage for an op's output of `size` values: the output itself when it is
 * float64, otherwise one scratch array (allocated on first use, then reused). The backward pass
 * calls it with the same output to read back the float64 values its forward pass left there.
 */
function float64Work(size: number): (out: ArrayLike<number>) => Float64Array {
  let scratch: Float64Array | undefined;
  return (out) => (out instanceof Float64Array ? out : (scratch ??= new Float64Array(size)));
}

/** Copies float64 working values into the output (rounding them when the output is float32). */
function store(work: Float64Array, out: Flat): void {
  if (work !== out) for (let i = 0; i < work.length; i++) out[i] = work[i]!;
}

/**
 * Factors the symmetric part of each matrix of `av` into `l` (zeroed storage), in place: the lower
 * triangle of (A + Aᵀ)/2 is written into `l` and factored there. Throws naming `fn` and `arg`.
 */
function factor(fn: string, arg: string, av: ArrayLike<number>, n: number, batch: readonly number[], l: Float64Array): void {
  const nn = n * n;
  for (let q = 0, count = sizeOf(batch); q < count; q++) {
    const o = q * nn;
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) l[o + i * n + j] = 0.5 * (av[o + i * n + j]! + av[o + j * n + i]!);
    const j = choleskyInto(l, o, n, l, o);
    if (j < 0) continue;
    let finite = true;
    for (let i = 0; i < nn; i++) if (!Number.isFinite(av[o + i]!)) finite = false;
    const where = batch.length > 0 ? `in matrix ${batchIndex(batch, q)} of the batch, ` : '';
    const why = finite ? `its leading ${j + 1}×${j + 1} minor is not positive` : 'it has a non-finite entry';
    throw new RangeError(`${fn}: \`${arg}\` is not positive definite (${where}${why})`);
  }
}

/**
 * The lower-triangular Cholesky factor L of a symmetric positive-definite matrix, A = L·Lᵀ, for a
 * matrix [n, n] or each matrix of a batch [..., n, n]. As in JAX, the factor is that of the
 * symmetric part (A + Aᵀ)/2, so the gradient is symmetric; for a symmetric input this is A
 * itself. The gradient is the standard Cholesky backward formula (Murray 2016; Seeger et al.
 * 2017), O(n³).
 *
 * @throws RangeError if `a` is not square, or is not positive definite (the message says which
 *   leading minor fails, and in which matrix of a batch).
 * @example
 * cholesky([[4, 12, -16], [12, 37, -43], [-16, -43, 98]]).toArray();
 * // [[2, 0, 0], [6, 1, 0], [-8, 5, 3]]
 */
export function cholesky(aLike: TensorLike): Tensor {
  const fn = 'cholesky';
  const a = asTensor(fn, 'a', aLike);
  const n = squareSize(fn, 'a', a);
  return applyLowering(choleskyLowering(n, a.shape.slice(0, -2)), [a], a.shape, a.size);
}

/** cholesky's kernel for a batch of n×n matrices. */
const choleskyLowering = kernelFactory('cholesky', (n: number, batch: readonly number[]): Lowering => {
  const nn = n * n, count = sizeOf(batch);
  const work = float64Work(count * nn);
  return {
    name: 'cholesky',
    forward(ins, out) {
      const l = work(out);
      l.fill(0);
      factor('cholesky', 'a', ins[0]!, n, batch, l);
      store(l, out);
    },
    backward(g, _ins, out, parts) {
      const l = work(out), ga = parts[0];
      if (!ga) return;
      ga.fill(0);
      for (let q = 0; q < count; q++) choleskyBackward(l, q * nn, n, g, q * nn, ga, q * nn);
    },
  };
});

/** Shapes of a solve with the n×n matrices `a` and a right-hand side `b` (a vector [n], or [..., n, m]). */
interface SolveShapes {
  readonly n: number;
  /** Columns of the right-hand side (1 for a vector). */
  readonly m: number;
  readonly plan: BatchPlan;
  readonly shape: number[];
}

function solveShapes(fn: string, aName: string, a: Tensor, b: Tensor): SolveShapes {
  const n = squareSize(fn, aName, a);
  const both = `\`${aName}\` ${showShape(a.shape)} and \`b\` ${showShape(b.shape)}`;
  const vector = b.ndim === 1;
  const rows = vector ? b.shape[0] : b.shape[b.ndim - 2];
  if (rows !== n) throw new RangeError(`${fn}: the shapes of ${both} do not match: \`b\` must be a vector [${n}] or have ${n} rows [..., ${n}, m]`);
  const m = vector ? 1 : b.shape[b.ndim - 1]!;
  const plan = batchPlan(a.shape.slice(0, -2), vector ? [] : b.shape.slice(0, -2));
  if (plan === null) throw new RangeError(`${fn}: the batch dimensions of ${both} do not broadcast together`);
  return { n, m, plan, shape: [...plan.shape, n, ...(vector ? [] : [m])] };
}

/** Copies the right-hand side of each solve of the batch into `x` (one n×m block per solve). */
function gatherRhs(bv: ArrayLike<number>, { n, m, plan }: SolveShapes, x: Float64Array): void {
  const s = n * m;
  for (let q = 0; q < plan.size; q++) for (let i = 0, o = plan.ib[q]! * s; i < s; i++) x[q * s + i] = bv[o + i]!;
}

/** Sums each solve's adjoint of the right-hand side into `gb`, of `b`'s shape (over broadcast batches). */
function scatterRhs(gx: Float64Array, { n, m, plan }: SolveShapes, gb: Float64Array): void {
  const s = n * m;
  gb.fill(0);
  for (let q = 0; q < plan.size; q++) for (let i = 0, o = plan.ib[q]! * s; i < s; i++) gb[o + i]! += gx[q * s + i]!;
}

/**
 * A solve x = op(A)⁻¹·b over the batch as a lowering: `solve(av, x)` overwrites the gathered
 * right-hand sides with the solutions (and, in the backward pass, b̄ = op(A)⁻ᵀ·x̄ with
 * `adjoint`), `gradA` adds ā for one matrix of the batch into zeroed storage.
 */
function solveOp(
  fn: string, s: SolveShapes, solve: (av: ArrayLike<number>, x: Float64Array) => void, adjoint: (av: ArrayLike<number>, x: Float64Array) => void,
  gradA: (av: ArrayLike<number>, x: Float64Array, gx: Float64Array, q: number, ga: Float64Array) => void,
): Lowering {
  const size = s.plan.size * s.n * s.m;
  const work = float64Work(size);
  let gxs: Float64Array | undefined;
  return {
    name: fn,
    forward(ins, out) {
      const x = work(out);
      gatherRhs(ins[1]!, s, x);
      solve(ins[0]!, x);
      store(x, out);
    },
    backward(g, ins, out, parts) {
      const av = ins[0]!, x = work(out), ga = parts[0], gb = parts[1];
      const gx = (gxs ??= new Float64Array(size));
      gx.set(g);
      adjoint(av, gx);
      if (ga) {
        ga.fill(0);
        for (let q = 0; q < s.plan.size; q++) gradA(av, x, gx, q, ga);
      }
      if (gb) scatterRhs(gx, s, gb);
    },
  };
}

/** Options of `triangularSolve`. */
export interface TriangularSolveOptions {
  /** Use the lower triangle of `a` (default true); otherwise the upper. The other triangle is not read. */
  readonly lower?: boolean;
  /** Solve aᵀ·x = b instead of a·x = b (default false). */
  readonly transpose?: boolean;
}

/**
 * Solves a·x = b (or aᵀ·x = b with `transpose`) for a triangular `a` by substitution, reading only
 * the `lower` (default) or upper triangle of `a`. `a` is [n, n] or a batch [..., n, n]; `b` is a
 * vector [n] (the result then has shape [..., n]) or a matrix [..., n, m] of right-hand sides,
 * its batch dimensions broadcast against a's. Gradients flow to both (only to `a`'s read
 * triangle). A zero on a's diagonal gives infinities or NaN, as LAPACK's trsm does.
 *
 * @throws RangeError if `a` is not square or b's rows do not match (the message gives both shapes).
 * @example
 * triangularSolve([[2, 0], [1, 1]], [4, 5]).toArray();                     // [2, 3]
 * triangularSolve([[2, 0], [1, 1]], [4, 5], { transpose: true }).toArray(); // [-0.5, 5]
 */
export function triangularSolve(aLike: TensorLike, bLike: TensorLike, options: TriangularSolveOptions = {}): Tensor {
  const fn = 'triangularSolve';
  if (typeof options !== 'object' || options === null) fail('type', fn, 'options', 'must be an object', options);
  const lower = options.lower === undefined ? true : checkBoolean(fn, 'options.lower', options.lower);
  const transpose = options.transpose === undefined ? false : checkBoolean(fn, 'options.transpose', options.transpose);
  const a = asTensor(fn, 'a', aLike), b = asTensor(fn, 'b', bLike);
  const s = solveShapes(fn, 'a', a, b);
  return applyLowering(triangularSolveLowering(s, lower, transpose), [a, b], s.shape, s.plan.size * s.n * s.m);
}

/** triangularSolve's kernel for the solves `s`. */
const triangularSolveLowering = kernelFactory('triangularSolve', (s: SolveShapes, lower: boolean, transpose: boolean): Lowering => {
  const { n, m, plan } = s, nn = n * n, nm = n * m;
  const sweep = (trans: boolean) => (av: ArrayLike<number>, x: Float64Array) => {
    for (let q = 0; q < plan.size; q++) trsm(av, plan.ia[q]! * nn, n, lower, trans, x, q * nm, m);
  };
  // b̄ = op(a)⁻ᵀ·x̄;  ā = −b̄·xᵀ (or −x·b̄ᵀ when transposed) on the read triangle.
  return solveOp('triangularSolve', s, sweep(transpose), sweep(!transpose), (_av, x, gx, q, ga) => {
    trsmGradT(n, m, lower, transpose, x, gx, q * nm, ga, plan.ia[q]! * nn);
  });
});

/**
 * Solves (L·Lᵀ)·x = b given the Cholesky factor `l` of the matrix (two triangular solves),
 * reading only the lower triangle of `l`. Shapes as in `triangularSolve`: `l` is [n, n] or
 * [..., n, n]; `b` is a vector [n] or a matrix [..., n, m], batch dimensions broadcast.
 * Gradients flow to both: b̄ = (L·Lᵀ)⁻¹·x̄ and L̄ = −tril((b̄·xᵀ + x·b̄ᵀ)·L).
 *
 * @throws RangeError if `l` is not square or b's rows do not match (the message gives both shapes).
 * @example
 * const l = cholesky([[4, 2], [2, 3]]);
 * choleskySolve(l, [6, 5]).toArray();   // ≈ [1, 1]
 */
export function choleskySolve(lLike: TensorLike, bLike: TensorLike): Tensor {
  const fn = 'choleskySolve';
  const l = asTensor(fn, 'l', lLike), b = asTensor(fn, 'b', bLike);
  const s = solveShapes(fn, 'l', l, b);
  return applyLowering(choleskySolveLowering(s), [l, b], s.shape, s.plan.size * s.n * s.m);
}

/** choleskySolve's kernel for the solves `s`. */
const choleskySolveLowering = kernelFactory('choleskySolve', (s: SolveShapes): Lowering => {
  const { n, m, plan } = s, nn = n * n, nm = n * m;
  const solve = (lv: ArrayLike<number>, x: Float64Array) => {
    for (let q = 0; q < plan.size; q++) {
      trsm(lv, plan.ia[q]! * nn, n, true, false, x, q * nm, m);
      trsm(lv, plan.ia[q]! * nn, n, true, true, x, q * nm, m);
    }
  };
  return solveOp('choleskySolve', s, solve, solve, (lv, x, gx, q, gl) => {
    choleskySolveGradL(lv, plan.ia[q]! * nn, n, m, x, gx, q * nm, gl, plan.ia[q]! * nn);
  });
});

/**
 * log det(L·Lᵀ) = 2·Σᵢ log|Lᵢᵢ| from a Cholesky factor `l` [n, n] (a scalar) or a batch
 * [..., n, n] (one value per matrix). Only the diagonal is read, so any triangular factor works.
 *
 * @throws RangeError if `l` is not square.
 * @example
 * logDet(cholesky([[4, 2], [2, 3]])).item();   // ≈ Math.log(8) = 2.0794…
 */
export function logDet(lLike: TensorLike): Tensor {
  const fn = 'logDet';
  const l = asTensor(fn, 'l', lLike);
  const n = squareSize(fn, 'l', l);
  const batch = l.shape.slice(0, -2);
  return applyLowering(logDetLowering(n, sizeOf(batch)), [l], batch, sizeOf(batch));
}

/** logDet's kernel for `count` n×n factors. */
const logDetLowering = kernelFactory('logDet', (n: number, count: number): Lowering => {
  const nn = n * n;
  return {
    name: 'logDet',
    forward(ins, out) {
      const lv = ins[0]!;
      for (let q = 0; q < count; q++) {
        let s = 0;
        for (let i = 0; i < n; i++) s += detLog(Math.abs(lv[q * nn + i * (n + 1)]!));
        out[q] = 2 * s;
      }
    },
    backward(g, ins, _out, parts) {
      const lv = ins[0]!, gl = parts[0];
      if (!gl) return;
      gl.fill(0);
      for (let q = 0; q < count; q++) for (let i = 0; i < n; i++) gl[q * nn + i * (n + 1)] = (2 * g[q]!) / lv[q * nn + i * (n + 1)]!;
    },
  };
});

/**
 * The inverse of a symmetric positive-definite matrix [n, n] (or of each matrix of a batch
 * [..., n, n]), computed through its Cholesky factor: only for SPD matrices. Like `cholesky`, it
 * inverts the symmetric part (A + Aᵀ)/2; the result is symmetric. Gradient: Ā = −sym(X·X̄·X)
 * with X = A⁻¹. To solve a system, prefer `choleskySolve(cholesky(a), b)`, which is cheaper and
 * more accurate than multiplying by the inverse.
 *
 * @throws RangeError if `a` is not square or not positive definite.
 * @example
 * inv([[4, 2], [2, 3]]).toArray();   // ≈ [[0.375, -0.25], [-0.25, 0.5]]
 */
export function inv(aLike: TensorLike): Tensor {
  const fn = 'inv';
  const a = asTensor(fn, 'a', aLike);
  const n = squareSize(fn, 'a', a);
  return applyLowering(invLowering(n, a.shape.slice(0, -2)), [a], a.shape, a.size);
}

/** inv's kernel for a batch of n×n matrices. */
const invLowering = kernelFactory('inv', (n: number, batch: readonly number[]): Lowering => {
  const nn = n * n, count = sizeOf(batch);
  const l = new Float64Array(count * nn);
  const work = float64Work(count * nn);
  let t: Float64Array | undefined, u: Float64Array | undefined;
  return {
    name: 'inv',
    forward(ins, out) {
      l.fill(0);
      factor('inv', 'a', ins[0]!, n, batch, l);
      const x = work(out);
      x.fill(0);
      for (let q = 0; q < count; q++) {
        const o = q * nn;
        for (let i = 0; i < n; i++) x[o + i * (n + 1)] = 1;
        trsm(l, o, n, true, false, x, o, n);
        trsm(l, o, n, true, true, x, o, n);
        symmetrizeInto(x, o, n, x, o);
      }
      store(x, out);
    },
    backward(g, _ins, out, parts) {
      const x = work(out), ga = parts[0];
      if (!ga) return;
      t ??= new Float64Array(nn);
      u ??= new Float64Array(nn);
      for (let q = 0; q < count; q++) {
        const o = q * nn;
        t.fill(0); u.fill(0);
        gemm(n, n, n, x, o, n, 1, g, o, n, 1, t, 0, n);   // X·X̄
        gemm(n, n, n, t, 0, n, 1, x, o, n, 1, u, 0, n);   // (X·X̄)·X
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) ga[o + i * n + j] = -0.5 * (u[i * n + j]! + u[j * n + i]!);
      }
    },
  };
});
