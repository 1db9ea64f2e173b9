/**
 * Scalar gamma-family functions in float64: log|Γ|, digamma, trigamma, tetragamma, log|B|, and
 * the accurate building blocks the incomplete gamma and beta functions share (ln(1+x) − x,
 * Stirling's error term, ln Γ(1+a) for small a, and the log of the power terms x^a e^−x / Γ(a)
 * and x^a (1−x)^b / B(a, b) without the cancellation of the naive formulas at large a, b).
 *
 * All are written here (log|Γ|, ψ and ln B were @stdlib's, 114 packages for three functions) and
 * verified against mpmath in test/tensor/special.test.ts.
 */
import { detCos, detExpm1, detLog, detLog1p, detSin } from '../../math/index.js';

const LN_SQRT_2PI = 0.9189385332046728; // ½ ln 2π
const EULER = 0.5772156649015329;
const PI = Math.PI;

/** ζ(k) − 1 for k = 2, 3, …, 41 (rounded once from 40-digit values). */
const ZETA_M1 = [
  0.6449340668482264, 0.2020569031595943, 0.08232323371113819, 0.03692775514336993, 0.01734306198444914,
  0.008349277381922827, 0.00407735619794434, 0.0020083928260822143, 0.0009945751278180853, 0.0004941886041194645,
  0.0002460865533080483, 0.00012271334757848915, 6.124813505870483e-05, 3.058823630702049e-05, 1.528225940865187e-05,
  7.637197637899763e-06, 3.81729326499984e-06, 1.908212716553939e-06, 9.539620338727962e-07, 4.769329867878064e-07,
  2.38450502727733e-07, 1.1921992596531106e-07, 5.960818905125948e-08, 2.980350351465228e-08, 1.4901554828365043e-08,
  7.45071178983543e-09, 3.725334024788457e-09, 1.862659723513049e-09, 9.313274324196682e-10, 4.656629065033784e-10,
  2.3283118336765053e-10, 1.164155017270052e-10, 5.820772087902701e-11, 2.9103850444971e-11, 1.4551921891041985e-11,
  7.275959835057482e-12, 3.637979547378651e-12, 1.818989650307066e-12, 9.094947840263888e-13, 4.547473783042154e-13,
];

/** True at the poles of Γ: 0 and the negative integers. */
function isPole(x: number): boolean {
  return x <= 0 && Number.isInteger(x);
}

/** sin(πx) with the argument reduced exactly first, so it is accurate near the integers. */
export function sinpi(x: number): number {
  const r = x - 2 * Math.round(x / 2); // in [−1, 1], exact
  if (r === 0 || Math.abs(r) === 1) return 0;
  if (r > 0.5) return detSin(PI * (1 - r));
  if (r < -0.5) return -detSin(PI * (1 + r));
  return detSin(PI * r);
}

/** cos(πx) with the argument reduced exactly first. */
function cospi(x: number): number {
  const r = Math.abs(x - 2 * Math.round(x / 2)); // in [0, 1], exact
  if (r === 0.5) return 0;
  return r < 0.5 ? detCos(PI * r) : -detCos(PI * (1 - r));
}

/**
 * ln|Γ(x)| for every real x: +∞ at the poles (0 and the negative integers) and at ±∞. Accurate to
 * a few ulp for x > 0; for x < 0 to a few ulp times the condition number |x·ψ(x) / ln|Γ(x)||,
 * which is large only next to the poles and to the zeros of ln|Γ| (x ≈ −2.457, −2.748, …).
 */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x === -Infinity || isPole(x)) return Infinity;
  if (x > 0) return lgammaPositive(x);
  if (x > -0.5) return lgamma1p(x) - detLog(-x);   // Γ(x) = Γ(1 + x)/x
  // Reflection Γ(x) Γ(−x) = −π/(x sin πx): −x is exact (1 − x is not) and the two logs cancel less.
  return detLog(PI / Math.abs(x * sinpi(x))) - lgammaPositive(-x);
}

