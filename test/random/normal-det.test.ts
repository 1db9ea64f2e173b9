import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { threefryFillJs } from '../../src/prng/threefry.js';
import { setWasmEnabled, wasmAvailable, wasmScratch } from '../../src/prng/wasm.js';
import {
  erfinv32det, erfinv64det, log1pDet, normalF32FromUnitDet, normalF32FromUnitDetInPlace, normalF64FromUnitDet,
  normalF64FromUnitDetInPlace, NORMAL_F32_LO, NORMAL_F64_LO, SQRT2_F32,
} from '../../src/math/index.js';
import { erfinv32, erfinv64 } from '../../src/random/erfinv.js';
import { lcg } from '../helpers.js';
import {
  normalF32Fill, normalF32FillJs, normalF64Fill, normalF64FillJs, normalFromUnit, normalWasmActive,
} from '../../src/random/normal-fill.js';

// ---------------------------------------------------------------------------------------------
// Exact reference for log1p on [−1, 0]: BigInt fixed point with 128 fraction bits (the result's
// relative error is below 2^-115, far below the 2^-60 or so that ulp statistics need).
// ---------------------------------------------------------------------------------------------

const P = 128;
const PB = BigInt(P);
const ONE = 1n << PB;

function bitLength(v: bigint): number {
  const s = v.toString(16);
  return 4 * (s.length - 1) + 32 - Math.clz32(parseInt(s[0]!, 16));
}

/** |x| = m·2^e exactly (m < 2^53). */
function decompose(x: number): { m: bigint; e: number } {
  const b = new BigUint64Array(new Float64Array([x]).buffer)[0]!;
  const ex = Number((b >> 52n) & 0x7ffn);
  const frac = b & ((1n << 52n) - 1n);
  return ex === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: ex - 1075 };
}

/** atanh(num/den)·2^P for 0 <= num/den <= 1/3 (series; truncation error a few units of 2^-P). */
function atanhFix(num: bigint, den: bigint): bigint {
  const z = (num << PB) / den;
  const z2 = (z * z) >> PB;
  let sum = z, zp = z;
  for (let n = 3n; ; n += 2n) {
    zp = (zp * z2) >> PB;
    if (zp === 0n) break;
    sum += zp / n;
  }
  return sum;
}
const LN2_FIX = 2n * atanhFix(1n, 3n);
/** ln(1 + i/64)·2^P = 2·atanh(i / (128 + i))·2^P. */
const LNC_FIX = Array.from({ length: 64 }, (_, i) => 2n * atanhFix(BigInt(i), BigInt(128 + i)));

interface Exact { num: bigint; exp: number } // the value num·2^exp

/** log1p(x) for x in (−1, 0], essentially exact. */
function exactLog1p(x: number): Exact {
  if (x === 0) return { num: 0n, exp: 0 };
  const { m, e } = decompose(x);
  if (x > -(2 ** -5)) {
    // log1p(−a) = −a·Σ a^(n−1)/n, a = m·2^e.
    let s = ONE, pow = ONE;
    const sh = BigInt(-e);
    for (let n = 2n; ; n++) {
      pow = (pow * m) >> sh;
      if (pow === 0n) break;
      s += pow / n;
    }
    return { num: -(m * s), exp: e - P };
  }
  // 1 + x = Y·2^(e − 6) exactly; Y/2^jc in [1, 2) is c·(1 + d) with c = 1 + i/64.
  const y = ((1n << BigInt(-e)) - m) << 6n;
  const jc = bitLength(y) - 1;
  const k = jc - 6 + e;
  const i = Number((y >> BigInt(jc - 6)) & 63n);
  const c = BigInt(64 + i) << BigInt(jc - 6);
  return { num: BigInt(k) * LN2_FIX + LNC_FIX[i]! + 2n * atanhFix(y - c, y + c), exp: -P };
}

/** (got − exact) in ulps of the exact value (signed; subnormal ulp 2^-1074). */
function ulpError(got: number, ref: Exact): number {
  const { m, e: g } = decompose(got);
  const gm = got < 0 || Object.is(got, -0) ? -m : m;
  const ex = Math.min(g, ref.exp);
  const diff = (gm << BigInt(g - ex)) - (ref.num << BigInt(ref.exp - ex));
  if (ref.num === 0n) return diff === 0n ? 0 : Infinity;
  const eRef = bitLength(ref.num < 0n ? -ref.num : ref.num) - 1 + ref.exp;
  return Number(diff) / 2 ** (Math.max(eRef - 52, -1074) - ex);
}

