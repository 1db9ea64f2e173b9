/**
 * The cube root with the same bits on every engine: `detCbrt`.
 */
import { BITS_F64, BITS_I32, HI, POW2_ALL, SIGN } from './bits.js';
import { DD, twoProd } from './pow.js';

const TWO_600 = POW2_ALL[600 + 1074]!;
const TWO_M600 = POW2_ALL[-600 + 1074]!;
const TWO_200 = POW2_ALL[200 + 1074]!;
const TWO_M200 = POW2_ALL[-200 + 1074]!;
/** ∛(2^rr) for rr = 0, 1, 2: a table rather than branches on rr, which random inputs mispredict. */
const CBRT_2RR = new Float64Array([1, 1.2599210498948732, 1.5874010519681996]);

/**
 * ∛x (`Math.cbrt`) with the same bits on every engine, faithfully rounded (in practice almost
 * always correctly rounded). cbrt(±0) = ±0, cbrt(±∞) = ±∞, NaN → NaN, cbrt(−x) = −cbrt(x).
 *
 * Method: |x| is scaled by 2^±600 into [2^−500, 2^500] (exact; subnormals included); a first
 * guess is 2^⌊e/3⌋·∛2^(e mod 3)·g(y) for a = 2^e·y with g a quadratic fit of ∛y on [1, 2]
 * (within 8e−4); one Halley step t ← t·(t³ + 2a)/(2t³ + a) brings it below 2^−30; then one Newton step
 * with the exact residual a − t³ (t³ as an exact double-double by Dekker's products) and a single
 * final rounding of t + (a − t³)/(3t²).
 *
 * @example
 * detCbrt(27);     // 3
 * detCbrt(-2);     // -1.2599210498948732
 */
export function detCbrt(x: number): number {
  if (!(x !== 0 && x - x === 0)) return x;          // ±0, ±∞, NaN
  BITS_F64[0] = x;
  const sgn = SIGN[BITS_I32[HI]! >>> 31]!;
  let a = Math.abs(x);                              // exact; x ≠ 0 here
  let post = 1;
  if (a > 3.273390607896142e150) { a *= TWO_M600; post = TWO_200; }       // 2^500
  else if (a < 3.054936363499605e-151) { a *= TWO_600; post = TWO_M200; } // 2^−500
  BITS_F64[0] = a;
  const e = (BITS_I32[HI]! >> 20) - 1023;            // a = 2^e·y, y in [1, 2), |e| ≤ 500
  const q = (((e + 1500) / 3) | 0) - 500;            // ⌊e/3⌋
  const rr = e - 3 * q;
  const y = a * POW2_ALL[1074 - e]!;                 // exact
  // ∛y by a quadratic (Chebyshev fit on [1, 2], error below 8e−4), times ∛2^rr and 2^q
  let t = ((-0.05836172077613443 * y + 0.43356059182365825) * y + 0.625687226564147) *
    CBRT_2RR[rr]! * POW2_ALL[q + 1074]!;
  const t3 = t * t * t;
  t = t * (t3 + 2 * a) / (2 * t3 + a);              // Halley: relative error below 2^−30
  const sq = twoProd(t, t), sql = DD[0]!;
  const c = twoProd(sq, t), cl = DD[0]! + sql * t;
  const res = ((a - c) - cl) / (3 * sq);
  return (t + res) * (post * sgn);                  // ±post exact; rounding is symmetric in sign
}
