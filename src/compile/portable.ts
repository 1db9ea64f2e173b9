/**
 * Portable compiled programs: a {@link Compiled} as a structured-cloneable description (its
 * generated source, and each value the source binds as data or as the stable name of a
 * registered library function), and the inverse that rebuilds its `valueAndGrad` in another
 * thread or process running the same stochax, with the same bits.
 *
 * Why names: a compiled log density is generated code plus constants, except for the scalar
 * functions its element-wise ops call (`normalLogProb`, `exp`'s derivative, …), which are
 * library functions, mostly module-private. A function crosses threads only as a name both
 * sides resolve to their own copy of it. Names come from *registering lowerings*: a registry
 * source traces small library computations (`registerTracedLowerings`) and names every function
 * their element-wise lowerings carry `<op name>#<role>` (`Normal.logProb#f`,
 * `Normal.logProb#hoisted.core`); every thread runs the same sources in the same order, so a
 * name means the same function everywhere. A kernel made per call (a kernel-call op's lowering,
 * a closure over shapes, index maps or flags) crosses as the name of the `kernelFactory` that made
 * it and the arguments it was made from (src/tensor/lowering.ts), and the receiving thread makes it
 * again. A function that no source reaches and no factory made (a user's function) and a kernel
 * made without a factory make the program not portable, and `exportCompiled` says which one.
 */
import type { TensorLike } from '../tensor/core.js';
import { kernelSource, remakeKernel, type Elementwise, type Flat, type Lowering } from '../tensor/lowering.js';
import type { Tensor } from '../tensor/tensor.js';
import type { Compiled } from './codegen.js';
import { traceProgram, type Program } from './trace.js';

/** One bound value of a portable program. */
export type PortableEntry =
  | { readonly data: Flat }
  /** A registered function by name, with its arity (checked by the receiving thread). */
  | { readonly fn: string; readonly arity: number }
  | { readonly list: readonly (PortableEntry | null)[] }
  | { readonly number: number }
  /** A kernel (lowering or scalar function) made per call by a named `kernelFactory`, and the arguments it was made from. */
  | { readonly make: string; readonly args: readonly (PortableEntry | null)[] }
  | { readonly record: readonly (readonly [string, PortableEntry | null])[] }
  | { readonly string: string }
  | { readonly boolean: boolean }
  | { readonly undefined: true };

/** A compiled program as plain data (structured-cloneable): the source and its bound values. */
export interface PortableProgram {
  readonly source: string;
  readonly env: readonly PortableEntry[];
  /** Length of the flat point (`valueAndGrad`'s x and grad). */
  readonly dim: number;
  /** A hash of every registered name in registration order: a thread whose registry differs refuses the program. */
  readonly registry: number;
}

/** `exportCompiled`'s answer: the description, or why there is none. */
export type ExportResult = { readonly ok: true; readonly program: PortableProgram } | { readonly ok: false; readonly reason: string };

const byName = new Map<string, (...args: never[]) => unknown>();
const byFunction = new Map<unknown, string>();
const sources: (() => void)[] = [];
let ran = 0;

/**
 * Adds a registry source: a function that registers library functions (usually by
 * {@link registerTracedLowerings}). Sources run lazily, all of them, in the order they were
 * added, the first time a name is looked up, so every thread that adds the same sources in the
 * same order gets the same names.
 *
 * @example
 * addPortableSource(() => registerTracedLowerings((x) => exp(x), [tensor(0.5)]));
 */
export function addPortableSource(source: () => void): void {
  sources.push(source);
}

/** Runs the sources not yet run. */
function ready(): void {
  while (ran < sources.length) sources[ran++]!();
}

/** Registers `f` under `name` (a later different function of the same name gets `name~2`, `~3`, …); a function keeps its first name. */
function register(name: string, f: unknown): void {
  if (typeof f !== 'function' || byFunction.has(f)) return;
  let unique = name;
  for (let k = 2; byName.has(unique); k++) unique = `${name}~${k}`;
  byName.set(unique, f as (...args: never[]) => unknown);
  byFunction.set(f, unique);
}

