/**
 * sin, cos and tan with the same bits on every engine: `detSin`, `detCos`, `detTan`.
 *
 * Argument reduction to r = x − n·π/2, |r| ≤ π/4, as a double-double (r_hi + r_lo):
 *   - |x| ≤ π/4: r = x.
 *   - |x| < 2^20·π/2 (≈ 1.647e6): Cody–Waite with π/2 in four parts (33 + 33 + 33 + 53 bits,
 *     mpmath): n·P1, n·P2 and n·P3 are exact (|n| < 2^20), so x − n·P1 is exact (Sterbenz) and
 *     the next two subtractions are exact two-sums; the rounding of n·P4 and the tail of π/2
 *     beyond the four parts leave an absolute error below 2^−130, so even the closest double to a
 *     multiple of π/2 (|r| ≈ 2^−60 or more) keeps over 60 correct bits.
 *   - larger |x| (up to the largest double): Payne–Hanek. x = m·2^e (m a 53-bit integer) times
 *     ⌊2/π·2^1280⌋ (a 1280-bit constant from mpmath) in exact BigInt arithmetic gives n mod 4 and
 *     128 bits of the fraction x·2/π − n, |fraction| ≤ 1/2, which times π/2 (double-double) is r.
 *     BigInt arithmetic is exact, so this path is engine-independent too (about a microsecond).
 * Kernels on |r| ≤ π/4: fdlibm's __kernel_sin / __kernel_cos polynomials (their coefficients S1..S6,
 * C1..C6 written as literals in the code, since V8 loads module constants from memory) (Sun 1993; relative
 * approximation error 2^−57.9 and 2^−59.3, checked in constants.py), including the first-order
 * effect of r_lo. tan = sin/cos (or −cos/sin) from the unrounded kernel sums by a double-double
 * division, rounded once.
 */
import { BITS_F64, BITS_I32, HI, LO, POW2_ALL } from './bits.js';
import { PIO2_HI, PIO2_LO, TWO_OVER_PI_1280 } from './constants.js';
import { DD, twoProd } from './pow.js';


const MEDIUM = 1647099.3291652855;  // just below 2^20·π/2
const TWO_M128 = POW2_ALL[-128 + 1074]!;

/** The reduced argument of the last `reduce` call: r = RED[0] + RED[1] (a typed array: no allocation). */
const RED = new Float64Array(2);

/** x − n·π/2 = RED[0] + RED[1] with |r| ≤ π/4 (about); returns n mod 4. For finite |x| > π/4. */
function reduce(x: number): number {
  const ax = x < 0 ? -x : x;
  if (ax < MEDIUM) {
    const nf = (x * 0.6366197723675814 /* INV_PIO2 */ + 6755399441055744) - 6755399441055744;  // + 1.5·2^52: round
    const y = x - nf * 1.5707963267341256 /* PIO2_1 */;          // exact
    const p2 = nf * 6.077100506303966e-11 /* PIO2_2 */;          // exact
    const s1 = y - p2;
    const v1 = s1 - y;
    const e1 = (y - (s1 - v1)) + (-p2 - v1);
    const p3 = nf * 2.0222662487111665e-21 /* PIO2_3 */;         // exact
    const s2 = s1 - p3;
    const v2 = s2 - s1;
    const e2 = (s1 - (s2 - v2)) + (-p3 - v2);
    const t = (e1 + e2) - nf * 8.4784276603689e-32 /* PIO2_4 */;
    const hi = s2 + t;
    RED[0] = hi;
    RED[1] = t - (hi - s2);
    return (nf | 0) & 3;
  }
  return reduceLarge(x);
}

/** Payne–Hanek reduction with exact BigInt arithmetic, for finite |x| ≥ 2^20·π/2. */
function reduceLarge(x: number): number {
  BITS_F64[0] = x;
  const hw = BITS_I32[HI]!;
  const e = ((hw >>> 20) & 0x7ff) - 1075;
  const m = (BigInt((hw & 0xfffff) | 0x100000) << 32n) | BigInt(BITS_I32[LO]! >>> 0);
  const prod = m * TWO_OVER_PI_1280;                         // |x|·2/π·2^(1280 − e)
  const sh = BigInt(1280 - e);
  let n = Number((prod >> sh) & 3n);
  let f = (prod >> (sh - 128n)) & ((1n << 128n) - 1n);      // fraction · 2^128
  if (f >= (1n << 127n)) { f -= 1n << 128n; n += 1; }
  const fh = Number(f);
  const fl = Number(f - BigInt(fh));
  // r = (fh + fl)·2^−128·π/2 as a double-double
  const ph = twoProd(fh, PIO2_HI);
  const pl = DD[0]! + (fh * PIO2_LO + fl * PIO2_HI);
  const h = ph + pl;
  let hi = h * TWO_M128;
  let lo = (pl - (h - ph)) * TWO_M128;
  if (x < 0) { hi = -hi; lo = -lo; n = -n; }
  RED[0] = hi; RED[1] = lo;
  return n & 3;
}

/** fdlibm's __kernel_sin tail polynomial S2 + S3·z + … + S6·z⁴ (z = r², w = z²). */
function sinR(z: number, w: number): number {
  return 0.00833333333332249 + z * (-0.0001984126982985795 + z * 2.7557313707070068e-06) + z * w * (-2.5050760253406863e-08 + z * 1.58969099521155e-10);
}

