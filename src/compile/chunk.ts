/**
 * Long generated programs split into functions V8 will optimize.
 *
 * V8 optimizes no function whose bytecode exceeds 60 KB (`--max-optimized-bytecode-size`), so a
 * long scalar program — a time-series recursion, an ODE or an HMM written step by step — ran
 * its whole `run` in the baseline tiers: measured 110–150 ns per scalar operation against 7 ns
 * for the same code in a function below the limit. Here the body of `run` is cut at top-level
 * statements into functions of at most ~24,000 characters, each optimized on its own. Their
 * top-level locals (`const v12_0 = …`, the adjoints `a12_0`, sums `s12`, …) become slots of one
 * Float64Array allocated with the program, since a value made in one piece is read in another
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

/**
 * `run`'s body as pieces: the declarations and functions to put before `run`, and `run`'s new
 * body calling them; undefined when the body is short or has a shape this does not handle.
 *
 * @example
 * const split = chunkRun(body);   // undefined for short bodies
 * const source = split === undefined ? `function run(withGrad) {\n${body}\n}` : `${split.prelude}\nfunction run(withGrad) {\n${split.body}\n}`;
 */
export function chunkRun(body: string): { prelude: string; body: string } | undefined {
  if (body.length < MIN_CHARS || /(?<![\w$.])S(?![\w$])/.test(body)) return undefined;
  const statements = topLevelStatements(body);
  if (statements === undefined) return undefined;
  const guardAt = statements.findIndex((s) => s.trim() === GUARD);
  // Every top-level local, in order of declaration.
  const slots = new Map<string, number>();
  for (const s of statements) {
    for (const d of declarations(s)) {
      if (d.depth > 0) continue;
      for (const name of d.names) {
        if (slots.has(name)) return undefined;
        slots.set(name, slots.size);
      }
    }
  }
  for (const s of statements) {
    if (s.trim() !== GUARD && /(^|[^\w$])return\b/.test(s)) return undefined;
    for (const d of declarations(s)) if (d.depth > 0 && d.names.some((n) => slots.has(n))) return undefined;   // shadowed
  }
  const rewritten = statements.map((s) => rewrite(s, slots));
  const forward = guardAt < 0 ? rewritten : rewritten.slice(0, guardAt);
  const reverse = guardAt < 0 ? [] : rewritten.slice(guardAt + 1);
  const fs = pack(forward), bs = pack(reverse);
  const fn = (name: string, piece: readonly string[]) => `function ${name}(withGrad) {\n${piece.join('\n')}\n}`;
  const prelude = [`const S = new Float64Array(${Math.max(1, slots.size)});`, ...fs.map((p, i) => fn(`f${i}`, p)), ...bs.map((p, i) => fn(`b${i}`, p))].join('\n');
  const calls = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}(withGrad);`).join(' ');
  return { prelude, body: guardAt < 0 ? calls('f', fs.length) : `${calls('f', fs.length)}\n${GUARD}\n${calls('b', bs.length)}` };
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

interface Declaration {
  /** Brace depth of the keyword within its statement (0: a top-level local of `run`). */
  readonly depth: number;
  /** Where `const `/`let ` starts, and where the first declarator's name starts. */
  readonly at: number;
  readonly nameAt: number;
  readonly names: readonly string[];
}

const DECL = /(^|[;{}\n]\s*)(const|let)\s+/g;
const IDENT = /[A-Za-z_$][\w$]*/y;

/** The `const`/`let` declarations in a statement (`for (let k = …` included, at its depth). */
function declarations(s: string): Declaration[] {
  const depthAt = new Int32Array(s.length + 1);
  for (let i = 0, d = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 125) d--;
    depthAt[i] = d;
    if (c === 123) d++;
  }
  const out: Declaration[] = [];
  for (const m of s.matchAll(DECL)) {
    const at = m.index! + m[1]!.length, nameAt = m.index! + m[0].length;
    out.push({ depth: depthAt[at]!, at, nameAt, names: declarators(s, nameAt) });
  }
  // `for (let k = 0; …)`: the loop variable, inside the loop's scope
  for (const m of s.matchAll(/\bfor \((const|let)\s+/g)) {
    const nameAt = m.index! + m[0].length;
    out.push({ depth: depthAt[m.index!]! + 1, at: m.index! + 5, nameAt, names: declarators(s, nameAt, true) });
  }
  return out;
}

/** Names declared from `from` (`a = e1, b = e2;`): the commas that separate declarators are those outside brackets. */
function declarators(s: string, from: number, one = false): string[] {
  const names: string[] = [];
  let i = from;
  for (;;) {
    IDENT.lastIndex = i;
    const m = IDENT.exec(s);
    if (m === null) return names;
    names.push(m[0]);
    if (one) return names;
    i = IDENT.lastIndex;
    let depth = 0;
    for (; i < s.length; i++) {
      const c = s[i]!;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      else if (depth === 0 && (c === ',' || c === ';')) break;
    }
    if (s[i] !== ',') return names;
    i++;
    while (s[i] === ' ') i++;
  }
}

/** A statement with its top-level declarations' keywords dropped and every slotted local read and written as `S[i]`. */
function rewrite(s: string, slots: ReadonlyMap<string, number>): string {
  let t = s;
  const top = declarations(s).filter((d) => d.depth === 0).sort((a, b) => b.at - a.at);
  for (const d of top) t = t.slice(0, d.at) + t.slice(d.nameAt);        // `const x = e` → `x = e`; `let a = 0, b = 0` → `a = 0, b = 0`
  return t.replace(/(?<![\w$.])[A-Za-z_$][\w$]*/g, (name) => {
    const k = slots.get(name);
    return k === undefined ? name : `S[${k}]`;
  });
}

/** Consecutive statements packed into pieces of about CHUNK_CHARS characters. */
function pack(statements: readonly string[]): string[][] {
  const out: string[][] = [];
  let cur: string[] = [], size = 0;
  for (const s of statements) {
    if (size > 0 && size + s.length > CHUNK_CHARS) { out.push(cur); cur = []; size = 0; }
    cur.push(s);
    size += s.length + 1;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
