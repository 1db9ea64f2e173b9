import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes } from '../config.js';
import { Tensor } from '../tensor/tensor.js';
import type { DType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import type { ImplName } from './impl.js';
import { checkImpl, checkKey, KeyArray, splitBatch } from './key-array.js';

const TWO_64 = 2n ** 64n;

/**
 * A seed's two key words `[hi, lo]` by JAX's rules. A number or bigint acts as a Python int: an
 * int64 (bigints in [2^63, 2^64) act as a uint64), its 64-bit two's-complement pattern split
 * into words in x64 mode, wrapped to int32 in x32 mode (so `hi = 0`). A scalar integer tensor
 * keeps its dtype: 32-bit and narrower seeds always have `hi = 0`, and 64-bit ones become
 * 32-bit in x32 mode.
 */
export function seedWords(fn: string, seed: unknown, x64: boolean): [number, number] {
  if (seed instanceof Tensor) {
    if (seed.size !== 1 || seed.ndim !== 0) fail('range', fn, 'seed', 'must be a scalar tensor', seed);
    const d = seed.dtype;
    if (d === 'int64' || d === 'uint64') return splitPattern(BigInt(seed.item() as bigint), x64);
    if (d.startsWith('int') || d.startsWith('uint')) return [0, (seed.item() as number) >>> 0];
    fail('type', fn, 'seed', 'must have an integer dtype', `a ${d} tensor`);
  }
  let s: bigint;
  if (typeof seed === 'bigint') s = seed;
  else if (typeof seed === 'number') {
    if (!Number.isInteger(seed)) fail('type', fn, 'seed', 'must be an integer', seed);
    if (!Number.isSafeInteger(seed)) fail('range', fn, 'seed', 'must be a safe integer (|seed| < 2^53); pass a bigint for larger seeds', seed);
    s = BigInt(seed);
  } else {
    fail('type', fn, 'seed', 'must be an integer number or bigint', seed);
  }
  if (s < -(2n ** 63n) || s >= TWO_64) fail('range', fn, 'seed', 'must be in [-2^63, 2^64)', seed);
  return splitPattern(s, x64);
}

function splitPattern(s: bigint, x64: boolean): [number, number] {
  const bits = BigInt.asUintN(64, s);
  const lo = Number(bits & 0xffffffffn);
  return x64 ? [Number(bits >> 32n), lo] : [0, lo];
}

/**
 * A single typed PRNG key from an integer seed (`jax.random.key`).
 *
 * @param seed an integer `number` (safe range) or `bigint` in [-2^63, 2^64), or a scalar integer
 *   Tensor (whose dtype then decides the seed width, like a NumPy-typed seed in JAX).
 * @param options.impl `'threefry2x32'` (default, JAX's) or `'philox4x32'`.
 * @throws TypeError for a non-integer seed; RangeError for one out of range.
 * @example
 * random.keyData(random.key(42)).toArray(); // [0, 42]
 * configure({ x64: true });  random.keyData(random.key(-1)).toArray(); // [4294967295, 4294967295]
 */
export function key(seed: number | bigint | Tensor, options?: { impl?: ImplName }): KeyArray {
  const fn = 'random.key';
  const opts = checkOptions(fn, options, ['impl']);
  const impl = checkImpl(fn, opts.impl);
  const [hi, lo] = seedWords(fn, seed, getModes().x64);
  return new KeyArray(impl, impl.seed(hi, lo), []);
}

/**
 * Splits a key into `num` new keys (`jax.random.split`). `num` may be a count or a shape; the
 * result has that shape. In partitionable mode (the default) key i is `foldIn(key, i)`, so
 * `split(k, 3)` starts with `split(k, 2)`; in original mode every key depends on the count.
 *
 * @example
 * const [key, subkey] = random.split(random.key(0));
 * random.split(random.key(0), [2, 3]).shape; // [2, 3]
 */
export function split(key: KeyArray, num: number | readonly number[] = 2): KeyArray {
  const fn = 'random.split';
  checkKey(fn, 'key', key);
  return splitBatch(key, checkShape(fn, 'num', num), getModes());
}

/**
 * A new key from `key` and an integer (`jax.random.fold_in`). `data` is taken as uint32:
 * integers in [-2^31, 2^32) are accepted and negative ones wrap (−1 → 0xFFFFFFFF), like
 * JAX's conversion of an int32.
 *
 * @example
 * random.keyData(random.foldIn(random.key(0), 1)).toArray(); // [928981903, 3453687069]
 */
export function foldIn(key: KeyArray, data: number | bigint): KeyArray {
  const fn = 'random.foldIn';
  const words = checkKey(fn, 'key', key);
  let d: number;
  if (typeof data === 'bigint') d = Number(data);
  else if (typeof data === 'number' && Number.isInteger(data)) d = data;
  else fail('type', fn, 'data', 'must be an integer', data);
  if (d < -(2 ** 31) || d >= 2 ** 32) fail('range', fn, 'data', 'must be in [-2^31, 2^32) (it is taken as uint32)', data);
  return new KeyArray(key.impl, key.impl.foldIn(words, d >>> 0, getModes()), []);
}

/**
 * The raw uint32 words of a key array, shape `[...keys.shape, keyWords]` (`jax.random.key_data`).
 *
 * @example
 * random.keyData(random.key(7)).toArray(); // [0, 7]
 */
export function keyData(keys: KeyArray): Tensor<'uint32'> {
  if (!(keys instanceof KeyArray)) fail('type', 'random.keyData', 'keys', 'must be a KeyArray', keys);
  return new Tensor(keys.data.slice(), [...keys.shape, keys.impl.keyWords], 'uint32');
}

/**
 * Wraps raw uint32 words as typed keys (`jax.random.wrap_key_data`). The trailing axis must be
 * the implementation's key length (2 for both impls). Accepts a uint32 Tensor, a Uint32Array
 * (one key), or nested arrays of integers in [0, 2^32).
 *
 * @example
 * const k = random.wrapKeyData([0, 42]);  // the same key as random.key(42)
 * random.wrapKeyData([[1, 2], [3, 4]]).shape; // [2]
 */
export function wrapKeyData(data: Tensor | Uint32Array | ArrayLike<unknown>, options?: { impl?: ImplName }): KeyArray {
  const fn = 'random.wrapKeyData';
  const opts = checkOptions(fn, options, ['impl']);
  const impl = checkImpl(fn, opts.impl);
  let words: Uint32Array;
  let shape: number[];
  if (data instanceof Tensor) {
    if (data.dtype !== 'uint32') fail('type', fn, 'data', "must have dtype 'uint32'", `a ${data.dtype as DType} tensor`);
    words = (data.data as Uint32Array).slice();
    shape = [...data.shape];
  } else if (data instanceof Uint32Array) {
    words = data.slice();
    shape = [data.length];
  } else if (Array.isArray(data)) {
    shape = [];
    let probe: unknown = data;
    while (Array.isArray(probe)) { shape.push(probe.length); probe = probe[0]; }
    const flat = (data as unknown[]).flat(Infinity);
    if (flat.length !== sizeOf(shape)) fail('type', fn, 'data', 'must be a rectangular nested array', data);
    words = new Uint32Array(flat.length);
    flat.forEach((w, i) => {
      if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w >= 2 ** 32) {
        fail('range', fn, 'data', 'must hold integers in [0, 2^32)', data);
      }
      words[i] = w;
    });
  } else {
    fail('type', fn, 'data', 'must be a uint32 Tensor, a Uint32Array or nested arrays of uint32 words', data);
  }
  if (shape.length === 0 || shape[shape.length - 1] !== impl.keyWords) {
    fail('range', fn, 'data', `must have a trailing axis of length ${impl.keyWords} for ${impl.name} keys (shape [${shape.join(', ')}])`, data);
  }
  return new KeyArray(impl, words, shape.slice(0, -1));
}

/**
 * The name of a key array's implementation (`jax.random.key_impl`).
 *
 * @example
 * random.keyImpl(random.key(0)); // 'threefry2x32'
 */
export function keyImpl(keys: KeyArray): ImplName {
  if (!(keys instanceof KeyArray)) fail('type', 'random.keyImpl', 'keys', 'must be a KeyArray', keys);
  return keys.impl.name;
}
