/**
 * What the step-size adapters share (TFP's `simple_step_size_adaptation` helpers): step sizes as
 * a list of tensor parts and back, the "safe" log acceptance probability, and the reduction of
 * per-chain log acceptance probabilities down to each step-size part's shape (chain dims the
 * step size lacks are averaged away, so a step size `[]` is shared and one `[C, 1]` is per chain).
 */
import { fail } from '../../src/checks.js';
import { asTensor } from '../../src/tensor/core.js';
import { reshape } from '../../src/tensor/ops/shape.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { StepSize } from './kernel-results.js';
import type { LogReduceFn } from './log-mean-exp.js';

/** A step size as tensor parts, with what is needed to rebuild its original form. */
export interface StepSizeParts {
  readonly parts: Tensor[];
  /** Part i was a plain number (and is returned as one while it stays a scalar). */
  readonly numbers: boolean[];
  readonly isList: boolean;
}

export function stepSizeParts(fn: string, s: StepSize): StepSizeParts {
  const list = Array.isArray(s) ? (s as readonly (number | Tensor)[]) : [s as number | Tensor];
  if (list.length === 0) fail('type', fn, 'stepSize', 'must be a number, a Tensor, or a non-empty array of them', s);
  const parts = list.map((p, i) => {
    if (typeof p === 'number') return new Tensor(Float64Array.of(p), [], 'float64');
    if (p instanceof Tensor) return p.dtype === 'float64' || p.dtype === 'float32' ? p : p.astype('float64');
    return fail('type', fn, Array.isArray(s) ? `stepSize[${i}]` : 'stepSize', 'must be a number or a Tensor', p);
  });
  return { parts, numbers: list.map((p) => typeof p === 'number'), isList: Array.isArray(s) };
}

/** The inverse of `stepSizeParts`: numbers stay numbers while they remain scalars. */
export function packStepSize(meta: StepSizeParts, parts: readonly Tensor[]): StepSize {
  const out = parts.map((p, i) => (meta.numbers[i] && p.size === 1 && p.ndim === 0 ? (p.data[0] as number) : p));
  return meta.isList ? out : out[0]!;
}

/**
 * TFP's `hmc_like_log_accept_prob_getter_fn`: `min(logAcceptRatio, 0)`, with NaN and ±∞ ratios
 * (divergent proposals) counted as −∞.
 */
export function safeLogAcceptProb(fn: string, logAcceptRatio: unknown): Tensor {
  const t = asTensor(fn, 'logAcceptRatio', logAcceptRatio);
  const v = t.data as ArrayLike<number>;
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const a = Number(v[i]);
    out[i] = Number.isFinite(a) ? Math.min(a, 0) : -Infinity;
  }
  return new Tensor(out, t.shape, 'float64');
}

/**
 * Reduces the per-chain `logAcceptProb` to broadcast against a step-size part (left-aligned):
 * first over the leading `min(rank(lap), rank(statePart) − rank(stepPart))` dims, then (keeping
 * dims) over the dims where the result and the step size's leading dims differ.
 */
export function reduceForStepSize(
  reduceFn: LogReduceFn, logAcceptProb: Tensor, statePartRank: number, stepPart: Tensor,
): Tensor {
  const numReduce = Math.max(0, Math.min(logAcceptProb.ndim, statePartRank - stepPart.ndim));
  let r = numReduce > 0 ? reduceFn(logAcceptProb, range(numReduce), false) : logAcceptProb;
  const differ = r.shape.map((d, i) => (d !== (stepPart.shape[i] ?? d) ? i : -1)).filter((i) => i >= 0);
  if (differ.length > 0) r = reduceFn(r, differ, true);
  return r;
}

/** `t` reshaped with trailing 1s up to `rank` (TFP pads reduced statistics on the right). */
export function padRight(t: Tensor, rank: number): Tensor {
  if (t.ndim >= rank) return t;
  return reshape(t, [...t.shape, ...Array<number>(rank - t.ndim).fill(1)]);
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** A probability strictly inside (0, 1): a number or a Tensor of them. */
export function checkProb(fn: string, arg: string, x: unknown): number | Tensor {
  if (typeof x === 'number') {
    if (!(x > 0 && x < 1)) fail('range', fn, arg, 'must be in (0, 1)', x);
    return x;
  }
  if (x instanceof Tensor) {
    const v = x.data as ArrayLike<number>;
    for (let i = 0; i < v.length; i++) if (!(Number(v[i]) > 0 && Number(v[i]) < 1)) fail('range', fn, arg, 'must hold values in (0, 1)', Number(v[i]));
    return x;
  }
  return fail('type', fn, arg, 'must be a number or a Tensor', x);
}

/** A kernel-like object (the adapters' `innerKernel`). */
export function checkInnerKernel(fn: string, k: unknown): void {
  const o = k as { oneStep?: unknown; bootstrapResults?: unknown } | null;
  if (o === null || typeof o !== 'object' || typeof o.oneStep !== 'function' || typeof o.bootstrapResults !== 'function') {
    fail('type', fn, 'innerKernel', 'must be a TransitionKernel (with oneStep and bootstrapResults)', k);
  }
}
