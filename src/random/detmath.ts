/**
 * Deterministic math for the normal sampler: results depend only on IEEE-754 basic operations
 * (+ − × ÷ and sqrt, all correctly rounded, no fused multiply-add), comparisons, float32
 * rounding and exact bit manipulation of exponents. So every JS engine and the WebAssembly SIMD
 * kernels (scripts/gen-wat.ts: `nf64_unit`, `nf32_unit`) produce the same bits, unlike
 * `Math.log1p`, whose last bit is implementation-defined.
 *
 * Contents:
 *   - `log1pDet(x)` for x in [−1, 0]: fdlibm's log1p method (Sun, 1993; also musl) with an
 *     argument reduction that needs no correction term on this domain.
 *   - `erfinv64det(x)`: Giles' double-precision erfinv with XLA's coefficients (the same branch
 *     structure and coefficients as `erfinv64` in erfinv.ts), using `log1pDet` and an Estrin
 *     evaluation of the 23-term central polynomial.
 *   - `normalF64FromUnitDet(f)`: the standard normal √2 · erfinv(2f + lo) from a unit uniform f,
 *     exactly as the wasm kernel computes it.
 *   - `erfinv32det`, `normalF32FromUnitDet`: the float32 versions (Giles' float32 erfinv with
 *     exact float32 FMAs, as erfinv32 in erfinv.ts, with `log1pDet`).
 *   - `detPow(x, y)`, `detTanh(x)`: Math.pow / `**` and Math.tanh (whose last bits differ between
 *     engines, e.g. Node 20 and Chromium 150) in double-double arithmetic, within 0.5 + 2^−5 ulp,
 *     with all of Math.pow's special cases; every library path that needs pow or tanh uses them.
 *
 * The operation order of the normal-sampler functions is part of the contract: the wasm kernels
 * repeat it instruction for instruction. Changing any of those expressions means changing
 * scripts/gen-wat.ts the same way (test/random/normal-det.test.ts compares the two bit for bit).
 */
import { fma32 } from './float.js';

/** The double with the given IEEE-754 bit pattern (high and low 32-bit words). */
function fromBits(hi: number, lo: number): number {
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  u[little ? 1 : 0] = hi;
  u[little ? 0 : 1] = lo;
  return f[0]!;
}

// fdlibm e_log.c / s_log1p.c constants (Lg1..Lg7 = Lp1..Lp7), given by their bit patterns.
export const LN2_HI = fromBits(0x3fe62e42, 0xfee00000); // 6.93147180369123816490e-01, 11 trailing zero bits
export const LN2_LO = fromBits(0x3dea39ef, 0x35793c76); // 1.90821492927058770002e-10
export const LG1 = fromBits(0x3fe55555, 0x55555593);    // 6.666666666666735130e-01
export const LG2 = fromBits(0x3fd99999, 0x9997fa04);    // 3.999999999940941908e-01
export const LG3 = fromBits(0x3fd24924, 0x94229359);    // 2.857142874366239149e-01
export const LG4 = fromBits(0x3fcc71c5, 0x1d8e78af);    // 2.222219843214978396e-01
export const LG5 = fromBits(0x3fc74664, 0x96cb03de);    // 1.818357216161805012e-01
export const LG6 = fromBits(0x3fc39a09, 0xd078c69f);    // 1.531383769920937332e-01
export const LG7 = fromBits(0x3fc2f112, 0xdf3e5244);    // 1.479819860511658591e-01

