/**
 * Pareto-smoothed importance sampling on one observation's log weights (Vehtari, Simpson,
 * Gelman, Yao and Gabry 2024, "Pareto smoothed importance sampling", JMLR 25(72)), with the
 * choices ArviZ 0.23 makes in `az.psislw`:
 *
 * - the tail is the M = ⌈min(S/5, 3·√(S/r_eff))⌉ largest weights (strictly above the
 *   (M+1)-th largest, and above log of the smallest normal double);
 * - fewer than 5 tail weights: k = ∞ and no smoothing;
 * - otherwise a generalized Pareto distribution is fitted to the tail's exceedances by Zhang and
 *   Stephens' (2009) empirical-Bayes estimate, with 30 + ⌊√M⌋ grid points, the weakly
 *   informative prior on k (10 pseudo-observations at k = 0.5), and grid weights below 10·ε
 *   dropped;
 * - when k is finite, the tail is replaced by the fitted distribution's quantiles at
 *   (j − ½)/M, in the order of the raw tail, and truncated at the largest raw weight;
 * - one departure: when the fitted scale σ is not positive (log ratios constant up to rounding,
 *   i.e. an exact approximation), ArviZ's weights become NaN; here the raw tail is kept;
 * - the weights are normalized to sum to one (log-sum-exp zero).
 *
 * Written from the paper and the algorithm's description; numbers match ArviZ's to rounding.
 */
import { detExp, detExpm1, detLog, detLog10, detLog1p } from '../../../src/math/index.js';
// The two sums that take most of PSIS's time, in WebAssembly with the loops' bits.
import { detExpSumShifted, detExpSumsSelfShifted, detLog1pSumScaled, detLog1pSumsGrid } from '../../../src/compile/det-sums.js';

/** log of the smallest positive normal double (NumPy's `log(finfo(float).tiny)`). */
const LOG_TINY = detLog(2.2250738585072014e-308);
const EPS = 2.220446049250313e-16;

/** The tail length ArviZ uses for S draws and relative efficiency r_eff. */
export function tailLength(s: number, reff: number): number {
  return Math.ceil(Math.min(s / 5, 3 * Math.sqrt(s / reff)));
}

/**
 * Smooths `lw` (length S, modified in place into normalized log weights) and returns k.
 * `tail` is {@link tailLength}(S, r_eff) (at most S − 1).
 */
export function psisSmooth(lw: Float64Array, tail: number): number {
  const k = psisSmoothFrom(lw, lw, tail, false, undefined);
  const norm = logSumExpMax(lw, smoothedMax, 1);
  for (let i = 0; i < lw.length; i++) lw[i] = lw[i]! - norm;
  return k;
}

/**
 * The maximum of the log weights {@link psisSmoothFrom} left (the first of its log-sum-exp's two
 * passes, found from the tail alone on the fast path).
 */
export let smoothedMax = 0;

/** Scratch of {@link psisSmoothFrom}: a sample of the weights, and the candidates for the tail (values, indices). */
let sampleBuf = new Float64Array(0), candV = new Float64Array(0), candI = new Int32Array(0);

/** Weights sampled (evenly spaced) to set the threshold for the tail's candidates. */
const SAMPLE = 256;

/**
 * {@link psisSmooth} without the final normalization, on `lw` = `src` (negated when `negate`,
 * as −log-likelihood, then plus `correction` when given), written into `lw` (which may be
 * `src`): leaves the smoothed log weights (max subtracted) in `lw`, their maximum in
 * {@link smoothedMax}, and returns k. The same bits as the steps written out one pass each.
 *
 * The fast path (no NaN, a finite maximum) needs no selection over all S weights: a threshold
 * from an evenly spaced sample keeps about 1.5 × (tail + 1) candidates in the pass that finds
 * the maximum; a selection among them gives the cutoff, and a sort of the few above it the
 * sorted tail. Subtracting the maximum is
 * monotone, so the (tail + 1)-th largest shifted weight is the shifted (tail + 1)-th largest raw
 * weight, which is among the candidates whenever at least tail + 1 of them passed the threshold
 * (else, and for NaN or infinite weights, the selection of the general path).
 */
