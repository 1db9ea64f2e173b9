/**
 * Scalar kernels of the standard Student's t distribution with ν = df degrees of freedom: the
 * log density, the lower tail P(T ≤ −|t|) and its log, the cdf's derivative in ν, and the
 * quantile, and the entropy. Used by `StudentT` and `HalfStudentT`.
 *
 * The tail is ½·I_x(ν/2, ½) with x = ν/(ν + t²) and y = 1 − x = t²/(ν + t²), both computed from
 * u = |t|/√ν without cancellation, and both handed to the incomplete beta (`betaincPair`,
 * which gives I and 1 − I each to relative accuracy from whichever of x and y is small), so
 * neither rounds away. Where the tail underflows its log comes from the continued fraction
 * DLMF 8.17.22 in log space (x ≤ ½, where it is well conditioned) or from Hill's normalizing expansion
 * (x > ½, which needs ν > 2000, where it is accurate). The quantile starts from `betaincinv`
 * on whichever side keeps x or y accurate, then takes up to three second-order Newton
 * steps on the tail (TFP's `stdtrit` polish). ν = ∞ is the standard normal.
 */
import { betaincDa, betaincDb, betaincPair } from '../../src/tensor/special/betainc.js';
import { betaincinv } from '../../src/tensor/special/betaincinv.js';
import { digammaDiff, lbeta, trigamma } from '../../src/tensor/special/gamma.js';
import { logNdtr, ndtr, ndtri } from './ndtr.js';
import { detExp, detLog, detLog1p } from '../../src/math/index.js';

const LN_HALF = -Math.LN2;
const LN_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/** log(1 + u²) without overflow for huge |u|. */
export function log1psquare(u: number): number {
  const a = Math.abs(u);
  return a > 1e8 ? 2 * detLog(a) + 1 / (a * a) : detLog1p(a * a);
}

/** log density of the standard t (loc 0, scale 1) at t. */
export function tLogPdf(df: number, t: number): number {
  if (df === Infinity) return -0.5 * t * t - LN_SQRT_2PI;
  return -0.5 * (df + 1) * log1psquare(t / Math.sqrt(df)) - 0.5 * detLog(df) - lbeta(0.5, 0.5 * df);
}

/** ∂/∂ν of tLogPdf(ν, t). */
export function tLogPdfDdf(df: number, t: number): number {
  const u2 = (t * t) / df;
  // ½(ν+1)·t²/(ν(ν+t²)) = ½(ν+1)/ν · u²/(1+u²), finite for huge u.
  const frac = Number.isFinite(u2) ? u2 / (1 + u2) : 1;
  return -0.5 * log1psquare(t / Math.sqrt(df)) + (0.5 * (df + 1) / df) * frac - 0.5 / df + 0.5 * digammaDiff(0.5 * df, 0.5);
}

/** Entropy of the t with scale σ, given log σ: log σ + ½ log ν + log B(ν/2, ½) + (ν+1)/2 · (ψ((ν+1)/2) − ψ(ν/2)). */
export function tEntropy(df: number, logScale: number): number {
  return logScale + 0.5 * detLog(df) + lbeta(0.5 * df, 0.5) + 0.5 * (df + 1) * digammaDiff(0.5 * df, 0.5);
}

/** ∂/∂ν of tEntropy: 1/(2ν) + (ν+1)/4 · (ψ′((ν+1)/2) − ψ′(ν/2)) (the digamma terms cancel). */
export function tEntropyDdf(df: number): number {
  return 0.5 / df + 0.25 * (df + 1) * (trigamma(0.5 * (df + 1)) - trigamma(0.5 * df));
}

/** The continued fraction K with I_x(a, b) = x^a y^b / (a B(a, b)) · K (DLMF 8.17.22), modified Lentz. */
function betaFraction(a: number, b: number, x: number): number {
  const TINY = 1e-300;
  let f = 1, c = 1, d = 0;
  for (let k = 1; k < 100000; k++) {
    const m = k >> 1;
    const dk = k % 2 === 1
      ? -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
      : (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + dk * d;
    if (Math.abs(d) < TINY) d = TINY;
    d = 1 / d;
    c = 1 + dk / c;
    if (Math.abs(c) < TINY) c = TINY;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 2e-16) break;
  }
  return 1 / f;
}

/** a = ν/2, x = 1/(1 + u²), y = u²/(1 + u²) and their logs, all from u = |t|/√ν without cancellation. */
interface TailParts { a: number; x: number; y: number; logX: number; logY: number }
function tailParts(df: number, t: number): TailParts {
  const u = Math.abs(t) / Math.sqrt(df);
  const logX = -log1psquare(u), logY = u === 0 ? -Infinity : -log1psquare(1 / u);
  return { a: 0.5 * df, x: detExp(logX), y: detExp(logY), logX, logY };
}

/**
 * Hill's (1970) normalizing expansion for large ν: P(T ≤ −|t|) = Φ(−w) with
 * w = z + (z³ + 3z)/b − (4z⁷ + 33z⁵ + 240z³ + 855z)/(10b²) + …, z² = (ν − ½)·log(1 + t²/ν),
 * b = 48(ν − ½)² (five correction terms, as TFP's `_stdtr_asymptotic_expansion`). Returns w.
 */
