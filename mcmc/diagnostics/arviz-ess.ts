/**
 * ArviZ's effective sample sizes (`az.ess`): bulk, tail, mean, sd and quantile ESS, each over
 * split chains with the multi-chain autocorrelation and Geyer's initial monotone sequence.
 */
import { checkBoolean, checkOptions, fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { type DrawsStructure, type MapStructure, mapStructure, perComponent } from './draws.js';
import type { Chains } from './internal/chains.js';
import { essBulkOf, essMeanOf, essQuantileOf, essSdOf, essTailOf } from './internal/arviz-stats.js';

export interface EssOptions {
  /** Divide by the total number of draws (ArviZ's `relative`). Default `false`. */
  readonly relative?: boolean;
}

export interface EssTailOptions extends EssOptions {
  /** `p` (meaning `[p, 1 − p]`) or `[low, high]` probabilities. Default `[0.05, 0.95]`. */
  readonly prob?: number | readonly [number, number];
}

export interface EssQuantileOptions extends EssOptions {
  /** The quantile's probability, in (0, 1). Required. */
  readonly prob: number;
}

/** A probability strictly inside (0, 1). */
export function checkProb(fn: string, arg: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', fn, arg, 'must be a number', x);
  if (!(x > 0 && x < 1)) fail('range', fn, arg, 'must be a probability in (0, 1)', x);
  return x;
}

function relativeOf(fn: string, options: EssOptions | undefined, known: readonly (keyof EssQuantileOptions)[] = ['relative']): boolean {
  const o = checkOptions(fn, options as EssQuantileOptions | undefined, known);
  return o.relative === undefined ? false : checkBoolean(fn, 'relative', o.relative);
}

function mapEss<S extends DrawsStructure>(fn: string, states: S, stat: (a: Chains) => number): MapStructure<S, Tensor> {
  return mapStructure(fn, 'states', states, (part, where) => perComponent(fn, where, part, stat)) as MapStructure<S, Tensor>;
}

/**
 * Bulk effective sample size: the ESS of the rank-normalized split chains (ArviZ's
 * `method='bulk'`), a measure of how well the centre of the distribution is sampled.
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `relative` (default `false`): divide by the number of draws.
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} for input that is not draws, or a non-boolean `relative`.
 * @throws {RangeError} when a part is a scalar or has no draws or chains.
 *
 * @example
 * import { random } from 'stochax';
 * import { essBulk } from 'stochax/mcmc';
 * const draws = random.normal(random.key(0), [1000, 4]);   // iid: ESS ≈ 4000
 * essBulk(draws).item();   // → a number near 4000
 */
export function essBulk<S extends DrawsStructure>(states: S, options?: EssOptions): MapStructure<S, Tensor> {
  const relative = relativeOf('essBulk', options);
  return mapEss('essBulk', states, (a) => essBulkOf(a, relative));
}

/**
 * Tail effective sample size: the smaller ESS of the indicators `draw ≤ q₀.₀₅` and
 * `draw ≤ q₀.₉₅` over split chains (ArviZ's `method='tail'`).
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `prob` (default `[0.05, 0.95]`; a number `p` means `[p, 1 − p]`), `relative`.
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} for input that is not draws or a non-numeric `prob`.
 * @throws {RangeError} for a probability outside (0, 1) or a mis-shaped part.
 *
 * @example
 * import { random } from 'stochax';
 * import { essTail } from 'stochax/mcmc';
 * essTail(random.normal(random.key(1), [500, 4])).item();            // → a number near 2000
 * essTail(random.normal(random.key(1), [500, 4]), { prob: 0.1 });    // → Tensor float64 []
 */
export function essTail<S extends DrawsStructure>(states: S, options?: EssTailOptions): MapStructure<S, Tensor> {
  const relative = relativeOf('essTail', options, ['relative', 'prob']);
  const prob = options?.prob ?? [0.05, 0.95];
  let lo: number;
  let hi: number;
  if (typeof prob === 'number') {
    lo = checkProb('essTail', 'prob', prob);
    hi = 1 - lo;
  } else {
    if (!Array.isArray(prob) || prob.length !== 2) fail('type', 'essTail', 'prob', 'must be a number or a [low, high] pair', prob);
    lo = checkProb('essTail', 'prob[0]', prob[0]);
    hi = checkProb('essTail', 'prob[1]', prob[1]);
  }
  return mapEss('essTail', states, (a) => essTailOf(a, lo, hi, relative));
}

/**
 * Effective sample size for the mean: the ESS of the split chains themselves (ArviZ's
 * `method='mean'`), the one `mcseMean` divides by.
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `relative` (default `false`).
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} for input that is not draws.
 * @throws {RangeError} for a mis-shaped part.
 *
 * @example
 * import { tensor } from 'stochax';
 * import { essMean } from 'stochax/mcmc';
 * essMean(tensor([[1, 2], [2, 1], [1.5, 0.5], [0.7, 1.1], [1.2, 0.9]])).item(); // → a number
 */
export function essMean<S extends DrawsStructure>(states: S, options?: EssOptions): MapStructure<S, Tensor> {
  const relative = relativeOf('essMean', options);
  return mapEss('essMean', states, (a) => essMeanOf(a, relative));
}

/**
 * Effective sample size for the standard deviation: the ESS of the squared deviations from
 * the overall mean, over split chains (ArviZ's `method='sd'`).
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `relative` (default `false`).
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} for input that is not draws.
 * @throws {RangeError} for a mis-shaped part.
 *
 * @example
 * import { random } from 'stochax';
 * import { essSd } from 'stochax/mcmc';
 * essSd(random.normal(random.key(2), [400, 2])).item(); // → a number near 800
 */
export function essSd<S extends DrawsStructure>(states: S, options?: EssOptions): MapStructure<S, Tensor> {
  const relative = relativeOf('essSd', options);
  return mapEss('essSd', states, (a) => essSdOf(a, relative));
}

/**
 * Effective sample size for one quantile: the ESS of the indicator `draw ≤ q_prob` over split
 * chains (ArviZ's `method='quantile'`; `q_prob` is the type-7 sample quantile).
 *
 * @param states - draws in TFP layout `[draws, chains, ...event]`, or an array or record of parts.
 * @param options - `prob` in (0, 1) (required), `relative` (default `false`).
 * @returns A float64 `Tensor` of the event shape per part (NaN for NaN draws or < 4 draws).
 * @throws {TypeError} when `prob` is missing or not a number.
 * @throws {RangeError} when it is outside (0, 1).
 *
 * @example
 * import { random } from 'stochax';
 * import { essQuantile } from 'stochax/mcmc';
 * essQuantile(random.normal(random.key(3), [400, 2]), { prob: 0.25 }).item(); // → a number
 */
export function essQuantile<S extends DrawsStructure>(states: S, options: EssQuantileOptions): MapStructure<S, Tensor> {
  const o = checkOptions('essQuantile', options, ['relative', 'prob']);
  const prob = checkProb('essQuantile', 'prob', o.prob);
  const relative = relativeOf('essQuantile', options, ['relative', 'prob']);
  return mapEss('essQuantile', states, (a) => essQuantileOf(a, prob, relative));
}