export function psisSmoothFrom(lw: Float64Array, src: Float64Array, tail: number, negate: boolean, correction: Float64Array | undefined): number {
  const s = lw.length;
  const cap = tail + 1;
  if (cap > s) return smoothSlow(lw, src, tail, negate, correction);
  // the threshold: the r-th largest of the sample, r sized for ~1.5·cap candidates (plus a margin)
  const step = Math.max(1, Math.floor(s / SAMPLE));
  if (sampleBuf.length < SAMPLE + 1) sampleBuf = new Float64Array(2 * SAMPLE);
  if (candV.length < s) { candV = new Float64Array(s); candI = new Int32Array(s); }
  let kn = 0;
  for (let i = 0; i < s; i += step) {
    let v = negate ? -src[i]! : src[i]!;
    if (correction !== undefined) v = v + correction[i]!;
    if (v === v) sampleBuf[kn++] = v;
  }
  const r = Math.ceil((1.5 * cap * kn) / s) + 8;
  const thr = r >= kn ? -Infinity : orderStatistic(sampleBuf.subarray(0, kn), kn - r);
  const cv = candV, ci = candI;
  let max = -Infinity, nan = false, c = 0;
  // every weight written as a candidate, kept by advancing c (no branch to mispredict)
  if (negate && correction === undefined) {
    for (let i = 0; i < s; i++) {
      const v = -src[i]!;
      lw[i] = v;
      if (v > max) max = v;
      else if (v !== v) nan = true;
      cv[c] = v; ci[c] = i; c += +(v >= thr);
    }
  } else {
    for (let i = 0; i < s; i++) {
      let v = negate ? -src[i]! : src[i]!;
      if (correction !== undefined) v = v + correction[i]!;
      lw[i] = v;
      if (v > max) max = v;
      else if (v !== v) nan = true;
      cv[c] = v; ci[c] = i; c += +(v >= thr);
    }
  }
  if (nan || !(max > -Infinity && max < Infinity) || c < cap) return smoothSlow(lw, lw, tail, false, undefined);
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - max;
  for (let e = 0; e < c; e++) cv[e] = cv[e]! - max;
  // the (tail + 1)-th largest, and the tail: the candidates above it (and above LOG_TINY), sorted
  selectPairs(cv, ci, c, c - cap);
  const cutoff = Math.max(cv[c - cap]!, LOG_TINY);
  sortPairs(cv, ci, c - cap + 1, c - 1);
  let from = c;
  while (from > 0 && cv[from - 1]! > cutoff) from--;
  const k = smoothTail(lw, cv, ci, from, c - from, cutoff);
  // every other weight is at most the smallest candidate: the maximum is among the candidates
  let mx = -Infinity;
  for (let e = 0; e < c; e++) { const v = lw[ci[e]!]!; if (v > mx) mx = v; }
  smoothedMax = mx;
  return k;
}

/** The general path (NaN weights, an infinite maximum, or a long tail): select the cutoff. */
function smoothSlow(lw: Float64Array, src: Float64Array, tail: number, negate: boolean, correction: Float64Array | undefined): number {
  const s = lw.length;
  let max = -Infinity;
  for (let i = 0; i < s; i++) {
    let v = negate ? -src[i]! : src[i]!;
    if (correction !== undefined) v = v + correction[i]!;
    lw[i] = v;
    if (v > max) max = v;
  }
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - max;
  // only the (tail + 1)-th largest value is needed, not the whole order: select, O(S)
  const cutoff = Math.max(orderStatistic(lw, s - tail - 1), LOG_TINY);
  let m = 0;
  for (let i = 0; i < s; i++) if (lw[i]! > cutoff) m++;
  if (candV.length < m) { candV = new Float64Array(m); candI = new Int32Array(m); }
  const tv = candV, ti = candI;
  m = 0;
  for (let i = 0; i < s; i++) if (lw[i]! > cutoff) { tv[m] = lw[i]!; ti[m] = i; m++; }
  sortPairs(tv, ti, 0, m - 1);
  const k = smoothTail(lw, tv, ti, 0, m, cutoff);
  let mx = -Infinity;
  for (let i = 0; i < s; i++) if (lw[i]! > mx) mx = lw[i]!;
  smoothedMax = mx;
  return k;
}

/** Scratch for the tail's exceedances. */
let zBuf = new Float64Array(0);

/**
 * Fits the generalized Pareto distribution to the `m` tail weights `tv[from…]` (ascending, at
 * indices `ti[from…]` of `lw`, all above `cutoff`) and, when the fit is usable, writes its
 * quantiles over them (capped at 0, the largest raw weight). Returns k (∞ for fewer than 5).
 */
function smoothTail(lw: Float64Array, tv: Float64Array, ti: Int32Array, from: number, m: number, cutoff: number): number {
  if (m <= 4) return Infinity;
  const expCutoff = detExp(cutoff);
  if (zBuf.length < m) zBuf = new Float64Array(Math.max(m, 2 * zBuf.length));
  const z = zBuf.subarray(0, m);
  // exceedances over the cutoff, ascending
  for (let j = 0; j < m; j++) z[j] = detExp(tv[from + j]!) - expCutoff;
  const fit = gpdFit(z);
  const k = fit.k;
  if (Number.isFinite(k) && fit.sigma > 0) {
    const l1p = log1pOfMinusP(m);
    for (let j = 0; j < m; j++) {
      const q = detLog(gpdQuantileAt(l1p[j]!, k, fit.sigma) + expCutoff);
      // every other weight is at most 0 (the maximum subtracted): only the tail can exceed it
      lw[ti[from + j]!] = q > 0 ? 0 : q;
    }
  }
  return k;
}

