/**
 * Code generation: a traced program becomes one JavaScript function (built once with
 * `new Function`) that runs the forward pass and, optionally, the reverse pass over buffers
 * allocated here, once. A call allocates nothing.
 *
 * Element-wise ops (a lowering with `elementwise`) are written inline: scalars as straight-line
 * code over local variables; chains of one size fused into one loop (forward: each member's
 * value a local for the next; reverse: each member's adjoint a local), other ops of that size as
 * a loop each. Their scalar functions are bound once, so every call site sees one function and
 * V8 inlines it. Other ops call their lowering's `forward`/`backward` on preallocated buffers.
 *
 * The reverse pass keeps the tape's bits: each op's arithmetic in its kernel's order, and each
 * adjoint summed in the tape's order — nodes from last to first, each op's parts in operand
 * order, the first part assigned and later ones added (decided in code order at the end, see
 * `resolveMarks`). A fused member's part for a node outside its loop waits for the member's own
 * place in that order when a node between them sends the same node a part.
 */
import type { Constant, Flat, TraceNode } from '../tensor/lowering.js';
import { chunkRun } from './chunk.js';
import { eachElement, emitBackward, emitForward, type Emit } from './elementwise.js';
import { KernelHelpers, smallKernel } from './inline-kernels.js';
import { attachNodes, concatBackward, concatForward, concatPieces, planRolls, RollFallback, rolledBackward, rolledForward, rollingEnabled, runArrays, runPrelude, type RollPlan } from './roll.js';
import type { Program } from './trace.js';

/** What a compiled program exposes: write `inputs`, call `run`, read `outputs` and `grads`. */
export interface Compiled {
  /** One buffer per input; write the point here before `run`. */
  readonly inputs: readonly Float64Array[];
  /** All inputs in order, one flat buffer (`inputs` are views of it). */
  readonly flatInput: Float64Array;
  /** One buffer per output (its values after `run`). */
  readonly outputs: readonly ArrayLike<number>[];
  readonly outputShapes: readonly (readonly number[])[];
  /** Gradient of the sum of output 0 per input (after `run(true)`); zeros where it does not depend on the input. */
  readonly grads: readonly Float64Array[];
  /** All gradients in order, one flat buffer (`grads` are views of it). */
  readonly flatGrad: Float64Array;
  /** Runs the forward pass, and the reverse pass too when `withGrad`. */
  run(withGrad: boolean): void;
  /**
   * The flat value-and-gradient form `(x, grad) => output 0` (x copied into `flatInput`, `run(true)`,
   * `flatGrad` copied into grad), generated beside `run` so each program has its own monomorphic
   * copy loops and V8 can inline `run` (a wrapper shared by every program measured ~15% slower on
   * eight schools). Present when output 0 is one value and gradients were generated. Arguments are not checked.
   */
  readonly valueAndGrad?: (x: ArrayLike<number>, grad: Float64Array) => number;
  /**
   * The flat forward-only form `(x, out) => void`: x copied into `flatInput`, `run(false)`, and
   * every output's values copied into `out` in order (output 0's first). The forward arithmetic
   * is `run`'s, so the values have the bits `valueAndGrad` computes with; no reverse pass is paid
   * (an ODE solver's right-hand side calls, src/ode/rhs.ts). Arguments are not checked.
   */
  readonly values: (x: ArrayLike<number>, out: Float64Array) => void;
  /** The generated source, for inspection. */
  readonly source: string;
  /** The values the source binds (`const [e0, e1, …] = env`), in order: buffers, constants, lowerings, scalar functions (see `exportCompiled`). */
  readonly env: readonly unknown[];
}

/** Element-wise nodes up to this size become straight-line code over locals (scalars only: unrolled vectors multiply call sites past V8's inlining budget, and a call left out-of-line boxes its result). */
const UNROLL = 1;
/** `valueAndGrad` copies a point in and its gradient out with one statement per element up to this size. */
const COPY_UNROLL = 32;

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

/** Marks around a reverse-pass write whose operator (`=` for the first part, `+=` after) is decided at the end, in code order. */
const MARK = '\u0001';

/**
 * Fused loops: groups of inline element-wise nodes of one loop size (a `total` joins the loop of
 * its operand) that run as one loop, forward and reverse. A node joins the open group of its size;
 * a node outside a group that reads one of its members closes it (so the group's loop, emitted
 * where its last member was, runs before every outside reader). Groups of one node stay plain.
 */
function fuseLoops(nodes: readonly TraceNode[], live: Uint8Array, loopSize: (n: TraceNode) => number): { group: Int32Array; members: number[][] } {
  const group = new Int32Array(nodes.length).fill(-1);
  const members: number[][] = [];
  const open = new Map<number, number>();          // loop size → its open group
  const isTotal = (i: number) => nodes[i]!.op!.elementwise!.kind === 'total';
  for (const n of nodes) {
    if (n.op === null || !live[n.index]) continue;
    const size = loopSize(n);
    let target = size > 0 ? open.get(size) : undefined;
    // Reading a group's sum needs its loop finished: that group closes, as for any outside reader.
    if (target !== undefined && n.operands.some((o) => !isConst(o) && group[o.index] === target && isTotal(o.index))) target = undefined;
    // A matvec reads its whole vector (into locals before its loop): the vector's loop must be finished.
    if (target !== undefined && n.op!.elementwise?.kind === 'matvec' && !isConst(n.operands[1]!) && group[n.operands[1]!.index] === target) target = undefined;
    for (const o of n.operands) {
      const h = isConst(o) ? -1 : group[o.index]!;
      if (h >= 0 && h !== target) for (const [s, q] of open) if (q === h) open.delete(s);
    }
    if (size === 0) continue;
    if (target === undefined) { target = members.length; members.push([]); open.set(size, target); }
    members[target]!.push(n.index);
    group[n.index] = target;
  }
  for (const m of members) if (m.length === 1) group[m[0]!] = -1;
  return { group, members };
}

