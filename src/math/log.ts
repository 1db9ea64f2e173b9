/**
 * Logarithms with the same bits on every engine: `detLog`, `detLog1p`, `detLog2`, `detLog10`,
 * and `log1pDet`, the [−1, 0] log1p of the normal sampler (moved from src/random/detmath.ts, with
 * fdlibm's constants LG1..LG7, LN2_HI, LN2_LO that the WebAssembly kernels repeat).
 *
 * Method (table-driven, after Tang 1990 and the ARM optimized-routines log; the code is stochax's
 * own): x = 2^k·m with m in [0.70703125, 1.4140625); the high word picks one of 128 intervals of
 * m and its 9-bit reciprocal centre 1/c (exactly 1 on the two intervals touching 1); r = m/c − 1
 * is formed exactly from a 44-bit head of m plus a tail below 2^−44, and
 * ln x = k·ln 2 + ln c + log1p(r), |r| < 2^−7, with ln c from mpmath as a double-double
 * (test/fixtures/detmath/constants.py) and log1p(r) = r − r²/2 + … − r⁸/8. The pieces are added
 * with exact two-sums and rounded once: the error before that rounding is below about 2^−64 of
 * the result, so the results are faithfully rounded and almost always correctly rounded (no
 * division, and no loss near x = 1, where r = x − 1 exactly). log2 and log10 multiply ln m by
 * 1/ln 2 or 1/ln 10 as double-doubles and add k or k·log10 2 the same way.
 */
import * as bits from './bits.js';
import { LOG_C_HI, LOG_C_LO, LOG_INVC } from './constants.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, POW2_ALL, fromBits, offHeapF64 } = bits;

// fdlibm e_log.c / s_log1p.c constants (Lg1..Lg7 = Lp1..Lp7), given by their bit patterns.
export const LN2_HI = fromBits(0x3fe62e42, 0xfee00000); // 0.6931471803691238, 11 trailing zero bits
export const LN2_LO = fromBits(0x3dea39ef, 0x35793c76); // 1.9082149292705877e-10
export const LG1 = fromBits(0x3fe55555, 0x55555593);    // 0.6666666666666735
export const LG2 = fromBits(0x3fd99999, 0x9997fa04);    // 0.3999999999940942
export const LG3 = fromBits(0x3fd24924, 0x94229359);    // 0.2857142874366239
export const LG4 = fromBits(0x3fcc71c5, 0x1d8e78af);    // 0.22222198432149784
export const LG5 = fromBits(0x3fc74664, 0x96cb03de);    // 0.1818357216161805
export const LG6 = fromBits(0x3fc39a09, 0xd078c69f);    // 0.15313837699209373
export const LG7 = fromBits(0x3fc2f112, 0xdf3e5244);    // 0.14798198605116586

/** REDUCE_SCALE[e] = 2^(1023 − e): the scale 2^−k for the biased exponent e = k + 1023. */
export const REDUCE_SCALE = new Float64Array(1024);
for (let e = 0; e < 1024; e++) REDUCE_SCALE[e] = POW2_ALL[1023 - e + 1074]!;

/**
 * log(1 + x) for x in [−1, 0], within 1 ulp of the exact value (measured: max 0.80 ulp, mean
 * 0.25 ulp over 1e6 inputs; test/random/normal-det.test.ts), with the same bits on every engine.
 * log1pDet(±0) = ±0, log1pDet(−1) = −∞; x < −1, x > 0 and NaN give NaN.
 *
 * Method (fdlibm's s_log1p.c, Sun 1993, as restructured in musl): 1 + x = 2^k·(1 + f) with
 * 1 + f in [√2/2, √2) (approximately: k is read off the rounded 1 + x as fdlibm does, by adding
 * 0x3ff00000 − 0x3fe6a09e to its high word and taking the exponent field), then
 * log1p(x) = k·ln2 + log1p(f), log1p(f) = f − f²/2 + s·(f²/2 + R) with s = f/(2 + f) and
 * R(s²) = Lg1·s² + … + Lg7·s¹⁴ fdlibm's minimax polynomial (|error| < 2^−58.45 on the
 * reduced range); ln2 = LN2_HI + LN2_LO with k·LN2_HI exact.
 *
 * Unlike fdlibm, on this domain the reduced argument is exact and needs no correction term c:
 * with scale = 2^−k, f = x·scale + (scale − 1). For k = 0 that is x itself; for k = −1 it is
 * 1 + 2x with 2x in [−2, −0.5] (exact by Sterbenz's lemma); for k ≤ −2, x < −1/2, so 1 + x is
 * exact and f = (1 + x)·2^−k − 1 with (1 + x)·2^−k in [0.7, 1.5) is exact as well.
 *
 * @example
 * log1pDet(-0.5);   // -0.6931471805599453
 */