// ---------------------------------------------------------------------------------------------

const ulp = (x: number): number => {
  const a = Math.abs(x);
  return a < 2 ** -1022 ? 2 ** -1074 : 2 ** (Math.floor(Math.log2(a)) - 52);
};
const next = (x: number, steps: number): number => {
  const b = new BigInt64Array(new Float64Array([x]).buffer);
  b[0] = b[0]! + BigInt(steps);
  return new Float64Array(b.buffer)[0]!;
};

/** Deterministic doubles in [0, 1) with 53 random bits. */
function unit53(seed: number): () => number {
  const r = lcg(seed);
  return () => ((r() >>> 5) * 67108864 + (r() >>> 6)) * 2 ** -53;
}

/** The hard points of log1p on [−1, 0]. */
function hardPoints(): number[] {
  const xs: number[] = [-0, -(2 ** -1074), -(2 ** -1073), -(2 ** -1022), -1e-300, -(2 ** -106), -(2 ** -60)];
  for (let j = 20; j <= 56; j++) xs.push(-(2 ** -j), next(-(2 ** -j), 1), next(-(2 ** -j), -1));
  // 1 + x = 2^−j (crossing powers of two), with neighbours.
  for (let j = 1; j <= 53; j++) {
    const x = -(1 - 2 ** -j);
    for (let d = -2; d <= 2; d++) xs.push(next(x, d));
  }
  // The most negative inputs and the kernel's extreme u = −(1 − 2^−53).
  for (let i = 1; i <= 8; i++) xs.push(-1 + i * 2 ** -53);
  xs.push(-(NORMAL_F64_LO * NORMAL_F64_LO), -((1 - 3 * 2 ** -53) ** 2));
  // The reduction boundary: 1 + x near 2^−j·(high word 0x3fe6a09e), and fdlibm's k = 0 range end.
  const t = (1 + 0x6a09e / 2 ** 20) / 2;
  for (let j = 0; j <= 30; j++) for (let d = -3; d <= 3; d++) xs.push(next(t / 2 ** j - 1, d));
  for (let d = -3; d <= 3; d++) xs.push(next(Math.SQRT1_2 - 1, d), next(-0.2928932188134524, d));
  xs.push(-0.5, next(-0.5, 1), next(-0.5, -1), -0.25, -0.75, -0.875, -0.9375);
  return xs.filter((x) => x > -1 && x <= 0);
}

describe('log1pDet (deterministic fdlibm-style log1p on [-1, 0])', () => {
  it('the exact reference agrees with Math.log1p to within an ulp (reference self-check)', () => {
    const rnd = unit53(11);
    for (let i = 0; i < 2000; i++) {
      const x = -rnd();
      expect(Math.abs(ulpError(Math.log1p(x), exactLog1p(x)))).toBeLessThan(1);
    }
  });

  it('hard points: < 1 ulp from the exact value and within 1 ulp of Math.log1p', () => {
    let worst = 0;
    for (const x of hardPoints()) {
      const got = log1pDet(x);
      const err = Math.abs(ulpError(got, exactLog1p(x)));
      worst = Math.max(worst, err);
      expect(err, `x = ${x}`).toBeLessThan(1);
      expect(Math.abs(got - Math.log1p(x)), `x = ${x}`).toBeLessThanOrEqual(ulp(Math.log1p(x)));
    }
    expect(worst).toBeLessThan(0.9);
  });

  it('1e6 deterministic random inputs: max error < 1 ulp (0.80), mean |error| ≈ 0.25 ulp', () => {
    // Thirds: x = −u² (what the normal kernel feeds it), x uniform on (−1, 0), |x| log-uniform
    // down to 2^-60.
    const rnd = unit53(2024);
    const n = 1_000_000;
    let maxErr = 0, sumAbs = 0, over = 0, maxVsMath = 0;
    for (let i = 0; i < n; i++) {
      const v = rnd();
      const x = i % 3 === 0 ? -(v * v) : i % 3 === 1 ? -v : -(2 ** (-60 * v));
      const got = log1pDet(x);
      const err = Math.abs(ulpError(got, exactLog1p(x)));
      if (err > maxErr) maxErr = err;
      sumAbs += err;
      if (err > 0.5) over++;
      const m = Math.log1p(x);
      if (got !== m) maxVsMath = Math.max(maxVsMath, Math.abs(got - m) / ulp(m));
    }
    expect(maxErr).toBeLessThan(0.85);                 // fdlibm's own bound is < 1 ulp
    expect(sumAbs / n).toBeLessThan(0.26);
    expect(over / n).toBeLessThan(0.05);               // correctly rounded in > 95% of cases
    expect(maxVsMath).toBeLessThanOrEqual(1);
  }, 120_000);

  it('special values and domain', () => {
    expect(Object.is(log1pDet(0), 0)).toBe(true);
    expect(Object.is(log1pDet(-0), -0)).toBe(true);
    expect(log1pDet(-1)).toBe(-Infinity);
    expect(log1pDet(-1 - 2 ** -52)).toBeNaN();
    expect(log1pDet(1e-300)).toBeNaN();
    expect(log1pDet(NaN)).toBeNaN();
    expect(log1pDet(-(2 ** -1074))).toBe(-(2 ** -1074));
  });
});

