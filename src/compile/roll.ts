/**
 * Loop rolling: runs of repeated steps in a traced program (a time-series recursion or an ODE
 * written step by step: T copies of the same few scalar ops) become one loop over the steps,
 * forward and reverse, instead of T copies of straight-line code.
 *
 * Why: V8 compiles and optimizes straight-line code per character, so a 50,000-op program took
 * seconds to compile and ran at 30–40 ns per op (large pieces optimized late, results of calls it
 * did not inline boxed); a loop's body is compiled once and optimized after a few calls.
 *
 * A run is K ≥ MIN_ITERATIONS consecutive live steps of P nodes (a "position" each: element-wise
 * ops, and small take/logsumexp calls) whose code is the same text in every step — same
 * functions, same literals, same kernel arguments —
 * and whose operands are, position by position, the same in every step: a constant of one value,
 * a constant per step (gathered into one array indexed by the step: data y[t]), a node outside
 * the run (a parameter), or the node at a fixed earlier position and step distance (the
 * recursion). Each position keeps its values and adjoints in one Float64Array indexed by the
 * step; where a step has vectors or kernel calls (an enumerated HMM), code reads per-step views of
 * it, made in the generated source (so a program rebuilt on a worker has views of its own
 * arrays). Nodes outside the run read a rolled node from that storage. The same text is what the check compares: code written from the first step is then the
 * code of every step, so the bits are those of the straight-line program.
 *
 * The reverse loop runs steps from last to first and positions from last to first: the tape's
 * order. Whether a part is the first written to its adjoint (assigned) or a later one (added)
 * can differ between steps (the last step's values have readers outside the run; a parameter's
 * adjoint starts in the run): steps with the same pattern of first writes share one loop, so the
 * reverse pass is a few loops (in practice one to three) over step ranges.
 */
import { kernelSource, type Constant, type Flat, type TraceNode } from '../tensor/lowering.js';
import { emitBackward, emitForward, type Emit } from './elementwise.js';

type Operand = TraceNode | Constant;
const isConst = (o: Operand): o is Constant => 'constant' in o;

/** Fewest steps worth a loop. */
export const MIN_ITERATIONS = 8;
/** Most positions per step looked for. */
const MAX_PERIOD = 64;
let enabled = true;

/**
 * Turns loop rolling off (or back on) for programs compiled after the call: for tests and
 * benchmarks that compare the rolled and straight-line forms (same bits). @internal
 *
 * @example
 * setRolling(false); // compile straight-line code
 */
export function setRolling(on: boolean): void {
  enabled = on;
}

/** Whether programs compiled now are rolled. @internal */
export function rollingEnabled(): boolean {
  return enabled;
}

/** How a position reads one operand, the same in every step. */
export type Role =
  | { readonly kind: 'literal'; readonly value: number }
  /** A constant per step: element k of step t at `values[t * size + k]`. */
  | { readonly kind: 'data'; readonly values: Float64Array; readonly size: number }
  /** A constant of more than one value, the same in every step. */
  | { readonly kind: 'array'; readonly values: Float64Array }
  | { readonly kind: 'invariant'; readonly node: TraceNode }
  /** The node at `position`, `back` steps earlier (0: this step, an earlier position). */
  | { readonly kind: 'rolled'; readonly position: number; readonly back: number };

/** A run of K steps of P positions. */
export interface Run {
  readonly period: number;
  readonly count: number;
  /** The node at position p of step t: `nodes[t * period + p]`. */
  readonly nodes: Int32Array;
  /** Per position, per operand. */
  readonly roles: readonly (readonly Role[])[];
  /**
   * Per position: its values, one element per step after `offset` leading elements that hold the
   * values of the nodes before the run that its first steps read (`pre`); and its adjoints, one per step.
   */
  readonly values: readonly Flat[];
  readonly adjoints: readonly Float64Array[];
  /** The largest step distance of a recursion read. */
  readonly offset: number;
  /** The node before the run at position p, step t < 0 (key `p:t`), for the recursion reads of the first steps. */
  readonly pre: ReadonlyMap<string, TraceNode>;
  /** Scalar runs index each position's array by the step; others (vectors, kernel calls) read per-step views of it. */
  readonly views: boolean;
  /** The run's number in its plan (names its views). */
  readonly id: number;
}

