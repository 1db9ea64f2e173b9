/**
 * `stochax/optimize`: mode finding and approximate inference on the same flat target as the
 * samplers — `optimize` (CmdStan's L-BFGS, BFGS and Newton) and `laplace` (Stan's
 * `laplace_sample`, with PSIS's Pareto k̂).
 */
export { optimize, type OptimizeOptions, type OptimizeResult } from './optimize.js';
export { laplace, type LaplaceOptions, type LaplaceResult } from './laplace.js';
export type { OptimizeInit, OptimizeModel } from './problem.js';
