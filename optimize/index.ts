/**
 * `stochax/optimize`: mode finding and approximate inference on the same flat target as the
 * samplers — `optimize` (CmdStan's L-BFGS, BFGS and Newton), `laplace` (Stan's
 * `laplace_sample`, with PSIS's Pareto k̂), `pathfinder` (multi-path Pathfinder; loading it also
 * enables `init: 'pathfinder'` in `windowedAdaptiveNuts`) and `advi` (Stan's ADVI, mean-field and
 * full-rank).
 */
export { optimize, type OptimizeOptions, type OptimizeResult } from './optimize.js';
export { laplace, type LaplaceOptions, type LaplaceResult } from './laplace.js';
export { advi, type AdviOptions, type AdviResult, type AdviAdaptation, type AdviElboRow, type AdviFailures, type AdviReason } from './advi.js';
export type { OptimizeInit, OptimizeModel } from './problem.js';
export { pathfinder, type PathfinderOptions, type PathfinderPath, type PathfinderResult } from './pathfinder.js';
