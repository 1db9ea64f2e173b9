/**
 * Inverse trigonometric functions with the same bits on every engine: `detAtan`, `detAtan2`,
 * `detAsin`, `detAcos`.
 *
 * atan (fdlibm's s_atan.c method, Sun 1993; the code is stochax's own): |x| is reduced with
 * atan x = atan c + atan((x − c)/(1 + c·x)) for c in {1/2, 1, 3/2, ∞} by interval, atan c as a
 * double-double (mpmath), and atan t = t − t·(z·P(z²) + z²·Q(z²)) with z = t² and fdlibm's
 * 11-term odd polynomial (relative error 2^−57.6 on |t| ≤ 7/16, checked in constants.py). The
 * kernel accepts a low part of its argument (first-order term δ/(1 + x²)), which atan2 uses for
 * y/x as a double-double, and returns its result as an unevaluated sum so that π − atan(·) is
 * formed with one rounding.
 *
 * asin and acos (fdlibm's e_asin.c / e_acos.c rational approximation R(z) = z·P(z)/Q(z) of
 * (asin √z)/√z − 1 on z ≤ 1/4, relative error 2^−60.0): |x| < 1/2 directly; otherwise with
 * z = (1 − |x|)/2 (exact), s = √z as a double-double (s + (z − s²)/(2s)) and
 * asin |x| = π/2 − 2(s + s·R(z)), acos x = 2(s + s·R(z)) or π − 2(s + s·R(z)), the leading
 * differences by exact two-sums. Constants are literals in the code (V8 loads module constants
 * from memory); test/math/literals.test.ts checks each against src/math/constants.ts.
 */
import * as bits from './bits.js';
import * as pow from './pow.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { POW2_ALL, offHeapF64 } = bits;
const { prodErr } = pow;



const TWO_600 = POW2_ALL[600 + 1074]!;
const TWO_M600 = POW2_ALL[-600 + 1074]!;

/** The low part of the last `atanK` result (AL[0]) and of `sqrtDD` (AL[1]); typed-array slots allocate nothing. */
const AL = offHeapF64(2);

/**
 * atan(x + xl) for finite x ≥ 0 (|xl| ≤ ulp(x)), as hi (returned) + AL[0], unevaluated: hi is
 * either the reduced argument or atan c, AL[0] the rest.
 */
function atanK(x: number, xl: number): number {
  if (x >= 73786976294838210000) { AL[0] = 6.123233995736766e-17 /* PIO2_LO */; return 1.5707963267948966 /* PIO2_HI */; }
  if (x < 7.450580596923828e-9) { AL[0] = xl; return x; }  // 2^−27: atan x = x − x³/3
  // atan(x) = hi + base + (lo − t·P(t²)) + xl/(1 + x²) with t the reduced argument
  let t = x, hi = x, lo = 0, base = 0;
  if (x >= 0.4375) {
    if (x < 1.1875) {
      if (x < 0.6875) { t = (2 * x - 1) / (2 + x); hi = 0.4636476090008061 /* ATAN_HI_0 */; lo = 2.2698777452961687e-17 /* ATAN_LO_0 */; }
      else { t = (x - 1) / (x + 1); hi = 0.7853981633974483 /* ATAN_HI_1 */; lo = 3.061616997868383e-17 /* ATAN_LO_1 */; }
    } else if (x < 2.4375) { t = (x - 1.5) / (1 + 1.5 * x); hi = 0.982793723247329 /* ATAN_HI_2 */; lo = 1.3903311031230998e-17 /* ATAN_LO_2 */; }
    else { t = -1 / x; hi = 1.5707963267948966 /* PIO2_HI */; lo = 6.123233995736766e-17 /* PIO2_LO */; }
    base = t;
  }
  const z = t * t;
  const w = z * z;
  const s1 = z * (0.3333333333333293 + w * (0.14285714272503466 + w * (0.09090887133436507 + w * (0.06661073137387531 + w * (0.049768779946159324 + w * 0.016285820115365782)))));
  const s2 = w * (-0.19999999999876483 + w * (-0.11111110405462356 + w * (-0.0769187620504483 + w * (-0.058335701337905735 + w * -0.036531572744216916))));
  AL[0] = base - ((t * (s1 + s2) - lo) - (xl === 0 ? 0 : xl / (1 + x * x)));
  return hi;
}

