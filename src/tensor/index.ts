export { Tensor, tensor, type NestedArray } from './tensor.js';
export type { DType, FloatDType, IntDType, TensorData } from './dtype.js';