/**
 * Adjoints known when the code is written: the output's seed of ones, passed on through sums,
 * `add`/`sub` and products with a scalar constant, each part computed here with the arithmetic
 * the reverse pass would do, summed in its order (readers from last to first). Only inline nodes
 * (a kernel's backward reads its adjoint buffer) read once by each reader. Their readers use the
 * literal and writes to them are dropped, so a loop whose adjoints from outside are all fixed can
 * run its reverse step inside its forward loop.
 */
function fixedAdjoints(nodes: readonly TraceNode[], live: Uint8Array, readers: readonly (readonly number[])[], outputReads: Uint32Array,
  out0: TraceNode, inline: (n: TraceNode) => boolean): (number | undefined)[] {
  const fixed: (number | undefined)[] = new Array(nodes.length);
  fixed[out0.index] = 1;
  /** Reader r's part for its operand o (one element's), or undefined when it depends on values. */
  const part = (r: TraceNode, o: TraceNode): number | undefined => {
    const c = fixed[r.index], ew = r.op!.elementwise;
    if (c === undefined || ew === undefined) return undefined;
    if (ew.kind === 'total') return c * ew.scale;
    if (ew.kind !== 'binary' || ew.maps !== undefined) return undefined;
    const j = r.operands[0] === o ? 0 : 1, p = j === 0 ? ew.da : ew.db, other = r.operands[1 - j]!;
    const times = typeof p === 'number' ? p : p === 'other' && isConst(other) && other.data.length === 1 ? Number(other.data[0]) : undefined;
    if (times === undefined) return undefined;
    if (o.size === r.size) return c * times;
    let s = 0;                                // a broadcast scalar: the parts summed over the reader's elements
    for (let k = 0; k < r.size; k++) s += typeof p === 'number' ? c : c * times;
    return typeof p === 'number' && p !== 1 ? s * p : s;
  };
  for (let i = out0.index - 1; i >= 0; i--) {
    const o = nodes[i]!, rs = readers[i]!;
    if (!live[i] || o.op === null || !inline(o) || outputReads[i] !== 0 || rs.length === 0 || new Set(rs).size !== rs.length) continue;
    let sum: number | undefined;
    for (let q = rs.length - 1; q >= 0; q--) {
      const v = part(nodes[rs[q]!]!, o);
      if (v === undefined) { sum = undefined; break; }
      sum = sum === undefined ? v : sum + v;
    }
    fixed[i] = sum;
  }
  return fixed;
}

export function generate(program: Program, withGrad: boolean): Compiled {
  // Repeated steps as loops (roll.ts) where they can be; straight-line code otherwise.
  if (rollingEnabled()) {
    try {
      return generateWith(program, withGrad, true);
    } catch (e) {
      if (!(e instanceof RollFallback)) throw e;
    }
  }
  return generateWith(program, withGrad, false);
}