/**
 * atan x (`Math.atan`) with the same bits on every engine, faithfully rounded.
 * atan(±0) = ±0, atan(±∞) = ±π/2 (rounded), NaN → NaN.
 *
 * @example
 * detAtan(1);          // 0.7853981633974483
 * detAtan(-Infinity);  // -1.5707963267948966
 */
export function detAtan(x: number): number {
  const ax = x < 0 ? -x : x;
  if (!(ax >= 7.450580596923828e-9)) return x;            // ±0, tiny, NaN
  const h = atanK(ax, 0);
  const r = h + AL[0]!;
  return x < 0 ? -r : r;
}

/**
 * atan2(y, x) (`Math.atan2`): the angle of the point (x, y), in [−π, π], with the same bits on
 * every engine, faithfully rounded, and all of ECMAScript's special cases for signed zeros and
 * infinities (atan2(±0, −0) = ±π, atan2(±0, +0) = ±0, atan2(±∞, −∞) = ±3π/4, …).
 *
 * y/x is formed as a double-double (quotient plus exact remainder, after a common power-of-two
 * scaling), so the division costs no accuracy; |y/x| < 2^−60 and > 2^66 are answered directly.
 *
 * @example
 * detAtan2(1, -1);    // 2.356194490192345
 * detAtan2(-0, -1);   // -3.141592653589793
 */
export function detAtan2(y: number, x: number): number {
  A2[0] = y;
  A2[1] = x;
  atan2Core();
  return A2[2]!;
}

/**
 * Slots of `atan2Core`: [0] y, [1] x, [2] the result. The calling convention of exp.ts: the work
 * is one function too large for V8 to inline, behind a `detAtan2` small enough to be inlined, so
 * that no double crosses a call (V8 boxes doubles passed to or returned from a call it did not inline).
 */
const A2 = offHeapF64(3);

/** atan2(A2[0], A2[1]) into A2[2]: the work of `detAtan2`. */
function atan2Core(): void {
  const y = A2[0]!, x = A2[1]!;
  if (x !== x || y !== y) { A2[2] = Number.NaN; return; }
  const ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  const neg = y < 0 || (y === 0 && 1 / y < 0);
  const xneg = x < 0 || (x === 0 && 1 / x < 0);
  let r: number;
  if (ay === 0) r = xneg ? 3.141592653589793 /* PI_HI */ : 0;
  else if (ax === Infinity) r = ay === Infinity ? (xneg ? 3 * 0.7853981633974483 /* PIO4_HI */ : 0.7853981633974483 /* PIO4_HI */) : (xneg ? 3.141592653589793 /* PI_HI */ : 0);
  else if (ay === Infinity || ax === 0) r = 1.5707963267948966 /* PIO2_HI */;
  else {
    const q0 = ay / ax;
    if (q0 > 73786976294838210000) r = 1.5707963267948966 /* PIO2_HI */;
    else if (q0 < 8.673617379884035e-19) r = xneg ? 3.141592653589793 /* PI_HI */ : q0;
    else {
      let sy = ay, sx = ax;
      if (sx > 1e300 || sy > 1e300) { sx *= TWO_M600; sy *= TWO_M600; }
      else if (sx < 1e-300 || sy < 1e-300) { sx *= TWO_600; sy *= TWO_600; }
      const th = sy / sx;
      const p = th * sx, pe = prodErr(th, sx, p);
      const tl = ((sy - p) - pe) / sx;
      const h = atanK(th, tl), l = AL[0]!;
      if (!xneg) r = h + l;
      else {
        const s = 3.141592653589793 /* PI_HI */ - h;
        const v = s - 3.141592653589793 /* PI_HI */;
        const se = (3.141592653589793 /* PI_HI */ - (s - v)) + (-h - v);
        r = s + (se + (1.2246467991473532e-16 /* PI_LO */ - l));
      }
    }
  }
  A2[2] = neg ? -r : r;
}

