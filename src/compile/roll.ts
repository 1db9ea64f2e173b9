/**
 * Loop rolling: runs of repeated steps in a traced program (a time-series recursion or an ODE
 * written step by step: T copies of the same few scalar ops) become one loop over the steps,
 * forward and reverse, instead of T copies of straight-line code.
 *
 * Why: V8 compiles and optimizes straight-line code per character, so a 50,000-op program took
 * seconds to compile and ran at 30–40 ns per op (large pieces optimized late, results of calls it
 * did not inline boxed); a loop's body is compiled once and optimized after a few calls.
 *
 * A run is K ≥ MIN_ITERATIONS consecutive live steps of P scalar element-wise nodes (a
 * "position" each) whose code is the same text in every step — same functions, same literals —
 * and whose operands are, position by position, the same in every step: a constant of one value,
 * a constant per step (gathered into one array indexed by the step: data y[t]), a node outside
 * the run (a parameter), or the node at a fixed earlier position and step distance (the
 * recursion). Each position keeps its values and adjoints in one Float64Array indexed by the
 * step. The same text is what the check compares: code written from the first step is then the
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
  | { readonly kind: 'data'; readonly values: Float64Array }
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
}

/** The runs of a program and where each rolled node sits. */
export interface RollPlan {
  readonly runs: readonly Run[];
  /** Per node: its run, or −1. */
  readonly runOf: Int32Array;
  readonly positionOf: Int32Array;
  readonly stepOf: Int32Array;
}

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
    const k = `${n.op!.name}|${n.op!.elementwise!.kind}|${n.data.constructor.name}|${n.operands.map((o) => (isConst(o) ? 'c' : 'n')).join('')}`;
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
  // Each step's text and operands as roles relative to the candidate (constants by value for now).
  type Raw = { kind: 'const'; c: Constant } | { kind: 'node'; n: TraceNode } | { kind: 'rolled'; position: number; back: number };
  const texts: string[] = [], raws: Raw[][][] = [];
  for (let t = 0; t < K; t++) {
    const rs: Raw[][] = [];
    let text = '';
    for (let p = 0; p < P; p++) {
      const n = node(t, p);
      text += signature(n, lit) + '\n';
      rs.push(n.operands.map((o): Raw => {
        if (isConst(o)) return { kind: 'const', c: o };
        const m = at[o.index]! - j;
        if (m >= 0 && m < K * P) return { kind: 'rolled', position: m % P, back: t - Math.floor(m / P) };
        return { kind: 'node', n: o };
      }));
    }
    texts.push(text);
    raws.push(rs);
  }
  const same = (a: Raw, b: Raw) => (a.kind === 'const' && b.kind === 'const' ? a.c.data.length === 1 && b.c.data.length === 1
    : a.kind === 'node' && b.kind === 'node' ? a.n === b.n
      : a.kind === 'rolled' && b.kind === 'rolled' ? a.position === b.position && a.back === b.back : false);
  const fits = (t: number) => texts[t] === texts[t - 1] && raws[t]!.every((ops, p) => ops.every((r, q) => same(r, raws[t - 1]![p]![q]!)));
  const runs: Run[] = [];
  for (let a = 0; a < K;) {
    let b = a + 1;
    while (b < K && fits(b)) b++;
    if (b - a >= MIN_ITERATIONS) runs.push(makeRun(node, raws, a, b, P));
    a = b;
  }
  return runs;
}

