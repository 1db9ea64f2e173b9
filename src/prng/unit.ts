/**
 * JAX's bits-to-unit-float formulas (the mantissa trick of `jax.random.uniform`: random
 * mantissa bits under the exponent of 1.0, minus 1), written once. They live in the hash layer
 * because its fused fills (`threefryFill`'s `'f64'` and `'f32'` layouts) produce unit floats
 * directly and may not import upward; `src/random/unit.ts` re-exports them beside the scaling to
 * [low, high), and every sampler, the Generator's buffers and the fused gamma path use them.
 * (The WebAssembly kernels in `wasm/` spell the same formulas in wasm; test/prng/wasm.test.ts
 * checks them against these.)
 */

const TWO_POW_20 = 1048576;
const TWO_POW_M52 = 2 ** -52;
const TWO_POW_M23 = 2 ** -23;

/**
 * The float64 unit uniform of a 64-bit draw `hi:lo`: its top 52 bits as a multiple of 2^-52,
 * `((hi << 32 | lo) >>> 12)·2^-52`, in [0, 1).
 */
export function unitF64(hi: number, lo: number): number {
  return ((hi >>> 0) * TWO_POW_20 + (lo >>> 12)) * TWO_POW_M52;
}

/**
 * The float32 unit uniform of a 32-bit draw `w`: its top 23 bits as a multiple of 2^-23,
 * `(w >>> 9)·2^-23`, in [0, 1) (exact in float64 and float32 alike).
 */
export function unitF32(w: number): number {
  return (w >>> 9) * TWO_POW_M23;
}
