/**
 * The deterministic standard-normal transform of stochax's samplers (moved from
 * src/random/detmath.ts; src/math/log.ts holds its log1p): results depend only on IEEE-754
 * basic operations (+ − × ÷ and sqrt, all correctly rounded, no fused multiply-add),
 * comparisons, float32 rounding and exact bit manipulation of exponents. So every JS engine and
 * the WebAssembly SIMD kernels (scripts/gen-wat.ts: `nf64_unit`, `nf32_unit`) produce the same
 * bits, unlike `Math.log1p`, whose last bit is implementation-defined.
 *
 * Contents:
 *   - `erfinv64det(x)`: Giles' double-precision erfinv with XLA's coefficients (the same branch
 *     structure and coefficients as `erfinv64` in src/random/erfinv.ts), using `log1pDet` and an
 *     Estrin evaluation of the 23-term central polynomial.
 *   - `normalF64FromUnitDet(f)`: the standard normal √2 · erfinv(2f + lo) from a unit uniform f,
 *     exactly as the wasm kernel computes it.
 *   - `erfinv32det`, `normalF32FromUnitDet`: the float32 versions (Giles' float32 erfinv with
 *     exact float32 FMAs, with `log1pDet`).
 *
 * The operation order of these functions is part of the contract: the wasm kernels repeat it
 * instruction for instruction. Changing any of those expressions means changing
 * scripts/gen-wat.ts the same way (test/random/normal-det.test.ts compares the two bit for bit).
 */
import { BITS_F64, BITS_I32, HI } from './bits.js';
import { fma32 } from './float32.js';
import { LG1, LG2, LG3, LG4, LG5, LG6, LG7, LN2_HI, LN2_LO, REDUCE_SCALE, log1pNeg } from './log.js';

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
 *
 * @example
 * erfinv64det(0.5);   // 0.47693627620446977 (erfinv(0.5) = 0.4769362762044699 to 17 digits)
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
 * normalF64FromUnitDet(0.75);   // 0.6744897501960819
 * normalF64FromUnitDet(0.5);    // 1.3914582123358836e-16 (u = 2^−53)
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
 *
 * @example
 * erfinv32det(0.5);   // 0.4769362807273865
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
 *
 * @example
 * normalF32FromUnitDet(0.75);   // 0.6744898557662964
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
