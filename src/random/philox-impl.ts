import { philoxFill } from '../prng/index.js';
import { truncateWords, type PrngImpl } from './impl.js';

/**
 * Counter word 2 separates the two uses of one key: 0 for random bits, 1 for deriving keys.
 */
const BITS_DOMAIN = 0;
const KEY_DOMAIN = 1;

/** `count` words of the Philox-4x32-10 stream for `key` in one counter domain, from block `firstBlock`. */
function stream(key: Uint32Array, domain: number, count: number, firstBlock = 0): Uint32Array {
  const blocks = Math.ceil(count / 4);
  const out = new Uint32Array(4 * blocks);
  philoxFill(key, [firstBlock >>> 0, Math.floor(firstBlock / 2 ** 32) >>> 0, domain, 0], blocks, out);
  return out.subarray(0, count);
}

/**
 * stochax's Philox-4x32-10 key implementation (key = 2 words). Not bit-compatible with any
 * JAX impl: JAX's own `philox4x32` seeding is not documented in our references, so this is
 * our own, simple and stated design:
 * - seed: the seed's 64-bit pattern as `[hi, lo]`, like threefry;
 * - bits: value i of a 32-bit draw is word i of the stream whose block b hashes counter
 *   `(lo32(b), hi32(b), 0, 0)` (8/16-bit draws keep the low bits of word i; a 64-bit draw
 *   takes words 2i and 2i+1 as hi and lo). Prefix-stable and shape-independent;
 * - split: key i is the first two words of the block for counter `(lo32(i), hi32(i), 1, 0)`;
 * - foldIn(key, d): the block for counter `(d, 0, 1, 0)`, so `foldIn(k, i)` equals `split(k, n)[i]`.
 * The partitionable flag does not apply to Philox.
 */
export const philox4x32: PrngImpl = {
  name: 'philox4x32',
  keyWords: 2,

  seed(hi, lo) {
    return Uint32Array.of(hi, lo);
  },

  split(key, count, _modes, out = new Uint32Array(2 * count)) {
    const blocks = new Uint32Array(4 * count);
    philoxFill(key, [0, 0, KEY_DOMAIN, 0], count, blocks);
    for (let i = 0; i < count; i++) { out[2 * i] = blocks[4 * i]!; out[2 * i + 1] = blocks[4 * i + 1]!; }
    return out;
  },

  foldIn(key, data, _modes, out) {
    const words = stream(key, KEY_DOMAIN, 2, data);
    if (out === undefined) return words.slice();
    out[0] = words[0]!; out[1] = words[1]!;
    return out;
  },

  bits(key, width, size) {
    if (width === 64) return stream(key, BITS_DOMAIN, 2 * size);
    const words = stream(key, BITS_DOMAIN, size);
    return width === 32 ? words : truncateWords(words, width);
  },
};
