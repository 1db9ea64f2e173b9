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
  return kstest(Array.from(values), 'uniform', a, b).pValue;
}

/** KS p-value against an arbitrary CDF. */
export function ksPValue(values: ArrayLike<number>, cdf: (x: number) => number): number {
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
