/**
 * Inline code for element-wise ops (`Lowering.elementwise`): the forward value and the reverse
 * parts of each kind, written with exactly the operations, in the order, of the kernels in
 * `src/tensor/ops/factories.ts`, `reduce.ts` (`total`) and `distributions/internal/fused.ts`,
 * so the generated code has their bits. Unrolled nodes use one statement per element over
 * locals; others one loop over buffers (`k` is the loop variable).
 */
import type { Constant, Hoisted, TraceNode } from '../tensor/lowering.js';

type Operand = TraceNode | Constant;
const isConst = (o: Operand): o is Constant => 'constant' in o;
const operandSize = (o: Operand): number => (isConst(o) ? o.data.length : o.size);
/** A matvec with at most this many columns sums each row as one expression over the vector in locals. */
const MATVEC_UNROLL = 16;

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
  /** A declaration of a local the loop body uses (before a fused loop, wherever the node writes it). */
  declare(s: string): void;
  /**
   * Emits `body(k)` for every element of an n-element loop: unrolled as blocks with a literal k,
   * or one loop — or, inside a fused loop, the body once with k the shared loop variable.
   */
  loop(n: number, unrolled: boolean, body: (k: number | string) => string): void;
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

/** The plain `Emit.loop`: unrolled as blocks with a literal k, or one loop. */
export function eachElement(line: (s: string) => void, n: number, unrolled: boolean, body: (k: number | string) => string): void {
  if (unrolled) for (let k = 0; k < n; k++) line(`{ ${body(k)} }`);
  else line(`for (let k = 0; k < ${n}; k++) { ${body('k')} }`);
}

/**
 * The forward value of one inline node. `mode`: `unrolled` (one local per element), `loop` (its
 * own loop over a buffer) or `fused` (its body inside a fused loop: a local `v{i}` for the nodes
 * after it in the loop, and the buffer when `buffered`). A `total` keeps its local sum either way.
 */
