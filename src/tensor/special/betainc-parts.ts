/**
 * The expansions behind the regularised incomplete beta function I_x(a, b) (betainc.ts chooses
 * among them as DiDonato and Morris's BRATIO does, ACM TOMS 708, 1992): their continued fraction
 * BFRAC, the power series BPSER (DLMF 8.17.7), the series of 1 − I for small a (its leading terms
 * through expm1), the asymptotic expansion BGRAT for large a and small b (in the form of Boost's
 * `beta_small_b_large_a_series`; it needs only the upper incomplete gamma function), and the
 * power terms and log-gamma differences they need without cancellation at tiny parameters.
 */
import { betaPowerLog, gammaPowerLog, lbeta, lgamma, lgamma1p, log1pmx } from './gamma.js';
import { igammacScalar } from './igamma.js';
import { detExp, detExpm1, detLog, detLog1p } from '../../math/index.js';

/** Bernoulli numbers B₂ … B₁₆. */
const B2K = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510];

/**
 * ln Γ(q + p) − ln Γ(q) for p, q > 0, to a few ulp of the result even when p ≪ q or p is tiny
 * (where it is about p·ψ(q)): q is carried up to 10 by ln Γ(q + 1) = ln q + ln Γ(q) (the shifted
 * terms are log1p(p/(q + j))), then Stirling's formula is differenced term by term:
 * q·log1pmx(p/q) − ½ log1p(p/q) + p ln(q + p) + Σ B₂ₖ/(2k(2k−1)) q^(1−2k) expm1((1−2k) log1p(p/q)).
 */
export function lgammaRatio(q: number, p: number): number {
  let shift = 0;
  while (q < 10) {
    shift += detLog1p(p / q);
    q += 1;
  }
  const u = p / q, l = detLog1p(u), inv2 = 1 / (q * q);
  let s = 0, pw = 1 / q;
  for (let k = 1; k <= B2K.length; k++) {
    s += (B2K[k - 1]! / (2 * k * (2 * k - 1))) * pw * detExpm1((1 - 2 * k) * l);
    pw *= inv2;
  }
  return q * log1pmx(u) - 0.5 * l + p * detLog(q + p) + s - shift;
}

/** ln Γ(1 + s) for 0 < s ≤ 2 (the series near 1 where it vanishes). */
function lgammaOnePlus(s: number): number {
  return s <= 0.5 ? lgamma1p(s) : lgamma(1 + s);
}

/** ln(p·B(p, q)) = ln Γ(1 + p) + ln Γ(q) − ln Γ(p + q) for 0 < p ≤ 1, q > 0, without cancellation for tiny p. */
export function logPBeta(p: number, q: number): number {
  return lgammaOnePlus(p) - lgammaRatio(q, p);
}

/**
 * The power term z^p w^q/(p B(p, q)) of I_z(p, q) when p ≤ 1 or q < 1, with lz = ln z, lw = ln w.
 * Where q < 1 the factor q/(p + q) of 1/(p B(p, q)) = Γ(1 + p + q)/(Γ(1 + p) Γ(1 + q)) · q/(p + q)
 * (or q/p, for p > 1) is applied outside the exponential, so a tiny q costs no digits.
 */
export function smallAPower(p: number, q: number, lz: number, lw: number): number {
  if (p > 1) {
    // q < 1: 1/(p B(p, q)) = (q/p) Γ(p + q)/(Γ(p) Γ(1 + q)), the ratio Γ(p + q)/Γ(p) by lgammaRatio.
    return detExp(p * lz + q * lw + lgammaRatio(p, q) - lgammaOnePlus(q)) * (q / p);
  }
  if (q >= 1) return detExp(p * lz + q * lw - logPBeta(p, q));
  const s = p + q;
  return detExp(p * lz + q * lw - lgammaOnePlus(p) - lgammaOnePlus(q) + lgammaOnePlus(s)) * (q / s);
}

/**
 * 1 − I_z(p, q) for 0 < p ≤ 1 and q·z ≤ ½ (so the series below does not cancel), w = 1 − z.
 * I_z(p, q) = E·(1 + S) with E = z^p/(p B(p, q)) and S = Σₙ≥₁ (1 − q)ₙ zⁿ/n! · p/(p + n)
 * (DLMF 8.17.7, 2F1(p, 1 − q; p + 1; z)), so 1 − I = −expm1(ln E) − E·S, both parts small.
 */
export function smallAComplement(p: number, q: number, z: number, w: number): number {
  const lz = w < 0.5 ? detLog1p(-w) : detLog(z);
  const lE = p * lz - logPBeta(p, q);
  let t = 1, s = 0;
  for (let n = 1; n < 10_000; n++) {
    t *= ((n - q) * z) / n;
    const term = (t * p) / (p + n);
    s += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(s) || t === 0) break;
  }
  return -detExpm1(lE) - detExp(lE) * s;
}

