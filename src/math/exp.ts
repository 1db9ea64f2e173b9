/**
 * Exponentials with the same bits on every engine: `detExp`, `detExpm1`, `detSinh`, `detCosh`,
 * `detTanh`.
 *
 * Kernel (table-driven, after Tang 1989 and the ARM optimized-routines exp; the code is stochax's
 * own): x = k·(ln 2)/128 + r with k the integer nearest x·128/ln 2 and |r| ≤ (ln 2)/256, computed
 * as (x − k·C_hi) − k·C_lo where C_hi has 35 significant bits, so k·C_hi and the subtraction are
 * exact for |k| < 2^18 (|x| < 1400). Then e^x = 2^⌊k/128⌋ · 2^((k mod 128)/128) · e^r with
 * 2^(j/128) = T_hi[j] + T_lo[j] from a 128-entry table (mpmath, test/fixtures/detmath/constants.py)
 * and e^r − 1 = p(r) its Taylor polynomial to r⁶ (truncation below 2^−70). The unevaluated sum
 * T_hi + (T_lo + T_hi·p) carries e^x / 2^⌊k/128⌋ to about 2^−60 relative, so one rounding makes
 * `detExp` faithful (measured max ≈ 0.51 ulp), and sinh/cosh use the pair as a double-double.
 */
import * as bits from './bits.js';
import * as constants from './constants.js';
import * as pow from './pow.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, POW2_ALL, SIGN, offHeapF64 } = bits;
const { EXP_T_HI, EXP_T_LO } = constants;
const { PW_SLOTS: PW, expm1DDk } = pow;

const TWO_M1022 = POW2_ALL[-1022 + 1074]!;

// Calling convention. V8 boxes (allocates) a double passed to or returned from a call it did not
// inline, and a compiled model's gradient must not allocate. So every function here passes
// doubles through the typed-array slots KQ, and the work of the public functions is one large
// function, `expCore`, whose bytecode is over V8's per-function inlining limit (460 bytes;
// test/math/inlining.test.ts checks it): never inlined, it does not eat the callers' inlining
// budget, and each public function is a few bytes that V8 always inlines — storing the argument,
// calling the core, loading the result, with no double crossing a call. Constants inside the hot
// code are written as literals (named in a comment after each; a test checks them against
// src/math/constants.ts), because V8 loads module constants from memory.
/**
 * Slots: [0] q and [2] T_hi of `expKernel` (e^x = 2^kE · (KQ[2] + KQ[0])), also the input of
 * `scale`; [3] a result; [4] the argument. ([1] is unused.)
 */
const KQ = offHeapF64(5);
let kE = 0;

/** e^x = 2^kE · (KQ[2] + KQ[0]) for finite |x| < 1400 in KQ[4] (KQ[2] = T_hi[j]; |KQ[0]| < 0.006). */
function expKernel(): void {
  const x = KQ[4]!;
  // 1.5·2^52 added and subtracted: k·… rounded to an integer (ties to even)
  const kf = (x * 184.6649652337873 /* EXP_INV_LN2N */ + 6755399441055744) - 6755399441055744;
  const r = (x - kf * 0.005415212347998022 /* EXP_LN2N_HI */) - kf * 1.2655086083325438e-13 /* EXP_LN2N_LO */;
  const k = kf | 0;
  const j = k & 127;
  kE = k >> 7;
  const r2 = r * r;
  const p = r + r2 * (0.5 + r * (1 / 6)) + (r2 * r2) * (1 / 24 + r * (1 / 120) + r2 * (1 / 720));
  const t = EXP_T_HI[j]!;
  KQ[0] = EXP_T_LO[j]! + t * p;
  KQ[2] = t;
}

/** (hi + lo)·2^e for hi = KQ[2], lo = KQ[0] with hi + lo in [0.25, 4), rounding once also when the result is subnormal, into KQ[3]. */
function scale(e: number): void {
  const hi = KQ[2]!, lo = KQ[0]!;
  if (e > -1022 || (e === -1022 && hi + lo >= 1)) {
    KQ[3] = e <= 1023 ? (hi + lo) * POW2_ALL[e + 1074]! : (hi + lo) * 2 * POW2_ALL[e - 1 + 1074]!;
    return;
  }
  scaleSubnormal(e);
}