/** Scratch for reading the high word of a double (exact; the same bits on every engine). */
const BITS_F64 = new Float64Array(1);
const BITS_I32 = new Int32Array(BITS_F64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** REDUCE_SCALE[e] = 2^(1023 − e): the scale 2^−k for the biased exponent e = k + 1023. */
const REDUCE_SCALE = new Float64Array(1024);
for (let e = 0; e < 1024; e++) REDUCE_SCALE[e] = 2 ** (1023 - e);

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
function log1pNeg(x: number): number {
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

// Giles' double-precision erfinv coefficients as in XLA's ErfInv64 (and erfinv.ts), here lowest
// degree first: C[i] multiplies t^i.
export const ERFINV_CENTRAL = [1.6536545626831027356, 0.24015818242558961693, -6.0336708714301490533e-3,
  -7.4070253416626697512e-4, 1.867342080340571352e-4, -1.3882523362786468719e-5, -1.3654692000834678645e-6,
  4.2347877827932403518e-7, -2.9070369957882005086e-8, -4.1126339803469836976e-9, 1.051212273321532285e-9,
  -5.4154120542946279317e-11, -1.2975133253453532498e-11, 2.6335093153082322977e-12, -8.1519341976054721522e-14,
  -4.0545662729752068639e-14, 6.6376381343583238325e-15, 2.0972767875968561637e-17, -1.333171662854620906e-16,
  1.115787767802518096e-17, 1.2858480715256400167e-18, -1.685059138182016589e-19, -3.6444120640178196996e-21];
export const ERFINV_MIDDLE = [3.0838856104922207635, 1.0052589676941592334, 5.370914553590063617e-3,
  -3.7512085075692412107e-3, 2.4914420961078508066e-3, -1.6882755560235047313e-3, 9.5328937973738049703e-4,
  -3.550375203628474796e-4, 2.4031110387097893999e-5, 6.8284851459573175448e-5, -4.7318229009055733981e-5,
  1.2475304481671778723e-5, 2.9234449089955446044e-6, -4.013867526981545969e-6, 1.5027403968909827627e-6,
  1.8239629214389227755e-8, -2.7517406297064545428e-7, 9.0756561938885390979e-8, 2.2137376921775787049e-9];
export const ERFINV_TAIL = [4.8499064014085844221, 1.0103004648645343977, -1.3871931833623122026e-4,
  -2.1503011930044477347e-4, 7.5995277030017761139e-5, -1.9681778105531670567e-5, 4.5260625972231537039e-6,
  -9.9298272942317002539e-7, 2.2900482228026654717e-7, -6.7711997758452339498e-8, 2.9147953450901080826e-8,
  -1.4960026627149240478e-8, 7.6157012080783393804e-9, -3.7894654401267369937e-9, 1.5076572693500548083e-9,
  -2.5556418169965252055e-10, -2.7109920616438573243e-11];

const C = ERFINV_CENTRAL;
const C0 = C[0]!, C1 = C[1]!, C2 = C[2]!, C3 = C[3]!, C4 = C[4]!, C5 = C[5]!, C6 = C[6]!, C7 = C[7]!;
const C8 = C[8]!, C9 = C[9]!, C10 = C[10]!, C11 = C[11]!, C12 = C[12]!, C13 = C[13]!, C14 = C[14]!;
const C15 = C[15]!, C16 = C[16]!, C17 = C[17]!, C18 = C[18]!, C19 = C[19]!, C20 = C[20]!, C21 = C[21]!;
const C22 = C[22]!;

/**
 * The central polynomial Σ C[i]·t^i by Estrin's scheme, in this exact order (the wasm kernel's):
 * pairs q_j = C[2j] + C[2j+1]·t, then q + q'·t², then ·t⁴, ·t⁸ and ·t¹⁶.
 */
export function erfinvCentralPoly(t: number): number {
  const t2 = t * t;
  const t4 = t2 * t2;
  const t8 = t4 * t4;
  const t16 = t8 * t8;
  const r0 = (C0 + C1 * t) + (C2 + C3 * t) * t2;
  const r1 = (C4 + C5 * t) + (C6 + C7 * t) * t2;
  const r2 = (C8 + C9 * t) + (C10 + C11 * t) * t2;
  const r3 = (C12 + C13 * t) + (C14 + C15 * t) * t2;
  const r4 = (C16 + C17 * t) + (C18 + C19 * t) * t2;
  const r5 = (C20 + C21 * t) + C22 * t2;
  const s0 = r0 + r1 * t4;
  const s1 = r2 + r3 * t4;
  const s2 = r4 + r5 * t4;
  return (s0 + s1 * t8) + s2 * t16;
}

/** Horner's rule over coefficients given lowest degree first (the rare middle and tail branches). */
function hornerLow(c: readonly number[], t: number): number {
  let p = c[c.length - 1]!;
  for (let i = c.length - 2; i >= 0; i--) p = p * t + c[i]!;
  return p;
}

/**
 * Float64 erfinv with `erfinv64`'s branches and coefficients (w = −log1p(−x²); polynomial in
 * w − 3.125 for w < 6.25, √w − 3.25 for w < 16, else √w − 5) but deterministic: `log1pDet`
 * instead of Math.log1p and a fixed evaluation order (Estrin for the central branch, Horner for
 * the other two). Agrees with `erfinv64` to about 1e-15 relative; erfinv(±1) = ±∞, NaN outside
 * [−1, 1].
 */
export function erfinv64det(x: number): number {
  if (!(Math.abs(x) < 1)) return Math.abs(x) === 1 ? x * Infinity : Number.NaN;
  const w = -log1pNeg(-x * x);
  let p: number;
  if (w < 6.25) p = erfinvCentralPoly(w - 3.125);
  else if (w < 16) p = hornerLow(ERFINV_MIDDLE, Math.sqrt(w) - 3.25);
  else p = hornerLow(ERFINV_TAIL, Math.sqrt(w) - 5);
  return p * x;
}

/** −(1 − 2^−53): JAX's lower bound nextafter(−1, 0) for float64 normals. */
export const NORMAL_F64_LO = -(1 - 2 ** -53);

/**
 * The standard normal JAX draws from a float64 unit uniform f in [0, 1) (a multiple of 2^−52):
 * √2 · erfinv(u) with u = 2f + lo (exact, |u| < 1), computed deterministically. This is the
 * per-value function of the wasm kernel `nf64_unit`, bit for bit.
 *
 * @example
 * normalF64FromUnitDet(0.5);   // u = 2^-53: √2·erfinv(2^-53) ≈ 1.25e-16
 */
export function normalF64FromUnitDet(f: number): number {
  return Math.SQRT2 * erfinv64det(2 * f + NORMAL_F64_LO);
}

/** The rare branches of erfinv64det (w >= 6.25). */
function erfinvOuterPoly(w: number): number {
  return w < 16 ? hornerLow(ERFINV_MIDDLE, Math.sqrt(w) - 3.25) : hornerLow(ERFINV_TAIL, Math.sqrt(w) - 5);
}

/**
 * In place, out[from..to) (unit uniforms f, multiples of 2^−52 in [0, 1)) become
 * `normalF64FromUnitDet(f)`: the same operations (the tests check the bits), two values per
 * iteration so that their dependency chains overlap (about 10% faster in V8).
 */
export function normalF64FromUnitDetInPlace(out: Float64Array, from = 0, to = out.length): void {
  let i = from;
  for (; i + 1 < to; i += 2) {
    const xa = 2 * out[i]! + NORMAL_F64_LO;
    const xb = 2 * out[i + 1]! + NORMAL_F64_LO;
    const wa = -log1pNeg(-xa * xa);
    const wb = -log1pNeg(-xb * xb);
    const pa = wa < 6.25 ? erfinvCentralPoly(wa - 3.125) : erfinvOuterPoly(wa);
    const pb = wb < 6.25 ? erfinvCentralPoly(wb - 3.125) : erfinvOuterPoly(wb);
    out[i] = Math.SQRT2 * (pa * xa);
    out[i + 1] = Math.SQRT2 * (pb * xb);
  }
  if (i < to) out[i] = normalF64FromUnitDet(out[i]!);
}

// ---------------------------------------------------------------------------------------------
// Float32: Giles' single-precision erfinv as in erfinv.ts (every operation rounded to float32,
// exact float32 fused multiply-adds in the polynomial), with log1pDet in place of Math.log1p.
// ---------------------------------------------------------------------------------------------

/** Giles' float32 coefficients (XLA's ErfInv32), highest degree first, as float32 values. */
export const ERFINV32_CENTRAL = [2.81022636e-8, 3.43273939e-7, -3.5233877e-6, -4.39150654e-6, 2.1858087e-4,
  -1.25372503e-3, -4.17768164e-3, 2.46640727e-1, 1.50140941].map(Math.fround);
export const ERFINV32_TAIL = [-2.00214257e-4, 1.00950558e-4, 1.34934322e-3, -3.67342844e-3, 5.73950773e-3,
  -7.6224613e-3, 9.43887047e-3, 1.00167406, 2.83297682].map(Math.fround);
/** −(1 − 2^−24): nextafter(−1, 0) in float32. */
export const NORMAL_F32_LO = -(1 - 2 ** -24);
/** √2 rounded to float32. */
export const SQRT2_F32 = Math.fround(Math.SQRT2);

/**
 * fma(a, b, c) rounded once to float32, for float32 a, b, c (a·b is exact in float64), the same
 * value as `fma32`, faster. Rounding the float64 sum s = a·b + c to float32 gives the correctly
 * rounded result unless s is exactly halfway between two float32 values (double rounding can
 * only go wrong there); such an s, recognised as "r + 2(s − r) is a float32 too" (no misses,
 * rare false alarms), goes to the round-to-odd `fma32`.
 */
function fma32det(a: number, b: number, c: number): number {
  const s = a * b + c;
  const r = Math.fround(s);
  const d = s - r;
  if (d !== 0) {
    const m = r + 2 * d;
    if (Math.fround(m) === m) return fma32(a, b, c);
  }
  return r;
}

/**
 * Float32 erfinv exactly as `erfinv32` (erfinv.ts) but with `log1pDet` in place of Math.log1p, so
 * the same bits everywhere: w = fl32(−log1p(−fl32(x²))); a degree-8 polynomial in
 * fl32(w − 2.5) (w < 5) or fl32(fl32(√w) − 3), Horner with exact float32 FMAs; fl32(p·x).
 * erfinv(±1) = ±∞, NaN outside [−1, 1]. Takes and returns float32 values.
 */
export function erfinv32det(x: number): number {
  if (!(Math.abs(x) < 1)) return Math.abs(x) === 1 ? x * Infinity : Number.NaN;
  const w0 = Math.fround(-log1pNeg(-Math.fround(x * x)));
  let p: number;
  if (w0 < 5) {
    const w = Math.fround(w0 - 2.5);
    p = ERFINV32_CENTRAL[0]!;
    for (let i = 1; i < 9; i++) p = fma32(p, w, ERFINV32_CENTRAL[i]!);
  } else {
    const w = Math.fround(Math.fround(Math.sqrt(w0)) - 3);
    p = ERFINV32_TAIL[0]!;
    for (let i = 1; i < 9; i++) p = fma32(p, w, ERFINV32_TAIL[i]!);
  }
  return Math.fround(p * x);
}

/**
 * The float32 standard normal JAX draws from a float32 unit uniform f (a multiple of 2^−23 in
 * [0, 1)): fl32(√2 · erfinv32(2f + lo)) with u = 2f + lo exact, computed deterministically;
 * the per-value function of the wasm kernel `nf32_unit`.
 */
export function normalF32FromUnitDet(f: number): number {
  return Math.fround(SQRT2_F32 * erfinv32det(2 * f + NORMAL_F32_LO));
}

const A0 = ERFINV32_CENTRAL[0]!;

/**
 * fl32(−log1p(−fl32(x²))) for a float32 x in (−1, 1), as in erfinv32det, with log1pNeg written
 * out (calling it here costs V8's inliner enough to make the float32 loop ~20% slower).
 */
function w32(x: number): number {
  const y = -Math.fround(x * x);
  BITS_F64[0] = 1 + y;
  const e = (BITS_I32[HI]! + 0x95f62) >> 20;
  const scale = REDUCE_SCALE[e]!;
  const k = e - 1023;
  const f = y * scale + (scale - 1);
  const hfsq = 0.5 * f * f;
  const s = f / (2 + f);
  const z = s * s;
  const z2 = z * z;
  const r = z * (LG1 + z2 * (LG3 + z2 * (LG5 + z2 * LG7))) + z2 * (LG2 + z2 * (LG4 + z2 * LG6));
  return Math.fround(-(k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)));
}

/** The polynomial p of erfinv32det for w0 = w32(x) (both branches), with the fast exact FMA. */
function p32(w0: number): number {
  let p: number;
  if (w0 < 5) {
    const w = Math.fround(w0 - 2.5);
    p = A0;
    for (let j = 1; j < 9; j++) p = fma32det(p, w, ERFINV32_CENTRAL[j]!);
  } else {
    const w = Math.fround(Math.fround(Math.sqrt(w0)) - 3);
    p = ERFINV32_TAIL[0]!;
    for (let j = 1; j < 9; j++) p = fma32det(p, w, ERFINV32_TAIL[j]!);
  }
  return p;
}

/**
 * In place, out[from..to) (float32 unit uniforms) become `normalF32FromUnitDet(f)` (same bits;
 * the tests check). Two values per iteration with their Horner steps interleaved: each FMA chain
 * is latency-bound, and V8 would otherwise run one chain after the other (about 2x faster).
 */
export function normalF32FromUnitDetInPlace(out: Float32Array, from = 0, to = out.length): void {
  let i = from;
  for (; i + 1 < to; i += 2) {
    const xa = 2 * out[i]! + NORMAL_F32_LO;
    const xb = 2 * out[i + 1]! + NORMAL_F32_LO;
    const wa = w32(xa);
    const wb = w32(xb);
    let pa: number, pb: number;
    if (wa < 5 && wb < 5) {
      const ta = Math.fround(wa - 2.5);
      const tb = Math.fround(wb - 2.5);
      pa = A0;
      pb = A0;
      for (let j = 1; j < 9; j++) {
        const c = ERFINV32_CENTRAL[j]!;
        pa = fma32det(pa, ta, c);
        pb = fma32det(pb, tb, c);
      }
    } else {
      pa = p32(wa);
      pb = p32(wb);
    }
    out[i] = SQRT2_F32 * Math.fround(pa * xa);
    out[i + 1] = SQRT2_F32 * Math.fround(pb * xb);
  }
  if (i < to) {
    const x = 2 * out[i]! + NORMAL_F32_LO;
    out[i] = SQRT2_F32 * Math.fround(p32(w32(x)) * x);
  }
}

// ---------------------------------------------------------------------------------------------
// pow and tanh. Engines disagree on the last bits of Math.pow / `**` (about 10% of non-square
// exponents between Node 20 and Chromium 150) and of Math.tanh, so every path that needs them
// and must give the same bits everywhere calls `detPow` / `detTanh`: double-double (dd)
// arithmetic from + − × ÷ alone (Dekker's exact products with Veltkamp splitting, Knuth's exact
// sums), no tables, no Math function whose last bit is implementation-defined. Both are
// accurate to about 2^−60 relative before their one final rounding, so they are within
// 0.5 + 2^−5 ulp (measured against mpmath: max 0.5015 ulp for pow over 2.2e5 inputs, 0.5044 ulp
// for tanh over 7e4, 0.01% and 0.02% not correctly rounded; test/random/detmath-pow.test.ts).
// ---------------------------------------------------------------------------------------------

/** Veltkamp's splitter 2^27 + 1. */
const SPLIT = 134217729;
/** ln 2 = LN2_DD_HI + LN2_DD_LO (to 2^−106), 1/ln 2, 1/3 and 1/5 as double-doubles (mpmath). */
const LN2_DD_HI = fromBits(0x3fe62e42, 0xfefa39ef);  // 6.93147180559945286227e-01 (= Math.LN2)
const LN2_DD_LO = fromBits(0x3c7abc9e, 0x3b39803f);  // 2.31904681384629955842e-17
const INV_LN2 = fromBits(0x3ff71547, 0x652b82fe);    // 1.44269504088896338700e+00
const THIRD_HI = fromBits(0x3fd55555, 0x55555555);
const THIRD_LO = fromBits(0x3c755555, 0x55555555);   // 1.85037170770859413132e-17
const FIFTH_HI = fromBits(0x3fc99999, 0x9999999a);
const FIFTH_LO = fromBits(0xbc699999, 0x9999999a);   // −1.11022302462515654042e-17
const SIXTH_HI = THIRD_HI / 2, SIXTH_LO = THIRD_LO / 2;  // 1/6, exactly halved
/** Just above ln(largest double) (e^z overflows above it), just below ln 2^−1075 (e^z rounds to 0). */
const LN_OVERFLOW = 709.79;
const LN_UNDERFLOW = -745.2;
/** 2^−1022, 2^54 and 2^64. */
const TWO_M1022 = fromBits(0x00100000, 0);
const TWO_54 = fromBits(0x43500000, 0);
const TWO_64 = fromBits(0x43f00000, 0);
/** POW2[e + 1022] = 2^e for e in [−1022, 1023], built from bit patterns. */
const POW2 = new Float64Array(2046);
for (let e = -1022; e <= 1023; e++) POW2[e + 1022] = fromBits((e + 1023) * 0x100000, 0);

/** The low part of the last double-double result (the functions below return the high part). */
let ddLo = 0;

/** a·b = p + ddLo exactly (Dekker), for |a|, |b| < 2^996 and no underflow; returns p. */
function twoProd(a: number, b: number): number {
  const p = a * b;
  const ca = SPLIT * a, ah = ca - (ca - a), al = a - ah;
  const cb = SPLIT * b, bh = cb - (cb - b), bl = b - bh;
  ddLo = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return p;
}

/** a + b = s + ddLo exactly (Knuth); returns s. */
function twoSum(a: number, b: number): number {
  const s = a + b;
  const bv = s - a;
  ddLo = (a - (s - bv)) + (b - bv);
  return s;
}

/**
 * ln(ax) as a double-double (returned high part, low part in `ddLo`) for a positive finite ax,
 * with relative error below about 2^−68. ax = 2^k·m with m in [√2/2, √2) (subnormals scaled by
 * 2^54 first); ln ax = k·ln 2 + ln m, ln m = 2·atanh(s) = 2s + 2s·t·(1/3 + t/5 + t²·R(t)) with
 * s = (m − 1)/(m + 1) (|s| ≤ 0.1716) and t = s² as double-doubles and R(t) = Σ t^j/(2j + 7),
 * j = 0..10, in double (its share of ln m is below 2^−17; the truncation below 2^−58 of R).
 */
function lnDD(ax: number): number {
  let k = 0;
  if (ax < TWO_M1022) { ax *= TWO_54; k = -54; }
  BITS_F64[0] = ax;
  const hw = BITS_I32[HI]!;
  const mant = hw & 0xfffff;
  k += (hw >> 20) - 1023;
  if (mant > 0x6a09e) { BITS_I32[HI] = mant | 0x3fe00000; k += 1; } else BITS_I32[HI] = mant | 0x3ff00000;
  const m = BITS_F64[0]!;
  // s = (m − 1)/(m + 1): m − 1 is exact, m + 1 = bh + bl, then one correction of the quotient.
  const a = m - 1;
  const bh = twoSum(m, 1), bl = ddLo;
  const sh = a / bh;
  const p = twoProd(sh, bh), pe = ddLo;
  const sl = (((a - p) - pe) - sh * bl) / bh;
  // t = s²
  const th = twoProd(sh, sh);
  const tl = ddLo + 2 * sh * sl;
  const r = 1 / 7 + th * (1 / 9 + th * (1 / 11 + th * (1 / 13 + th * (1 / 15 + th * (1 / 17 + th * (1 / 19 +
    th * (1 / 21 + th * (1 / 23 + th * (1 / 25 + th * (1 / 27))))))))));
  // q = 1/3 + t/5 + t²·R
  const f = twoProd(th, FIFTH_HI);
  const fl = ddLo + th * FIFTH_LO + tl * FIFTH_HI;
  const qh = THIRD_HI + f;
  const ql = ((THIRD_HI - qh) + f) + (THIRD_LO + fl + th * th * r);
  // u = t·q, c = s·u
  const uh = twoProd(th, qh);
  const ul = ddLo + th * ql + tl * qh;
  const ch = twoProd(sh, uh);
  const cl = ddLo + sh * ul + sl * uh;
  // ln m / 2 = s + c
  const hh = sh + ch;
  const hl = (ch - (hh - sh)) + (sl + cl);
  const mh = hh + hl;
  const ml = hl - (mh - hh);
  if (k === 0) { ddLo = 2 * ml; return 2 * mh; }
  // + k·ln 2 (|k·ln 2| ≥ ln 2 > 2·|ln m / 2|, so the fast sum is exact)
  const kh = twoProd(k, LN2_DD_HI);
  const kl = ddLo + k * LN2_DD_LO;
  const sHi = kh + 2 * mh;
  const sLo = ((kh - sHi) + 2 * mh) + (kl + 2 * ml);
  const out = sHi + sLo;
  ddLo = sLo - (out - sHi);
  return out;
}

/**
 * e^g − 1 as a double-double (high part returned, low part in `ddLo`) for g = gh + gl with
 * |g| ≤ 0.35 (|gl| ≤ ulp(gh)): g + g²/2 + g³/6 in double-double plus g⁴·P(g) in double, with
 * P(g) = Σ g^j/(j + 4)!, j = 0..10 (its share of the result is below 2^−10; the truncation is
 * below 2^−61 of g). Relative error below about 2^−61 of the result.
 */
function expm1DD(gh: number, gl: number): number {
  const p = twoProd(gh, gh), pe = ddLo;                 // g² ≈ p + pe + 2·gh·gl
  const c = twoProd(p, gh);                             // g³ ≈ c + ddLo + pe·gh + 3·p·gl
  const cl = ddLo + pe * gh + 3 * p * gl;
  const c6 = twoProd(c, SIXTH_HI);                      // g³/6 ≈ c6 + c6l
  const c6l = ddLo + c * SIXTH_LO + cl * SIXTH_HI;
  const hp = 0.5 * p;
  const poly = 1 / 24 + gh * (1 / 120 + gh * (1 / 720 + gh * (1 / 5040 + gh * (1 / 40320 +
    gh * (1 / 362880 + gh * (1 / 3628800 + gh * (1 / 39916800 + gh * (1 / 479001600 +
    gh * (1 / 6227020800 + gh * (1 / 87178291200))))))))));
  const s1 = gh + hp;    // fast sums: |gh| ≥ g²/2 ≥ |s1|·g/6 ≥ |g³/6|
  const s2 = s1 + c6;
  const lo = ((hp - (s1 - gh)) + (c6 - (s2 - s1))) + (gl + (0.5 * pe + gh * gl) + c6l + p * p * poly);
  const h = s2 + lo;
  ddLo = lo - (h - s2);
  return h;
}

/**
 * g = z − n·ln 2 as a double-double (high part returned, low part in `ddLo`) for z = zh + zl
 * and the integer n nearest z/ln 2: n·LN2_DD_HI is exact and zh − that is exact (Sterbenz).
 */
function reduceLn2(zh: number, zl: number, n: number): number {
  const p = twoProd(n, LN2_DD_HI);
  const gl0 = (zl - ddLo) - n * LN2_DD_LO;
  return twoSum(zh - p, gl0);
}

/** ax^y for a finite ax > 0, ax ≠ 1, and a finite y ≠ 0 with |y| ≤ 2^64. */
function powPositive(ax: number, y: number): number {
  const lh = lnDD(ax), ll = ddLo;
  const ph = twoProd(y, lh);
  const pl = ddLo + y * ll;
  const zh = ph + pl;
  const zl = pl - (zh - ph);
  if (zh > LN_OVERFLOW) return Infinity;
  if (zh < LN_UNDERFLOW) return 0;
  const n = Math.round(zh * INV_LN2);  // in [−1075, 1024]
  const gh = reduceLn2(zh, zl, n), gl = ddLo;
  const sh = expm1DD(gh, gl), sl = ddLo;
  // 2^n·(1 + s) with 1 + s = hi + lo, |s| < 0.42
  const hi = 1 + sh;
  const lo = (sh - (hi - 1)) + sl;
  if (n > -1021) return n < 1024 ? (hi + lo) * POW2[n + 1022]! : (hi + lo) * POW2[2045]! * 2;
  // Possibly subnormal: v = (hi + lo)·2^(n + 1022) exactly, then one rounding to a multiple of
  // 2^−52 (the subnormal spacing 2^−1074 after the final exact scaling by 2^−1022).
  const sc = POW2[n + 2044]!;
  const vh = hi * sc, vl = lo * sc;
  if (vh > 1 || (vh === 1 && vl >= 0)) return (hi + lo) * sc * TWO_M1022;
  const t = 1 + vh;
  return ((t + ((vh - (t - 1)) + vl)) - 1) * TWO_M1022;
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
 * ln |x| as a double-double (`lnDD`, ~2^−68 relative), z = y·ln |x| by an exact product, then
 * e^z = 2^n·e^g with n = round(z/ln 2) and g = z − n·ln 2 in double-double, e^g = 1 + expm1(g)
 * (`expm1DD`), rounded once; results in the subnormal range are rounded once at their own
 * precision. |y| > 2^64 (with |x| ≠ 1) over- or underflows outright.
 *
 * @example
 * detPow(2, 0.5);   // 1.4142135623730951
 * detPow(-8, 3);    // -512
 */
export function detPow(x: number, y: number): number {
  if (y !== y) return Number.NaN;
  if (y === 0) return 1;
  if (x !== x) return Number.NaN;
  if (y === 1) return x;
  if (y === 2) return x * x;
  const ax = Math.abs(x), ay = Math.abs(y);
  if (ay === Infinity) return ax === 1 ? Number.NaN : (ax > 1) === (y > 0) ? Infinity : 0;
  const yInt = Math.floor(y) === y;
  const yOdd = yInt && ay < 9007199254740992 && y % 2 !== 0;
  if (x === 0) return y > 0 ? (yOdd ? x : 0) : (yOdd && 1 / x < 0 ? -Infinity : Infinity);
  if (ax === Infinity) return y > 0 ? (yOdd && x < 0 ? -Infinity : Infinity) : (yOdd && x < 0 ? -0 : 0);
  if (x < 0 && !yInt) return Number.NaN;
  if (y === -1) return 1 / x;
  if (y === 0.5) return Math.sqrt(x);  // x > 0 here
  if (ax === 1) return yOdd ? x : 1;
  const r = ay > TWO_64 ? ((ax > 1) === (y > 0) ? Infinity : 0) : powPositive(ax, y);
  return x < 0 && yOdd ? -r : r;
}

/**
 * tanh x with the same bits on every engine, within 0.5 + 2^−5 ulp (measured max 0.5044 ulp);
 * tanh(±0) = ±0, tanh(±∞) = ±1, NaN → NaN. For |x| < 2^−27 it is x (the x³/3 term is below a
 * quarter ulp); for |x| ≥ 22 it is ±1 (1 − tanh x < 2^−62). Otherwise, with E = e^(2|x|) − 1
 * as a double-double (2|x| = n·ln 2 + g, E = 2^n·(1 + expm1(g)) − 1, exact for n = 0 as E =
 * expm1(g)), tanh |x| = E / (E + 2) by a double-double division, rounded once.
 */
export function detTanh(x: number): number {
  const ax = Math.abs(x);
  if (!(ax >= 7.450580596923828e-9)) return x;  // 2^−27; also ±0 and NaN
  if (ax >= 22) return x > 0 ? 1 : -1;
  const w = 2 * ax;
  const n = Math.round(w * INV_LN2);  // in [0, 64)
  let eh: number, el: number;
  if (n === 0) {
    eh = expm1DD(w, 0); el = ddLo;
  } else {
    const gh = reduceLn2(w, 0, n), gl = ddLo;
    const sh = expm1DD(gh, gl), sl = ddLo;
    const sc = POW2[n + 1022]!;
    // 2^n + 2^n·s (exact products; the fast sum is exact as |s| < 1), then − 1
    const u = sc + sc * sh;
    const ue = sc * sh - (u - sc);
    const v = twoSum(u, -1), ve = ddLo;
    eh = v + (ve + ue + sc * sl);
    el = (ve + ue + sc * sl) - (eh - v);
  }
  // E / (E + 2)
  const dh = twoSum(eh, 2);
  const dl = ddLo + el;
  const qh = eh / dh;
  const p = twoProd(qh, dh), pe = ddLo;
  const ql = ((((eh - p) - pe) + el) - qh * dl) / dh;
  const t = qh + ql;
  return x > 0 ? t : -t;
}