/** The runs of a program and where each rolled node sits. */
export interface RollPlan {
  readonly runs: readonly Run[];
  /** Per node: its run, or −1. */
  readonly runOf: Int32Array;
  readonly positionOf: Int32Array;
  readonly stepOf: Int32Array;
}

let runId = 0;

/** Placeholders of the signature text (never in generated code). */
const PH = '\u0002';

/**
 * The runs of `nodes` among the live ones for which `eligible` holds (scalar element-wise nodes
 * the code generator writes inline), or undefined when there are none.
 *
 * @example
 * const plan = planRolls(program.trace.nodes, live, (n) => n.size === 1 && inline(n));
 */
export function planRolls(nodes: readonly TraceNode[], live: Uint8Array, eligible: (n: TraceNode) => boolean, lit: (x: number) => string): RollPlan | undefined {
  if (!enabled) return undefined;
  signatures.clear();
  texts.clear();
  const list: number[] = [];
  for (const n of nodes) if (n.op !== null && live[n.index]) list.push(n.index);
  const L = list.length;
  const at = new Int32Array(nodes.length).fill(-1);
  list.forEach((i, j) => { at[i] = j; });
  // A coarse key per node (op, kind, storage, which operands are constants); nodes P apart are
  // alike when their keys are equal and each traced operand is the same node or the same distance back.
  const ids = new Map<string, number>();
  const key = new Int32Array(L);
  let fresh = -1;
  for (let j = 0; j < L; j++) {
    const n = nodes[list[j]!]!;
    if (!eligible(n)) { key[j] = fresh--; continue; }
    const k = `${n.op!.name}|${n.op!.elementwise?.kind}|${n.data.constructor.name}|${n.shape.join('x')}|${n.operands.map((o) => (isConst(o) ? `c${o.shape.join('x')}` : `n${o.shape.join('x')}`)).join('')}`;
    let id = ids.get(k);
    if (id === undefined) ids.set(k, id = ids.size);
    key[j] = id;
  }
  const alike = (j: number, P: number): boolean => {
    if (key[j]! < 0 || key[j] !== key[j + P]) return false;
    const a = nodes[list[j]!]!.operands, b = nodes[list[j + P]!]!.operands;
    for (let q = 0; q < a.length; q++) {
      const x = a[q]!, y = b[q]!;
      if (isConst(x) || isConst(y)) continue;   // both constants (the keys agree)
      if (x !== y && at[y.index]! - at[x.index]! !== P) return false;
    }
    return true;
  };
  // For each start, the shortest period with at least MIN_ITERATIONS matching steps.
  const period = new Int32Array(L), reach = new Int32Array(L), ml = new Int32Array(L + 1);
  for (let P = 1; P <= MAX_PERIOD && P < L; P++) {
    ml[L] = 0;
    for (let j = L - 1; j >= 0; j--) ml[j] = j + P < L && alike(j, P) ? ml[j + 1]! + 1 : 0;
    for (let j = 0; j < L; j++) {
      if (period[j] === 0 && Math.floor(ml[j]! / P) + 1 >= MIN_ITERATIONS) { period[j] = P; reach[j] = Math.floor(ml[j]! / P) + 1; }
    }
  }
  const runs: Run[] = [];
  runId = 0;
  const runOf = new Int32Array(nodes.length).fill(-1), positionOf = new Int32Array(nodes.length), stepOf = new Int32Array(nodes.length);
  for (let j = 0; j < L;) {
    const P = period[j]!;
    if (P === 0) { j++; continue; }
    const K = reach[j]!;
    for (const r of verify(nodes, list, at, j, P, K, lit)) {
      const idx = runs.length;
      runs.push(r);
      r.nodes.forEach((i, m) => { runOf[i] = idx; positionOf[i] = m % P; stepOf[i] = Math.floor(m / P); });
    }
    j += K * P;
  }
  return runs.length === 0 ? undefined : { runs, runOf, positionOf, stepOf };
}

