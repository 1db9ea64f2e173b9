/**
 * The regularised incomplete beta function I_x(a, b) in float64 and its derivatives: in x in
 * closed form, in a and b by differentiating the continued fraction along with its value.
 *
 * The continued fraction (DLMF 8.17.22)
 *   I_x(a, b) = x^a (1−x)^b / (a B(a, b)) · 1/(1 + d₁/(1 + d₂/(1 + …))),
 *   d₂ₘ₊₁ = −(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),  d₂ₘ = m(b−m) x / ((a+2m−1)(a+2m)),
 * is used on the side x ≤ (a+1)/(a+b+2) where it converges (the other side by the symmetry
 * I_x(a, b) = 1 − I_{1−x}(b, a)), evaluated by forward recurrence with the two tangents ∂/∂a,
 * ∂/∂b carried alongside (the approach of Boik and Robison-Cox, 1998). Near the mode of a beta
 * with large a + b it takes O(√(a + b)) terms.
 *
 * Values (betaincPair, I and 1 − I together) choose an expansion as DiDonato and Morris's BRATIO
 * does (ACM TOMS 708; the pieces are in betainc-parts.ts): closed forms for a or b = 1 and
 * a = b = ½; for a, b > 1 their continued fraction BFRAC on the side where it converges (its
 * leading terms do not cancel for large or skewed parameters, as DLMF 8.17.22's do); otherwise,
 * with x ≤ ½ after the symmetry, the power series BPSER where its terms cannot grow, the
 * asymptotic expansion BGRAT for a large second parameter, and the fraction above for the
 * moderate rest. Whichever side is computed is at most about ¾, so its complement keeps its
 * digits, or the complement is computed directly (the series of 1 − I for small a). Power terms
 * go through Stirling's formula (betaPowerLog) or, when a parameter is below 1, through
 * ln Γ(1 + a), ln Γ(1 + b) and ln Γ(b + a) − ln Γ(b) with the factor b/(a + b) kept outside the
 * exponential, so tiny parameters (down to 1e−300) keep their digits.
 *
 * Accuracy against mpmath at 50 digits (test/tensor/betainc.test.ts over the 2516 points of
 * fixtures/betainc-mpmath.py, a, b from 1e−300 to 1e10, x from 1e−300 to 1 − 1e−16, and
 * test/tensor/special.test.ts) and mathjs BigNumber on fresh points every run: I and 1 − I
 * within BETAINC_UNITS = 8 units of ε·(1 + κ) relative (4.1 the worst measured), κ the
 * condition number Σ|v ∂I/∂v|/I over a, b and x (a float64 input is only known to half an ulp,
 * so no implementation can do better than ε·κ).
 */
import { betaPowerLog, digammaDiff, logOneSide } from './gamma.js';
import { bfrac, bgrat, bpser, smallAComplement, smallAPower } from './betainc-parts.js';
import { detAsin, detExp, detExpm1, detLog, detLog1p, detPow } from '../../math/index.js';

const TWO_OVER_PI = 0.6366197723675814; // 2/π

const MAX_TERMS = 50_000_000;
const CF_EPS = 4e-16;

/** Results of the last parameter-derivative evaluation (module scratch, no allocation). */
let VALUE = 0, DA = 0, DB = 0;

function badArgs(a: number, b: number, x: number): boolean {
  return !(a > 0 && b > 0 && x >= 0 && x <= 1);
}

/**
 * I_x(a, b) = (1/B(a, b)) ∫₀ˣ t^(a−1) (1−t)^(b−1) dt for a, b > 0 and 0 ≤ x ≤ 1 (NaN elsewhere).
 * a = ∞ or b = ∞ give the limits 0 and 1 for 0 < x < 1.
 */
export function betaincScalar(a: number, b: number, x: number): number {
  if (badArgs(a, b, x)) return Number.NaN;
  if (x === 0 || x === 1) return x;
  if (a === Infinity) return b === Infinity ? Number.NaN : 0;
  if (b === Infinity) return 1;
  betaincPair(a, b, x, 1 - x, PAIR);
  return PAIR[0]!;
}

/**
 * The complement 1 − I_x(a, b) = I_{1−x}(b, a), accurate where it is tiny (same domain and
 * limits as betaincScalar).
 */
export function betaincUpperScalar(a: number, b: number, x: number): number {
  if (badArgs(a, b, x)) return Number.NaN;
  if (x === 0 || x === 1) return 1 - x;
  if (a === Infinity) return b === Infinity ? Number.NaN : 1;
  if (b === Infinity) return 0;
  betaincPair(a, b, x, 1 - x, PAIR);
  return PAIR[1]!;
}

const PAIR = new Float64Array(2);

/**
 * Error bound tested, in units of ε·(1 + κ) (see the module comment); the worst measured is 4.1
 * over the 2516 points of fixtures/betainc-mpmath.json and 0.3 over the large-parameter points of
 * fixtures/special-mpmath.json.
 */
export const BETAINC_UNITS = 8;

