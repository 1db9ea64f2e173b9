export { Tensor, tensor, type NestedArray } from './tensor.js';
export type { DType, FloatDType, IntDType, TensorData } from './dtype.js';
export type { TensorLike } from './core.js';
export * from './ops/elementwise.js';
export { sum, mean, type Axes } from './ops/reduce.js';
export { grad, valueAndGrad, fusedNode, customGradient, checkGradient, type GradientCheck, type Tree, type GradTree } from './autodiff.js';
