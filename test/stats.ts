/**
 * Goodness-of-fit helpers for statistical tests. The reference distributions come from
 * @stdlib (kstest's Kolmogorov distribution, the chi-square CDF), not from the code under test.
 *
 * Every statistical test in this suite runs at a fixed key and rejects at ALPHA, so a correct
 * sampler fails a given test with probability ALPHA (1e-6): with ~50 such tests the suite's
 * false-failure rate is below 1e-4, and because keys are fixed a pass is reproducible.
 */
import kstest from '@stdlib/stats-kstest';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';

export const ALPHA = 1e-6;

/** Kolmogorov–Smirnov p-value of `values` against Uniform(a, b). */
export function ksUniformPValue(values: ArrayLike<number>, a = 0, b = 1): number {
  return ksPValue(values, (x) => (x <= a ? 0 : x >= b ? 1 : (x - a) / (b - a)));
}

/**
 * KS p-value against an arbitrary CDF, fast: the statistic D from the sorted sample, and the
 * p-value from Kolmogorov's limiting distribution at (√n + 0.12 + 0.11/√n)·D (Stephens 1970),
 * accurate to ~1e-3 for n ≥ 1000 (test/stats.test.ts compares it with @stdlib's exact kstest,
 * which costs ~0.3 s per call at n = 20000).
 */
export function ksPValue(values: ArrayLike<number>, cdf: (x: number) => number): number {
  const x = Float64Array.from(values).sort();
  const n = x.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(x[i]!);
    d = Math.max(d, f - i / n, (i + 1) / n - f);
  }
  const sqrtN = Math.sqrt(n);
  return kolmogorovSurvival((sqrtN + 0.12 + 0.11 / sqrtN) * d);
}

/** P(K > t) for the Kolmogorov distribution: 2 Σ (−1)^(k−1) exp(−2k²t²). */
export function kolmogorovSurvival(t: number): number {
  if (t < 0.2) return 1;
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = Math.exp(-2 * k * k * t * t);
    sum += (k % 2 === 1 ? 1 : -1) * term;
    if (term < 1e-16) break;
  }
  return Math.min(1, Math.max(0, 2 * sum));
}

/** The exact @stdlib test, for checking `ksPValue`. */
export function ksPValueExact(values: ArrayLike<number>, cdf: (x: number) => number): number {
  return kstest(Array.from(values), cdf).pValue;
}

/**
 * Pearson chi-square p-value of observed `counts` against `probs` (which sum to 1). Cells with
 * expected count below 5 should be merged by the caller.
 */
export function chiSquarePValue(counts: ArrayLike<number>, probs: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < counts.length; i++) n += counts[i]!;
  let stat = 0;
  for (let i = 0; i < counts.length; i++) {
    const e = n * probs[i]!;
    stat += (counts[i]! - e) ** 2 / e;
  }
  return 1 - chisquareCdf(stat, counts.length - 1);
}

/**
 * Two-sample Kolmogorov–Smirnov p-value (both samples iid, independent of each other): D from
 * the two sorted samples, the p-value from Kolmogorov's limiting distribution at
 * (√m + 0.12 + 0.11/√m)·D with m = n₁n₂/(n₁ + n₂) (Stephens 1970, as `ksPValue`).
 */
export function ksTwoSamplePValue(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const x = Float64Array.from(a).sort(), y = Float64Array.from(b).sort();
  const n1 = x.length, n2 = y.length;
  let i = 0, j = 0, d = 0;
  while (i < n1 && j < n2) {
    const v = Math.min(x[i]!, y[j]!);
    while (i < n1 && x[i]! <= v) i++;
    while (j < n2 && y[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / n1 - j / n2));
  }
  const m = Math.sqrt((n1 * n2) / (n1 + n2));
  return kolmogorovSurvival((m + 0.12 + 0.11 / m) * d);
}

/**
 * {@link chiSquarePValue} with the cells whose expected count is below 5 merged into one (the
 * usual rule for Pearson's approximation), so sparse tables can be passed whole.
 */
export function chiSquareMergedPValue(counts: ArrayLike<number>, probs: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < counts.length; i++) n += counts[i]!;
  const c: number[] = [], p: number[] = [];
  let restC = 0, restP = 0;
  for (let i = 0; i < counts.length; i++) {
    if (probs[i]! * n >= 5) { c.push(counts[i]!); p.push(probs[i]!); } else { restC += counts[i]!; restP += probs[i]!; }
  }
  if (restP > 0) { c.push(restC); p.push(restP); }
  return chiSquarePValue(c, p);
}