function generateWith(program: Program, withGrad: boolean, roll: boolean): Compiled {
  const nodes = program.trace.nodes;
  const env: unknown[] = [];
  const bind = (v: unknown): string => { env.push(v); return `e${env.length - 1}`; };
  const helpers = new KernelHelpers(bind);   // small take/logsumexp kernels as generated functions (inline-kernels.ts)

  // Live nodes: those an output depends on.
  const live = new Uint8Array(nodes.length);
  for (const o of program.outputs) if (!isConst(o)) live[o.index] = 1;
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!live[i]) continue;
    for (const o of nodes[i]!.operands) if (!isConst(o)) live[o.index] = 1;
  }
  // Inline nodes: element-wise float64 (or bool) ops; unrolled when small.
  const inline = (n: TraceNode) => n.op?.elementwise !== undefined && (n.data instanceof Float64Array || n.data instanceof Uint8Array)
    && (n.op.elementwise.kind !== 'matvec' || (isConst(n.operands[0]!) && !isConst(n.operands[1]!)));
  const plan = roll ? rollPlan(program, live, inline) : undefined;
  const rolled = (i: number): boolean => plan !== undefined && plan.runOf[i]! >= 0;
  const unrolled = new Uint8Array(nodes.length);
  for (const n of nodes) if (live[n.index] && inline(n) && n.size <= UNROLL && n.op!.elementwise!.kind !== 'segmentSum' && !rolled(n.index)) unrolled[n.index] = 1;
  // The loop a node can share: its size (its operand's for a total); 0 when it cannot (unrolled, read through index maps).
  const loopSize = (n: TraceNode): number => {
    if (!inline(n) || rolled(n.index)) return 0;
    const ew = n.op!.elementwise!;
    if (ew.kind === 'total') { const x = n.operands[0]!; return !isConst(x) && x.size > UNROLL ? x.size : 0; }
    if (ew.kind === 'matvec') return unrolled[n.index] ? 0 : n.size;
    if (unrolled[n.index] || ew.kind === 'segmentSum' || ((ew.kind === 'binary' || ew.kind === 'fused') && ew.maps?.some((m) => m))) return 0;
    return n.operands.every((o) => { const s = isConst(o) ? o.data.length : o.size; return s === n.size || s === 1; }) ? n.size : 0;
  };
  const { group, members } = fuseLoops(nodes, live, loopSize);
  const last = (g: number) => members[g]![members[g]!.length - 1]!;
  const needsBuffer = new Uint8Array(nodes.length);
  for (const o of program.outputs) if (!isConst(o)) needsBuffer[o.index] = 1;
  for (const n of nodes) {
    if (!live[n.index] || n.op === null) continue;
    if (!unrolled[n.index]) needsBuffer[n.index] = 1;
    // Operands read as arrays: by a kernel call, or through an index map.
    for (const o of n.operands) if (!isConst(o) && (!inline(n) || (o.size !== 1 && o.size !== n.size))) needsBuffer[o.index] = 1;
  }

  // Inputs (and gradients) are views of one flat buffer, so a caller copies a point in (out) at once.
  const views = (flat: Float64Array) => { let o = 0; return program.inputs.map((n) => { o += n.size; return flat.subarray(o - n.size, o); }); };
  const flatInput = new Float64Array(program.inputs.reduce((a, n) => a + n.size, 0)), flatGrad = new Float64Array(flatInput.length);
  const inputs = views(flatInput);
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
    // A rolled node's value is its step's element of its position's array: a token replaced at the end.
    if (rolled(n.index)) {
      const run = plan!.runs[plan!.runOf[n.index]!]!;
      valueName[n.index] = run.views ? `${runArrays(run, bind).V[plan!.positionOf[n.index]!]}[${plan!.stepOf[n.index]! + run.offset}]` : `${TOKEN}v${n.index}${TOKEN}`;
      continue;
    }
    value[n.index] = like(n.data, n.size);
    valueName[n.index] = bind(value[n.index]);
  }

  /** The group whose forward loop is being written (its members' values are locals `v{i}` there), or −1. */
  let forwardGroup = -1;
  /** Fused members whose values are read from their buffers (outside their loop, or by the reverse pass): only those are stored. */
  const stored = new Uint8Array(nodes.length);
  for (const o of program.outputs) if (!isConst(o)) stored[o.index] = 1;
  for (const n of nodes) if (live[n.index]) for (const o of n.operands) if (!isConst(o) && group[o.index]! >= 0 && group[o.index] !== group[n.index]) stored[o.index] = 1;
  /** Expression for element k (a number, or the loop variable's name) of an operand read by an op of n elements. */
  const val = (o: Operand, k: number | string): string => {
    if (isConst(o)) {
      const c = constOf(o);
      if (o.data.length === 1) return lit(c.data[0]!);
      return typeof k === 'number' ? lit(c.data[k]!) : `${c.name}[${k}]`;
    }
    const kk = o.size === 1 ? 0 : k;
    if (unrolled[o.index]) return `v${o.index}_${kk}`;
    if (forwardGroup >= 0 && group[o.index] === forwardGroup) return `v${o.index}`;
    stored[o.index] = 1;
    return `${valueName[o.index]}[${kk}]`;
  };

  const fwd: string[] = [];
  const operandData = (o: Operand) => (isConst(o) ? constOf(o).data : value[o.index]!);
  const arrayName = (o: Operand) => (isConst(o) ? constOf(o).name : valueName[o.index]!);
  const emit: Emit = {
    bind, lit, val, operandData, arrayName, unrolled: (i) => unrolled[i] === 1, valueName: (i) => valueName[i], line: (s) => fwd.push(s), declare: (s) => fwd.push(s),
    loop: (n, u, body) => eachElement((s) => fwd.push(s), n, u, body), scalarAdjoint: () => false, aliasAdjoint: () => false,
  };
  /**
   * Writes group g's loop with `emitOne` per member: what a member writes before its loop body
   * goes before the loop (`pre`), its body into the shared loop, what it writes after to `after(i)`.
   */
  /** True while a fused loop's body is being written (`Emit.loop` inside `fusedLoop`). */
  let inBody = false;
  const fusedLoop = (g: number, order: readonly number[], base: Emit, after: (i: number) => (s: string) => void, wrap: boolean,
    emitOne: (e: Emit, i: number) => void): { pre: string[]; body: string[] } => {
    const pre: string[] = [], body: string[] = [];
    for (const i of order) {
      let inLoop = false;
      const post = after(i);
      const loop = (_n: number, _u: boolean, f: (k: number | string) => string) => {
        inBody = true;
        const code = f('k');
        inBody = false;
        body.push(wrap ? `{ ${code} }` : code);
        inLoop = true;
      };
      emitOne({ ...base, line: (s) => (inLoop ? post(s) : pre.push(s)), declare: (s) => pre.push(s), loop }, i);
    }
    return { pre, body };
  };
  const loopSizeOf = (g: number) => loopSize(nodes[members[g]![0]!]!);
  // Written after the reverse pass, which decides which fused values are stored.
  const writeForward = (): void => {
    for (const n of nodes) {
      if (n.op === null || !live[n.index]) continue;
      if (rolled(n.index)) {
        const run = plan!.runs[plan!.runOf[n.index]!]!;
        if (run.nodes[0] === n.index) fwd.push(rolledForward(run, rollContext));
        continue;
      }
      const pieces = plan === undefined ? undefined : concatPieces(plan, n);
      if (pieces !== undefined) { fwd.push(concatForward(pieces, valueName[n.index]!, (j) => arrayName(n.operands[j]!), bind)); continue; }
      const g = group[n.index]!;
      if (g >= 0) {
        if (n.index !== last(g)) continue;
        forwardGroup = g;
        const post: string[] = [];
        const { pre, body } = fusedLoop(g, members[g]!, emit, () => (s) => post.push(s), false,
          (e, i) => emitForward(e, nodes[i]!, 'fused', (unrolled[i] ? needsBuffer[i] : stored[i]) === 1));
        forwardGroup = -1;
        const rev = reverseInForward.get(g);
        if (rev === undefined) fwd.push(...pre, `for (let k = 0; k < ${loopSizeOf(g)}; k++) {`, ...body, '}', ...post);
        else fwd.push(...pre, ...rev.pre, `for (let k = 0; k < ${loopSizeOf(g)}; k++) {`, ...body, 'if (withGrad) {', ...rev.body, '}', '}', ...post);
        continue;
      }
      if (inline(n)) {
        emitForward(emit, n, unrolled[n.index] ? 'unrolled' : 'loop', needsBuffer[n.index] === 1);
        continue;
      }
      const inlined = n.operands.length === 1 ? helpers.forward(n.op, arrayName(n.operands[0]!), valueName[n.index]!)
        : helpers.forwardMany(n.op, n.operands.map(arrayName), valueName[n.index]!);
      if (inlined !== undefined) { fwd.push(inlined); continue; }
      const ins = n.operands.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));
      fwd.push(`${bind(n.op)}.forward(${bind(ins)}, ${valueName[n.index]});`);
    }
  };
  const outputs = program.outputs.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));
  const rollContext = {
    bind, lit, outside: (o: TraceNode, k: number | string) => val(o, k), arrayOf: (o: TraceNode) => arrayName(o),
    kernelForward: (n: TraceNode, x: string, out: string) => helpers.forward(n.op!, x, out)!,
    kernelBackward: (n: TraceNode, x: string, out: string, g: string, part: string, size: number) => helpers.backward(n.op!, x, out, g, part, size)!,
  };

  const grads = views(flatGrad);
  const back: string[] = [];
  /** Reverse loops that run inside their group's forward loop (see `hoistable`): lines before the loop and the body. */
  const reverseInForward = new Map<number, { pre: string[]; body: string[] }>();
  /** Adjoint locals `a{i}_{k}` (k < locals[i]) of unrolled nodes, declared where first used. */
  const locals = new Int32Array(nodes.length);
  const out0 = program.outputs[0]!;
  if (withGrad && !isConst(out0)) {
    // Adjoint of each node: local variables (unrolled nodes, members in their fused loop) or a
    // buffer; `started` once a part has been written (in the order the code is written).
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
    const readers: number[][] = nodes.map(() => []);
    for (const n of nodes) if (live[n.index]) for (const o of n.operands) if (!isConst(o)) readers[o.index]!.push(n.index);
    const outputReads = new Uint32Array(nodes.length);
    for (const o of program.outputs) if (!isConst(o)) outputReads[o.index]++;
    const fixed = fixedAdjoints(nodes, live, readers, outputReads, out0, (n) => inline(n) && !rolled(n.index));
    // A rolled node's adjoint is its step's element of its position's adjoint array: a token replaced at the end.
    for (let i = 0; i < nodes.length; i++) {
      if (!rolled(i)) continue;
      const run = plan!.runs[plan!.runOf[i]!]!;
      adjNames.set(i, run.views ? `${runArrays(run, bind).AV[plan!.positionOf[i]!]}[${plan!.stepOf[i]}]` : `${TOKEN}a${i}${TOKEN}`);
    }
    const scalarAdjoint = (o: TraceNode, name: string): boolean => {
      if (started[o.index] || rolled(o.index) || o.op === null || readers[o.index]!.length + outputReads[o.index]! !== 1 || unrolled[o.index] || !inline(o)) return false;
      scalarAdj.set(o.index, name);
      started[o.index] = 1;
      return true;
    };
    const givenAway = new Set<Float64Array>();
    const aliasAdjoint = (o: TraceNode, n: TraceNode): boolean => {
      // Not the output's seed of ones, which is written once, here, and must stay ones; not an input's `grads` buffer.
      if (started[o.index] || o.op === null || unrolled[o.index] || unrolled[n.index] || scalarAdj.has(n.index) || n.index === out0.index || rolled(o.index)) return false;
      if (fixed[n.index] !== undefined || fixed[o.index] !== undefined) return false;      // a fixed adjoint has no buffer
      bufName(n.index);
      const buf = adjoint[n.index]!;
      if (givenAway.has(buf)) return false;                  // a second operand of n must not share it
      givenAway.add(buf);
      adjoint[o.index] = buf;
      adjNames.set(o.index, adjNames.get(n.index)!);
      started[o.index] = 1;
      back.push(`${MARK}B${o.index}!${MARK}`);                // o's adjoint is written: later parts add
      return true;
    };
    /** The group whose reverse loop is being written (its members' adjoints are locals `m{i}` there), or −1. */
    let backwardGroup = -1;
    const inLoop = (i: number) => backwardGroup >= 0 && group[i] === backwardGroup && !unrolled[i];
    /** Adjoint of node i at element k. */
    const adj = (i: number, k: number | string): string => (fixed[i] !== undefined ? lit(fixed[i]!) : undefined) ?? scalarAdj.get(i)
      ?? (unrolled[i] ? `a${i}_${k}` : inLoop(i) ? `m${i}` : `${bufName(i)}[${k}]`);
    /** The mark standing for `=` or `+=` of a write to node o's adjoint at k. */
    const mark = (i: number, k: number | string): string =>
      `${MARK}${unrolled[i] ? `a${i}_${k}` : inLoop(i) ? `m${i}` : `B${i}:${typeof k === 'number' ? k : '*'}:${nodes[i]!.size}`}${MARK}`;
    /** The member whose reverse step is being written inside a fused loop, and its deferred lines. */
    let member = -1;
    const deferred = new Map<number, string[]>();
    const deferTo = (i: number) => { let d = deferred.get(i); if (d === undefined) deferred.set(i, d = []); return d; };
    /**
     * Whether member m's parts for an outside node o must wait for m's own place in the reverse
     * order: when a node outside m's group, between m and the group's last member, also sends o a
     * part — the tape adds that one first.
     */
    const mustWait = (m: number, o: TraceNode): boolean => readers[o.index]!.some((r) => r > m && r < last(group[m]!) && group[r] !== group[m]);
    /** Adds `expr` to the adjoint of operand node o at k (assigns it for o's first part). */
    const contribute = (o: TraceNode, k: number | string, expr: string): string => {
      started[o.index] = 1;
      if (fixed[o.index] !== undefined) return ';';     // its readers use the literal
      // Inside the loop body only: a member's lines after its loop already run at its own place.
      if (member >= 0 && inBody && !inLoop(o.index) && mustWait(member, o)) {
        const P = bind(new Float64Array(o.size));
        deferTo(member).push(`for (let k = 0; k < ${o.size}; k++) ${adj(o.index, 'k')} ${mark(o.index, 'k')} ${P}[k];`);
        return `${P}[k] = ${expr};`;
      }
      return `${adj(o.index, k)} ${mark(o.index, k)} ${expr};`;
    };
    const backEmit: Emit = { ...emit, line: (s) => back.push(s), declare: (s) => back.push(s), loop: (n, u, body) => eachElement((s) => back.push(s), n, u, body), scalarAdjoint, aliasAdjoint };

    /**
     * Whether group g's reverse loop can run inside its forward loop (each element's parts right
     * after its values, read from the loop's locals): every adjoint reaching the group from
     * outside is fixed, and no buffer the loop writes a part into has been written yet (the parts
     * keep their order; sums over the loop are sent on after it, in their place).
     */
    const hoistable = (g: number): boolean => members[g]!.every((j) =>
      (fixed[j] !== undefined || (outputReads[j] === 0 && readers[j]!.every((r) => group[r] === g)))
      && nodes[j]!.operands.every((o) => isConst(o) || group[o.index] === g || o.size === 1 || !started[o.index]));
    if (unrolled[out0.index]) for (let k = 0; k < out0.size; k++) back.push(`a${out0.index}_${k} = 1; ${MARK}a${out0.index}_${k}!${MARK}`);
    else adjoint[out0.index] = new Float64Array(out0.size).fill(1);
    started[out0.index] = 1;
    // An input's adjoint is written straight into its `grads` buffer.
    program.inputs.forEach((n, j) => { if (n.index !== out0.index) adjoint[n.index] = grads[j]; });
    for (let i = out0.index; i >= 0; i--) {
      const n = nodes[i]!;
      if (n.op === null || !live[i]) continue;
      if (rolled(i)) {
        const run = plan!.runs[plan!.runOf[i]!]!;
        if (run.nodes[run.nodes.length - 1] === i) {
          back.push(rolledBackward(run, {
            ...rollContext, started: (j) => started[j] === 1, markStarted: (j) => { started[j] = 1; },
            adjointOf: (o, k) => ({ expr: adj(o.index, k), note: `${MARK}${unrolled[o.index] ? `a${o.index}_0` : `B${o.index}`}!${MARK}` }),
          }));
        }
        continue;
      }
      const g = group[i]!;
      if (g >= 0 && i === last(g)) {
        // The group's reverse loop: members from last to first; an adjoint already started by an outside reader is loaded first.
        backwardGroup = g;
        const hoist = hoistable(g);
        if (hoist) forwardGroup = g;
        const order = members[g]!.slice().reverse();
        const loads = members[g]!.filter((j) => !unrolled[j] && !scalarAdj.has(j) && fixed[j] === undefined)
          .map((j) => (started[j] ? `let m${j} = ${bufName(j)}[k]; ${MARK}m${j}!${MARK}` : `let m${j} = 0;`));
        const { pre, body } = fusedLoop(g, order, { ...backEmit, aliasAdjoint: () => false }, (j) => (s) => deferTo(j).push(s), true, (e, j) => {
          if (!started[j] && !scalarAdj.has(j)) return;     // no part reached it (a member after it decided)
          member = j;
          emitBackward(e, nodes[j]!, false, (k) => adj(j, k), contribute);
          member = -1;
        });
        backwardGroup = -1;
        forwardGroup = -1;
        if (hoist) reverseInForward.set(g, { pre, body: [...loads, ...body] });
        else back.push(...pre, `for (let k = 0; k < ${loopSizeOf(g)}; k++) {`, ...loads, ...body, '}');
      }
      if (g >= 0) { back.push(...(deferred.get(i) ?? [])); continue; }
      if (!started[i]) continue;
      if (inline(n)) {
        // Small nodes take literal indices even when their value is in a buffer (their operands may be locals).
        emitBackward(backEmit, n, n.size <= UNROLL, (k) => adj(i, k), contribute);
        continue;
      }
      const op = n.op;
      if (op.backward === undefined) continue;
      const pieces = plan === undefined ? undefined : concatPieces(plan, n);
      if (pieces !== undefined) {
        const G = bufName(i);
        back.push(concatBackward(pieces, G, { bind, started: (j) => started[j] === 1, markStarted: (j) => { started[j] = 1; } }, (j, start, size) => {
          const o = n.operands[j]!;
          if (isConst(o) || op.gradOperands?.[j] === false) return '';
          if (unrolled[o.index]) return Array.from({ length: size }, (_, k) => contribute(o, k, `${G}[${start + k}]`)).join(' ');
          return `for (let k = 0; k < ${size}; k++) ${contribute(o, 'k', `${G}[${start} + k]`)}`;
        }, (j) => `${MARK}B${j}!${MARK}`));
        continue;
      }
      const parts = n.operands.map((o, j) => (isConst(o) || op.gradOperands?.[j] === false ? null : new Float64Array(o.size)));
      const ins = n.operands.map((o) => (isConst(o) ? constOf(o).data : value[o.index]!));
      const part0 = parts[0];
      const inlined = parts.length === 1 && part0 !== null && part0 !== undefined
        ? helpers.backward(op, arrayName(n.operands[0]!), valueName[i]!, bufName(i), bind(part0), part0.length)
        : parts.length > 1 ? helpers.backwardMany(op, bufName(i), parts.map((q) => (q === null ? null : bind(q)))) : undefined;
      back.push(inlined ?? `${bind(op)}.backward(${bufName(i)}, ${bind(ins)}, ${valueName[i]}, ${bind(parts)});`);
      n.operands.forEach((o, j) => {
        const part = parts[j];
        if (part === null || part === undefined || isConst(o)) return;
        if (!unrolled[o.index] && !started[o.index] && adjoint[o.index] === undefined && !rolled(o.index)) {   // the part becomes the adjoint
          adjoint[o.index] = part;
          started[o.index] = 1;
          back.push(`${MARK}B${o.index}!${MARK}`);
          return;
        }
        const p = bind(part);
        if (unrolled[o.index]) for (let k = 0; k < o.size; k++) back.push(contribute(o, k, `${p}[${k}]`));
        else back.push(`for (let k = 0; k < ${o.size}; k++) ${contribute(o, 'k', `${p}[k]`)}`);
      });
    }
    program.inputs.forEach((n, j) => {
      if (n.index === out0.index) back.push(`${bind(grads[j])}.set(${bufName(n.index)});`);
    });
    for (const n of nodes) if (unrolled[n.index] && started[n.index]) locals[n.index] = n.size;
  }

  writeForward();
  // The copies in and out, element by element when short (a loop measured ~15% of eight schools' gradient).
  const copy = (to: string, from: string, n: number) => (n <= COPY_UNROLL
    ? Array.from({ length: n }, (_, k) => `${to}[${k}] = ${from}[${k}];`).join(' ')
    : `for (let k = 0; k < ${n}; k++) ${to}[k] = ${from}[k];`);
  const flat = withGrad && outputs[0]!.length === 1
    ? `function valueAndGrad(x, grad) {\n${copy(bind(flatInput), 'x', flatInput.length)}\nrun(true);\n` +
      `${copy('grad', bind(flatGrad), flatGrad.length)}\nreturn ${bind(outputs[0])}[0];\n}`
    : 'const valueAndGrad = undefined;';
  // Forward only: the outputs one after another in out (an offset per output).
  const outCopies: string[] = [];
  let outAt = 0;
  for (const o of outputs) {
    const src = bind(o), n = o.length, off = outAt;
    outCopies.push(n <= COPY_UNROLL
      ? Array.from({ length: n }, (_, k) => `out[${off + k}] = ${src}[${k}];`).join(' ')
      : `for (let k = 0; k < ${n}; k++) out[${off} + k] = ${src}[k];`);
    outAt += n;
  }
  const values = `function values(x, out) {\n${copy(bind(flatInput), 'x', flatInput.length)}\nrun(false);\n${outCopies.join('\n')}\n}`;
  const prelude = plan === undefined ? '' : plan.runs.map((r) => runPrelude(r, bind)).filter((x) => x !== '').join('\n');
  const names = env.map((_, i) => `e${i}`);
  const marks = new Marks(nodes.length);   // fwd first: the reverse steps run inside forward loops come first in code order
  let body = `${marks.resolve(fwd).join('\n')}\nif (!withGrad) return;\n${marks.resolve(declareAtFirstUse(back, locals)).join('\n')}`;
  if (plan !== undefined) body = rolledNames(body, plan, bind);
  const split = chunkRun(body);   // a long program as pieces V8 optimizes (chunk.ts)
  const source = `"use strict";\nconst [${names.join(', ')}] = env;\n${helpers.definitions()}\n${prelude}\n${split === undefined ? '' : `${split.prelude}\n`}function run(withGrad) {\n${split?.body ?? body}\n}\n${flat}\n${values}\nreturn { run, valueAndGrad, values };`;
  const made = new Function('env', source)(env) as Pick<Compiled, 'run' | 'valueAndGrad' | 'values'>;
  const { run, valueAndGrad } = made;
  return { inputs, flatInput, outputs, outputShapes: program.outputShapes, grads, flatGrad, run, ...(valueAndGrad === undefined ? {} : { valueAndGrad }), values: made.values, source, env };
}

