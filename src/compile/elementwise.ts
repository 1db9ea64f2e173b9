/**
 * Inline code for element-wise ops (`Lowering.elementwise`): the forward value and the reverse
 * parts of each kind, written with exactly the operations, in the order, of the kernels in
 * `src/tensor/ops/factories.ts`, `reduce.ts` (`total`) and `distributions/internal/fused.ts`,
 * so the generated code has their bits. Unrolled nodes use one statement per element over
 * locals; others one loop over buffers (`k` is the loop variable).
 */
import type { Constant, TraceNode } from '../tensor/lowering.js';

type Operand = TraceNode | Constant;
const isConst = (o: Operand): o is Constant => 'constant' in o;
const operandSize = (o: Operand): number => (isConst(o) ? o.data.length : o.size);
const ZERO = new Float64Array(1);

/** What the code generator lends the emitters. */
export interface Emit {
  bind(v: unknown): string;
  lit(x: number): string;
  /** Expression for element k of an operand (index 0 for a size-1 operand). */
  val(o: Operand, k: number | string): string;
  /** The operand's buffer (or constant data). */
  operandData(o: Operand): ArrayLike<number>;
  unrolled(index: number): boolean;
  valueName(index: number): string | undefined;
  line(s: string): void;
}

/** `x · c` as code: x itself for c = 1 and −x for c = −1 (both exact for every double). */
function times(x: string, c: number, e: Emit): string {
  return c === 1 ? x : c === -1 ? `-(${x})` : `${x} * ${e.lit(c)}`;
}

/** Runs `body(k)` for every element: unrolled as blocks with a literal k, or one loop. */
function each(e: Emit, n: number, unrolled: boolean, body: (k: number | string) => string): void {
  if (unrolled) for (let k = 0; k < n; k++) e.line(`{ ${body(k)} }`);
  else e.line(`for (let k = 0; k < ${n}; k++) { ${body('k')} }`);
}

export function emitForward(e: Emit, n: TraceNode, unrolled: boolean, buffered: boolean): void {
  const ew = n.op!.elementwise!, ops = n.operands, i = n.index;
  const store = (k: number | string, expr: string): string => {
    if (!unrolled) return `${e.valueName(i)}[${k}] = ${expr};`;
    return `const v${i}_${k} = ${expr};${buffered ? ` ${e.valueName(i)}[${k}] = v${i}_${k};` : ''}`;
  };
  if (ew.kind === 'total') {
    const x = ops[0]!;
    e.line(`let s${i} = 0;`);
    if (x.shape.reduce((a, b) => a * b, 1) <= 16 || isConst(x)) {
      const size = isConst(x) ? x.data.length : x.size;
      for (let k = 0; k < size; k++) e.line(`s${i} += ${e.val(x, k)};`);
    } else e.line(`for (let k = 0; k < ${x.size}; k++) s${i} += ${e.val(x, 'k')};`);
    e.line(store(0, times(`s${i}`, ew.scale, e)));
    return;
  }
  if (ew.kind === 'fused' && ew.fill !== null) {
    const values = [0, 1, 2, 3].map((j) => (j < ops.length ? e.operandData(ops[j]!) : ZERO));
    const strides = [0, 1, 2, 3].map((j) => (j < ops.length && operandSize(ops[j]!) === n.size ? 1 : 0));
    e.line(`${e.bind(ew.fill)}(${e.valueName(i)}, ${n.size}, ${e.bind(values)}, ${e.bind(strides)});`);
    return;
  }
  const F = ew.kind === 'binary' && ew.infix !== undefined ? '' : e.bind(ew.f);
  const args = (k: number | string): string => {
    if (ew.kind === 'unary') return e.val(ops[0]!, k);
    if (ew.kind === 'binary') return `${e.val(ops[0]!, k)}, ${e.val(ops[1]!, k)}`;
    return [0, 1, 2, 3].map((j) => (j < ops.length ? e.val(ops[j]!, k) : '0')).join(', ');
  };
  const expr = ew.kind === 'binary' && ew.infix !== undefined
    ? (k: number | string) => `${e.val(ops[0]!, k)} ${ew.infix} ${e.val(ops[1]!, k)}`
    : (k: number | string) => `${F}(${args(k)})`;
  if (unrolled) for (let k = 0; k < n.size; k++) e.line(store(k, expr(k)));
  else e.line(`for (let k = 0; k < ${n.size}; k++) ${store('k', expr('k'))}`);
}

/**
 * The reverse pass of one inline node: its parts, given its adjoint `g(k)`, sent to each traced
 * operand with `contribute` (assigning the operand's adjoint on its first part).
 */