export function emitForward(e: Emit, n: TraceNode, mode: 'unrolled' | 'loop' | 'fused', buffered: boolean): void {
  const ew = n.op!.elementwise!, ops = n.operands, i = n.index;
  const store = (k: number | string, expr: string): string => {
    if (e.unrolled(i)) return `const v${i}_${k} = ${expr};${buffered ? ` ${e.valueName(i)}[${k}] = v${i}_${k};` : ''}`;
    if (mode === 'fused') return `const v${i} = ${expr};${buffered ? ` ${e.valueName(i)}[${k}] = v${i};` : ''}`;
    return `${e.valueName(i)}[${k}] = ${expr};`;
  };
  if (ew.kind === 'segmentSum') {       // never unrolled or fused: its output has more than one element
    const B = e.valueName(i), M = e.bind(ew.map);
    e.line(`${B}.fill(0);`);
    e.line(`for (let k = 0; k < ${ew.map.length}; k++) ${B}[${M}[k]] += ${e.val(ops[0]!, 'k')};`);
    return;
  }
  if (ew.kind === 'total') {
    const x = ops[0]!, size = operandSize(x);
    e.declare(`let s${i} = 0;`);
    e.loop(size, size <= 16 || isConst(x), (k) => `s${i} += ${e.val(x, k)};`);
    e.line(store(0, times(`s${i}`, ew.scale, e)));
    return;
  }
  if (ew.kind === 'matvec') {              // row k of a constant matrix times a traced vector, summed as gemm does
    const A = e.arrayName(ops[0]!), B = e.arrayName(ops[1]!), D = ew.inner;
    let body = (k: number | string) => `let t${i} = 0; for (let p = 0; p < ${D}; p++) t${i} += ${A}[${k} * ${D} + p] * ${B}[p]; ${store(k, `t${i}`)}`;
    if (D <= MATVEC_UNROLL) {
      // The vector in locals before the loop and each row one expression, `0 + a₀b₀ + a₁b₁ + …`:
      // JavaScript adds left to right, so the sum is the loop's (and gemm's), a row at a time
      // without a loop-carried counter (3.5–3.9× faster for 600 × 3 and 1000 × 10; measured).
      for (let p = 0; p < D; p++) e.declare(`const b${i}_${p} = ${e.val(ops[1]!, p)};`);
      body = (k) => {
        const r = typeof k === 'number' ? String(k * D) : `r${i}`;
        const terms = Array.from({ length: D }, (_, p) => ` + ${A}[${typeof k === 'number' ? Number(r) + p : `${r} + ${p}`}] * b${i}_${p}`).join('');
        return `${typeof k === 'number' ? '' : `const r${i} = ${k} * ${D}; `}const t${i} = 0${terms}; ${store(k, `t${i}`)}`;
      };
    }
    if (mode === 'unrolled') for (let k = 0; k < n.size; k++) e.line(`{ ${body(k)} }`);
    else e.loop(n.size, false, body);
    return;
  }
  // A fused op's `fill` (its eager loop) has `f`'s bits by contract; generated code calls `f`.
  const at = reader(e, ops, ew.kind === 'binary' || ew.kind === 'fused' ? ew.maps : undefined);
  const F = ew.kind === 'binary' && ew.infix !== undefined ? '' : e.bind(ew.f);
  const args = (k: number | string): string => {
    if (ew.kind === 'unary') return e.val(ops[0]!, k);
    if (ew.kind === 'binary') return `${at(0, k)}, ${at(1, k)}`;
    return [0, 1, 2, 3].map((j) => (j < ops.length ? at(j, k) : '0')).join(', ');
  };
  let expr = ew.kind === 'binary' && ew.infix !== undefined
    ? (k: number | string) => `${at(0, k)} ${ew.infix} ${at(1, k)}`
    : (k: number | string) => `${F}(${args(k)})`;
  if (ew.kind === 'fused' && ew.hoisted !== null) expr = hoistedForm(e, n, ew.hoisted, args, at);
  if (mode === 'unrolled') for (let k = 0; k < n.size; k++) e.line(store(k, expr(k)));
  else e.loop(n.size, false, (k) => store(k, expr(k)));
}

/**
 * A hoisted fused op's value as `core(args, h)`: h a literal (constant scalar parameters), a
 * table made now (constant parameters), a local computed once before the loop (scalar
 * parameters), or computed per element.
 */
function hoistedForm(e: Emit, n: TraceNode, hoisted: Hoisted, args: (k: number | string) => string, at: (j: number, k: number | string) => string): (k: number | string) => string {
  const ps = hoisted.of.map((j) => n.operands[j]!);
  const CORE = e.bind(hoisted.core);
  const form = (h: (k: number | string) => string) => (k: number | string) => `${CORE}(${args(k)}, ${h(k)})`;
  if (ps.every(isConst) && ps.every((p) => p.data.length === 1 || p.data.length === n.size)) {
    const hAt = (k: number) => hoisted.h(...ps.map((p) => Number(p.data[p.data.length === 1 ? 0 : k])) as [number, number]);
    if (ps.every((p) => p.data.length === 1)) { const v = e.lit(hAt(0)); return form(() => v); }
    const table = e.bind(Float64Array.from({ length: n.size }, (_, k) => hAt(k)));
    return form((k) => `${table}[${k}]`);
  }
  const H = e.bind(hoisted.h);
  if (ps.every((p) => operandSize(p) === 1)) {
    e.declare(`const h${n.index} = ${H}(${ps.map((p) => e.val(p, 0)).join(', ')});`);
    return form(() => `h${n.index}`);
  }
  return form((k) => `${H}(${hoisted.of.map((j) => at(j, k)).join(', ')})`);
}

/**
 * The reverse pass of one inline node: its parts, given its adjoint `g(k)`, sent to each traced
 * operand with `contribute` (assigning the operand's adjoint on its first part).
 */