/** Marks a rolled node's value or adjoint (`${TOKEN}v12${TOKEN}`, `${TOKEN}a12${TOKEN}`) until its array is known. */
const TOKEN = '\u0003';

/**
 * The runs of repeated steps to roll (roll.ts) among scalar inline nodes, or undefined when a node
 * outside the runs reads a rolled one other than element by element (a kernel's operand array,
 * an index map) or a rolled node is an output.
 */
function rollPlan(program: Program, live: Uint8Array, inline: (n: TraceNode) => boolean): RollPlan | undefined {
  const nodes = program.trace.nodes;
  const outputs = new Set(program.outputs.filter((o): o is TraceNode => !isConst(o)).map((o) => o.index));
  const plan = planRolls(nodes, live, (n) => {
    const ew = n.op?.elementwise;
    if (n.op !== null && ew === undefined) return smallKernel(n.op) && n.operands.length === 1 && n.data instanceof Float64Array && !outputs.has(n.index);
    // Scalars, and vectors (read through per-step views: maps, kernel calls) up to a small size.
    return inline(n) && n.size <= 64 && !outputs.has(n.index) && ew !== undefined && ew.kind !== 'segmentSum' && ew.kind !== 'matvec';
  }, lit);
  if (plan === undefined) return undefined;
  for (const r of plan.runs) attachNodes(r, nodes);
  for (const n of nodes) {
    if (!live[n.index] || n.op === null || plan.runOf[n.index]! >= 0) continue;
    const reads = n.operands.map((o, j) => (!isConst(o) && plan.runOf[o.index]! >= 0 ? j : -1)).filter((j) => j >= 0);
    if (reads.length === 0) continue;
    const ew = n.op.elementwise;
    // A scalar run's node is read by index (an expression per element); a run of views' also as an array.
    const viewed = (j: number) => plan.runs[plan.runOf[(n.operands[j] as TraceNode).index]!]!.views;
    if (inline(n) && ew !== undefined && ew.kind !== 'matvec' && ew.kind !== 'segmentSum' && !reads.some((j) => (ew.kind === 'binary' || ew.kind === 'fused') && ew.maps?.[j] && !viewed(j))) continue;
    if (concatPieces(plan, n) !== undefined || smallKernel(n.op)) continue;
    return undefined;
  }
  return plan;
}

