/**
 * Matrix products with NumPy's semantics and reverse-mode gradients: `matmul` (batched, with
 * broadcasting of the leading dimensions) and `dot`. Values are computed in float64.
 *
 * @example
 * matmul([[1, 2], [3, 4]], [5, 6]).toArray();   // [17, 39]
 * dot([1, 2, 3], [4, 5, 6]).item();             // 32
 */
import { applyLowering, asTensor, type TensorLike } from '../core.js';
import { gemm } from '../linalg-kernels.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import { showShape, sizeOf } from '../shapes.js';
import type { Tensor } from '../tensor.js';
import { mul } from './elementwise.js';
import { batchPlan, type BatchPlan } from './linalg-batch.js';

/**
 * The matrix product a·b with NumPy's `matmul` rules: operands of shape [..., m, k] and
 * [..., k, n] give [..., m, n], with the leading (batch) dimensions broadcast against each other.
 * A 1-D `a` of length k acts as a 1×k row and a 1-D `b` as a k×1 column, and the added dimension
 * is removed from the result (so vector·vector is a scalar of shape []). Gradients flow to both
 * operands, summed over broadcast batch dimensions.
 *
 * @param a - a vector [k], a matrix [m, k] or a batch of matrices [..., m, k].
 * @param b - a vector [k], a matrix [k, n] or a batch of matrices [..., k, n].
 * @throws RangeError if an operand is a scalar, if the inner dimensions differ, or if the batch
 *   dimensions do not broadcast (the message gives both shapes).
 * @example
 * matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]]).toArray();   // [[19, 22], [43, 50]]
 * matmul(zeros([10, 1, 2, 3]), zeros([4, 3, 5])).shape;    // [10, 4, 2, 5]
 */
export function matmul(aLike: TensorLike, bLike: TensorLike): Tensor {
  const fn = 'matmul';
  const a = asTensor(fn, 'a', aLike), b = asTensor(fn, 'b', bLike);
  const both = `\`a\` ${showShape(a.shape)} and \`b\` ${showShape(b.shape)}`;
  if (a.ndim === 0 || b.ndim === 0) throw new RangeError(`${fn}: ${both} must each have at least one dimension (use mul for scalars)`);
  const m = a.ndim === 1 ? 1 : a.shape[a.ndim - 2]!, k = a.shape[a.ndim - 1]!;
  const kb = b.ndim === 1 ? b.shape[0]! : b.shape[b.ndim - 2]!, n = b.ndim === 1 ? 1 : b.shape[b.ndim - 1]!;
  if (k !== kb) throw new RangeError(`${fn}: the inner dimensions of ${both} do not match (${k} ≠ ${kb})`);
  const plan = batchPlan(a.shape.slice(0, -2), b.shape.slice(0, -2));
  if (plan === null) throw new RangeError(`${fn}: the batch dimensions of ${both} do not broadcast together`);
  const shape = [...plan.shape, ...(a.ndim === 1 ? [] : [m]), ...(b.ndim === 1 ? [] : [n])];
  const inner = plan.size === 1 && a.ndim === 2 && b.ndim === 1 ? k : undefined;
  return applyLowering(matmulLowering(m, n, k, plan, inner), [a, b], shape, plan.size * m * n);
}

/** matmul's kernel for the batch `plan` of m×k by k×n products (made by a named factory: a compiled model's workers make it again from its arguments). */
const matmulLowering = kernelFactory('matmul', (m: number, n: number, k: number, plan: BatchPlan, matvecInner: number | undefined): Lowering => {
  const { ia, ib } = plan;
  const sa = m * k, sb = k * n, so = m * n;
  return product('matmul', plan.size * so, matvecInner, (av, bv, work) => {
    for (let q = 0; q < plan.size; q++) gemm(m, n, k, av, ia[q]! * sa, k, 1, bv, ib[q]! * sb, n, 1, work, q * so, n);
  }, (g, av, bv, ga, gb) => {
    for (let q = 0; q < plan.size; q++) {
      if (ga !== null) gemm(m, k, n, g, q * so, n, 1, bv, ib[q]! * sb, 1, n, ga, ia[q]! * sa, k);   // G·Bᵀ
      if (gb !== null) gemm(k, n, m, av, ia[q]! * sa, 1, k, g, q * so, n, 1, gb, ib[q]! * sb, n);   // Aᵀ·G
    }
  });
});

