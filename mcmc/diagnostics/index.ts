/**
 * MCMC diagnostics: TFP's `effectiveSampleSize` and `potentialScaleReduction`, the Stan/ArviZ
 * set (rank-normalized split R-hat, bulk/tail/mean/sd/quantile ESS, MCSE of mean, sd and
 * quantiles, E-BFMI), `summary`, `samplingWarnings` (what a run should warn about), priorsense's power-scaling
 * sensitivity and the rank-uniformity tests of simulation-based calibration. All take draws in TFP layout `[draws, chains, ...event]`.
 */
export { effectiveSampleSize, type EffectiveSampleSizeOptions } from './tfp-effective-sample-size.js';
export { potentialScaleReduction, type PotentialScaleReductionOptions } from './potential-scale-reduction.js';
export { rhat } from './rhat.js';
export { essBulk, essTail, essMean, essSd, essQuantile, type EssOptions, type EssTailOptions, type EssQuantileOptions } from './arviz-ess.js';
export { mcseMean, mcseSd, mcseQuantile } from './mcse.js';
export { bfmi } from './bfmi.js';
export { samplingWarnings, type SamplingWarning, type SamplingWarningKind, type SamplingWarningsOptions } from './warnings.js';
export type { WarningOptions } from './warning-hooks.js';
export { summary, Summary, type SummaryRow, type SummaryOptions, type SampleChainLike, type DrawsResultLike } from './summary.js';
export type { Draws, DrawsStructure, MapStructure, NestedNumbers, NumericArray } from './draws.js';
export {
  powerscaleSensitivity, PowerscaleSensitivityResult,
  type PowerscaleSensitivityOptions, type PowerscaleSensitivityRow, type PowerscaleParetoK, type PowerscaleComponent,
} from './powerscale.js';
export { rankUniformity, type RankUniformity, type RankUniformityOptions } from './rank-uniformity.js';
