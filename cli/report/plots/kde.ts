/**
 * Gaussian kernel density estimate with Scott's bandwidth (scipy's `gaussian_kde` default in
 * one dimension), the smooth curve drawn over the marginal histograms.
 */
import { detExp, detPow } from '../../../src/math/index.js';

/**
 * Scott's rule: `h = σ̂ · n^(−1/5)` with σ̂ the sample standard deviation (ddof = 1), the
 * bandwidth `scipy.stats.gaussian_kde(x).factor · std` gives in one dimension. NaN for fewer
 * than two values.
 *
 * @example
 * scottBandwidth(Float64Array.of(1, 2, 3, 4)); // ≈ 0.9996 (σ̂ ≈ 1.291, n^(−1/5) ≈ 0.758)
 */
export function scottBandwidth(x: Float64Array): number {
  // no loop here (see gridGaussianKde): the sum's own function, then the rest
  return x.length < 2 ? NaN : scottBandwidthOfSum(x, sumInOrder(x));
}

/** `x[0] + x[1] + …`, in order from 0. */
function sumInOrder(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m += x[i]!;
  return m;
}

/**
 * {@link scottBandwidth} given `sum`, the values summed in order from 0 (as it sums them: the
 * same bits), when a caller's own pass over millions of values has summed them. @internal
 *
 * @example
 * scottBandwidthOfSum(Float64Array.of(1, 2, 3, 4), 10); // = scottBandwidth(Float64Array.of(1, 2, 3, 4))
 */
export function scottBandwidthOfSum(x: Float64Array, sum: number): number {
  const n = x.length;
  if (n < 2) return NaN;
  const m = sum / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i]! - m) ** 2;
  return Math.sqrt(s / (n - 1)) * detPow(n, -0.2);
}

/**
 * `n` evenly spaced points from `a` to `b` inclusive.
 *
 * @example
 * linspace(0, 1, 3); // Float64Array [0, 0.5, 1]
 */
export function linspace(a: number, b: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = n === 1 ? a : a + ((b - a) * i) / (n - 1);
  return out;
}

/** Kernel mass beyond this many bandwidths (e^(−u²/2) < 1e−16) is left out. */
const CUTOFF = 8.6;

/**
 * The Gaussian KDE `f(g) = 1/(n·h) · Σᵢ φ((g − xᵢ)/h)` at each grid point. Only the points within
 * 8.6 bandwidths of `g` are summed (found by binary search in the sorted data), which changes
 * the result by less than 1e−16 relative to the density's peak.
 *
 * @param x - the data (finite values).
 * @param grid - where to evaluate the density.
 * @param bandwidth - the kernel's standard deviation (default {@link scottBandwidth}).
 * @returns The density at each grid point (all zeros when the bandwidth is not positive and finite).
 *
 * @example
 * const x = Float64Array.of(-1, 0, 0.5, 2);
 * gaussianKde(x, linspace(-1, 2, 4)); // densities at −1, 0, 1, 2
 */
export function gaussianKde(x: Float64Array, grid: ArrayLike<number>, bandwidth = scottBandwidth(x)): Float64Array {
  const out = new Float64Array(grid.length);
  const h = bandwidth;
  if (!(h > 0 && Number.isFinite(h)) || x.length === 0) return out;
  const s = Float64Array.from(x).sort();
  const norm = 1 / (s.length * h * Math.sqrt(2 * Math.PI));
  for (let j = 0; j < grid.length; j++) {
    const g = grid[j]!;
    let sum = 0;
    for (let i = lowerBound(s, g - CUTOFF * h); i < s.length && s[i]! <= g + CUTOFF * h; i++) {
      const u = (g - s[i]!) / h;
      sum += detExp(-0.5 * u * u);
    }
    out[j] = sum * norm;
  }
  return out;
}

/** Bins per bandwidth in {@link gridGaussianKde}: linear binning's error is then below (1/64)²/8 ≈ 3e−5 of the peak. */
const BINS_PER_BANDWIDTH = 64;

/**
 * {@link gaussianKde} on the evenly spaced grid `linspace(lo, hi, n)`, for plots: `x` is linearly
 * binned onto bins at least 64 to a bandwidth, aligned so that every grid point is a bin centre,
 * and the kernel is summed over the bins with one table of kernel values (the bins' offsets
 * from a grid point are the same for every grid point). The cost is O(len(x) + n · 1,100)
 * instead of O(n · len(x)) kernel evaluations, whatever the number of points. Linear binning
 * moves each point's kernel by at most (δ/h)²/8 of its peak for bin width δ ≤ h/64: below 3e−5
 * of the density's peak, 0.005 px on a 150-px plot. Points beyond the grid ± 8.6 bandwidths
 * (and NaN) add nothing, as in {@link gaussianKde}'s cut-off. When the grid spans over ~60,000
 * bandwidths (a few extreme outliers), the exact sum is both cheaper and used.
 *
 * @param x - the data.
 * @param lo - the first grid point.
 * @param hi - the last grid point.
 * @param n - the number of grid points.
 * @param bandwidth - the kernel's standard deviation (e.g. {@link scottBandwidth}(x)).
 * @returns The density at each of the `n` grid points (zeros when the bandwidth is not positive and finite).
 *
 * @example
 * const x = Float64Array.of(-1, 0, 0.5, 2);
 * gridGaussianKde(x, -1, 2, 4, scottBandwidth(x)); // ≈ gaussianKde(x, linspace(-1, 2, 4))
 */
