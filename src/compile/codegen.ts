/**
 * Code generation: a traced program becomes one JavaScript function (built once with
 * `new Function`) that runs the forward pass and, optionally, the reverse pass over buffers
 * allocated here, once. A call allocates nothing.
 *
 * The reverse pass follows the tape exactly: nodes from last to first, each op's parts in
 * operand order, the first part an input receives becomes its adjoint and later parts are added
 * to it, so compiled gradients have the tape's bits.
 */
import type { Constant, Flat, Lowering, TraceNode } from '../tensor/lowering.js';
import type { Program } from './trace.js';

/** What a compiled program exposes: write `inputs`, call `run`, read `outputs` and `grads`. */
export interface Compiled {
  /** One buffer per input; write the point here before `run`. */
  readonly inputs: readonly Float64Array[];
  /** One buffer per output (its values after `run`). */
  readonly outputs: readonly ArrayLike<number>[];
  readonly outputShapes: readonly (readonly number[])[];
  /** Gradient of the sum of output 0 per input (after `run(true)`); zeros where it does not depend on the input. */
  readonly grads: readonly Float64Array[];
  /** Runs the forward pass, and the reverse pass too when `withGrad`. */
  run(withGrad: boolean): void;
  /** The generated source, for inspection. */
  readonly source: string;
}

type Operand = TraceNode | Constant;

const isConst = (o: Operand): o is Constant => 'constant' in o;

/** A constant's values as float64 (bigints converted), copied so later changes to the user's data cannot reach the program. */
function constData(c: Constant): ArrayLike<number> {
  const d = c.data as unknown;
  if (d instanceof BigInt64Array || d instanceof BigUint64Array) return Float64Array.from(d, Number);
  return (c.data as Flat).slice();
}

/** Storage like `proto`'s class (a node keeps the dtype its op produced at trace time). */
function like(proto: Flat, n: number): Flat {
  return new (proto.constructor as new (n: number) => Flat)(n);
}

export function generate(program: Program, withGrad: boolean): Compiled {
  const nodes = program.trace.nodes;
  const env: unknown[] = [];
  const bind = (v: unknown): string => { env.push(v); return `e${env.length - 1}`; };

  // Live nodes: those an output depends on.
  const live = new Uint8Array(nodes.length);
  for (const o of program.outputs) if (!isConst(o)) live[o.index] = 1;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!live[i]) continue;
    for (const o of nodes[i]!.operands) if (!isConst(o)) live[o.index] = 1;
  }

  const inputs = program.inputs.map((n) => new Float64Array(n.size));
  const value: (Flat | undefined)[] = new Array(nodes.length);
  program.inputs.forEach((n, i) => { value[n.index] = inputs[i]; });
  const consts = new Map<Constant, ArrayLike<number>>();
  const read = (o: Operand): ArrayLike<number> => {
    if (!isConst(o)) return value[o.index]!;
    let d = consts.get(o);
    if (d === undefined) { d = constData(o); consts.set(o, d); }
    return d;
  };

  const lines: string[] = [];
  const ops: (string | undefined)[] = new Array(nodes.length), insName: (string | undefined)[] = new Array(nodes.length);
  const outName: (string | undefined)[] = new Array(nodes.length);
  for (const n of nodes) {
    if (n.op === null || !live[n.index]) continue;
    value[n.index] = like(n.data, n.size);
    ops[n.index] = bind(n.op);
    insName[n.index] = bind(n.operands.map(read));
    outName[n.index] = bind(value[n.index]);
    lines.push(`${ops[n.index]}.forward(${insName[n.index]}, ${outName[n.index]});`);
  }
  const outputs = program.outputs.map((o) => read(o));

  const grads = program.inputs.map((n) => new Float64Array(n.size));
  const back: string[] = [];
  const out0 = program.outputs[0]!;
  if (withGrad && !isConst(out0)) {
    const adjoint: (Float64Array | undefined)[] = new Array(nodes.length);
    adjoint[out0.index] = new Float64Array(out0.size).fill(1);   // d Σ output / d output
    for (let i = out0.index; i >= 0; i--) {
      const n = nodes[i]!, g = adjoint[i];
      if (g === undefined || n.op === null) continue;
      const op: Lowering = n.op;
      if (op.backward === undefined) continue;
      const parts = n.operands.map((o, j) => (isConst(o) || op.gradOperands?.[j] === false ? null : new Float64Array(o.size)));
      back.push(`${ops[i]}.backward(${bind(g)}, ${insName[i]}, ${outName[i]}, ${bind(parts)});`);
      n.operands.forEach((o, j) => {
        const part = parts[j];
        if (part === null || part === undefined || isConst(o)) return;
        const acc = adjoint[o.index];
        if (acc === undefined) { adjoint[o.index] = part; return; }
        back.push(`for (let k = 0; k < ${part.length}; k++) ${bind(acc)}[k] += ${bind(part)}[k];`);
      });
    }
    program.inputs.forEach((n, i) => {
      const acc = adjoint[n.index];
      if (acc !== undefined) back.push(`${bind(grads[i])}.set(${bind(acc)});`);
    });
  }

  const names = env.map((_, i) => `e${i}`);
  const source = `"use strict";\nconst [${names.join(', ')}] = env;\nreturn function run(withGrad) {\n${lines.join('\n')}\nif (!withGrad) return;\n${back.join('\n')}\n};`;
  const run = new Function('env', source)(env) as (withGrad: boolean) => void;
  return { inputs, outputs, outputShapes: program.outputs.map((o) => o.shape), grads, run, source };
}