/** The run of steps [from, to). */
function makeRun(node: (t: number, p: number) => TraceNode, raws: readonly (readonly (readonly ({ kind: string } & Record<string, unknown>)[])[])[], from: number, to: number, P: number): Run {
  const K = to - from;
  const nodes = new Int32Array(K * P);
  for (let t = 0; t < K; t++) for (let p = 0; p < P; p++) nodes[t * P + p] = node(from + t, p).index;
  const roles = raws[from]!.map((ops, p) => ops.map((r, q): Role => {
    if (r.kind === 'rolled') return { kind: 'rolled', position: r.position as number, back: r.back as number };
    if (r.kind === 'node') return { kind: 'invariant', node: r.n as TraceNode };
    const values = Float64Array.from({ length: K }, (_, t) => Number((node(from + t, p).operands[q] as Constant).data[0]));
    return values.every((v) => Object.is(v, values[0])) ? { kind: 'literal', value: values[0]! } : { kind: 'data', values };
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
  const values = Array.from({ length: P }, (_, p) => new (node(from, p).data.constructor as new (n: number) => Flat)(K + offset));
  const adjoints = Array.from({ length: P }, () => new Float64Array(K));
  return { period: P, count: K, nodes, roles, values, adjoints, offset, pre };
}

/**
 * A node's forward and reverse code with its operands, itself and bound values as placeholders
 * (values by identity; zeroed scratch arrays by length): equal texts mean the same code.
 */
function signature(n: TraceNode, lit: (x: number) => string): string {
  // Nodes made by the same lowering with operands alike have the same text: computed once.
  const shape = n.operands.map((o, q) => (isConst(o) ? `c${o.data.length}` : n.operands.indexOf(o) < q ? `d${n.operands.indexOf(o)}` : `n${o.size}`)).join(',');
  // A hoisted fused op writes its constant parameters' h as a literal: their values are part of the text.
  const ew = n.op!.elementwise!;
  const hoisted = ew.kind === 'fused' && ew.hoisted !== null ? ew.hoisted.of.map((q) => { const o = n.operands[q]!; return isConst(o) ? Array.from(o.data, Number).join(';') : ''; }).join('/') : '';
  const key = `${bindId(n.op)}|${n.size}|${n.data.constructor.name}|${shape}|${hoisted}`;
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

const ids = new WeakMap<object, number>();
const scratch = new Map<string, number>();
let nextId = 0;
/** A bound value's identity for signatures: objects by identity, zeroed Float64Arrays (scratch) and index arrays by content. */
function bindId(v: unknown): string {
  if (v instanceof Float64Array && v.every((x) => x === 0)) return `z${v.length}`;
  if (v instanceof Int32Array) return `i${v.join(',')}`;
  if (typeof v !== 'object' && typeof v !== 'function') return `p${String(v)}`;
  if (v === null) return 'null';
  let id = ids.get(v);
  if (id === undefined) ids.set(v, id = nextId++);
  void scratch;
  return `o${id}`;
}

/** What the rolled code needs from the code generator. */
export interface RollContext {
  bind(v: unknown): string;
  lit(x: number): string;
  /** The expression for a node outside the run (one element). */
  outside(o: TraceNode): string;
}

/** Names of a run's arrays, bound once. */
function names(run: Run, ctx: Pick<RollContext, 'bind'>, cache: WeakMap<Run, { P: string[]; A: string[]; D: Map<Float64Array, string> }>) {
  let c = cache.get(run);
  if (c === undefined) cache.set(run, c = { P: run.values.map((v) => ctx.bind(v)), A: run.adjoints.map((v) => ctx.bind(v)), D: new Map() });
  return c;
}

/**
 * The bound names of a run's value and adjoint arrays, per position (bound on first use).
 *
 * @example
 * const { P, A } = runArrays(run, bind);   // P[p][t]: position p's value at step t
 */
export function runArrays(run: Run, bind: (v: unknown) => string): { readonly P: readonly string[]; readonly A: readonly string[] } {
  return names(run, { bind }, bound);
}
const bound = new WeakMap<Run, { P: string[]; A: string[]; D: Map<Float64Array, string> }>();

/** An Emit writing position p's code inside the loop over t. */
function loopEmit(run: Run, p: number, ctx: RollContext, out: string[], forward: boolean): Emit {
  const nm = names(run, ctx, bound);
  const n0 = run.nodes[p]!;
  const val = (o: Operand): string => {
    if (!isConst(o) && o.index === n0) return forward ? `v${n0}` : `${nm.P[p]}[${index(run.offset)}]`;
    // Operand roles by the first step's node (its operands are the representatives).
    const rep = runNode(run, 0, p);
    const q = rep.operands.indexOf(o);
    const r = run.roles[p]![q]!;
    if (r.kind === 'literal') return ctx.lit(r.value);
    if (r.kind === 'data') {
      let d = nm.D.get(r.values);
      if (d === undefined) nm.D.set(r.values, d = ctx.bind(r.values));
      return `${d}[t]`;
    }
    if (r.kind === 'invariant') return ctx.outside(r.node);
    if (forward && r.back === 0) return `v${run.nodes[r.position]!}`;
    return `${nm.P[r.position]}[${index(run.offset - r.back)}]`;
  };
  return {
    bind: ctx.bind, lit: ctx.lit, val, operandData: (o) => (isConst(o) ? o.data : o.data), arrayName: () => { throw new Error('roll: array operand'); },
    unrolled: () => false, valueName: () => `${STORE}${p}${STORE}`, line: (s) => out.push(s), declare: (s) => out.push(s),
    loop: (_n, _u, body) => out.push(forward ? body('t') : `{ ${body('t')} }`), scalarAdjoint: () => false, aliasAdjoint: () => false,
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
 * fwd.push(rolledForward(nodes, run, ctx));   // 'for (let t = 0; t < K; t++) { … }'
 */
export function rolledForward(nodes: readonly TraceNode[], run: Run, ctx: RollContext): string {
  nodesOf.set(run, nodes);
  const body: string[] = [];
  for (let p = 0; p < run.period; p++) {
    const n = runNode(run, 0, p);
    emitForward(loopEmit(run, p, ctx, body, true), n, 'fused', true);
  }
  // Stores index the position's array by the step (the emitter writes element k of one node).
  const P = names(run, ctx, bound).P;
  const text = body.join(' ').replace(new RegExp(`${STORE}(\\d+)${STORE}\\[[^\\]]*\\]`, 'g'), (_, p: string) => `${P[Number(p)]}[${index(run.offset)}]`);
  // The values before the run that the first steps read, in the leading elements.
  const pre = [...run.pre].map(([k, o]) => { const [q, t] = k.split(':').map(Number) as [number, number]; return `${P[q]}[${t + run.offset}] = ${ctx.outside(o)};`; });
  return `${pre.join(' ')}\nfor (let t = 0; t < ${run.count}; t++) { ${text} }`;
}

/** Where a part goes: a rolled node (position, steps back) or a node outside the run. */
type Target = { kind: 'rolled'; position: number; back: number } | { kind: 'outside'; node: TraceNode };

/** What the reverse loop needs from the code generator. */
export interface RollBackContext extends RollContext {
  /** Whether node i's adjoint has a part written (before the loop). */
  started(i: number): boolean;
  /** The expression of an outside node's adjoint (element 0), and the note that it was written. */
  adjointOf(o: TraceNode): { expr: string; note: string };
  /** Records that node i's adjoint has been written. */
  markStarted(i: number): void;
}

const SITE = '\u0004';

/**
 * The reverse loops of a run (steps from last to first, positions from last to first), one per
 * range of steps with the same pattern of first writes.
 *
 * @example
 * back.push(rolledBackward(nodes, run, ctx));
 */
export function rolledBackward(nodes: readonly TraceNode[], run: Run, ctx: RollBackContext): string {
  nodesOf.set(run, nodes);
  const { period: P, count: K } = run;
  const nm = names(run, ctx, bound);
  // Each position's code once, its parts as numbered sites.
  const code: string[] = [], sites: Target[][] = [];
  const lhs = (target: Target, t: number | undefined): string => {
    if (target.kind === 'outside') return ctx.adjointOf(target.node).expr;
    if (t !== undefined && t - target.back < 0) return ctx.adjointOf(run.pre.get(`${target.position}:${t - target.back}`)!).expr;
    return `${nm.A[target.position]}[${index(-target.back)}]`;
  };
  for (let p = 0; p < P; p++) {
    const n = runNode(run, 0, p), out: string[] = [], mine: Target[] = [];
    const e = loopEmit(run, p, ctx, out, false);
    emitBackward(e, n, false, () => `${nm.A[p]}[t]`, (o, _k, expr) => {
      const q = n.operands.indexOf(o), r = run.roles[p]![q]!;
      const target: Target = r.kind === 'rolled' ? { kind: 'rolled', position: r.position, back: r.back } : { kind: 'outside', node: (r as { node: TraceNode }).node };
      const s = mine.push(target) - 1;
      return `${SITE}${s}${SITE} ${expr};`;
    });
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
  for (const o of outsideWritten.keys()) { notes += ctx.adjointOf(o).note; ctx.markStarted(o.index); }
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
    if (r >= 0) {
      const i = (o as TraceNode).index, run = plan.runs[r]!, p = plan.positionOf[i]!, t = plan.stepOf[i]!;
      if (last?.kind === 'range' && last.run === run && last.position === p && last.to === t - 1) last.to = t;
      else pieces.push({ kind: 'range', run, position: p, from: t, to: t, start });
    } else pieces.push({ kind: 'one', operand: j, start, size: blocks[j]! });
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
    const P = names(c.run, { bind }, bound).P[c.position]!;
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
    const A = names(c.run, ctx, bound).A[c.position]!;
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
