/**
 * Evaluating a target log density and its gradient on a state, with the checks kernels share:
 * the log density's shape gives the number of chain dims, and a non-finite value at the
 * initial state is an error that names the function.
 */
import { fail } from '../../src/checks.js';
import { asTensor } from '../../src/tensor/core.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { isFlatTarget, type FlatTarget } from '../../src/compile/flat-target.js';
import type { State, TargetLogProbAndGradFn, TargetLogProbFn } from '../kernel.js';
import { isProgrammingError } from './rejections.js';

/** The state as a list of parts, and a function turning parts back into the state's form. */
export function stateParts(fn: string, state: State): [Tensor[], (parts: readonly Tensor[]) => State] {
  if (state instanceof Tensor) return [[state], (p) => p[0]!];
  if (!Array.isArray(state) || state.length === 0 || state.some((t) => !(t instanceof Tensor))) {
    fail('type', fn, 'currentState', 'must be a Tensor or a non-empty array of Tensors', state);
  }
  return [[...state], (p) => [...p]];
}

/** The target's log density (per chain) at the parts. */
export function targetLogProb(fn: string, target: TargetLogProbFn, parts: readonly Tensor[]): Tensor {
  return asTensor(fn, 'targetLogProbFn(...)', target(...parts));
}

/**
 * What a kernel evaluates, decided once where it is built: a {@link FlatTarget} (one draw's log
 * density over flat coordinates; the kernel runs it chain by chain over its own arrays), or the
 * user's tensor functions (the log density per chain, and its gradient by autodiff or by hand).
 */
export type KernelTarget =
  | { readonly flat: FlatTarget; readonly target?: undefined; readonly targetAndGrad?: undefined }
  | { readonly flat?: undefined; readonly target: TargetLogProbFn | undefined; readonly targetAndGrad: TargetLogProbAndGradFn | undefined };

/**
 * The log density per chain and its gradient per part: chain by chain for a flat target, by
 * reverse-mode autodiff of Σ_chains log p (chains are independent, so this is each chain's own
 * gradient), or by the user's `targetLogProbAndGradFn`.
 */
export function targetLogProbAndGrad(fn: string, kt: KernelTarget, parts: readonly Tensor[]): [Tensor, Tensor[]] {
  if (kt.flat !== undefined) {
    const { chainShape, sizes } = flatLayout(fn, kt.flat, parts);
    const numChains = sizeOf(chainShape);
    const out = chainwise(kt.flat, sizes, numChains)(parts.map((t) => Float64Array.from(t.data as ArrayLike<number>)));
    return [new Tensor(out.lp, chainShape, 'float64'), out.grad.map((g, k) => new Tensor(g, parts[k]!.shape, 'float64'))];
  }
  const { target, targetAndGrad } = kt;
  if (targetAndGrad !== undefined) {
    const [lp, grads] = targetAndGrad(...parts);
    if (!Array.isArray(grads) || grads.length !== parts.length) {
      fail('range', fn, 'targetLogProbAndGradFn', `must return one gradient per state part (${parts.length})`, grads);
    }
    return [asTensor(fn, 'targetLogProbAndGradFn(...)[0]', lp), grads.map((g, i) => asTensor(fn, `gradient[${i}]`, g))];
  }
  let lp: Tensor | undefined;
  const argnums = parts.map((_, i) => i);
  const [, grads] = valueAndGrad((...xs: Tensor[]) => { lp = asTensor(fn, 'targetLogProbFn(...)', target!(...xs)); return sum(lp); }, argnums)(...parts);
  return [new Tensor(lp!.data, lp!.shape, lp!.dtype), grads as Tensor[]];
}

/**
 * A flat target's log density and gradient over a batch of chains, as the kernels call it: parts
 * `[...chains, n_k]`, a chain's coordinates its rows of the parts in order (Σ n_k = dim); the log
 * density per chain and the gradient per part come back in fresh arrays from `alloc` (default
 * `new Float64Array`; samplers pass views carved from shared chunks, as arrays of more than 64
 * bytes are slow to allocate).
 */
export type FlatFn = (x: readonly Float64Array[], alloc?: (n: number) => Float64Array) => { lp: Float64Array; grad: Float64Array[]; failures?: ChainFailure[] };

