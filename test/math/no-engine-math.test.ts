// Engines round Math's transcendental functions (and `**`) differently in the last bit, so
// library code must use src/math's det* functions. This test fails on any `Math.<member>`
// outside the exact ones, and on `x ** y` unless the result is exact everywhere, in src/,
// distributions/, mcmc/, optimize/ and cli/ (code and string literals, which may be generated code;
// comments are skipped), except the allow-list below.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['src', 'distributions', 'mcmc', 'optimize', 'cli'];

/** Math members whose result is specified exactly (correctly rounded or exact) on every engine. */
const EXACT_MATH = new Set([
  'sqrt', 'abs', 'floor', 'ceil', 'round', 'trunc', 'sign', 'min', 'max', 'fround', 'f16round', 'clz32', 'imul',
  'PI', 'E', 'LN2', 'LN10', 'LOG2E', 'LOG10E', 'SQRT2', 'SQRT1_2',
  'random',                                    // fresh entropy only, never a stochax result
]);

interface Allowed {
  file: string;
  /** Text of the offending line; omitted = the whole file. */
  line?: string;
  reason: string;
}

const ALLOW: Allowed[] = [
  { file: 'src/sha512.ts', line: 'r ** (k - 1n)', reason: 'BigInt exponentiation is exact' },
];

function walk(dir: string, out: string[]): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(e)) out.push(p);
  }
  return out;
}

/** 1 for characters of code or string/template text, 0 inside comments. */
function notComment(src: string): { keep: Uint8Array; code: Uint8Array } {
  const keep = new Uint8Array(src.length), code = new Uint8Array(src.length);
  const templates: number[] = [];              // brace depth at each open `${`
  let state: 'code' | 'line' | 'block' | "'" | '"' | 'tpl' = 'code', depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!, c2 = src[i + 1];
    if (state === 'line') { if (c === '\n') state = 'code'; continue; }
    if (state === 'block') { if (c === '*' && c2 === '/') { state = 'code'; i++; } continue; }
    keep[i] = 1;
    if (state === "'" || state === '"') { if (c === '\\') keep[++i] = 1; else if (c === state || c === '\n') state = 'code'; continue; }
    if (state === 'tpl') {
      if (c === '\\') keep[++i] = 1;
      else if (c === '`') state = 'code';
      else if (c === '$' && c2 === '{') { templates.push(depth++); keep[++i] = 1; state = 'code'; }
      continue;
    }
    if (c === '/' && c2 === '/') { keep[i] = 0; state = 'line'; i++; continue; }
    if (c === '/' && c2 === '*') { keep[i] = 0; state = 'block'; i++; continue; }
    if (c === '/' && regexMayStart(src, i)) { i = regexEnd(src, i, keep); continue; }
    if (c === "'" || c === '"') { state = c; continue; }
    if (c === '`') { state = 'tpl'; continue; }
    if (c === '{') depth++;
    if (c === '}') { depth--; if (templates.length > 0 && templates[templates.length - 1] === depth) { templates.pop(); state = 'tpl'; continue; } }
    code[i] = 1;
  }
  return { keep, code };
}

/** Whether a `/` at i starts a regular expression literal (by the token before it). */
function regexMayStart(src: string, i: number): boolean {
  const before = src.slice(Math.max(0, i - 12), i).trimEnd();
  if (/(\+\+|--)$/.test(before)) return false;
  return before === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || /\b(return|typeof|case)$/.test(before);
}

/** The index of the last character of the regex literal starting at i (kept as string text). */
function regexEnd(src: string, i: number, keep: Uint8Array): number {
  let inClass = false;
  for (let j = i + 1; j < src.length; j++) {
    keep[j] = 1;
    const c = src[j];
    if (c === '\\') keep[++j] = 1;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) { while (/[a-z]/.test(src[j + 1] ?? '')) keep[++j] = 1; return j; }
    else if (c === '\n') return j;
  }
  return src.length;
}

interface Hit { file: string; lineNo: number; line: string; what: string }

/** Engine-dependent Math uses and `**` in one file's source. */
function findHits(file: string, src: string): Hit[] {
  const { keep, code } = notComment(src);
  const hits: Hit[] = [];
  const lineOf = (at: number) => {
    const start = src.lastIndexOf('\n', at - 1) + 1, end = src.indexOf('\n', at);
    return { lineNo: src.slice(0, at).split('\n').length, line: src.slice(start, end < 0 ? src.length : end).trim() };
  };
  for (const m of src.matchAll(/\bMath\b(\s*\.\s*([A-Za-z_$][\w$]*))?/g)) {
    if (!keep[m.index] || (m[2] !== undefined && EXACT_MATH.has(m[2]))) continue;
    hits.push({ file, ...lineOf(m.index), what: m[2] === undefined ? 'Math used other than Math.<member>' : `Math.${m[2]}` });
  }
  for (const m of src.matchAll(/\*\*/g)) {
    if (!code[m.index] || !code[m.index + 1]) continue;
    const before = src.slice(Math.max(0, m.index - 40), m.index).trimEnd();
    const after = src.slice(m.index + 2, m.index + 42).replace(/^=?\s*/, '');
    // x ** 2 is x·x on every engine (V8's pow special-cases y = 2, JSC multiplies);
    // 2 ** k is an exact power of two for the integer exponents used here; 2n ** k a BigInt.
    if (/^2(?![\w.])/.test(after) || /(^|[^\w.$])2n?$/.test(before)) continue;
    hits.push({ file, ...lineOf(m.index), what: '** (use detPow)' });
  }
  return hits;
}

const allowed = (h: Hit) => ALLOW.some((a) => a.file === h.file && (a.line === undefined || h.line.includes(a.line)));

describe('no engine-dependent math in library code', () => {
  const files = DIRS.flatMap((d) => walk(join(ROOT, d), [])).map((p) => relative(ROOT, p).split('\\').join('/'));
  const all = files.flatMap((f) => findHits(f, readFileSync(join(ROOT, f), 'utf8')));

  it('finds Math.<transcendental> and ** in code and strings, not in comments', () => {
    const sample = [
      '// Math.exp(1) in a comment', '/* Math.log(2) ** x */', 'const a = Math.exp(x);', "const s = 'Math.sin(' + v;",
      'const t = `${Math.cos(x)} Math.tan`;', 'const { log } = Math;', 'const b = x ** y, c = x ** 2, d = 2 ** -52;',
      'const e = Math.sqrt(Math.abs(x)) + Math.PI;', "const r = /[\"'`]/.test(s) ? Math.log(2) : n++ / 2; // Math.exp",
    ].join('\n');
    expect(findHits('f.ts', sample).map((h) => h.what)).toEqual([
      'Math.exp', 'Math.sin', 'Math.cos', 'Math.tan', 'Math used other than Math.<member>', 'Math.log', '** (use detPow)',
    ]);
  });

  it('scans the library', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const a of ALLOW) expect(files, a.file).toContain(a.file);
  });

  it('has no engine-dependent Math or ** outside the allow-list', () => {
    const bad = all.filter((h) => !allowed(h)).map((h) => `${h.file}:${h.lineNo}: ${h.what}: ${h.line.slice(0, 120)}`);
    expect(bad).toEqual([]);
  });

  it('has no line-specific allow-list entry that no longer matches', () => {
    const stale = ALLOW.filter((a) => a.line !== undefined && !all.some((h) => h.file === a.file && h.line.includes(a.line!)));
    expect(stale).toEqual([]);
  });
});