export function log1pDet(x: number): number {
  if (!(x < 0 && x > -1)) return x === 0 ? x : x === -1 ? -Infinity : Number.NaN; // ±0 -> ±0
  return log1pNeg(x);
}

/**
 * `log1pDet` for x in (−1, 0] without the domain check (x = −1 gives −1023·ln2, not −∞). The
 * wasm kernel performs exactly these operations; the exponent field of 1 + x (after the
 * high-word offset) is E = k + 1023.
 */
export function log1pNeg(x: number): number {
  BITS_F64[0] = 1 + x;
  const e = (BITS_I32[HI]! + 0x95f62) >> 20;
  const scale = REDUCE_SCALE[e]!;
  const k = e - 1023;
  const f = x * scale + (scale - 1);
  const hfsq = 0.5 * f * f;
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const r = t2 + t1;
  return k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f);
}


/**
 * Slots (the calling convention of exp.ts: no double crosses a call, and the public functions'
 * work is one function, `logCore`, too large for V8 to inline): [2] a result; [3] the argument
 * (overwritten by the kernel's v where that differs: log1p's 1 + x, a scaled argument); [4] a
 * second argument ([0] and [1] are unused).
 */
const LOGK = offHeapF64(5);
/**
 * The 32-bit words of LOGK: the kernel reads the high word of its argument in the slot the caller
 * stored it in, one store-to-load forwarding less on the critical path than a copy through BITS_F64.
 */
const LOGK_I32 = new Int32Array(LOGK.buffer);

/** LOG_TAB[4i], LOG_TAB[4i + 1], LOG_TAB[4i + 2] = LOG_INVC[i], LOG_C_HI[i], LOG_C_LO[i]: one table, one bounds check. */
const LOG_TAB = new Float64Array(512);
for (let i = 0; i < 128; i++) {
  LOG_TAB[4 * i] = LOG_INVC[i]!;
  LOG_TAB[4 * i + 1] = LOG_C_HI[i]!;
  LOG_TAB[4 * i + 2] = LOG_C_LO[i]!;
}

// Constants inside the hot functions are literals (named in a comment; test/math/literals.test.ts
// checks them against src/math/constants.ts and the exports above): V8 loads module constants
// from memory on every use.

// Numbered so that `detLog`, the most frequent, passes the fewest tests on op.
const LOG = 0, LOG2 = 1, LOG10 = 2, LOG1P = 3, LN_PAIR = 4, LN_PLUS_LN2 = 5;

/**
 * The public functions' work: op of LOGK[3] (and LOGK[4]) into LOGK[2], all through one copy of
 * the kernel below, with its results in locals (no slot traffic). Dekker's exact products are
 * written out rather than calls of `prodErr`: V8 inlines a call only where it is frequent enough
 * relative to all calls of the function, and `prodErr` left out of line would allocate its double
 * result.
 *
 * Kernel: ln m as an unevaluated double-double hi + lo for positive finite v = 2^k·m, m in
 * [0.70703125, 1.4140625): the interval of m (one of 128, by the high word; subnormal v scaled by
 * 2^54 first, huge v by 2^−64) gives c = 1/LOG_INVC[i], with LOG_INVC[i] a 9-bit number (exactly
 * 1 on the two intervals that touch 1), and ln m = −ln LOG_INVC[i] + log1p(r),
 * r = m·LOG_INVC[i] − 1, |r| < 2^−7. m is split into a 44-bit head and a tail of at most 9 bits
 * (Veltkamp's split, done on v before the exact scaling to m, with which it commutes), so both
 * parts of r are exact and r is m·LOG_INVC[i] − 1 rounded once, with its exact error;
 * log1p(r) = r + p(r), p(r) = −r²/2 + … − r⁸/8 (truncation below 2^−68), evaluated at r rounded
 * (its error is second order). The error before the final rounding is below about 2^−64 of ln m;
 * no division. ln x = k·ln 2 + (hi + lo) is then added with ln 2 = LN2_HI + LN2_LO (k·LN2_HI
 * exact), |hi| ≤ 0.35, so k·LN2_HI dominates when k ≠ 0.
 */