/**
 * ln Γ(x) for x > 0: ln Γ(1 + a) by its series (|a| ≤ ½) near 1 and 2, where ln Γ vanishes; in
 * (2.5, 10) from Γ(x) = (x − 1)…(x − n) Γ(x − n) (the factors are exact, the product has no
 * cancellation); above, Stirling's formula (x − ½)(ln x − 1) + ½ ln 2π − ½ + stirlingError(x).
 */
function lgammaPositive(x: number): number {
  if (x < 0.5) return lgamma1p(x) - detLog(x);
  if (x <= 1.5) return lgamma1p(x - 1);
  if (x < 10) {
    let p = 1;
    while (x > 2.5) { x -= 1; p *= x; }
    const b = x - 2;   // Γ(2 + b) = (1 + b) Γ(1 + b)
    return (p === 1 ? 0 : detLog(p)) + detLog1p(b) + lgamma1p(b);
  }
  return (x - 0.5) * (detLog(x) - 1) + (LN_SQRT_2PI - 0.5) + stirlingError(x);
}

/** ln Γ(1 + a) for |a| ≤ 0.5 without the rounding of 1 + a (DLMF 5.7.3 with ζ(k) − 1). */
export function lgamma1p(a: number): number {
  if (Math.abs(a) > 0.5) return lgamma(1 + a);
  let s = 0;
  let p = -a; // (−a)^(k−1)
  for (let k = 2; k <= 41; k++) {
    p *= -a;
    const term = (ZETA_M1[k - 2]! * p) / k;
    s += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(s)) break;
  }
  return -detLog1p(a) + a * (1 - EULER) + s;
}

/**
 * The digamma function ψ(x) = d/dx ln|Γ(x)|; NaN at the poles. Accurate to a few ulp times its
 * condition number (which is large only near the poles and the zeros of ψ).
 */
export function digamma(x: number): number {
  if (Number.isNaN(x) || isPole(x) || x === -Infinity) return Number.NaN;
  if (x > 0) return digammaPositive(x);
  if (x > -0.5) return digamma1p(x) - 1 / x;   // ψ(x) = ψ(1 + x) − 1/x
  // Reflection: ψ(x) = ψ(1 − x) − π cot(πx).
  return digammaPositive(1 - x) - (PI * cospi(x)) / sinpi(x);
}

/**
 * S(t) = Σₖ₌₂ (−1)ᵏ (ζ(k) − 1) tᵏ⁻¹ for |t| ≤ ½: DLMF 5.7.4, ψ(1 + t) = −γ + Σₖ₌₂ (−1)ᵏ ζ(k) tᵏ⁻¹,
 * less its ζ-free part Σ (−1)ᵏ tᵏ⁻¹ = t/(1 + t); the terms fall like (t/2)ᵏ, so 40 suffice.
 */
function digammaSeries(t: number): number {
  let h = 0;
  for (let j = ZETA_M1.length - 1; j >= 0; j--) h = h * -t + ZETA_M1[j]!;
  return t * h;
}

/** ψ(1 + a) for |a| ≤ ½ (the positive root of ψ, 1.4616…, is in this range). */
function digamma1p(a: number): number {
  return -EULER + a / (1 + a) + digammaSeries(a);
}

/**
 * ψ(x) for x > 0: the series near 1 and 2 (ψ(2 + b) = 1 − γ + S(b)); in (2.5, 10) from
 * ψ(x) = ψ(x − n) + Σ 1/(x − k), all positive terms, smallest first; above, the asymptotic
 * series ln x − 1/(2x) − Σ B₂ₖ/(2k x²ᵏ) (DLMF 5.11.2; eight terms, truncation below 1e−18).
 */