/** `scale` for results below 2^−1022 (a function of its own, to keep `scale` small to inline). */
function scaleSubnormal(e: number): void {
  if (e < -1080) { KQ[3] = 0; return; }
  // v = (hi + lo)·2^(e + 1022) < 1 exactly as a double-double; the result is v·2^−1022 rounded to a
  // multiple of 2^−1074, i.e. 1 + v rounded to a multiple of 2^−52, minus 1 (exact).
  const sc = POW2_ALL[e + 1022 + 1074]!;
  const vh = KQ[2]! * sc, vl = KQ[0]! * sc;
  const t = 1 + vh;
  KQ[3] = ((t + ((vh - (t - 1)) + vl)) - 1) * TWO_M1022;
}

const EXP = 0, EXPM1 = 1, SINH = 2, COSH = 3, TANH = 4;

/**
 * The public functions' work (see the calling convention above): op of KQ[4] into KQ[3]. All but
 * exp call `expKernel` from one place (one inlined copy: the inlining budget is shared by all the
 * ops). Dekker's exact products are written out rather than calls of `prodErr`: V8 inlines a call
 * only where it is frequent enough relative to all calls of the core, and `prodErr` left out of
 * line would allocate its double arguments and result (for tanh, say, in a model that mostly
 * calls exp).
 */
