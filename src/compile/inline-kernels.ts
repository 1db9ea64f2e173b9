/**
 * Small kernel calls written inline: `take` with constant indices and `logsumexp` over a small
 * tensor, the two kernels every step of an enumerated model calls (an HMM written step by step
 * gathers a row of the transition matrix and sums a state out per step), and small `concat`s
 * (`stack`), with which an ODE's right-hand side builds its vector of derivatives.
 *
 * Why: a kernel made per node (`kernelFactory`) is a closure with its own scratch arrays and
 * index map. Called once per node, those objects are a pointer chase per call; a program of
 * thousands of such nodes keeps megabytes of them hot, more than the L2 cache, and each call got
 * slower as the program grew (the enumerated HMM: 0.65 µs per logsumexp call at T = 100, 3.9 µs
 * at T = 1000, the same kernel on the same 3 × 3 table). Inline, a step touches only its own
 * buffers. Recognised by the factory that made the kernel (`kernelSource`), so the tensor ops
 * need no change; the code does the kernel's arithmetic in its order (same bits), with its index
 * map unrolled into literal indices.
 */
import { detExp, detLog1p } from '../math/index.js';
import { kernelSource, type Lowering } from '../tensor/lowering.js';
import type { Reduction } from '../tensor/ops/reduce.js';

/** Kernels over at most this many input elements are written as generated functions (one statement per element). */
const MAX_INLINE = 64;

/**
 * The generated functions for one program: one per kernel shape (a take's indices, a
 * logsumexp's reduction), shared by every node of that shape, so a long program's code does
 * not grow with them; each node's call passes only its buffers.
 *
 * @example
 * const helpers = new KernelHelpers(bind);                  // codegen's `bind` (a value → its env name)
 * helpers.forward(takeLowering, 'e3', 'e7');                // 'kf0(e3, e7);', or undefined for other kernels
 * const source = `${helpers.definitions()}\nfunction run(withGrad) { … }`;
 */
export class KernelHelpers {
  private readonly defs: string[] = [];
  private readonly names = new Map<string, string>();
  private exp: string | undefined;
  private log1p: string | undefined;

  constructor(private readonly bind: (v: unknown) => string) {}

  /** The call running `op`'s forward pass from buffer `x` into `out`, or undefined when `op` is not one this writes. */
  forward(op: Lowering, x: string, out: string): string | undefined {
    const k = inlineable(op);
    if (k === undefined || k.kind === 'concat') return undefined;
    return `${this.helper(k, 'f', 0, () => forwardBody(k, this.fns()))}(${x}, ${out});`;
  }

  /** The call writing the operand's part `part` (`partSize` elements) from the output's adjoint `g`, or undefined when `op` is not one this writes. */
  backward(op: Lowering, x: string, out: string, g: string, part: string, partSize: number): string | undefined {
    const k = inlineable(op);
    if (k === undefined || k.kind === 'concat') return undefined;
    return `${this.helper(k, 'b', partSize, () => backwardBody(k, partSize, this.fns()))}(${x}, ${out}, ${g}, ${part});`;
  }

  /** The call running a small concat's forward pass from the operand buffers `xs` into `out`, or undefined when `op` is not one this writes. */
  forwardMany(op: Lowering, xs: readonly string[], out: string): string | undefined {
    const k = inlineable(op);
    if (k?.kind !== 'concat') return undefined;
    const params = [...xs.map((_, i) => `x${i}`), 'o'].join(', ');
    return `${this.helper(k, 'f', 0, () => concatForward(k), params)}(${xs.join(', ')}, ${out});`;
  }

  /** The call writing a small concat's parts (`null` for an operand that takes none) from the output's adjoint `g`, or undefined when `op` is not one this writes. */
  backwardMany(op: Lowering, g: string, parts: readonly (string | null)[]): string | undefined {
    const k = inlineable(op);
    if (k?.kind !== 'concat') return undefined;
    const has = parts.map((q) => q !== null);
    const mask = has.reduce((m, h, i) => (h ? m + 2 ** i : m), 0);
    const params = ['g', ...parts.flatMap((q, i) => (q === null ? [] : [`p${i}`]))].join(', ');
    return `${this.helper(k, 'b', mask, () => concatBackward(k, has), params)}(${[g, ...parts.filter((q) => q !== null)].join(', ')});`;
  }

  /** The function definitions the calls need (before `run`). */
  definitions(): string {
    return this.defs.join('\n');
  }

  private fns(): { EXP: string; LOG1P: string } {
    this.exp ??= this.bind(detExp);
    this.log1p ??= this.bind(detLog1p);
    return { EXP: this.exp, LOG1P: this.log1p };
  }

  /** `partSize`: the take's part size, or which parts a concat's backward writes (a bit per operand). */
  private helper(k: Inlineable, pass: 'f' | 'b', partSize: number, body: () => string, params = pass === 'f' ? 'x, o' : 'x, o, g, p'): string {
    const shape = k.kind === 'take' ? k.idx.join(',') : k.kind === 'concat' ? `${k.blocks.join(',')}:${k.outer}` : `${k.r.size}:${k.r.map.join(',')}`;
    const key = `${k.kind}:${pass}:${partSize}:${shape}`;
    let name = this.names.get(key);
    if (name === undefined) {
      name = `k${pass}${this.names.size}`;
      this.names.set(key, name);
      this.defs.push(`function ${name}(${params}) {\n${body()}\n}`);
    }
    return name;
  }
}