/** The functions an element-wise lowering's generated code may call, by role. */
function elementwiseFunctions(ew: Elementwise): [string, unknown][] {
  switch (ew.kind) {
    case 'unary': return [['f', ew.f], ['df', ew.df]];
    case 'binary': return [['f', ew.f], ['da', ew.da], ['db', ew.db]];
    case 'fused': return [['f', ew.f], ['partials', ew.partials], ['hoisted.core', ew.hoisted?.core], ['hoisted.h', ew.hoisted?.h],
      ...(ew.partialOf ?? []).map((d, j) => [`partialOf.${j}`, d] as [string, unknown])];
    default: return [];
  }
}

/**
 * Traces `f` at `inputs` and registers every function that its element-wise lowerings carry,
 * as `<op name>#<role>`. Errors from `f` are swallowed (a source probes many ops; one that
 * cannot run at these inputs registers nothing).
 *
 * @example
 * registerTracedLowerings((x, y) => mul(x, y), [tensor(0.5), tensor(1.5)]);   // mul's functions
 */
export function registerTracedLowerings(f: (...xs: Tensor[]) => TensorLike | readonly TensorLike[], inputs: readonly Tensor[]): void {
  let nodes;
  try { nodes = traceProgram('registerTracedLowerings', f, inputs).trace.nodes; } catch { return; }
  for (const n of nodes) {
    const ew = n.op?.elementwise;
    if (ew !== undefined) for (const [role, g] of elementwiseFunctions(ew)) register(`${n.op!.name}#${role}`, g);
  }
}

/**
 * The registered name of a function (running the registry sources first), or undefined.
 *
 * @example
 * portableName(someLibraryKernel);   // 'Normal.logProb#f', or undefined when unregistered
 */
export function portableName(f: unknown): string | undefined {
  ready();
  return byFunction.get(f);
}

/** FNV-1a of every registered name in order (see `PortableProgram.registry`). */
function registryHash(): number {
  let h = 0x811c9dc5;
  for (const name of byName.keys()) {
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 10, 0x01000193);
  }
  return h >>> 0;
}

const isLowering = (v: unknown): v is Lowering => typeof v === 'object' && v !== null && typeof (v as Lowering).forward === 'function' && typeof (v as Lowering).name === 'string';

/** A function, and the op whose lowering carries it, for a message. */
function describe(v: unknown, owner: readonly (Lowering | null)[]): string {
  const op = owner.find((o) => o?.elementwise !== undefined && elementwiseFunctions(o.elementwise).some(([, g]) => g === v));
  const name = typeof v === 'function' && v.name !== '' ? `\`${v.name}\`` : 'an anonymous function';
  return op === undefined || op === null ? name : `${name} (of the op \`${op.name}\`)`;
}

/**
 * A compiled program as a structured-cloneable {@link PortableProgram}, or the reason it has
 * none: a kernel-call op whose lowering no `kernelFactory` made, or a function no registry source
 * reaches and no factory made. Needs `valueAndGrad` (a program compiled with gradients,
 * one output value). Buffers are copied by the structured clone; views of one buffer stay views
 * of one buffer when the description is posted in one message.
 *
 * @example
 * const c = compileTarget('f', flatModel('f', pinned), []);
 * const e = exportCompiled(c);   // { ok: true, program } or { ok: false, reason: 'the op `cholesky` …' }
 */
