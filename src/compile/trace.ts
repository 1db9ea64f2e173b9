/**
 * Tracing: run a tensor function once over traced inputs of fixed shapes and keep the program it
 * ran — every op on a traced value as a node with its lowering and operands (traced nodes or
 * constants). Values that do not depend on the inputs (data, pinned observations, parameters
 * built from them) are computed once, here, and enter the program as constants.
 */
import { fail } from '../checks.js';
import { asTensor, type TensorLike } from '../tensor/core.js';
import { Trace, type Constant, type TraceNode } from '../tensor/lowering.js';
import { withTape } from '../tensor/tape.js';
import { Tensor } from '../tensor/tensor.js';

/** A traced function: its input nodes, every recorded node, and its outputs. */
export interface Program {
  readonly trace: Trace;
  readonly inputs: readonly TraceNode[];
  /** Outputs: traced nodes, or constants when an output does not depend on the inputs. */
  readonly outputs: readonly (TraceNode | Constant)[];
  /** The shapes f returned (a reshape that shares its operand's node keeps only the node's shape). */
  readonly outputShapes: readonly (readonly number[])[];
}

/**
 * Runs `f` once over `inputs` (float64 tensors whose values are the trace point) with every op
 * recorded, and returns the program. `f` returns one tensor or an array of tensors.
 *
 * @throws TypeError naming the op when `f` uses an op with no lowering, or reads a traced value
 *   in JavaScript (`item()`, `toArray()`, an integer cast).
 */
export function traceProgram(fn: string, f: (...xs: Tensor[]) => TensorLike | readonly TensorLike[], inputs: readonly Tensor[]): Program {
  const trace = new Trace();
  const nodes = inputs.map((x) => trace.input(Float64Array.from(x.data as ArrayLike<number>), x.shape));
  const traced = nodes.map((node, i) => new Tensor(node.data as Float64Array, inputs[i]!.shape, 'float64', node));
  const out = withTape(trace, () => f(...traced));
  const list = Array.isArray(out) ? out : [out];
  if (list.length === 0) fail('range', fn, 'f', 'must return at least one tensor', out);
  const tensors = list.map((o, i) => asTensor(fn, `f(...)[${i}]`, o));
  const outputs = tensors.map((t) => {
    if (t.node !== undefined && t.node.tape === trace) return t.node as TraceNode;
    return { constant: true as const, data: Float64Array.from(t.data as ArrayLike<number>), shape: t.shape };
  });
  return { trace, inputs: nodes, outputs, outputShapes: tensors.map((t) => t.shape) };
}

/** A listing of the program, one op per line (for debugging and error messages). */
export function formatProgram(p: Program): string {
  const name = (o: TraceNode | Constant) => ('constant' in o ? `const[${o.shape.join(',')}]` : `%${o.index}`);
  return p.trace.nodes.map((n) => (n.op === null
    ? `%${n.index} = input [${n.shape.join(', ')}]`
    : `%${n.index} = ${n.op.name}(${n.operands.map(name).join(', ')}) [${n.shape.join(', ')}]`)).join('\n');
}