/** The runs inside the candidate of K steps of P positions from list index j: stretches of steps with the same code and roles. */
function verify(nodes: readonly TraceNode[], list: readonly number[], at: Int32Array, j: number, P: number, K: number, lit: (x: number) => string): Run[] {
  const node = (t: number, p: number) => nodes[list[j + t * P + p]!]!;
  // Each step's code (signature texts as numbers) and operands relative to the candidate: a
  // constant (its length), a node outside (its index) or a rolled node (position, steps back).
  const sig = new Int32Array(K * P);
  let width = 0;
  for (let p = 0; p < P; p++) width = Math.max(width, node(0, p).operands.length);
  const kind = new Int8Array(K * P * width), v1 = new Int32Array(K * P * width), v2 = new Int32Array(K * P * width);
  for (let t = 0; t < K; t++) {
    for (let p = 0; p < P; p++) {
      const n = node(t, p), ops = n.operands, base = (t * P + p) * width;
      const text = signature(n, lit);
      let id = texts.get(text);
      if (id === undefined) texts.set(text, id = texts.size);
      sig[t * P + p] = ops.length > width ? -1 - t : id;
      for (let q = 0; q < ops.length && q < width; q++) {
        const o = ops[q]!;
        if (isConst(o)) { kind[base + q] = 1; v1[base + q] = o.data.length; continue; }
        const m = at[o.index]! - j;
        if (m >= 0 && m < K * P) { kind[base + q] = 3; v1[base + q] = m % P; v2[base + q] = t - Math.floor(m / P); } else { kind[base + q] = 2; v1[base + q] = o.index; }
      }
    }
  }
  const fits = (t: number): boolean => {
    for (let i = t * P, h = (t - 1) * P; i < (t + 1) * P; i++, h++) if (sig[i] !== sig[h]) return false;
    for (let i = t * P * width, h = (t - 1) * P * width; i < (t + 1) * P * width; i++, h++) if (kind[i] !== kind[h] || v1[i] !== v1[h] || v2[i] !== v2[h]) return false;
    return true;
  };
  const runs: Run[] = [];
  for (let a = 0; a < K;) {
    let b = a + 1;
    while (b < K && fits(b)) b++;
    if (b - a >= MIN_ITERATIONS) runs.push(makeRun(node, (p, q) => ({ kind: kind[(a * P + p) * width + q]!, v1: v1[(a * P + p) * width + q]!, v2: v2[(a * P + p) * width + q]! }), a, b, P, runId++));
    a = b;
  }
  return runs;
}
/** Signature texts as numbers (cleared per plan). */
const texts = new Map<string, number>();

/** The run of steps [from, to). */
function makeRun(node: (t: number, p: number) => TraceNode, raw: (p: number, q: number) => { kind: number; v1: number; v2: number }, from: number, to: number, P: number, id: number): Run {
  const K = to - from;
  const nodes = new Int32Array(K * P);
  for (let t = 0; t < K; t++) for (let p = 0; p < P; p++) nodes[t * P + p] = node(from + t, p).index;
  const roles = Array.from({ length: P }, (_, p) => node(from, p).operands.map((o, q): Role => {
    const r = raw(p, q);
    if (r.kind === 3) return { kind: 'rolled', position: r.v1, back: r.v2 };
    if (r.kind === 2) return { kind: 'invariant', node: o as TraceNode };
    const size = (node(from, p).operands[q] as Constant).data.length;
    const values = new Float64Array(K * size);
    for (let t = 0; t < K; t++) { const d = (node(from + t, p).operands[q] as Constant).data; for (let k = 0; k < size; k++) values[t * size + k] = Number(d[k]); }
    const shared = values.every((v, i) => Object.is(v, values[i % size]));
    if (size === 1) return shared ? { kind: 'literal', value: values[0]! } : { kind: 'data', values, size };
    return shared ? { kind: 'array', values: values.slice(0, size) } : { kind: 'data', values, size };
  }));
  // The first steps' recursion reads nodes before the run (in the candidate: steps from − back ≥ 0).
  let offset = 0;
  const pre = new Map<string, TraceNode>();
  for (const ops of roles) {
    for (const r of ops) {
      if (r.kind !== 'rolled') continue;
      offset = Math.max(offset, r.back);
      for (let t = -r.back; t < 0; t++) pre.set(`${r.position}:${t}`, node(from + t, r.position));
    }
  }
  const sizes = Array.from({ length: P }, (_, p) => node(from, p).size);
  const views = sizes.some((n) => n !== 1) || Array.from({ length: P }, (_, p) => node(from, p).op!.elementwise === undefined).some(Boolean);
  const values = Array.from({ length: P }, (_, p) => new (node(from, p).data.constructor as new (n: number) => Flat)((K + offset) * sizes[p]!));
  const adjoints = Array.from({ length: P }, (_, p) => new Float64Array(K * sizes[p]!));
  return { period: P, count: K, nodes, roles, values, adjoints, offset, pre, views, id };
}

