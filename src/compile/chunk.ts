/**
 * Long generated programs split into functions V8 will optimize.
 *
 * V8 optimizes no function whose bytecode exceeds 60 KB (`--max-optimized-bytecode-size`), so a
 * long scalar program — a time-series recursion, an ODE or an HMM written step by step — ran
 * its whole `run` in the baseline tiers: measured 64–150 ns per traced operation against 7 ns
 * for the same code in a function below the limit. Here the body of `run` is cut at top-level
 * statements into functions of at most ~24,000 characters, each optimized on its own. Their
 * top-level locals (`const v12_0 = …`, the adjoints `a12_0`, sums `s12`, …) become slots of one
 * Float64Array allocated with the program when a value made in one piece is read in another
 * (the reverse pass reads the forward values). Every generated local holds a double, so the
 * slots keep the bits; the arithmetic and its order are untouched.
 *
 * Works on the generated text, which has no strings or comments: braces and parentheses are
 * code. Any shape it does not expect (a local declared again in an inner block, a `return`
 * other than the reverse pass's guard) leaves the body whole. One scan over the characters
 * finds the statements, declarations and identifiers by position, and the pieces are sliced
 * from the body and joined once: a 50,000-operation program is ~7 MB of source, and splitting
 * it into per-statement strings rewritten by regular expressions took longer than the rest of
 * the compile, and more than linearly (the garbage it made).
 */

/** Bodies shorter than this stay one function (eight schools' is ~6,000 characters). */
const MIN_CHARS = 40_000;
/** Characters of source per piece: well under the bytecode limit (a 54,000-character body was still optimized, 117,000 was not). */
const CHUNK_CHARS = 24_000;
const GUARD = 'if (!withGrad) return;';
let enabled = true;

/**
 * Turns the splitting off (or back on) for programs compiled after the call: for benchmarks
 * that set both forms side by side (bench/long-programs.ts). @internal
 *
 * @example
 * setChunking(false); // compile the one-function form
 */
export function setChunking(on: boolean): void {
  enabled = on;
}

/**
 * `run`'s body as pieces: the declarations and functions to put before `run`, and `run`'s new
 * body calling them; undefined when the body is short or has a shape this does not handle.
 *
 * @example
 * const split = chunkRun(body);   // undefined for short bodies
 * const source = split === undefined ? `function run(withGrad) {\n${body}\n}` : `${split.prelude}\nfunction run(withGrad) {\n${split.body}\n}`;
 */
