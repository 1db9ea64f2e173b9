/**
 * Pareto-smoothed importance sampling (Vehtari, Simpson, Gelman, Yao & Gabry 2024) of the draws
 * of an approximation q of p, as Pathfinder and ADVI use it (Yao, Vehtari, Simpson & Gelman
 * 2018): the log ratios logP − logQ smoothed into normalised log weights, their Pareto k̂, and
 * optionally draws resampled with those weights. The smoothing is mcmc/diagnostics' PSIS.
 */
import type { KeyArray } from '../src/random/key-array.js';
import { uniform } from '../src/random/uniform.js';
import { logSumExp, psisSmooth, tailLength } from '../mcmc/diagnostics/internal/psis.js';
import { detExp } from '../src/math/index.js';

export interface Importance {
  /** Pareto k̂ of the log ratios (∞ for fewer than 2 draws, or when every logP is −∞). */
  readonly paretoK: number;
  /** The smoothed log weights, normalised (log Σ exp = 0); −∞ where logP is −∞; equal when every logP is −∞. */
  readonly logWeights: Float64Array;
  /** With `nOut`: the indices drawn with replacement with those weights; else undefined. */
  readonly pick: Int32Array | undefined;
}

/**
 * PSIS of logP − logQ, and, when `nOut` is given, `nOut` indices drawn with replacement with the
 * smoothed weights (uniforms from `key` inverted through the cumulative weights).
 * @example
 * const { paretoK, logWeights, pick } = psisImportance(logP, logQ, 1000, foldIn(seed, 'psis'));
 * // pick[i]: the candidate that draw i repeats; Σ exp(logWeights) = 1
 */
export function psisImportance(logP: Float64Array, logQ: Float64Array, nOut: number | undefined, key: KeyArray): Importance {
  const total = logP.length;
  const raw = logP.map((v, s) => v - logQ[s]!);
  const finite = raw.some((v) => v > -Infinity);
  const lw = Float64Array.from(raw);
  const paretoK = total < 2 || !finite ? Infinity : psisSmooth(lw, tailLength(total, 1));
  if (!finite) lw.fill(0);   // every candidate failed: equal weights (the callers warn)
  const norm = logSumExp(lw);
  const logWeights = lw.map((v) => v - norm);
  if (nOut === undefined) return { paretoK, logWeights, pick: undefined };
  const cum = new Float64Array(total);
  let acc = 0;
  for (let s = 0; s < total; s++) { acc += detExp(lw[s]!); cum[s] = acc; }
  const u = uniform(key, [nOut], { dtype: 'float64' }).data as Float64Array;
  const pick = new Int32Array(nOut);
  for (let i = 0; i < nOut; i++) {
    const t = u[i]! * acc;
    let lo = 0, hi = total - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cum[mid]! > t) hi = mid; else lo = mid + 1; }
    pick[i] = lo;
  }
  return { paretoK, logWeights, pick };
}
