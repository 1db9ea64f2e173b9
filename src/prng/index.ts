/**
 * The hash-kernel layer: block functions and counter-mode fills. `threefryFill` and
 * `philoxFill` use the WebAssembly SIMD kernels when available and the pure-JS kernels
 * otherwise; both give identical bits (test/prng/wasm.test.ts).
 */
export { THREEFRY_PARITY, threefry2x32Rounds, threefryFillJs, threefryLanes, type ThreefryOutput } from './threefry.js';
export { philox4x32Rounds, philoxFillJs, mulhi32 } from './philox.js';
export { threefryFill, philoxFill, wasmAvailable, wasmActive, setWasmEnabled, wasmScratch } from './wasm.js';
