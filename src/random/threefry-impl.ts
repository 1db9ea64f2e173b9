import { threefryFill, threefryFillJs } from '../prng/index.js';
import { gammaThreefry } from './gamma-threefry.js';
import { truncateWords, type PrngImpl } from './impl.js';
import { normalF32Fill, normalF64Fill, normalFromUnit } from './normal-fill.js';
import { foldUnitFill } from './threefry-fold-unit.js';
import { threefryIotaWords } from './threefry-iota.js';
import { unitF32 } from './unit.js';

/** Little-endian 8/16-bit view of 32-bit words, truncated to `size` values. */
function unpackWords(words: Uint32Array, width: 8 | 16, size: number): Uint8Array | Uint16Array {
  const perWord = 32 / width;
  const mask = width === 8 ? 0xff : 0xffff;
  const out = width === 8 ? new Uint8Array(size) : new Uint16Array(size);
  for (let j = 0; j < size; j++) out[j] = (words[(j / perWord) | 0]! >>> (width * (j % perWord))) & mask;
  return out;
}

function checkCount(size: number): void {
  // Partitionable counters are 64-bit row-major indices; the kernels take the low word as the
  // running counter, so one call stays below 2^32 values (far beyond any typed array anyway).
  if (size >= 2 ** 32) throw new RangeError(`threefry2x32: cannot draw ${size} values in one call (limit 2^32 - 1)`);
}

const ONE_F64 = new Float64Array(1);
const ONE_F32 = new Float32Array(1);
const ONE_BLOCK = new Uint32Array(2);

/**
 * Threefry-2x32-20 exactly as JAX 0.10.2, in both `jax_threefry_partitionable` modes, with every
 * optional fused hook of `PrngImpl` (WebAssembly SIMD where it pays).
 */
export const threefry2x32: PrngImpl = {
  name: 'threefry2x32',
  keyWords: 2,

  seed(hi, lo) {
    return Uint32Array.of(hi, lo);
  },

  split(key, count, modes, out) {
    checkCount(2 * count);
    if (modes.partitionable) {
      // Key i hashes the 64-bit row-major index i as (hi32(i), lo32(i)).
      out ??= new Uint32Array(2 * count);
      threefryFill('blocks', key[0]!, key[1]!, 0, 0, 0, count, out);
      return out;
    }
    // Original mode: the wrapper over iota(2·count), read as consecutive word pairs.
    const words = threefryIotaWords(key, 2 * count);
    if (out === undefined) return words;
    out.set(words);
    return out;
  },

  foldIn(key, data, _modes, out = new Uint32Array(2)) {
    // threefry_2x32(key, [0, data]) in both modes (key words as int32: see uniformFloat64At).
    threefryFill('blocks', key[0]! | 0, key[1]! | 0, 0, data, 0, 1, out);
    return out;
  },

  bits(key, width, size, modes) {
    checkCount(size);
    if (width === 64) {
      // One block per value in both modes: hi = y0, lo = y1. Partitionable hashes
      // (hi32(i), lo32(i)); original hashes (j, j + N), the wrapper's pairing over iota(2N).
      const out = new Uint32Array(2 * size);
      if (modes.partitionable) threefryFill('blocks', key[0]!, key[1]!, 0, 0, 0, size, out);
      else threefryFill('blocks', key[0]!, key[1]!, 0, size, 1, size, out);
      return out;
    }
    if (modes.partitionable) {
      const words = new Uint32Array(size);
      threefryFill('xor', key[0]!, key[1]!, 0, 0, 0, size, words);
      return width === 32 ? words : truncateWords(words, width);
    }
    const words = threefryIotaWords(key, Math.ceil((width * size) / 32));
    return width === 32 ? words : unpackWords(words, width, size);
  },

  uniformFloat64(key, out, modes) {
    checkCount(out.length);
    if (modes.partitionable) threefryFill('f64', key[0]!, key[1]!, 0, 0, 0, out.length, out);
    else threefryFill('f64', key[0]!, key[1]!, 0, out.length, 1, out.length, out);
  },

  uniformFloat64At(key, index, count, modes) {
    // Block `index` of uniformFloat64's fill: counter (0, index), or (index, count + index) in the
    // original mode. The key words go in as int32 (the fill reads them so): a uint32 word ≥ 2^31
    // passed to a call V8 does not inline is boxed, an allocation per uniform.
    const k0 = key[0]! | 0, k1 = key[1]! | 0;
    if (modes.partitionable) threefryFillJs('f64', k0, k1, 0, index, 0, 1, ONE_F64);
    else threefryFillJs('f64', k0, k1, index, count + index, 0, 1, ONE_F64);
    return ONE_F64[0]!;
  },

  uniformFloat32(key, out, modes) {
    checkCount(out.length);
    if (modes.partitionable) {
      threefryFill('f32', key[0]!, key[1]!, 0, 0, 0, out.length, out);
      return;
    }
    const words = threefryIotaWords(key, out.length);
    for (let i = 0; i < out.length; i++) out[i] = unitF32(words[i]!);
  },

  uniformFloat32At(key, index, count, modes) {
    if (modes.partitionable) {
      threefryFillJs('f32', key[0]!, key[1]!, 0, index, 0, 1, ONE_F32);   // block (0, index), y0 ^ y1
      return ONE_F32[0]!;
    }
    // Word `index` of threefryIotaWords(key, count): y0 of block m = index, which hashes
    // (m, m + h) (or (h − 1, 0), the padded pair, for odd count), or y1 of block m = index − h.
    const h = Math.ceil(count / 2);
    const m = index < h ? index : index - h;
    const padded = count % 2 === 1 && m === h - 1;
    threefryFillJs('blocks', key[0]!, key[1]!, m, padded ? 0 : m + h, 0, 1, ONE_BLOCK);
    return unitF32(ONE_BLOCK[index < h ? 0 : 1]!);
  },

  normalFloat64(key, out, modes) {
    checkCount(out.length);
    const n = out.length;
    if (modes.partitionable) normalF64Fill(key[0]!, key[1]!, 0, 0, 0, n, out);
    else normalF64Fill(key[0]!, key[1]!, 0, n, 1, n, out);   // original mode pairs blocks (i, i + n)
  },

  normalFloat32(key, out, modes) {
    checkCount(out.length);
    if (modes.partitionable) {
      normalF32Fill(key[0]!, key[1]!, 0, 0, 0, out.length, out);
      return;
    }
    threefry2x32.uniformFloat32!(key, out, modes);   // the iota wrapper's words, then the transform
    normalFromUnit(out);
  },

  foldInUniforms(key, first, dtype, out, modes) {
    foldUnitFill(dtype, modes, key[0]!, key[1]!, first, out.length, out);
  },

  gamma(key, alpha, out, logSpace, dtype, modes) {
    if (out.length > 0) gammaThreefry(key, alpha, out, logSpace, dtype, modes);
  },
};
