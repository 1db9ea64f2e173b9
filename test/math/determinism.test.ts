// What makes src/math engine-independent: no Math.<transcendental> (or `**` with a computed
// operand) anywhere inside it, no numeric literal with more than 20 significant digits (whose
// parsing ECMAScript leaves partly to the engine), and ECMAScript's special values (±0, ±∞, NaN)
// exactly as Math.* gives them. Also: the float32 FMA kept in src/math equals src/random's.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as dm from '../../src/math/index.js';
import { fma32 } from '../../src/math/float32.js';
import { fma32 as fma32Random } from '../../src/random/float.js';

const dir = new URL('../../src/math/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
/** Source text without comments (doc comments name Math.exp and friends on purpose). */
function code(file: string): string {
  return readFileSync(new URL(file, dir), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

/** Math members whose results are exactly specified (or exact by IEEE-754), hence allowed. */
const ALLOWED = new Set(['abs', 'sqrt', 'floor', 'ceil', 'round', 'trunc', 'fround', 'sign', 'min', 'max', 'imul', 'SQRT2']);

describe('src/math uses only exactly specified operations', () => {
  it('has source files', () => {
    expect(files).toContain('index.ts');
    expect(files.length).toBeGreaterThan(8);
  });

  it('calls no Math.<transcendental> (only abs, sqrt, floor, round, fround, ... and exact constants)', () => {
    const bad: string[] = [];
    for (const f of files) {
      for (const m of code(f).matchAll(/\bMath\.([A-Za-z0-9_]+)/g)) if (!ALLOWED.has(m[1]!)) bad.push(`${f}: Math.${m[1]}`);
    }
    expect(bad).toEqual([]);
  });

  it('uses ** only as 2 ** <integer literal> (an exact power of two)', () => {
    const bad: string[] = [];
    for (const f of files) {
      for (const m of code(f).matchAll(/(\S+)\s*\*\*\s*(\(?-?[^\s;,)]+\)?)/g)) {
        if (!(m[1]!.endsWith('2') && /^\(?-?\d+\)?$/.test(m[2]!))) bad.push(`${f}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('writes no numeric literal with more than 20 significant digits', () => {
    const bad: string[] = [];
    for (const f of files) {
      for (const m of code(f).matchAll(/(?<![\w.])\d+\.\d+(?:[eE][+-]?\d+)?/g)) {
        const digits = m[0].replace(/[eE].*/, '').replace('.', '').replace(/^0+/, '');
        if (digits.length > 20) bad.push(`${f}: ${m[0]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

const specials = [0, -0, Infinity, -Infinity, NaN, 1, -1, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308];
const unary: [string, (x: number) => number, (x: number) => number][] = [
  ['exp', dm.detExp, Math.exp], ['expm1', dm.detExpm1, Math.expm1], ['log', dm.detLog, Math.log],
  ['log1p', dm.detLog1p, Math.log1p], ['log2', dm.detLog2, Math.log2], ['log10', dm.detLog10, Math.log10],
  ['sin', dm.detSin, Math.sin], ['cos', dm.detCos, Math.cos], ['tan', dm.detTan, Math.tan],
  ['atan', dm.detAtan, Math.atan], ['asin', dm.detAsin, Math.asin], ['acos', dm.detAcos, Math.acos],
  ['sinh', dm.detSinh, Math.sinh], ['cosh', dm.detCosh, Math.cosh], ['tanh', dm.detTanh, Math.tanh],
  ['asinh', dm.detAsinh, Math.asinh], ['acosh', dm.detAcosh, Math.acosh], ['atanh', dm.detAtanh, Math.atanh],
  ['cbrt', dm.detCbrt, Math.cbrt],
];

describe('special values follow ECMAScript (compared with Math.* where the spec fixes the result)', () => {
  for (const [name, det, math] of unary) {
    it(`${name}: ±0, ±∞, NaN, ±1 and the extremes`, () => {
      for (const x of specials) {
        const want = math(x), got = det(x);
        // Only results that ECMAScript fixes exactly are compared bit for bit: NaN, ±0, ±∞, ±1,
        // and subnormal inputs where f(x) = x (sin, tan, atan, asin, sinh, asinh, atanh, expm1, log1p).
        if (Number.isNaN(want) || want === 0 || !Number.isFinite(want) || Math.abs(want) === 1 || want === x) {
          expect(Object.is(got, want), `${name}(${x}) = ${got}, Math gives ${want}`).toBe(true);
        } else {
          expect(Math.abs(got - want) / Math.abs(want), `${name}(${x})`).toBeLessThan(4e-16);
        }
      }
    });
  }

  it('atan2: every signed-zero and infinity case', () => {
    const vals = [0, -0, Infinity, -Infinity, NaN, 1, -1, 5e-324, -5e-324];
    for (const y of vals) for (const x of vals) {
      const want = Math.atan2(y, x), got = dm.detAtan2(y, x);
      expect(Object.is(got, want), `atan2(${y}, ${x}) = ${got}, Math gives ${want}`).toBe(true);
    }
  });

  it('odd functions are odd and even functions even, bit for bit', () => {
    const odd = [dm.detSin, dm.detTan, dm.detAtan, dm.detAsin, dm.detSinh, dm.detTanh, dm.detAsinh, dm.detAtanh, dm.detCbrt, dm.detExpm1];
    const even = [dm.detCos, dm.detCosh];
    for (let i = 0; i < 2000; i++) {
      const x = (i % 7 === 0 ? 1e6 : i % 3 === 0 ? 1 : 20) * Math.sin(i * 12.9898) ** 2;   // any spread of inputs
      for (const f of odd.slice(0, 9)) expect(Object.is(f(-x), -f(x))).toBe(true);
      for (const f of even) expect(Object.is(f(-x), f(x))).toBe(true);
    }
  });

  it('the float32 FMA in src/math equals src/random/float.ts fma32 on random and halfway inputs', () => {
    let s = 12345;
    const r = () => { s = (Math.imul(s, 1103515245) + 12345) | 0; return ((s >>> 8) / 2 ** 24) * 2 - 1; };
    for (let i = 0; i < 20000; i++) {
      const a = Math.fround(r() * 8), b = Math.fround(r() * 8), c = Math.fround(r() * 64 * (i % 5 === 0 ? 1e-6 : 1));
      expect(Object.is(fma32(a, b, c), fma32Random(a, b, c))).toBe(true);
    }
    // halfway cases: a·b exact, c chosen so that a·b + c is a float32 midpoint plus/minus a little
    const one = Math.fround(1 + 2 ** -23);
    for (const c of [2 ** -24, -(2 ** -24), 2 ** -24 + 2 ** -60, 2 ** -24 - 2 ** -60, 3 * 2 ** -24]) {
      expect(Object.is(fma32(one, 1, Math.fround(c)), fma32Random(one, 1, Math.fround(c)))).toBe(true);
      expect(Object.is(fma32(1, 1, Math.fround(c)), fma32Random(1, 1, Math.fround(c)))).toBe(true);
    }
  });
});