/** R(z) = z·P(z)/Q(z) ≈ asin(√z)/√z − 1 for 0 ≤ z ≤ 1/4. */
function asinR(z: number): number {
  const p = z * (0.16666666666666666 + z * (-0.3255658186224009 + z * (0.20121253213486293 + z * (-0.04005553450067941 + z * (0.0007915349942898145 + z * 3.479331075960212e-05)))));
  const q = 1 + z * (-2.403394911734414 + z * (2.0209457602335057 + z * (-0.6882839716054533 + z * 0.07703815055590194)));
  return p / q;
}

/** √z as sqrt + AL[1] (double-double), for z > 0. */
function sqrtDD(z: number): number {
  const s = Math.sqrt(z);
  const p = s * s, pe = prodErr(s, s, p);
  AL[1] = ((z - p) - pe) / (2 * s);
  return s;
}

/**
 * asin x (`Math.asin`) with the same bits on every engine, faithfully rounded.
 * asin(±0) = ±0, asin(±1) = ±π/2 (rounded), |x| > 1 and NaN → NaN.
 *
 * @example
 * detAsin(0.5);   // 0.5235987755982989
 * detAsin(1);     // 1.5707963267948966
 */
export function detAsin(x: number): number {
  const ax = x < 0 ? -x : x;
  if (!(ax <= 1)) return Number.NaN;
  if (ax < 1.4901161193847656e-8) return x;                 // 2^−26; ±0
  let r: number;
  if (ax < 0.5) return x + x * asinR(x * x);
  if (ax === 1) r = 1.5707963267948966 /* PIO2_HI */;
  else {
    const z = (1 - ax) * 0.5;
    const s = sqrtDD(z), sl = AL[1]!;
    const s2 = 2 * s;
    const a = 1.5707963267948966 /* PIO2_HI */ - s2;
    const v = a - 1.5707963267948966 /* PIO2_HI */;
    const ae = (1.5707963267948966 /* PIO2_HI */ - (a - v)) + (-s2 - v);
    r = a + (ae + (6.123233995736766e-17 /* PIO2_LO */ - 2 * (sl + s * asinR(z))));
  }
  return x < 0 ? -r : r;
}

/**
 * acos x (`Math.acos`) with the same bits on every engine, faithfully rounded.
 * acos(1) = +0, acos(−1) = π (rounded), |x| > 1 and NaN → NaN.
 *
 * @example
 * detAcos(0.5);   // 1.0471975511965979
 * detAcos(-1);    // 3.141592653589793
 */
export function detAcos(x: number): number {
  const ax = x < 0 ? -x : x;
  if (!(ax <= 1)) return Number.NaN;
  if (ax < 0.5) {
    if (ax < 2.7755575615628914e-17) return 1.5707963267948966 /* PIO2_HI */;      // 2^−55
    return 1.5707963267948966 /* PIO2_HI */ - (x - (6.123233995736766e-17 /* PIO2_LO */ - x * asinR(x * x)));
  }
  if (ax === 1) return x > 0 ? 0 : 3.141592653589793 /* PI_HI */;
  const z = (1 - ax) * 0.5;
  const s = sqrtDD(z), sl = AL[1]!;
  const tail = sl + s * asinR(z);
  if (x > 0) return 2 * (s + tail);
  const s2 = 2 * s;
  const a = 3.141592653589793 /* PI_HI */ - s2;
  const v = a - 3.141592653589793 /* PI_HI */;
  const ae = (3.141592653589793 /* PI_HI */ - (a - v)) + (-s2 - v);
  return a + (ae + (1.2246467991473532e-16 /* PI_LO */ - 2 * tail));
}
