/**
 * Inverse hyperbolic functions with the same bits on every engine: `detAsinh`, `detAcosh`,
 * `detAtanh`. Each forms the argument u of its logarithm as a double-double
 * (x + √(x² ± 1), or (1 + x)/(1 − x)) from exact products (Dekker) and sums (Knuth), then takes
 * ln u = ln u_hi + u_lo/u_hi with the log kernel of src/math/log.ts (about 2^−64 relative) and
 * rounds once; the error before that rounding is far below 2^−60 of the result, so the results
 * are faithfully rounded and almost always correctly rounded. acosh for x ≥ 4 gets its
 * double-double more cheaply, from the fixed point of u ↦ 2x − 1/u (within 2^−57 of u; measured
 * maximum 0.508 ulp there).
 */
import * as bits from './bits.js';
import * as log from './log.js';
import * as pow from './pow.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, SIGN, offHeapF64 } = bits;
const { lnPair, lnPlusLn2 } = log;
const { prodErr } = pow;

/**
 * √(qh + ql) + x as a normalised double-double, for ql in UL[0] (returned high part, low part
 * in UL[0]). ql comes in through the slot so that its store and load order its computation before
 * the square root: V8 compiles Math.sqrt to vsqrtsd, which merges into its destination register,
 * and scheduled ahead of ql the square root got a register last written by the previous call's
 * logarithm and waited for it (asinh about 20% slower in a loop).
 */
const UL = offHeapF64(1);
function sqrtPlus(qh: number, x: number): number {
  const ql = UL[0]!;
  const sh = Math.sqrt(qh);
  const p = sh * sh, pe = prodErr(sh, sh, p);
  const sl = (((qh - p) - pe) + ql) / (2 * sh);
  const uh = x + sh;
  const v = uh - x;
  const ue = (x - (uh - v)) + (sh - v);
  const ul = ue + sl;
  const h = uh + ul;
  UL[0] = ul - (h - uh);
  return h;
}

/**
 * asinh x (`Math.asinh`) = ln(x + √(x² + 1)) with the same bits on every engine, faithfully
 * rounded. asinh(±0) = ±0, asinh(±∞) = ±∞, NaN → NaN. |x| < 2^−26 gives x; |x| ≥ 2^28 uses
 * ln|x| + ln 2 (the neglected 1/(4x²) is below 2^−58).
 *
 * @example
 * detAsinh(1);       // 0.881373587019543
 * detAsinh(-1e300);  // -691.4686750787737
 */
export function detAsinh(x: number): number {
  const a = Math.abs(x);
  if (!(a >= 1.4901161193847656e-8 && a < Infinity)) return x;   // tiny, ±0, ±∞, NaN
  let r: number;
  if (a >= 268435456) r = lnPlusLn2(a);
  else {
    const ph = a * a, pl = prodErr(a, a, ph);
    const qh = 1 + ph;                               // x² + 1 = qh + ql (two-sum)
    const v = qh - 1;
    UL[0] = ((1 - (qh - v)) + (ph - v)) + pl;
    const h = sqrtPlus(qh, a);
    r = lnPair(h, UL[0]!);
  }
  BITS_F64[0] = x;
  return r * SIGN[BITS_I32[HI]! >>> 31]!;             // ±r without a branch on the sign
}

/**
 * acosh x (`Math.acosh`) = ln(x + √(x² − 1)) with the same bits on every engine, faithfully
 * rounded. acosh(1) = +0, acosh(+∞) = +∞, x < 1 and NaN → NaN. x ≥ 2^28 uses ln x + ln 2.
 * 4 ≤ x < 2^28: u = x + √(x² − 1) satisfies u + 1/u = 2x, so for h = x + √(x² − 1) rounded,
 * 2x − 1/h = u + (h − u)/(hu) is u to within 2^−57 (u ≥ 7.8) and h + l with l = (2x − h) − 1/h
 * is a double-double for it without exact products (measured maximum 0.508 ulp on [4, 8),
 * 0.502 on [8, 16), 0.5000 beyond; 0.2% of [4, 8) not correctly rounded). Below 4 that error
 * would reach 0.1 ulp, so there x² − 1 and its square root are exact double-doubles.
 *
 * @example
 * detAcosh(2);         // 1.3169578969248168
 * detAcosh(1 + 1e-15); // 4.7121609153872417e-8
 * detAcosh(10);        // 2.993222846126381
 */
export function detAcosh(x: number): number {
  if (!(x >= 1)) return Number.NaN;
  if (x === 1) return 0;
  if (x >= 268435456) return x === Infinity ? x : lnPlusLn2(x);
  let h: number;
  if (x >= 4) {
    // u + 1/u = 2x: h + l = 2x − 1/h (2x − h exact by Sterbenz). x² − 1 goes through the slot
    // so that the square root waits on it, not on a register the previous call's log last wrote
    UL[0] = x * x - 1;
    h = x + Math.sqrt(UL[0]!);
    UL[0] = (2 * x - h) - 1 / h;
  } else {
    const ph = x * x, pl = prodErr(x, x, ph);
    const qh = ph - 1;                               // x² − 1 = qh + ql
    const v = qh - ph;
    const qe = (ph - (qh - v)) + (-1 - v);
    UL[0] = qe + pl;
    h = sqrtPlus(qh, x);
  }
  return lnPair(h, UL[0]!);
}

/**
 * atanh x (`Math.atanh`) = ln((1 + x)/(1 − x))/2 with the same bits on every engine, faithfully
 * rounded. atanh(±0) = ±0, atanh(±1) = ±∞, |x| > 1 and NaN → NaN. |x| < 2^−28 gives x.
 *
 * @example
 * detAtanh(0.5);     // 0.5493061443340549
 * detAtanh(-1);      // -Infinity
 */
export function detAtanh(x: number): number {
  const a = Math.abs(x);
  if (!(a < 1)) return a === 1 ? x * Infinity : Number.NaN;
  if (a < 3.725290298461914e-9) return x;           // 2^−28; ±0
  // (1 + a)/(1 − a) as a double-double
  const nh = 1 + a;
  const nl = a - (nh - 1);                           // fast two-sum: 1 > a
  const dh = 1 - a;
  const dl = (1 - dh) - a;                           // fast two-sum
  const qh = nh / dh;
  const p = qh * dh, pe = prodErr(qh, dh, p);
  const ql = (((nh - p) - pe) + nl - qh * dl) / dh;
  const h = qh + ql;
  const r = 0.5 * lnPair(h, ql - (h - qh));
  BITS_F64[0] = x;
  return r * SIGN[BITS_I32[HI]! >>> 31]!;             // ±r without a branch on the sign
}
