// The WebAssembly detExp, detLog and detLog1p (wasm/detmath.wat, in the GLM module) equal the
// JavaScript ones (src/math/exp.ts, log.ts) bit for bit: on the special values (±0, ±∞, NaN,
// subnormals, the largest doubles), on both sides of every threshold and switch point (exp's
// overflow, underflow and subnormal-result bounds; log1p's series bounds 2^−54 and 2^−7, −1; the
// log kernel's scaling bounds 2^−1022 and 2^1000), next to the reduction boundaries (multiples of
// ln 2/128 and the midpoints between them where k's rounding flips; log's 128 interval edges), and on
// 1e6 random bit patterns (every exponent, both signs) plus 1e6 random points in each function's
// working range. Exact comparison: no tolerance, no statistics (NaN is compared as NaN).
import { describe, expect, it } from 'vitest';
import { glmWasmDetMath } from '../../src/compile/glm.js';
import { detExp, detLog, detLog1p } from '../../src/math/index.js';

const wasm = glmWasmDetMath();

/** A tiny LCG (Numerical Recipes' constants) giving 32-bit words. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
}

const F = new Float64Array(1), U = new BigUint64Array(F.buffer), W = new Uint32Array(F.buffer);
const bitsOf = (x: number): bigint => { F[0] = x; return U[0]!; };
const fromWords = (hi: number, lo: number): number => { W[1] = hi; W[0] = lo; return F[0]!; };   // little-endian (as the test machine)
/** x moved by k ulps (k may be negative; through zero and into the other sign as integers would). */
function ulps(x: number, k: number): number {
  F[0] = x;
  const b = U[0]!;
  const neg = (b >> 63n) === 1n;
  let m = neg ? -(b & 0x7fffffffffffffffn) : b;       // ordered integer
  m += BigInt(k);
  U[0] = m < 0n ? (-m) | 0x8000000000000000n : m;
  return F[0]!;
}
/** x and its neighbours within r ulps. */
const around = (x: number, r = 2): number[] => Array.from({ length: 2 * r + 1 }, (_, i) => ulps(x, i - r));

const SPECIALS = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, 0.5, 5e-324, -5e-324, 1e-320, 2.2250738585072014e-308, -2.2250738585072014e-308,
  2.225073858507201e-308, 1.7976931348623157e308, -1.7976931348623157e308, 1e300, -1e300, 1e-300, -1e-300];

/** Inputs where exp's work changes: thresholds, the subnormal range, the reduction's boundaries. */
function expInputs(): number[] {
  const xs = [...SPECIALS];
  for (const t of [709.782712893384, 709.78, 709, -746, -745.1332191019411, -745, -708.3964185322641, -708.4, -708, -744.44, -738, -730,
    -1080 * 0.6931471805599453 / 128 * 128, 1e-17, -1e-17, 5.551115123125783e-17, 0.00270760617, -0.00270760617]) xs.push(...around(t, 3));
  // k·ln 2/128 (r near 0) and (k + ½)·ln 2/128 (where k's rounding flips), k over the whole range
  const step = 0.6931471805599453 / 128;
  for (let k = -95_550; k <= 90_850; k += 97) { xs.push(...around(k * step, 1)); xs.push(...around((k + 0.5) * step, 2)); }
  for (let k = -260; k <= 260; k++) { xs.push(k * step, (k + 0.5) * step, ulps((k + 0.5) * step, 1), ulps((k + 0.5) * step, -1)); }
  return xs;
}

/** Inputs where log and log1p's work changes. */
function logInputs(): number[] {
  const xs = [...SPECIALS];
  for (const t of [2 ** -54, -(2 ** -54), 2 ** -7, -(2 ** -7), -1, -0.5, 1, 2 ** 1000, 2 ** 1000 - 1, 2 ** -1022, 2 ** -1022 - 1,
    2 ** 1023, 0.7071067811865476, 1.4142135623730951, 0.70703125, 1.4140625, 0.0078125 - 2 ** -60]) xs.push(...around(t, 3));
  // the 128 interval edges of m (high word 0x3fe6a000 + i·2^11), at several exponents, and 1 ± a few ulps
  for (const e of [-1074, -1060, -1022, -1000, -60, -8, -1, 0, 1, 7, 60, 999, 1000, 1001, 1023]) {
    for (let i = 0; i < 128; i++) {
      const m = fromWords(0x3fe6a000 + i * 2048, 0);
      const x = m * 2 ** Math.max(e, -1022) * (e < -1022 ? 2 ** (e + 1022) : 1);
      xs.push(...around(x, 1), ...around(x - 1, 1));
    }
  }
  xs.push(...around(1, 40));
  return xs;
}

