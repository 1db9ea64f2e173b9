import { checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import type { BitWidth } from './impl.js';
import { checkKey, type KeyArray } from './key-array.js';

export type BitsDType = 'uint8' | 'uint16' | 'uint32' | 'uint64';
const BITS_DTYPES: readonly BitsDType[] = ['uint8', 'uint16', 'uint32', 'uint64'];

/** Random bits of `width` for `size` values: the one place samplers call the implementation. */
export function randomBits(key: KeyArray, width: BitWidth, size: number, modes: Modes): Uint8Array | Uint16Array | Uint32Array {
  return key.impl.bits(key.data, width, size, modes);
}

/** Packs `[hi, lo]` word pairs into uint64 bigints. */
export function toUint64(words: Uint32Array): BigUint64Array {
  const out = new BigUint64Array(words.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (BigInt(words[2 * i]!) << 32n) | BigInt(words[2 * i + 1]!);
  return out;
}

/**
 * Uniformly random unsigned integers of the given dtype (`jax.random.bits`). The default dtype
 * is uint64 in x64 mode and uint32 in x32 mode. (JAX silently returns uint32 for uint64 in x32
 * mode; stochax throws instead, since 32-bit draws are not what was asked for.)
 *
 * @example
 * random.bits(random.key(0), [3], { dtype: 'uint8' }); // → Tensor uint8 [3]
 */
export function bits(key: KeyArray, shape: number | readonly number[] = [], options?: { dtype?: BitsDType }): Tensor<BitsDType> {
  const fn = 'random.bits';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = opts.dtype === undefined ? (modes.x64 ? 'uint64' : 'uint32') : checkOneOf(fn, 'dtype', opts.dtype, BITS_DTYPES);
  if (dtype === 'uint64' && !modes.x64) fail('range', fn, 'dtype', "'uint64' needs x64 mode (configure({ x64: true }))", dtype);
  const size = sizeOf(s);
  const width = Number(dtype.slice(4)) as BitWidth;
  const raw = randomBits(key, width, size, modes);
  return new Tensor<BitsDType>(width === 64 ? toUint64(raw as Uint32Array) : raw, s, dtype);
}