/** 1/(2n+1)! for n = 0 … 30. */
const INV_ODD_FACTORIAL = (() => {
  const out = new Float64Array(31);
  let f = 1;
  for (let n = 0, k = 1; n <= 30; n++) {
    out[n] = 1 / f;
    f *= (k + 1) * (k + 2);
    k += 2;
  }
  return out;
})();
const PN = new Float64Array(31);

/**
 * I_x(a, b) for large a and small b (a ≥ 15 or so, b below about 40) by DiDonato and Morris's
 * expansion in incomplete gamma functions: with T = a + (b − 1)/2 and u = −T ln x,
 * I_x(a, b) = Γ(a + b)/(Γ(a) T^b) · Σₙ pₙ Jₙ, J₀ = Q(b, u), the pₙ from their recursion (9.4) and
 * Jₙ from (9.6), both carried here multiplied by h = u^b e^−u/Γ(b) so that nothing divides by an
 * underflowing h. y = 1 − x (pass it exactly when it is small).
 */
export function bgrat(a: number, b: number, x: number, y: number): number {
  const bm1 = b - 1, t = a + bm1 / 2;
  const lx = y < 0.35 ? detLog1p(-y) : detLog(x);
  const u = -t * lx;
  const g = detExp(lgammaRatio(a, b) - b * detLog(t)); // Γ(a + b)/(Γ(a) T^b)
  const h = detExp(gammaPowerLog(b, u));
  let jh = igammacScalar(b, u); // h·J₀
  let sum = jh;
  const lx2 = (lx / 2) * (lx / 2), t4 = 4 * t * t;
  let lxp = 1, b2n = b;
  PN[0] = 1;
  for (let n = 1; n <= 30; n++) {
    let pn = 0;
    for (let m = 1; m < n; m++) pn += (m * b - n) * PN[n - m]! * INV_ODD_FACTORIAL[m]!;
    pn = pn / n + bm1 * INV_ODD_FACTORIAL[n]!;
    PN[n] = pn;
    jh = (b2n * (b2n + 1) * jh + (u + b2n + 1) * lxp * h) / t4;
    lxp *= lx2;
    b2n += 2;
    const r = pn * jh;
    sum += r;
    if (Math.abs(r) <= 1e-17 * Math.abs(sum)) break;
  }
  return g * sum;
}

/**
 * I_x(a, b) for a, b > 1 with λ = (a + b)y − b ≥ 0 (x at most the mean, about), by DiDonato and
 * Morris's continued fraction (BFRAC, TOMS 708; Boost's `ibeta_fraction2`):
 * I = x^a y^b/B(a, b) / (β₀ + α₁/(β₁ + α₂/(β₂ + …))) with β₀ = a(λ + 1)/(a + 1),
 * αₘ = (a+m−1)(a+b+m−1) m (b−m) x²/(a+2m−1)², βₘ = m + m(b−m)x/(a+2m−1) + (a+m)(λ+1+m(2−x))/(a+2m+1).
 * Unlike DLMF 8.17.22 its leading terms do not cancel when a + b is large, so skewed and large
 * parameters keep their digits. Modified Lentz evaluation.
 */
export function bfrac(a: number, b: number, x: number, y: number): number {
  const power = detExp(betaPowerLog(a, b, x, y));
  if (power === 0) return 0;
  const lambda = a * y - b * x;
  const TINY = 1e-300;
  let f = (a * (lambda + 1)) / (a + 1);
  if (f === 0) f = TINY;
  let c = f, d = 0;
  // About 0.4·√(a + b) terms near the mean (5e5 at a = b = 1e15); the cap is the DLMF fraction's.
  for (let m = 1; m < 50_000_000; m++) {
    const den = a + 2 * m - 1;
    const an = ((a + m - 1) / den) * ((a + b + m - 1) / den) * m * (b - m) * x * x; // divided first: no overflow for huge a, b
    const bn = m + (m * (b - m) * x) / den + ((a + m) * (lambda + 1 + m * (2 - x))) / (a + 2 * m + 1);
    d = bn + an * d;
    if (d === 0) d = TINY;
    c = bn + an / c;
    if (c === 0) c = TINY;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) <= 1e-16) break;
  }
  return power / f;
}

/**
 * I_x(a, b) by its power series (DiDonato and Morris's BPSER; DLMF 8.17.7):
 * x^a/(a B(a, b)) · (1 + a Σⱼ≥₁ (1 − b)ⱼ xʲ/(j! (a + j))), for x ≤ ½ with b ≤ 1 (positive terms)
 * or b·x ≤ ½ (alternating terms that cannot grow). lx = ln x.
 */
export function bpser(a: number, b: number, x: number, lx: number): number {
  const e = a <= 1 || b < 1 ? smallAPower(a, b, lx, 0) : detExp(a * lx - detLog(a) - lbeta(a, b));
  if (e === 0) return 0;
  let t = 1, s = 0;
  for (let j = 1; j < 100_000; j++) {
    t *= ((j - b) * x) / j;
    const term = (t * a) / (a + j);
    s += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(1 + s) || t === 0) break;
  }
  return e * (1 + s);
}
