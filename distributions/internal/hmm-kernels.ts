/**
 * Typed-array kernels of `HiddenMarkovModel`: the forward algorithm in log space recorded as ONE
 * tape node (its gradient is the forward–backward smoother, computed lazily in the backward
 * pass), and the Viterbi algorithm.
 *
 * Layout (row-major, float64): `logInit` [B, K]; `logTrans` [B, S, K, K] with
 * `logTrans[b, s, i, j] = log p(z[t+1] = j | z[t] = i)`, S = 1 (one matrix) or T − 1 (one per
 * transition, `s = t`); `obsLp` [T, B, K] with `obsLp[t, b, k] = log p(x[t] | z[t] = k)`.
 * Sums are in TFP's order: α_t = logsumexp_i(α_{t−1}[i] + logT[i, j]) + obsLp[t][j].
 */
import { floatKind, floatStorage, isTracked, numbers, result } from '../../src/tensor/core.js';
import type { Lowering } from '../../src/tensor/lowering.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { detExp, detLog1p } from '../../src/math/index.js';

/** One model's tables, flattened (see the file doc for the layout). */
export interface HmmTables {
  readonly B: number;
  readonly K: number;
  readonly T: number;
  readonly S: number;
  readonly logInit: ArrayLike<number>;
  readonly logTrans: ArrayLike<number>;
  readonly obsLp: ArrayLike<number>;
}

/** ln Σ exp(v[o + k·stride]) for k < n: m + log1p(Σ' exp(v − m)), the first maximum left out (as `logsumexp`). */
function lse(v: ArrayLike<number>, o: number, n: number, stride: number): number {
  let m = -Infinity, at = -1;
  for (let k = 0; k < n; k++) {
    const a = v[o + k * stride]!;
    if (a !== a) return Number.NaN;
    if (at < 0 || a > m) { m = a; at = k; }
  }
  if (!Number.isFinite(m)) return m;
  let s = 0;
  for (let k = 0; k < n; k++) if (k !== at) s += detExp(v[o + k * stride]! - m);
  return m + detLog1p(s);
}

/** The transition table used between steps t and t + 1. */
const transAt = (S: number, t: number) => (S === 1 ? 0 : t);

/** Forward log-probabilities α [T, B, K]: α_t[j] = log p(x[0..t], z[t] = j) (written into `a`, every element). */
export function forwardLog(m: HmmTables, a: Float64Array = new Float64Array(m.T * m.B * m.K), tmp: Float64Array = new Float64Array(m.K)): Float64Array {
  const { B, K, T, S, logInit, logTrans, obsLp } = m;
  for (let i = 0; i < B * K; i++) a[i] = logInit[i]! + obsLp[i]!;
  for (let t = 1; t < T; t++) {
    const s = transAt(S, t - 1);
    for (let b = 0; b < B; b++) {
      const prev = ((t - 1) * B + b) * K, cur = (t * B + b) * K, tr = (b * S + s) * K * K;
      for (let j = 0; j < K; j++) {
        for (let i = 0; i < K; i++) tmp[i] = a[prev + i]! + logTrans[tr + i * K + j]!;
        a[cur + j] = lse(tmp, 0, K, 1) + obsLp[cur + j]!;
      }
    }
  }
  return a;
}

/** Backward log-probabilities β [T, B, K]: β_t[i] = log p(x[t+1..T−1] | z[t] = i), β_{T−1} = 0 (written into `beta`, every element). */
export function backwardLog(m: HmmTables, beta: Float64Array = new Float64Array(m.T * m.B * m.K), tmp: Float64Array = new Float64Array(m.K)): Float64Array {
  const { B, K, T, S, logTrans, obsLp } = m;
  beta.fill(0, Math.max(T - 1, 0) * B * K);
  for (let t = T - 2; t >= 0; t--) {
    const s = transAt(S, t);
    for (let b = 0; b < B; b++) {
      const cur = (t * B + b) * K, next = ((t + 1) * B + b) * K, tr = (b * S + s) * K * K;
      for (let i = 0; i < K; i++) {
        for (let j = 0; j < K; j++) tmp[j] = logTrans[tr + i * K + j]! + (obsLp[next + j]! + beta[next + j]!);
        beta[cur + i] = lse(tmp, 0, K, 1);
      }
    }
  }
  return beta;
}

/** log p(x) per batch member: logsumexp of the last forward row (written into `z`). */
export function logEvidence(m: HmmTables, alpha: Float64Array, z: Float64Array = new Float64Array(m.B)): Float64Array {
  for (let b = 0; b < m.B; b++) z[b] = lse(alpha, ((m.T - 1) * m.B + b) * m.K, m.K, 1);
  return z;
}

/**
 * log p(x[0..T−1]) for each of the B models, as one tape node over the three tables (tensors of
 * sizes B·K, B·S·K·K and T·B·K, already broadcast). The partials are the smoothed marginals
 * γ_t(k) (for `obsLp`, and `logInit` at t = 0) and the pair marginals ξ_t(i, j) (for
 * `logTrans`); a batch member with log p(x) = ±∞ or NaN gets a zero gradient.
 */
