export * as openvino from './openvino.js';
export * as tensorflow from './tensorflow.js';
