// The PSIS and LOO of commit 8491379, frozen: the reference that test/mcmc/diagnostics/psis-same-bits.test.ts
// compares the faster code with, bit for bit. psisSmooth and its helpers are mcmc/diagnostics/internal/psis.ts
// as it was; looRows is loo.ts's looOf on the observation-major rows logLikMatrix built. Do not edit.
import { detExp, detExpm1, detLog, detLog1p } from '../../../src/math/index.js';
// The two sums that take most of PSIS's time, in WebAssembly with the loops' bits.
import { detExpSumShifted, detLog1pSumScaled } from '../../../src/compile/det-sums.js';

/** log of the smallest positive normal double (NumPy's `log(finfo(float).tiny)`). */
const LOG_TINY = detLog(2.2250738585072014e-308);
const EPS = 2.220446049250313e-16;

/** The tail length ArviZ uses for S draws and relative efficiency r_eff. */
function tailLength(s: number, reff: number): number {
  return Math.ceil(Math.min(s / 5, 3 * Math.sqrt(s / reff)));
}

/**
 * Smooths `lw` (length S, modified in place into normalized log weights) and returns k.
 * `tail` is {@link tailLength}(S, r_eff) (at most S − 1).
 */
function psisSmooth(lw: Float64Array, tail: number): number {
  const s = lw.length;
  let max = -Infinity;
  for (let i = 0; i < s; i++) if (lw[i]! > max) max = lw[i]!;
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - max;
  // only the (tail + 1)-th largest value is needed, not the whole order: select, O(S)
  const cutoff = Math.max(orderStatistic(lw, s - tail - 1), LOG_TINY);
  const expCutoff = detExp(cutoff);
  const tailIdx: number[] = [];
  for (let i = 0; i < s; i++) if (lw[i]! > cutoff) tailIdx.push(i);
  const m = tailIdx.length;
  let k = Infinity;
  if (m > 4) {
    // exceedances over the cutoff, ascending
    tailIdx.sort((a, b) => lw[a]! - lw[b]! || a - b);
    const z = Float64Array.from(tailIdx, (i) => detExp(lw[i]!) - expCutoff);
    const fit = gpdFit(z);
    k = fit.k;
    if (Number.isFinite(k) && fit.sigma > 0) {
      for (let j = 0; j < m; j++) {
        const q = gpdQuantile((j + 0.5) / m, k, fit.sigma);
        lw[tailIdx[j]!] = detLog(q + expCutoff);
      }
      for (let i = 0; i < s; i++) if (lw[i]! > 0) lw[i] = 0;
    }
  }
  const norm = logSumExp(lw);
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - norm;
  return k;
}

/** Scratch for {@link orderStatistic}, grown on demand (psisSmooth runs once per observation). */
let scratch = new Float64Array(0);

/**
 * The value at position `pos` (0-based) of `x` sorted ascending with NaN last — what a full
 * sort would put there, found by selection in O(n) on average (`x` is left unchanged). Ties do
 * not matter: equal values are the same number (±0 aside, which every caller treats alike).
 * @internal exported for its test
 */
function orderStatistic(x: Float64Array, pos: number): number {
  const n = x.length;
  if (!(pos >= 0 && pos < n)) return Number.NaN;
  if (scratch.length < n) scratch = new Float64Array(Math.max(n, 2 * scratch.length));
  const a = scratch;
  let m = 0;
  for (let i = 0; i < n; i++) { const v = x[i]!; if (v === v) a[m++] = v; }
  if (pos >= m) return Number.NaN;   // among the NaNs, which sort last
  let lo = 0, hi = m - 1;
  // Hoare partitioning around a median of three; after ~2·log₂ n rounds without convergence
  // (an adversarial order) the rest is sorted, so the worst case stays O(n log n).
  let budget = 2 * (32 - Math.clz32(m)) + 8;   // 2·⌈log₂(m + 1)⌉ + 8 (m's bit length: no engine log)
  while (hi > lo) {
    if (budget-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return a[pos]!;
    }
    const mid = (lo + hi) >>> 1;
    let p0 = a[lo]!, p1 = a[mid]!, p2 = a[hi]!, t: number;
    if (p1 < p0) { t = p0; p0 = p1; p1 = t; }
    if (p2 < p1) { t = p1; p1 = p2; p2 = t; if (p1 < p0) { t = p0; p0 = p1; p1 = t; } }
    const pivot = p1;
    let i = lo - 1, j = hi + 1;
    for (;;) {
      do i++; while (a[i]! < pivot);
      do j--; while (a[j]! > pivot);
      if (i >= j) break;
      t = a[i]!; a[i] = a[j]!; a[j] = t;
    }
    // now a[lo..j] ≤ pivot ≤ a[j+1..hi]
    if (pos <= j) hi = j;
    else lo = j + 1;
  }
  return a[pos]!;
}

