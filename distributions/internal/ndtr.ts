/**
 * The standard normal cdf Φ, its log and its inverse, in float64, accurate in both tails
 * (TFP's `special_math.ndtr`, `log_ndtr`, `ndtri`). Built on erfcx = e^(x²)·erfc(x), so the
 * log cdf stays finite and accurate for every finite z (no underflow of Φ itself).
 */
import { erfcx } from '../../src/random/erf.js';
import { erfinv64 } from '../../src/random/erfinv.js';
import { detExp, detLog, detLog1p } from '../../src/math/index.js';

const SQRT1_2 = Math.SQRT1_2;
const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/** Φ(z) = P[N(0, 1) ≤ z]. */
export function ndtr(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  const w = Math.abs(z) * SQRT1_2;
  const tail = 0.5 * erfcx(w) * detExp(-w * w);
  return z < 0 ? tail : 1 - tail;
}

/** log Φ(z), finite for every finite z. */
export function logNdtr(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z < -1) {
    const w = -z * SQRT1_2;
    return detLog(0.5 * erfcx(w)) - w * w;
  }
  const w = Math.abs(z) * SQRT1_2;
  const upper = 0.5 * erfcx(w) * detExp(-w * w); // P[N > |z|]
  return z < 0 ? detLog(upper) : detLog1p(-upper);
}

/** d log Φ(z) / dz = φ(z)/Φ(z) (the inverse Mills ratio of −z). */
export function dLogNdtr(z: number): number {
  if (z < -1) return SQRT_2_OVER_PI / erfcx(-z * SQRT1_2);
  return detExp(-0.5 * z * z - LOG_SQRT_2PI - logNdtr(z));
}

/** log φ(z), the standard normal log density. */
export function logPhi(z: number): number {
  return -0.5 * z * z - LOG_SQRT_2PI;
}

/**
 * Φ⁻¹(p): −∞ at 0, +∞ at 1, NaN outside [0, 1]. A starting point from erfinv (or the tail
 * asymptote below 1e-10), then Newton steps on log Φ, which converge in the far tail too.
 */
export function ndtri(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p > 0.5) return -ndtri(1 - p); // 1 − p is exact for p ≥ 0.5
  let x: number;
  if (p > 1e-10) x = Math.SQRT2 * erfinv64(2 * p - 1);
  else {
    const t = -2 * detLog(p);
    x = -Math.sqrt(t - detLog(t) - detLog(2 * Math.PI));
  }
  const lp = detLog(p);
  for (let i = 0; i < 4; i++) {
    const step = (logNdtr(x) - lp) / dLogNdtr(x);
    x -= step;
    if (Math.abs(step) <= 1e-16 * Math.max(1, Math.abs(x))) break;
  }
  return x;
}
