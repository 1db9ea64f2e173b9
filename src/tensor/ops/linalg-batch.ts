/**
 * Shape handling shared by the linear-algebra ops (`matmul.ts`, `linalg.ts`, `eigh.ts`): square
 * matrix checks, broadcasting of leading batch dimensions, and float32/float64 output storage.
 */
import { broadcastStrides, forEachBroadcast } from '../broadcast.js';
import type { FloatKind } from '../core.js';
import { showShape, sizeOf } from '../shapes.js';
import type { Tensor } from '../tensor.js';

/** A shape as it appears in messages: `[2, 3]`. */
/** n for a square matrix or a batch of them (shape [..., n, n]), or a RangeError naming `fn` and `arg`. */
export function squareSize(fn: string, arg: string, t: Tensor): number {
  const n = t.shape[t.ndim - 1]!;
  if (t.ndim < 2 || t.shape[t.ndim - 2] !== n) {
    throw new RangeError(`${fn}: \`${arg}\` must be a square matrix or a batch of them (shape [..., n, n]); got shape ${showShape(t.shape)}`);
  }
  return n;
}

/** How two batches of matrices pair up under broadcasting of their leading dimensions. */
export interface BatchPlan {
  /** The broadcast batch shape. */
  readonly shape: number[];
  /** Number of matrices in the broadcast batch. */
  readonly size: number;
  /** For each output matrix k, the index of the matrix of the first and second operand. */
  readonly ia: Int32Array;
  readonly ib: Int32Array;
}

/** Broadcasts two batch shapes by NumPy's rules; null when they do not broadcast (the caller names both shapes). */
export function batchPlan(batchA: readonly number[], batchB: readonly number[]): BatchPlan | null {
  const nd = Math.max(batchA.length, batchB.length);
  const shape = new Array<number>(nd);
  for (let i = 0; i < nd; i++) {
    const da = batchA[i - nd + batchA.length] ?? 1, db = batchB[i - nd + batchB.length] ?? 1;
    if (da !== db && da !== 1 && db !== 1) return null;
    shape[i] = da === 1 ? db : da;
  }
  const size = sizeOf(shape);
  const ia = new Int32Array(size), ib = new Int32Array(size);
  if (nd === 0) return { shape, size, ia, ib };
  forEachBroadcast(shape, broadcastStrides(batchA, shape), broadcastStrides(batchB, shape), (k, i, j) => { ia[k] = i; ib[k] = j; });
  return { shape, size, ia, ib };
}

/** The position of matrix `k` in a batch of `shape`, for messages: `[1, 0]`. */
export function batchIndex(shape: readonly number[], k: number): string {
  const idx = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) { idx[d] = k % shape[d]!; k = Math.floor(k / shape[d]!); }
  return showShape(idx);
}

/** Float64 working values as the op's output storage (rounded to float32 when every input was float32). */
export function storeAs(kind: FloatKind, work: Float64Array): Float64Array | Float32Array {
  return kind === 'float64' ? work : Float32Array.from(work);
}
