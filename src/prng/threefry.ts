/**
 * Threefry-2x32 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011), the
 * hash behind JAX's default PRNG. Pure functions of (key, counter); no global state, no
 * allocation per block. All arithmetic is uint32 with wrap-around, done on int32 lanes and
 * normalised with `>>> 0` only where a value leaves the kernel.
 */
import { unitF32, unitF64 } from './unit.js';

/** Skein key-schedule parity constant: ks2 = k0 ^ k1 ^ PARITY. */
export const THREEFRY_PARITY = 0x1bd11bda;

/** Rotation schedule of Threefry-2x32; round r uses ROTATIONS[r % 8]. */
const ROTATIONS = [13, 15, 26, 6, 17, 29, 16, 24] as const;

/**
 * One Threefry-2x32 block with any number of rounds (Random123's `threefry2x32_R`): a key
 * injection after every fourth round. Slow and general; used for the 13- and 32-round
 * known-answer tests and as the reference the unrolled kernels are checked against.
 *
 * @example
 * const out = new Uint32Array(2);
 * threefry2x32Rounds(20, 0, 0, 0, 0, out); // out = [0x6b200159, 0x99ba4efe] (Random123 KAT)
 */
export function threefry2x32Rounds(
  rounds: number, k0: number, k1: number, x0: number, x1: number,
  out: Uint32Array, offset = 0,
): void {
  const ks = [k0 | 0, k1 | 0, (k0 ^ k1 ^ THREEFRY_PARITY) | 0];
  let a = (x0 + ks[0]!) | 0;
  let b = (x1 + ks[1]!) | 0;
  for (let r = 0; r < rounds; r++) {
    const rot = ROTATIONS[r % 8]!;
    a = (a + b) | 0;
    b = (b << rot) | (b >>> (32 - rot));
    b ^= a;
    if (r % 4 === 3) {
      const s = (r + 1) / 4;               // injection number 1, 2, 3, ...
      a = (a + ks[s % 3]!) | 0;
      b = (b + ks[(s + 1) % 3]! + s) | 0;
    }
  }
  out[offset] = a;
  out[offset + 1] = b;
}

// The 20-round kernels below are written out round by round: V8 turns `(x << 13) | (x >>> 19)`
// with literal counts into one rotate instruction, and a rolled loop is ~4x slower
// (reference/performance.md, "Which JS optimisations mattered").

/** Output layout of a bulk fill. */
export type ThreefryOutput =
  /** out[2i] = y0, out[2i+1] = y1 (keys, 64-bit draws). */
  | 'blocks'
  /** out[i] = y0 ^ y1 (JAX's partitionable 32-bit draws). */
  | 'xor'
  /** outA[i] = y0, outB[i] = y1 (JAX's original-mode half-split wrapper). */
  | 'halves'
  /** out[i] = ((y0 << 32 | y1) >>> 12) · 2^-52, a float64 in [0, 1) (JAX's f64 uniform). */
  | 'f64'
  /** out[i] = ((y0 ^ y1) >>> 9) · 2^-23, a float32 in [0, 1) (JAX's partitionable f32 uniform). */
  | 'f32';


/**
 * Counter-mode fill with Threefry-2x32-20, pure JavaScript. Block i hashes the counter pair
 * `(x0 + i·x0Step, x1 + i)` (each mod 2^32) under key `(k0, k1)` and writes it in the chosen
 * layout. `x0Step` is 0 for a 64-bit counter whose low word does not wrap inside the call
 * (the caller splits at wraps) and 1 for JAX's original-mode pairing `(m, m + N)`.
 *
 * @example
 * const out = new Float64Array(4);
 * threefryFillJs('f64', 0, 42, 0, 0, 0, 4, out); // the first 4 JAX x64 uniforms of key(42)
 */