export function chunkRun(body: string): { prelude: string; body: string } | undefined {
  if (!enabled || body.length < MIN_CHARS || hasName(body, 'S')) return undefined;
  const sc = scan(body);
  if (sc === undefined) return undefined;
  const { starts, ends, decls: D, declarators: X, names, nNames } = sc;
  const d = D.data, x = X.data;   // declaration rows (DW numbers each) and declarator rows (XW)
  const count = starts.length;
  const statementAt = (p: number): number => {   // the statement holding position p (binary search)
    let lo = 0, hi = count - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid]! <= p) lo = mid; else hi = mid - 1; }
    return lo;
  };
  let guardAt = -1;
  for (let p = body.indexOf(GUARD); p >= 0 && guardAt < 0; p = body.indexOf(GUARD, p + 1)) {
    const i = statementAt(p);
    if (body.slice(starts[i]!, ends[i]!).trim() === GUARD) guardAt = i;
  }
  // Every top-level local (as an id) and the statement declaring it.
  const ids = new NameIds(body);
  const declaredIn: number[] = [];
  for (let r = 0; r < D.count * DW; r += DW) {
    if (d[r + 1]! > 0) continue;
    for (let j = d[r + 4]! * XW, end = j + d[r + 5]! * XW; j < end; j += XW) {
      const id = x[j + 3] = ids.id(x[j]!, x[j + 1]!, true);
      if (declaredIn[id] !== undefined) return undefined;
      declaredIn[id] = d[r]!;
    }
  }
  for (let r = 0; r < D.count * DW; r += DW) {
    if (d[r + 1]! > 0) for (let j = d[r + 4]! * XW, end = j + d[r + 5]! * XW; j < end; j += XW) if (ids.id(x[j]!, x[j + 1]!, false) >= 0) return undefined;   // shadowed
  }
  for (let p = body.indexOf('return'); p >= 0; p = body.indexOf('return', p + 6)) {
    if ((p === 0 || !isIdentPart(body.charCodeAt(p - 1))) && !isWord(body.charCodeAt(p + 6)) && statementAt(p) !== guardAt) return undefined;
  }
  const forward = guardAt < 0 ? count : guardAt;
  const lengths = (from: number, to: number) => ends.slice(from, to).map((e, k) => e - starts[from + k]!);
  const pieces = [...pack(lengths(0, forward), 0), ...pack(lengths(forward + 1, count), forward + 1)];
  const pieceOf = new Int32Array(count).fill(-1);
  pieces.forEach(([from, to], p) => pieceOf.fill(p, from, to));
  // A slot for each local read or written in a piece other than its own; the rest stay locals.
  // The identifiers naming a top-level local (positions and ids, in code order) are all the rewriting reads.
  const slot = new Int32Array(declaredIn.length).fill(-1);
  let slots = 0;
  const refs = new Int32Array(Math.max(3, 1.5 * nNames));   // from, to, id of each
  let nRefs = 0;
  for (let t = 0, i = 0; t < nNames; t += 2) {
    const from = names[t]!, to = names[t + 1]!, id = ids.id(from, to, false);
    if (id < 0) continue;
    while (i + 1 < count && starts[i + 1]! <= from) i++;
    if (slot[id] === -1 && pieceOf[declaredIn[id]!] !== pieceOf[i]) slot[id] = slots++;
    refs[nRefs++] = from; refs[nRefs++] = to; refs[nRefs++] = id;
  }
  const slotName = Array.from({ length: declaredIn.length }, (_, id) => (slot[id]! >= 0 ? `S[${slot[id]}]` : ''));
  const out = new Writer(body.length + (body.length >> 2));
  let r = 0;
  /** Writes body[from, to) with its slotted locals as `S[k]`. */
  const copy = (from: number, to: number): void => {
    while (r < nRefs && refs[r]! < from) r += 3;
    let at = from;
    for (; r < nRefs && refs[r]! < to; r += 3) {
      const id = refs[r + 2]!;
      if (slot[id]! < 0) continue;
      out.range(body, at, refs[r]!);
      out.text(slotName[id]!);
      at = refs[r + 1]!;
    }
    out.range(body, at, to);
  };
  let q = 0;   // declarations are in code order: the row of the next one not yet passed
  /**
   * A statement with its slotted locals read and written as `S[i]`: a top-level declaration of
   * slotted names loses its keyword (`const x = e` → `S[3] = e`); one that declares both kinds
   * becomes one statement per declarator, in order.
   */
  const statement = (i: number): boolean => {
    let at = starts[i]!;
    while (q < D.count * DW && d[q]! < i) q += DW;
    for (; q < D.count * DW && d[q] === i; q += DW) {
      if (d[q + 1]! > 0) continue;
      const first = d[q + 4]! * XW, end = first + d[q + 5]! * XW;
      let any = false;
      for (let j = first; j < end; j += XW) any ||= slot[x[j + 3]!]! >= 0;
      if (!any) continue;
      if (d[q + 2]! < at) return false;           // overlapping declarations: a shape this does not handle
      copy(at, d[q + 2]!);
      for (let j = first; j < end; j += XW) {
        if (j > first) out.text('; ');
        if (slot[x[j + 3]!]! < 0) out.text(d[q + 3] === 5 ? 'const ' : 'let ');
        copy(x[j]!, x[j + 2]!);
      }
      at = x[end - XW + 2]!;
    }
    copy(at, ends[i]!);
    return true;
  };
  const nForward = pieces.filter(([from]) => from < forward).length;
  const name = (p: number) => (p < nForward ? `f${p}` : `b${p - nForward}`);
  out.text(`const S = new Float64Array(${Math.max(1, slots)});`);
  for (let p = 0; p < pieces.length; p++) {
    const [from, to] = pieces[p]!;
    out.text(`\nfunction ${name(p)}(withGrad) {\n`);
    for (let i = from; i < to; i++) {
      if (i > from) out.text('\n');
      if (!statement(i)) return undefined;
    }
    out.text('\n}');
  }
  const calls = (ps: number[]) => ps.map((p) => `${name(p)}(withGrad);`).join(' ');
  const all = pieces.map((_, p) => p);
  return { prelude: out.toString(), body: guardAt < 0 ? calls(all) : `${calls(all.slice(0, nForward))}\n${GUARD}\n${calls(all.slice(nForward))}` };
}

/** Rows of a growing Int32Array, `width` numbers each (declarations and declarators as rows: no object per declaration). */
class Rows {
  data: Int32Array;
  count = 0;
  constructor(readonly width: number) { this.data = new Int32Array(width * 1024); }

