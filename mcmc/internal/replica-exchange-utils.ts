/**
 * Array helpers for `ReplicaExchangeMC`: tensors of shape `[R, …batch, …event]` whose axis 0
 * indexes replicas, swapped by a "once-only" permutation `swaps` of shape `[R, …batch]`.
 */
import { KeyArray } from '../../src/random/key-array.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** Left-justified broadcast of `t` (shape `[R, …b]`, b a prefix of `shape`'s tail) to `shape`, as float64 values. */
export function leftBroadcast(fn: string, arg: string, t: Tensor, shape: readonly number[]): Float64Array {
  const ok = t.shape.length <= shape.length && t.shape.every((d, i) => d === shape[i] || d === 1);
  if (!ok) throw new RangeError(`${fn}: \`${arg}\` of shape [${t.shape.join(', ')}] must line up with the leading dims of [${shape.join(', ')}] (replicas first)`);
  const size = sizeOf(shape);
  const out = new Float64Array(size);
  const src = t.data as ArrayLike<number | bigint>;
  // Strides of t within `shape` (0 along broadcast dims and the dims t does not have).
  const strides = new Array<number>(shape.length).fill(0);
  let st = 1;
  for (let i = t.shape.length - 1; i >= 0; i--) { strides[i] = t.shape[i] === 1 ? 0 : st; st *= t.shape[i]!; }
  const idx = new Array<number>(shape.length).fill(0);
  for (let k = 0; k < size; k++) {
    let off = 0;
    for (let i = 0; i < shape.length; i++) off += idx[i]! * strides[i]!;
    out[k] = Number(src[off]!);
    for (let i = shape.length - 1; i >= 0; i--) { if (++idx[i]! < shape[i]!) break; idx[i] = 0; }
  }
  return out;
}

/**
 * `out[k, b, …e] = mask[k, b] ? x[swaps[k, b], b, …e] : x[k, b, …e]` (TFP's `choose` over
 * `index_remapping_gather` along axis 0); `swaps` and `mask` have `R·B` entries.
 */
export function swapReplicas(x: Tensor, swaps: Int32Array, mask: Uint8Array, numReplica: number): Tensor {
  const B = swaps.length / numReplica, inner = x.size / swaps.length;
  const src = x.data as Float64Array;
  const out = src.slice(0) as Float64Array;
  for (let k = 0; k < numReplica; k++) {
    for (let b = 0; b < B; b++) {
      const i = k * B + b;
      if (!mask[i]) continue;
      const from = (swaps[i]! * B + b) * inner, to = i * inner;
      for (let e = 0; e < inner; e++) out[to + e] = src[from + e]!;
    }
  }
  return new Tensor(out as never, x.shape, x.dtype);
}

/** `out[i, j, b] = (before[j, b] === after[i, b])`, shape `[R, R, …batch]` (TFP's `_compute_swap_notmatrix`). */
export function swapNotMatrix(before: Int32Array, after: Int32Array, numReplica: number, batchShape: readonly number[]): Tensor {
  const B = before.length / numReplica;
  const out = new Uint8Array(numReplica * numReplica * B);
  for (let i = 0; i < numReplica; i++) {
    for (let j = 0; j < numReplica; j++) {
      for (let b = 0; b < B; b++) out[(i * numReplica + j) * B + b] = before[j * B + b] === after[i * B + b] ? 1 : 0;
    }
  }
  return new Tensor(out, [numReplica, numReplica, ...batchShape], 'bool');
}

/** The first sub-diagonal `m[k + 1, k, …]` of a `[R, R, …batch]` matrix: shape `[R − 1, …batch]` (`[0, …batch]` when R < 2). */
export function subDiag(m: Tensor, numReplica: number): Tensor {
  const batch = m.shape.slice(2), B = sizeOf(batch);
  const n = Math.max(numReplica - 1, 0);
  const out = new Uint8Array(n * B), src = m.data as Uint8Array;
  for (let k = 0; k < n; k++) for (let b = 0; b < B; b++) out[k * B + b] = src[((k + 1) * numReplica + k) * B + b]!;
  return new Tensor(out, [n, ...batch], 'bool');
}

/**
 * A copy of a results tree with every float tensor filled with NaN and every number set to NaN
 * (other values kept): what `ReplicaExchangeMC` puts in fields that have no meaning after a swap.
 */
export function nanLike(x: unknown): unknown {
  if (x instanceof Tensor) {
    if (x.dtype === 'float64') return new Tensor(new Float64Array(x.size).fill(Number.NaN), x.shape, 'float64');
    if (x.dtype === 'float32') return new Tensor(new Float32Array(x.size).fill(Number.NaN), x.shape, 'float32');
    return x;
  }
  if (typeof x === 'number') return Number.NaN;
  if (Array.isArray(x)) return x.map(nanLike);
  if (x !== null && typeof x === 'object' && !(x instanceof KeyArray)) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, nanLike(v)]));
  }
  return x;
}
