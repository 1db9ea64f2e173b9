/**
 * Evaluating a target log density and its gradient on a state, with the checks kernels share:
 * the log density's shape gives the number of chain dims, and a non-finite value at the
 * initial state is an error that names the function.
 */
import { fail } from '../../src/checks.js';
import { asTensor } from '../../src/tensor/core.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { FLAT, type FlatFn, isCompiledLogDensity, type CompiledLogDensity, newArray, type WithFlat } from '../../distributions/compile-log-density.js';
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
 * The log density per chain and its gradient per part: by reverse-mode autodiff of Σ_chains
 * log p (chains are independent, so this is each chain's own gradient), or by the user's
 * `targetLogProbAndGradFn`.
 */
export function targetLogProbAndGrad(
  fn: string, target: TargetLogProbFn | undefined, targetAndGrad: TargetLogProbAndGradFn | undefined, parts: readonly Tensor[],
): [Tensor, Tensor[]] {
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
 * A compiled log density (`compileLogDensity`) as the kernels' two target functions over one
 * state part of shape `[...chains, dim]`: each chain's log density (and gradient) from the
 * compiled code, over the chain's own coordinates. The gradient function carries its flat form
 * ({@link FLAT}), which the gradient-based kernels call on their own arrays.
 */
export function compiledTargetFns(fn: string, ld: CompiledLogDensity): { target: TargetLogProbFn; targetAndGrad: TargetLogProbAndGradFn } {
  const dim = ld.dim, x = new Float64Array(dim), g = new Float64Array(dim);
  const part = (parts: readonly Tensor[]): Tensor => {
    const t = parts[0];
    if (parts.length !== 1 || t === undefined || t.ndim === 0 || t.shape[t.ndim - 1] !== dim) {
      fail('range', fn, 'currentState', `must be one Tensor of shape [...chains, ${dim}] for a compiled log density of dim ${dim}; got ${parts.length} part(s)${t === undefined ? '' : ` of shape [${t.shape.join(', ')}]`}`, parts.map((p) => p.shape));
    }
    return t;
  };
  const load = (d: ArrayLike<number>, c: number) => { for (let i = 0; i < dim; i++) x[i] = Number(d[c * dim + i]); };
  // Over the kernels' own float64 arrays: the compiled code reads and writes them directly (one
  // chain) or through the two buffers, with no tensors per call.
  const flat: FlatFn = (parts, alloc = newArray) => {
    const xs = parts[0]!, n = xs.length / dim, lp = alloc(n), grad = alloc(xs.length);
    if (n === 1) lp[0] = ld.logDensityGradient(xs, grad);
    else {
      for (let c = 0, o = 0; c < n; c++, o += dim) {
        for (let i = 0; i < dim; i++) x[i] = xs[o + i]!;
        lp[c] = ld.logDensityGradient(x, g);
        for (let i = 0; i < dim; i++) grad[o + i] = g[i]!;
      }
    }
    return { lp, grad: [grad] };
  };
  const flatFor = (shapes: readonly (readonly number[])[]) => {
    const s = shapes[0];
    return shapes.length === 1 && s !== undefined && s.length > 0 && s[s.length - 1] === dim ? flat : undefined;
  };
  const targetAndGrad: WithFlat<TargetLogProbAndGradFn> = (...parts) => {
    const t = part(parts), d = t.data as ArrayLike<number>, n = t.size / dim;
    const lp = new Float64Array(n), grad = new Float64Array(t.size);
    for (let c = 0; c < n; c++) { load(d, c); lp[c] = ld.logDensityGradient(x, g); grad.set(g, c * dim); }
    return [new Tensor(lp, t.shape.slice(0, -1), 'float64'), [new Tensor(grad, t.shape, 'float64')]];
  };
  return {
    target: (...parts) => {
      const t = part(parts), d = t.data as ArrayLike<number>, n = t.size / dim;
      const lp = new Float64Array(n);
      for (let c = 0; c < n; c++) { load(d, c); lp[c] = ld.logDensity(x); }
      return new Tensor(lp, t.shape.slice(0, -1), 'float64');
    },
    targetAndGrad: Object.assign(targetAndGrad, { [FLAT]: flatFor }),
  };
}

/** The target option as a function: a compiled log density becomes its per-chain value function. */
export function targetFunction(fn: string, t: unknown): unknown {
  return isCompiledLogDensity(t) ? compiledTargetFns(fn, t).target : t;
}