// ---------------------------------------------------------------------------------------------

describe('erfinv64det vs erfinv64 (Horner + Math.log1p)', () => {
  const rel = (a: number, b: number): number => (a === b ? 0 : Math.abs(a - b) / Math.abs(b));

  it('random u in (-1, 1) and all three branches: <= 1e-15 relative', () => {
    const rnd = unit53(7);
    const branches = [0, 0, 0];
    let worst = 0, worstU = NaN;
    const check = (u: number): void => {
      const w = -Math.log1p(-u * u);
      branches[w < 6.25 ? 0 : w < 16 ? 1 : 2]!++;
      const r = rel(erfinv64det(u), erfinv64(u));
      if (r > worst) { worst = r; worstU = u; }
    };
    for (let i = 0; i < 200_000; i++) check(2 * rnd() - 1);
    // |u| -> 1: 1 − u log-uniform in [2^-53, 1].
    for (let i = 0; i < 50_000; i++) {
      const u = 1 - 2 ** (-53 * rnd());
      check(u);
      check(-u);
    }
    for (let j = 1; j <= 53; j++) {
      check(1 - 2 ** -j);
      check(-(1 - 2 ** -j));
    }
    check(-NORMAL_F64_LO);
    check(NORMAL_F64_LO);
    // Either side of the branch thresholds w = 6.25 and w = 16 (u = √(1 − e^−w)).
    for (const w of [6.25, 16]) {
      const u = Math.sqrt(-Math.expm1(-w));
      for (let d = -40; d <= 40; d++) check(next(u, d));
    }
    expect(branches.every((c) => c > 100)).toBe(true);
    expect(worst, `worst at u = ${worstU}`).toBeLessThanOrEqual(1e-15);
    expect(worst).toBeGreaterThan(0); // the evaluation orders do differ somewhere
  });

  it('tiny |u|, ±1 and outside [-1, 1]', () => {
    for (const u of [2 ** -53, -(2 ** -53), 1e-300, 2 ** -1074, 1e-8, -3e-5]) {
      expect(rel(erfinv64det(u), erfinv64(u))).toBeLessThanOrEqual(1e-15);
    }
    expect(Object.is(erfinv64det(0), 0)).toBe(true);
    expect(Object.is(erfinv64det(-0), -0)).toBe(true);
    expect(erfinv64det(1)).toBe(Infinity);
    expect(erfinv64det(-1)).toBe(-Infinity);
    expect(erfinv64det(1 + 2 ** -52)).toBeNaN();
    expect(erfinv64det(NaN)).toBeNaN();
  });
});

// ---------------------------------------------------------------------------------------------

