/**
 * Lagged sums of products of a centred series, `s[k] = Σ_{n=0}^{N−1−k} x[n+k]·x[n]`, the
 * numerator every autocovariance estimator here shares (TFP divides by `N − k`, ArviZ by `N`).
 * Small lag counts are summed directly; otherwise a zero-padded radix-2 FFT (the
 * Wiener–Khinchin route TFP and ArviZ take) computes every lag in O(N log N).
 */
import { detCos, detSin } from '../../../src/math/index.js';

const twiddles = new Map<number, { cos: Float64Array; sin: Float64Array }>();

/** cos and sin of −2πk/n for k < n/2, cached per size. */
function twiddlesOf(n: number): { cos: Float64Array; sin: Float64Array } {
  let t = twiddles.get(n);
  if (t === undefined) {
    const cos = new Float64Array(n >> 1);
    const sin = new Float64Array(n >> 1);
    for (let k = 0; k < n >> 1; k++) { cos[k] = detCos((2 * Math.PI * k) / n); sin[k] = -detSin((2 * Math.PI * k) / n); }
    t = { cos, sin };
    twiddles.set(n, t);
  }
  return t;
}

/** In-place iterative radix-2 complex FFT of length `re.length` (a power of two). */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i]!; re[i] = re[j]!; re[j] = t;
      t = im[i]!; im[i] = im[j]!; im[j] = t;
    }
  }
  const { cos, sin } = twiddlesOf(n);
  const sign = inverse ? -1 : 1;
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let k = 0; k < half; k++) {
      const wr = cos[k * stride]!;
      const wi = sign * sin[k * stride]!;
      for (let s = k; s < n; s += len) {
        const t = s + half;
        const xr = re[t]! * wr - im[t]! * wi;
        const xi = re[t]! * wi + im[t]! * wr;
        re[t] = re[s]! - xr; im[t] = im[s]! - xi;
        re[s] = re[s]! + xr; im[s] = im[s]! + xi;
      }
    }
  }
}

/** Smallest power of two ≥ `n`. */
function pow2AtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/**
 * Accumulates the power spectra of several centred series (each `x.subarray(offset, offset+n)`)
 * and returns the lagged sums of products for lags `0..maxLag`, summed over the series.
 */
export function laggedProductSums(x: Float64Array, offsets: readonly number[], n: number, maxLag: number): Float64Array {
  const out = new Float64Array(maxLag + 1);
  if (maxLag <= 40 || n < 64) {
    for (const o of offsets) {
      let k = 0;
      // Four lags per pass over the series: four independent sums (the loop otherwise waits on
      // each addition), each still in the order of i, so every lag's bits are the one-lag loop's.
      for (; k + 3 <= maxLag; k += 4) {
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0;
        for (; i + k + 3 < n; i++) {
          const xi = x[o + i]!, at = o + i + k;
          s0 += x[at]! * xi;
          s1 += x[at + 1]! * xi;
          s2 += x[at + 2]! * xi;
          s3 += x[at + 3]! * xi;
        }
        for (let j = i; j + k < n; j++) s0 += x[o + j + k]! * x[o + j]!;
        for (let j = i; j + k + 1 < n; j++) s1 += x[o + j + k + 1]! * x[o + j]!;
        for (let j = i; j + k + 2 < n; j++) s2 += x[o + j + k + 2]! * x[o + j]!;
        out[k] += s0; out[k + 1] += s1; out[k + 2] += s2; out[k + 3] += s3;
      }
      for (; k <= maxLag; k++) {
        let s = 0;
        for (let i = 0; i + k < n; i++) s += x[o + i + k]! * x[o + i]!;
        out[k] += s;
      }
    }
    return out;
  }
  const p = pow2AtLeast(2 * n);
  const power = new Float64Array(p);
  const re = new Float64Array(p);
  const im = new Float64Array(p);
  // Two real series per complex transform (z = x + i·y): |X_k|² + |Y_k|² = (|Z_k|² + |Z_{−k}|²)/2.
  for (let q = 0; q < offsets.length; q += 2) {
    re.fill(0); im.fill(0);
    const a = offsets[q]!;
    for (let i = 0; i < n; i++) re[i] = x[a + i]!;
    if (q + 1 < offsets.length) {
      const b = offsets[q + 1]!;
      for (let i = 0; i < n; i++) im[i] = x[b + i]!;
    }
    fft(re, im, false);
    for (let k = 0; k < p; k++) {
      const j = (p - k) & (p - 1);
      power[k] += (re[k]! * re[k]! + im[k]! * im[k]! + re[j]! * re[j]! + im[j]! * im[j]!) / 2;
    }
  }
  re.set(power); im.fill(0);
  fft(re, im, true);
  for (let k = 0; k <= maxLag; k++) out[k] = re[k]! / p;
  return out;
}