/** The body with each rolled node's token (followed by `[0]`) as its element of its position's array; a token left otherwise falls back. */
function rolledNames(body: string, plan: RollPlan, bind: (v: unknown) => string): string {
  const out = body.replace(new RegExp(`${TOKEN}([va])(\\d+)${TOKEN}\\[0\\]`, 'g'), (_, kind: string, i: string) => {
    const run = plan.runs[plan.runOf[Number(i)]!]!, p = plan.positionOf[Number(i)]!, arrays = runArrays(run, bind);
    return `${(kind === 'v' ? arrays.P : arrays.A)[p]}[${plan.stepOf[Number(i)]! + (kind === 'v' ? run.offset : 0)}]`;
  });
  if (out.includes(TOKEN)) throw new RollFallback('generate: a rolled node read as an array');
  return out;
}

/** Whether c is an identifier character (`[\w$]`). */
const isIdentPart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/** The digits of a canonical non-negative integer (no leading zero) from `from`: its value and end, or undefined. */
function digitsAt(s: string, from: number): { value: number; end: number } | undefined {
  let p = from, value = 0;
  for (; p < s.length; p++) {
    const d = s.charCodeAt(p) - 48;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
  }
  return p === from || (s.charCodeAt(from) === 48 && p > from + 1) ? undefined : { value, end: p };
}