function digammaPositive(x: number): number {
  if (x < 0.5) return digamma1p(x) - 1 / x;
  if (x <= 1.5) return digamma1p(x - 1);
  if (x < 10) {
    let s = 0;
    while (x > 2.5) { x -= 1; s += 1 / x; }
    return (1 - EULER) + digammaSeries(x - 2) + s;
  }
  const inv2 = 1 / (x * x);
  let s = 0;
  for (let k = B2K.length; k >= 1; k--) s = s * inv2 + B2K[k - 1]! / (2 * k);
  return detLog(x) - 0.5 / x - s * inv2;
}

/** The Bernoulli numbers B₂, B₄, …, B₁₆ (for the asymptotic series of ψ⁽ⁿ⁾ and ln Γ). */
const B2K = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510];

/**
 * ψ(b + a) − ψ(b) for a, b > 0 without the cancellation of the plain difference when a ≪ b:
 * b is carried up to 10 by ψ(z + 1) = ψ(z) + 1/z (the differences of the shifted terms,
 * −a/((b+j)(b+a+j)), are exact in form), then the asymptotic series of ψ is differenced term by
 * term: ln(1 + a/b) + a/(2b(b+a)) − Σ B₂ₖ/(2k b²ᵏ) · expm1(−2k ln(1 + a/b)).
 */
export function digammaDiff(b: number, a: number): number {
  if (!(a > 0 && b > 0)) return digamma(b + a) - digamma(b);
  if (a === Infinity || b === Infinity) return a === Infinity && b !== Infinity ? Infinity : 0;
  let shift = 0;
  while (b < 10) {
    shift += a / (b * (b + a));
    b += 1;
  }
  const t = a / b, l = detLog1p(t), inv2 = 1 / (b * b);
  let s = 0, p = 1;
  for (let k = 1; k <= B2K.length; k++) {
    p *= inv2;
    s += (B2K[k - 1]! / (2 * k)) * p * detExpm1(-2 * k * l);
  }
  return shift + l + a / (2 * b * (b + a)) - s;
}


/**
 * ψ⁽ⁿ⁾(x) for n = 1, 2 and x > 0: the recurrence ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x + 1) + (−1)ⁿ⁺¹ n!/xⁿ⁺¹
 * carries x up to 12, then the asymptotic series (DLMF 5.15.8) with eight Bernoulli terms
 * (truncation below 1e−18 relative). Every term has one sign, so nothing cancels.
 */
function polygammaPositive(n: 1 | 2, x: number): number {
  let shift = 0;
  while (x < 12) {
    shift += n === 1 ? 1 / (x * x) : 2 / (x * x * x);
    x += 1;
  }
  const inv = 1 / x, inv2 = inv * inv;
  // Σ B₂ₖ (2k + n − 1)! / (2k)! / x^(2k+n), Horner in 1/x², from the smallest term up.
  let s = 0;
  for (let k = B2K.length; k >= 1; k--) {
    let c = B2K[k - 1]!;
    // (2k + n − 1)! / (2k)! is 1 for n = 1 and 2k + 1 for n = 2.
    if (n === 2) c *= 2 * k + 1;
    s = s * inv2 + c;
  }
  if (n === 1) {
    // 1/x + 1/(2x²) + Σ B₂ₖ / x^(2k+1)
    return shift + inv + 0.5 * inv2 + s * inv2 * inv;
  }
  // −(1/x² + 1/x³ + Σ (2k+1) B₂ₖ / x^(2k+2))
  return -shift - (inv2 + inv2 * inv + s * inv2 * inv2);
}

/**
 * The trigamma function ψ′(x) = ψ⁽¹⁾(x); +∞ at the poles. For x < 0 by the reflection
 * ψ′(x) = π²/sin²(πx) − ψ′(1 − x). About 2 ulp for x > 0.
 */
export function trigamma(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return Number.NaN;
  if (isPole(x)) return Infinity;
  if (x === Infinity) return 0;
  if (x > 0) return polygammaPositive(1, x);
  const s = sinpi(x);
  return (PI * PI) / (s * s) - polygammaPositive(1, 1 - x);
}

