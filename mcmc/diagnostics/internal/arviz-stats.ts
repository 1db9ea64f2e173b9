/**
 * ArviZ's per-variable diagnostics (`arviz.stats.diagnostics`, 0.x) on one (chain, draw)
 * matrix: `_rhat`, `_rhat_rank`, `_ess_bulk`, `_ess_tail`, `_ess_quantile`, `_ess_mean`,
 * `_ess_sd`, `_mcse_mean`, `_mcse_sd`, `_mcse_quantile` and the `_multichain_statistics`
 * bundle `summary` uses. Invalid input (NaN draws, fewer than 4 draws, or fewer than 2 chains
 * for R-hat) gives NaN, as in ArviZ.
 */
import { betaincinv } from '../../../src/tensor/special/betaincinv.js';
import { essOf } from './arviz-ess.js';
import {
  chainMeans, mapChains, mean, notValid, pyMax, pyMin, splitChains, variance, zScale, type Chains,
} from './chains.js';
import { median, mquantile, sameBits, sorted } from './quantile.js';

/** `_rhat`: the classic (non-split) R-hat, `√((B/W + n − 1)/n)`. */
export function rhatCore(a: Chains): number {
  if (notValid(a, 0, 0)) return Number.NaN;
  const n = a.draws;
  const chainVar = new Float64Array(a.chains);
  for (let c = 0; c < a.chains; c++) chainVar[c] = variance(a.data.subarray(c * n, (c + 1) * n), 1);
  const between = n * variance(chainMeans(a), 1);
  const within = mean(chainVar);
  return Math.sqrt((between / within + n - 1) / n);
}

/** `_rhat_rank`: max of the bulk (rank-normalised split) and tail (folded about the median) R-hat. */
export function rhatRankOf(a: Chains): number {
  if (notValid(a, 4, 2)) return Number.NaN;
  const split = splitChains(a);
  const bulk = rhatCore(zScale(split));
  const med = median(sorted(split.data));
  const tail = rhatCore(zScale(mapChains(split, (v) => Math.abs(v - med))));
  return pyMax(bulk, tail);
}

export function essBulkOf(a: Chains, relative = false): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  return essOf(zScale(splitChains(a)), relative);
}

export function essMeanOf(a: Chains, relative = false): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  return essOf(splitChains(a), relative);
}

export function essSdOf(a: Chains, relative = false): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  const m = mean(a.data);
  return essOf(splitChains(mapChains(a, (v) => (v - m) ** 2)), relative);
}

/** ESS of the indicator `draw ≤ q`, with `q` ArviZ's type-7 quantile at `prob` (given the sorted draws). */
function essIndicator(a: Chains, q: number, relative: boolean): number {
  return essOf(splitChains(mapChains(a, (v) => (v <= q ? 1 : 0))), relative);
}

export function essQuantileOf(a: Chains, prob: number, relative = false): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  return essIndicator(a, mquantile(sorted(a.data), prob), relative);
}

/** `_ess_tail`: the smaller of the quantile ESS at `probLow` and `probHigh`. */
export function essTailOf(a: Chains, probLow: number, probHigh: number, relative = false): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  return pyMin(essQuantileOf(a, probLow, relative), essQuantileOf(a, probHigh, relative));
}

export function mcseMeanOf(a: Chains): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  return Math.sqrt(variance(a.data, 1)) / Math.sqrt(essMeanOf(a));
}

/** `_mcse_sd`: delta-method MCSE of the standard deviation. */
export function mcseSdOf(a: Chains): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  const m = mean(a.data);
  return mcseSdFrom(mapChains(a, (v) => (v - m) ** 2));
}

function mcseSdFrom(sims: Chains): number {
  const ess = essMeanOf(sims);
  const evar = mean(sims.data);
  let m4 = 0;
  for (let i = 0; i < sims.data.length; i++) m4 += sims.data[i]! ** 2;
  m4 /= sims.data.length;
  const varvar = (m4 - evar ** 2) / ess;
  return Math.sqrt(varvar / evar / 4);
}

/** The normal ±1σ probabilities ArviZ's `_mcse_quantile` reads the Beta posterior at. */
const PPF_PROBS = [0.1586553, 0.8413447] as const;

