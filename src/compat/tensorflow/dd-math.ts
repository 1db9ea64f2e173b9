/**
 * Correctly rounded (to within ~2^-68 relative before the final rounding) `log`, `sin` and `cos`
 * of doubles, in double-double arithmetic, for TF's float64 Box–Muller. TensorFlow calls glibc's
 * `log` and `sincos`, which are correctly rounded in all but ~0.1% of cases; V8's `Math.log`,
 * `Math.sin` and `Math.cos` (fdlibm, < 1 ulp) are wrongly rounded in 3–7% of them. Matching the
 * exact results makes float64 normals agree with TF bit for bit far more often (measured in
 * test/compat/tensorflow.test.ts).
 *
 * Method: log by x = 2^e·m, m = c·(1+t) with c = 1 + j/64 from a table of double-double
 * log(c), and log(m/c) = 2·atanh((m−c)/(m+c)); sin/cos by Cody–Waite reduction with a four-part
 * π/2 and a table of double-double sin/cos(j/64) plus short Taylor series. The tables are
 * computed at load by long double-double series. Domain: log on positive normal doubles;
 * sin/cos on |v| < 2^20 (Box–Muller uses [0, 2π)).
 */

const SPLIT = 134217729; // 2^27 + 1, Veltkamp's splitter

// Double-double results of the helpers below (module scratch: no allocation in the hot paths).
const R = new Float64Array(2); // [hi, lo]; a typed array, so writes never box a double

/** R[0] + R[1] = a + b exactly. */
function twoSum(a: number, b: number): void {
  const s = a + b;
  const bb = s - a;
  R[1] = (a - (s - bb)) + (b - bb);
  R[0] = s;
}

/** R[0] + R[1] = a + b exactly, for |a| >= |b|. */
function fastTwoSum(a: number, b: number): void {
  const s = a + b;
  R[1] = b - (s - a);
  R[0] = s;
}

/** R[0] + R[1] = a · b exactly (no overflow in our ranges). */
function twoProd(a: number, b: number): void {
  const p = a * b;
  let t = SPLIT * a;
  const ah = t - (t - a), al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b), bl = b - bh;
  R[1] = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  R[0] = p;
}

/** (ah, al) + (bh, bl), normalised into R. */
function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  twoSum(ah, bh);
  const s = R[0]!, e = R[1]! + al + bl;
  fastTwoSum(s, e);
}

/** (ah, al) · (bh, bl), normalised into R. */
function ddMul(ah: number, al: number, bh: number, bl: number): void {
  twoProd(ah, bh);
  const p = R[0]!, e = R[1]! + (ah * bl + al * bh);
  fastTwoSum(p, e);
}

/** (ah, al) / (bh, bl), normalised into R. */
function ddDiv(ah: number, al: number, bh: number, bl: number): void {
  const q1 = ah / bh;
  ddMul(q1, 0, bh, bl);
  const q2 = ((ah - R[0]!) - R[1]! + al) / bh; // residual a − q1·b (ah − R[0] is exact) over b
  fastTwoSum(q1, q2);
}

// ---------------------------------------------------------------------------------------------
// tables (computed once, by long series)

/** log(1 + j/64) for j in [-19, 27] as double-double, via 2·atanh(f), f = (c − 1)/(c + 1). */
const LOG_J0 = -19;
const LOG_HI = new Float64Array(47), LOG_LO = new Float64Array(47);
for (let j = LOG_J0; j <= 27; j++) {
  const c = 1 + j / 64;
  twoSum(c, 1);
  ddDiv(c - 1, 0, R[0]!, R[1]!);
  const fh = R[0]!, fl = R[1]!;
  ddMul(fh, fl, fh, fl);
  const f2h = R[0]!, f2l = R[1]!;
  let th = fh, tl = fl, sh = 0, sl = 0; // t = f^(2k+1)
  for (let k = 0; k < 40 && th !== 0; k++) {
    ddDiv(th, tl, 2 * k + 1, 0);
    ddAdd(sh, sl, R[0]!, R[1]!);
    sh = R[0]!; sl = R[1]!;
    ddMul(th, tl, f2h, f2l);
    th = R[0]!; tl = R[1]!;
    if (Math.abs(th) < 1e-40) break;
  }
  LOG_HI[j - LOG_J0] = 2 * sh;
  LOG_LO[j - LOG_J0] = 2 * sl;
}

/** sin(j/64) and cos(j/64) for j in [0, 51] as double-double, by Taylor series. */
const SIN_HI = new Float64Array(52), SIN_LO = new Float64Array(52);
const COS_HI = new Float64Array(52), COS_LO = new Float64Array(52);
for (let j = 0; j < 52; j++) {
  const x = j / 64;
  let th = 1, tl = 0; // x^k / k!
  let sh = 0, sl = 0, ch = 0, cl = 0;
  for (let k = 0; k < 40; k++) {
    const sign = (k >> 1) % 2 === 0 ? 1 : -1;
    if (k % 2 === 0) { ddAdd(ch, cl, sign * th, sign * tl); ch = R[0]!; cl = R[1]!; }
    else { ddAdd(sh, sl, sign * th, sign * tl); sh = R[0]!; sl = R[1]!; }
    ddMul(th, tl, x, 0);
    ddDiv(R[0]!, R[1]!, k + 1, 0);
    th = R[0]!; tl = R[1]!;
    if (th < 1e-40) break;
  }
  SIN_HI[j] = sh; SIN_LO[j] = sl; COS_HI[j] = ch; COS_LO[j] = cl;
}