/** fdlibm's __kernel_cos polynomial z·(C1 + C2·z + … + C6·z⁵) (z = r², w = z²). */
function cosR(z: number, w: number): number {
  return z * (0.0416666666666666 + z * (-0.001388888888887411 + z * 2.480158728947673e-05)) + w * w * (-2.7557314351390663e-07 + z * (2.087572321298175e-09 + z * -1.1359647557788195e-11));
}

/** sin(x + y) for |x + y| ≤ π/4 (about), |y| ≤ ulp(x)/2: fdlibm's kernel. */
function sinK(x: number, y: number): number {
  const z = x * x;
  const w = z * z;
  const r = sinR(z, w);
  const v = z * x;
  return x - ((z * (0.5 * y - v * r) - y) - v * -0.16666666666666632);
}

/** cos(x + y) for |x + y| ≤ π/4 (about): fdlibm's kernel. */
function cosK(x: number, y: number): number {
  const z = x * x;
  const w = z * z;
  const r = cosR(z, w);
  const hz = 0.5 * z;
  const u = 1 - hz;
  return u + (((1 - u) - hz) + (z * r - x * y));
}

/**
 * sin x (`Math.sin`) with the same bits on every engine, faithfully rounded for every finite x
 * (Cody–Waite reduction below 2^20·π/2, Payne–Hanek above). sin(±0) = ±0, sin(±∞) = NaN,
 * NaN → NaN.
 *
 * @example
 * detSin(Math.PI / 6);   // 0.49999999999999994
 * detSin(1e22);          // -0.8522008497671888
 */
export function detSin(x: number): number {
  const ax = x < 0 ? -x : x;
  if (ax <= 0.7853981633974483) return ax < 1.4901161193847656e-8 ? x : sinK(x, 0);
  if (!(ax < Infinity)) return Number.NaN;
  const n = reduce(x);
  const h = RED[0]!, l = RED[1]!;
  switch (n) {
    case 0: return sinK(h, l);
    case 1: return cosK(h, l);
    case 2: return -sinK(h, l);
    default: return -cosK(h, l);
  }
}

/**
 * cos x (`Math.cos`) with the same bits on every engine, faithfully rounded for every finite x.
 * cos(±0) = 1, cos(±∞) = NaN, NaN → NaN.
 *
 * @example
 * detCos(Math.PI / 3);   // 0.5000000000000001
 * detCos(1e22);          // 0.523214785395139
 */
export function detCos(x: number): number {
  const ax = x < 0 ? -x : x;
  if (ax <= 0.7853981633974483) return ax < 7.450580596923828e-9 ? 1 : cosK(x, 0);
  if (!(ax < Infinity)) return Number.NaN;
  const n = reduce(x);
  const h = RED[0]!, l = RED[1]!;
  switch (n) {
    case 0: return cosK(h, l);
    case 1: return -sinK(h, l);
    case 2: return -cosK(h, l);
    default: return sinK(h, l);
  }
}

/**
 * tan x (`Math.tan`) with the same bits on every engine, faithfully rounded for every finite x.
 * tan(±0) = ±0, tan(±∞) = NaN, NaN → NaN.
 *
 * @example
 * detTan(Math.PI / 4);   // 0.9999999999999999
 * detTan(1e22);          // -1.6287782256068988
 */
export function detTan(x: number): number {
  const ax = x < 0 ? -x : x;
  if (ax < 7.450580596923828e-9) return x;           // 2^−27; ±0
  let h = x, l = 0, n = 0;
  if (ax > 0.7853981633974483) {
    if (!(ax < Infinity)) return Number.NaN;
    n = reduce(x);
    h = RED[0]!; l = RED[1]!;
  }
  // sin(r) = h + sl and cos(r) = u + cl, both unrounded; r² = z + zl and r³ = v + vl exactly
  // (Dekker), so that the leading terms −r³/6 and −r²/2 carry no rounding error of their own
  const z = twoProd(h, h), zl = DD[0]!;
  const v = twoProd(z, h), vl = DD[0]! + zl * h;
  const w = z * z;
  const rs = sinR(z, w);
  const sl = v * -0.16666666666666632 + ((vl * -0.16666666666666632 + v * (z * rs)) + (l - 0.5 * z * l));
  const rc = cosR(z, w);
  const hz = 0.5 * z;
  const u = 1 - hz;
  const cl = ((1 - u) - hz) + ((z * rc - 0.5 * zl) - h * l);
  // even n: (h + sl)/(u + cl); odd n: −(u + cl)/(h + sl)
  const sh = h + sl, sll = sl - (sh - h);          // normalised (fast two-sums: |sl| < |h|, |cl| < u)
  const ch = u + cl, cll = cl - (ch - u);
  let nh: number, nl: number, dh: number, dl: number;
  if ((n & 1) === 0) { nh = sh; nl = sll; dh = ch; dl = cll; } else { nh = -ch; nl = -cll; dh = sh; dl = sll; }
  const q = nh / dh;
  const p = twoProd(q, dh), pe = DD[0]!;
  const ql = (((nh - p) - pe) + nl - q * dl) / dh;
  return q + ql;
}