/**
 * {@link laggedProductSums} of each series alone (lags `0..maxLag`), for plots of one curve per
 * chain. With the FFT, two real series share each forward and inverse transform (z = x + i·y:
 * X_k = (Z_k + conj Z_{−k})/2, Y_k = (Z_k − conj Z_{−k})/2i; the inverse of |X|² + i·|Y|² is x's
 * sums in the real part and y's in the imaginary part): half the transforms of one series at a
 * time, equal to them to rounding, not bit for bit. Each series is scaled to unit sum of squares
 * first, so a series of tiny scale shares a transform's rounding with one of its own size; a series
 * with no positive finite sum of squares (zeros, NaN) goes alone. Few lags are summed directly, as there.
 */
export function laggedProductSumsEach(x: Float64Array, offsets: readonly number[], n: number, maxLag: number): Float64Array[] {
  if (maxLag <= 40 || n < 64) return offsets.map((o) => laggedProductSums(x, [o], n, maxLag));
  const out: Float64Array[] = offsets.map(() => new Float64Array(maxLag + 1));
  const squares = offsets.map((o) => { let s = 0; for (let i = o; i < o + n; i++) s += x[i]! * x[i]!; return s; });
  const paired: number[] = [];
  offsets.forEach((o, q) => { if (squares[q]! > 0 && squares[q]! < Infinity) paired.push(q); else out[q] = laggedProductSums(x, [o], n, maxLag); });
  const p = pow2AtLeast(2 * n);
  const re = new Float64Array(p);
  const im = new Float64Array(p);
  for (let t = 0; t < paired.length; t += 2) {
    re.fill(0); im.fill(0);
    const qa = paired[t]!, qb = paired[t + 1];
    const a = offsets[qa]!, ka = 1 / Math.sqrt(squares[qa]!);
    for (let i = 0; i < n; i++) re[i] = x[a + i]! * ka;
    if (qb !== undefined) { const b = offsets[qb]!, kb = 1 / Math.sqrt(squares[qb]!); for (let i = 0; i < n; i++) im[i] = x[b + i]! * kb; }
    fft(re, im, false);
    // |X_k|² and |Y_k|² for k ≤ p/2 (both are even in k), then the inverse of |X|² + i·|Y|²
    for (let k = 0; k <= p >> 1; k++) {
      const j = (p - k) & (p - 1);
      const sr = re[k]! + re[j]!, di = im[k]! - im[j]!, si = im[k]! + im[j]!, dr = re[k]! - re[j]!;
      const px = (sr * sr + di * di) / 4, py = (si * si + dr * dr) / 4;
      re[k] = px; im[k] = py; re[j] = px; im[j] = py;
    }
    fft(re, im, true);
    const sa = out[qa]!, ua = squares[qa]! / p;
    for (let k = 0; k <= maxLag; k++) sa[k] = re[k]! * ua;
    if (qb !== undefined) {
      const sb = out[qb]!, ub = squares[qb]! / p;
      for (let k = 0; k <= maxLag; k++) sb[k] = im[k]! * ub;
    }
  }
  return out;
}
