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
 *     ⌊2/π·2^1280⌋ (a 1280-bit constant from mpmath) in exact integer arithmetic (24-bit chunks
 *     in doubles) gives n mod 4 and 128 bits of the fraction x·2/π − n, |fraction| ≤ 1/2, which
 *     times π/2 (double-double) is r. The arithmetic is exact, so this path is engine-independent
 *     too (and gives the bits of the BigInt reduction it replaced).
 * Kernels on |r| ≤ π/4: fdlibm's __kernel_sin / __kernel_cos polynomials (their coefficients S1..S6,
 * C1..C6 written as literals in the code, since V8 loads module constants from memory) (Sun 1993; relative
 * approximation error 2^−57.9 and 2^−59.3, checked in constants.py), including the first-order
 * effect of r_lo. tan = sin/cos (or −cos/sin) from the unrounded kernel sums by a double-double
 * division, rounded once.
 */
import * as bits from './bits.js';
import * as constants from './constants.js';

// Local constants for the imports the hot code reads (see src/math/bits.ts).
const { BITS_F64, BITS_I32, HI, LO, POW2_ALL, SIGN, offHeapF64 } = bits;
const { PIO2_HI, TWO_OVER_PI_1280 } = constants;

const MEDIUM = 1647099.3291652855;  // just below 2^20·π/2
const TWO_M128 = POW2_ALL[-128 + 1074]!;
const TWO_72 = POW2_ALL[72 + 1074]!;
/** Veltkamp's split of PIO2_HI (PIO2_HH + PIO2_HL), as Dekker's product splits it. */
const PIO2_HH = 134217729 * PIO2_HI - (134217729 * PIO2_HI - PIO2_HI), PIO2_HL = PIO2_HI - PIO2_HH;

/** The reduced argument r = RED[0] + RED[1] of `reduceLarge`, and of `trigCore` for `tanKernel` (a typed array: no allocation). */
const RED = offHeapF64(2);

/**
 * C = ⌊2/π·2^1280⌋ in 24-bit chunks, C24[i + 4] = ⌊C/2^(24i)⌋ mod 2^24 for i = 0..53, with four
 * zero chunks either side so that every window `reduceLarge` reads is in bounds. Chunks of 24 bits
 * keep every product of two chunks (48 bits) and every sum of a few of them exact in doubles.
 */
const C24 = new Float64Array(62);
for (let i = 0; i < 54; i++) C24[i + 4] = Number((TWO_OVER_PI_1280 >> BigInt(24 * i)) & 0xffffffn);
/** M24[j]: the 24-bit chunks of m·2^(24 − b) in `reduceLarge` (below 2^77, so four chunks). */
const M24 = offHeapF64(4);
/** G24[i + 3]: chunk i (bits 24i .. 24i + 23) of the fraction in `reduceLarge` (i = 0..5), with three zero chunks below. */
const G24 = new Float64Array(9);

/** Chunk k of the product m·2^(24 − b)·C before carries: Σ_j M24[j]·C24[k − j + 4] (exact, below 2^50). */
function chunkProduct(k: number): number {
  return M24[0]! * C24[k + 4]! + M24[1]! * C24[k + 3]! + M24[2]! * C24[k + 2]! + M24[3]! * C24[k + 1]!;
}

/**
 * The carry into chunk a + 1 from chunks lo..a of m·2^(24 − b)·C (an integer below 2^27), or −1
 * when lo > 0 and the chunks below lo might still add one to it: they add less than 2^26 to
 * chunks a − 1 and a taken as one 48-bit number, so only a remainder within 2^26 of 2^48 (chunk
 * a, after its carry out, ≥ 2^24 − 5) is in doubt, about once in 3·10^6; `reduceLarge` then
 * takes all the chunks.
 */
function carryInto(lo: number, a: number): number {
  let c = 0, v = 0;
  for (let k = lo; k <= a; k++) { v = chunkProduct(k) + c; c = Math.floor(v * 5.960464477539063e-8); }  // 2^−24
  return lo > 0 && v - c * 16777216 >= 16777211 ? -1 : c;
}