/**
 * I_x(a, b) into out[0] and 1 − I_x(a, b) into out[1], each to relative accuracy, for finite
 * a, b > 0 and 0 ≤ x ≤ 1 with y = 1 − x (pass y exactly when it is the small one). The choice of
 * expansion follows DiDonato and Morris's BRATIO (TOMS 708): for a, b > 1 the continued fraction
 * BFRAC on the side where λ = (a + b)y − b ≥ 0; otherwise, with x ≤ ½ after the symmetry, the
 * power series BPSER where its terms cannot grow, BGRAT for a large second parameter, and the
 * DLMF 8.17.22 fraction for the moderate rest. The side computed is at most about ¾, so its
 * complement keeps its digits; where it is not, the complement is computed directly.
 */
export function betaincPair(a: number, b: number, x: number, y: number, out: Float64Array): void {
  let i: number, ic: number;
  if (!(x > 0 && y > 0)) {
    out[0] = x > 0 ? 1 : y > 0 ? 0 : Number.NaN;
    out[1] = 1 - out[0]!;
    return;
  }
  if (b === 1 || a === 1) {
    // I_x(a, 1) = x^a; I_x(1, b) = 1 − y^b.
    const first = b === 1;
    const e = first ? a : b, v = first ? x : y, lv = first ? logOneSide(x, y) : logOneSide(y, x);
    const pw = v <= 0.5 ? detPow(v, e) : detExp(e * lv), rest = -detExpm1(e * lv); // the smaller of x, y is exact
    out[0] = first ? pw : rest;
    out[1] = first ? rest : pw;
    return;
  }
  if (a === 0.5 && b === 0.5) {
    // I_x(½, ½) = (2/π) asin √x, from whichever of x, y is the smaller.
    const s = TWO_OVER_PI * detAsin(Math.sqrt(Math.min(x, y)));
    out[0] = x <= y ? s : 1 - s;
    out[1] = x <= y ? 1 - s : s;
    return;
  }
  if (a > 1 && b > 1) {
    if (a * y - b * x >= 0) {
      i = bfrac(a, b, x, y);
      ic = 1 - i;
    } else {
      ic = bfrac(b, a, y, x);
      i = 1 - ic;
    }
    out[0] = i;
    out[1] = ic;
    return;
  }
  const flip = x > 0.5;
  const a0 = flip ? b : a, b0 = flip ? a : b, x0 = flip ? y : x, y0 = flip ? x : y;
  if (b0 <= 1 || (x0 < 0.3 && b0 * x0 <= 0.5)) {
    i = bpser(a0, b0, x0, logOneSide(x0, y0));
    ic = i < 0.75 || a0 > 1 ? 1 - i : smallAComplement(a0, b0, x0, y0);
  } else if (x0 >= 0.3) {
    // a0 ≤ 1 < b0: I ≥ I_x(a0, 1) = x^a0 ≥ 0.3, so the complement is the small side.
    ic = bpser(b0, a0, y0, logOneSide(y0, x0));
    i = 1 - ic;
  } else if (b0 >= 15) {
    // b0·x0 > ½ and a0 ≤ 1: I ≥ P(1, ½) ≈ 0.39 (the gamma limit), so again the complement is small.
    ic = bgrat(b0, a0, y0, x0);
    i = 1 - ic;
  } else {
    fractionPair(a0, b0, x0, y0);
    i = FRACTION_PAIR[0]!;
    ic = FRACTION_PAIR[1]!;
  }
  out[0] = flip ? ic : i;
  out[1] = flip ? i : ic;
}

const FRACTION_PAIR = new Float64Array(2);

/** FRACTION_PAIR = (I, 1 − I) from the DLMF 8.17.22 fraction on its side, and its slow side for a large complement. */
function fractionPair(a: number, b: number, x: number, y: number): void {
  const direct = x <= (a + 1) / (a + b + 2);
  const p = direct ? a : b, q = direct ? b : a, z = direct ? x : y, w = direct ? y : x;
  fraction(p, q, z, w, false);
  const j = VALUE;
  let jc: number;
  if (j < 0.75) jc = 1 - j;
  else {
    fraction(q, p, w, z, false);
    jc = VALUE;
  }
  FRACTION_PAIR[0] = direct ? j : jc;
  FRACTION_PAIR[1] = direct ? jc : j;
}

/** ∂I_x(a, b)/∂x = x^(a−1) (1−x)^(b−1) / B(a, b). */
export function betaincDx(a: number, b: number, x: number): number {
  if (badArgs(a, b, x)) return Number.NaN;
  if (x === 0) return a < 1 ? Infinity : a === 1 ? b : 0;
  if (x === 1) return b < 1 ? Infinity : b === 1 ? a : 0;
  if (a === Infinity || b === Infinity) return 0;
  return detExp(betaPowerLog(a, b, x) - detLog(x) - detLog1p(-x));
}

/**
 * The continued fraction on its side (x ≤ (a+1)/(a+b+2)); y = 1 − x. Sets VALUE to I_x(a, b)
 * and, when asked, DA, DB to its derivatives in a and b.
 */
