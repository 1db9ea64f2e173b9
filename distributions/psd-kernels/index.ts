/**
 * Positive-semidefinite kernels (TFP's `tfp.math.psd_kernels`), exported as the `psdKernels`
 * namespace of `stochax/distributions`, for `GaussianProcess`.
 *
 * @example
 * import { psdKernels, GaussianProcess } from 'stochax/distributions';
 * const kernel = new psdKernels.MaternFiveHalves({ amplitude: 1, lengthScale: 0.3 });
 * const gp = new GaussianProcess({ kernel, indexPoints: [[0], [0.5], [1]] });
 */
export { PositiveSemidefiniteKernel, type PsdKernelOptions, type AmplitudeLengthScaleOptions } from './positive-semidefinite-kernel.js';
export { ExponentiatedQuadratic, type ExponentiatedQuadraticOptions } from './exponentiated-quadratic.js';
export { MaternOneHalf, MaternThreeHalves, MaternFiveHalves, type MaternOptions } from './matern.js';
