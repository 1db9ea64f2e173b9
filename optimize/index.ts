/**
 * `stochax/optimize`: mode finding and approximate inference on the same flat target as the
 * samplers — `optimize` (CmdStan's L-BFGS, BFGS and Newton) and `laplace` (Stan's
 * `laplace_sample`, with PSIS's Pareto k̂) and `pathfinder` (multi-path Pathfinder; loading it also enables `init: 'pathfinder'` in `windowedAdaptiveNuts`).
 */
export { optimize, type OptimizeOptions, type OptimizeResult } from './optimize.js';
export { laplace, type LaplaceOptions, type LaplaceResult } from './laplace.js';
export type { OptimizeInit, OptimizeModel } from './problem.js';
export { pathfinder, type PathfinderOptions, type PathfinderPath, type PathfinderResult } from './pathfinder.js';