/** The forward body over `x` into `o`. */
function forwardBody(k: Exclude<Inlineable, Concat>, { EXP, LOG1P }: { EXP: string; LOG1P: string }): string {
  if (k.kind === 'take') return Array.from(k.idx, (i, j) => `o[${j}] = x[${i}];`).join(' ');
  // logsumexp: per output, the first largest element (NaN wins) is m; s sums exp(x − m) over the others, in element order.
  return groups(k.r).map((ks, j) => {
    let code = `{ let m = x[${ks[0]}], f = ${ks[0]};`;
    for (const i of ks.slice(1)) code += ` { const a = x[${i}]; if (a > m || (a !== a && m === m)) { m = a; f = ${i}; } }`;
    code += ' let s = 0;';
    for (const i of ks) code += ` if (f !== ${i}) s += ${EXP}(x[${i}] - m);`;
    return `${code} o[${j}] = Number.isFinite(m) ? m + ${LOG1P}(s) : m; }`;
  }).join('\n');
}

/** The reverse body: the part `p` from the adjoint `g` (and `x`, the output `o`). */
function backwardBody(k: Exclude<Inlineable, Concat>, partSize: number, { EXP }: { EXP: string }): string {
  if (k.kind === 'take') {
    // The kernel zeroes the part and adds each adjoint element in order: 0 + g[k1] + g[k2] + …
    const into: number[][] = Array.from({ length: partSize }, () => []);
    k.idx.forEach((i, j) => into[i]!.push(j));
    return into.map((js, i) => `p[${i}] = 0${js.map((j) => ` + g[${j}]`).join('')};`).join(' ');
  }
  return groups(k.r).map((ks, j) => {
    // An infinite result sends its adjoint to the infinite elements, shared equally; −∞ sends nothing.
    const count = ks.map((i) => `(x[${i}] === Infinity)`).join(' + ');
    const parts = ks.map((i) => `p[${i}] = y === -Infinity ? 0 : y === Infinity ? (x[${i}] === Infinity ? g[${j}] / (${count}) : 0) : g[${j}] * ${EXP}(x[${i}] - y);`);
    return `{ const y = o[${j}]; ${parts.join(' ')} }`;
  }).join('\n');
}

/** A concat's forward: each operand's blocks copied into place, in the kernel's order (shape.ts). */
function concatForward(k: Concat): string {
  const lines: string[] = [];
  let start = 0;
  k.blocks.forEach((b, i) => {
    for (let o = 0; o < k.outer; o++) for (let j = 0; j < b; j++) lines.push(`o[${o * k.row + start + j}] = x${i}[${o * b + j}];`);
    start += b;
  });
  return lines.join(' ');
}

/** A concat's reverse: each wanted part is its block of the adjoint, copied (the kernel assigns, it does not add). */
function concatBackward(k: Concat, has: readonly boolean[]): string {
  const lines: string[] = [];
  let start = 0;
  k.blocks.forEach((b, i) => {
    if (has[i]) for (let o = 0; o < k.outer; o++) for (let j = 0; j < b; j++) lines.push(`p${i}[${o * b + j}] = g[${o * k.row + start + j}];`);
    start += b;
  });
  return lines.join(' ');
}

type Concat = { kind: 'concat'; blocks: readonly number[]; outer: number; row: number };
type Inlineable = { kind: 'take'; idx: Int32Array } | { kind: 'logsumexp'; r: Reduction } | Concat;

/** What `op` is, when a factory this file knows made it over few enough elements. */
function inlineable(op: Lowering): Inlineable | undefined {
  const src = kernelSource(op);
  if (src === undefined) return undefined;
  if (src.factory === 'take') {
    const idx = src.args[0] as Int32Array;
    if (!(idx instanceof Int32Array) || idx.length > MAX_INLINE) return undefined;
    return { kind: 'take', idx };
  }
  if (src.factory === 'concat') {
    const [blocks, outer, row] = src.args as [readonly number[], number, number];
    if (!Array.isArray(blocks) || typeof outer !== 'number' || typeof row !== 'number' || outer * row > MAX_INLINE) return undefined;
    return { kind: 'concat', blocks, outer, row };
  }
  if (src.factory === 'logsumexp') {
    const r = src.args[0] as Reduction;
    if (r.map.length > MAX_INLINE || r.map.length === 0) return undefined;
    return { kind: 'logsumexp', r };
  }
  return undefined;
}

/** The input elements of each output of a reduction, in element order. */
function groups(r: Reduction): number[][] {
  const out: number[][] = Array.from({ length: r.size }, () => []);
  r.map.forEach((j, k) => out[j]!.push(k));
  return out;
}

/**
 * Whether `op` is a small take or logsumexp this file writes as a generated function (its calls
 * take one operand buffer and the output buffer): loop rolling (roll.ts) calls them per step.
 *
 * @example
 * smallKernel(node.op);   // true for a take of a row of a 3 × 3 matrix
 */
export function smallKernel(op: Lowering): boolean {
  const k = inlineable(op);
  return k !== undefined && k.kind !== 'concat';
}