/** First index where the bits differ, or −1. */
function firstDiff(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** Reference for a fill: threefry f64 uniforms, then normalF64FromUnitDet value by value. */
function reference(k0: number, k1: number, x0: number, x1: number, step: number, n: number): Float64Array {
  const u = new Float64Array(n);
  threefryFillJs('f64', k0, k1, x0, x1, step, n, u);
  return u.map(normalF64FromUnitDet);
}

const SIZES = [0, 1, 2, 3, 7, 8, 9, 31, 1000, 1281, 4097, 100001];

describe('normalF64Fill: wasm and JS give the same bits', () => {
  afterEach(() => {
    setWasmEnabled(true);
  });

  it('the in-place JS loop equals normalF64FromUnitDet value by value (extremes included)', () => {
    const rnd = unit53(5);
    const f = new Float64Array(20000);
    for (let i = 0; i < f.length; i++) f[i] = Math.floor(rnd() * 2 ** 52) * 2 ** -52;
    f.set([0, 1 - 2 ** -52, 0.5, 0.5 - 2 ** -52, 2 ** -52, 1 - 2 ** -40], 0);
    const got = f.slice();
    normalF64FromUnitDetInPlace(got);
    expect(firstDiff(got, f.map(normalF64FromUnitDet))).toBe(-1);
    expect(got[0]).toBeLessThan(-8.2); // u = −(1 − 2^-53): √2·erfinv ≈ −8.29 (tail branch)
  });

  it.runIf(wasmAvailable())('wasm is in use, and matches the per-value reference over sizes, keys, counters and both x0Step', () => {
    expect(normalWasmActive()).toBe(true);
    const r = lcg(99);
    let rare = 0;
    for (const n of SIZES) {
      for (const step of [0, 1]) {
        const k0 = r(), k1 = r();
        // Counters near the 32-bit wraps and arbitrary ones.
        for (const [x0, x1] of [[r(), r()], [0x7ffffff0, 0xffffffff - (n >> 1)], [0, 0]] as const) {
          const offset = n & 3;
          const wa = new Float64Array(offset + n + 3).fill(7);
          const js = new Float64Array(offset + n + 3).fill(7);
          normalF64Fill(k0, k1, x0, x1, step, n, wa, offset);
          normalF64FillJs(k0, k1, x0, x1, step, n, js, offset);
          const what = `n=${n} step=${step} key=${k0},${k1} ctr=${x0},${x1}`;
          expect(firstDiff(wa, js), what).toBe(-1);
          if (n <= 4097) expect(firstDiff(wa.subarray(offset, offset + n), reference(k0, k1, x0, x1, step, n)), what).toBe(-1);
          expect([wa[offset - 1] ?? 7, wa[offset + n], wa[offset + n + 2]]).toEqual([7, 7, 7]);
          for (let i = offset; i < offset + n; i++) if (Math.abs(wa[i]!) > 3.29) rare++; // w >= 6.25 (about 1 in 1000)
        }
      }
    }
    expect(rare).toBeGreaterThan(100); // the middle/tail lanes (scalar fix-up in wasm) were exercised
  });

  it.runIf(wasmAvailable())('middle and tail branch values in SIMD lanes and in the scalar tail', () => {
    // Under this key, counter 1220 has w in [6.25, 16) and counter 17819277 has w >= 16.
    const k0 = 0x9e3779b9, k1 = 0x243f6a88;
    for (const at of [1220, 17819277]) {
      for (let start = at - 12; start <= at; start++) {
        for (const n of [1, 2, 3, 5, 9, 13, 40]) {
          if (start + n <= at) continue;
          const wa = new Float64Array(n), js = new Float64Array(n);
          normalF64Fill(k0, k1, 0, start, 0, n, wa);
          normalF64FillJs(k0, k1, 0, start, 0, n, js);
          expect(firstDiff(wa, js), `start=${start} n=${n}`).toBe(-1);
        }
      }
      const one = new Float64Array(1);
      normalF64FillJs(k0, k1, 0, at, 0, 1, one);
      expect(Math.abs(one[0]!)).toBeGreaterThan(at === 1220 ? 3.29 : 5.43);
    }
  });

  it.runIf(wasmAvailable())('zero-copy: a wasmScratch view is filled in place with the same bits', () => {
    const n = 50001;
    const mem = wasmScratch(8 * (n + 1))!;
    const view = new Float64Array(mem.buffer, mem.byteOffset, n + 1);
    normalF64Fill(123, 456, 789, 0xfffffff0, 1, n, view, 1);
    const js = new Float64Array(n);
    normalF64FillJs(123, 456, 789, 0xfffffff0, 1, n, js);
    expect(firstDiff(view.subarray(1), js)).toBe(-1);
  });

  it('forced JS (setWasmEnabled(false)) gives the same bits as wasm', () => {
    const n = 100001;
    const a = new Float64Array(n), b = new Float64Array(n);
    normalF64Fill(0xdeadbeef, 0x12345678, 5, 0xffff0000, 1, n, a);
    setWasmEnabled(false);
    expect(normalWasmActive()).toBe(false);
    normalF64Fill(0xdeadbeef, 0x12345678, 5, 0xffff0000, 1, n, b);
    setWasmEnabled(true);
    expect(firstDiff(a, b)).toBe(-1);
    expect(firstDiff(a.subarray(0, 1000), reference(0xdeadbeef, 0x12345678, 5, 0xffff0000, 1, 1000))).toBe(-1);
  });

  it('normalFromUnit on float64 (in place, any uniforms): wasm and JS agree', () => {
    const rnd = unit53(3);
    for (const n of [0, 1, 5, 8, 9, 4096, 4097, 20000]) {
      const f = new Float64Array(n + 2);
      for (let i = 0; i < f.length; i++) f[i] = Math.floor(rnd() * 2 ** 52) * 2 ** -52;
      if (n > 2) f.set([0, 1 - 2 ** -52], 1);
      const a = f.slice(), b = f.slice();
      normalFromUnit(a, 1, n + 1);
      setWasmEnabled(false);
      normalFromUnit(b, 1, n + 1);
      setWasmEnabled(true);
      expect(firstDiff(a, b), `n=${n}`).toBe(-1);
      expect([a[0], a[n + 1]]).toEqual([f[0], f[n + 1]]);
      expect(firstDiff(a.subarray(1, n + 1), f.subarray(1, n + 1).map(normalF64FromUnitDet))).toBe(-1);
    }
  });
});

describe('float32: erfinv32det and normalF32Fill', () => {
  afterEach(() => {
    setWasmEnabled(true);
  });

  /** All 2^23 float32 unit uniforms i·2^-23. */
  const allUnits = (): Float32Array => {
    const f = new Float32Array(2 ** 23);
    for (let i = 0; i < f.length; i++) f[i] = i * 2 ** -23;
    return f;
  };

  it('exhaustive over all 2^23 float32 uniforms: wasm = JS = the current erfinv32 path, bit for bit', () => {
    const f = allUnits();
    const wa = f.slice(), js = f.slice();
    normalFromUnit(wa);                          // wasm when available
    normalF32FromUnitDetInPlace(js);             // JS mirror (fast exact FMA)
    expect(firstDiff32(wa, js)).toBe(-1);
    let diffOld = 0, diffPer = 0;
    for (let i = 0; i < f.length; i++) {
      const old = Math.fround(SQRT2_F32 * erfinv32(2 * f[i]! + NORMAL_F32_LO)); // Math.log1p, fma32
      if (!Object.is(old, js[i])) diffOld++;
      if (i % 16 === 0 && !Object.is(normalF32FromUnitDet(f[i]!), js[i])) diffPer++;
    }
    expect(diffOld).toBe(0);
    expect(diffPer).toBe(0);
  }, 60_000);

  it('erfinv32det = erfinv32 except where log1p rounding straddles a float32 boundary (<= 1 ulp there)', () => {
    const rnd = unit53(17);
    let diff = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const v = rnd();
      const x = Math.fround(i % 2 ? 2 * v - 1 : (i % 4 === 0 ? 1 : -1) * (1 - 2 ** (-24 * v)));
      const a = erfinv32det(x), b = erfinv32(x);
      if (!Object.is(a, b)) {
        diff++;
        expect(Math.abs(a - b), `x = ${x}`).toBeLessThanOrEqual(2 ** (Math.floor(Math.log2(Math.abs(b))) - 23));
      }
    }
    expect(diff).toBeLessThan(n * 1e-4);
    expect(erfinv32det(1)).toBe(Infinity);
    expect(erfinv32det(-1)).toBe(-Infinity);
    expect(erfinv32det(NaN)).toBeNaN();
    expect(Object.is(erfinv32det(-0), -0)).toBe(true);
  });

  it('normalF32Fill: wasm and JS agree over sizes, keys, counters, both x0Step; forced JS too', () => {
    const r = lcg(4242);
    for (const n of SIZES) {
      for (const step of [0, 1]) {
        const k0 = r(), k1 = r(), x0 = r(), x1 = n & 1 ? 0xffffffff - (n >> 2) : r();
        const offset = n & 3;
        const wa = new Float32Array(offset + n + 3).fill(7), js = new Float32Array(offset + n + 3).fill(7);
        normalF32Fill(k0, k1, x0, x1, step, n, wa, offset);
        normalF32FillJs(k0, k1, x0, x1, step, n, js, offset);
        expect(firstDiff32(wa, js), `n=${n} step=${step}`).toBe(-1);
        expect([wa[offset + n], wa[offset + n + 2]]).toEqual([7, 7]);
      }
    }
    const a = new Float32Array(50001), b = new Float32Array(50001);
    normalF32Fill(1, 2, 3, 4, 0, a.length, a);
    setWasmEnabled(false);
    normalF32Fill(1, 2, 3, 4, 0, b.length, b);
    setWasmEnabled(true);
    expect(firstDiff32(a, b)).toBe(-1);
  });

  it.runIf(wasmAvailable())('zero-copy float32 fill into a wasmScratch view', () => {
    const n = 30001;
    const mem = wasmScratch(4 * (n + 1))!;
    const view = new Float32Array(mem.buffer, mem.byteOffset, n + 1);
    normalF32Fill(9, 8, 7, 6, 1, n, view, 1);
    const js = new Float32Array(n);
    normalF32FillJs(9, 8, 7, 6, 1, n, js);
    expect(firstDiff32(view.subarray(1), js)).toBe(-1);
  });
});

