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
import { POW2_ALL } from './bits.js';
import { EXP_T_HI, EXP_T_LO } from './constants.js';
import { DD, expm1DD, twoProd, twoSum } from './pow.js';

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
 * Slots: [0] q and [2] T_hi of `expKernel` (e^x = 2^kE · (KQ[2] + KQ[0])); [1] the low part of
 * `expDD`; [3] a result; [4] the argument; [5] the high part of `expDD`.
 */
const KQ = new Float64Array(6);
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
  if (e < -1080) { KQ[3] = 0; return; }
  // v = (hi + lo)·2^(e + 1022) < 1 exactly as a double-double; the result is v·2^−1022 rounded to a
  // multiple of 2^−1074, i.e. 1 + v rounded to a multiple of 2^−52, minus 1 (exact).
  const sc = POW2_ALL[e + 1022 + 1074]!;
  const vh = hi * sc, vl = lo * sc;
  const t = 1 + vh;
  KQ[3] = ((t + ((vh - (t - 1)) + vl)) - 1) * TWO_M1022;
}

/** e^a (a in KQ[4]) as a double-double times 2^kE: high part in KQ[5], low part in KQ[1] (normalised). */
function expDD(): void {
  expKernel();
  const t = KQ[2]!, q = KQ[0]!;
  const h = t + q;
  KQ[1] = q - (h - t);
  KQ[5] = h;
}

const EXP = 0, EXPM1 = 1, SINH = 2, COSH = 3, TANH = 4;

/** The public functions' work (see the calling convention above): op of KQ[4] into KQ[3]. */
function expCore(op: number): void {
  const x = KQ[4]!;
  switch (op) {
    case EXP: {
      if (!(x <= 709.782712893384)) { KQ[3] = x > 0 ? Infinity : Number.NaN; return; }
      if (!(x >= -746)) { KQ[3] = x < 0 ? 0 : Number.NaN; return; }
      expKernel();
      scale(kE);
      return;
    }
    case EXPM1: {
      if (!(x > -38)) { KQ[3] = x === x ? -1 : Number.NaN; return; }
      if (x > 709) {
        if (!(x <= 709.782712893384)) { KQ[3] = Infinity; return; }
        expKernel();
        scale(kE);
        return;
      }
      const ax = x < 0 ? -x : x;
      if (ax < 0.0625) {
        if (ax < 5.551115123125783e-17) { KQ[3] = x; return; }   // 2^−54; ±0, subnormals
        // x + x²·(1/2 + x/6 + … + x⁹/11!): the tail is below |x|/30, the truncation below 2^−65·|x|
        const x2 = x * x;
        const x4 = x2 * x2;
        const q = 1 / 24 + x * (1 / 120) + x2 * (1 / 720 + x * (1 / 5040)) +
          x4 * (1 / 40320 + x * (1 / 362880) + x2 * (1 / 3628800 + x * (1 / 39916800)));
        KQ[3] = x + x2 * (0.5 + x * (1 / 6) + x2 * q);
        return;
      }
      expKernel();
      const t = KQ[2]!;
      const sc = POW2_ALL[kE + 1074]!;
      const a = t * sc, b = KQ[0]! * sc;
      const s = a - 1;
      const bv = s - a;
      const se = (a - (s - bv)) + (-1 - bv);
      KQ[3] = s + (se + b);
      return;
    }
    case SINH: {
      const a = x < 0 ? -x : x;
      if (!(a >= 1.4901161193847656e-8)) { KQ[3] = x; return; }            // 2^−26; ±0, NaN
      if (!(a <= 710.4758600739439)) { KQ[3] = x * Infinity; return; }     // overflow, ±∞
      let r: number;
      if (a < 0.35) {
        const eh = expm1DD(a, 0), el = DD[0]!;
        const dh = eh + 1;                                    // E + 1 = dh + dl
        const dl = (eh - (dh - 1)) + el;                      // fast two-sum: 1 > E
        const qh = eh / dh;
        const p = twoProd(qh, dh), pe = DD[0]!;
        const ql = (((eh - p) - pe) + el - qh * dl) / dh;
        const s = eh + qh;
        const se = (qh - (s - eh)) + (el + ql);
        r = 0.5 * (s + se);
      } else {
        KQ[4] = a;
        expDD();
        const h = KQ[5]!, l = KQ[1]!, e = kE;
        if (a > 40) {
          KQ[2] = h; KQ[0] = l;
          scale(e - 1);
          r = KQ[3]!;
        } else {
          // 1/(h + l) = q + ql
          const q = 1 / h;
          const p = twoProd(q, h), pe = DD[0]!;
          const ql = (((1 - p) - pe) - q * l) * q;
          const sc = POW2_ALL[e + 1074]!, isc = POW2_ALL[-e + 1074]!;
          const A = h * sc, B = q * isc;
          const s = A - B;
          const se = (A - s) - B;                             // exact: A ≥ 2B here (a ≥ 0.35)
          r = 0.5 * (s + (se + (l * sc - ql * isc)));
        }
      }
      KQ[3] = x < 0 ? -r : r;
      return;
    }
    case COSH: {
      const a = x < 0 ? -x : x;
      if (!(a >= 1.4901161193847656e-8)) { KQ[3] = a === a ? 1 : Number.NaN; return; }
      if (!(a <= 710.4758600739439)) { KQ[3] = Infinity; return; }
      KQ[4] = a;
      expDD();
      const h = KQ[5]!, l = KQ[1]!, e = kE;
      if (a > 40) { KQ[2] = h; KQ[0] = l; scale(e - 1); return; }
      const q = 1 / h;
      const p = twoProd(q, h), pe = DD[0]!;
      const ql = (((1 - p) - pe) - q * l) * q;
      const sc = POW2_ALL[e + 1074]!, isc = POW2_ALL[-e + 1074]!;
      const A = h * sc, B = q * isc;
      const s = A + B;
      const se = B - (s - A);                                  // fast two-sum: A ≥ B
      KQ[3] = 0.5 * (s + (se + (l * sc + ql * isc)));
      return;
    }
    default: {                                                 // TANH
      const a = x < 0 ? -x : x;
      if (!(a >= 7.450580596923828e-9)) { KQ[3] = x; return; }             // 2^−27; also ±0 and NaN
      if (a >= 22) { KQ[3] = x > 0 ? 1 : -1; return; }
      const w = 2 * a;
      let eh: number, el: number;
      if (w < 0.34657359027997264) {                          // ln 2 / 2
        eh = expm1DD(w, 0); el = DD[0]!;
      } else {
        KQ[4] = w;
        expKernel();
        const sc = POW2_ALL[kE + 1074]!;
        const s = twoSum(KQ[2]! * sc, -1), se = DD[0]! + KQ[0]! * sc;
        eh = s + se;
        el = se - (eh - s);
      }
      // E / (E + 2)
      const dh = twoSum(eh, 2);
      const dl = DD[0]! + el;
      const qh = eh / dh;
      const p = twoProd(qh, dh), pe = DD[0]!;
      const ql = ((((eh - p) - pe) + el) - qh * dl) / dh;
      const t = qh + ql;
      KQ[3] = x > 0 ? t : -t;
    }
  }
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
 * double-double division; |x| < 2^−26 gives 1.
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
 * double-double division rounded once: E = expm1(2|x|) by its series (`expm1DD`) for 2|x| < ln 2 / 2,
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
