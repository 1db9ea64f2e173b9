/**
 * Tensor-op pieces of `HiddenMarkovModel` (differentiable through the tape): log-probability
 * tables of the component distributions, the forward and backward passes as scans of
 * `logsumexp` (TFP's `_log_vector_matrix` / `_log_matrix_vector`), the marginals (these scans,
 * or the typed-array kernels when nothing is being differentiated), and the index bookkeeping
 * that maps component draws onto the model's batch.
 */
import { floatKind, floatStorage, isTracked, numbers } from '../../src/tensor/core.js';
import { add, sub } from '../../src/tensor/ops/elementwise.js';
import { logsumexp } from '../../src/tensor/ops/reduce.js';
import { expandDims, gather, stack, transpose } from '../../src/tensor/ops/shape.js';
import { zerosLike } from '../../src/tensor/ops/create.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { BatchSliceSpec } from './batch-slice.js';
import type { SliceSpec } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Distribution } from '../distribution.js';
import { backwardLog, forwardLog, logEvidence, type HmmTables } from './hmm-kernels.js';

/** `x` with axis `from` moved to position `to` (negative values count from the end). */
export function moveAxis(x: Tensor, from: number, to: number): Tensor {
  const n = x.ndim, f = from < 0 ? from + n : from, t = to < 0 ? to + n : to;
  if (f === t) return x;
  const perm = [...Array(n).keys()].filter((a) => a !== f);
  perm.splice(t, 0, f);
  return transpose(x, perm);
}

/**
 * TFP's `_extract_log_probs`: `dist.logProb(k)` for every state k < K, the state axis moved last,
 * so the result has shape `dist.batchShape + [K]` (for a transition distribution, entry
 * [..., i, j] is log p(next = j | current = i)).
 */
export function extractLogProbs(K: number, dist: Distribution): Tensor {
  const r = dist.batchShape.length;
  const states = new Tensor(Int32Array.from({ length: K }, (_, k) => k), [K, ...new Array<number>(r).fill(1)], 'int32');
  return moveAxis(dist.logProb(states), 0, -1);
}

/** The transition table for the transition out of step t: one shared table, or [T − 1, ...] indexed by t. */
export type TransitionAt = (t: number) => Tensor;

/**
 * Forward pass: α_0 = logInit + obsLp[0], α_t = logsumexp_i(α_{t−1}[i] + logT_t[i, j]) +
 * obsLp[t][j], stacked as `[T, ...batch, K]` (`obsLp` is `[T, ...batch, K]`).
 */
export function forwardPass(logInit: Tensor, transAt: TransitionAt, obsLp: Tensor): Tensor {
  const T = obsLp.shape[0]!;
  let a = add(logInit, gather(obsLp, 0));
  const out = [a];
  for (let t = 1; t < T; t++) {
    a = add(logsumexp(add(expandDims(a, -1), transAt(t - 1)), -2), gather(obsLp, t));
    out.push(a);
  }
  return stack(out, 0);
}

/** Backward pass: β_{T−1} = 0, β_t = logsumexp_j(logT_t[i, j] + obsLp[t+1][j] + β_{t+1}[j]), stacked `[T, ...batch, K]`. */
export function backwardPass(transAt: TransitionAt, obsLp: Tensor): Tensor {
  const T = obsLp.shape[0]!;
  let b = zerosLike(gather(obsLp, 0));
  const out = [b];
  for (let t = T - 2; t >= 0; t--) {
    b = logsumexp(add(transAt(t), expandDims(add(gather(obsLp, t + 1), b), -2)), -1);
    out.push(b);
  }
  return stack(out.reverse(), 0);
}

/** Smoothed marginal logits α + β − log p(x), moved to `[...batch, T, K]`. */
export function posteriorLogits(alpha: Tensor, beta: Tensor): Tensor {
  const T = alpha.shape[0]!;
  const logZ = logsumexp(gather(alpha, T - 1), -1, true);
  return moveAxis(sub(add(alpha, beta), logZ), 0, -2);
}

/**
 * Marginal log-probabilities of the hidden states, `[...batch, T, K]`: smoothed, α + β − log p(x)
 * (`smooth`), or the forward α alone (the prior marginals when `obsLp` is 0). The tables are
 * broadcast to `batch`: `logInit` [...batch, K], `logTrans` [...batch, (T − 1,) K, K], `obsLp`
 * [T, ...batch, K]. When none of them is tracked on the current tape the typed-array kernels do
 * the work; otherwise the tensor-op scans (same sums in the same order), so gradients flow.
 */