/** First index where two float32 arrays differ bitwise, or −1. */
function firstDiff32(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

describe('normalF64Fill vs JAX and the current transform', () => {
  interface Case { fn: string; mode: { x64: boolean; partitionable: boolean }; key: number[]; dtype: string; values: (number | string)[] }

  it('JAX x64 normal cases (NumPy model of jax 0.10.2): within 1e-12 relative', () => {
    const url = new URL('./fixtures/jax-samplers-numpy-ref.json', import.meta.url);
    const cases = (JSON.parse(readFileSync(url, 'utf8')) as { cases: Case[] }).cases
      .filter((c) => c.fn === 'normal' && c.dtype === 'float64');
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const c of cases) {
      const n = c.values.length;
      const out = new Float64Array(n);
      if (c.mode.partitionable) normalF64Fill(c.key[0]!, c.key[1]!, 0, 0, 0, n, out);
      else normalF64Fill(c.key[0]!, c.key[1]!, 0, n, 1, n, out);
      c.values.forEach((v, i) => {
        const want = Number(v);
        expect(Math.abs(out[i]! - want), `key ${c.key} [${i}]`).toBeLessThanOrEqual(1e-12 * Math.abs(want));
      });
    }
  });

  it('JAX float32 normal cases, partitionable mode (normalF32Fill): within 2 float32 ulp', () => {
    const url = new URL('./fixtures/jax-samplers-numpy-ref.json', import.meta.url);
    const cases = (JSON.parse(readFileSync(url, 'utf8')) as { cases: Case[] }).cases
      .filter((c) => c.fn === 'normal' && c.dtype === 'float32' && c.mode.partitionable);
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const c of cases) {
      const out = new Float32Array(c.values.length);
      normalF32Fill(c.key[0]!, c.key[1]!, 0, 0, 0, out.length, out);
      c.values.forEach((v, i) => {
        const want = Number(v);
        const ulp32 = 2 ** (Math.floor(Math.log2(Math.abs(want))) - 23);
        expect(Math.abs(out[i]! - want), `key ${c.key} [${i}]`).toBeLessThanOrEqual(2 * ulp32);
      });
    }
  });

  it('equals Math.SQRT2 * erfinv64(2f + lo) (the current float64 path) to 2e-15 relative', () => {
    const n = 200000;
    const u = new Float64Array(n), out = new Float64Array(n);
    threefryFillJs('f64', 17, 42, 0, 0, 0, n, u);
    normalF64Fill(17, 42, 0, 0, 0, n, out);
    let worst = 0;
    for (let i = 0; i < n; i++) {
      const old = Math.SQRT2 * erfinv64(2 * u[i]! + NORMAL_F64_LO);
      worst = Math.max(worst, Math.abs(out[i]! - old) / Math.abs(old));
    }
    expect(worst).toBeLessThanOrEqual(2e-15);
  });
});