/**
 * The dot product with NumPy's `dot` rules: for vectors the inner product (a scalar), for
 * matrices the matrix product; a scalar operand multiplies element-wise; an N-D `a` with a 1-D
 * `b` sums over the last axis of both; an N-D `a` with an M-D `b` (M ≥ 2) sums the last axis of
 * `a` against the second-to-last of `b`: dot(a, b)[i, j, k, m] = Σₜ a[i, j, t]·b[k, t, m].
 * Unlike `matmul`, leading dimensions are not broadcast but combined (an outer product).
 *
 * @throws RangeError if the summed dimensions differ (the message gives both shapes).
 * @example
 * dot([1, 2, 3], [4, 5, 6]).item();               // 32
 * dot([[1, 0], [0, 2]], [[1, 2], [3, 4]]).toArray(); // [[1, 2], [6, 8]]
 * dot(zeros([2, 3, 4]), zeros([5, 4, 6])).shape;  // [2, 3, 5, 6]
 */
export function dot(aLike: TensorLike, bLike: TensorLike): Tensor {
  const fn = 'dot';
  const a = asTensor(fn, 'a', aLike), b = asTensor(fn, 'b', bLike);
  if (a.ndim === 0 || b.ndim === 0) return mul(a, b);
  const k = a.shape[a.ndim - 1]!;
  const kb = b.ndim === 1 ? b.shape[0]! : b.shape[b.ndim - 2]!;
  if (k !== kb) {
    const which = b.ndim === 1 ? 'last' : 'second-to-last';
    throw new RangeError(`${fn}: the last dimension of \`a\` ${showShape(a.shape)} and the ${which} dimension of \`b\` ${showShape(b.shape)} differ (${k} ≠ ${kb})`);
  }
  // out[p, q, j] = Σₜ a[p, t]·b[q, t, j] with p over a's leading axes and q over b's (n = 1 for a vector b).
  const p = sizeOf(a.shape.slice(0, -1));
  const n = b.ndim === 1 ? 1 : b.shape[b.ndim - 1]!;
  const q = b.ndim === 1 ? 1 : sizeOf(b.shape.slice(0, -2));
  const shape = [...a.shape.slice(0, -1), ...(b.ndim === 1 ? [] : [...b.shape.slice(0, -2), n])];
  return applyLowering(dotLowering(p, n, k, q, a.ndim === 2 && b.ndim === 1 ? k : undefined), [a, b], shape, p * q * n);
}

/** dot's kernel (made by a named factory: a compiled model's workers make it again from its arguments). */
const dotLowering = kernelFactory('dot', (p: number, n: number, k: number, q: number, matvecInner: number | undefined): Lowering => {
  const row = q * n, sb = k * n;
  return product('dot', p * row, matvecInner, (av, bv, work) => {
    for (let j = 0; j < q; j++) gemm(p, n, k, av, 0, k, 1, bv, j * sb, n, 1, work, j * n, row);
  }, (g, av, bv, ga, gb) => {
    for (let j = 0; j < q; j++) {
      if (ga !== null) gemm(p, k, n, g, j * n, row, 1, bv, j * sb, 1, n, ga, 0, k);       // Σⱼ G_q·B_qᵀ
      if (gb !== null) gemm(k, n, p, av, 0, 1, k, g, j * n, row, 1, gb, j * sb, n);       // Aᵀ·G_q
    }
  });
});

/**
 * A product a·b as a lowering whose arithmetic lives in two accumulating kernels: `forward` adds the
 * product into zeroed float64 `work` (the output, or a scratch array when the output is
 * float32), `backward` adds the adjoints into zeroed `ga` and `gb` (null: not needed). The eager
 * value and gradient run the same lowering the compiler records. `matvecInner`: set for a
 * matrix [rows, inner] times a vector.
 */
function product(
  name: string, size: number, matvecInner: number | undefined,
  forward: (av: ArrayLike<number>, bv: ArrayLike<number>, work: Float64Array) => void,
  backward: (g: Float64Array, av: ArrayLike<number>, bv: ArrayLike<number>, ga: Float64Array | null, gb: Float64Array | null) => void,
): Lowering {
  let scratch: Float64Array | undefined;
  const op: Lowering = {
    name,
    // A matrix times a vector: the compiler may write it inline (its kernels' order of sums).
    ...(matvecInner === undefined ? {} : { elementwise: { kind: 'matvec' as const, inner: matvecInner } }),
    forward(ins, out) {
      const work = out instanceof Float64Array ? out : (scratch ??= new Float64Array(size));
      work.fill(0);
      forward(ins[0]!, ins[1]!, work);
      if (work !== out) for (let i = 0; i < size; i++) out[i] = work[i]!;
    },
    backward(g, ins, _out, parts) {
      const ga = parts[0] ?? null, gb = parts[1] ?? null;
      ga?.fill(0);
      gb?.fill(0);
      backward(g, ins[0]!, ins[1]!, ga, gb);
    },
  };
  return op;
}