function logCore(op: number): void {
  const x = LOGK[3]!;
  let u = x, d = 0;                                        // log1p: 1 + x = u + d; ln pair: x + d
  if (op === LOG1P) {
    if (!(x > -1 && x < Infinity)) { LOGK[2] = x === -1 ? -Infinity : x === Infinity ? x : Number.NaN; return; }
    const ax = x < 0 ? -x : x;
    if (ax < 0.0078125) {
      if (ax < 5.551115123125783e-17) { LOGK[2] = x; return; }          // |x| < 2^−54; ±0
      const x2 = x * x;
      LOGK[2] = x + x2 * ((-0.5 + x * (1 / 3)) + x2 * ((-0.25 + x * 0.2) + x2 * ((-1 / 6 + x * (1 / 7)) + x2 * (-0.125 + x * (1 / 9)))));
      return;
    }
    u = 1 + x;
    LOGK[3] = u;                                           // the kernel reads its words there
    const bv = u - 1;
    d = (1 - (u - bv)) + (x - bv);                         // 1 + x = u + d exactly (two-sum)
  } else if (op === LN_PAIR) d = LOGK[4]!;
  // the kernel, on v = u, which is in [2^−1022, 2^1000] or scaled there (exactly: k compensates)
  // so that 513·v below neither loses bits nor overflows; one range test for the common case, and
  // log, log2 and log10's domain checked only outside it (log1p's u and the ln pair's x are positive)
  let v = u;
  let k = 0;
  if (!(v >= 2.2250738585072014e-308 && v <= 1.0715086071862673e301)) {   // 2^−1022, 2^1000; also NaN
    if (!(v > 0 && v < Infinity)) { LOGK[2] = x === 0 ? -Infinity : x === Infinity ? x : Number.NaN; return; }
    if (v < 1) { v *= 18014398509481984; k = -54; } else { v *= 5.421010862427522e-20; k = 64; }   // 2^54, 2^−64
    LOGK[3] = v;
  }
  const t = LOGK_I32[6 + HI]! - 0x3fe6a000;                // the high word of v = LOGK[3]
  const e = t >> 20;
  const i = (t >> 11) & 508;                        // 4 × the interval
  k += e;
  // m = v·2^−e is split as v itself (Veltkamp's split commutes with the exact scaling: vh = mh·2^e,
  // vl = ml·2^e) and the scaling goes into w = LOG_INVC[i]·2^−e, so the split does not wait for
  // the table lookups; vh·w = mh·LOG_INVC[i] and vl·w = ml·LOG_INVC[i] exactly
  const c = 513 * v;
  const vh = c - (c - v);                            // 44 significant bits
  const vl = v - vh;                                 // at most 9 significant bits
  const w = LOG_TAB[i]! * POW2_ALL[1074 - e]!;       // exact
  const rh = vh * w - 1;                             // exact
  const rl = vl * w;                                 // exact (at most 18 significant bits)
  const r = rh + rl;                                 // exact on the two intervals next to 1
  const rv = r - rh;
  const re = (rh - (r - rv)) + (rl - rv);            // rh + rl = r + re (two-sum)
  const r2 = r * r;
  const p = r2 * ((-0.5 + r * (1 / 3)) + r2 * ((-0.25 + r * 0.2) + r2 * ((-1 / 6 + r * (1 / 7)) - 0.125 * r2)));
  const ch = LOG_TAB[i + 1]!;
  const hi = ch + r;
  const hv = hi - ch;
  const he = (ch - (hi - hv)) + (r - hv);            // ch + r = hi + he (two-sum)
  const lo = ((he + LOG_TAB[i + 2]!) + re) + p;
  if (op !== LOG && op <= LOG10) {
    // ln m times 1/ln 2 or 1/ln 10 (cm + cml) as a double-double ph + pl, plus k or k·log10 2
    const cm = op === LOG2 ? 1.4426950408889634 /* INV_LN2_HI */ : 0.4342944819032518 /* INV_LN10_HI */;
    const cml = op === LOG2 ? 2.0355273740931033e-17 /* INV_LN2_LO */ : 1.098319650216765e-17 /* INV_LN10_LO */;
    const ph = hi * cm;
    const ca = 134217729 * hi, ah = ca - (ca - hi), al = hi - ah;
    const cc = 134217729 * cm, chh = cc - (cc - cm), chl = cm - chh;
    const pl = (((ah * chh - ph) + ah * chl + al * chh) + al * chl) + (hi * cml + lo * cm);
    if (k === 0) { LOGK[2] = ph + pl; return; }
    if (op === LOG2) {
      const s = k + ph;                                    // |k| ≥ 1 > |ph|
      LOGK[2] = s + ((ph - (s - k)) + pl);
      return;
    }
    const q = k * 0.3010299956639812 /* LOG10_2_HI53 */;
    const ck = 134217729 * k, kh = ck - (ck - k), kl = k - kh;
    const cq = 134217729 * 0.3010299956639812 /* LOG10_2_HI53 */, qhh = cq - (cq - 0.3010299956639812 /* LOG10_2_HI53 */);
    const qhl = 0.3010299956639812 /* LOG10_2_HI53 */ - qhh;
    const ql = (((kh * qhh - q) + kh * qhl + kl * qhh) + kl * qhl) + k * -2.8037281277851704e-18 /* LOG10_2_LO53 */;
    const s = q + ph;                                      // |q| ≥ 0.30 > |ph|
    LOGK[2] = s + ((ph - (s - q)) + (ql + pl));
    return;
  }
  // ln: log1p adds its rounding error d of 1 + x as d/u, the ln pair its low part d as d/x
  let lo2 = lo;
  if (op !== LOG) {
    if (op === LN_PLUS_LN2) k += 1;
    else lo2 = lo + (d === 0 ? 0 : d / u);
  }
  if (k === 0) { LOGK[2] = hi + lo2; return; }
  const a = k * 0.6931471803691238 /* LN2_HI */;    // exact: 11 trailing zero bits
  const s = a + hi;
  const err = hi - (s - a);
  LOGK[2] = s + (err + (lo2 + k * 1.9082149292705877e-10 /* LN2_LO */));
}

