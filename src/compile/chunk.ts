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
 * other than the reverse pass's guard) leaves the body whole.
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
  if (!enabled || body.length < MIN_CHARS || /(?<![\w$.])S(?![\w$])/.test(body)) return undefined;
  const statements = topLevelStatements(body);
  if (statements === undefined) return undefined;
  const guardAt = statements.findIndex((s) => s.trim() === GUARD);
  const decls = statements.map(declarations);
  // Every top-level local and the statement declaring it.
  const declaredIn = new Map<string, number>();
  for (let i = 0; i < statements.length; i++) {
    for (const d of decls[i]!) {
      if (d.depth > 0) continue;
      for (const { name } of d.declarators) {
        if (declaredIn.has(name)) return undefined;
        declaredIn.set(name, i);
      }
    }
  }
  for (let i = 0; i < statements.length; i++) {
    if (i !== guardAt && /(^|[^\w$])return\b/.test(statements[i]!)) return undefined;
    for (const d of decls[i]!) if (d.depth > 0 && d.declarators.some((x) => declaredIn.has(x.name))) return undefined;   // shadowed
  }
  const forward = guardAt < 0 ? statements.length : guardAt;
  const pieces = [...pack(statements, 0, forward), ...pack(statements, forward + 1, statements.length)];
  const pieceOf = new Int32Array(statements.length).fill(-1);
  pieces.forEach(([from, to], p) => pieceOf.fill(p, from, to));
  // A slot for each local read or written in a piece other than its own; the rest stay locals.
  const slots = new Map<string, number>();
  statements.forEach((st, i) => {
    for (const m of st.matchAll(NAME)) {
      const at = declaredIn.get(m[0]);
      if (at !== undefined && pieceOf[at] !== pieceOf[i] && !slots.has(m[0])) slots.set(m[0], slots.size);
    }
  });
  const code = (from: number, to: number) => statements.slice(from, to).map((st, k) => rewrite(st, decls[from + k]!, slots)).join('\n');
  const nForward = pieces.filter(([from]) => from < forward).length;
  const name = (p: number) => (p < nForward ? `f${p}` : `b${p - nForward}`);
  const prelude = [`const S = new Float64Array(${Math.max(1, slots.size)});`,
    ...pieces.map(([from, to], p) => `function ${name(p)}(withGrad) {\n${code(from, to)}\n}`)].join('\n');
  const calls = (ps: number[]) => ps.map((p) => `${name(p)}(withGrad);`).join(' ');
  const all = pieces.map((_, p) => p);
  return { prelude, body: guardAt < 0 ? calls(all) : `${calls(all.slice(0, nForward))}\n${GUARD}\n${calls(all.slice(nForward))}` };
}

/** The body's top-level statements (a line ends one when the brace depth is back to zero), or undefined if braces do not balance. */
function topLevelStatements(body: string): string[] | undefined {
  const out: string[] = [];
  let cur: string[] = [];
  let depth = 0;
  for (const line of body.split('\n')) {
    cur.push(line);
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 123) depth++;
      else if (c === 125) depth--;
    }
    if (depth < 0) return undefined;
    if (depth === 0) { out.push(cur.join('\n')); cur = []; }
  }
  return depth === 0 && cur.length === 0 ? out : undefined;
}

interface Declarator {
  readonly name: string;
  /** Where `name = expression` starts and ends (before its `,` or `;`). */
  readonly from: number;
  readonly to: number;
}

interface Declaration {
  /** Brace depth of the keyword within its statement (0: a top-level local of `run`). */
  readonly depth: number;
  /** `const` or `let`, and where it starts. */
  readonly keyword: string;
  readonly at: number;
  readonly declarators: readonly Declarator[];
}

const DECL = /(^|[;{}\n]\s*)(const|let)\s+/g;
const IDENT = /[A-Za-z_$][\w$]*/y;
/** An identifier that is not a property name (nor part of a number such as `1e-5`). */
const NAME = /(?<![\w$.])[A-Za-z_$][\w$]*/g;

/** The `const`/`let` declarations in a statement (`for (let k = …` included, at its depth). */
function declarations(s: string): Declaration[] {
  if (!/\b(const|let)\b/.test(s)) return [];
  const depthAt = new Int32Array(s.length + 1);
  for (let i = 0, d = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 125) d--;
    depthAt[i] = d;
    if (c === 123) d++;
  }
  const out: Declaration[] = [];
  for (const m of s.matchAll(DECL)) {
    const at = m.index! + m[1]!.length;
    out.push({ depth: depthAt[at]!, keyword: m[2]!, at, declarators: declarators(s, m.index! + m[0].length) });
  }
  // `for (let k = 0; …)`: the loop variable, inside the loop's scope
  for (const m of s.matchAll(/\bfor \((const|let)\s+/g)) {
    out.push({ depth: depthAt[m.index!]! + 1, keyword: m[1]!, at: m.index! + 5, declarators: declarators(s, m.index! + m[0].length).slice(0, 1) });
  }
  return out;
}

/** The declarators from `from` (`a = e1, b = e2;`): the commas that separate them are those outside brackets. */
function declarators(s: string, from: number): Declarator[] {
  const out: Declarator[] = [];
  let i = from;
  for (;;) {
    IDENT.lastIndex = i;
    const m = IDENT.exec(s);
    if (m === null) return out;
    const start = i;
    i = IDENT.lastIndex;
    let depth = 0;
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      else if (depth === 0 && (c === ',' || c === ';')) break;
    }
    out.push({ name: m[0], from: start, to: i });
    if (s[i] !== ',') return out;
    i++;
    while (s[i] === ' ') i++;
  }
}

/**
 * A statement with its slotted locals read and written as `S[i]`: a top-level declaration of
 * slotted names loses its keyword (`const x = e` → `S[3] = e`); one that declares both kinds
 * becomes one statement per declarator, in order.
 */
function rewrite(s: string, decls: readonly Declaration[], slots: ReadonlyMap<string, number>): string {
  let t = s;
  for (const d of decls.filter((x) => x.depth === 0).sort((x, y) => y.at - x.at)) {
    const slotted = d.declarators.map((x) => slots.has(x.name));
    if (!slotted.some(Boolean)) continue;
    const last = d.declarators[d.declarators.length - 1]!;
    const parts = d.declarators.map((x, k) => `${slotted[k] ? '' : `${d.keyword} `}${s.slice(x.from, x.to)}`);
    t = t.slice(0, d.at) + parts.join('; ') + t.slice(last.to);
  }
  return t.replace(NAME, (name) => {
    const k = slots.get(name);
    return k === undefined ? name : `S[${k}]`;
  });
}

/** Statements `from` … `to` − 1 as pieces `[first, end)` of about CHUNK_CHARS characters. */
function pack(statements: readonly string[], from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  let start = from, size = 0;
  for (let i = from; i < to; i++) {
    const n = statements[i]!.length + 1;
    if (size > 0 && size + n > CHUNK_CHARS) { out.push([start, i]); start = i; size = 0; }
    size += n;
  }
  if (to > start) out.push([start, to]);
  return out;
}