/**
 * One chain's failed evaluation of the target during a transition (the rejection rule of
 * `rejections.ts`): it threw (`threw`, `error`; never a programming error, which propagates), or
 * its log density `lp` or a gradient entry was not finite. The evaluation then reads as a log
 * density of −∞ with a zero gradient, which the kernel rejects (and discards). `x` is the chain's
 * point (its flat coordinates) when the target is flat; undefined for tensor functions.
 */
export interface ChainFailure {
  readonly chain: number;
  readonly threw: boolean;
  readonly error: unknown;
  readonly lp: number;
  readonly x: Float64Array | undefined;
}

/** The failure of one evaluation that threw `e`, or rethrows `e` when it is a programming error (TypeError, ReferenceError, SyntaxError). */
export function thrownFailure(e: unknown, chain: number, x: ArrayLike<number> | undefined): ChainFailure {
  if (isProgrammingError(e)) throw e;
  return { chain, threw: true, error: e, lp: Number.NaN, x: x === undefined ? undefined : Float64Array.from(x) };
}

/** The failure of one evaluation whose log density `lp` or a gradient entry was not finite, at `x` (flat targets). */
export function nonFiniteFailure(chain: number, lp: number, x: ArrayLike<number> | undefined): ChainFailure {
  return { chain, threw: false, error: undefined, lp, x: x === undefined ? undefined : Float64Array.from(x) };
}

/** Every chain's failure when a tensor function of all chains threw `e` (it cannot say which chain failed); rethrows a programming error. */
export function allChainsThrew(e: unknown, numChains: number): ChainFailure[] {
  return Array.from({ length: numChains }, (_, c) => thrownFailure(e, c, undefined));
}

/** Whether every entry of `g[from, to)` is finite (x − x is 0 exactly for finite x, NaN otherwise). */
export function finiteRange(g: ArrayLike<number>, from: number, to: number): boolean {
  let z = 0;
  for (let i = from; i < to; i++) z += g[i]! - g[i]!;
  return z === 0;
}

/** A {@link FlatFn}'s default allocator. */
export const newArray = (n: number): Float64Array => new Float64Array(n);

/**
 * `t` over `numChains` chains whose coordinates are split into parts of `sizes` elements each (see
 * {@link FlatFn}): one chain of one part runs on the kernel's own array; otherwise each chain's
 * coordinates are gathered into one buffer and its gradient scattered back. The arithmetic is `t`'s.
 *
 * With `guard` (a transition's evaluations; not the initial state's, where a failure is an error),
 * each chain's evaluation is its own: one that throws (other than a programming error, which
 * propagates) or gives a non-finite log density or gradient entry reads as log density −∞ with a
 * zero gradient, and is listed in `failures`; the other chains' values are untouched.
 */
export function chainwise(t: FlatTarget, sizes: readonly number[], numChains: number, guard = false): FlatFn {
  const dim = t.dim;
  if (sizes.length === 1 && numChains === 1) {
    if (!guard) {
      return (xs, alloc = newArray) => {
        const lp = alloc(1), grad = alloc(dim);
        lp[0] = t.logDensityGradient(xs[0]!, grad);
        return { lp, grad: [grad] };
      };
    }
    return (xs, alloc = newArray) => {
      const lp = alloc(1), grad = alloc(dim), x = xs[0]!;
      let v: number;
      try { v = t.logDensityGradient(x, grad); } catch (e) {
        lp[0] = -Infinity; grad.fill(0);
        return { lp, grad: [grad], failures: [thrownFailure(e, 0, x)] };
      }
      if (v - v === 0 && finiteRange(grad, 0, dim)) { lp[0] = v; return { lp, grad: [grad] }; }
      lp[0] = -Infinity; grad.fill(0);
      return { lp, grad: [grad], failures: [nonFiniteFailure(0, v, x)] };
    };
  }
  const x = new Float64Array(dim), g = new Float64Array(dim);
  return (xs, alloc = newArray) => {
    const lp = alloc(numChains), grad = sizes.map((n) => alloc(n * numChains));
    let failures: ChainFailure[] | undefined;
    for (let c = 0; c < numChains; c++) {
      for (let k = 0, i = 0; k < sizes.length; k++) { const n = sizes[k]!, src = xs[k]!, o = c * n; for (let e = 0; e < n; e++) x[i++] = src[o + e]!; }
      if (!guard) {
        lp[c] = t.logDensityGradient(x, g);
        for (let k = 0, i = 0; k < sizes.length; k++) { const n = sizes[k]!, dst = grad[k]!, o = c * n; for (let e = 0; e < n; e++) dst[o + e] = g[i++]!; }
        continue;
      }
      // One try per chain: a failing chain reads −∞ with a zero gradient, the others go on.
      let v: number;
      try { v = t.logDensityGradient(x, g); } catch (e) {
        (failures ??= []).push(thrownFailure(e, c, x));
        lp[c] = -Infinity;
        for (let k = 0; k < sizes.length; k++) grad[k]!.fill(0, c * sizes[k]!, (c + 1) * sizes[k]!);
        continue;
      }
      // The gradient's finiteness is checked in the scatter loop (z stays 0 while every entry is finite).
      let z = v - v;
      for (let k = 0, i = 0; k < sizes.length; k++) { const n = sizes[k]!, dst = grad[k]!, o = c * n; for (let e = 0; e < n; e++) { const gi = g[i++]!; z += gi - gi; dst[o + e] = gi; } }
      if (z === 0) { lp[c] = v; continue; }
      (failures ??= []).push(nonFiniteFailure(c, v, x));
      lp[c] = -Infinity;
      for (let k = 0; k < sizes.length; k++) grad[k]!.fill(0, c * sizes[k]!, (c + 1) * sizes[k]!);
    }
    return failures === undefined ? { lp, grad } : { lp, grad, failures };
  };
}