/**
 * The reverse pass's lines with each adjoint local `a{i}_{k}` (k < locals[i]) declared
 * (`let a3_0 = 0;`) just before the top-level statement that first names it, not all at its
 * start: in a long program cut into pieces (chunk.ts) a local used in one piece then stays a
 * local instead of a slot, and no single statement declares thousands of them (one statement
 * cannot be cut, and a piece over V8's size limit is never optimized). Names are found by
 * position (an `a` not after `[\w$.]`, digits, `_`, digits, then no `[\w$]`), not by regular
 * expression: a 50,000-operation program has ~100,000 lines.
 */
function declareAtFirstUse(code: readonly string[], locals: Int32Array): string[] {
  if (!locals.some((n) => n > 0)) return code.slice();
  const out: string[] = [], statement: string[] = [];
  const declared = new Uint8Array(locals.length), declaredK = new Set<string>();   // a{i}_0 by i; others by name
  let depth = 0;
  const line = (s: string) => {
    for (let p = s.indexOf('a'); p >= 0; p = s.indexOf('a', p + 1)) {
      if (p > 0 && (isIdentPart(s.charCodeAt(p - 1)) || s.charCodeAt(p - 1) === 46)) continue;
      const i = digitsAt(s, p + 1);
      if (i === undefined || s.charCodeAt(i.end) !== 95) continue;
      const k = digitsAt(s, i.end + 1);
      if (k === undefined || isIdentPart(s.charCodeAt(k.end)) || i.value >= locals.length || k.value >= locals[i.value]!) continue;
      if (k.value === 0) {
        if (declared[i.value] === 1) continue;
        declared[i.value] = 1;
      } else {
        if (declaredK.has(s.slice(p, k.end))) continue;
        declaredK.add(s.slice(p, k.end));
      }
      out.push(`let ${s.slice(p, k.end)} = 0;`);
    }
    statement.push(s);
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 123) depth++;
      else if (c === 125) depth--;
    }
    if (depth === 0) { for (const t of statement) out.push(t); statement.length = 0; }
  };
  for (const entry of code) {
    if (entry.includes('\n')) for (const s of entry.split('\n')) line(s);
    else line(entry);
  }
  if (code.length === 0) line('');   // as one empty line, so the body keeps its shape
  for (const t of statement) out.push(t);
  return out;
}

