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
  /** The operand's buffer (or constant data), and its bound name. */
  operandData(o: Operand): ArrayLike<number>;
  arrayName(o: Operand): string;
  unrolled(index: number): boolean;
  /**
   * Makes `name` (a local holding one number) the whole adjoint of node o, when o's adjoint has
   * not started, o is read by nothing else and its backward is inline; true if it did. A sum's
   * operand then reads its adjoint as that scalar instead of a buffer filled with copies of it.
   */
  scalarAdjoint(o: TraceNode, name: string): boolean;
  /**
   * Makes node n's adjoint buffer node o's adjoint (n's adjoint is dead once n's reverse step is
   * written), when that is o's first part and the part is n's adjoint itself; true if it did.
   * Saves the copy an identity part (`add`'s, `sub`'s first) would make.
   */
  aliasAdjoint(o: TraceNode, n: TraceNode): boolean;
  valueName(index: number): string | undefined;
  line(s: string): void;
}

/** `x · c` as code: x itself for c = 1 and −x for c = −1 (both exact for every double). */
function times(x: string, c: number, e: Emit): string {
  return c === 1 ? x : c === -1 ? `-(${x})` : `${x} * ${e.lit(c)}`;
}

/** Element k of operand j of an op with index maps `maps` (an operand read through its map, or `val`). */
function reader(e: Emit, ops: readonly Operand[], maps: readonly (Int32Array | null)[] | undefined): (j: number, k: number | string) => string {
  const names = ops.map((o, j) => (maps?.[j] ? [e.arrayName(o), e.bind(maps[j])] as const : null));
  return (j, k) => { const m = names[j]; return m === null || m === undefined ? e.val(ops[j]!, k) : `${m[0]}[${m[1]}[${k}]]`; };
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
  if (ew.kind === 'segmentSum') {       // never unrolled: its output has more than one element
    const B = e.valueName(i), M = e.bind(ew.map);
    e.line(`${B}.fill(0);`);
    e.line(`for (let k = 0; k < ${ew.map.length}; k++) ${B}[${M}[k]] += ${e.val(ops[0]!, 'k')};`);
    return;
  }
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
  const maps = ew.kind === 'binary' || ew.kind === 'fused' ? ew.maps : undefined;
  const at = reader(e, ops, maps);
  if (ew.kind === 'fused' && ew.fill !== null) {
    // Operands read through a map are gathered first, as the kernel does, so `fill` sees full-size arrays.
    const values = [0, 1, 2, 3].map((j) => {
      if (j >= ops.length) return ZERO;
      if (!maps?.[j]) return e.operandData(ops[j]!);
      const scratch = new Float64Array(n.size), name = e.bind(scratch);
      e.line(`for (let k = 0; k < ${n.size}; k++) ${name}[k] = ${at(j, 'k')};`);
      return scratch;
    });
    const strides = [0, 1, 2, 3].map((j) => (j < ops.length && (operandSize(ops[j]!) === n.size || maps?.[j]) ? 1 : 0));
    e.line(`${e.bind(ew.fill)}(${e.valueName(i)}, ${n.size}, ${e.bind(values)}, ${e.bind(strides)});`);
    return;
  }
  const F = ew.kind === 'binary' && ew.infix !== undefined ? '' : e.bind(ew.f);
  const args = (k: number | string): string => {
    if (ew.kind === 'unary') return e.val(ops[0]!, k);
    if (ew.kind === 'binary') return `${at(0, k)}, ${at(1, k)}`;
    return [0, 1, 2, 3].map((j) => (j < ops.length ? at(j, k) : '0')).join(', ');
  };
  const expr = ew.kind === 'binary' && ew.infix !== undefined
    ? (k: number | string) => `${at(0, k)} ${ew.infix} ${at(1, k)}`
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
  if (ew.kind === 'segmentSum') {
    const x = ops[0]!;
    if (isConst(x)) return;
    const first = isFirst(x), M = e.bind(ew.map);
    each(e, x.size, false, (k) => contribute(x, k, g(`${M}[${k}]`), first));
    return;
  }
  if (ew.kind === 'total') {
    const x = ops[0]!;
    if (isConst(x)) return;
    e.line(`const t${i} = ${times(g(0), ew.scale, e)};`);
    if (e.scalarAdjoint(x, `t${i}`)) return;
    const first = isFirst(x);
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
    const at = reader(e, ops, ew.maps);
    [ew.da, ew.db].forEach((p, j) => {
      const o = ops[j]!, other = ops[1 - j]!;
      if (p === null || isConst(o)) return;
      if (p === 1 && ew.maps === undefined && o.size === size && e.aliasAdjoint(o, n)) return;
      const first = isFirst(o);
      const PF = typeof p === 'function' ? e.bind(p) : '';
      const call = (k: number | string) => `${PF}(${at(0, k)}, ${at(1, k)}, ${y(k)})`;
      if (ew.maps !== undefined) {                      // broadcast through maps: the kernel scatter-adds into a zeroed part
        const P = e.bind(new Float64Array(o.size)), M = e.bind(ew.maps[j]);
        e.line(`${P}.fill(0);`);
        if (typeof p === 'number') each(e, size, false, (k) => `${P}[${M}[k]] += ${times(g(k), p, e)};`);
        else if (p === 'other') each(e, size, false, (k) => `${P}[${M}[k]] += ${g(k)} * ${at(1 - j, k)};`);
        else each(e, size, false, (k) => `const g = ${g(k)}; if (g !== 0) ${P}[${M}[k]] += g * ${call(k)};`);
        each(e, o.size, false, (k) => contribute(o, k, `${P}[${k}]`, first));
        return;
      }
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
  // Operands read through a map: parts scatter-added into a zeroed buffer in element order, then sent on.
  const scatter = ops.map((o, j) => (traced[j] && ew.maps?.[j] ? [e.bind(new Float64Array((o as TraceNode).size)), e.bind(ew.maps[j])] as const : null));
  for (const t of scatter) if (t !== null) e.line(`${t[0]}.fill(0);`);
  const at = reader(e, ops, ew.maps);
  const args = (k: number | string) => [0, 1, 2, 3].map((j) => (j < ops.length ? at(j, k) : '0')).join(', ');
  each(e, size, unrolled, (k) => {
    const ds = ops.map((_, j) => (traced[j] ? `d${j}` : null)).filter((d): d is string => d !== null);
    let code = `const g = ${g(k)}; let ${ds.map((d) => `${d} = 0`).join(', ')}; `;
    code += `if (g !== 0) { ${P}[0] = 0; ${P}[1] = 0; ${P}[2] = 0; ${P}[3] = 0; ${PART}(${P}, ${args(k)}, ${y(k)}); `;
    code += ops.map((_, j) => (traced[j] ? `d${j} = g * ${P}[${j}]; ` : '')).join('') + '} ';
    ops.forEach((o, j) => {
      if (!traced[j]) return;
      const t = scatter[j];
      if (t) code += `${t[0]}[${t[1]}[${k}]] += d${j}; `;
      else code += sums[j] !== null ? `${sums[j]} += d${j}; ` : `${contribute(o as TraceNode, k, `d${j}`, first[j]!)} `;
    });
    return code;
  });
  ops.forEach((o, j) => {
    if (sums[j] !== null) e.line(contribute(o as TraceNode, 0, sums[j]!, first[j]!));
    const t = scatter[j];
    if (t) each(e, (o as TraceNode).size, false, (k) => contribute(o as TraceNode, k, `${t[0]}[${k}]`, first[j]!));
  });
}
