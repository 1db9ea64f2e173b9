/**
 * The bijectors (TFP's `tfb.*`): smooth invertible maps with log-det-Jacobians, used as the
 * default event-space bijectors of distributions and to move MCMC onto unconstrained spaces.
 */
export { Ascending, PositiveOrdered } from './ascending.js';
export { Bijector, type BijectorOptions } from './bijector.js';
export { Chain, type ChainOptions } from './chain.js';
export { CholeskyOuterProduct } from './cholesky-outer-product.js';
export { CorrelationCholesky } from './correlation-cholesky.js';
export { Exp } from './exp.js';
export { FillScaleTriL, type FillScaleTriLOptions } from './fill-scale-tril.js';
export { FillTriangular, type FillTriangularOptions } from './fill-triangular.js';
export { Identity } from './identity.js';
export { Invert, type InvertOptions } from './invert.js';
export { JointMap, type BijectorParts, type JointMapOptions, type PartsIn, type PartsOf } from './joint-map.js';
export { Log } from './log.js';
export { NormalCDF } from './normal-cdf.js';
export { Power, type PowerOptions } from './power.js';
export { Reciprocal } from './reciprocal.js';
export { Reshape, type ReshapeOptions } from './reshape.js';
export { Scale, type ScaleOptions } from './scale.js';
export { ScaleMatvecTriL, type ScaleMatvecTriLOptions } from './scale-matvec-tril.js';
export { Shift, type ShiftOptions } from './shift.js';
export { Sigmoid, type SigmoidOptions } from './sigmoid.js';
export { SoftmaxCentered } from './softmax-centered.js';
export { SumToZero } from './sum-to-zero.js';
export { Softplus, type SoftplusOptions } from './softplus.js';
export { Tanh } from './tanh.js';
export { TransformDiagonal, type TransformDiagonalOptions } from './transform-diagonal.js';
