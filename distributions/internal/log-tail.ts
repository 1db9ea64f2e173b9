/**
 * log of a discrete tail sum where the tail itself underflows: log Σ f(j) over j ≤ k or j > k,
 * from the log of its first term and the ratio of consecutive terms. Only used in the far
 * tails (where the direct cdf is below ~1e−300), where the ratios are well below 1 and the
 * series converges in a few dozen terms.
 */
import { detLog } from '../../src/math/index.js';

/** Below this a tail probability is taken in log space. */
export const LOG_TAIL_THRESHOLD = 1e-300;

/**
 * log Σᵢ tᵢ with t₀ = exp(logFirst) at index `first` and tᵢ₊₁ = tᵢ · ratio(jᵢ), where jᵢ runs
 * from `first` downward (`step` −1) or upward (`step` +1) and stops after `last`.
 */
export function logTailSeries(logFirst: number, first: number, last: number, step: 1 | -1, ratio: (j: number) => number): number {
  if (!(logFirst > -Infinity)) return logFirst;
  let s = 1, t = 1;
  for (let j = first; step < 0 ? j > last : j < last; j += step) {
    t *= ratio(j);
    s += t;
    if (t <= 1e-17 * s) break;
  }
  return logFirst + detLog(s);
}
