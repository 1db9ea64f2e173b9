/**
 * The fast path of the per-draw evaluations in `predictive.ts` (`computeDeterministics`'s derived
 * values, `logLikelihood`'s pointwise log densities): the map from one draw's node values to named
 * tensors, traced once (`src/compile/`) and then run per draw as generated JavaScript over
 * Float64Arrays, instead of running the model per draw through the eager ops. The generated code
 * calls the eager ops' own kernels and scalar functions, so it gives the same bits.
 */
import { generate } from '../../src/compile/codegen.js';
import { traceProgram } from '../../src/compile/trace.js';
import { UntraceableError } from '../../src/tensor/lowering.js';
import { Tensor } from '../../src/tensor/tensor.js';

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
  const expected = run(drawn.map((i) => check[i]!));
  const same = expected !== undefined && expected.every((t, k) => t.shape.length === compiled.shapes[k]!.length
    && t.shape.every((d, a) => d === compiled.shapes[k]![a]) && t.data.every((x, e) => Object.is(x, compiled.outputs[k]![e])));
  return same ? compiled : undefined;
}