export function hmmLogLikelihood(
  dims: { B: number; K: number; T: number; S: number }, logInit: Tensor, logTrans: Tensor, obsLp: Tensor, shape: readonly number[],
): Tensor {
  const op = hmmLowering(dims);
  const ins = [numbers(logInit), numbers(logTrans), numbers(obsLp)];
  const out = floatStorage(floatKind(logInit, logTrans, obsLp), dims.B);
  op.forward(ins, out);
  const inputs = [logInit, logTrans, obsLp];
  return result(out, shape, inputs, !inputs.some(isTracked) ? null : (g) => {
    const parts = [new Float64Array(dims.B * dims.K), new Float64Array(dims.B * dims.S * dims.K * dims.K), new Float64Array(dims.T * dims.B * dims.K)];
    op.backward(g, ins, out, parts);
    return parts;
  }, undefined, op);
}

/**
 * hmmLogLikelihood's kernel for fixed sizes: the forward pass keeps α and log p(x) in scratch
 * for the backward pass, which runs β (the smoother) and writes each requested table's part.
 */
function hmmLowering(dims: { B: number; K: number; T: number; S: number }): Lowering & { backward: NonNullable<Lowering['backward']> } {
  const { B, K, T, S } = dims;
  const alpha = new Float64Array(T * B * K), logZ = new Float64Array(B), tmp = new Float64Array(K);
  // Allocated on the first backward pass: β, and γ for logInit's γ_0 when obsLp's part is not wanted.
  let betaScratch: Float64Array | undefined, gObsScratch: Float64Array | undefined;
  const tables = (ins: readonly ArrayLike<number>[]): HmmTables => ({ ...dims, logInit: ins[0]!, logTrans: ins[1]!, obsLp: ins[2]! });
  return {
    name: 'HiddenMarkovModel.logProb',
    forward(ins, out) {
      const m = tables(ins);
      forwardLog(m, alpha, tmp);
      logEvidence(m, alpha, logZ);
      for (let b = 0; b < B; b++) out[b] = logZ[b]!;
    },
    backward(g, ins, _out, parts) {
      const m = tables(ins);
      const beta = backwardLog(m, betaScratch ??= new Float64Array(T * B * K), tmp);
      const gInit = parts[0], gTrans = parts[1];
      const gObs = parts[2] ?? (gInit ? (gObsScratch ??= new Float64Array(T * B * K)) : null);
      gInit?.fill(0); gTrans?.fill(0); gObs?.fill(0);
      for (let b = 0; b < B; b++) {
        const gb = g[b]!, z = logZ[b]!;
        if (gb === 0 || !Number.isFinite(z)) continue;
        if (gObs) {
          for (let t = 0; t < T; t++) {
            const o = (t * B + b) * K;
            for (let k = 0; k < K; k++) gObs[o + k] = gb * detExp(alpha[o + k]! + beta[o + k]! - z);
          }
          if (gInit) for (let k = 0; k < K; k++) gInit[b * K + k] = gObs[b * K + k]!;
        }
        if (!gTrans) continue;
        for (let t = 0; t + 1 < T; t++) {
          const cur = (t * B + b) * K, next = ((t + 1) * B + b) * K, tr = (b * S + transAt(S, t)) * K * K;
          for (let i = 0; i < K; i++) {
            const ai = alpha[cur + i]!;
            if (ai === -Infinity) continue;
            for (let j = 0; j < K; j++) {
              gTrans[tr + i * K + j]! += gb * detExp(ai + m.logTrans[tr + i * K + j]! + m.obsLp[next + j]! + beta[next + j]! - z);
            }
          }
        }
      }
    },
  };
}

/**
 * The most likely state path of each model (Viterbi), as [B, T] indices. Candidates are
 * (δ_{t−1}[i] + logT[i, j]) + obsLp[t][j] in TFP's order; ties go to the first index (argmax),
 * both for the back-pointers and for the final state.
 */
export function viterbi(m: HmmTables): Int32Array {
  const { B, K, T, S, logInit, logTrans, obsLp } = m;
  let delta = new Float64Array(B * K), next = new Float64Array(B * K);
  for (let i = 0; i < B * K; i++) delta[i] = logInit[i]! + obsLp[i]!;
  const back = new Int32Array(T * B * K);
  for (let t = 1; t < T; t++) {
    const s = transAt(S, t - 1);
    for (let b = 0; b < B; b++) {
      const tr = (b * S + s) * K * K, o = (t * B + b) * K;
      for (let j = 0; j < K; j++) {
        let best = 0, bestV = 0;
        for (let i = 0; i < K; i++) {
          const c = delta[b * K + i]! + logTrans[tr + i * K + j]! + obsLp[o + j]!;
          if (i === 0 || c > bestV) { best = i; bestV = c; }
        }
        next[b * K + j] = bestV;
        back[o + j] = best;
      }
    }
    [delta, next] = [next, delta];
  }
  const path = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    let z = 0;
    for (let k = 1; k < K; k++) if (delta[b * K + k]! > delta[b * K + z]!) z = k;
    path[b * T + T - 1] = z;
    for (let t = T - 1; t > 0; t--) { z = back[(t * B + b) * K + z]!; path[b * T + t - 1] = z; }
  }
  return path;
}