/** (a, ia) before (b, ib): by value, then index (±0 equal, as `(x, y) => v[x] − v[y] || x − y` has them). */
function before(a: number, ia: number, b: number, ib: number): boolean {
  return a < b || (a === b && ia < ib);
}

/**
 * Sorts the pairs (v[i], ix[i]), lo ≤ i ≤ hi, ascending by value, then index. The indices are
 * distinct, so the order is unique. Quicksort (median of three), insertion sort below 16.
 */
function sortPairs(v: Float64Array, ix: Int32Array, lo: number, hi: number): void {
  while (hi - lo >= 16) {
    const mid = (lo + hi) >>> 1;
    // median of three into mid
    if (before(v[mid]!, ix[mid]!, v[lo]!, ix[lo]!)) swapPairs(v, ix, mid, lo);
    if (before(v[hi]!, ix[hi]!, v[mid]!, ix[mid]!)) {
      swapPairs(v, ix, hi, mid);
      if (before(v[mid]!, ix[mid]!, v[lo]!, ix[lo]!)) swapPairs(v, ix, mid, lo);
    }
    const pv = v[mid]!, pi = ix[mid]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (before(v[i]!, ix[i]!, pv, pi)) i++;
      while (before(pv, pi, v[j]!, ix[j]!)) j--;
      if (i <= j) { swapPairs(v, ix, i, j); i++; j--; }
    }
    // recurse into the smaller side, loop on the larger (stack depth ≤ log₂ n)
    if (j - lo < hi - i) { sortPairs(v, ix, lo, j); lo = i; } else { sortPairs(v, ix, i, hi); hi = j; }
  }
  for (let i = lo + 1; i <= hi; i++) {
    const x = v[i]!, xi = ix[i]!;
    let j = i - 1;
    while (j >= lo && before(x, xi, v[j]!, ix[j]!)) { v[j + 1] = v[j]!; ix[j + 1] = ix[j]!; j--; }
    v[j + 1] = x; ix[j + 1] = xi;
  }
}

function swapPairs(v: Float64Array, ix: Int32Array, a: number, b: number): void {
  const t = v[a]!; v[a] = v[b]!; v[b] = t;
  const u = ix[a]!; ix[a] = ix[b]!; ix[b] = u;
}

/**
 * Reorders the first n pairs so that position `pos` holds the value a sort would put there, with
 * no larger value before it and no smaller after (selection by value; the indices ride along).
 * Hoare partitioning; after ~2·log₂ n rounds without convergence the rest is sorted.
 */
function selectPairs(v: Float64Array, ix: Int32Array, n: number, pos: number): void {
  let lo = 0, hi = n - 1;
  let budget = 2 * (32 - Math.clz32(n)) + 8;
  while (hi > lo) {
    if (budget-- === 0) { sortPairs(v, ix, lo, hi); return; }
    const mid = (lo + hi) >>> 1;
    let p0 = v[lo]!, p1 = v[mid]!, t: number;
    const p2 = v[hi]!;
    if (p1 < p0) { t = p0; p0 = p1; p1 = t; }
    if (p2 < p1) { p1 = p2; if (p1 < p0) p1 = p0; }
    const pivot = p1;
    let i = lo - 1, j = hi + 1;
    for (;;) {
      do i++; while (v[i]! < pivot);
      do j--; while (v[j]! > pivot);
      if (i >= j) break;
      swapPairs(v, ix, i, j);
    }
    if (pos <= j) hi = j;
    else lo = j + 1;
  }
}

/** Scratch for {@link orderStatistic}, grown on demand (psisSmooth runs once per observation). */
let scratch = new Float64Array(0);

/**
 * The value at position `pos` (0-based) of `x` sorted ascending with NaN last — what a full
 * sort would put there, found by selection in O(n) on average (`x` is left unchanged). Ties do
 * not matter: equal values are the same number (±0 aside, which every caller treats alike).
 * @internal exported for its test
 */