/** `_mcse_quantile`: half the width of the ±1σ Beta interval on the quantile's order statistic. */
export function mcseQuantileOf(a: Chains, prob: number): number {
  if (notValid(a, 4, 1)) return Number.NaN;
  const ess = essQuantileOf(a, prob);
  const alpha = ess * prob + 1;
  const beta = ess * (1 - prob) + 1;
  const x = sorted(a.data);
  const size = x.length;
  const lo = betaincinv(PPF_PROBS[0], alpha, beta) * size - 1;
  const hi = betaincinv(PPF_PROBS[1], alpha, beta) * size - 1;
  const i1 = Math.floor(Number.isNaN(lo) ? 0 : Math.max(lo, 0));
  const i2 = Math.ceil(Number.isNaN(hi) ? size - 1 : Math.min(hi, size - 1));
  const at = (i: number): number => x[i < 0 ? i + size : i]!; // NumPy's negative indexing
  return (at(i2) - at(i1)) / 2;
}

export interface MultichainStatistics {
  mcseMean: number;
  mcseSd: number;
  essBulk: number;
  essTail: number;
  rHat: number;
}

/**
 * `_multichain_statistics(focus='mean')`, the diagnostics columns of `az.summary`. Its R-hat
 * folds about the median of the unsplit draws (`az.rhat` uses the split draws' median; the two
 * differ for an odd number of draws).
 */
export function multichainStatistics(a: Chains): MultichainStatistics {
  if (notValid(a, 4, 1)) return { mcseMean: Number.NaN, mcseSd: Number.NaN, essBulk: Number.NaN, essTail: Number.NaN, rHat: Number.NaN };
  const x = sorted(a.data);
  // with an even number of draws the split chains hold every draw: their sort is x
  const zSplit = zScale(splitChains(a), a.draws % 2 === 0 ? x : undefined);
  const essTail = pyMin(essIndicator(a, mquantile(x, 0.05), false), essIndicator(a, mquantile(x, 0.95), false));
  let rHat = Number.NaN;
  if (!notValid(a, 4, 2)) {
    const med = median(x);
    rHat = pyMax(rhatCore(zSplit), rhatCore(zScale(splitChains(mapChains(a, (v) => Math.abs(v - med))))));
  }
  const essMean = essMeanOf(a);
  const m = mean(a.data);
  const sims = mapChains(a, (v) => (v - m) ** 2);
  let sum = 0;
  for (let i = 0; i < sims.data.length; i++) sum += sims.data[i]!;
  const mcseMean = Math.sqrt(sum / (sims.data.length - 1) / essMean);
  return { mcseMean, mcseSd: mcseSdFrom(sims), essBulk: essOf(zSplit), essTail, rHat };
}

/**
 * Statistics already computed, per source array of draws (a part's values: the same Float64Array
 * when `samplingWarnings`, `summary` and the report read the same run), by where the quantity
 * sits in it. Each entry keeps a copy of the quantity's draws and is used only when they match
 * bit for bit, so draws changed in place (or another quantity at the same place) are recomputed,
 * never answered from the cache.
 */
const statsCache = new WeakMap<Float64Array, Map<string, { readonly data: Float64Array; readonly chains: number; readonly stats: MultichainStatistics }>>();

/**
 * {@link multichainStatistics} of `a`, a quantity read from `source` (a part's values) at `where`
 * (any string naming the place, e.g. first draw, layout and element): computed once per run
 * and shared by `summary` and `samplingWarnings` (and so the CLI and the report); a fresh object
 * each call.
 */
export function sharedMultichainStatistics(source: Float64Array, where: string, a: Chains): MultichainStatistics {
  let entries = statsCache.get(source);
  const hit = entries?.get(where);
  if (hit !== undefined && hit.chains === a.chains && sameBits(hit.data, a.data)) return { ...hit.stats };
  const stats = multichainStatistics(a);
  if (entries === undefined) statsCache.set(source, (entries = new Map()));
  entries.set(where, { data: Float64Array.from(a.data), chains: a.chains, stats: { ...stats } });
  return stats;
}

/** `_bfmi` for one chain of energies: mean squared step over the (ddof = 1) variance. */
export function bfmiOf(energy: Float64Array): number {
  let num = 0;
  for (let i = 1; i < energy.length; i++) num += (energy[i]! - energy[i - 1]!) ** 2;
  num /= energy.length - 1;
  return num / variance(energy, 1);
}
