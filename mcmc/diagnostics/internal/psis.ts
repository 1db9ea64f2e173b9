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
import { detExpSumShifted, detLog1pSumScaled } from '../../../src/compile/det-sums.js';

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

/** Scratch of {@link psisSmoothFrom}: the heap of the tail + 1 largest raw weights (values, indices) and the sorted tail. */
let heapV = new Float64Array(0), heapI = new Int32Array(0), tailV = new Float64Array(0), tailI = new Int32Array(0);

/**
 * {@link psisSmooth} without the final normalization, on `lw` = `src` (negated when `negate`,
 * as −log-likelihood, then plus `correction` when given), written into `lw` (which may be
 * `src`): leaves the smoothed log weights (max subtracted) in `lw`, their maximum in
 * {@link smoothedMax}, and returns k. The same bits as the steps written out one pass each.
 *
 * The fast path (no NaN, a finite maximum) finds the cutoff and the tail in the pass that finds
 * the maximum, with a min-heap of the tail + 1 largest raw weights: subtracting the maximum is
 * monotone, so the (tail + 1)-th largest of the shifted weights is the shifted (tail + 1)-th
 * largest raw weight, and every weight above it is in the heap. The slow path is the selection.
 */
export function psisSmoothFrom(lw: Float64Array, src: Float64Array, tail: number, negate: boolean, correction: Float64Array | undefined): number {
  const s = lw.length;
  const cap = tail + 1;
  if (heapV.length < cap) { heapV = new Float64Array(2 * cap); heapI = new Int32Array(2 * cap); tailV = new Float64Array(2 * cap); tailI = new Int32Array(2 * cap); }
  const hv = heapV, hi = heapI;
  let max = -Infinity, nan = false, h = 0;
  for (let i = 0; i < s; i++) {
    let v = negate ? -src[i]! : src[i]!;
    if (correction !== undefined) v = v + correction[i]!;
    lw[i] = v;
    if (v > max) max = v;
    else if (v !== v) nan = true;
    if (h < cap) {
      // sift up
      let c = h++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!(hv[p]! > v)) break;
        hv[c] = hv[p]!; hi[c] = hi[p]!; c = p;
      }
      hv[c] = v; hi[c] = i;
    } else if (v > hv[0]!) {
      // replace the root, sift down
      let c = 0;
      for (;;) {
        let l = 2 * c + 1;
        if (l >= cap) break;
        if (l + 1 < cap && hv[l + 1]! < hv[l]!) l++;
        if (!(hv[l]! < v)) break;
        hv[c] = hv[l]!; hi[c] = hi[l]!; c = l;
      }
      hv[c] = v; hi[c] = i;
    }
  }
  if (nan || !(max > -Infinity && max < Infinity) || cap > s) return smoothSlow(lw, tail, max);
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - max;
  const cutoff = Math.max(hv[0]! - max, LOG_TINY);
  const tv = tailV, ti = tailI;
  let m = 0;
  for (let e = 0; e < cap; e++) {
    const v = lw[hi[e]!]!;
    if (v > cutoff) { tv[m] = v; ti[m] = hi[e]!; m++; }
  }
  sortPairs(tv, ti, m);
  const k = smoothTail(lw, tv, ti, m, cutoff);
  // every weight outside the heap is at most the heap's smallest: the maximum is in the heap
  let mx = -Infinity;
  for (let e = 0; e < cap; e++) { const v = lw[hi[e]!]!; if (v > mx) mx = v; }
  smoothedMax = mx;
  return k;
}

/** The general path (NaN weights, an infinite maximum, or a tail as long as the draws): select the cutoff. */
function smoothSlow(lw: Float64Array, tail: number, max: number): number {
  const s = lw.length;
  for (let i = 0; i < s; i++) lw[i] = lw[i]! - max;
  // only the (tail + 1)-th largest value is needed, not the whole order: select, O(S)
  const cutoff = Math.max(orderStatistic(lw, s - tail - 1), LOG_TINY);
  let m = 0;
  for (let i = 0; i < s; i++) if (lw[i]! > cutoff) m++;
  if (tailV.length < m) { tailV = new Float64Array(m); tailI = new Int32Array(m); }
  const tv = tailV, ti = tailI;
  m = 0;
  for (let i = 0; i < s; i++) if (lw[i]! > cutoff) { tv[m] = lw[i]!; ti[m] = i; m++; }
  sortPairs(tv, ti, m);
  const k = smoothTail(lw, tv, ti, m, cutoff);
  let mx = -Infinity;
  for (let i = 0; i < s; i++) if (lw[i]! > mx) mx = lw[i]!;
  smoothedMax = mx;
  return k;
}

