/**
 * Exact floating-point helpers for reproducing XLA:CPU arithmetic: a correctly rounded fused
 * multiply-add in float64 and float32, which JAX's `uniform` scaling compiles to on CPU, and
 * `nextAfter`.
 */
import type { FloatDType } from '../tensor/dtype.js';

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's split constant for doubles

/** a + b = s + e exactly (Knuth's TwoSum). */
function twoSum(a: number, b: number): [number, number] {
  const s = a + b;
  const bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}

/** a · b = p + e exactly (Dekker's TwoProduct with Veltkamp splitting). */
function twoProduct(a: number, b: number): [number, number] {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a), al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b), bl = b - bh;
  return [p, ((ah * bh - p) + ah * bl + al * bh) + al * bl];
}

const view = new Float64Array(1);
const words = new Uint32Array(view.buffer);
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1; // index of the low word

/** a + b rounded to odd: the exact sum if representable, else the neighbour with an odd last bit. */
function addRoundToOdd(a: number, b: number): number {
  const [s, e] = twoSum(a, b);
  if (e === 0 || !Number.isFinite(s)) return s;
  view[0] = s;
  if ((words[LOW]! & 1) === 1) return s;
  // s is even and inexact: step one ulp toward the exact sum (which lies on e's side of s).
  const up = (e > 0) === (s > 0);
  if (words[LOW] === 0 && !up) words[1 - LOW]! -= 1;   // borrow from the high word
  words[LOW] = up ? words[LOW]! + 1 : words[LOW]! - 1;
  if (up && words[LOW] === 0) words[1 - LOW]! += 1;
  return view[0]!;
}

/**
 * fma(a, b, c) = a·b + c with one rounding, in float64 (Boldo and Melquiond, "Emulation of FMA
 * and correctly rounded sums: proved algorithms using rounding to odd", 2008). Valid away from
 * overflow and from products below 2^-969 (our inputs are uniforms and parameter ranges).
 */
export function fma64(a: number, b: number, c: number): number {
  const [ph, pl] = twoProduct(a, b);
  const [sh, sl] = twoSum(c, ph);
  return sh + addRoundToOdd(sl, pl);
}

/**
 * fma(a, b, c) rounded once to float32, for float32 inputs: the product of two float32 values
 * is exact in float64, and the sum rounded to odd in float64 (53 ≥ 24 + 2 bits) rounds to the
 * correct float32.
 */
export function fma32(a: number, b: number, c: number): number {
  const p = a * b;                     // exact: two 24-bit significands fit in 53 bits
  const s = p + c;
  const r = Math.fround(s);
  const h = s - r;
  if (h === 0) return r;
  // Rounding s instead of the exact sum can only go wrong when s sits exactly halfway between
  // two float32 values r and t = r + 2h; anywhere else both round to r.
  const t = r + 2 * h;
  if (Math.fround(t) !== t) return r;
  const bb = s - p;
  const e = (p - (s - bb)) + (c - bb); // the exact sum is s + e (TwoSum)
  if (e === 0) return r;
  return (e > 0) === (t > r) ? t : r;
}

/** The reference fma32 by rounding to odd; slower, used to test `fma32`. */
export function fma32RoundToOdd(a: number, b: number, c: number): number {
  return Math.fround(addRoundToOdd(a * b, c));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The next float32 (float64) after x toward +∞ (dir = 1) or −∞ (dir = −1), like nextafter. */
export function nextAfter(x: number, dir: 1 | -1, dtype: FloatDType): number {
  if (Number.isNaN(x) || x === dir * Infinity) return x;
  if (dtype === 'float32') {
    if (x === 0) return dir * 2 ** -149;
    f32[0] = x;
    u32[0] = (x > 0) === (dir > 0) ? u32[0]! + 1 : u32[0]! - 1;   // ±∞ steps to ∓max
    return f32[0]!;
  }
  if (x === 0) return dir * Number.MIN_VALUE;
  f64[0] = x;
  u64[0] = (x > 0) === (dir > 0) ? u64[0]! + 1n : u64[0]! - 1n;
  return f64[0]!;
}
