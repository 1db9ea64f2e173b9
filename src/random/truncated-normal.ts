import { checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { erf, erfcx } from './erf.js';
import { erfinv32, erfinv64 } from './erfinv.js';
import { nextAfter } from './float.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, paramValues, resolveShape, type ParamLike, type ShapeLike } from './params.js';
import { uniformUnit } from './uniform.js';
import { scaleUnit } from './unit.js';
import { detCos, detExp, detLog, detLog1p } from '../math/index.js';

const SQRT2_F32 = Math.fround(Math.SQRT2);
const SQRT_HALF_PI = Math.sqrt(Math.PI / 2);

/**
 * JAX's draw is used when its uniform range [a, b] = [erf(lower/√2), erf(upper/√2)] holds at
 * least this many values of the dtype; below it (both bounds deep in one tail, or a very narrow
 * interval away from 0) JAX's result has fewer than this many distinct outcomes, down to a
 * single clipped constant, and the tail method takes over.
 */
export const TAIL_FALLBACK_MIN_VALUES = 4096;

// ---------------------------------------------------------------------------------------------
// Neighbouring floats and counting the floats between two values.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** How many dtype values lie in [|a|, |b|] (or [|b|, |a|]): the difference of their bit patterns. */
function valuesBetween(a: number, b: number, dtype: FloatDType): number {
  if (dtype === 'float32') {
    f32[0] = Math.abs(a); const ia = u32[0]!;
    f32[0] = Math.abs(b); const ib = u32[0]!;
    return Math.abs(ib - ia);
  }
  f64[0] = Math.abs(a); const ia = u64[0]!;
  f64[0] = Math.abs(b); const ib = u64[0]!;
  return Number(ib > ia ? ib - ia : ia - ib);
}

// ---------------------------------------------------------------------------------------------
// The tail method: inversion of the truncated normal CDF measured from the bound nearer 0.

/** 16-point Gauss–Legendre nodes and weights on [−1, 1], by Newton's method on P₁₆. */
const GL_NODES: number[] = [];
const GL_WEIGHTS: number[] = [];
{
  const n = 16;
  for (let i = 1; i <= n / 2; i++) {
    let x = detCos(Math.PI * (i - 0.25) / (n + 0.5));
    let dp = 0;
    for (let iter = 0; iter < 100; iter++) {
      let p0 = 1, p1 = x;                       // Legendre recurrence up to P_n
      for (let k = 2; k <= n; k++) { const p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k; p0 = p1; p1 = p2; }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const dx = p1 / dp;
      x -= dx;
      if (Math.abs(dx) < 1e-16) break;
    }
    const w = 2 / ((1 - x * x) * dp * dp);
    GL_NODES.push(x, -x);
    GL_WEIGHTS.push(w, w);
  }
}

/**
 * I(c, d) = ∫₀^d e^(−c·s − s²/2) ds for c ≥ 0 and 0 ≤ d ≤ ∞: the normal mass on [c, c + d]
 * divided by φ(c), which stays representable however far out c lies. Gauss–Legendre when the
 * exponent changes by at most 2 over the range (relative error near 1e-16), otherwise
 * √(π/2)·(erfcx(c/√2) − e^(−w)·erfcx((c + d)/√2)) with w = c·d + d²/2, whose difference
 * cancels at most by a factor 1/(1 − e^(−2)).
 */
function tailIntegral(c: number, d: number): number {
  if (d === 0) return 0;
  const w = d === Infinity ? Infinity : d * (c + d / 2);
  if (w <= 2) {
    const h = d / 2;
    let sum = 0;
    for (let k = 0; k < 16; k++) {
      const s = h * (1 + GL_NODES[k]!);
      sum += GL_WEIGHTS[k]! * detExp(-s * (c + s / 2));
    }
    return h * sum;
  }
  const head = erfcx(c / Math.SQRT2);
  const tail = w === Infinity ? 0 : detExp(-w) * erfcx((c + d) / Math.SQRT2);
  return SQRT_HALF_PI * (head - tail);
}

/**
 * The offset δ ∈ [0, d] at which the normal truncated to [c, c + d] (c ≥ 0) has CDF f:
 * I(c, δ) = f·I(c, d). For f ≤ ½ it solves log I(c, δ) = log(f·I(c, d)); for f > ½ the
 * complementary equation log(I(c, d) − I(c, δ)) = log((1 − f)·I(c, d)), with the left side
 * written as −w(δ) + log I(c + δ, d − δ), w(δ) = cδ + δ²/2, so that no difference of nearly
 * equal masses is formed. Both left sides are monotone and concave in δ (the normal is
 * log-concave), so Newton's method converges monotonically after at most one overshoot; a
 * bracket guards against rounding.
 */
function tailOffset(c: number, d: number, f: number): number {
  if (f === 0) return 0;
  const logTotal = detLog(tailIntegral(c, d));
  const lower = f <= 0.5;
  const target = lower ? detLog(f) + logTotal : detLog1p(-f) + logTotal;
  // Start left of the root: the exponential bound I(c, δ) ≤ (1 − e^(−cδ))/c.
  const p = f * detExp(logTotal);
  let x = c > 0 ? -detLog1p(-Math.min(p * c, 1 - 2 ** -53)) / c : p;
  if (!(x > 0)) x = Number.MIN_VALUE;
  if (x > d) x = d / 2;
  let lo = 0, hi = d;
  for (let iter = 0; iter < 100; iter++) {
    let g: number, slope: number;
    if (lower) {
      const i = tailIntegral(c, x);
      g = detLog(i) - target;
      slope = detExp(-x * (c + x / 2)) / i;            // increasing in x
      if (g < 0) lo = x; else hi = x;
    } else {
      const i = tailIntegral(c + x, d - x);
      g = -x * (c + x / 2) + detLog(i) - target;
      slope = -1 / i;                                    // decreasing in x
      if (g > 0) lo = x; else hi = x;
    }
    if (g === 0) return x;
    let next = x - g / slope;
    if (!(next > lo && next < hi)) next = hi === Infinity ? 2 * x + 1 : lo + (hi - lo) / 2;
    const step = Math.abs(next - x);
    x = next;
    if (step <= 1e-16 * (c + x) || step <= 2e-16 * x) break;
  }
  return x;
}

/**
 * The tail method: the point x of [lo, hi] (lo ≥ 0 or hi ≤ 0, in float64) where the standard
 * normal truncated to [lo, hi] has CDF f measured from the bound nearer 0 (so, for hi ≤ 0,
 * 1 − CDF), accurate to a few ulp however far into a tail the interval lies.
 */
export function truncatedNormalTailQuantile(lo: number, hi: number, f: number): number {
  if (lo >= 0) return lo + tailOffset(lo, hi - lo, f);
  return hi - tailOffset(-hi, hi - lo, f);
}

// ---------------------------------------------------------------------------------------------

/**
 * `lower.length` truncated normals (lower and upper already broadcast and rounded to the dtype)
 * exactly as JAX draws them: a = erf(lower/√2), b = erf(upper/√2) in the dtype; u uniform on
 * [a, b) by the FMA-scaled mantissa trick, per element; √2·erfinv(u), clipped to
 * [nextafter(lower, +∞), nextafter(upper, −∞)]. When [a, b] holds fewer than
 * TAIL_FALLBACK_MIN_VALUES dtype values and both bounds lie on one side of 0, the same unit
 * uniform is mapped through the tail-accurate inverse CDF instead (see `truncatedNormal`).
 */
export function truncatedNormalData(
  key: KeyArray, lower: ArrayLike<number>, upper: ArrayLike<number>, dtype: FloatDType, modes: Modes,
): Float64Array | Float32Array {
  const size = lower.length;
  const out = uniformUnit(key, size, dtype, modes);
  const single = dtype === 'float32';
  let lastLo = Number.NaN, lastHi = Number.NaN, a = 0, b = 0, tail = false, clipLo = 0, clipHi = 0;
  for (let i = 0; i < size; i++) {
    const lo = lower[i]!, hi = upper[i]!;
    if (!(lo === lastLo && hi === lastHi)) {   // parameters are usually shared: compute once
      lastLo = lo; lastHi = hi;
      if (single) {
        a = Math.fround(erf(Math.fround(lo / SQRT2_F32)));
        b = Math.fround(erf(Math.fround(hi / SQRT2_F32)));
      } else {
        a = erf(lo / Math.SQRT2);
        b = erf(hi / Math.SQRT2);
      }
      tail = (lo >= 0 || hi <= 0) && valuesBetween(a, b, dtype) < TAIL_FALLBACK_MIN_VALUES;
      clipLo = nextAfter(lo, 1, dtype);
      clipHi = nextAfter(hi, -1, dtype);
    }
    const f = out[i]!;
    let x: number;
    if (tail) x = single ? Math.fround(truncatedNormalTailQuantile(lo, hi, f)) : truncatedNormalTailQuantile(lo, hi, f);
    else if (single) x = Math.fround(SQRT2_F32 * erfinv32(scaleUnit(f, a, b, dtype)));
    else x = Math.SQRT2 * erfinv64(scaleUnit(f, a, b, dtype));
    out[i] = Math.min(Math.max(x, clipLo), clipHi);
  }
  return out;
}

/**
 * Standard normal samples truncated to the open interval (lower, upper)
 * (`jax.random.truncated_normal`): density ∝ e^(−x²/2) on lower < x < upper.
 *
 * Values follow JAX's algorithm (a = erf(lower/√2), b = erf(upper/√2), u uniform on [a, b),
 * √2·erfinv(u), clipped into the open interval) and agree with JAX to a few ulp for moderate
 * bounds; nearer the tails the float32 result is ill-conditioned (erfinv near ±1 magnifies the
 * few-ulp difference between XLA's float32 erf and the correctly rounded one used here).
 *
 * Where that algorithm breaks down, values deliberately differ from JAX's: when [a, b] holds
 * fewer than 4096 values of the dtype and both bounds lie on one side of 0 (one-sided bounds
 * beyond about 3.7 in float32 or 7.2 in float64, or very narrow intervals away from 0). JAX
 * then has fewer than 4096 possible outcomes: for [8, 9] it returns 8.999999 for every float32
 * draw and 12 distinct values in float64. Here the same uniform is mapped instead through the
 * exact inverse CDF measured from the bound nearer 0, computed in float64 with scaled error
 * functions (`truncatedNormalTailQuantile`), so samples have the right distribution however far
 * out the interval lies.
 *
 * @param lower lower bound (may be −∞), a number, array or Tensor; broadcasts against `upper`.
 * @param upper upper bound (may be +∞), greater than `lower`.
 * @param shape result shape; defaults to the broadcast shape of `lower` and `upper`, which must
 *   broadcast to it.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric bound; RangeError when a bound is NaN, when
 *   `lower >= upper` anywhere, or when the shapes do not broadcast.
 * @example
 * random.truncatedNormal(random.key(0), 0, 2, [3]);            // → Tensor float64 [3]
 * random.truncatedNormal(random.key(0), 8, 9, [1000]);         // far tail: values in (8, 9)
 * random.truncatedNormal(random.key(0), [-1, 0], Infinity);    // → Tensor float64 [2]
 */
export function truncatedNormal(
  key: KeyArray, lower: ParamLike, upper: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType },
): Tensor<FloatDType> {
  const fn = 'random.truncatedNormal';
  checkKey(fn, 'key', key);
  const modes = getModes();
  const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, modes);
  const lo = floatParam(fn, 'lower', lower, dtype);
  const hi = floatParam(fn, 'upper', upper, dtype);
  const s = resolveShape(fn, shape, [['lower', lo], ['upper', hi]]);
  const los = paramValues(fn, 'lower', lo, s);
  const his = paramValues(fn, 'upper', hi, s);
  for (let i = 0; i < los.length; i++) {
    if (Number.isNaN(los[i])) fail('range', fn, 'lower', 'must not be NaN', los[i]);
    if (Number.isNaN(his[i])) fail('range', fn, 'upper', 'must not be NaN', his[i]);
    if (!(los[i]! < his[i]!)) fail('range', fn, 'lower', `must be less than \`upper\` (${his[i]}) in every element`, los[i]);
  }
  return new Tensor<FloatDType>(truncatedNormalData(key, los, his, dtype, modes), s, dtype);
}