/** n random doubles from random bit patterns (every exponent, both signs, NaNs included). */
function randomBits(n: number, seed: number): Float64Array {
  const u = lcg(seed), out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fromWords(u(), u());
  return out;
}
/** n random doubles log-uniform in magnitude over [2^lo, 2^hi), random sign unless `positive`, from a fixed seed. */
function randomSpread(n: number, seed: number, lo: number, hi: number, positive = false): Float64Array {
  const u = lcg(seed), out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = lo + (u() % (hi - lo));
    const m = 1 + u() / 4294967296 + u() / 2 ** 64;
    out[i] = (positive || (u() & 1) === 0 ? 1 : -1) * m * 2 ** e;
  }
  return out;
}
/** n random doubles uniform in [a, b) from a fixed seed. */
function randomUniform(n: number, seed: number, a: number, b: number): Float64Array {
  const u = lcg(seed), out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = a + (b - a) * ((u() + u() / 4294967296) / 4294967296);
  return out;
}

/** The inputs (as strings with their bits) where f and g differ, at most 5; f maps one value, or (`pairs`) the whole array. */
function mismatches(xs: ArrayLike<number>, f: (x: number) => number, g: (x: number) => number, pairs?: (xs: Float64Array) => Float64Array): string[] {
  const bad: string[] = [];
  const all = pairs === undefined ? undefined : pairs(Float64Array.from(xs));
  for (let i = 0; i < xs.length && bad.length < 5; i++) {
    const x = xs[i]!, a = all === undefined ? f(x) : all[i]!, b = g(x);
    if (!(bitsOf(a) === bitsOf(b) || (a !== a && b !== b))) bad.push(`x = ${x} (0x${bitsOf(x).toString(16)}): wasm ${a}, JS ${b}`);
  }
  return bad;
}

describe('wasm/detmath.wat against src/math (same bits)', () => {
  it('the GLM module (and so detmath) compiles here: the comparisons below are real', () => {
    expect(wasm).not.toBeNull();
  });
  const w = wasm!;

  it('detExp: specials, thresholds, subnormal results, and around k·ln 2/128 and the midpoints (~19,000 inputs)', () => {
    const xs = expInputs();
    expect(xs.length).toBeGreaterThan(15_000);
    expect(mismatches(xs, w.detExp, detExp)).toEqual([]);
  });

  it('detLog and detLog1p: specials, switch points, scaling bounds, the 128 interval edges at 15 exponents (~13,000 inputs)', () => {
    const xs = logInputs();
    expect(xs.length).toBeGreaterThan(10_000);
    expect(mismatches(xs, w.detLog, detLog)).toEqual([]);
    expect(mismatches(xs, w.detLog1p, detLog1p)).toEqual([]);
    expect(mismatches(xs.map((x) => -x), w.detLog1p, detLog1p)).toEqual([]);
  });

  it('1e6 random bit patterns (all exponents, both signs, NaNs) through each function', () => {
    const xs = randomBits(1_000_000, 20261202);
    expect(mismatches(xs, w.detExp, detExp)).toEqual([]);
    expect(mismatches(xs, w.detLog, detLog)).toEqual([]);
    expect(mismatches(xs, w.detLog1p, detLog1p)).toEqual([]);
  });

  it('1e6 random points in each working range: exp on [−750, 712), log on 2^[−1074, 1024), log1p on ±2^[−60, 8) and (−1, 10)', () => {
    expect(mismatches(randomUniform(1_000_000, 7, -750, 712), w.detExp, detExp)).toEqual([]);
    expect(mismatches(randomSpread(1_000_000, 8, -1074, 1024, true), w.detLog, detLog)).toEqual([]);
    expect(mismatches(randomSpread(500_000, 9, -60, 8), w.detLog1p, detLog1p)).toEqual([]);
    expect(mismatches(randomUniform(500_000, 10, -1, 10), w.detLog1p, detLog1p)).toEqual([]);
  });

  // The f64x2 versions the kernels run: inputs in their order and shuffled, so that a pair mixes a
  // fast-domain lane with a special one (then both go through the scalar code) and the series with the kernel.
  const shuffled = (xs: ArrayLike<number>, seed: number): Float64Array => {
    const a = Float64Array.from(xs), u = lcg(seed);
    for (let i = a.length - 1; i > 0; i--) { const j = u() % (i + 1); const t = a[i]!; a[i] = a[j]!; a[j] = t; }
    return a;
  };
  it('two lanes at a time (f64x2): detExp on the edge inputs, 1e6 random bit patterns and 1e6 points in [−750, 712)', () => {
    const xs = expInputs();
    for (const v of [xs, shuffled(xs, 1), randomBits(1_000_000, 11), randomUniform(1_000_000, 12, -750, 712)]) {
      expect(mismatches(v, w.detExp, detExp, w.expPairs)).toEqual([]);
    }
  });

  it('two lanes at a time (f64x2): detLog1p on the edge inputs, 1e6 random bit patterns, ±2^[−60, 8), (−1, 10) and e^−[0, 40) (the logistic use)', () => {
    const xs = logInputs();
    const expNeg = randomUniform(500_000, 16, -40, 0).map(detExp);
    for (const v of [xs, xs.map((x) => -x), shuffled(xs, 2), randomBits(1_000_000, 13), randomSpread(500_000, 14, -60, 8), randomUniform(500_000, 15, -1, 10), expNeg]) {
      expect(mismatches(v, w.detLog1p, detLog1p, w.log1pPairs)).toEqual([]);
    }
  });
});