/**
 * Resolves the marks of reverse-pass writes, line by line in code order: each becomes `=` for
 * the first write to its adjoint (element) and `+=` after; a mark ending in `!` records a write
 * made otherwise (a buffer that became the adjoint) and leaves nothing. Marks name a local
 * (`a{i}_{k}`, `m{i}`: one value) or `B{i}:{el}:{n}`, element el (`*`: all) of node i's n-element
 * buffer. State by node index, not by name: a long program has ~100,000 marks.
 */
class Marks {
  /** Per node index: all of a store written (bit 1: `m{i}`, 2: `B{i}`, 4: `a{i}_0`). */
  private readonly all: Uint8Array;
  /** Elements written so far of a buffer or local not yet all written, by store name. */
  private readonly some = new Map<string, Set<string>>();
  constructor(nodes: number) { this.all = new Uint8Array(nodes); }

  resolve(lines: readonly string[]): string[] {
    return lines.map((s) => {
      if (!s.includes(MARK)) return s;
      let out = '', at = 0;
      for (let p = s.indexOf(MARK); p >= 0; p = s.indexOf(MARK, at)) {
        const q = s.indexOf(MARK, p + 1);
        out += s.slice(at, p) + this.mark(s.slice(p + 1, q));
        at = q + 1;
      }
      return out + s.slice(at);
    });
  }