/**
 * How state parts lay out a flat target's coordinates: every part `[...chains, n_k]` with the same
 * chain dims and Σ n_k = `dim`.
 *
 * @throws RangeError naming `fn` and `currentState` otherwise.
 */
export function flatLayout(fn: string, t: FlatTarget, parts: readonly Tensor[]): { chainShape: readonly number[]; sizes: number[] } {
  const first = parts[0];
  const chainShape = first === undefined || first.ndim === 0 ? [] : first.shape.slice(0, -1);
  const ok = first !== undefined && parts.every((p) => p.ndim === chainShape.length + 1 && p.shape.slice(0, -1).every((d, i) => d === chainShape[i]));
  const sizes = parts.map((p) => p.shape[p.ndim - 1] ?? 0);
  if (!ok || sizes.reduce((a, b) => a + b, 0) !== t.dim) {
    fail('range', fn, 'currentState', `must be parts of shape [...chains, n_k] with the same chain dims and Σ n_k = dim = ${t.dim} for a flat target (a compiled log density); got shapes ${parts.map((p) => `[${p.shape.join(', ')}]`).join(', ')}`, parts.map((p) => p.shape));
  }
  return { chainShape, sizes };
}

/** Throws a RangeError naming `fn` unless every chain's log density is finite (used at the initial state). */
export function checkFiniteInitial(fn: string, lp: Tensor): void {
  const v = lp.data as ArrayLike<number>;
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) {
      fail('range', fn, 'targetLogProbFn', `returned ${v[i]} at \`currentState\`${lp.size > 1 ? ` (chain ${i})` : ''}; start where the log density is finite`, v[i]);
    }
  }
}

/**
 * A flat target as a tensor `targetLogProbFn` (for the kernels that take only the log density):
 * each chain's log density from `t.logDensity` over its rows of the parts ({@link flatLayout}).
 */
export function flatLogProbFn(fn: string, t: FlatTarget): TargetLogProbFn {
  const x = new Float64Array(t.dim);
  return (...parts) => {
    const { chainShape, sizes } = flatLayout(fn, t, parts);
    const n = sizeOf(chainShape), lp = new Float64Array(n);
    const data = parts.map((p) => p.data as ArrayLike<number>);
    for (let c = 0; c < n; c++) {
      for (let k = 0, i = 0; k < sizes.length; k++) { const m = sizes[k]!, d = data[k]!; for (let e = 0; e < m; e++) x[i++] = Number(d[c * m + e]); }
      lp[c] = t.logDensity(x);
    }
    return new Tensor(lp, chainShape, 'float64');
  };
}

/**
 * The log density per chain at `parts` during a transition, by the rejection rule (`rejections.ts`),
 * for the kernels that need no gradient (random walk, slice): `target` is a flat target (run chain
 * by chain, each chain's failure its own) or a tensor function of all chains at once. A chain whose
 * evaluation throws (a programming error propagates) or whose log density is not finite reads −∞
 * and is listed in `failures`. A tensor function that throws cannot say which chain failed: every
 * chain's evaluation is then a failure (the step rejects every chain's proposal). `like` is the
 * previous log density, whose shape and dtype the result takes when the function throws.
 *
 * @example
 * const stdNormal = (x: Tensor) => mul(-0.5, square(x));
 * const { lp, failures } = logProbAt('fn', stdNormal, [tensor([0.5, NaN])], tensor([0, 0]));
 * // lp: [-0.125, -Infinity]; failures: [{ chain: 1, threw: false, error: undefined, lp: Number.NaN, x: undefined }]
 */