function hillW(df: number, t: number): number {
  const h = df - 0.5, z2 = h * log1psquare(t / Math.sqrt(df)), z = Math.sqrt(z2);
  const logB = detLog(48) + 2 * detLog(h);
  let w = z, logDen = 0, sign = 1;
  for (let k = 0; k < HILL.length; k++) {
    logDen += k < HILL.length - 1 ? logB : detLog((0.43595 * z2 + 2) * z2 + detExp(logB) + 537);
    let num = 0;
    for (const c of HILL[k]!) num = num * z2 + c;
    w += sign * detExp(detLog(num * z) - logDen);
    sign = -sign;
  }
  return w;
}
/** Hill's coefficients (highest power of z² first), as listed in TFP's student_t.py. */
const HILL = [
  [1, 3],
  [0.4, 3.3, 24, 85.5],
  [0.30476190476190479, 3.7523809523809524, 46.671428571428571, 427.5, 2587.5, 8518.5],
  [0.2742857142857143, 4.4990476190476194, 78.451428571428565, 1118.7107142857142, 12387.6, 101024.55, 559494, 1764959.625],
  [0.26597402597402597, 5.449696969696969, 122.20294372294373, 2354.72987012987, 37625.009025974025, 486996.13928571431,
    4960870.65, 37978595.55, 201505390.875, 622437908.625],
];
const PAIR = new Float64Array(2);

/**
 * log P(T ≤ −|t|), finite wherever the tail's log is: I_x(a, ½) from x and y both (so
 * whichever is small keeps its digits), and where that underflows, the continued fraction in
 * log space (x ≤ ½) or Hill's expansion (x > ½, which needs ν > 2000).
 */
export function logTail(df: number, t: number): number {
  if (Number.isNaN(df) || Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Infinity) return logNdtr(-Math.abs(t));
  if (Math.abs(t) === Infinity) return -Infinity;
  const { a, x, y, logX, logY } = tailParts(df, t);
  betaincPair(a, 0.5, x, y, PAIR);
  const i = PAIR[0]!;
  if (i > 1e-290) return LN_HALF + detLog(i);
  if (x <= 0.5) return LN_HALF + a * logX + 0.5 * logY - lbeta(a, 0.5) - detLog(a) + detLog(betaFraction(a, 0.5, x));
  return logNdtr(-hillW(df, t));
}

/** P(T ≤ −|t|). */
export function tail(df: number, t: number): number {
  if (df === Infinity) return ndtr(-Math.abs(t));
  return detExp(logTail(df, t));
}

/** The standard t cdf at t. */
export function tCdf(df: number, t: number): number {
  const p = tail(df, t);
  return t < 0 ? p : 1 - p;
}

/** log of the standard t cdf at t (accurate in the lower tail). */
export function tLogCdf(df: number, t: number): number {
  return t < 0 ? logTail(df, t) : detLog1p(-tail(df, t));
}

/** ∂/∂ν of the tail P(T ≤ −|t|). */
export function tailDdf(df: number, t: number): number {
  if (!(df > 0) || df === Infinity || Math.abs(t) === Infinity) return df > 0 ? 0 : Number.NaN;
  const { a, x, y } = tailParts(df, t);
  const dIda = x <= 0.5 ? betaincDa(a, 0.5, x) : -betaincDb(0.5, a, y);
  return 0.25 * dIda + (detExp(tLogPdf(df, t)) * Math.abs(t)) / (2 * df);
}

/** ∂/∂ν of log P(T ≤ −|t|); a central difference in ν where the tail underflows. */
export function logTailDdf(df: number, t: number): number {
  const lt = logTail(df, t);
  if (lt > -600) return tailDdf(df, t) / detExp(lt);
  const h = 1e-5 * df;
  return (logTail(df + h, t) - logTail(df - h, t)) / (2 * h);
}

/**
 * The standard t quantile: t with cdf(t) = p (NaN outside [0, 1] or for ν ≤ 0; ∓∞ at 0 and 1).
 */
export function tQuantile(df: number, p: number): number {
  if (!(df > 0) || !(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (df === Infinity) return ndtri(p);
  const q = p < 0.5 ? p : 1 - p; // the lower tail to match
  const a = 0.5 * df;
  // Start: tail(t) = q means I_x(a, ½) = 2q, or 1 − I_y(½, a) = 2q; invert for the smaller of x, y.
  let t: number;
  const y = betaincinv(2 * q, 0.5, a, true);
  if (y < 0.5) t = -detExp(0.5 * (detLog(df) + detLog(y) - detLog1p(-y)));
  else {
    const x = betaincinv(2 * q, a, 0.5);
    // Where x underflows (tiny ν and q), I_x(a, ½) ≈ x^a / (a B(a, ½)) gives log x directly.
    const logX = x > 1e-250 ? detLog(x) : (detLog(2 * q) + detLog(a) + lbeta(a, 0.5)) / a;
    t = -detExp(0.5 * (detLog(df) + detLog1p(-x) - logX));
  }
  // Polish: Newton with TFP's second-order term, (q − tail)/pdf taken through logs so neither
  // side underflows in the far tail.
  const lq = detLog(q);
  for (let iter = 0; iter < 3 && Number.isFinite(t) && t < 0; iter++) {
    const lpdf = tLogPdf(df, t);
    const first = detExp(lq - lpdf) - detExp(logTail(df, t) - lpdf);
    const second = t === 0 ? 0 : (0.5 * (df + 1) * first * first) / t / (1 + df / (t * t));
    const step = first + second;
    const next = t + step;
    t = next < 0 ? next : t / 2;
    if (Math.abs(step) <= 4 * Number.EPSILON * Math.abs(t)) break;
  }
  return p < 0.5 ? t : -t;
}