function expCore(op: number): void {
  const x = KQ[4]!;
  if (op === EXP) {
    if (!(x <= 709.782712893384)) { KQ[3] = x > 0 ? Infinity : Number.NaN; return; }
    if (!(x >= -746)) { KQ[3] = x < 0 ? 0 : Number.NaN; return; }
    expKernel();
    scale(kE);
    return;
  }
  const a = Math.abs(x);                                     // (−0 → +0: returned before use)
  const sinh = op === SINH;
  let w = x;                                                  // the kernel's argument
  if (op === EXPM1 && !(x > 709)) {                           // also NaN; above 709 as exp
    if (!(x > -38)) { KQ[3] = x === x ? -1 : Number.NaN; return; }
    if (a < 0.0625) {
      if (a < 5.551115123125783e-17) { KQ[3] = x; return; }   // 2^−54; ±0, subnormals
      // x + x²·(1/2 + x/6 + … + x⁹/11!): the tail is below |x|/30, the truncation below 2^−65·|x|
      const x2 = x * x;
      const x4 = x2 * x2;
      const q = 1 / 24 + x * (1 / 120) + x2 * (1 / 720 + x * (1 / 5040)) +
        x4 * (1 / 40320 + x * (1 / 362880) + x2 * (1 / 3628800 + x * (1 / 39916800)));
      KQ[3] = x + x2 * (0.5 + x * (1 / 6) + x2 * q);
      return;
    }
  } else if (op === EXPM1) {                                  // x > 709: as exp
    if (!(x <= 709.782712893384)) { KQ[3] = Infinity; return; }
  } else if (op === TANH) {
    if (!(a >= 7.450580596923828e-9)) { KQ[3] = x; return; }             // 2^−27; also ±0 and NaN
    if (a >= 22) { KQ[3] = x > 0 ? 1 : -1; return; }
    w = 2 * a;
  } else {
    if (!(a >= 1.4901161193847656e-8)) { KQ[3] = sinh ? x : a === a ? 1 : Number.NaN; return; }   // 2^−26; ±0, NaN
    if (!(a <= 710.4758600739439)) { KQ[3] = sinh ? x * Infinity : Infinity; return; }        // overflow, ±∞
    w = a;
  }
  // E = e^w − 1 = eh + el for expm1, sinh (w = a < 0.35) and tanh (w = 2a): by the series below
  // ln 2 / 2 (sinh: 0.35), else from the exp kernel
  let eh: number, el: number;
  if (op !== EXPM1 && op !== COSH && w < (sinh ? 0.35 : 0.34657359027997264)) {
    PW[4] = w; PW[5] = 0;
    expm1DDk();
    eh = PW[6]!; el = PW[7]!;
  } else {
    KQ[4] = w;
    expKernel();                                              // e^w = 2^kE·(T_hi + q)
    const t = KQ[2]!, q = KQ[0]!, e = kE;
    if (op === EXPM1 || op === TANH) {
      if (x > 709) { scale(e); return; }                      // expm1 (as exp)
      // 2^e·T_hi − 1 formed exactly by a two-sum (exact subtraction for |w| < ln 2), the small
      // terms added once
      const sc = POW2_ALL[e + 1074]!;
      const A = t * sc, b = q * sc;
      const s = A - 1;
      const bv = s - A;
      const se = ((A - (s - bv)) + (-1 - bv)) + b;
      eh = s + se;
      if (op === EXPM1) { KQ[3] = eh; return; }
      el = se - (eh - s);
    } else {
      // sinh, cosh: (e^a ± e^−a)/2 with e^a = 2^e·(h + l) and its reciprocal by a double-double division
      const h = t + q;
      const l = q - (h - t);
      let r: number;
      if (a > 40) {
        KQ[2] = h; KQ[0] = l;
        scale(e - 1);
        r = KQ[3]!;
      } else if (!sinh && a >= 4) {
        // cosh, 4 ≤ a ≤ 40: e^−a is below 3.4e−4·e^a, so its reciprocal rounded once and without
        // l (relative error ≤ 2^−52) moves the result by under 2^−63 of it: no exact product
        const sc = POW2_ALL[e + 1074]!;
        const A = h * sc, B = POW2_ALL[-e + 1074]! / h;
        const s = A + B;
        r = 0.5 * (s + ((B - (s - A)) + l * sc));             // fast two-sum: A ≥ B
      } else {
        // 1/(h + l) = qr + ql
        const qr = 1 / h;
        // qr·h = p + pe exactly: Dekker's product, written out (see above)
        const p = qr * h;
        const ca = 134217729 * qr, ah = ca - (ca - qr), al = qr - ah;
        const cb = 134217729 * h, bh = cb - (cb - h), bl = h - bh;
        const pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
        const ql = (((1 - p) - pe) - qr * l) * qr;
        const sc = POW2_ALL[e + 1074]!, isc = POW2_ALL[-e + 1074]!;
        const A = h * sc, B = qr * isc;
        if (sinh) {
          const s = A - B;
          const se = (A - s) - B;                             // exact: A ≥ 2B here (a ≥ 0.35)
          r = 0.5 * (s + (se + (l * sc - ql * isc)));
        } else {
          const s = A + B;
          const se = B - (s - A);                              // fast two-sum: A ≥ B
          r = 0.5 * (s + (se + (l * sc + ql * isc)));
        }
      }
      BITS_F64[0] = x;
      KQ[3] = sinh ? r * SIGN[BITS_I32[HI]! >>> 31]! : r;    // ±r without a branch on the sign
      return;
    }
  }
  // E / (E + c) = qh + ql by a double-double division, c = 1 (sinh) or 2 (tanh)
  const c = sinh ? 1 : 2;
  const dh = eh + c;
  const bv = dh - eh;
  const dl = ((eh - (dh - bv)) + (c - bv)) + el;              // two-sum
  const qh = eh / dh;
  const p = qh * dh;                                          // qh·dh = p + pe (Dekker)
  const ca = 134217729 * qh, ah = ca - (ca - qh), al = qh - ah;
  const cb = 134217729 * dh, bh = cb - (cb - dh), bl = dh - bh;
  const pe = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  const ql = ((((eh - p) - pe) + el) - qh * dl) / dh;
  let r: number;
  if (sinh) {
    // sinh a = (E + E/(E + 1))/2
    const s = eh + qh;
    const se = (qh - (s - eh)) + (el + ql);
    r = 0.5 * (s + se);
  } else r = qh + ql;                                         // tanh a = E/(E + 2)
  BITS_F64[0] = x;
  KQ[3] = r * SIGN[BITS_I32[HI]! >>> 31]!;                   // ±r without a branch on the sign
}