/**
 * The tetragamma function ψ⁽²⁾(x) (the derivative of trigamma); NaN at the poles. For x < 0 by
 * the reflection ψ⁽²⁾(x) = ψ⁽²⁾(1 − x) − 2π³ cos(πx)/sin³(πx).
 */
export function tetragamma(x: number): number {
  if (Number.isNaN(x) || isPole(x) || x === -Infinity) return Number.NaN;
  if (x === Infinity) return 0;
  if (x > 0) return polygammaPositive(2, x);
  const s = sinpi(x);
  return polygammaPositive(2, 1 - x) - (2 * PI * PI * PI * cospi(x)) / (s * s * s);
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b) for a, b > 0 (NaN otherwise). */
export function lbeta(a: number, b: number): number {
  if (a > 0 && b > 0) return lbetaPositive(a, b);
  return (a === 0 && b >= 0) || (b === 0 && a >= 0) ? Infinity : Number.NaN;
}

/**
 * ln B(a, b) for a, b > 0 (R's lbeta, with Stirling's error term): with p ≤ q, when both are
 * large ln B = −½ ln q + ½ ln 2π + Δ + (p − ½) ln(p/(p + q)) + q ln(1 − p/(p + q)), Δ the
 * error terms; when only q is, ln Γ(p) + Δ + p − p ln(p + q) + (q − ½) ln(1 − p/(p + q)); so
 * the large ln Γ values never cancel each other.
 */
function lbetaPositive(a: number, b: number): number {
  const p = Math.min(a, b), q = Math.max(a, b), s = p + q;
  if (q === Infinity) return -Infinity;   // B(a, b) → 0
  if (p >= 10) {
    const corr = stirlingError(p) + stirlingError(q) - stirlingError(s);
    return -0.5 * detLog(q) + LN_SQRT_2PI + corr + (p - 0.5) * detLog(p / s) + q * detLog1p(-p / s);
  }
  if (q >= 10) return lgamma(p) + lgammaDelta(q, p);
  if (q < LBETA_SHIFT) return lgamma(p) + lgamma(q) - lgamma(s);
  // ln Γ(q) − ln Γ(q + p) would cancel: carry q up to 10 by Γ(q + 1) = q Γ(q), Γ(q + p + 1) = (q + p) Γ(q + p).
  let r = 1, t = q;
  while (t < 10) { r *= (t + p) / t; t += 1; }
  return lgamma(p) + lgammaDelta(t, p) + detLog(r);
}

/** Below this, ln Γ(q) − ln Γ(q + p) (q < 10) is small enough not to cancel (tuned on the dense mpmath fixture). */
const LBETA_SHIFT = 2.5;

/** ln Γ(q) − ln Γ(q + p) for p > 0, q ≥ 10, from Stirling's formula: the two ln Γ never meet. */
function lgammaDelta(q: number, p: number): number {
  const s = q + p;
  return stirlingError(q) - stirlingError(s) + p - p * detLog(s) + (q - 0.5) * detLog1p(-p / s);
}

/** ln(1 + x) − x for x > −1, accurate near 0 (where it is about −x²/2). */
export function log1pmx(x: number): number {
  if (Math.abs(x) > 0.5) return detLog1p(x) - x;
  // −x²/2 + x³/3 − …, written as Σ (−x)^k / k from k = 2, which converges for |x| ≤ 0.5 in ≤ 50 terms.
  let p = x, s = 0;
  for (let k = 2; k < 60; k++) {
    p *= -x;
    const term = p / k;
    s += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(s)) break;
  }
  return s;
}

/** ln(x/y) for positive x, y, without overflow or underflow of the ratio. */
function logRatio(x: number, y: number): number {
  const r = x / y;
  return r > 1e-300 && r < 1e300 ? detLog(r) : detLog(x) - detLog(y);
}

