/**
 * Code generation: a traced program becomes one JavaScript function (built once with
 * `new Function`) that runs the forward pass and, optionally, the reverse pass over buffers
 * allocated here, once. A call allocates nothing.
 *
 * Element-wise ops (a lowering with `elementwise`) are written inline: with at most `UNROLL`
 * elements as straight-line code over local variables, larger ones as one loop each; their
 * scalar functions are bound once, so every call site sees one function and V8 inlines it.
 * Other ops call their lowering's `forward`/`backward` on preallocated buffers.
 *
 * The reverse pass follows the tape exactly: nodes from last to first, each op's parts in
 * operand order, the first part an input receives becomes its adjoint and later parts are added
 * to it, and inline code does each op's arithmetic in its kernel's order — so compiled values
 * and gradients have the tape's bits.
 */
import type { Constant, Flat, TraceNode } from '../tensor/lowering.js';
import { emitBackward, emitForward, type Emit } from './elementwise.js';
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

/** Element-wise nodes up to this size become straight-line code over locals (scalars only: unrolled vectors multiply call sites past V8's inlining budget, and a call left out-of-line boxes its result). */
const UNROLL = 1;

type Operand = TraceNode | Constant;
const isConst = (o: Operand): o is Constant => 'constant' in o;

/** A constant's values as float64 (bigints converted), copied so later changes to the user's data cannot reach the program. */
function constData(c: Constant): Float64Array | Flat {
  const d = c.data as unknown;
  if (d instanceof BigInt64Array || d instanceof BigUint64Array) return Float64Array.from(d, Number);
  return (c.data as Flat).slice();
}

/** Storage like `proto`'s class (a node keeps the dtype its op produced at trace time). */
function like(proto: Flat, n: number): Flat {
  return new (proto.constructor as new (n: number) => Flat)(n);
}

