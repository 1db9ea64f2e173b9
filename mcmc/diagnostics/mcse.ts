/**
 * Monte Carlo standard errors as ArviZ computes them (`az.mcse`): of the mean, of the
 * standard deviation, and of a quantile.
 */
import { checkOptions } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { type DrawsStructure, type MapStructure, mapStructure, perComponent } from './draws.js';
import { checkProb } from './arviz-ess.js';
import { mcseMeanOf, mcseQuantileOf, mcseSdOf } from './internal/arviz-stats.js';

/**
 * MCSE of the posterior mean: `sd / √essMean`, with the sample sd (ddof = 1) over all draws.
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} for input that is not draws.
 * @throws {RangeError} for a mis-shaped part.
 *
 * @example
 * import { random } from 'stochax';
 * import { mcseMean } from 'stochax/mcmc';
 * mcseMean(random.normal(random.key(0), [1000, 4])).item(); // → a number near 1/√4000 ≈ 0.016
 */
export function mcseMean<S extends DrawsStructure>(states: S): MapStructure<S, Tensor> {
  return mapStructure('mcseMean', 'states', states, (part, where) => perComponent('mcseMean', where, part, mcseMeanOf)) as MapStructure<S, Tensor>;
}

/**
 * MCSE of the posterior standard deviation (ArviZ's `method='sd'`): the delta method on the
 * squared deviations `s = (x − x̄)²`, `√(((E[s²] − E[s]²)/ess(s)) / E[s] / 4)`, with `ess(s)`
 * the split-chain ESS for the mean of `s`.
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws, < 4 draws or constant draws).
 * @throws {TypeError} for input that is not draws.
 * @throws {RangeError} for a mis-shaped part.
 *
 * @example
 * import { random } from 'stochax';
 * import { mcseSd } from 'stochax/mcmc';
 * mcseSd(random.normal(random.key(0), [1000, 4])).item(); // → a number near 0.011
 */
export function mcseSd<S extends DrawsStructure>(states: S): MapStructure<S, Tensor> {
  return mapStructure('mcseSd', 'states', states, (part, where) => perComponent('mcseSd', where, part, mcseSdOf)) as MapStructure<S, Tensor>;
}

/**
 * MCSE of the `prob` quantile (ArviZ's `method='quantile'`): half the distance between the
 * order statistics at the 15.9% and 84.1% points of `Beta(ess·p + 1, ess·(1 − p) + 1)`, with
 * `ess` the quantile ESS.
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `prob` in (0, 1) (required).
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} when `prob` is missing or not a number.
 * @throws {RangeError} when it is outside (0, 1).
 *
 * @example
 * import { random } from 'stochax';
 * import { mcseQuantile } from 'stochax/mcmc';
 * mcseQuantile(random.normal(random.key(0), [1000, 4]), { prob: 0.05 }).item(); // → a number near 0.04
 */
export function mcseQuantile<S extends DrawsStructure>(states: S, options: { readonly prob: number }): MapStructure<S, Tensor> {
  const prob = checkProb('mcseQuantile', 'prob', checkOptions('mcseQuantile', options, ['prob']).prob);
  return mapStructure('mcseQuantile', 'states', states, (part, where) =>
    perComponent('mcseQuantile', where, part, (a) => mcseQuantileOf(a, prob))) as MapStructure<S, Tensor>;
}
