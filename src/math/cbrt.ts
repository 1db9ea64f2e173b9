/**
 * The cube root with the same bits on every engine: `detCbrt`.
 */
import * as bits from './bits.js';
import * as pow from './pow.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, POW2_ALL, SIGN } = bits;
const { prodErr } = pow;

const TWO_600 = POW2_ALL[600 + 1074]!;
const TWO_M600 = POW2_ALL[-600 + 1074]!;
const TWO_200 = POW2_ALL[200 + 1074]!;
const TWO_M200 = POW2_ALL[-200 + 1074]!;
/** ∛(2^rr) for rr = 0, 1, 2. */
const CBRT_2RR = new Float64Array([1, 1.2599210498948732, 1.5874010519681996]);
/**
 * CBRT_2E[e + 500] = ∛(2^rr)·2^q for e = 3q + rr, rr in {0, 1, 2}, |e| ≤ 500: the first guess's
 * factors as one table (exact products: 2^q only scales), rather than a division by 3 and two
 * lookups on the critical path. Multiplying by it gives the bits of multiplying by ∛(2^rr) and
 * then by 2^q.
 */
const CBRT_2E = new Float64Array(1001);
for (let e = -500; e <= 500; e++) {
  const q = Math.floor(e / 3);
  CBRT_2E[e + 500] = CBRT_2RR[e - 3 * q]! * POW2_ALL[q + 1074]!;
}

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
  const hw = BITS_I32[HI]!;
  const sgn = SIGN[hw >>> 31]!;
  let a = Math.abs(x);                              // exact; x ≠ 0 here
  let post = 1;
  let e = ((hw >>> 20) & 0x7ff) - 1023;              // a = 2^e·y, y in [1, 2), |e| ≤ 500 (after scaling)
  if (a > 3.273390607896142e150 || a < 3.054936363499605e-151) {           // 2^500, 2^−500
    if (a > 1) { a *= TWO_M600; post = TWO_200; } else { a *= TWO_600; post = TWO_M200; }
    BITS_F64[0] = a;
    e = (BITS_I32[HI]! >> 20) - 1023;
  }
  const y = a * POW2_ALL[1074 - e]!;                 // exact
  // ∛y by a quadratic (Chebyshev fit on [1, 2], error below 8e−4), times ∛2^rr·2^q
  let t = ((-0.05836172077613443 * y + 0.43356059182365825) * y + 0.625687226564147) * CBRT_2E[e + 500]!;
  const t3 = t * t * t;
  t = t * (t3 + 2 * a) / (2 * t3 + a);              // Halley: relative error below 2^−30
  const sq = t * t, sql = prodErr(t, t, sq);
  const c = sq * t, cl = prodErr(sq, t, c) + sql * t;
  const res = ((a - c) - cl) / (3 * sq);
  return (t + res) * (post * sgn);                  // ±post exact; rounding is symmetric in sign
}