export function threefryFillJs(
  layout: ThreefryOutput, k0: number, k1: number, x0: number, x1: number, x0Step: number,
  n: number, out: Uint32Array | Float64Array | Float32Array, outB?: Uint32Array, offset = 0,
): void {
  const ks0 = k0 | 0, ks1 = k1 | 0, ks2 = (k0 ^ k1 ^ THREEFRY_PARITY) | 0;
  const u32 = out as Uint32Array;
  const f64 = out as Float64Array;
  const f32 = out as Float32Array;
  const b32 = outB as Uint32Array;
  let c0 = x0 | 0, c1 = x1 | 0;
  for (let i = 0; i < n; i++) {
    let a = (c0 + ks0) | 0, b = (c1 + ks1) | 0;
    a = (a + b) | 0; b = ((b << 13) | (b >>> 19)) ^ a;
    a = (a + b) | 0; b = ((b << 15) | (b >>> 17)) ^ a;
    a = (a + b) | 0; b = ((b << 26) | (b >>> 6)) ^ a;
    a = (a + b) | 0; b = ((b << 6) | (b >>> 26)) ^ a;
    a = (a + ks1) | 0; b = (b + ks2 + 1) | 0;
    a = (a + b) | 0; b = ((b << 17) | (b >>> 15)) ^ a;
    a = (a + b) | 0; b = ((b << 29) | (b >>> 3)) ^ a;
    a = (a + b) | 0; b = ((b << 16) | (b >>> 16)) ^ a;
    a = (a + b) | 0; b = ((b << 24) | (b >>> 8)) ^ a;
    a = (a + ks2) | 0; b = (b + ks0 + 2) | 0;
    a = (a + b) | 0; b = ((b << 13) | (b >>> 19)) ^ a;
    a = (a + b) | 0; b = ((b << 15) | (b >>> 17)) ^ a;
    a = (a + b) | 0; b = ((b << 26) | (b >>> 6)) ^ a;
    a = (a + b) | 0; b = ((b << 6) | (b >>> 26)) ^ a;
    a = (a + ks0) | 0; b = (b + ks1 + 3) | 0;
    a = (a + b) | 0; b = ((b << 17) | (b >>> 15)) ^ a;
    a = (a + b) | 0; b = ((b << 29) | (b >>> 3)) ^ a;
    a = (a + b) | 0; b = ((b << 16) | (b >>> 16)) ^ a;
    a = (a + b) | 0; b = ((b << 24) | (b >>> 8)) ^ a;
    a = (a + ks1) | 0; b = (b + ks2 + 4) | 0;
    a = (a + b) | 0; b = ((b << 13) | (b >>> 19)) ^ a;
    a = (a + b) | 0; b = ((b << 15) | (b >>> 17)) ^ a;
    a = (a + b) | 0; b = ((b << 26) | (b >>> 6)) ^ a;
    a = (a + b) | 0; b = ((b << 6) | (b >>> 26)) ^ a;
    a = (a + ks2) | 0; b = (b + ks0 + 5) | 0;
    switch (layout) {
      case 'blocks': u32[offset + 2 * i] = a; u32[offset + 2 * i + 1] = b; break;
      case 'xor': u32[offset + i] = a ^ b; break;
      case 'halves': u32[offset + i] = a; b32[offset + i] = b; break;
      case 'f64': f64[offset + i] = unitF64(a, b); break;
      case 'f32': f32[offset + i] = unitF32(a ^ b); break;
    }
    c0 = (c0 + x0Step) | 0;
    c1 = (c1 + 1) | 0;
  }
}

/**
 * Threefry-2x32-20 with a different key per block: for each listed lane j,
 * `(out[2j], out[2j+1]) = threefry((keys[2j], keys[2j+1]); (x0, x1))`, four lanes abreast.
 * Samplers that give every element its own key (JAX's gamma splits per element) hash many keys
 * at one counter; this keeps four independent blocks in flight.
 *
 * @example
 * const keys = Int32Array.of(0, 0, 0, 42), out = new Int32Array(4);
 * threefryLanes(keys, 0, 0, Int32Array.of(0, 1), 2, out); // blocks for keys (0,0) and (0,42)
 */
