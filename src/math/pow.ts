/**
 * pow (moved from src/random/detmath.ts, unchanged bit for bit), and the double-double
 * kernels it shares with the rest of src/math: `prodErr` (the exact error of a rounded product,
 * Dekker's) and `expm1DDk` (e^g − 1 for |g| ≤ 0.35 to about 2^−61, with its doubles in the slots
 * `PW`). pow's ln x to about 2^−68 is written out in `powCore`.
 */
import * as bits from './bits.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, POW2_ALL, fromBits, offHeapF64 } = bits;

// ---------------------------------------------------------------------------------------------
// pow. Engines disagree on the last bits of Math.pow / `**` (about 10% of non-square exponents
// between Node 20 and Chromium 150), so every path that needs it and must give the same bits
// everywhere calls `detPow`: double-double (dd) arithmetic from + − × ÷ alone (Dekker's exact
// products with Veltkamp splitting, Knuth's exact sums), no tables, no Math function whose last
// bit is implementation-defined. It is accurate to about 2^−60 relative before its one final
// rounding, so within 0.5 + 2^−5 ulp (measured against mpmath: max 0.5015 ulp over 2.2e5
// inputs, 0.01% not correctly rounded; test/random/detmath-pow.test.ts). tanh is in exp.ts.
// ---------------------------------------------------------------------------------------------

/** ln 2 = LN2_DD_HI + LN2_DD_LO (to 2^−106), 1/ln 2, 1/3 and 1/5 as double-doubles (mpmath). */
const LN2_DD_HI = fromBits(0x3fe62e42, 0xfefa39ef);  // 6.93147180559945286227e-01 (= Math.LN2)
const LN2_DD_LO = fromBits(0x3c7abc9e, 0x3b39803f);  // 2.31904681384629955842e-17
const INV_LN2 = fromBits(0x3ff71547, 0x652b82fe);    // 1.44269504088896338700e+00
const THIRD_HI = fromBits(0x3fd55555, 0x55555555);
const THIRD_LO = fromBits(0x3c755555, 0x55555555);   // 1.85037170770859413132e-17
const FIFTH_HI = fromBits(0x3fc99999, 0x9999999a);
const FIFTH_LO = fromBits(0xbc699999, 0x9999999a);   // −1.11022302462515654042e-17
const SIXTH_HI = THIRD_HI / 2, SIXTH_LO = THIRD_LO / 2;  // 1/6, exactly halved
/** Veltkamp's split a = hi + lo (hi with 26 significant bits) of the constants above, as Dekker's products split them. */
function splitHi(a: number): number { const c = 134217729 * a; return c - (c - a); }
const LN2_DD_HH = splitHi(LN2_DD_HI), LN2_DD_HL = LN2_DD_HI - LN2_DD_HH;
const FIFTH_HH = splitHi(FIFTH_HI), FIFTH_HL = FIFTH_HI - FIFTH_HH;
const SIXTH_HH = splitHi(SIXTH_HI), SIXTH_HL = SIXTH_HI - SIXTH_HH;
/** Just above ln(largest double) (e^z overflows above it), just below ln 2^−1075 (e^z rounds to 0). */
const LN_OVERFLOW = 709.79;
const LN_UNDERFLOW = -745.2;
/** 2^−1022, 2^54 and 2^64. */
const TWO_M1022 = fromBits(0x00100000, 0);
const TWO_54 = fromBits(0x43500000, 0);
const TWO_64 = fromBits(0x43f00000, 0);

/**
 * a·b − p exactly, for p = a·b (rounded, computed by the caller) with |a|, |b| < 2^996 and no
 * underflow (Dekker): the low part of the double-double a·b = p + prodErr(a, b, p). Only the low
 * part is returned, so that an inlined call leaves no slot to write and read back.
 */