export function marginalLogits(
  dims: { B: number; K: number; T: number; S: number }, batch: readonly number[], logInit: Tensor, logTrans: Tensor, obsLp: Tensor, timeVarying: boolean, smooth: boolean,
): Tensor {
  if (isTracked(logInit) || isTracked(logTrans) || isTracked(obsLp)) {
    const timeFirst = timeVarying ? moveAxis(logTrans, -3, 0) : logTrans;
    const transAt: TransitionAt = timeVarying ? (t) => gather(timeFirst, t) : () => logTrans;
    const alpha = forwardPass(logInit, transAt, obsLp);
    return smooth ? posteriorLogits(alpha, backwardPass(transAt, obsLp)) : moveAxis(alpha, 0, -2);
  }
  const m: HmmTables = { ...dims, logInit: numbers(logInit), logTrans: numbers(logTrans), obsLp: numbers(obsLp) };
  const { B, K, T } = dims;
  const alpha = forwardLog(m);
  if (smooth) {
    const beta = backwardLog(m), z = logEvidence(m, alpha);
    for (let t = 0; t < T; t++) for (let b = 0; b < B; b++) for (let k = 0; k < K; k++) { const i = (t * B + b) * K + k; alpha[i] = alpha[i]! + beta[i]! - z[b]!; }
  }
  const out = floatStorage(floatKind(logInit, logTrans, obsLp), T * B * K);
  out.set(alpha);
  return moveAxis(new Tensor(out, [T, ...batch, K], out instanceof Float32Array ? 'float32' : 'float64'), 0, -2);
}

/**
 * Where the draw for batch member b sits in a component's `sample(n · repeat)`: the component's
 * batch (`compBatch`, aligned on the right) broadcasts into `batch`; `c[b]` is the component's
 * own batch index and `r[b]` the row-major index over the broadcast axes, so draw i of member b
 * is at `(i · repeat + r[b]) · compSize + c[b]`. When the broadcast axes lead (the usual case),
 * `r[b] · compSize + c[b] = b`, which is TFP's reshape of `[n · repeat, ...compBatch]` to
 * `[n, ∏ batch]`.
 */
export function componentIndex(batch: readonly number[], compBatch: readonly number[]): { repeat: number; compSize: number; r: Int32Array; c: Int32Array } {
  const R = batch.length, off = R - compBatch.length;
  const size = sizeOf(batch);
  const compSize = sizeOf(compBatch);
  const r = new Int32Array(size), c = new Int32Array(size);
  const idx = new Array<number>(R).fill(0);
  for (let b = 0; b < size; b++) {
    let ci = 0, ri = 0;
    for (let a = 0; a < R; a++) {
      const own = a >= off ? compBatch[a - off]! : 1;
      if (own === 1) ri = ri * batch[a]! + idx[a]!;
      else ci = ci * own + idx[a]!;
    }
    r[b] = ri; c[b] = ci;
    for (let a = R - 1; a >= 0; a--) { if (++idx[a]! < batch[a]!) break; idx[a] = 0; }
  }
  return { repeat: size / compSize, compSize, r, c };
}

/**
 * The batch-slice specs of the model turned into specs for a component whose batch is the
 * model's (aligned on the right, size-1 axes broadcasting) followed by `trailing` own axes
 * (the state axis, and the time axis when time-varying), which are kept whole.
 */
export function componentSpecs(batch: readonly number[], compBatch: readonly number[], specs: readonly (number | SliceSpec | null)[], trailing: number): BatchSliceSpec[] {
  const off = batch.length - compBatch.length;
  const out: BatchSliceSpec[] = [];
  let axis = 0;
  for (const s of specs) {
    if (s === null) { if (axis >= off) out.push(null); continue; }
    const a = axis++;
    if (a < off) continue;
    const own = compBatch[a - off]!;
    if (own === 1 && batch[a] !== 1) out.push(typeof s === 'number' ? 0 : {});
    else out.push(s);
  }
  for (let i = 0; i < trailing; i++) out.push({});
  return out;
}