  /** A new row's offset in `data`. */
  add(): number {
    if ((this.count + 1) * this.width > this.data.length) {
      const grown = new Int32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    return this.count++ * this.width;
  }
}

/** A declaration row: its top-level statement, the brace depth of its keyword there (0: a top-level local of `run`), where the keyword starts, its length (`const` 5, `let` 3), its first declarator row and their count. */
const DW = 6;
/** A declarator row: where `name = expression` starts, where its name ends, where it ends (before its `,` or `;`), and its name's id once known (top-level ones). */
const XW = 4;

const isWord = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
const isIdentPart = (c: number): boolean => isWord(c) || c === 36;
const isIdentStart = (c: number): boolean => isIdentPart(c) && !(c >= 48 && c <= 57);
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x2028 || c === 0x2029 || c === 0xfeff;

/** Whether `name` occurs as an identifier (not a property name, nor part of a longer name or a number such as `1e-5`). */
function hasName(body: string, name: string): boolean {
  for (let p = body.indexOf(name); p >= 0; p = body.indexOf(name, p + 1)) {
    const before = p === 0 ? 32 : body.charCodeAt(p - 1);
    if (!isIdentPart(before) && before !== 46 && !isIdentPart(body.charCodeAt(p + name.length))) return true;
  }
  return false;
}

/**
 * One pass over the body: its top-level statements (a line ends one when the brace depth is back
 * to zero) as `[starts[i], ends[i])`, its `const`/`let` declarations (`for (let k = …` included,
 * at its loop's depth), and every identifier that is not a property name as position pairs
 * `[from, to)`; undefined if braces do not balance.
 */
function scan(body: string): { starts: number[]; ends: number[]; decls: Rows; declarators: Rows; names: Int32Array; nNames: number } | undefined {
  const starts: number[] = [], ends: number[] = [], decls = new Rows(DW), xs = new Rows(XW);
  let names = new Int32Array(1 << 16), nNames = 0;
  /** The current statement's keywords, read when its end is known: position, depth, and whether it follows `for (`. */
  const pending: number[] = [];
  const n = body.length;
  let depth = 0, start = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? body.charCodeAt(i) : 10;
    if (c === 10) {
      if (depth < 0) return undefined;
      if (depth === 0) {
        for (let q = 0; q < pending.length; q += 3) {
          const at = pending[q]!, isFor = pending[q + 2] === 1;
          const length = body.charCodeAt(at) === 99 ? 5 : 3;
          let from = at + length;
          while (from < i && isSpace(body.charCodeAt(from))) from++;
          const first = xs.count, count = declarators(body, from, i, xs, isFor);
          const r = decls.add(), d = decls.data;
          d[r] = starts.length; d[r + 1] = pending[q + 1]!; d[r + 2] = at; d[r + 3] = length; d[r + 4] = first; d[r + 5] = count;
        }
        pending.length = 0;
        starts.push(start);
        ends.push(i);
        start = i + 1;
      }
      continue;
    }
    if (c === 123) depth++;
    else if (c === 125) depth--;
    else if (c > 127) return undefined;      // generated code is ASCII (the pieces are written as bytes)
    else if (isIdentStart(c) && (i === 0 || (!isIdentPart(body.charCodeAt(i - 1)) && body.charCodeAt(i - 1) !== 46))) {
      let j = i + 1;
      while (j < n && isIdentPart(body.charCodeAt(j))) j++;
      if (nNames + 2 > names.length) { const grown = new Int32Array(2 * names.length); grown.set(names); names = grown; }
      names[nNames++] = i;
      names[nNames++] = j;
      const len = j - i;
      if (((len === 5 && body.startsWith('const', i)) || (len === 3 && body.startsWith('let', i))) && isSpace(body.charCodeAt(j)) && startsDeclaration(body, start, i)) {
        pending.push(i, depth, 0);
      } else if (len === 3 && body.startsWith('for (', i)) {
        const k = i + 5;
        const kw = body.startsWith('const', k) ? 5 : body.startsWith('let', k) ? 3 : 0;
        if (kw > 0 && isSpace(body.charCodeAt(k + kw))) pending.push(k, depth + 1, 1);
      }
      i = j - 1;
    }
  }
  return depth === 0 ? { starts, ends, decls, declarators: xs, names, nNames } : undefined;
}

/** Whether the keyword at `at` starts a declaration: first in its statement, or after `;`, `{`, `}` or a line break (and spaces). */
function startsDeclaration(body: string, statementStart: number, at: number): boolean {
  if (at === statementStart) return true;
  let p = at - 1, lineBreak = false;
  for (; p >= statementStart && isSpace(body.charCodeAt(p)); p--) if (body.charCodeAt(p) === 10) lineBreak = true;
  if (lineBreak) return true;
  const c = p >= statementStart ? body.charCodeAt(p) : 0;
  return c === 59 || c === 123 || c === 125;
}