export function logProbAt(fn: string, target: TargetLogProbFn | FlatTarget, parts: readonly Tensor[], like: Tensor): { lp: Tensor; failures?: ChainFailure[] } {
  let failures: ChainFailure[] | undefined;
  if (isFlatTarget(target)) {
    const { chainShape, sizes } = flatLayout(fn, target, parts);
    const n = sizeOf(chainShape), lp = new Float64Array(n), x = new Float64Array(target.dim);
    const data = parts.map((p) => p.data as ArrayLike<number>);
    for (let c = 0; c < n; c++) {
      for (let k = 0, i = 0; k < sizes.length; k++) { const m = sizes[k]!, d = data[k]!; for (let e = 0; e < m; e++) x[i++] = Number(d[c * m + e]); }
      let v: number;
      try { v = target.logDensity(x); } catch (e) { (failures ??= []).push(thrownFailure(e, c, x)); lp[c] = -Infinity; continue; }
      if (v - v !== 0) { (failures ??= []).push(nonFiniteFailure(c, v, x)); v = -Infinity; }
      lp[c] = v;
    }
    const out = new Tensor(lp, chainShape, 'float64');
    return failures === undefined ? { lp: out } : { lp: out, failures };
  }
  let lp: Tensor;
  try { lp = targetLogProb(fn, target, parts); } catch (e) {
    const all = allChainsThrew(e, like.size);
    const v = like.dtype === 'float32' ? new Float32Array(like.size) : new Float64Array(like.size);
    return { lp: new Tensor(v.fill(-Infinity), like.shape, like.dtype), failures: all };
  }
  const v = lp.data as ArrayLike<number>;
  for (let c = 0; c < v.length; c++) if (v[c]! - v[c]! !== 0) (failures ??= []).push(nonFiniteFailure(c, Number(v[c]), undefined));
  if (failures === undefined) return { lp };
  const fixed = lp.dtype === 'float32' ? Float32Array.from(v) : Float64Array.from(v);
  for (const f of failures) fixed[f.chain] = -Infinity;
  return { lp: new Tensor(fixed, lp.shape, lp.dtype), failures };
}

/**
 * A transition's rejections, per chain: each chain counts at most once per step (its proposal is
 * rejected once, however many of its evaluations failed), and the first failure of each rejected
 * chain is kept (for the run's {@link RejectionLog}). `track` wraps a {@link FlatFn} so that every
 * evaluation's failures are noted; chains inactive in `active` (NUTS's finished chains, still
 * evaluated at their last point) are not counted.
 *
 * @example
 * const rej = new StepRejections(4);
 * const f = rej.track(target);
 * leapfrog(f, start, eps, metric, 10, g);
 * rej.count;   // Int32Array [0, 1, 0, 0]: chain 1's proposal failed
 */
export class StepRejections {
  /** Per chain, 1 when this step's proposal failed (int32, for the results' `rejections`). */
  readonly count: Int32Array;
  /** The first failure of each rejected chain, in the order they happened. */
  readonly causes: ChainFailure[] = [];

  constructor(numChains: number) { this.count = new Int32Array(numChains); }

  /** Notes `failures` of chains that are active (all when `active` is undefined). */
  note(failures: readonly ChainFailure[] | undefined, active?: Uint8Array): void {
    if (failures === undefined) return;
    for (const f of failures) {
      if ((active !== undefined && active[f.chain] === 0) || this.count[f.chain] !== 0) continue;
      this.count[f.chain] = 1;
      this.causes.push(f);
    }
  }

  /** Whether chain `c` failed this step. */
  failed(c: number): boolean { return this.count[c] !== 0; }

  /** `target` noting its failures here (the active chains' only, read at each call). */
  track(target: FlatFn, active?: Uint8Array): FlatFn {
    return (xs, alloc) => { const r = target(xs, alloc); if (r.failures !== undefined) this.note(r.failures, active); return r; };
  }
}

/** The target option as a function: a flat target (a compiled log density) becomes its per-chain value function. */
export function targetFunction(fn: string, t: unknown): unknown {
  return isFlatTarget(t) ? flatLogProbFn(fn, t) : t;
}