/** Scratch for the tail's exceedances. */
let zBuf = new Float64Array(0);

/**
 * Fits the generalized Pareto distribution to the `m` tail weights `tv` (ascending, at indices
 * `ti` of `lw`, all above `cutoff`) and, when the fit is usable, writes its quantiles over them
 * (capped at 0, the largest raw weight). Returns k (∞ for fewer than 5 tail weights).
 */
function smoothTail(lw: Float64Array, tv: Float64Array, ti: Int32Array, m: number, cutoff: number): number {
  if (m <= 4) return Infinity;
  const expCutoff = detExp(cutoff);
  if (zBuf.length < m) zBuf = new Float64Array(Math.max(m, 2 * zBuf.length));
  const z = zBuf.subarray(0, m);
  // exceedances over the cutoff, ascending
  for (let j = 0; j < m; j++) z[j] = detExp(tv[j]!) - expCutoff;
  const fit = gpdFit(z);
  const k = fit.k;
  if (Number.isFinite(k) && fit.sigma > 0) {
    for (let j = 0; j < m; j++) {
      const q = detLog(gpdQuantile((j + 0.5) / m, k, fit.sigma) + expCutoff);
      // every other weight is at most 0 (the maximum subtracted): only the tail can exceed it
      lw[ti[j]!] = q > 0 ? 0 : q;
    }
  }
  return k;
}

/**
 * Sorts the first n pairs (v[i], ix[i]) ascending by value, then index (the indices are distinct,
 * so the order is unique: ±0 compare equal, as `(a, b) => v[a] − v[b] || a − b` has them).
 */
function sortPairs(v: Float64Array, ix: Int32Array, n: number): void {
  const less = (a: number, ia: number, b: number, ib: number) => a < b || (a === b && ia < ib);
  // quicksort on [lo, hi], insertion sort below 16
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const hi0 = stack.pop()!, lo0 = stack.pop()!;
    let lo = lo0, hi = hi0;
    if (hi - lo < 16) {
      for (let i = lo + 1; i <= hi; i++) {
        const x = v[i]!, xi = ix[i]!;
        let j = i - 1;
        while (j >= lo && less(x, xi, v[j]!, ix[j]!)) { v[j + 1] = v[j]!; ix[j + 1] = ix[j]!; j--; }
        v[j + 1] = x; ix[j + 1] = xi;
      }
      continue;
    }
    const mid = (lo + hi) >>> 1;
    const pv = v[mid]!, pi = ix[mid]!;
    while (lo <= hi) {
      while (less(v[lo]!, ix[lo]!, pv, pi)) lo++;
      while (less(pv, pi, v[hi]!, ix[hi]!)) hi--;
      if (lo <= hi) {
        const t = v[lo]!; v[lo] = v[hi]!; v[hi] = t;
        const u = ix[lo]!; ix[lo] = ix[hi]!; ix[hi] = u;
        lo++; hi--;
      }
    }
    if (lo0 < hi) stack.push(lo0, hi);
    if (lo < hi0) stack.push(lo, hi0);
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
export function gpdQuantile(p: number, k: number, sigma: number): number {
  if (!(sigma > 0)) return Number.NaN;
  const x = Math.abs(k) < EPS ? -detLog1p(-p) : detExpm1(-k * detLog1p(-p)) / k;
  return x * sigma;
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
  return detLog(detExpSumShifted(x, max)) + (max - detLog(bInv));
}

/**
 * The Pareto k̂ above which importance sampling with S draws is unreliable (Vehtari et al. 2024,
 * as ArviZ's `good_k`): min(1 − 1/log₁₀ S, 0.7).
 */
export function paretoKThreshold(S: number): number {
  return Math.min(1 - 1 / detLog10(S), 0.7);
}