export function emitBackward(
  e: Emit, n: TraceNode, unrolled: boolean, g: (k: number | string) => string,
  contribute: (o: TraceNode, k: number | string, expr: string, first: boolean) => string, isFirst: (o: TraceNode) => boolean,
): void {
  const ew = n.op!.elementwise!, ops = n.operands, i = n.index, size = n.size;
  const y = (k: number | string) => e.val(n, k);
  if (ew.kind === 'total') {
    const x = ops[0]!;
    if (isConst(x)) return;
    const first = isFirst(x);
    e.line(`const t${i} = ${times(g(0), ew.scale, e)};`);
    each(e, x.size, e.unrolled(x.index) || x.size <= 16, (k) => contribute(x, k, `t${i}`, first));
    return;
  }
  if (ew.kind === 'unary') {
    const x = ops[0]!;
    if (ew.df === null || isConst(x)) return;
    const DF = e.bind(ew.df), first = isFirst(x);
    each(e, size, unrolled, (k) => `const g = ${g(k)}; ${contribute(x, k, `g === 0 ? 0 : g * ${DF}(${e.val(x, k)}, ${y(k)})`, first)}`);
    return;
  }
  if (ew.kind === 'binary') {
    [ew.da, ew.db].forEach((p, j) => {
      const o = ops[j]!, other = ops[1 - j]!;
      if (p === null || isConst(o)) return;
      const first = isFirst(o);
      const PF = typeof p === 'function' ? e.bind(p) : '';
      const call = (k: number | string) => `${PF}(${e.val(ops[0]!, k)}, ${e.val(ops[1]!, k)}, ${y(k)})`;
      if (o.size === 1 && size !== 1) {                 // a broadcast scalar: the kernel sums its parts
        const s = `r${i}_${j}`;
        e.line(`let ${s} = 0;`);
        if (typeof p === 'number') { each(e, size, unrolled, (k) => `${s} += ${g(k)};`); if (p !== 1) e.line(`${s} *= ${e.lit(p)};`); }
        else if (p === 'other') each(e, size, unrolled, (k) => `${s} += ${g(k)} * ${e.val(other, k)};`);
        else each(e, size, unrolled, (k) => `const g = ${g(k)}; if (g !== 0) ${s} += g * ${call(k)};`);
        e.line(contribute(o, 0, s, first));
        return;
      }
      if (typeof p === 'number') each(e, size, unrolled, (k) => contribute(o, k, times(g(k), p, e), first));
      else if (p === 'other') each(e, size, unrolled, (k) => contribute(o, k, `${g(k)} * ${e.val(other, k)}`, first));
      else each(e, size, unrolled, (k) => `const g = ${g(k)}; ${contribute(o, k, `g !== 0 ? g * ${call(k)} : 0`, first)}`);
    });
    return;
  }
  // fused: one partials call per element with a non-zero adjoint, parts to the traced operands.
  if (ew.partials === null) return;
  const traced = ops.map((o) => !isConst(o));
  if (!traced.some(Boolean)) return;
  const PART = e.bind(ew.partials), P = e.bind(new Float64Array(4));
  const first = ops.map((o) => (isConst(o) ? false : isFirst(o)));
  const sums = ops.map((o, j) => (traced[j] && (o as TraceNode).size === 1 && size !== 1 ? `r${i}_${j}` : null));
  for (const s of sums) if (s !== null) e.line(`let ${s} = 0;`);
  const args = (k: number | string) => [0, 1, 2, 3].map((j) => (j < ops.length ? e.val(ops[j]!, k) : '0')).join(', ');
  each(e, size, unrolled, (k) => {
    const ds = ops.map((_, j) => (traced[j] ? `d${j}` : null)).filter((d): d is string => d !== null);
    let code = `const g = ${g(k)}; let ${ds.map((d) => `${d} = 0`).join(', ')}; `;
    code += `if (g !== 0) { ${P}[0] = 0; ${P}[1] = 0; ${P}[2] = 0; ${P}[3] = 0; ${PART}(${P}, ${args(k)}, ${y(k)}); `;
    code += ops.map((_, j) => (traced[j] ? `d${j} = g * ${P}[${j}]; ` : '')).join('') + '} ';
    ops.forEach((o, j) => {
      if (!traced[j]) return;
      code += sums[j] !== null ? `${sums[j]} += d${j}; ` : `${contribute(o as TraceNode, k, `d${j}`, first[j]!)} `;
    });
    return code;
  });
  ops.forEach((o, j) => { if (sums[j] !== null) e.line(contribute(o as TraceNode, 0, sums[j]!, first[j]!)); });
}