const LN2_HI = 0.6931471805599453, LN2_LO = 2.3190468138462996e-17;
const SQRT2 = Math.SQRT2;
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** Index of the high (sign/exponent) word of a double in `u32`. */
const HI = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 1 : 0;
/** 2^-e for the exponents of positive normal doubles, e in [-1022, 1023]. */
const POW2_NEG = Float64Array.from({ length: 2046 }, (_, i) => 2 ** -(i - 1022));

/**
 * The natural logarithm of a positive normal double, correctly rounded but for ties closer than
 * ~2^-68 relative (Math.log is off by one ulp in ~7% of Box–Muller inputs).
 */
export function logCR(x: number): number {
  f64[0] = x;
  let e = ((u32[HI]! >>> 20) & 0x7ff) - 1023;
  let m = x * POW2_NEG[e + 1022]!; // exact: [1, 2)
  if (m > SQRT2) { m *= 0.5; e++; }
  const j = Math.round((m - 1) * 64);
  const c = 1 + j / 64;
  const a = m - c; // exact (Sterbenz)
  twoSum(m, c);
  // f = a / (m + c), |f| <= 1/181
  const bh = R[0]!, bl = R[1]!;
  const q1 = a / bh;
  twoProd(q1, bh);
  const fl0 = (((a - R[0]!) - R[1]!) - q1 * bl) / bh;
  fastTwoSum(q1, fl0);
  const fh = R[0]!, fl = R[1]!;
  const f2 = fh * fh;
  // 2·atanh(f) = 2f + 2f³(1/3 + f²/5 + f⁴/7 + f⁶/9): the tail is < 1e-5 of the result
  const tail = 2 * fh * f2 * (1 / 3 + f2 * (1 / 5 + f2 * (1 / 7 + f2 / 9)));
  fastTwoSum(2 * fh, 2 * fl + tail);
  const sh = R[0]!, sl = R[1]!;
  // e·ln2 + log(c) + s
  twoProd(e, LN2_HI);
  const eh = R[0]!, el = R[1]! + e * LN2_LO;
  ddAdd(eh, el, LOG_HI[j - LOG_J0]!, LOG_LO[j - LOG_J0]!);
  ddAdd(R[0]!, R[1]!, sh, sl);
  return R[0]! + R[1]!;
}

// π/2 in four parts: three of 33 bits (so n·P is exact for n < 2^20) and a 53-bit tail.
const P1 = 1.5707963267341256, P2 = 6.077100506303966e-11, P3 = 2.0222662487111665e-21, P4 = 8.4784276603689e-32;

/** sin and cos of the last `sinCosCR` call. */
export const sinCos = new Float64Array(2);

/**
 * sin(v) and cos(v) into `sinCos[0]`, `sinCos[1]`, each correctly rounded but for ties closer
 * than ~2^-68 relative. For |v| < 2^20.
 */
export function sinCosCR(v: number): void {
  const n = Math.round(v / (P1 + P2));
  // r = v − n·π/2 as a double-double
  const t = v - n * P1; // exact (Sterbenz, or n = 0)
  twoSum(t, -n * P2);
  twoSum(R[0]!, R[1]! - n * P3);
  let r0 = R[0]!, r1 = R[1]!;
  twoSum(r0, r1 - n * P4);
  r0 = R[0]!; r1 = R[1]!;
  // r = j/64 + d, |d| <= 1/128
  const j = Math.round(r0 * 64);
  const dh = r0 - j / 64; // exact
  const dl = r1;
  twoProd(dh, dh);
  const d2h = R[0]!, d2l = R[1]! + 2 * dh * dl;
  const d2 = d2h;
  // sin d = d + d³(−1/6 + d²/120 − d⁴/5040 + d⁶/362880); cos d = 1 − d²/2 + d⁴(1/24 − d²/720 + d⁴/40320)
  const sTail = dh * d2 * (-1 / 6 + d2 * (1 / 120 + d2 * (-1 / 5040 + d2 / 362880)));
  fastTwoSum(dh, dl + sTail);
  const sdh = R[0]!, sdl = R[1]!;
  const cTail = d2 * d2 * (1 / 24 + d2 * (-1 / 720 + d2 / 40320));
  fastTwoSum(1, -0.5 * d2h);
  fastTwoSum(R[0]!, R[1]! - 0.5 * d2l + cTail);
  const cdh = R[0]!, cdl = R[1]!;
  const aj = j < 0 ? -j : j, sg = j < 0 ? -1 : 1;
  const sjh = sg * SIN_HI[aj]!, sjl = sg * SIN_LO[aj]!, cjh = COS_HI[aj]!, cjl = COS_LO[aj]!;
  // sin r = sin(j/64)·cos d + cos(j/64)·sin d; cos r = cos(j/64)·cos d − sin(j/64)·sin d
  ddMul(sjh, sjl, cdh, cdl);
  let ah = R[0]!, al = R[1]!;
  ddMul(cjh, cjl, sdh, sdl);
  ddAdd(ah, al, R[0]!, R[1]!);
  const s = R[0]! + R[1]!;
  ddMul(cjh, cjl, cdh, cdl);
  ah = R[0]!; al = R[1]!;
  ddMul(sjh, sjl, sdh, sdl);
  ddAdd(ah, al, -R[0]!, -R[1]!);
  const c = R[0]! + R[1]!;
  switch (((n % 4) + 4) % 4) {
    case 0: sinCos[0] = s; sinCos[1] = c; break;
    case 1: sinCos[0] = c; sinCos[1] = -s; break;
    case 2: sinCos[0] = -s; sinCos[1] = -c; break;
    default: sinCos[0] = -c; sinCos[1] = s; break;
  }
}