/** An exact JS literal for a double. */
export function lit(x: number): string {
  if (Object.is(x, -0)) return '(-0)';
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '(-Infinity)';
  return x < 0 ? `(${x})` : String(x);
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
  // Inline nodes: element-wise float64 (or bool) ops; unrolled when small.
  const inline = (n: TraceNode) => n.op?.elementwise !== undefined && (n.data instanceof Float64Array || n.data instanceof Uint8Array);
  // A fused op with its own value loop (`fill`) runs it over buffers: it is never unrolled, and its operands need buffers.
  const fills = (n: TraceNode) => { const ew = n.op?.elementwise; return ew?.kind === 'fused' && ew.fill !== null; };
  const unrolled = new Uint8Array(nodes.length);
  for (const n of nodes) if (live[n.index] && inline(n) && !fills(n) && n.size <= UNROLL && n.op!.elementwise!.kind !== 'segmentSum') unrolled[n.index] = 1;
  const needsBuffer = new Uint8Array(nodes.length);
  for (const o of program.outputs) if (!isConst(o)) needsBuffer[o.index] = 1;
  for (const n of nodes) {
    if (!live[n.index] || n.op === null) continue;
    if (!unrolled[n.index]) needsBuffer[n.index] = 1;
    // Operands read as arrays: by a kernel call, a fill, or through an index map.
    for (const o of n.operands) if (!isConst(o) && (!inline(n) || fills(n) || (o.size !== 1 && o.size !== n.size))) needsBuffer[o.index] = 1;
  }

  const inputs = program.inputs.map((n) => new Float64Array(n.size));
  const value: (Flat | undefined)[] = new Array(nodes.length);
  const valueName: (string | undefined)[] = new Array(nodes.length);
  program.inputs.forEach((n, i) => { value[n.index] = inputs[i]; valueName[n.index] = bind(inputs[i]); });
  const consts = new Map<Constant, { data: Flat; name: string }>();
  const constOf = (c: Constant) => {
    let e = consts.get(c);
    if (e === undefined) { const data = constData(c); e = { data, name: bind(data) }; consts.set(c, e); }
    return e;
  };
  for (const n of nodes) {
    if (!live[n.index] || n.op === null || !needsBuffer[n.index]) continue;
    value[n.index] = like(n.data, n.size);
    valueName[n.index] = bind(value[n.index]);
  }

  /** Expression for element k (a number, or the loop variable's name) of an operand read by an op of n elements. */
  const val = (o: Operand, k: number | string): string => {
    if (isConst(o)) {
      const c = constOf(o);
      if (o.data.length === 1) return lit(c.data[0]!);
      return typeof k === 'number' ? lit(c.data[k]!) : `${c.name}[${k}]`;
    }
    const kk = o.size === 1 ? 0 : k;
    return unrolled[o.index] ? `v${o.index}_${kk}` : `${valueName[o.index]}[${kk}]`;
  };

  const fwd: string[] = [];
  const operandData = (o: Operand) => (isConst(o) ? constOf(o).data : value[o.index]!);
  const arrayName = (o: Operand) => (isConst(o) ? constOf(o).name : valueName[o.index]!);
  const emit: Emit = { bind, lit, val, operandData, arrayName, unrolled: (i) => unrolled[i] === 1, valueName: (i) => valueName[i], line: (s) => fwd.push(s), scalarAdjoint: () => false, aliasAdjoint: () => false };
  for (const n of nodes) {
    if (n.op === null || !live[n.index]) continue;
    if (inline(n)) {
      emitForward(emit, n, unrolled[n.index] === 1, needsBuffer[n.index] === 1);
      continue;
    }
    const ins = n.operands.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));
    fwd.push(`${bind(n.op)}.forward(${bind(ins)}, ${valueName[n.index]});`);
  }
  const outputs = program.outputs.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));

  const grads = program.inputs.map((n) => new Float64Array(n.size));
  const back: string[] = [];
  const locals: string[] = [];
  const out0 = program.outputs[0]!;
  if (withGrad && !isConst(out0)) {
    // Adjoint of each node: local variables (unrolled nodes) or a buffer; `started` once a part has arrived.
    const adjoint: (Float64Array | undefined)[] = new Array(nodes.length);
    const started = new Uint8Array(nodes.length);
    const adjNames = new Map<number, string>();
    /** The bound name of node i's adjoint buffer (allocated here unless a part already became it). */
    const bufName = (i: number): string => {
      let s = adjNames.get(i);
      if (s === undefined) { adjoint[i] ??= new Float64Array(nodes[i]!.size); s = bind(adjoint[i]); adjNames.set(i, s); }
      return s;
    };
    // Nodes whose adjoint is one number for every element (see Emit.scalarAdjoint).
    const scalarAdj = new Map<number, string>();
    const readers = new Uint32Array(nodes.length);
    for (const n of nodes) if (live[n.index]) for (const o of n.operands) if (!isConst(o)) readers[o.index]++;
    for (const o of program.outputs) if (!isConst(o)) readers[o.index]++;
    const scalarAdjoint = (o: TraceNode, name: string): boolean => {
      if (started[o.index] || o.op === null || readers[o.index] !== 1 || unrolled[o.index] || !inline(o)) return false;
      scalarAdj.set(o.index, name);
      started[o.index] = 1;
      return true;
    };
    const givenAway = new Set<Float64Array>();
    const aliasAdjoint = (o: TraceNode, n: TraceNode): boolean => {
      // Not the output's seed of ones, which is written once, here, and must stay ones.
      if (started[o.index] || unrolled[o.index] || unrolled[n.index] || scalarAdj.has(n.index) || n.index === out0.index) return false;
      bufName(n.index);
      const buf = adjoint[n.index]!;
      if (givenAway.has(buf)) return false;                  // a second operand of n must not share it
      givenAway.add(buf);
      adjoint[o.index] = buf;
      adjNames.set(o.index, adjNames.get(n.index)!);
      started[o.index] = 1;
      return true;
    };
    /** Adjoint of node i at element k. */
    const adj = (i: number, k: number | string): string => scalarAdj.get(i) ?? (unrolled[i] ? `a${i}_${k}` : `${bufName(i)}[${k}]`);
    /** Adds `expr` to the adjoint of operand node o at k (assigns it for o's first part). */
    const contribute = (o: TraceNode, k: number | string, expr: string, first: boolean): string => `${adj(o.index, k)} ${first ? '=' : '+='} ${expr};`;
    const isFirst = (o: TraceNode): boolean => { const f = started[o.index] === 0; started[o.index] = 1; return f; };

    if (unrolled[out0.index]) for (let k = 0; k < out0.size; k++) back.push(`a${out0.index}_${k} = 1;`);
    else adjoint[out0.index] = new Float64Array(out0.size).fill(1);
    started[out0.index] = 1;
    for (let i = out0.index; i >= 0; i--) {
      const n = nodes[i]!;
      if (!started[i] || n.op === null || !live[i]) continue;
      if (inline(n)) {
        // Small nodes take literal indices even when their value is in a buffer (their operands may be locals).
        emitBackward({ ...emit, line: (s) => back.push(s), scalarAdjoint, aliasAdjoint }, n, n.size <= UNROLL, (k) => adj(i, k), contribute, isFirst);
        continue;
      }
      const op = n.op;
      if (op.backward === undefined) continue;
      const parts = n.operands.map((o, j) => (isConst(o) || op.gradOperands?.[j] === false ? null : new Float64Array(o.size)));
      const ins = n.operands.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));
      back.push(`${bind(op)}.backward(${bufName(i)}, ${bind(ins)}, ${valueName[i]}, ${bind(parts)});`);
      n.operands.forEach((o, j) => {
        const part = parts[j];
        if (part === null || part === undefined || isConst(o)) return;
        const first = isFirst(o);
        if (!unrolled[o.index] && first && adjoint[o.index] === undefined) { adjoint[o.index] = part; return; }   // the part becomes the adjoint
        const p = bind(part);
        if (unrolled[o.index]) for (let k = 0; k < o.size; k++) back.push(contribute(o, k, `${p}[${k}]`, first));
        else back.push(`for (let k = 0; k < ${o.size}; k++) ${contribute(o, 'k', `${p}[k]`, first)}`);
      });
    }
    program.inputs.forEach((n, j) => {
      if (started[n.index]) back.push(`${bind(grads[j])}.set(${bufName(n.index)});`);
    });
    for (const n of nodes) if (unrolled[n.index] && started[n.index]) for (let k = 0; k < n.size; k++) locals.push(`a${n.index}_${k}`);
  }

  const names = env.map((_, i) => `e${i}`);
  const source = `"use strict";\nconst [${names.join(', ')}] = env;\nreturn function run(withGrad) {\n${fwd.join('\n')}\nif (!withGrad) return;\n${
    locals.length > 0 ? `let ${locals.map((l) => `${l} = 0`).join(', ')};\n` : ''}${back.join('\n')}\n};`;
  const run = new Function('env', source)(env) as (withGrad: boolean) => void;
  return { inputs, outputs, outputShapes: program.outputShapes, grads, run, source };
}