/**
 * The natural logarithm ln x (`Math.log`) with the same bits on every engine, faithfully
 * rounded and almost always correctly rounded (see test/math/accuracy.test.ts for the measured
 * maximum). log(±0) = −∞, log(x < 0) = NaN, log(+∞) = +∞, log(1) = +0, log(NaN) = NaN.
 *
 * @example
 * detLog(Math.E);        // 1
 * detLog(1 + 2 ** -52);  // 2.2204460492503128e-16
 * detLog(0);             // -Infinity
 */
export function detLog(x: number): number {
  LOGK[3] = x;
  logCore(LOG);
  return LOGK[2]!;
}

/**
 * log(1 + x) (`Math.log1p`) with the same bits on every engine, faithfully rounded over its
 * whole domain. log1p(±0) = ±0, log1p(−1) = −∞, log1p(x < −1) = NaN, log1p(+∞) = +∞.
 *
 * |x| < 2^−7: the series x − x²/2 + … + x⁹/9 (the tail beyond x is below |x|/256). Otherwise
 * u = 1 + x goes through the log kernel and its rounding error e = (1 + x) − u (exact, by
 * Knuth's two-sum) is added back as e/u before the final rounding.
 *
 * @example
 * detLog1p(1e-20);   // 1e-20
 * detLog1p(-0.5);    // -0.6931471805599453
 */
export function detLog1p(x: number): number {
  LOGK[3] = x;
  logCore(LOG1P);
  return LOGK[2]!;
}

/**
 * log₂ x (`Math.log2`) with the same bits on every engine, faithfully rounded; exact for powers
 * of two. Special values as `detLog`. log₂ x = k + ln m · (1/ln 2), the product as a
 * double-double.
 *
 * @example
 * detLog2(8);      // 3
 * detLog2(0.1);    // -3.321928094887362
 */
export function detLog2(x: number): number {
  LOGK[3] = x;
  logCore(LOG2);
  return LOGK[2]!;
}

/**
 * log₁₀ x (`Math.log10`) with the same bits on every engine, faithfully rounded. Special
 * values as `detLog`. log₁₀ x = k·log₁₀ 2 + ln m · (1/ln 10) in double-double arithmetic.
 *
 * @example
 * detLog10(1000);   // 3
 * detLog10(2);      // 0.3010299956639812
 */
export function detLog10(x: number): number {
  LOGK[3] = x;
  logCore(LOG10);
  return LOGK[2]!;
}

/**
 * ln(h + l) rounded once, for a normalised double-double h + l with h positive finite and
 * |l| ≤ ulp(h): the log kernel on h plus l/h (the first-order term of log1p(l/h)). For the
 * inverse hyperbolic functions.
 */
export function lnPair(h: number, l: number): number {
  LOGK[3] = h;
  LOGK[4] = l;
  logCore(LN_PAIR);
  return LOGK[2]!;
}

/** ln x + ln 2 rounded once, for finite x ≥ 2^28 (asinh and acosh of large arguments). */
export function lnPlusLn2(x: number): number {
  LOGK[3] = x;
  logCore(LN_PLUS_LN2);
  return LOGK[2]!;
}