export function prodErr(a: number, b: number, p: number): number {
  // 134217729 = 2^27 + 1, Veltkamp's splitter (a literal: V8 loads module constants from memory)
  const ca = 134217729 * a, ah = ca - (ca - a), al = a - ah;
  const cb = 134217729 * b, bh = cb - (cb - b), bl = b - bh;
  return ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// Calling convention (that of exp.ts): V8 boxes a double passed to or returned from a call it
// did not inline, so the double-double kernel below takes and leaves its doubles in the slots PW
// and pow's work is one function, `powCore`, too large to be inlined, behind a small `detPow`.
/**
 * Slots: [0] x and [1] y of `detPow`, [2] its result; [4] gh and [5] gl, the arguments of
 * `expm1DDk`; [6] the high and [7] the low part of its result ([3] is unused).
 */
const PW = offHeapF64(8);
/**
 * PW, for exp.ts's calls of `expm1DDk`. This module's own code reads the unexported PW: an
 * exported binding is a module cell, which V8 loads and checks for initialisation at every use.
 */
export const PW_SLOTS = PW;

/**
 * e^g − 1 as a double-double (PW[6] + PW[7]) for g = gh + gl (PW[4], PW[5]) with |g| ≤ 0.35
 * (|gl| ≤ ulp(gh)): g + g²/2 + g³/6 in double-double plus g⁴·P(g) in double, with
 * P(g) = Σ g^j/(j + 4)!, j = 0..10 (its share of the result is below 2^−10; the truncation is
 * below 2^−61 of g). Relative error below about 2^−61 of the result.
 */
export function expm1DDk(): void {
  const gh = PW[4]!, gl = PW[5]!;
  const cg = 134217729 * gh, ghh = cg - (cg - gh), ghl = gh - ghh;       // split of gh
  const p = gh * gh;                                     // g² ≈ p + pe + 2·gh·gl
  const pe = ((ghh * ghh - p) + ghh * ghl + ghl * ghh) + ghl * ghl;
  const cp = 134217729 * p, phh = cp - (cp - p), phl = p - phh;
  const c = p * gh;                                      // g³ ≈ c + cl
  const cl = (((phh * ghh - c) + phh * ghl + phl * ghh) + phl * ghl) + pe * gh + 3 * p * gl;
  const cc = 134217729 * c, chh = cc - (cc - c), chl = c - chh;
  const c6 = c * SIXTH_HI;                               // g³/6 ≈ c6 + c6l
  const c6l = (((chh * SIXTH_HH - c6) + chh * SIXTH_HL + chl * SIXTH_HH) + chl * SIXTH_HL) + c * SIXTH_LO + cl * SIXTH_HI;
  const hp = 0.5 * p;
  const poly = 1 / 24 + gh * (1 / 120 + gh * (1 / 720 + gh * (1 / 5040 + gh * (1 / 40320 +
    gh * (1 / 362880 + gh * (1 / 3628800 + gh * (1 / 39916800 + gh * (1 / 479001600 +
    gh * (1 / 6227020800 + gh * (1 / 87178291200))))))))));
  const s1 = gh + hp;    // fast sums: |gh| ≥ g²/2 ≥ |s1|·g/6 ≥ |g³/6|
  const s2 = s1 + c6;
  const lo = ((hp - (s1 - gh)) + (c6 - (s2 - s1))) + (gl + (0.5 * pe + gh * gl) + c6l + p * p * poly);
  const h = s2 + lo;
  PW[7] = lo - (h - s2);
  PW[6] = h;
}

/** x^y (PW[0], PW[1]) into PW[2]: the work of `detPow` (see the calling convention above). */
function powCore(): void {
  const x = PW[0]!, y = PW[1]!;
  const ax = Math.abs(x), ay = Math.abs(y);
  let neg = false;
  // The common case (x > 0 finite, x ≠ 1, |y| ≤ 2^64 and none of the exact cases) by one test,
  // then the special values in ECMAScript's order (NaN and the exact cases first)
  if (!(x > 0 && x < Infinity && x !== 1 && ay <= 18446744073709551616 && y !== 0 && y !== 1 && y !== 2 && y !== -1 && y !== 0.5)) {   // 2^64; also y NaN
    if (y !== y) { PW[2] = Number.NaN; return; }
    if (y === 0) { PW[2] = 1; return; }
    if (x !== x) { PW[2] = Number.NaN; return; }
    if (y === 1) { PW[2] = x; return; }
    if (y === 2) { PW[2] = x * x; return; }
    if (ay === Infinity) { PW[2] = ax === 1 ? Number.NaN : (ax > 1) === (y > 0) ? Infinity : 0; return; }
    const yInt = Math.floor(y) === y;
    const yOdd = yInt && ay < 9007199254740992 && Math.floor(0.5 * y) !== 0.5 * y;
    if (x === 0) { PW[2] = y > 0 ? (yOdd ? x : 0) : (yOdd && 1 / x < 0 ? -Infinity : Infinity); return; }
    if (ax === Infinity) { PW[2] = y > 0 ? (yOdd && x < 0 ? -Infinity : Infinity) : (yOdd && x < 0 ? -0 : 0); return; }
    if (x < 0 && !yInt) { PW[2] = Number.NaN; return; }
    if (y === -1) { PW[2] = 1 / x; return; }
    if (y === 0.5) { PW[2] = Math.sqrt(x); return; }  // x > 0 here
    if (ax === 1) { PW[2] = yOdd ? x : 1; return; }
    neg = x < 0 && yOdd;
    if (ay > TWO_64) { const r = (ax > 1) === (y > 0) ? Infinity : 0; PW[2] = neg ? -r : r; return; }
  }
  // ax^y for a finite ax > 0, ax ≠ 1, and a finite y ≠ 0 with |y| ≤ 2^64
  // ln ax as a double-double lh + ll, relative error below about 2^−68: ax = 2^k·m with m in
  // [√2/2, √2) (subnormals scaled by 2^54 first); ln ax = k·ln 2 + ln m,
  // ln m = 2·atanh(s) = 2s + 2s·t·(1/3 + t/5 + t²·R(t)) with s = (m − 1)/(m + 1) (|s| ≤ 0.1716)
  // and t = s² as double-doubles and R(t) = Σ t^j/(2j + 7), j = 0..10, in double (its share of
  // ln m is below 2^−17; the truncation below 2^−58 of R). Written out here rather than called:
  // no slots, no call.
  let lh: number, ll: number;
  {
    let v = ax;
    let k = 0;
    if (v < TWO_M1022) { v *= TWO_54; k = -54; }
    BITS_F64[0] = v;
    const hw = BITS_I32[HI]!;
    // m = v·2^−e in [√2/2, √2): by an exact multiplication, not by writing the exponent field
    // (a 32-bit store under the 64-bit load of m stalls store-to-load forwarding). e is the
    // exponent plus 1 when the top mantissa bits exceed 0x6a09e (√2's), by the carry of adding
    // 0x100000 − 0x6a09f (>>>: the sum can pass 2^31): no branch, which random arguments
    // mispredict half the time
    const e = ((hw + 0x95f61) >>> 20) - 1023;
    k += e;
    const m = v * POW2_ALL[1074 - e]!;
    // s = (m − 1)/(m + 1): m − 1 is exact, m + 1 = bh + bl, then one correction of the quotient.
    // The exact sums and products (Knuth, Dekker) are written out, as in exp.ts: a `prodErr` call
    // that V8 leaves out of line allocates its double result.
    const a = m - 1;
    const bh = m + 1, bv = bh - m;
    const bl = (m - (bh - bv)) + (1 - bv);
    const sh = a / bh;
    const cs = 134217729 * sh, shh = cs - (cs - sh), shl = sh - shh;      // Veltkamp split of sh
    const cb = 134217729 * bh, bhh = cb - (cb - bh), bhl = bh - bhh;
    const p = sh * bh;
    const pe = ((shh * bhh - p) + shh * bhl + shl * bhh) + shl * bhl;
    const sl = (((a - p) - pe) - sh * bl) / bh;
    // t = s²
    const th = sh * sh;
    const tl = (((shh * shh - th) + shh * shl + shl * shh) + shl * shl) + 2 * sh * sl;
    const r = 1 / 7 + th * (1 / 9 + th * (1 / 11 + th * (1 / 13 + th * (1 / 15 + th * (1 / 17 + th * (1 / 19 +
      th * (1 / 21 + th * (1 / 23 + th * (1 / 25 + th * (1 / 27))))))))));
    // q = 1/3 + t/5 + t²·R
    const ct = 134217729 * th, thh = ct - (ct - th), thl = th - thh;      // split of th
    const f = th * FIFTH_HI;
    const fl = (((thh * FIFTH_HH - f) + thh * FIFTH_HL + thl * FIFTH_HH) + thl * FIFTH_HL) + th * FIFTH_LO + tl * FIFTH_HI;
    const qh = THIRD_HI + f;
    const ql = ((THIRD_HI - qh) + f) + (THIRD_LO + fl + th * th * r);
    // u = t·q, c = s·u
    const cq = 134217729 * qh, qhh = cq - (cq - qh), qhl = qh - qhh;
    const uh = th * qh;
    const ul = (((thh * qhh - uh) + thh * qhl + thl * qhh) + thl * qhl) + th * ql + tl * qh;
    const cu = 134217729 * uh, uhh = cu - (cu - uh), uhl = uh - uhh;
    const ch = sh * uh;
    const cl = (((shh * uhh - ch) + shh * uhl + shl * uhh) + shl * uhl) + sh * ul + sl * uh;
    // ln m / 2 = s + c
    const hh = sh + ch;
    const hl = (ch - (hh - sh)) + (sl + cl);
    const mh = hh + hl;
    const ml = hl - (mh - hh);
    if (k === 0) { lh = 2 * mh; ll = 2 * ml; } else {
      // + k·ln 2 (|k·ln 2| ≥ ln 2 > 2·|ln m / 2|, so the fast sum is exact)
      const ck = 134217729 * k, khh = ck - (ck - k), khl = k - khh;
      const kh = k * LN2_DD_HI;
      const kl = (((khh * LN2_DD_HH - kh) + khh * LN2_DD_HL + khl * LN2_DD_HH) + khl * LN2_DD_HL) + k * LN2_DD_LO;
      const sHi = kh + 2 * mh;
      const sLo = ((kh - sHi) + 2 * mh) + (kl + 2 * ml);
      lh = sHi + sLo;
      ll = sLo - (lh - sHi);
    }
  }
  const cy = 134217729 * y, yh = cy - (cy - y), yl = y - yh;
  const cl = 134217729 * lh, lhh = cl - (cl - lh), lhl = lh - lhh;
  const ph = y * lh;                                     // y·lh = ph + its error (Dekker)
  const pl = (((yh * lhh - ph) + yh * lhl + yl * lhh) + yl * lhl) + y * ll;
  const zh = ph + pl;
  const zl = pl - (zh - ph);
  if (zh > LN_OVERFLOW) { PW[2] = neg ? -Infinity : Infinity; return; }
  if (zh < LN_UNDERFLOW) { PW[2] = neg ? -0 : 0; return; }
  // n = Math.round(zh/ln 2), in [−1075, 1024]: rounded to even by adding and subtracting 1.5·2^52
  // (exact for |zq| < 2^51), and exact ties (zq − n is exact) moved up as Math.round does. Not
  // Math.round itself: V8 compiles it to a branch that random arguments mispredict half the time.
  // (For zq in [−0.5, 0] this gives +0 where Math.round gives −0; n only scales and offsets, and
  // the result is not zero, so its bits are the same.)
  const zq = zh * INV_LN2;
  let n = (zq + 6755399441055744) - 6755399441055744;
  if (zq - n === 0.5) n += 1;
  // g = z − n·ln 2 as a double-double: n·LN2_DD_HI = q + qe exactly and zh − q is exact (Sterbenz)
  const cn = 134217729 * n, nh = cn - (cn - n), nl = n - nh;
  const q = n * LN2_DD_HI;
  const qe = ((nh * LN2_DD_HH - q) + nh * LN2_DD_HL + nl * LN2_DD_HH) + nl * LN2_DD_HL;
  const gl0 = (zl - qe) - n * LN2_DD_LO;
  const ga = zh - q;
  const gh = ga + gl0, gv = gh - ga;
  PW[4] = gh; PW[5] = (ga - (gh - gv)) + (gl0 - gv);
  expm1DDk();
  const sh = PW[6]!, sl = PW[7]!;
  // 2^n·(1 + s) with 1 + s = hi + lo, |s| < 0.42
  const hi = 1 + sh;
  const lo = (sh - (hi - 1)) + sl;
  let r: number;
  if (n > -1021) r = n < 1024 ? (hi + lo) * POW2_ALL[n + 1074]! : (hi + lo) * POW2_ALL[1023 + 1074]! * 2;
  else {
    // Possibly subnormal: v = (hi + lo)·2^(n + 1022) exactly, then one rounding to a multiple of
    // 2^−52 (the subnormal spacing 2^−1074 after the final exact scaling by 2^−1022).
    const sc = POW2_ALL[n + 1022 + 1074]!;
    const vh = hi * sc, vl = lo * sc;
    if (vh > 1 || (vh === 1 && vl >= 0)) r = (hi + lo) * sc * TWO_M1022;
    else {
      const t = 1 + vh;
      r = ((t + ((vh - (t - 1)) + vl)) - 1) * TWO_M1022;
    }
  }
  PW[2] = neg ? -r : r;
}

/**
 * x^y (`Math.pow(x, y)`, `x ** y`) with the same bits on every engine, within 0.5 + 2^−5 ulp of
 * the exact value (measured max 0.5015 ulp; test/random/detmath-pow.test.ts) and with all
 * of ECMAScript's special cases: y NaN → NaN; y = ±0 → 1 (even for x NaN); x NaN → NaN;
 * |x| = 1 with y = ±∞ → NaN; ±0, ±∞ and negative x as Number::exponentiate specifies
 * (negative x: NaN unless y is an integer, negative for odd y). Exact fast paths: y = 1 → x,
 * y = 2 → x·x, y = −1 → 1/x, y = 0.5 → √x (each correctly rounded).
 *
 * Method (the double-double log/exp scheme of fdlibm's e_pow, here with natural logarithms):
 * ln |x| as a double-double (~2^−68 relative), z = y·ln |x| by an exact product, then
 * e^z = 2^n·e^g with n = round(z/ln 2) and g = z − n·ln 2 in double-double, e^g = 1 + expm1(g)
 * (`expm1DDk`), rounded once; results in the subnormal range are rounded once at their own
 * precision. |y| > 2^64 (with |x| ≠ 1) over- or underflows outright.
 *
 * @example
 * detPow(2, 0.5);   // 1.4142135623730951
 * detPow(-8, 3);    // -512
 */
export function detPow(x: number, y: number): number {
  PW[0] = x;
  PW[1] = y;
  powCore();
  return PW[2]!;
}