/**
 * Zhang and Stephens' (2009) empirical-Bayes fit of a generalized Pareto distribution to
 * ascending positive exceedances `z`, with ArviZ's prior on k. Returns the shape k (after the
 * prior) and the scale σ.
 */
function gpdFit(z: Float64Array): { k: number; sigma: number } {
  const n = z.length;
  const priorBs = 3, priorK = 10;
  const mEst = 30 + Math.floor(Math.sqrt(n));
  const quart = z[Math.floor(n / 4 + 0.5) - 1]!;
  const zMax = z[n - 1]!;
  const b = new Float64Array(mEst);
  const kHat = new Float64Array(mEst);
  const ell = new Float64Array(mEst);
  for (let j = 0; j < mEst; j++) {
    let bj = 1 - Math.sqrt(mEst / (j + 1 - 0.5));
    bj /= priorBs * quart;
    bj += 1 / zMax;
    b[j] = bj;
    kHat[j] = meanLog1p(z, bj);
    ell[j] = n * (detLog(-(bj / kHat[j]!)) - kHat[j]! - 1);
  }
  // grid weights ∝ exp(ℓ_j): w_j = 1 / Σ_i exp(ℓ_i − ℓ_j); the negligible ones dropped
  const keepB: number[] = [];
  const keepW: number[] = [];
  let ellMax = -Infinity;
  for (let j = 0; j < mEst; j++) if (ell[j]! > ellMax) ellMax = ell[j]!;
  for (let j = 0; j < mEst; j++) {
    // exp(ℓ_max − ℓ_j) overflows: the sum is ∞ (or NaN) and w_j = 0 (or NaN), dropped below anyway
    if (ellMax - ell[j]! > 709.782712893384) continue;
    const w = 1 / detExpSumShifted(ell, ell[j]!);   // Σᵢ exp(ℓ_i − ℓ_j), i ascending
    if (w >= 10 * EPS) { keepB.push(b[j]!); keepW.push(w); }
  }
  let wSum = 0;
  for (const w of keepW) wSum += w;
  let bPost = 0;
  for (let j = 0; j < keepB.length; j++) bPost += keepB[j]! * (keepW[j]! / wSum);
  let k = meanLog1p(z, bPost);
  const sigma = -k / bPost;
  k = (n * k + priorK * 0.5) / (n + priorK);
  return { k, sigma };
}

/** mean of log1p(−b·zᵢ). */
function meanLog1p(z: Float64Array, b: number): number {
  return detLog1pSumScaled(z, b) / z.length;
}

/** Quantile function of the generalized Pareto distribution (location 0) at p ∈ (0, 1). */
function gpdQuantile(p: number, k: number, sigma: number): number {
  if (!(sigma > 0)) return Number.NaN;
  const x = Math.abs(k) < EPS ? -detLog1p(-p) : detExpm1(-k * detLog1p(-p)) / k;
  return x * sigma;
}

/** log Σ exp(xᵢ), shifted by the maximum (ArviZ's `_logsumexp`), optionally divided by `bInv`. */
function logSumExp(x: ArrayLike<number>, bInv = 1): number {
  let max = -Infinity;
  for (let i = 0; i < x.length; i++) if (x[i]! > max) max = x[i]!;
  let sum: number;
  if (x instanceof Float64Array) sum = detExpSumShifted(x, max);
  else {
    sum = 0;
    for (let i = 0; i < x.length; i++) sum += detExp(x[i]! - max);
  }
  return detLog(sum) + (max - detLog(bInv));
}


/** The old looOf's numbers on observation-major rows (row j: observation j's S draws, chain-major). */
export function looRows(rows: Float64Array, S: number, n: number, reff: number, correction?: Float64Array):
  { k: Float64Array; looI: Float64Array; lppd: number } {
  const k = new Float64Array(n);
  const looI = new Float64Array(n);
  const tail = tailLength(S, reff);
  const lw = new Float64Array(S);
  let lppd = 0;
  for (let j = 0; j < n; j++) {
    const ll = rows.subarray(j * S, (j + 1) * S);
    for (let s = 0; s < S; s++) lw[s] = -ll[s]!;
    if (correction !== undefined) for (let s = 0; s < S; s++) lw[s] = lw[s]! + correction[s]!;
    k[j] = psisSmooth(lw, tail);
    for (let s = 0; s < S; s++) lw[s] = lw[s]! + ll[s]!;
    looI[j] = logSumExp(lw);
    lppd += logSumExp(ll, S);
  }
  return { k, looI, lppd };
}

export { psisSmooth as psisSmoothReference, tailLength };
