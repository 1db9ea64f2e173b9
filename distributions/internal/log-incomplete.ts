/**
 * Logarithms of the regularised incomplete gamma and beta functions that stay finite where the
 * functions themselves underflow (far lower or upper tails), with their parameter derivatives:
 * what `logCdf` / `logSurvivalFunction` of Chi2, InverseGamma and Beta need.
 *
 * Where the function is at least 1e−280 its direct value is used (log P, or log1p(−Q) when
 * P > ½ so values near 1 keep their digits), with ∂/∂a from src/tensor/special. Below that,
 * the expansion is summed in log space:
 * - log P(a, x) = ln(x^a e^−x/Γ(a+1)) + ln Σₙ xⁿ/((a+1)…(a+n))  (DLMF 8.7.1, positive terms);
 * - log Q(a, x) = ln(x^a e^−x/Γ(a)) − ln K, K Legendre's continued fraction (DLMF 8.9.2);
 * - log I_x(a, b) = ln(x^a (1−x)^b / (a B(a, b))) + ln ₂F₁(a+b, 1; a+1; x)  (DLMF 8.17.8),
 * each differentiated in the parameters along with its value (forward mode).
 */
import { igammainv } from './igammainv.js';
import { digamma, gammaPowerLog, lgamma1p, betaPowerLog } from '../../src/tensor/special/gamma.js';
import { igammaDa, igammaScalar, igammacScalar, legendreFraction } from '../../src/tensor/special/igamma.js';
import { betaincDaDb, betaincScalar } from '../../src/tensor/special/betainc.js';
import { detExp, detLog, detLog1p } from '../../src/math/index.js';

const TINY = 1e-280;
const EPS = 1e-17;

/** ln(x^a e^−x / Γ(a+1)). */
function powerLog1(a: number, x: number): number {
  return a < 10 ? a * detLog(x) - x - lgamma1p(a) : gammaPowerLog(a, x) - detLog(a);
}

/** [log P(a, x), ∂ log P/∂a] for a > 0, x ≥ 0. */
export function logIgamma(a: number, x: number, wantDa = false): [number, number] {
  if (!(a > 0 && x >= 0)) return [Number.NaN, Number.NaN];
  if (x === 0) return [-Infinity, 0];
  const p = igammaScalar(a, x);
  if (p >= TINY || x >= a) {
    const v = p > 0.5 ? detLog1p(-igammacScalar(a, x)) : detLog(p);
    return [v, wantDa ? igammaDa(a, x) / p : 0];
  }
  let t = 1, s = 1, h = 0, ds = 0;
  for (let n = 1; n < 100000; n++) {
    t *= x / (a + n);
    s += t;
    h += 1 / (a + n);
    ds -= t * h;
    if (t <= EPS * s) break;
  }
  return [powerLog1(a, x) + detLog(s), detLog(x) - digamma(a + 1) + ds / s];
}

/** [log Q(a, x), ∂ log Q/∂a] for a > 0, x ≥ 0. */
export function logIgammac(a: number, x: number, wantDa = false): [number, number] {
  if (!(a > 0 && x >= 0)) return [Number.NaN, Number.NaN];
  if (x === Infinity) return [-Infinity, 0];
  const q = igammacScalar(a, x);
  if (q >= TINY || x <= a || x < 1.1) {
    const v = q > 0.5 ? detLog1p(-igammaScalar(a, x)) : detLog(q);
    return [v, wantDa ? -igammaDa(a, x) / q : 0];
  }
  const [k, dk] = gammaContinuedFraction(a, x);
  return [gammaPowerLog(a, x) - detLog(k), detLog(x) - digamma(a) - dk / k];
}

/**
 * [log I_x(a, b), ∂/∂a, ∂/∂b] for a, b > 0 and 0 ≤ x ≤ 1 (the derivatives only when `wantD`).
 * `y` = 1 − x when it is known more accurately than 1 − x rounds.
 */
export function logBetainc(a: number, b: number, x: number, wantD = false, y = 1 - x): [number, number, number] {
  if (!(a > 0 && b > 0 && x >= 0 && x <= 1)) return [Number.NaN, Number.NaN, Number.NaN];
  if (x === 0) return [-Infinity, 0, 0];
  if (y === 0) return [0, 0, 0];
  const v = betaincScalar(a, b, x);
  const d = [0, 0];
  if (v > 0.5) {
    // From the complement I_y(b, a), which keeps the digits of a value near 1.
    const c = betaincScalar(b, a, y);
    if (wantD) betaincDaDb(b, a, y, d);
    return [detLog1p(-c), -d[1]! / v, -d[0]! / v];
  }
  if (v >= TINY) {
    if (wantD) betaincDaDb(a, b, x, d);
    return [detLog(v), d[0]! / v, d[1]! / v];
  }
  // ₂F₁(a+b, 1; a+1; x) = Σ tₖ, t₀ = 1, tₖ₊₁ = tₖ·rₖ, rₖ = (a+b+k)x/(a+1+k).
  let t = 1, s = 1, dta = 0, dtb = 0, dsa = 0, dsb = 0;
  for (let k = 0; k < 100000; k++) {
    const den = a + 1 + k, r = ((a + b + k) * x) / den;
    const ra = (x * (1 - b)) / (den * den), rb = x / den;
    dta = dta * r + t * ra;
    dtb = dtb * r + t * rb;
    t *= r;
    s += t; dsa += dta; dsb += dtb;
    if (t <= EPS * s) break;
  }
  const lx = detLog(x), ly = y < 0.5 ? detLog(y) : detLog1p(-x);
  const psiC = digamma(a + b);
  const value = betaPowerLog(a, b, x, y) - detLog(a) + detLog(s);
  return [value, lx - digamma(a) + psiC - 1 / a + dsa / s, ly - digamma(b) + psiC + dsb / s];
}

/**
 * z with P(a, z) = p (or Q(a, z) = p when `upper`): `igammainv` as the start, then Newton steps on the log of the
 * tail in log z. That function is concave (the log-gamma law is log-concave), so after at most
 * one step the iterates approach the root monotonically, in the far tails too. 0 when the root
 * is below the smallest float.
 */
export function igammaInv(a: number, p: number, upper = false): number {
  if (!(a > 0 && p >= 0 && p <= 1)) return Number.NaN;
  if (p === (upper ? 1 : 0)) return 0;
  if (p === (upper ? 0 : 1)) return Infinity;
  let z = upper ? igammainv(a, 1 - p) : igammainv(a, p);
  if (!(z > 0 && z < Infinity)) z = upper ? a + 1 : a;
  const lp = detLog(p);
  for (let i = 0; i < 60; i++) {
    const lt = upper ? logIgammac(a, z)[0] : logIgamma(a, z)[0];
    const slope = detExp(gammaPowerLog(a, z) - lt) * (upper ? -1 : 1); // d log(tail)/d log z
    const step = (lt - lp) / slope;
    if (!Number.isFinite(step)) break;
    const next = z * detExp(-Math.max(-700, Math.min(700, step)));
    if (next === 0) { if (z === Number.MIN_VALUE) return 0; z = Number.MIN_VALUE; continue; }
    z = next;
    if (Math.abs(step) < 1e-15) break;
  }
  return z;
}

/** Legendre's continued fraction K for Γ(a, x) = xᵃe⁻ˣ/K and dK/da (see `legendreFraction`). */
export function gammaContinuedFraction(a: number, x: number): [number, number] {
  return legendreFraction(a, x, { wantDa: true, maxTerms: 100_000, settle: false });
}