export function gridGaussianKde(x: Float64Array, lo: number, hi: number, n: number, bandwidth: number): Float64Array {
  const out = new Float64Array(n);
  const h = bandwidth;
  if (!(h > 0 && Number.isFinite(h)) || x.length === 0 || n === 0) return out;
  const step = n > 1 ? (hi - lo) / (n - 1) : 0;
  const r = step > 0 ? Math.max(1, Math.ceil((step * BINS_PER_BANDWIDTH) / h)) : 0;   // bins per grid step
  const delta = step > 0 ? step / r : h / BINS_PER_BANDWIDTH;
  const reach = Math.ceil((CUTOFF * h) / delta);
  const bins = (n - 1) * r + 1 + 2 * reach;
  if (!(bins <= 1 << 22)) return gaussianKde(x, linspace(lo, hi, n), h);
  // bin b is centred at lo + (b − reach)·δ; grid point j at bin reach + j·r
  const w = linearBins(x, lo - reach * delta, delta, bins);
  const kernel = kernelTable(reach, delta, h);
  const norm = 1 / (x.length * h * Math.sqrt(2 * Math.PI));
  // Fewer points than bins (a replicate of 8 observations fills 16 of ~1,400) leave most bins
  // empty: see sparseGridSums. More points keep the plain loop alone. (Every loop is in a function
  // of its own and none here: a loop here would be compiled on the spot (OSR) during the first
  // plots, without the sparse call's feedback, and that code would deoptimise at every later call.)
  if (2 * x.length < bins) sparseGridSums(w, kernel, n, r, reach, norm, out);
  else denseGridSums(w, kernel, n, r, reach, norm, out);
  return out;
}

/** `x` linearly binned onto `bins` bins of width `delta`, bin b centred at origin + b·δ; values beyond them (and NaN) left out. */
function linearBins(x: Float64Array, origin: number, delta: number, bins: number): Float64Array {
  const w = new Float64Array(bins);
  const last = bins - 1;
  for (let i = 0; i < x.length; i++) {
    const t = (x[i]! - origin) / delta;
    if (!(t >= 0 && t <= last)) continue;   // beyond the span (or NaN)
    let k = t | 0;   // ⌊t⌋: 0 ≤ t < 2²²
    if (k === last) k--;
    const f = t - k;
    w[k]! += 1 - f;
    w[k + 1]! += f;
  }
  return w;
}

/** The kernel e^(−u²/2) at 0..reach bins of width `delta`, bandwidth `h`. */
function kernelTable(reach: number, delta: number, h: number): Float64Array {
  const kernel = new Float64Array(reach + 1);
  for (let o = 0; o <= reach; o++) {
    const u = (o * delta) / h;
    kernel[o] = detExp(-0.5 * u * u);
  }
  return kernel;
}

/** The kernel sums at grid points j (bin reach + j·r), every tap summed, times `norm`, into `out`. */
function denseGridSums(w: Float64Array, kernel: Float64Array, n: number, r: number, reach: number, norm: number, out: Float64Array): void {
  for (let j = 0; j < n; j++) {
    const c = reach + j * r;
    let sum = w[c]! * kernel[0]!;
    for (let o = 1; o <= reach; o++) sum += (w[c - o]! + w[c + o]!) * kernel[o]!;
    out[j] = sum * norm;
  }
}

/**
 * {@link denseGridSums} where most bins are empty: where a grid point's window holds few filled
 * bins, the taps visit only those, in the same order of o. A skipped tap adds (0 + 0)·k = +0 to a
 * sum ≥ +0, so the bits are the dense loop's.
 */
function sparseGridSums(w: Float64Array, kernel: Float64Array, n: number, r: number, reach: number, norm: number, out: Float64Array): void {
  const bins = w.length;
  const filled = new Int32Array(bins), before = new Int32Array(bins + 1);   // filled bins ascending; before[b]: filled bins below b
  let m = 0;
  for (let b = 0; b < bins; b++) { before[b] = m; if (w[b] !== 0) filled[m++] = b; }
  before[bins] = m;
  for (let j = 0; j < n; j++) {
    const c = reach + j * r;
    let sum = w[c]! * kernel[0]!;
    if (4 * (before[c + reach + 1]! - before[c - reach]!) >= reach) {
      for (let o = 1; o <= reach; o++) sum += (w[c - o]! + w[c + o]!) * kernel[o]!;
    } else {
      // the filled bins left of c (from index `left` of `filled` down) and right of it (from `right` up), merged by distance o
      let left = before[c]! - 1, right = before[c + 1]!;
      for (;;) {
        const oL = left >= 0 ? c - filled[left]! : reach + 1, oR = right < m ? filled[right]! - c : reach + 1;
        const o = oL < oR ? oL : oR;
        if (o > reach) break;
        sum += (w[c - o]! + w[c + o]!) * kernel[o]!;
        if (oL === o) left--;
        if (oR === o) right++;
      }
    }
    out[j] = sum * norm;
  }
}

/** First index with `s[i] ≥ v` in sorted `s`. */
function lowerBound(s: Float64Array, v: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
