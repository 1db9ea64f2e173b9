/**
 * What every op needs: argument conversion, the float dtype rule, and creating a result that
 * records a tape node when an input is being differentiated.
 */
import { fail } from '../checks.js';
import type { DType } from './dtype.js';
import { isTraced, nestedGradError, noLoweringError, Trace, type Flat, type Lowering } from './lowering.js';
import { currentTape, type TapeNode } from './tape.js';
import { Tensor, tensor } from './tensor.js';

/** What ops accept where a tensor is expected: a Tensor, a number, or nested arrays of numbers. */
export type TensorLike = Tensor | number | boolean | readonly unknown[] | ArrayBufferView;

/** `x` as a Tensor (numbers and nested arrays become float64 tensors). */
const SCALAR_SHAPE: readonly number[] = Object.freeze([]);

export function asTensor(fn: string, arg: string, x: unknown): Tensor {
  if (x instanceof Tensor) return x;
  if (typeof x === 'number') return new Tensor(Float64Array.of(x), SCALAR_SHAPE, 'float64', undefined, true);
  if (typeof x === 'number' || typeof x === 'boolean' || Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView))) {
    return tensor(x);
  }
  fail('type', fn, arg, 'must be a Tensor, a number or a nested array of numbers', x);
}

export type FloatKind = 'float32' | 'float64';

/** Math ops compute in float64; the result is float32 only when every input is float32. */
export function floatKind(...ts: readonly Tensor[]): FloatKind {
  for (let i = 0; i < ts.length; i++) if (ts[i]!.dtype !== 'float32') return 'float64';
  return 'float32';
}

/** Values of any tensor as numbers (bigints converted). */
export function numbers(t: Tensor): ArrayLike<number> {
  return t.dtype === 'int64' || t.dtype === 'uint64' ? Float64Array.from(t.data as BigInt64Array, Number) : (t.data as ArrayLike<number>);
}

/** Storage for `n` values of a float kind. */
export function floatStorage(kind: FloatKind, n: number): Float64Array | Float32Array {
  return kind === 'float32' ? new Float32Array(n) : new Float64Array(n);
}

/** Vector–Jacobian product: output adjoint → one adjoint per input (null: no contribution). */
export type Vjp = (g: Float64Array) => readonly (Float64Array | null)[];

/**
 * The result of an op: a tensor that records a tape node when any input is tracked on the
 * current tape. `vjp` is called lazily, during the backward pass only. `op` is the op's
 * lowering (or just its name): while a function is traced for compilation, the result records
 * the lowering instead, whatever `vjp` is, and an op with only a name fails the trace.
 */
export function result(
  data: Float64Array | Float32Array, shape: readonly number[], inputs: readonly Tensor[], vjp: Vjp | null, dtype?: DType,
  op?: Lowering | string,
): Tensor {
  const tape = currentTape();
  let node: TapeNode | undefined;
  if (tape !== undefined) {
    let tracked = false;
    for (let i = 0; i < inputs.length; i++) if (inputs[i]!.node?.tape === tape) { tracked = true; break; }
    if (tracked && tape instanceof Trace) {
      if (op === undefined || typeof op === 'string') throw noLoweringError(op ?? 'an op');
      node = tape.record(op, inputs, data as Flat, shape);
    } else if (tracked && vjp !== null) {
      const nodes = new Array<TapeNode | null>(inputs.length);
      for (let i = 0; i < inputs.length; i++) { const n = inputs[i]!.node; nodes[i] = n !== undefined && n.tape === tape ? n : null; }
      node = tape.add(data.length, nodes, vjp);
    } else if (!tracked) {
      for (let i = 0; i < inputs.length; i++) {
        if (isTraced(inputs[i]!.node)) throw nestedGradError();
      }
    }
  }
  return new Tensor(data, shape, dtype ?? (data instanceof Float32Array ? 'float32' : 'float64'), node, true);
}

/**
 * Runs `op` on the inputs' values into storage of `size` values (float32 only when every input is
 * float32) and returns the result of `shape`, recorded with `op`: its vector–Jacobian product runs
 * `op.backward` into fresh arrays for the tracked inputs (no gradient when `op` has no backward).
 */
export function applyLowering(op: Lowering, inputs: readonly Tensor[], shape: readonly number[], size: number): Tensor {
  const vals = inputs.map(numbers);
  const out = floatStorage(floatKind(...inputs), size);
  op.forward(vals, out);
  if (op.backward === undefined) return result(out, shape, inputs, null, undefined, op);
  const need = inputs.map(isTracked);
  return result(out, shape, inputs, (g) => {
    const parts = inputs.map((t, i) => (need[i] ? new Float64Array(t.size) : null));
    op.backward!(g, vals, out, parts);
    return parts;
  }, undefined, op);
}

/** True while a function is being traced for compilation (ops then build their lowering). */
export function tracing(): boolean {
  return currentTape() instanceof Trace;
}

/** True if the current tape tracks `t`. */
export function isTracked(t: Tensor): boolean {
  const tape = currentTape();
  return tape !== undefined && t.node !== undefined && t.node.tape === tape;
}