/**
 * A node's forward and reverse code with its operands, itself and bound values as placeholders
 * (values by identity; zeroed scratch arrays by length): equal texts mean the same code.
 */
function signature(n: TraceNode, lit: (x: number) => string): string {
  // Nodes made by the same lowering with operands alike have the same text: computed once.
  let shape = '';
  for (let q = 0; q < n.operands.length; q++) {
    const o = n.operands[q]!, first = n.operands.indexOf(o);
    shape += isConst(o) ? `c${o.data.length},` : first < q ? `d${first},` : `n${o.size},`;
  }
  // A hoisted fused op writes its constant parameters' h as a literal: their values are part of the text.
  const ew = n.op!.elementwise;
  const hoisted = ew !== undefined && ew.kind === 'fused' && ew.hoisted !== null ? ew.hoisted.of.map((q) => { const o = n.operands[q]!; return isConst(o) ? Array.from(o.data, Number).join(';') : ''; }).join('/') : '';
  const key = `${bindId(n.op)}|${n.size}|${n.data.constructor.name}|${shape}|${hoisted}`;
  if (ew === undefined) {
    // A kernel call (take, logsumexp): the same factory and arguments make the same kernel.
    const src = kernelSource(n.op!);
    return src === undefined ? `?${key}` : `K|${src.factory}|${plain(src.args)}|${n.size}|${shape}`;
  }
  let text = signatures.get(key);
  if (text !== undefined) return text;
  const out: string[] = [];
  // A stand-in with a fixed index, so the locals the emitters name after the node do not differ.
  const m: TraceNode = { ...n, index: -1 };
  const ref = (o: Operand) => { if (o === m) return 'Y'; const q = n.operands.indexOf(o); return q < 0 ? '?' : String(q); };
  const e: Emit = {
    bind: (v) => `${PH}B${bindId(v)}${PH}`, lit, val: (o) => `${PH}${ref(o)}${PH}`,
    operandData: (o) => (isConst(o) ? o.data : o.data), arrayName: (o) => `${PH}A${ref(o)}${PH}`,
    unrolled: () => false, valueName: () => `${PH}V${PH}`, line: (s) => out.push(s), declare: (s) => out.push(s),
    loop: (_n, _u, body) => out.push(`{${body('k')}}`), scalarAdjoint: () => false, aliasAdjoint: () => false,
  };
  emitForward(e, m, 'fused', true);
  out.push('|');
  emitBackward(e, m, false, () => `${PH}G${PH}`, (o, _k, expr) => `${PH}C${ref(o)}${PH}${expr};`);
  text = out.join(' ');
  signatures.set(key, text);
  return text;
}
/** Signatures by lowering and operand shape (the lowerings live as long as their programs; cleared per plan). */
const signatures = new Map<string, string>();