/**
 * Stirling's error term ln Γ(a) − [(a − ½) ln a − a + ½ ln 2π] for a > 0; by its asymptotic
 * series (eight terms, truncation below 4e−17 absolute) for a ≥ 10.
 */
export function stirlingError(a: number): number {
  if (a < 10) return lgamma(a) - (a - 0.5) * detLog(a) + a - LN_SQRT_2PI;
  const inv = 1 / a, inv2 = inv * inv;
  // Σ B₂ₖ / (2k (2k − 1) a^(2k−1))
  let s = 0;
  for (let k = B2K.length; k >= 1; k--) s = s * inv2 + B2K[k - 1]! / (2 * k * (2 * k - 1));
  return s * inv;
}

/**
 * ln(x^a e^−x / Γ(a)) for a > 0, x > 0. For a ≥ 10 it is written as
 * a·log1pmx((x − a)/a) + ½ ln(a/2π) − stirlingError(a), which keeps the absolute error at a few
 * ulp where the naive a ln x − x − ln Γ(a) would lose about log₁₀(a) digits to cancellation.
 */
export function gammaPowerLog(a: number, x: number): number {
  if (a < 10) return a * detLog(x) - x - lgamma(a);
  const u = (x - a) / a;
  // a·(ln(x/a) − (x − a)/a); ln(x/a) directly away from the mode, where u loses x's accuracy.
  const main = Math.abs(u) < 0.5 ? a * log1pmx(u) : a * logRatio(x, a) - (x - a);
  return main + 0.5 * detLog(a) - LN_SQRT_2PI - stirlingError(a);
}

/**
 * ln x where y = 1 − x: from log1p(−y) when y < ½ (where y is the exact one of the pair and x
 * may carry the rounding of 1 − y), else from x itself.
 */
export function logOneSide(x: number, y: number): number {
  return y < 0.5 ? detLog1p(-y) : detLog(x);
}

/** ln((p + q)/p) = ln(1 + q/p) for positive p, q, accurate when q ≪ p and without overflow. */
function log1pRatio(q: number, p: number): number {
  const r = q / p;
  return r < 1e300 ? detLog1p(r) : detLog(q) - detLog(p);
}

/**
 * ln(x^a y^b / B(a, b)) for a, b > 0, 0 < x < 1 and y = 1 − x (pass y when it is known more
 * accurately than 1 − x rounds). Written through Stirling's formula as
 * a ln(x c/a) + b ln(y c/b) + ½ ln(ab / (2πc)) − s(a) − s(b) + s(c) with c = a + b and s the
 * Stirling error. With d = x c − a, the two logs are ln(1 + d/a) and ln(1 − d/b); each is taken
 * as log1pmx plus its linear part where its argument is small (the linear parts ±d then cancel
 * exactly) and from ln x, ln y and ln(c/a), ln(c/b) where it is not, so neither the cancellation
 * near the mode nor the rounding of d far from it costs digits.
 */
export function betaPowerLog(a: number, b: number, x: number, y = 1 - x): number {
  const c = a + b;
  const lx = logOneSide(x, y), ly = logOneSide(y, x);
  if (c < 10) return a * lx + b * ly - lbeta(a, b);
  const d = b * x - a * y; // = x c − a, without the rounding of x c when y is the small one
  const u = d / a, v = -d / b;
  const smallU = Math.abs(u) < 0.5, smallV = Math.abs(v) < 0.5;
  let main = smallU ? a * log1pmx(u) : a * (lx + log1pRatio(b, a));
  main += smallV ? b * log1pmx(v) : b * (ly + log1pRatio(a, b));
  if (smallU !== smallV) main += smallU ? d : -d; // the linear part of the one side taken by log1pmx
  return main + 0.5 * detLog((a / c) * b) - LN_SQRT_2PI - stirlingError(a) - stirlingError(b) + stirlingError(c);
}
