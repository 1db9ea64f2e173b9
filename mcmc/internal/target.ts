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
export type FlatFn = (x: readonly Float64Array[], alloc?: (n: number) => Float64Array) => { lp: Float64Array; grad: Float64Array[] };

/** A {@link FlatFn}'s default allocator. */
export const newArray = (n: number): Float64Array => new Float64Array(n);

/**
 * `t` over `numChains` chains whose coordinates are split into parts of `sizes` elements each (see
 * {@link FlatFn}): one chain of one part runs on the kernel's own array; otherwise each chain's
 * coordinates are gathered into one buffer and its gradient scattered back. The arithmetic is `t`'s.
 */
export function chainwise(t: FlatTarget, sizes: readonly number[], numChains: number): FlatFn {
  const dim = t.dim;
  if (sizes.length === 1 && numChains === 1) {
    return (xs, alloc = newArray) => {
      const lp = alloc(1), grad = alloc(dim);
      lp[0] = t.logDensityGradient(xs[0]!, grad);
      return { lp, grad: [grad] };
    };
  }
  const x = new Float64Array(dim), g = new Float64Array(dim);
  return (xs, alloc = newArray) => {
    const lp = alloc(numChains), grad = sizes.map((n) => alloc(n * numChains));
    for (let c = 0; c < numChains; c++) {
      for (let k = 0, i = 0; k < sizes.length; k++) { const n = sizes[k]!, src = xs[k]!, o = c * n; for (let e = 0; e < n; e++) x[i++] = src[o + e]!; }
      lp[c] = t.logDensityGradient(x, g);
      for (let k = 0, i = 0; k < sizes.length; k++) { const n = sizes[k]!, dst = grad[k]!, o = c * n; for (let e = 0; e < n; e++) dst[o + e] = g[i++]!; }
    }
    return { lp, grad };
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

/** The target option as a function: a flat target (a compiled log density) becomes its per-chain value function. */
export function targetFunction(fn: string, t: unknown): unknown {
  return isFlatTarget(t) ? flatLogProbFn(fn, t) : t;
}