/** A kernel factory's arguments as text (typed arrays and records by content). */
function plain(v: unknown): string {
  if (ArrayBuffer.isView(v)) return `[${Array.from(v as unknown as ArrayLike<number>).join(',')}]`;
  if (Array.isArray(v)) return `[${v.map(plain).join(',')}]`;
  if (typeof v === 'object' && v !== null) return `{${Object.keys(v).sort().map((k) => `${k}:${plain((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return typeof v === 'function' ? `f${bindId(v)}` : String(v);
}

const ids = new WeakMap<object, number>();
let nextId = 0;
/** A bound value's identity for signatures: objects by identity, zeroed Float64Arrays (scratch) and index arrays by content. */
function bindId(v: unknown): string {
  if (v instanceof Float64Array && v.every((x) => x === 0)) return `z${v.length}`;
  if (v instanceof Int32Array) return `i${v.join(',')}`;
  if (typeof v !== 'object' && typeof v !== 'function') return `p${String(v)}`;
  if (v === null) return 'null';
  let id = ids.get(v);
  if (id === undefined) ids.set(v, id = nextId++);
  return `o${id}`;
}

/** What the rolled code needs from the code generator. */
export interface RollContext {
  bind(v: unknown): string;
  lit(x: number): string;
  /** The expression for element k of a node outside the run. */
  outside(o: TraceNode, k: number | string): string;
  /** The buffer name of a node outside the run. */
  arrayOf(o: TraceNode): string;
  /** A small take/logsumexp kernel's forward call (inline-kernels.ts) from buffer x into out, and its reverse call writing the part. */
  kernelForward(n: TraceNode, x: string, out: string): string;
  kernelBackward(n: TraceNode, x: string, out: string, g: string, part: string, partSize: number): string;
}

interface Names { P: string[]; A: string[]; D: Map<unknown, string>; V: string[]; AV: string[] }
const bound = new WeakMap<Run, Names>();
/** Names of a run's arrays (bound once) and, for a run of views, of its per-step views (declared by `runPrelude`). */
function names(run: Run, ctx: Pick<RollContext, 'bind'>): Names {
  let c = bound.get(run);
  if (c === undefined) {
    bound.set(run, c = {
      P: run.values.map((v) => ctx.bind(v)), A: run.adjoints.map((v) => ctx.bind(v)), D: new Map(),
      V: run.values.map((_, p) => `rv${run.id}_${p}`), AV: run.values.map((_, p) => `ra${run.id}_${p}`),
    });
  }
  return c;
}

/**
 * The bound names of a run's value and adjoint arrays, per position (bound on first use), and of
 * its per-step views (V[p][t] is position p's value at step t − offset; AV[p][t] its adjoint).
 *
 * @example
 * const { P, A } = runArrays(run, bind);   // P[p][t]: position p's value at step t (scalar runs)
 */
export function runArrays(run: Run, bind: (v: unknown) => string): { readonly P: readonly string[]; readonly A: readonly string[]; readonly V: readonly string[]; readonly AV: readonly string[] } {
  return names(run, { bind });
}

/**
 * The declarations of a run of views' per-step views (before `run`: made in the generated code,
 * so a program rebuilt in another thread has views of its own arrays).
 *
 * @example
 * source += runPrelude(run, bind);
 */
export function runPrelude(run: Run, bind: (v: unknown) => string): string {
  if (!run.views) return '';
  const nm = names(run, { bind });
  return run.values.map((_, p) => {
    const s = nodesOf.get(run)![run.nodes[p]!]!.size;
    const view = (arr: string, n: number) => `Array.from({ length: ${n} }, (_, t) => ${arr}.subarray(t * ${s}, t * ${s} + ${s}))`;
    return `const ${nm.V[p]} = ${view(nm.P[p]!, run.count + run.offset)};\nconst ${nm.AV[p]} = ${view(nm.A[p]!, run.count)};`;
  }).join('\n');
}

/** Registers the nodes a run's indices refer to (before any emission). */
export function attachNodes(run: Run, nodes: readonly TraceNode[]): void {
  nodesOf.set(run, nodes);
}

/** An Emit writing position p's code inside the loop over t. */
function loopEmit(run: Run, p: number, ctx: RollContext, out: string[], forward: boolean): Emit {
  const nm = names(run, ctx);
  const n0 = run.nodes[p]!;
  const rep = runNode(run, 0, p);
  const sizeOf = (o: Operand) => (isConst(o) ? o.data.length : o.size);
  const role = (o: Operand): Role => run.roles[p]![rep.operands.indexOf(o)]!;
  const data = (v: Float64Array) => { let d = nm.D.get(v); if (d === undefined) nm.D.set(v, d = ctx.bind(v)); return d; };
  const val = (o: Operand, k: number | string): string => {
    const kk = sizeOf(o) === 1 ? 0 : k;
    if (!isConst(o) && o.index === n0) {
      if (run.views) return `${nm.V[p]}[${index(run.offset)}][${kk}]`;
      return forward ? `v${n0}` : `${nm.P[p]}[${index(run.offset)}]`;
    }
    const r = role(o);
    if (r.kind === 'literal') return ctx.lit(r.value);
    if (r.kind === 'data') return r.size === 1 ? `${data(r.values)}[t]` : `${data(r.values)}[t * ${r.size} + ${kk}]`;
    if (r.kind === 'array') return `${data(r.values)}[${kk}]`;
    if (r.kind === 'invariant') return ctx.outside(r.node, kk);
    if (run.views) return `${nm.V[r.position]}[${index(run.offset - r.back)}][${kk}]`;
    if (forward && r.back === 0) return `v${run.nodes[r.position]!}`;
    return `${nm.P[r.position]}[${index(run.offset - r.back)}]`;
  };
  const arrayName = (o: Operand): string => {
    if (!run.views) throw new RollFallback('roll: an array operand in a scalar run');
    const r = role(o);
    if (r.kind === 'literal') return data(Float64Array.of(r.value));
    if (r.kind === 'array') return data(r.values);
    if (r.kind === 'invariant') return ctx.arrayOf(r.node);
    if (r.kind === 'rolled') return `${nm.V[r.position]}[${index(run.offset - r.back)}]`;
    throw new RollFallback('roll: a per-step constant read as an array');
  };
  return {
    bind: ctx.bind, lit: ctx.lit, val, operandData: (o) => (isConst(o) ? o.data : o.data), arrayName,
    unrolled: () => false, valueName: () => (run.views ? `${nm.V[p]}[${index(run.offset)}]` : `${STORE}${p}${STORE}`), line: (s) => out.push(s), declare: (s) => out.push(s),
    loop: (n, _u, body) => out.push(run.views ? `for (let k = 0; k < ${n}; k++) { ${body('k')} }` : forward ? body('t') : `{ ${body('t')} }`),
    scalarAdjoint: () => false, aliasAdjoint: () => false,
  };
}

/** Marks a position's store in the forward body (the emitter writes element k, or 0, of one node). */
const STORE = '\u0005';

/** `t + d` as code. */
const index = (d: number): string => (d === 0 ? 't' : d > 0 ? `t + ${d}` : `t - ${-d}`);

const runNode = (run: Run, t: number, p: number): TraceNode => nodesOf.get(run)![run.nodes[t * run.period + p]!]!;
const nodesOf = new WeakMap<Run, readonly TraceNode[]>();

/**
 * The forward loop of a run: each position's value a local for the positions after it and
 * stored for later steps, the reverse pass and readers outside the run.
 *
 * @example
 * fwd.push(rolledForward(run, ctx));   // 'for (let t = 0; t < K; t++) { … }'
 */
export function rolledForward(run: Run, ctx: RollContext): string {
  const nm = names(run, ctx);
  const body: string[] = [];
  for (let p = 0; p < run.period; p++) {
    const n = runNode(run, 0, p), e = loopEmit(run, p, ctx, body, true);
    if (n.op!.elementwise !== undefined) emitForward(e, n, run.views ? 'loop' : 'fused', true);
    else body.push(ctx.kernelForward(n, e.arrayName(n.operands[0]!), e.valueName(n.index)!));
  }
  // Scalar runs: stores index the position's array by the step.
  const text = body.join(' ').replace(new RegExp(`${STORE}(\\d+)${STORE}\\[[^\\]]*\\]`, 'g'), (_, p: string) => `${nm.P[Number(p)]}[${index(run.offset)}]`);
  // The values before the run that the first steps read, in the leading elements.
  const pre = [...run.pre].map(([key, o]) => {
    const [q, t] = key.split(':').map(Number) as [number, number];
    return run.views ? `for (let k = 0; k < ${o.size}; k++) ${nm.V[q]}[${t + run.offset}][k] = ${ctx.outside(o, o.size === 1 ? 0 : 'k')};`
      : `${nm.P[q]}[${t + run.offset}] = ${ctx.outside(o, 0)};`;
  });
  return `${pre.join(' ')}\nfor (let t = 0; t < ${run.count}; t++) { ${text} }`;
}

/** Where a part goes: a rolled node (position, steps back) or a node outside the run, and its element. */
type Target = ({ kind: 'rolled'; position: number; back: number } | { kind: 'outside'; node: TraceNode }) & { k: number | string };

/** What the reverse loop needs from the code generator. */
export interface RollBackContext extends RollContext {
  /** Whether node i's adjoint has a part written (before the loop). */
  started(i: number): boolean;
  /** The expression of an outside node's adjoint (element k), and the note that it was written. */
  adjointOf(o: TraceNode, k: number | string): { expr: string; note: string };
  /** Records that node i's adjoint has been written. */
  markStarted(i: number): void;
}

const SITE = '\u0004';

/**
 * The reverse loops of a run (steps from last to first, positions from last to first), one per
 * range of steps with the same pattern of first writes.
 *
 * @example
 * back.push(rolledBackward(run, ctx));
 */
export function rolledBackward(run: Run, ctx: RollBackContext): string {
  const { period: P, count: K } = run;
  const nm = names(run, ctx);
  // Each position's code once, its parts as numbered sites.
  const code: string[] = [], sites: Target[][] = [];
  const lhs = (target: Target, t: number | undefined): string => {
    if (target.kind === 'outside') return ctx.adjointOf(target.node, target.k).expr;
    if (t !== undefined && t - target.back < 0) return ctx.adjointOf(run.pre.get(`${target.position}:${t - target.back}`)!, target.k).expr;
    return run.views ? `${nm.AV[target.position]}[${index(-target.back)}][${target.k}]` : `${nm.A[target.position]}[${index(-target.back)}]`;
  };
  for (let p = 0; p < P; p++) {
    const n = runNode(run, 0, p), out: string[] = [], mine: Target[] = [];
    const e = loopEmit(run, p, ctx, out, false);
    const contribute = (o: TraceNode, k: number | string, expr: string): string => {
      const q = n.operands.indexOf(o), r = run.roles[p]![q]!;
      const kk = o.size === 1 ? 0 : k;
      const target: Target = r.kind === 'rolled' ? { kind: 'rolled', position: r.position, back: r.back, k: kk } : { kind: 'outside', node: (r as { node: TraceNode }).node, k: kk };
      const s = mine.push(target) - 1;
      return `${SITE}${s}${SITE} ${expr};`;
    };
    const g = (k: number | string) => (run.views ? `${nm.AV[p]}[t][${n.size === 1 ? 0 : k}]` : `${nm.A[p]}[t]`);
    if (n.op!.elementwise !== undefined) emitBackward(e, n, false, g, contribute);
    else {
      const x = n.operands[0]!;
      if (!isConst(x) && n.op!.gradOperands?.[0] !== false) {
        const part = ctx.bind(new Float64Array(x.size));
        out.push(ctx.kernelBackward(n, e.arrayName(x), e.valueName(n.index)!, `${nm.AV[p]}[t]`, part, x.size));
        out.push(`for (let k = 0; k < ${x.size}; k++) { ${contribute(x, 'k', `${part}[k]`)} }`);
      }
    }
    code.push(out.join(' '));
    sites.push(mine);
  }
  // Simulate the writes in the tape's order: per step, whether each position runs and each site assigns.
  const written = new Uint8Array(K * P);
  for (let t = 0; t < K; t++) for (let p = 0; p < P; p++) if (ctx.started(run.nodes[t * P + p]!)) written[t * P + p] = 1;
  const outsideWritten = new Map<TraceNode, boolean>();
  const outside = (o: TraceNode): boolean => {
    const first = !(outsideWritten.get(o) ?? ctx.started(o.index));
    outsideWritten.set(o, true);
    return first;
  };
  const patterns: string[] = new Array(K);
  for (let t = K - 1; t >= 0; t--) {
    // The first steps write the parts of nodes before the run: a loop each.
    let pat = t < run.offset ? `${t}:` : '';
    for (let p = P - 1; p >= 0; p--) {
      if (!written[t * P + p]) { pat += '-'; continue; }
      pat += 'r';
      for (const s of sites[p]!) {
        let first: boolean;
        if (s.kind === 'outside') first = outside(s.node);
        else if (t - s.back < 0) first = outside(run.pre.get(`${s.position}:${t - s.back}`)!);
        else {
          const m = (t - s.back) * P + s.position;
          first = !written[m];
          written[m] = 1;
        }
        pat += first ? '=' : '+';
      }
    }
    patterns[t] = pat;
  }
  const loops: string[] = [];
  for (let hi = K - 1; hi >= 0;) {
    let lo = hi;
    while (lo > 0 && patterns[lo - 1] === patterns[hi]) lo--;
    const pat = patterns[hi]!;
    let c = pat.indexOf(':') + 1;
    const parts: string[] = [];
    const step = hi < run.offset ? hi : undefined;
    for (let p = P - 1; p >= 0; p--) {
      if (pat[c++] === '-') continue;
      const ops = sites[p]!.map((target) => `${lhs(target, step)} ${pat[c++] === '=' ? '=' : '+='}`);
      parts.push(code[p]!.replace(new RegExp(`${SITE}(\\d+)${SITE}`, 'g'), (_, s: string) => ops[Number(s)]!));
    }
    loops.push(`for (let t = ${hi}; t >= ${lo}; t--) { ${parts.join(' ')} }`);
    hi = lo - 1;
  }
  let notes = '';
  for (const o of outsideWritten.keys()) { notes += ctx.adjointOf(o, 0).note; ctx.markStarted(o.index); }
  loops[loops.length - 1] += notes;
  for (const i of run.nodes) ctx.markStarted(i);
  return loops.join('\n');
}

/** Thrown while generating when rolled code cannot be written after all: the caller generates straight-line code instead. */
export class RollFallback extends Error {}

/** A concat's operands: ranges of one position over consecutive steps of a run, and single operands, each at its offset. */
type Piece = { kind: 'range'; run: Run; position: number; from: number; to: number; start: number } | { kind: 'one'; operand: number; start: number; size: number };

/** Whether n is a concat along its first axis (`stack` of scalars, say) reading a rolled node: its pieces, or undefined. */
export function concatPieces(plan: RollPlan, n: TraceNode): Piece[] | undefined {
  const src = n.op === null ? undefined : kernelSource(n.op);
  if (src?.factory !== 'concat' || !n.operands.some((o) => !isConst(o) && plan.runOf[(o as TraceNode).index]! >= 0)) return undefined;
  const [blocks, outer] = src.args as [readonly number[], number];
  if (outer !== 1) return undefined;
  const pieces: Piece[] = [];
  let start = 0;
  n.operands.forEach((o, j) => {
    const r = isConst(o) ? -1 : plan.runOf[o.index]!;
    const last = pieces[pieces.length - 1];
    if (r >= 0 && blocks[j] === 1) {
      const i = (o as TraceNode).index, run = plan.runs[r]!, p = plan.positionOf[i]!, t = plan.stepOf[i]!;
      if (last?.kind === 'range' && last.run === run && last.position === p && last.to === t - 1) last.to = t;
      else pieces.push({ kind: 'range', run, position: p, from: t, to: t, start });
    } else {
      // (a scalar run's nodes are all of size 1: ranges)
      pieces.push({ kind: 'one', operand: j, start, size: blocks[j]! });
    }
    start += blocks[j]!;
  });
  return pieces;
}

/**
 * A concat's forward pass with its rolled operands copied by loops (the kernel's copies, in its
 * order); `out` its buffer, `array(j)` operand j's buffer name.
 *
 * @example
 * fwd.push(concatForward(pieces, 'e9', (j) => arrayName(n.operands[j]), bind));
 */
export function concatForward(pieces: readonly Piece[], out: string, array: (j: number) => string, bind: (v: unknown) => string): string {
  return pieces.map((c) => {
    if (c.kind === 'one') return `for (let k = 0; k < ${c.size}; k++) ${out}[${c.start} + k] = ${array(c.operand)}[k];`;
    const P = names(c.run, { bind }).P[c.position]!;
    return `for (let t = ${c.from}; t <= ${c.to}; t++) ${out}[${index(c.start - c.from)}] = ${P}[${index(c.run.offset)}];`;
  }).join('\n');
}

/**
 * A concat's reverse pass: each operand's block of the adjoint `g` assigned to its adjoint (its
 * first part) or added, operands in order; rolled ranges as loops over steps that start alike.
 * `one(j, start, size)` writes operand j's part (g's elements from `start`) through the code
 * generator; `note(i)` records a write to node i's adjoint made here.
 *
 * @example
 * back.push(concatBackward(pieces, bufName(n.index), ctx, one, (i) => `${MARK}B${i}!${MARK}`));
 */
export function concatBackward(pieces: readonly Piece[], g: string, ctx: Pick<RollBackContext, 'bind' | 'started' | 'markStarted'>,
  one: (j: number, start: number, size: number) => string, note: (i: number) => string): string {
  const lines: string[] = [];
  for (const c of pieces) {
    if (c.kind === 'one') { lines.push(one(c.operand, c.start, c.size)); continue; }
    const A = names(c.run, ctx).A[c.position]!;
    const node = (t: number) => c.run.nodes[t * c.run.period + c.position]!;
    for (let lo = c.from; lo <= c.to;) {
      const first = !ctx.started(node(lo));
      let hi = lo;
      while (hi < c.to && !ctx.started(node(hi + 1)) === first) hi++;
      // The notes (one per node written) leave nothing in the code: they go on the loop's line.
      let notes = '';
      for (let t = lo; t <= hi; t++) { ctx.markStarted(node(t)); notes += note(node(t)); }
      lines.push(`for (let t = ${lo}; t <= ${hi}; t++) ${A}[t] ${first ? '=' : '+='} ${g}[${index(c.start - c.from)}];${notes}`);
      lo = hi + 1;
    }
  }
  return lines.join('\n');
}
