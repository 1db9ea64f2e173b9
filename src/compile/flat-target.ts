/**
 * The flat target, and the one rule for "compile, else the tape".
 *
 * A {@link FlatTarget} is a log density over one unconstrained point held in a Float64Array —
 * BridgeStan's model interface (`dim`, `param_names`, `log_density`, `log_density_gradient`).
 * `compileLogDensity` returns one; every sampler's flat path (the gradient kernels, both NUTS
 * engines) and the optimisers take one. A tensor `targetLogProbFn` is wrapped into the kernels'
 * batched form once, where a kernel is built; nothing unwraps it again.
 */
import { UntraceableError } from '../tensor/lowering.js';

/** A log density over flat unconstrained coordinates (BridgeStan's model interface). */
export interface FlatTarget {
  /** Number of unconstrained coordinates. */
  readonly dim: number;
  /** One name per coordinate (`tau`, `thetaTilde[3]`). */
  readonly paramNames: readonly string[];
  /** log p(x) at the point `x` (length `dim`). */
  logDensity(x: ArrayLike<number>): number;
  /** log p(x); its gradient is written into `grad` (length `dim`). */
  logDensityGradient(x: ArrayLike<number>, grad: Float64Array): number;
}

/**
 * True for an object with the {@link FlatTarget} interface (a `compileLogDensity` result, or a
 * user's own, e.g. a wrapper of BridgeStan).
 *
 * @example
 * isFlatTarget(compileLogDensity(model, { pins }));   // true
 * isFlatTarget((x) => x);                             // false
 */
export function isFlatTarget(x: unknown): x is FlatTarget {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Partial<FlatTarget>;
  return typeof t.dim === 'number' && typeof t.logDensity === 'function' && typeof t.logDensityGradient === 'function';
}

/** What {@link compileChecked} chose: the value, and whether it is compiled (and why not). */
export interface CompileOutcome<T> {
  readonly value: T;
  /** True when `value` runs generated code; false when it runs the tape. */
  readonly compiled: boolean;
  /** Why the tape runs: `'compile: false'`, or the {@link UntraceableError}'s message. */
  readonly reason?: string;
}

/**
 * The one policy every caller of the compiler follows: with `compile` true, `build()` (trace,
 * generate, check against the tape); on an {@link UntraceableError} — a documented untraceable
 * construct — `tape()` instead, with the reason returned so the caller can say so (callers put it
 * on their result and in its warnings). Any other error propagates: it is the model's own, and
 * the tape would meet it again.
 *
 * @example
 * const { value, compiled, reason } = compileChecked(true, () => compileIt(), () => onTheTape());
 * if (!compiled) warnings.push(`running on the tape: ${reason}`);
 */
export function compileChecked<T>(compile: boolean, build: () => T, tape: () => T): CompileOutcome<T> {
  if (!compile) return { value: tape(), compiled: false, reason: 'compile: false' };
  try {
    return { value: build(), compiled: true };
  } catch (e) {
    if (!(e instanceof UntraceableError)) throw e;
    return { value: tape(), compiled: false, reason: e.message };
  }
}