export function orderStatistic(x: Float64Array, pos: number): number {
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
export function gpdFit(z: Float64Array): { k: number; sigma: number } {
  const n = z.length;
  const priorBs = 3, priorK = 10;
  const mEst = 30 + Math.floor(Math.sqrt(n));
  const quart = z[Math.floor(n / 4 + 0.5) - 1]!;
  const zMax = z[n - 1]!;
  if (gridB.length < mEst) { gridB = new Float64Array(2 * mEst); gridSum = new Float64Array(2 * mEst); gridEll = new Float64Array(2 * mEst); }
  const b = gridB.subarray(0, mEst), sums = gridSum.subarray(0, mEst), ell = gridEll.subarray(0, mEst);
  for (let j = 0; j < mEst; j++) {
    let bj = 1 - Math.sqrt(mEst / (j + 1 - 0.5));
    bj /= priorBs * quart;
    bj += 1 / zMax;
    b[j] = bj;
  }
  // k̂_j = mean of log1p(−b_j·zᵢ), every grid point in one call
  detLog1pSumsGrid(z, b, sums);
  for (let j = 0; j < mEst; j++) {
    const kHat = sums[j]! / n;
    ell[j] = n * (detLog(-(b[j]! / kHat)) - kHat - 1);
  }
  // grid weights ∝ exp(ℓ_j): w_j = 1 / Σ_i exp(ℓ_i − ℓ_j); the negligible ones dropped
  let ellMax = -Infinity;
  for (let j = 0; j < mEst; j++) if (ell[j]! > ellMax) ellMax = ell[j]!;
  // Σᵢ exp(ℓ_i − ℓ_j), i ascending, for every j at once (into sums: the k̂ sums are used)
  detExpSumsSelfShifted(ell, sums);
  let nKeep = 0;
  for (let j = 0; j < mEst; j++) {
    // exp(ℓ_max − ℓ_j) overflows: the sum is ∞ (or NaN) and w_j = 0 (or NaN), dropped below anyway
    if (ellMax - ell[j]! > 709.782712893384) continue;
    const w = 1 / sums[j]!;
    // kept weights over the sums (j ascending: a kept j's sum is no longer needed)
    if (w >= 10 * EPS) { b[nKeep] = b[j]!; sums[nKeep] = w; nKeep++; }
  }
  let wSum = 0;
  for (let j = 0; j < nKeep; j++) wSum += sums[j]!;
  let bPost = 0;
  for (let j = 0; j < nKeep; j++) bPost += b[j]! * (sums[j]! / wSum);
  let k = meanLog1p(z, bPost);
  const sigma = -k / bPost;
  k = (n * k + priorK * 0.5) / (n + priorK);
  return { k, sigma };
}

/** Scratch of {@link gpdFit}: the grid's b, sums (then kept weights) and ℓ. */
let gridB = new Float64Array(0), gridSum = new Float64Array(0), gridEll = new Float64Array(0);

/** mean of log1p(−b·zᵢ). */
function meanLog1p(z: Float64Array, b: number): number {
  return detLog1pSumScaled(z, b) / z.length;
}

/** Quantile function of the generalized Pareto distribution (location 0) at p ∈ (0, 1). */
export function gpdQuantile(p: number, k: number, sigma: number): number {
  return gpdQuantileAt(detLog1p(-p), k, sigma);
}

/** {@link gpdQuantile} given log1p(−p). */
function gpdQuantileAt(log1pMinusP: number, k: number, sigma: number): number {
  if (!(sigma > 0)) return Number.NaN;
  const x = Math.abs(k) < EPS ? -log1pMinusP : detExpm1(-k * log1pMinusP) / k;
  return x * sigma;
}

/** detLog1p(−(j + ½)/m) for j < m: the same for every observation with a tail of m (cached for the last m). */
let l1pM = -1, l1pCache = new Float64Array(0);
function log1pOfMinusP(m: number): Float64Array {
  if (m !== l1pM) {
    if (l1pCache.length < m) l1pCache = new Float64Array(m);
    for (let j = 0; j < m; j++) l1pCache[j] = detLog1p(-((j + 0.5) / m));
    l1pM = m;
  }
  return l1pCache;
}

/** log Σ exp(xᵢ), shifted by the maximum (ArviZ's `_logsumexp`), optionally divided by `bInv`. */
export function logSumExp(x: ArrayLike<number>, bInv = 1): number {
  let max = -Infinity;
  for (let i = 0; i < x.length; i++) if (x[i]! > max) max = x[i]!;
  if (x instanceof Float64Array) return logSumExpMax(x, max, bInv);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += detExp(x[i]! - max);
  return detLog(sum) + (max - detLog(bInv));
}

/** {@link logSumExp} of `x` whose maximum (over its non-NaN values) is `max`. */
export function logSumExpMax(x: Float64Array, max: number, bInv: number): number {
  return logSumExpOf(detExpSumShifted(x, max), max, bInv);
}

/** {@link logSumExp} from its sum Σ exp(xᵢ − max) and its maximum. */
export function logSumExpOf(sum: number, max: number, bInv: number): number {
  return detLog(sum) + (max - detLog(bInv));
}

/**
 * The Pareto k̂ above which importance sampling with S draws is unreliable (Vehtari et al. 2024,
 * as ArviZ's `good_k`): min(1 − 1/log₁₀ S, 0.7).
 */
export function paretoKThreshold(S: number): number {
  return Math.min(1 - 1 / detLog10(S), 0.7);
}