/** Appends the declarators from `from` to the statement's end `end` (`a = e1, b = e2;`: the commas that separate them are those outside brackets; only the first for a `for` loop's) as rows of `xs`; returns their count. */
function declarators(s: string, from: number, end: number, xs: Rows, onlyFirst: boolean): number {
  let i = from, count = 0;
  for (;;) {
    if (i >= end || !isIdentStart(s.charCodeAt(i))) return count;
    const start = i;
    while (i < end && isIdentPart(s.charCodeAt(i))) i++;
    const nameEnd = i;
    let depth = 0;
    for (; i < end; i++) {
      const c = s.charCodeAt(i);
      if (c === 40 || c === 91 || c === 123) depth++;
      else if (c === 41 || c === 93 || c === 125) depth--;
      else if (depth === 0 && (c === 44 || c === 59)) break;
    }
    const r = xs.add(), x = xs.data;
    x[r] = start; x[r + 1] = nameEnd; x[r + 2] = i; x[r + 3] = -1;
    count++;
    if (onlyFirst || i >= end || s.charCodeAt(i) !== 44) return count;
    i++;
    while (i < end && s.charCodeAt(i) === 32) i++;
  }
}

/**
 * Ids for the locals a body declares, looked up by a name's position in the body without
 * making a string: a generated name (a letter and a number, `v12`, or with `_0`, `v12_0`)
 * through an array per letter, any other through a Map. Tens of thousands of strings in one Map
 * made the lookups of a 50,000-operation program the slowest step.
 */
class NameIds {
  private readonly byLetter: (Int32Array | undefined)[] = [];
  private readonly other = new Map<string, number>();
  private next = 0;
  constructor(private readonly body: string) {}

  /** The id of the name at body[from, to), or −1 when it has none (`add`: a new id then). */
  id(from: number, to: number, add: boolean): number {
    const s = this.body, c = s.charCodeAt(from);
    let n = 0, p = from + 1;
    const plain = (c | 32) >= 97 && (c | 32) <= 122 && p < to;
    for (; plain && p < to && n < 1 << 26; p++) {
      const d = s.charCodeAt(p) - 48;
      if (d < 0 || d > 9 || (d === 0 && n === 0 && p === from + 1 && p + 1 < to && s.charCodeAt(p + 1) !== 95)) break;   // no leading zeros
      n = n * 10 + d;
    }
    const tail = plain && p > from + 1 ? to - p : -1;    // 0: `v12`; 2 and `_0`: `v12_0`
    if (n < 1 << 26 && (tail === 0 || (tail === 2 && s.charCodeAt(p) === 95 && s.charCodeAt(p + 1) === 48))) {
      const k = c * 2 + (tail === 0 ? 0 : 1);
      let a = this.byLetter[k];
      if (a === undefined || n >= a.length) {
        if (!add) return -1;
        const grown = new Int32Array(Math.max(1024, 2 * (a?.length ?? 0), n + 1));
        if (a !== undefined) grown.set(a);
        this.byLetter[k] = a = grown;
      }
      if (a[n] === 0 && add) a[n] = ++this.next;
      return a[n]! - 1;
    }
    const name = s.slice(from, to);
    let id = this.other.get(name);
    if (id === undefined && add) this.other.set(name, id = this.next++ + 1);
    return id === undefined ? -1 : id - 1;
  }
}

/** Text written as ASCII bytes into one growing buffer and decoded once: no string per part. */
class Writer {
  private buf: Uint8Array;
  private length = 0;
  constructor(capacity: number) { this.buf = new Uint8Array(capacity); }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(2 * this.buf.length, this.length + n));
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
  }

  /** Appends s[from, to) (ASCII). */
  range(s: string, from: number, to: number): void {
    this.room(to - from);
    const b = this.buf;
    let at = this.length;
    for (let i = from; i < to; i++) b[at++] = s.charCodeAt(i);
    this.length = at;
  }

  text(s: string): void { this.range(s, 0, s.length); }

  toString(): string { return new TextDecoder().decode(this.buf.subarray(0, this.length)); }
}

/** Statements as pieces `[first, end)` of about CHUNK_CHARS characters, from their lengths (the first is statement `offset`). */
function pack(lengths: readonly number[], offset: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0, size = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i]! + 1;
    if (size > 0 && size + n > CHUNK_CHARS) { out.push([offset + start, offset + i]); start = i; size = 0; }
    size += n;
  }
  if (lengths.length > start) out.push([offset + start, offset + lengths.length]);
  return out;
}