/**
 * Payne–Hanek reduction for finite |x| ≥ 2^20·π/2, in exact integer arithmetic on doubles (24-bit
 * chunks): x = m·2^e with m a 53-bit integer, and N = ⌊m·C / 2^s⌋ for C = ⌊2/π·2^1280⌋ and
 * s = 1152 − e gives n mod 4 (bits 128–129 of N) and the fraction x·2/π − n as a 128-bit integer
 * f (bits 0–127, taken in [−2^127, 2^127)). With s = 24a + b, N = ⌊m·2^(24 − b)·C / 2^24(a + 1)⌋:
 * chunks a + 1 .. a + 6 of that product, plus the carry from the chunks below (two of them, or all
 * when those two leave it in doubt). f then becomes fh + fl, fh = f rounded to the nearest double
 * and fl = f − fh rounded, and r = (fh + fl)·2^−128·π/2 as a double-double.
 */
function reduceLarge(): number {
  const x = TQ[0]!;                                        // the argument of `trigCore` (a slot: a double argument would be boxed)
  BITS_F64[0] = x;
  const hw = BITS_I32[HI]!;
  const s = 2227 - ((hw >>> 20) & 0x7ff);                 // 1152 − e, e = biased exponent − 1075; s in [181, 1184]
  const a = (s / 24) | 0;
  const m = ((hw & 0xfffff) | 0x100000) * 4294967296 + (BITS_I32[LO]! >>> 0);   // exact: 53 bits
  // m·2^(24 − b) (exact, below 2^77) in 24-bit chunks
  let v = m * POW2_ALL[24 * a + 24 - s + 1074]!;
  const m3 = Math.floor(v * 2.117582368135751e-22);      // 2^−72
  v -= m3 * TWO_72;                                       // exact: the bits of m that remain
  const m2 = Math.floor(v * 3.552713678800501e-15);       // 2^−48
  v -= m2 * 281474976710656;
  const m1 = Math.floor(v * 5.960464477539063e-8);        // 2^−24
  M24[0] = v - m1 * 16777216; M24[1] = m1; M24[2] = m2; M24[3] = m3;
  let c = carryInto(a - 1, a);
  if (c < 0) c = carryInto(0, a);
  for (let i = 0; i < 6; i++) {
    const w = chunkProduct(a + 1 + i) + c;
    c = Math.floor(w * 5.960464477539063e-8);
    G24[i + 3] = w - c * 16777216;
  }
  const top = G24[8]! | 0;                                 // bits 120–143 of N
  let n = (top >> 8) & 3;
  let sgn = 1;
  if (top & 128) {
    // f ≥ 2^127: f − 2^128 and n + 1; |f| = 2^128 − f by a subtraction with borrows
    sgn = -1;
    n += 1;
    let b = 0;
    for (let i = 3; i < 8; i++) {
      const d = -G24[i]! - b;
      b = d < 0 ? 1 : 0;
      G24[i] = d + b * 16777216;
    }
    G24[8] = 256 - (top & 255) - b;
  } else G24[8] = top & 255;
  // |f| to the nearest double, ties to even (as Number(BigInt) rounds): with t the top nonzero
  // chunk, A + B = its top four chunks scaled by 2^−24(t − 3), an integer of at least 73 bits (A, B
  // exact), and the chunks below it (at most two: `rest`, exact) as a sticky 1/2 added to B. The
  // rounding boundaries of a 73-bit integer are integers, so A + (B + sticky) rounds exactly as
  // |f|·2^−24(t − 3) does.
  let t = 8;
  while (t > 3 && G24[t] === 0) t--;
  const A = (G24[t]! * 16777216 + G24[t - 1]!) * 281474976710656;    // 2^24, 2^48: exact
  const B = G24[t - 2]! * 16777216 + G24[t - 3]!;
  const rest = t === 8 ? G24[4]! * 16777216 + G24[3]! : t === 7 ? G24[3]! : 0;
  const H = A + (B + (rest === 0 ? 0 : 0.5));
  const sc = POW2_ALL[24 * t - 144 + 1074]!;                           // 2^24(t − 6)
  const gh = H * sc;                                                     // exact scaling
  // |f| − gh = E·sc + rest, E exact (A ≤ H ≤ 2A: Sterbenz; then integers below 2^50), and
  // E·sc + rest of two exact doubles rounds once: fl = Number(f − fh)
  const E = (A - H) + B;
  const gl = E * sc + rest;
  const fh = sgn < 0 ? -gh : gh;
  const fl = sgn < 0 ? 0 - gl : gl;                                      // +0, not −0, for f = fh, as 0n gives
  // r = (fh + fl)·2^−128·π/2 as a double-double (fh·PIO2_HI exactly by Dekker's product, written out)
  const ph = fh * 1.5707963267948966 /* PIO2_HI */;
  const cf = 134217729 * fh, fhh = cf - (cf - fh), fhl = fh - fhh;
  const pe = ((fhh * PIO2_HH - ph) + fhh * PIO2_HL + fhl * PIO2_HH) + fhl * PIO2_HL;
  const pl = pe + (fh * 6.123233995736766e-17 /* PIO2_LO */ + fl * 1.5707963267948966 /* PIO2_HI */);
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

// Calling convention (that of exp.ts and log.ts): the public functions store the argument in TQ[0],
// call `trigCore` (over V8's inlining limit, so never inlined and never spending the callers'
// inlining budget, with no double crossing the call) and load the result from TQ[1].
const TQ = offHeapF64(2);
const SIN = 0, COS = 1, TAN = 2;

/** The public functions' work: op of TQ[0] into TQ[1]. */
function trigCore(op: number): void {
  const x = TQ[0]!;
  const ax = Math.abs(x);
  // r = h + l = x − n·π/2, and cos x = sin(x + π/2): for cos, n is one quadrant further on
  let h = x, l = 0, n = op & 1;
  if (ax <= 0.7853981633974483) {
    if (ax < (op === SIN ? 1.4901161193847656e-8 : 7.450580596923828e-9)) { TQ[1] = op === COS ? 1 : x; return; }  // 2^−26, 2^−27; ±0
  } else {
    if (!(ax < Infinity)) { TQ[1] = Number.NaN; return; }
    if (ax < MEDIUM) {
      // Cody–Waite (written here rather than in a function of its own, to leave the inlining
      // budget to the kernels)
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
      h = s2 + t;
      l = t - (h - s2);
      n = (((nf | 0) & 3) + n) & 3;
    } else {
      n = (reduceLarge() + n) & 3;
      h = RED[0]!; l = RED[1]!;
    }
  }
  if (op !== TAN) {
    const r = (n & 1) === 0 ? sinK(h, l) : cosK(h, l);
    TQ[1] = r * SIGN[n >> 1]!;                            // −r for n = 2, 3, without a branch
    return;
  }
  RED[0] = h; RED[1] = l;
  tanKernel(n);
}

/**
 * tan(h + l + n·π/2) for the reduced argument h + l = RED[0] + RED[1], into TQ[1]. A function of
 * its own, over V8's inlining limit, so compiled apart from `trigCore` with its own call counts:
 * its helpers `sinR` and `cosR` are inlined however rarely tan is called beside sin and cos (V8
 * inlines a call only where it is frequent enough relative to all calls of the function, and a
 * double-returning call left out of line allocates). Dekker's exact products (`prodErr`) are
 * written out, for the same reason.
 */
function tanKernel(n: number): void {
  const h = RED[0]!, l = RED[1]!;
  // sin(r) = h + sl and cos(r) = u + cl, both unrounded; r² = z + zl and r³ = v + vl exactly
  // (Dekker), so that the leading terms −r³/6 and −r²/2 carry no rounding error of their own
  const sh0 = 134217729 * h, hh = sh0 - (sh0 - h), hl = h - hh;           // Veltkamp split of h
  const z = h * h;
  const zl = ((hh * hh - z) + hh * hl + hl * hh) + hl * hl;
  const sz = 134217729 * z, zh = sz - (sz - z), zt = z - zh;
  const v = z * h;
  const vl = (((zh * hh - v) + zh * hl + zt * hh) + zt * hl) + zl * h;
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
  const sq = 134217729 * q, qh = sq - (sq - q), qt = q - qh;
  const sd = 134217729 * dh, dhh = sd - (sd - dh), dht = dh - dhh;
  const p = q * dh;
  const pe = ((qh * dhh - p) + qh * dht + qt * dhh) + qt * dht;
  const ql = (((nh - p) - pe) + nl - q * dl) / dh;
  TQ[1] = q + ql;
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
  TQ[0] = x;
  trigCore(SIN);
  return TQ[1]!;
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
  TQ[0] = x;
  trigCore(COS);
  return TQ[1]!;
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
  TQ[0] = x;
  trigCore(TAN);
  return TQ[1]!;
}