export function exportCompiled(c: Compiled): ExportResult {
  if (c.valueAndGrad === undefined) return { ok: false, reason: 'the program has no flat value-and-gradient form' };
  ready();
  // The ops of the program it came from (compileGradient keeps it), to name a function's op.
  const program = (c as { readonly program?: Program }).program;
  const lowerings = program?.trace.nodes.map((n) => n.op) ?? c.env.filter(isLowering);
  let reason: string | undefined;
  const kernels = new Map<unknown, PortableEntry>();
  const entry = (v: unknown): PortableEntry | null => {
    if (reason !== undefined) return null;
    if (v === null) return null;
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return { data: v as Flat };
    if (typeof v === 'number') return { number: v };
    if (typeof v === 'string') return { string: v };
    if (typeof v === 'boolean') return { boolean: v };
    if (v === undefined) return { undefined: true };
    if (Array.isArray(v)) return { list: v.map(entry) };
    // A kernel made per call by a named factory: its name and arguments (a registered name wins: it is the same function everywhere).
    const made = typeof v === 'function' && byFunction.has(v) ? undefined : kernelSource(v);
    if (made !== undefined) {
      // One entry per kernel: the source binds a lowering once for its forward and once for its backward, which may share state (structured cloning keeps the sharing).
      let e = kernels.get(v);
      if (e === undefined) kernels.set(v, e = { make: made.factory, args: made.args.map(entry) });
      return e;
    }
    if (!isLowering(v) && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return { record: Object.entries(v as object).map(([k, u]) => [k, entry(u)] as const) };
    if (typeof v === 'function') {
      const name = byFunction.get(v);
      if (name !== undefined) return { fn: name, arity: v.length };
      reason = `it calls ${describe(v, lowerings)}, which is not a registered library function`;
      return null;
    }
    if (isLowering(v)) reason = `the op \`${v.name}\` runs as a kernel call made without a named factory (\`kernelFactory\`), which has no portable form yet`;
    else reason = `it binds a value of type ${typeof v} that cannot be sent`;
    return null;
  };
  const env = c.env.map(entry);
  if (reason !== undefined) return { ok: false, reason };
  if (!/\bfunction valueAndGrad\(/.test(c.source)) return { ok: false, reason: 'the program has no flat value-and-gradient form' };
  return { ok: true, program: { source: c.source, env: env as PortableEntry[], dim: c.flatInput.length, registry: registryHash() } };
}

/**
 * Rebuilds a portable program's flat value and gradient `(x, grad) => value` (in this thread,
 * from this thread's registered functions): the same bits as the original `valueAndGrad`.
 *
 * @throws TypeError when the description names a function this thread has not registered (a
 *   different stochax version, or sources added in another order).
 * @example
 * const vg = importCompiled(program);          // in a worker
 * const lp = vg(x, new Float64Array(program.dim));
 */
export function importCompiled(p: PortableProgram): (x: ArrayLike<number>, grad: Float64Array) => number {
  return importCompiledEntries(p).valueAndGrad;
}

/**
 * {@link importCompiled} with the forward-only entry too: `values(x, out)` writes every output's
 * values at x into out, in order (the program's `Compiled.values`, same bits, no reverse pass).
 *
 * @throws TypeError as {@link importCompiled}.
 * @example
 * const { valueAndGrad, values } = importCompiledEntries(program);
 * const out = new Float64Array(1);
 * values(x, out);   // out[0] = the value valueAndGrad(x, grad) returns
 */
export function importCompiledEntries(p: PortableProgram): {
  readonly valueAndGrad: (x: ArrayLike<number>, grad: Float64Array) => number;
  readonly values: (x: ArrayLike<number>, out: Float64Array) => void;
} {
  ready();
  // Names are given in registration order: a thread whose sources registered other functions (another version, a code path that differs) would read them differently, so refuse rather than compute with another function.
  if (p.registry !== registryHash()) throw new TypeError('importCompiled: this thread\'s registry of library functions differs from the one the program was exported with (is it the same stochax?)');
  const remade = new Map<PortableEntry, unknown>();   // one kernel per entry (see exportCompiled)
  const value = (e: PortableEntry | null): unknown => {
    if (e === null) return null;
    if ('data' in e) return e.data;
    if ('number' in e) return e.number;
    if ('list' in e) return e.list.map(value);
    if ('string' in e) return e.string;
    if ('boolean' in e) return e.boolean;
    if ('undefined' in e) return undefined;
    if ('record' in e) return Object.fromEntries(e.record.map(([k, u]) => [k, value(u)]));
    if ('make' in e) {
      let k = remade.get(e);
      if (!remade.has(e)) remade.set(e, k = remakeKernel(e.make, e.args.map(value)));
      return k;
    }
    const f = byName.get(e.fn);
    if (f === undefined) throw new TypeError(`importCompiled: the function "${e.fn}" is not registered in this thread (is it the same stochax?)`);
    if (f.length !== e.arity) throw new TypeError(`importCompiled: "${e.fn}" names a different function in this thread (another stochax version?)`);
    return f;
  };
  const env = p.env.map(value);
  const made = new Function('env', p.source)(env) as { valueAndGrad?: (x: ArrayLike<number>, grad: Float64Array) => number; values: (x: ArrayLike<number>, out: Float64Array) => void };
  if (made.valueAndGrad === undefined) throw new TypeError('importCompiled: the program has no flat value-and-gradient form');
  return { valueAndGrad: made.valueAndGrad, values: made.values };
}