export function threefryLanes(keys: Int32Array, x0: number, x1: number, lanes: Int32Array, m: number, out: Int32Array): void {
  for (let t = 0; t < m; t += 4) {
    // Four lanes per iteration; past the end, the last lane is hashed again.
    const j0 = 2 * lanes[t]!, j1 = 2 * lanes[t + 1 < m ? t + 1 : m - 1]!;
    const j2 = 2 * lanes[t + 2 < m ? t + 2 : m - 1]!, j3 = 2 * lanes[t + 3 < m ? t + 3 : m - 1]!;
    const k0_0 = keys[j0]!, k1_0 = keys[j0 + 1]!, k2_0 = k0_0 ^ k1_0 ^ THREEFRY_PARITY;
    const k0_1 = keys[j1]!, k1_1 = keys[j1 + 1]!, k2_1 = k0_1 ^ k1_1 ^ THREEFRY_PARITY;
    const k0_2 = keys[j2]!, k1_2 = keys[j2 + 1]!, k2_2 = k0_2 ^ k1_2 ^ THREEFRY_PARITY;
    const k0_3 = keys[j3]!, k1_3 = keys[j3 + 1]!, k2_3 = k0_3 ^ k1_3 ^ THREEFRY_PARITY;
    let a0 = (x0 + k0_0) | 0, b0 = (x1 + k1_0) | 0;
    let a1 = (x0 + k0_1) | 0, b1 = (x1 + k1_1) | 0;
    let a2 = (x0 + k0_2) | 0, b2 = (x1 + k1_2) | 0;
    let a3 = (x0 + k0_3) | 0, b3 = (x1 + k1_3) | 0;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 13) | (b0 >>> 19)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 13) | (b1 >>> 19)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 13) | (b2 >>> 19)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 13) | (b3 >>> 19)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 15) | (b0 >>> 17)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 15) | (b1 >>> 17)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 15) | (b2 >>> 17)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 15) | (b3 >>> 17)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 26) | (b0 >>> 6)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 26) | (b1 >>> 6)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 26) | (b2 >>> 6)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 26) | (b3 >>> 6)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 6) | (b0 >>> 26)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 6) | (b1 >>> 26)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 6) | (b2 >>> 26)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 6) | (b3 >>> 26)) ^ a3;
    a0 = (a0 + k1_0) | 0; b0 = (b0 + k2_0 + 1) | 0;
    a1 = (a1 + k1_1) | 0; b1 = (b1 + k2_1 + 1) | 0;
    a2 = (a2 + k1_2) | 0; b2 = (b2 + k2_2 + 1) | 0;
    a3 = (a3 + k1_3) | 0; b3 = (b3 + k2_3 + 1) | 0;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 17) | (b0 >>> 15)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 17) | (b1 >>> 15)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 17) | (b2 >>> 15)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 17) | (b3 >>> 15)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 29) | (b0 >>> 3)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 29) | (b1 >>> 3)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 29) | (b2 >>> 3)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 29) | (b3 >>> 3)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 16) | (b0 >>> 16)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 16) | (b1 >>> 16)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 16) | (b2 >>> 16)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 16) | (b3 >>> 16)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 24) | (b0 >>> 8)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 24) | (b1 >>> 8)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 24) | (b2 >>> 8)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 24) | (b3 >>> 8)) ^ a3;
    a0 = (a0 + k2_0) | 0; b0 = (b0 + k0_0 + 2) | 0;
    a1 = (a1 + k2_1) | 0; b1 = (b1 + k0_1 + 2) | 0;
    a2 = (a2 + k2_2) | 0; b2 = (b2 + k0_2 + 2) | 0;
    a3 = (a3 + k2_3) | 0; b3 = (b3 + k0_3 + 2) | 0;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 13) | (b0 >>> 19)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 13) | (b1 >>> 19)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 13) | (b2 >>> 19)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 13) | (b3 >>> 19)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 15) | (b0 >>> 17)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 15) | (b1 >>> 17)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 15) | (b2 >>> 17)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 15) | (b3 >>> 17)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 26) | (b0 >>> 6)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 26) | (b1 >>> 6)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 26) | (b2 >>> 6)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 26) | (b3 >>> 6)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 6) | (b0 >>> 26)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 6) | (b1 >>> 26)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 6) | (b2 >>> 26)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 6) | (b3 >>> 26)) ^ a3;
    a0 = (a0 + k0_0) | 0; b0 = (b0 + k1_0 + 3) | 0;
    a1 = (a1 + k0_1) | 0; b1 = (b1 + k1_1 + 3) | 0;
    a2 = (a2 + k0_2) | 0; b2 = (b2 + k1_2 + 3) | 0;
    a3 = (a3 + k0_3) | 0; b3 = (b3 + k1_3 + 3) | 0;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 17) | (b0 >>> 15)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 17) | (b1 >>> 15)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 17) | (b2 >>> 15)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 17) | (b3 >>> 15)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 29) | (b0 >>> 3)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 29) | (b1 >>> 3)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 29) | (b2 >>> 3)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 29) | (b3 >>> 3)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 16) | (b0 >>> 16)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 16) | (b1 >>> 16)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 16) | (b2 >>> 16)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 16) | (b3 >>> 16)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 24) | (b0 >>> 8)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 24) | (b1 >>> 8)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 24) | (b2 >>> 8)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 24) | (b3 >>> 8)) ^ a3;
    a0 = (a0 + k1_0) | 0; b0 = (b0 + k2_0 + 4) | 0;
    a1 = (a1 + k1_1) | 0; b1 = (b1 + k2_1 + 4) | 0;
    a2 = (a2 + k1_2) | 0; b2 = (b2 + k2_2 + 4) | 0;
    a3 = (a3 + k1_3) | 0; b3 = (b3 + k2_3 + 4) | 0;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 13) | (b0 >>> 19)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 13) | (b1 >>> 19)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 13) | (b2 >>> 19)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 13) | (b3 >>> 19)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 15) | (b0 >>> 17)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 15) | (b1 >>> 17)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 15) | (b2 >>> 17)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 15) | (b3 >>> 17)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 26) | (b0 >>> 6)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 26) | (b1 >>> 6)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 26) | (b2 >>> 6)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 26) | (b3 >>> 6)) ^ a3;
    a0 = (a0 + b0) | 0; b0 = ((b0 << 6) | (b0 >>> 26)) ^ a0;
    a1 = (a1 + b1) | 0; b1 = ((b1 << 6) | (b1 >>> 26)) ^ a1;
    a2 = (a2 + b2) | 0; b2 = ((b2 << 6) | (b2 >>> 26)) ^ a2;
    a3 = (a3 + b3) | 0; b3 = ((b3 << 6) | (b3 >>> 26)) ^ a3;
    out[j0] = (a0 + k2_0) | 0; out[j0 + 1] = (b0 + k0_0 + 5) | 0;
    out[j1] = (a1 + k2_1) | 0; out[j1 + 1] = (b1 + k0_1 + 5) | 0;
    out[j2] = (a2 + k2_2) | 0; out[j2 + 1] = (b2 + k0_2 + 5) | 0;
    out[j3] = (a3 + k2_3) | 0; out[j3 + 1] = (b3 + k0_3 + 5) | 0;
  }
}
