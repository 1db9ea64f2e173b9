/**
 * Helpers for distributions parameterized by a probability vector given as `logits` or `probs`
 * along the last axis (Categorical, OneHotCategorical, Multinomial): the normalized rows, and
 * the chain rule from ∂F/∂q (q the normalized probabilities, treated as free) to the gradient
 * in the raw parameter, so each row-wise method is one tape node with analytic partials.
 */
import { broadcastData, broadcastShapes } from '../../src/tensor/broadcast.js';
import { numbers } from '../../src/tensor/core.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { detExp, detLog } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

/** The rows of a `[..., K]` logits or probs parameter, normalized. */
export interface SimplexRows {
  /** Classes per row. */
  readonly k: number;
  /** Number of rows (∏ batch). */
  readonly rows: number;
  /** True when the parameter is logits (else unnormalized probs). */
  readonly isLogits: boolean;
  /** Normalized log-probabilities, rows × k. */
  readonly logq: Float64Array;
  /** Normalized probabilities, rows × k. */
  readonly q: Float64Array;
  /** Σ probs per row (1 for logits; used by the probs chain rule). */
  readonly total: Float64Array;
}

/** Normalizes each row: q = softmax(logits), or probs / Σ probs. */
export function simplexRows(param: Tensor, isLogits: boolean): SimplexRows {
  const k = param.shape[param.ndim - 1]!;
  const v = numbers(param);
  const rows = k === 0 ? 0 : v.length / k;
  const logq = new Float64Array(rows * k), q = new Float64Array(rows * k), total = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const o = r * k;
    if (isLogits) {
      let m = -Infinity;
      for (let j = 0; j < k; j++) m = Math.max(m, v[o + j]!);
      let s = 0;
      for (let j = 0; j < k; j++) s += detExp(v[o + j]! - m);
      const lse = m + detLog(s);
      for (let j = 0; j < k; j++) { logq[o + j] = v[o + j]! - lse; q[o + j] = detExp(logq[o + j]!); }
      total[r] = 1;
    } else {
      let s = 0;
      for (let j = 0; j < k; j++) s += v[o + j]!;
      const ls = detLog(s);
      for (let j = 0; j < k; j++) { q[o + j] = v[o + j]! / s; logq[o + j] = detLog(v[o + j]!) - ls; }
      total[r] = s;
    }
  }
  return { k, rows, isLogits, logq, q, total };
}

/**
 * Adds g · ∂F/∂param[row, ·] into `grad` (rows × k), given h = ∂F/∂q for that row:
 * for logits ∂F/∂lₘ = qₘ(hₘ − Σⱼ qⱼhⱼ); for probs ∂F/∂pₘ = (hₘ − Σⱼ qⱼhⱼ)/Σp. Classes with
 * qⱼ = 0 add nothing to the sum (and get 0 for logits, where qₘhₘ → 0).
 */
export function addRowGrad(s: SimplexRows, row: number, h: ArrayLike<number>, g: number, grad: Float64Array): void {
  const o = row * s.k;
  let qh = 0;
  for (let j = 0; j < s.k; j++) { const qj = s.q[o + j]!; if (qj > 0) qh += qj * h[j]!; }
  if (s.isLogits) {
    for (let j = 0; j < s.k; j++) { const qj = s.q[o + j]!; if (qj > 0) grad[o + j]! += g * qj * (h[j]! - qh); }
  } else {
    const t = s.total[row]!;
    for (let j = 0; j < s.k; j++) grad[o + j]! += g * (h[j]! - qh) / t;
  }
}

/** Output shape of a method, and per output element its parameter row and its value(s). */
export interface RowIndex {
  /** `broadcast(sampleShape + batch, batchShape)` (event axes excluded). */
  readonly shape: number[];
  /** The value broadcast to `shape + eventShape`, as numbers. */
  readonly values: ArrayLike<number>;
  /** The parameter row of each output element. */
  readonly rows: Float64Array;
}

/**
 * Broadcasts `value` (whose last `eventDims` axes are one event) against `batchShape` and gives
 * each output element its parameter row; `rowBatch` is the parameter's own batch shape when it
 * is smaller than `batchShape` (another parameter broadcasting it).
 */
export function rowIndex(fn: string, value: Tensor, batchShape: readonly number[], eventDims = 0, rowBatch: readonly number[] = batchShape): RowIndex {
  const event = value.shape.slice(value.ndim - eventDims);
  const shape = broadcastShapes(fn, [['value', value.shape.slice(0, value.ndim - eventDims)], ['batchShape', batchShape]]);
  const nb = sizeOf(rowBatch);
  const iota = new Float64Array(nb);
  for (let i = 0; i < nb; i++) iota[i] = i;
  const rows = broadcastData(fn, 'batchShape', new Tensor(iota, rowBatch, 'float64'), shape) as Float64Array;
  const full = [...shape, ...event];
  const values = numbers(new Tensor(broadcastData(fn, 'value', value, full) as never, full, value.dtype));
  return { shape, values, rows };
}