function fraction(a: number, b: number, x: number, y: number, wantGrad: boolean): void {
  const c = a + b;
  // Aₙ = Aₙ₋₁ + dₙAₙ₋₂ (and B), with ∂/∂a and ∂/∂b tangents of each.
  let a2 = 1, b2 = 0, a2a = 0, b2a = 0, a2b = 0, b2b = 0; // n − 2
  let a1 = 1, b1 = 1, a1a = 0, b1a = 0, a1b = 0, b1b = 0; // n − 1
  let k = 1, ka = 0, kb = 0, settled = 0;
  for (let n = 1; n < MAX_TERMS; n++) {
    let d: number, da = 0, db = 0;
    if (n % 2 === 1) {
      const m = (n - 1) / 2;
      d = -((a + m) * (c + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
      if (wantGrad) {
        da = d * (1 / (a + m) + 1 / (c + m) - 1 / (a + 2 * m) - 1 / (a + 2 * m + 1));
        db = d / (c + m);
      }
    } else {
      const m = n / 2;
      const den = (a + 2 * m - 1) * (a + 2 * m);
      d = (m * (b - m) * x) / den;
      if (wantGrad) {
        da = -d * (1 / (a + 2 * m - 1) + 1 / (a + 2 * m));
        db = (m * x) / den;
      }
    }
    if (wantGrad) {
      const Aa = a1a + da * a2 + d * a2a, Ba = b1a + da * b2 + d * b2a;
      const Ab = a1b + db * a2 + d * a2b, Bb = b1b + db * b2 + d * b2b;
      a2a = a1a; b2a = b1a; a2b = a1b; b2b = b1b;
      a1a = Aa; b1a = Ba; a1b = Ab; b1b = Bb;
    }
    const A = a1 + d * a2, B = b1 + d * b2;
    a2 = a1; b2 = b1; a1 = A; b1 = B;
    const big = Math.abs(a1) > 1e150 || Math.abs(b1) > 1e150;
    if (big || (Math.abs(b1) < 1e-150 && b1 !== 0)) {
      const s = big ? 1e-150 : 1e150;
      a1 *= s; b1 *= s; a2 *= s; b2 *= s;
      a1a *= s; b1a *= s; a1b *= s; b1b *= s; a2a *= s; b2a *= s; a2b *= s; b2b *= s;
    }
    if (b1 === 0) continue;
    const kn = a1 / b1;
    // Rounding can keep the last digits from settling (when K is small after cancellation):
    // once K has settled to 1e−12, allow as many terms again, then stop regardless.
    if (settled === 0 && Math.abs(kn - k) <= 1e-12 * Math.abs(kn)) settled = n;
    let done = Math.abs(kn - k) <= CF_EPS * Math.abs(kn);
    k = kn;
    if (wantGrad) {
      const kan = (a1a - kn * b1a) / b1, kbn = (a1b - kn * b1b) / b1;
      done &&= Math.abs(kan - ka) <= CF_EPS * Math.abs(kan) && Math.abs(kbn - kb) <= CF_EPS * Math.abs(kbn);
      ka = kan; kb = kbn;
    }
    if (settled > 0 && n > 2 * settled + 100) done = true;
    if (done) break;
  }
  // I = e^L / K with L = ln(x^a y^b / (a B(a, b))).
  const power = a <= 1 || b < 1 ? smallAPower(a, b, logOneSide(x, y), logOneSide(y, x)) : detExp(betaPowerLog(a, b, x, y) - detLog(a));
  VALUE = power / k;
  if (!wantGrad) return;
  DA = VALUE * (logOneSide(x, y) - 1 / a + digammaDiff(a, b) - ka / k);
  DB = VALUE * (logOneSide(y, x) + digammaDiff(b, a) - kb / k);
}

/** Sets VALUE = I_x(a, b) and, when asked, DA, DB, from the fraction on the side where it converges. */
function evaluate(a: number, b: number, x: number, wantGrad: boolean): void {
  if (x <= (a + 1) / (a + b + 2)) {
    fraction(a, b, x, 1 - x, wantGrad);
  } else {
    // I_x(a, b) = 1 − I_y(b, a): the fraction's ∂/∂(first) is ∂/∂b here, negated.
    fraction(b, a, 1 - x, x, wantGrad);
    VALUE = 1 - VALUE;
    const first = DA;
    DA = -DB;
    DB = -first;
  }
}

function parameterGrad(a: number, b: number, x: number): void {
  if (badArgs(a, b, x)) { DA = DB = Number.NaN; return; }
  if (x === 0 || x === 1 || a === Infinity || b === Infinity) { DA = DB = 0; return; }
  evaluate(a, b, x, true);
}

/** ∂I_x(a, b)/∂a and ∂I_x(a, b)/∂b into out[0], out[1] (one continued fraction for both). */
export function betaincDaDb(a: number, b: number, x: number, out: number[]): void {
  parameterGrad(a, b, x);
  out[0] = DA;
  out[1] = DB;
}

/** ∂I_x(a, b)/∂a (negative: I falls as a grows). */
export function betaincDa(a: number, b: number, x: number): number {
  parameterGrad(a, b, x);
  return DA;
}

/** ∂I_x(a, b)/∂b (positive). */
export function betaincDb(a: number, b: number, x: number): number {
  parameterGrad(a, b, x);
  return DB;
}
