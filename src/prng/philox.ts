/**
 * Philox-4x32 (Salmon et al., SC 2011): the counter-based generator behind TensorFlow's
 * stateless ops and OpenVINO's RandomUniform. A 128-bit counter `c0..c3` (c0 least
 * significant) and a 64-bit key `k0, k1`. Pure functions; no allocation per block.
 */

export const PHILOX_M0 = 0xd2511f53;
export const PHILOX_M1 = 0xcd9e8d57;
export const PHILOX_W0 = 0x9e3779b9;
export const PHILOX_W1 = 0xbb67ae85;

const TWO_POW_M32 = 2 ** -32;

/**
 * High 32 bits of the 64-bit product of two uint32 values. The double product is off by at
 * most 2^11 from the true one; subtracting the exact low word and rounding the quotient by
 * 2^32 recovers the high word exactly (checked against BigInt in test/prng/philox.test.ts).
 */
export function mulhi32(a: number, b: number, lo: number): number {
  return ((a * b - lo) * TWO_POW_M32 + 0.5) | 0;
}

/**
 * One Philox-4x32 block with any number of rounds (Random123's `philox4x32_R`), writing the
 * four output words to `out[offset..offset+3]`.
 *
 * @example
 * const out = new Uint32Array(4);
 * philox4x32Rounds(10, [0, 0, 0, 0], [0, 0], out); // [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
 */
export function philox4x32Rounds(
  rounds: number, counter: ArrayLike<number>, key: ArrayLike<number>, out: Uint32Array, offset = 0,
): void {
  let c0 = counter[0]! >>> 0, c1 = counter[1]! >>> 0, c2 = counter[2]! >>> 0, c3 = counter[3]! >>> 0;
  let k0 = key[0]! >>> 0, k1 = key[1]! >>> 0;
  for (let r = 0; r < rounds; r++) {
    if (r > 0) { k0 = (k0 + PHILOX_W0) >>> 0; k1 = (k1 + PHILOX_W1) >>> 0; }
    const loP = Math.imul(PHILOX_M0, c0) >>> 0;
    const hiP = mulhi32(PHILOX_M0, c0, loP) >>> 0;
    const loQ = Math.imul(PHILOX_M1, c2) >>> 0;
    const hiQ = mulhi32(PHILOX_M1, c2, loQ) >>> 0;
    const n0 = (hiQ ^ c1 ^ k0) >>> 0;
    const n2 = (hiP ^ c3 ^ k1) >>> 0;
    c0 = n0; c1 = loQ; c2 = n2; c3 = loP;
  }
  out[offset] = c0; out[offset + 1] = c1; out[offset + 2] = c2; out[offset + 3] = c3;
}

/**
 * Counter-mode fill with Philox-4x32-10 in pure JavaScript: block i hashes the 128-bit counter
 * `counter + i` (little-endian words, carries propagate) under `key` and writes its four words
 * to `out[offset + 4i ..]`.
 *
 * @example
 * const out = new Uint32Array(8);
 * philoxFillJs([0, 0], [0, 0, 0, 0], 2, out); // two blocks, counters 0 and 1
 */
export function philoxFillJs(
  key: ArrayLike<number>, counter: ArrayLike<number>, nBlocks: number, out: Uint32Array, offset = 0,
): void {
  const key0 = key[0]! | 0, key1 = key[1]! | 0;
  let x0 = counter[0]! | 0, x1 = counter[1]! | 0, x2 = counter[2]! | 0, x3 = counter[3]! | 0;
  for (let i = 0; i < nBlocks; i++) {
    let c0 = x0 >>> 0, c1 = x1, c2 = x2 >>> 0, c3 = x3;
    let k0 = key0, k1 = key1;
    for (let r = 0; r < 10; r++) {
      const loP = Math.imul(PHILOX_M0, c0);
      const hiP = ((PHILOX_M0 * c0 - (loP >>> 0)) * TWO_POW_M32 + 0.5) | 0;
      const loQ = Math.imul(PHILOX_M1, c2);
      const hiQ = ((PHILOX_M1 * c2 - (loQ >>> 0)) * TWO_POW_M32 + 0.5) | 0;
      c0 = (hiQ ^ c1 ^ k0) >>> 0;
      c1 = loQ;
      c2 = (hiP ^ c3 ^ k1) >>> 0;
      c3 = loP;
      k0 = (k0 + PHILOX_W0) | 0;
      k1 = (k1 + PHILOX_W1) | 0;
    }
    const o = offset + 4 * i;
    out[o] = c0; out[o + 1] = c1; out[o + 2] = c2; out[o + 3] = c3;
    // 128-bit increment with carry.
    x0 = (x0 + 1) | 0;
    if (x0 === 0) { x1 = (x1 + 1) | 0; if (x1 === 0) { x2 = (x2 + 1) | 0; if (x2 === 0) x3 = (x3 + 1) | 0; } }
  }
}
