/**
 * The inverse of the regularised incomplete beta function in x: x with I_x(a, b) = p (or, with
 * `upper`, 1 − I_x(a, b) = p), as used by the beta and Student-t quantiles and ArviZ's MCSE.
 *
 * The root is found in whichever of x and y = 1 − x is at most ½ (so the answer keeps its digits
 * near 0 and near 1) by Newton's method on ln S(v) − ln p* in ln v, where S is whichever of I and
 * 1 − I is the smaller at the target and p* its target (the given p, or its exact complement):
 * near either end I behaves like a power of v, for which this Newton step is exact. The first
 * point is the better of the power law (I ≈ x^a/(a B(a, b)), 1 − I ≈ y^b/(b B(a, b))) and the
 * normal approximation; a bracket kept from the signs seen falls back to bisection when a step
 * leaves it. Each step evaluates betaincPair (I and 1 − I both to relative accuracy), so the
 * result is as accurate as the problem allows: within BETAINCINV_UNITS·ε·(1 + λ(1 + κ)) of the
 * exact inverse, λ = S/(v |dS/dv|) the inverse's own condition number in p and κ that of S in a,
 * b (test/tensor/betainc.test.ts, fixtures/betainc-mpmath.py).
 */
import { BETAINC_UNITS, betaincPair } from './betainc.js';
import { logPBeta } from './betainc-parts.js';
import { erfinv } from './erf.js';
import { betaPowerLog, lbeta } from './gamma.js';
import { detExp, detLog, detLog1p } from '../../math/index.js';

/**
 * Error bound tested, in units of ε·(1 + λ(1 + κ)) (see the module comment). The root is found
 * through betaincPair, whose values are within BETAINC_UNITS·ε·(1 + κ) relative: that moves the
 * root by up to BETAINC_UNITS·ε·λ(1 + κ), and Newton stops within two ulp, so the bound is
 * BETAINC_UNITS. The worst measured is 2.8 over the 887 roots of fixtures/betainc-mpmath.json;
 * 4.6 at betaincinv(0.1528349161088304, 0.27016911123983806, 13, true) (random points of the
 * test, seed 925538737), above the 4 this bound was before.
 */
export const BETAINCINV_UNITS = BETAINC_UNITS;

const PAIR = new Float64Array(2);
const LN_2PI = 1.8378770664093453; // ln 2π

/** ln(a B(a, b)) for a, b > 0. */
function logABeta(a: number, b: number): number {
  return a <= 1 ? logPBeta(a, b) : detLog(a) + lbeta(a, b);
}

/** ln(r/s) for positive r, s without overflow of the ratio. */
function logRatio(r: number, s: number): number {
  const q = r / s;
  return q > 1e-300 && q < 1e300 ? detLog(q) : detLog(r) - detLog(s);
}

/**
 * x in [0, 1] with I_x(a, b) = p, or 1 − I_x(a, b) = p when `upper` (NaN for p outside [0, 1]
 * or a, b not positive and finite). 0 and 1 where the root is below the smallest double or
 * above the largest one under 1.
 *
 * @example
 * betaincinv(0.6875, 2, 3); // 0.5
 * betaincinv(1e-300, 0.5, 1e6, true); // ≈ 6.9e-4
 */
export function betaincinv(p: number, a: number, b: number, upper = false): number {
  if (!(p >= 0 && p <= 1 && a > 0 && b > 0 && a < Infinity && b < Infinity)) return Number.NaN;
  // Lower and upper targets; the given one is exact, and so is its complement when it is ≥ ½.
  const P = upper ? 1 - p : p, Q = upper ? p : 1 - p;
  if (P === 0 || (upper && p === 1)) return 0;
  if (Q === 0 || (!upper && p === 1)) return 1;
  const useLower = P <= Q, target = useLower ? P : Q;
  // Which half holds the root: compare with I at ½.
  betaincPair(a, b, 0.5, 0.5, PAIR);
  const onX = useLower ? P <= PAIR[0]! : Q >= PAIR[1]!;
  // v is x (onX) or y; S rises with v when it is I in x or 1 − I in y.
  const sgn = useLower === onX ? 1 : -1;
  const e1 = onX ? a : b, e2 = onX ? b : a; // exponents of v and of 1 − v in the power term

  /** h = ln(S/target) at v, and dh/d(ln v) into DH; NaN-safe: S = 0 gives −∞. */
  let dh = 0;
  const h = (v: number): number => {
    const x = onX ? v : 1 - v, y = onX ? 1 - v : v;
    betaincPair(a, b, x, y, PAIR);
    const s = useLower ? PAIR[0]! : PAIR[1]!;
    if (!(s > 0)) { dh = Number.NaN; return -Infinity; }
    // v·|dS/dv| = x^a y^b/B(a, b) / (1 − v)
    dh = sgn * detExp(betaPowerLog(a, b, x, y) - detLog1p(-v) - detLog(s));
    return logRatio(s, target);
  };

  // Starting points: the power law at v's end, and the normal approximation.
  const tail = onX ? P : Q;
  const guesses: number[] = [detExp((detLog(tail) + logABeta(e1, e2)) / e1)];
  if (a + b > 2) {
    const c = a + b, sd = Math.sqrt((a / c) * (b / c) / (c + 1));
    // The standard normal quantile at the small target (a rough tail form below 1e−3), signed.
    const w = -2 * detLog(target);
    const zt = target > 1e-3 ? -Math.SQRT2 * erfinv(1 - 2 * target) : -Math.sqrt(w - detLog(w) - LN_2PI);
    const z = useLower ? zt : -zt;
    guesses.push(onX ? a / c + z * sd : b / c - z * sd);
  }
  let lo = 0, hi = 0.5;
  let v = Number.NaN, hv = Number.NaN, best = Infinity;
  for (const g of guesses) {
    if (!(g > 0 && g < 0.5)) continue;
    const hg = h(g);
    if (sgn * hg < 0) lo = Math.max(lo, g); else hi = Math.min(hi, g);
    if (Math.abs(hg) < best) { best = Math.abs(hg); v = g; hv = hg; }
  }
  let dv = dh;
  if (Number.isNaN(v)) { v = 0.25; hv = h(v); dv = dh; if (sgn * hv < 0) lo = v; else hi = v; }
  else { hv = h(v); dv = dh; }
  for (let iter = 0; iter < 400; iter++) {
    const step = -hv / dv;
    if (hv === 0 || Math.abs(step) <= 1e-16) break;
    let next = v * detExp(step);
    if (!(next > lo && next < hi)) {
      next = lo === 0 ? hi * 1e-8 : hi > 4 * lo ? Math.sqrt(lo) * Math.sqrt(hi) : 0.5 * (lo + hi);
    }
    if (next === 0) { v = 0; break; } // the root is below the smallest double
    if (next === v) break;
    const done = Math.abs(next - v) <= 4e-16 * v;
    v = next;
    hv = h(v);
    dv = dh;
    if (sgn * hv < 0) lo = v; else hi = v;
    if (done || hi - lo <= 4.5e-16 * hi) break; // within two ulp
  }
  if (v < 5e-324) v = 0;
  return onX ? v : 1 - v;
}
