/**
 * The fast path of the per-draw evaluations in `predictive.ts` (`computeDeterministics`'s derived
 * values, `logLikelihood`'s pointwise log densities): the map from one draw's node values to named
 * tensors, traced once (`src/compile/`) and then run per draw as generated JavaScript over
 * Float64Arrays, instead of running the model per draw through the eager ops. The generated code
 * calls the eager ops' own kernels and scalar functions, so it gives the same bits.
 *
 * For the log-likelihood of an observed `Bernoulli` node (a logistic regression), the program
 * computes only the leaf's parameters and the pointwise log mass is taken from them by the leaf's
 * own scalar function (`compileLogLikelihood`; leaf-kernels.ts), so no per-element call goes
 * through the generated code's generic fused-op path.
 */
import { generate } from '../../src/compile/codegen.js';
import { traceProgram } from '../../src/compile/trace.js';
import { UntraceableError } from '../../src/tensor/lowering.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { Distribution } from '../../distributions/distribution.js';
import { directLogProb, planOf, type NodePlan } from './leaf-kernels.js';

/** The named values at model-order node values (the eager path: the model run once). */
export type DerivedValues = (values: readonly (Tensor | undefined)[]) => Record<string, Tensor>;

/** A compiled map from one draw of the drawn nodes to every named value. */
export interface DerivedProgram {
  /** One buffer per drawn node, in the order given to {@link compileDerived}: write a draw here, then `run`. */
  readonly inputs: readonly Float64Array[];
  /** One buffer per named value, in the order of `names` (their values after `run`). */
  readonly outputs: readonly ArrayLike<number>[];
  /** Each named value's shape. */
  readonly shapes: readonly (readonly number[])[];
  run(): void;
}

/** Ends a trace whose outputs the fast path does not take. */
function notFloat64(): never {
  throw new UntraceableError('compileDerived: a value is not float64');
}

/**
 * `derived` as a function of the drawn nodes' values (model indices `drawn`; the other nodes keep
 * their values in `at`, e.g. the data), traced at `at` and compiled; then run at `check` (the same
 * nodes at another draw) and compared bit for bit with `derived` there.
 *
 * Returns undefined, so the caller runs the model per draw, when a drawn value or a named value
 * is not float64, when the model cannot be traced (an `UntraceableError`: it reads a value in
 * JavaScript with `item()`, casts to an integer, uses an op without a lowering — the compiler's
 * one fallback rule, `compileChecked`), or when the check disagrees (the model reads `Tensor.data`
 * where the tracer cannot see it, so its program holds the trace point's values). Any other error
 * is the model's own and propagates.
 */
export function compileDerived(derived: DerivedValues, names: readonly string[], drawn: readonly number[],
  at: readonly (Tensor | undefined)[], check: readonly (Tensor | undefined)[]): DerivedProgram | undefined {
  if (drawn.some((i) => at[i]!.dtype !== 'float64')) return undefined;
  // Another dtype would be stored differently by the eager path (as its own dtype, or float32 values).
  const isFloat64 = (t: unknown): t is Tensor => t instanceof Tensor && t.dtype === 'float64';
  const run = (xs: readonly Tensor[]): Tensor[] | undefined => {
    const values = [...at];
    drawn.forEach((i, q) => { values[i] = xs[q]; });
    const out = derived(values);
    const ts = names.map((n) => out[n]);
    return ts.every(isFloat64) ? ts : undefined;
  };
  let c;
  try {
    c = generate(traceProgram('compileDerived', (...xs) => run(xs) ?? notFloat64(), drawn.map((i) => at[i]!)), false);
  } catch (e) {
    if (e instanceof UntraceableError) return undefined;
    throw e;
  }
  const compiled: DerivedProgram = { inputs: c.inputs, outputs: c.outputs, shapes: c.outputShapes, run: () => c.run(false) };
  drawn.forEach((i, q) => compiled.inputs[q]!.set(check[i]!.data as Float64Array));
  compiled.run();
  return sameValues(run(drawn.map((i) => check[i]!)), compiled.outputs, compiled.shapes) ? compiled : undefined;
}

/** Whether the compiled values at `compiled` are `expected`'s, shape and bits. */
function sameValues(expected: readonly Tensor[] | undefined, outputs: readonly ArrayLike<number>[], shapes: readonly (readonly number[])[]): boolean {
  return expected !== undefined && expected.every((t, k) => t.shape.length === shapes[k]!.length
    && t.shape.every((d, a) => d === shapes[k]![a]) && t.data.every((x, e) => Object.is(x, outputs[k]![e])));
}

/**
 * `logLikelihood`'s pointwise log densities with each observed node's leaf parameters as the
 * program (traced at `at` as functions of the `drawn` nodes) and the log density taken from them
 * by `directLogProb` (leaf-kernels.ts). `observedAt(values)` gives the observed nodes'
 * distributions at model-order values, `data` their values; `pointwise` is the eager path, and
 * the result is compared bit for bit with it at `at` and at `check`.
 *
 * Returns undefined (the caller tries `compileDerived`) when an observed leaf has no direct log
 * density, a value is not float64, the model cannot be traced, or a check disagrees.
 */
export function compileLogLikelihood(observedAt: (values: readonly (Tensor | undefined)[]) => Distribution[], data: readonly Tensor[],
  pointwise: DerivedValues, names: readonly string[], drawn: readonly number[],
  at: readonly (Tensor | undefined)[], check: readonly (Tensor | undefined)[]): DerivedProgram | undefined {
  if (drawn.some((i) => at[i]!.dtype !== 'float64')) return undefined;
  const plans: NodePlan[] = [];
  let c;
  try {
    c = generate(traceProgram('compileLogLikelihood', (...xs) => {
      const values = [...at];
      drawn.forEach((i, q) => { values[i] = xs[q]; });
      const outputs: Tensor[] = [];
      plans.push(...observedAt(values).map((d) => planOf(d, outputs)));
      if (outputs.length === 0) throw new UntraceableError('compileLogLikelihood: no parameter to compile');
      return outputs;
    }, drawn.map((i) => at[i]!)), false);
  } catch (e) {
    if (e instanceof UntraceableError) return undefined;
    throw e;
  }
  const params = c.outputs.map((o) => (o instanceof Float64Array ? o : Float64Array.from(o)));
  const kernels = plans.map((p, k) => directLogProb(p, c.outputShapes, data[k]!));
  if (kernels.some((f) => f === undefined)) return undefined;
  const outputs = data.map((x) => new Float64Array(x.size));
  const compiled: DerivedProgram = {
    inputs: c.inputs, outputs, shapes: data.map((x) => x.shape),
    run: () => {
      c.run(false);
      for (let k = 0; k < kernels.length; k++) kernels[k]!(params, outputs[k]!);
    },
  };
  for (const point of [at, check]) {
    drawn.forEach((i, q) => compiled.inputs[q]!.set(point[i]!.data as Float64Array));
    compiled.run();
    const out = pointwise(point);
    if (!sameValues(names.map((n) => out[n]!), outputs, compiled.shapes)) return undefined;
  }
  return compiled;
}
