/**
 * Threefry-2x32 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011), the
 * hash behind JAX's default PRNG. Pure functions of (key, counter); no global state, no
 * allocation per block. All arithmetic is uint32 with wrap-around, done on int32 lanes and
 * normalised with `>>> 0` only where a value leaves the kernel.
 */

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

const TWO_POW_20 = 1048576;
const TWO_POW_M52 = 2 ** -52;
const TWO_POW_M23 = 2 ** -23;

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
      case 'f64': f64[offset + i] = ((a >>> 0) * TWO_POW_20 + (b >>> 12)) * TWO_POW_M52; break;
      case 'f32': f32[offset + i] = ((a ^ b) >>> 9) * TWO_POW_M23; break;
    }
    c0 = (c0 + x0Step) | 0;
    c1 = (c1 + 1) | 0;
  }
}