/**
 * e^x (`Math.exp`) with the same bits on every engine, faithfully rounded (≤ 1 ulp; measured
 * max ≈ 0.51 ulp, results in the subnormal range included). exp(±0) = 1, exp(+∞) = +∞,
 * exp(−∞) = +0, exp(NaN) = NaN; overflows to +∞ above 709.782712893384 and underflows to +0
 * below about −745.13.
 *
 * @example
 * detExp(1);      // 2.718281828459045
 * detExp(-745);   // 5e-324
 * detExp(710);    // Infinity
 */
export function detExp(x: number): number {
  KQ[4] = x;
  expCore(EXP);
  return KQ[3]!;
}

/**
 * e^x − 1 (`Math.expm1`) with the same bits on every engine, faithfully rounded and accurate near
 * 0. expm1(±0) = ±0, expm1(+∞) = +∞, expm1(−∞) = −1, NaN → NaN.
 *
 * |x| < 2^−54 gives x; |x| < 1/16 its Taylor series to x¹¹ (x plus a tail below |x|/30);
 * otherwise the exp kernel's 2^e·T_hi − 1 is formed exactly by a two-sum (exact subtraction for
 * |x| < ln 2) and the small terms are added once.
 *
 * @example
 * detExpm1(1e-10);   // 1.00000000005e-10
 * detExpm1(1);       // 1.7182818284590453 (correctly rounded; Node 20's Math.expm1 gives …045)
 */
export function detExpm1(x: number): number {
  KQ[4] = x;
  expCore(EXPM1);
  return KQ[3]!;
}

/**
 * sinh x (`Math.sinh`) with the same bits on every engine, faithfully rounded. sinh(±0) = ±0,
 * sinh(±∞) = ±∞, NaN → NaN; overflows to ±∞ for |x| > 710.4758600739439.
 *
 * |x| < 2^−26 gives x. For |x| < 0.35, E = e^|x| − 1 as a double-double and
 * sinh |x| = (E + E/(E + 1))/2 (no cancellation); otherwise (e^|x| − e^−|x|)/2 with e^|x| from
 * the exp kernel as a double-double and its reciprocal by a double-double division.
 *
 * @example
 * detSinh(1);      // 1.1752011936438014
 * detSinh(-1e-300); // -1e-300
 */
export function detSinh(x: number): number {
  KQ[4] = x;
  expCore(SINH);
  return KQ[3]!;
}

/**
 * cosh x (`Math.cosh`) with the same bits on every engine, faithfully rounded. cosh(±0) = 1,
 * cosh(±∞) = +∞, NaN → NaN; overflows to +∞ for |x| > 710.4758600739439.
 *
 * (e^|x| + e^−|x|)/2 with e^|x| from the exp kernel as a double-double and its reciprocal by a
 * double-double division (for |x| ≥ 4, where e^−|x| is below 3.4e−4 of e^|x|, by one rounded
 * division); |x| < 2^−26 gives 1.
 *
 * @example
 * detCosh(1);    // 1.5430806348152437
 * detCosh(-0);   // 1
 */
export function detCosh(x: number): number {
  KQ[4] = x;
  expCore(COSH);
  return KQ[3]!;
}

/**
 * tanh x (`Math.tanh`) with the same bits on every engine, faithfully rounded (see
 * test/math/accuracy.test.ts for the measured maximum); tanh(±0) = ±0, tanh(±∞) = ±1, NaN → NaN.
 * For |x| < 2^−27 it is x (the x³/3 term is below a quarter ulp); for |x| ≥ 22 it is ±1
 * (1 − tanh x < 2^−62). Otherwise tanh |x| = E / (E + 2), E = e^(2|x|) − 1 as a double-double, by a
 * double-double division rounded once: E = expm1(2|x|) by its series (`expm1DDk`) for 2|x| < ln 2 / 2,
 * else from the exp kernel's pair 2^k·(T_hi + q) (about 2^−60 relative) minus 1 by a two-sum —
 * E ≥ √2 − 1 there, so the subtraction at most triples that error.
 *
 * @example
 * detTanh(0.5);   // 0.46211715726000974
 * detTanh(-30);   // -1
 */
export function detTanh(x: number): number {
  KQ[4] = x;
  expCore(TANH);
  return KQ[3]!;
}