  private mark(m: string): string {
    const note = m.charCodeAt(m.length - 1) === 33;      // `!`
    const text = note ? m.slice(0, -1) : m;
    const c1 = text.indexOf(':'), c2 = c1 < 0 ? -1 : text.indexOf(':', c1 + 1);
    const store = c1 < 0 ? text : text.slice(0, c1);
    const el = c1 < 0 ? '*' : text.slice(c1 + 1, c2 < 0 ? undefined : c2), n = c2 < 0 ? 1 : Number(text.slice(c2 + 1));
    // The store's bit when it is one the node-indexed flags cover (a canonical index: no leading zero).
    const c = store.charCodeAt(0);
    let i = 0, p = 1;
    for (; p < store.length; p++) { const d = store.charCodeAt(p) - 48; if (d < 0 || d > 9) break; i = i * 10 + d; }
    const canonical = p > 1 && (store.charCodeAt(1) !== 48 || p === 2) && i < this.all.length;
    const bit = !canonical ? 0 : c === 109 && p === store.length ? 1 : c === 66 && p === store.length ? 2
      : c === 97 && p + 2 === store.length && store.charCodeAt(p) === 95 && store.charCodeAt(p + 1) === 48 ? 4 : 0;
    if (bit > 0 && (this.all[i]! & bit) !== 0) return note ? '' : '+=';
    let done = this.some.get(store);
    const all = note || (bit === 0 && done?.has('*') === true) || (done !== undefined && done.size === n);
    if (el === '*' && !all && done !== undefined && done.size > 0) throw new Error(`generate: internal error: adjoint ${store} written in part before a full write`);
    const first = !all && (done === undefined || !done.has(el));
    if (note || el === '*' || all) {
      if (bit > 0) { this.all[i]! |= bit; if (done !== undefined) this.some.delete(store); } else this.some.set(store, new Set(['*']));
    } else {
      if (done === undefined) this.some.set(store, done = new Set());
      done.add(el);
    }
    return note ? '' : first ? '=' : '+=';
  }
}