export function emitBackward(
  e: Emit, n: TraceNode, unrolled: boolean, g: (k: number | string) => string,
  contribute: (o: TraceNode, k: number | string, expr: string) => string,
): void {
  const ew = n.op!.elementwise!, ops = n.operands, i = n.index, size = n.size;
  const y = (k: number | string) => e.val(n, k);
  if (ew.kind === 'segmentSum') {
    const x = ops[0]!;
    if (isConst(x)) return;
    const M = e.bind(ew.map);
    e.loop(x.size, false, (k) => contribute(x, k, g(`${M}[${k}]`)));
    return;
  }
  if (ew.kind === 'total') {
    const x = ops[0]!;
    if (isConst(x)) return;
    e.declare(`const t${i} = ${times(g(0), ew.scale, e)};`);
    if (e.scalarAdjoint(x, `t${i}`)) return;
    e.loop(x.size, e.unrolled(x.index) || x.size <= 16, (k) => contribute(x, k, `t${i}`));
    return;
  }
  if (ew.kind === 'matvec') {              // the vector's part Aᵀg, summed over rows in order into a zeroed buffer as gemm does
    const A = e.arrayName(ops[0]!), b = ops[1] as TraceNode, D = ew.inner, P = e.bind(new Float64Array(D));
    e.declare(`${P}.fill(0);`);
    e.loop(size, unrolled, (k) => `const g = ${g(k)}; for (let p = 0; p < ${D}; p++) ${P}[p] += ${A}[${k} * ${D} + p] * g;`);
    // One line per element for a narrow vector (one of a single element is a local, not a buffer).
    if (D <= MATVEC_UNROLL) for (let p = 0; p < D; p++) e.line(contribute(b, p, `${P}[${p}]`));
    else e.line(`for (let p = 0; p < ${D}; p++) ${contribute(b, 'p', `${P}[p]`)}`);
    return;
  }
  if (ew.kind === 'unary') {
    const x = ops[0]!;
    if (ew.df === null || isConst(x)) return;
    const DF = e.bind(ew.df);
    e.loop(size, unrolled, (k) => `const g = ${g(k)}; ${contribute(x, k, `g === 0 ? 0 : g * ${DF}(${e.val(x, k)}, ${y(k)})`)}`);
    return;
  }
  if (ew.kind === 'binary') {
    const at = reader(e, ops, ew.maps);
    [ew.da, ew.db].forEach((p, j) => {
      const o = ops[j]!, other = ops[1 - j]!;
      if (p === null || isConst(o)) return;
      if (p === 1 && ew.maps === undefined && o.size === size && e.aliasAdjoint(o, n)) return;
      const PF = typeof p === 'function' ? e.bind(p) : '';
      const call = (k: number | string) => `${PF}(${at(0, k)}, ${at(1, k)}, ${y(k)})`;
      if (ew.maps !== undefined) {                      // broadcast through maps: the kernel scatter-adds into a zeroed part
        const P = e.bind(new Float64Array(o.size)), M = e.bind(ew.maps[j]);
        e.line(`${P}.fill(0);`);
        if (typeof p === 'number') e.loop(size, false, (k) => `${P}[${M}[k]] += ${times(g(k), p, e)};`);
        else if (p === 'other') e.loop(size, false, (k) => `${P}[${M}[k]] += ${g(k)} * ${at(1 - j, k)};`);
        else e.loop(size, false, (k) => `const g = ${g(k)}; if (g !== 0) ${P}[${M}[k]] += g * ${call(k)};`);
        e.loop(o.size, false, (k) => contribute(o, k, `${P}[${k}]`));
        return;
      }
      if (o.size === 1 && size !== 1) {                 // a broadcast scalar: the kernel sums its parts
        const s = `r${i}_${j}`;
        e.declare(`let ${s} = 0;`);
        if (typeof p === 'number') { e.loop(size, unrolled, (k) => `${s} += ${g(k)};`); if (p !== 1) e.line(`${s} *= ${e.lit(p)};`); }
        else if (p === 'other') e.loop(size, unrolled, (k) => `${s} += ${g(k)} * ${e.val(other, k)};`);
        else e.loop(size, unrolled, (k) => `const g = ${g(k)}; if (g !== 0) ${s} += g * ${call(k)};`);
        e.line(contribute(o, 0, s));
        return;
      }
      if (typeof p === 'number') e.loop(size, unrolled, (k) => contribute(o, k, times(g(k), p, e)));
      else if (p === 'other') e.loop(size, unrolled, (k) => contribute(o, k, `${g(k)} * ${e.val(other, k)}`));
      else e.loop(size, unrolled, (k) => `const g = ${g(k)}; ${contribute(o, k, `g !== 0 ? g * ${call(k)} : 0`)}`);
    });
    return;
  }
  // fused: partials per element with a non-zero adjoint, parts to the traced operands.
  if (ew.partials === null) return;
  const traced = ops.map((o) => !isConst(o));
  if (!traced.some(Boolean)) return;
  // Each operand's partial by its own function when the op has them (no scratch, only what is needed), else one partials call.
  const PART = ew.partialOf === null ? e.bind(ew.partials) : '', P = ew.partialOf === null ? e.bind(new Float64Array(4)) : '';
  const partialOf = ew.partialOf?.map((d, j) => (traced[j] ? e.bind(d) : ''));
  const sums = ops.map((o, j) => (traced[j] && (o as TraceNode).size === 1 && size !== 1 ? `r${i}_${j}` : null));
  for (const s of sums) if (s !== null) e.declare(`let ${s} = 0;`);
  // Operands read through a map: parts scatter-added into a zeroed buffer in element order, then sent on.
  const scatter = ops.map((o, j) => (traced[j] && ew.maps?.[j] ? [e.bind(new Float64Array((o as TraceNode).size)), e.bind(ew.maps[j])] as const : null));
  for (const t of scatter) if (t !== null) e.line(`${t[0]}.fill(0);`);
  const at = reader(e, ops, ew.maps);
  const args = (k: number | string) => [0, 1, 2, 3].map((j) => (j < ops.length ? at(j, k) : '0')).join(', ');
  e.loop(size, unrolled, (k) => {
    const ds = ops.map((_, j) => (traced[j] ? `d${j}` : null)).filter((d): d is string => d !== null);
    let code = `const g = ${g(k)}; let ${ds.map((d) => `${d} = 0`).join(', ')}; `;
    // A partial that declares fewer than five parameters does not read y: its value need not be kept for it.
    const call = (j: number) => `${partialOf![j]}(${args(k)}${ew.partialOf![j]!.length >= 5 ? `, ${y(k)}` : ''})`;
    if (partialOf !== undefined) code += `if (g !== 0) { ${ops.map((_, j) => (traced[j] ? `d${j} = g * ${call(j)}; ` : '')).join('')}} `;
    else {
      code += `if (g !== 0) { ${P}[0] = 0; ${P}[1] = 0; ${P}[2] = 0; ${P}[3] = 0; ${PART}(${P}, ${args(k)}, ${y(k)}); `;
      code += ops.map((_, j) => (traced[j] ? `d${j} = g * ${P}[${j}]; ` : '')).join('') + '} ';
    }
    ops.forEach((o, j) => {
      if (!traced[j]) return;
      const t = scatter[j];
      if (t) code += `${t[0]}[${t[1]}[${k}]] += d${j}; `;
      else code += sums[j] !== null ? `${sums[j]} += d${j}; ` : `${contribute(o as TraceNode, k, `d${j}`)} `;
    });
    return code;
  });
  ops.forEach((o, j) => {
    if (sums[j] !== null) e.line(contribute(o as TraceNode, 0, sums[j]!));
    const t = scatter[j];
    if (t) e.loop((o as TraceNode).size, false, (k) => contribute(o as TraceNode, k, `${t[0]}[${k}]`));
  });
}
