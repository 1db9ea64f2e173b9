/**
 * TensorFlow's stateless seeds: a pair `[s0, s1]` of int32 or int64, and the scramble that turns
 * it into a Philox key and counter (`StatelessRandomGetKeyCounter`, TF's `GenerateKey`;
 * reference/philox.md §3.3).
 */
import { fail, show } from '../../checks.js';
import { philox4x32Rounds } from '../../prng/philox.js';
import { Tensor } from '../../tensor/tensor.js';

/**
 * A TensorFlow stateless seed: two integers (numbers or bigints), an `Int32Array` or
 * `BigInt64Array` of length 2, or an int32/int64 `Tensor` of shape `[2]`.
 */
export type Seed =
  | readonly [number | bigint, number | bigint]
  | readonly (number | bigint)[]
  | Int32Array
  | BigInt64Array
  | Tensor;

/** The dtype TF gives a seed: int32, or int64 (what `tf.convert_to_tensor` picks for a list). */
export type SeedDType = 'int32' | 'int64';

/** A checked seed: the two values (as signed 64-bit bigints) and their dtype. */
export interface SeedValue {
  readonly s0: bigint;
  readonly s1: bigint;
  readonly dtype: SeedDType;
}

/** A Philox key (2 words) and 128-bit counter (4 words, least significant first). */
export interface KeyCounter {
  readonly key: Uint32Array;
  readonly counter: Uint32Array;
}

/**
 * A Philox key and counter given directly, as TF's V2 raw ops (`StatelessRandomUniformV2`,
 * `StatelessRandomNormalV2`, ..., with `alg=1`) and stateful ops take them: `key` is 2 uint32
 * words and `counter` 4, least significant first (TF's uint64 key `k` is `[k & 0xffffffff,
 * k >> 32]`). For example `tf.random.Generator.from_seed(s)` starts at key 0, counter `s`; the
 * stateful `tf.random.normal` with seeds (seed, seed2) uses key `seed`, counter `[0, 0, seed2, 0]`.
 */
export interface PhiloxState {
  readonly key: ArrayLike<number>;
  readonly counter: ArrayLike<number>;
}

const INT32_MIN = -(2 ** 31), INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
/** Key of the one Philox call that scrambles a seed (TF's `GenerateKey`). */
const SCRAMBLE_KEY = [0x3ec8f720, 0x02461e29] as const;

function seedElement(fn: string, arg: string, x: unknown): bigint {
  if (typeof x === 'bigint') {
    if (x < INT64_MIN || x > INT64_MAX) fail('range', fn, arg, 'must fit in int64', x);
    return x;
  }
  if (typeof x !== 'number' || !Number.isInteger(x)) fail('type', fn, arg, 'must be an integer (number or bigint)', x);
  if (!Number.isSafeInteger(x)) fail('range', fn, arg, 'must be a safe integer (|x| < 2^53); pass a bigint', x);
  return BigInt(x);
}

/**
 * Checks a seed and returns its two values and dtype. A JS pair is int32 when both entries are
 * numbers in int32 range, as `tf.convert_to_tensor([s0, s1])` makes it, and int64 otherwise (any
 * bigint entry, or a value outside int32).
 *
 * @throws {TypeError} naming `arg` for a value that is not a seed, or non-integer entries.
 * @throws {RangeError} naming `arg` for a length other than 2 or an entry outside int64.
 */
export function checkSeed(fn: string, arg: string, x: unknown): SeedValue {
  if (x instanceof Tensor) {
    if (x.dtype !== 'int32' && x.dtype !== 'int64') fail('type', fn, arg, 'must be an int32 or int64 Tensor', `a ${x.dtype} Tensor`);
    if (x.shape.length !== 1 || x.shape[0] !== 2) fail('range', fn, arg, 'must have shape [2]', `shape ${show([...x.shape])}`);
    return { s0: BigInt(x.data[0]!), s1: BigInt(x.data[1]!), dtype: x.dtype };
  }
  if (x instanceof Int32Array || x instanceof BigInt64Array) {
    if (x.length !== 2) fail('range', fn, arg, 'must have length 2', `a ${x.constructor.name} of length ${x.length}`);
    return { s0: BigInt(x[0]!), s1: BigInt(x[1]!), dtype: x instanceof Int32Array ? 'int32' : 'int64' };
  }
  if (!Array.isArray(x)) {
    fail('type', fn, arg, 'must be a pair of integers, an Int32Array or BigInt64Array of length 2, or an int32/int64 Tensor of shape [2]', x);
  }
  if (x.length !== 2) fail('range', fn, arg, 'must have length 2', x);
  const s0 = seedElement(fn, `${arg}[0]`, x[0]);
  const s1 = seedElement(fn, `${arg}[1]`, x[1]);
  const int32 = typeof x[0] === 'number' && typeof x[1] === 'number' &&
    x[0] >= INT32_MIN && x[0] <= INT32_MAX && x[1] >= INT32_MIN && x[1] <= INT32_MAX;
  return { s0, s1, dtype: int32 ? 'int32' : 'int64' };
}

/**
 * TF's seed scramble: the two seeds, each sign-extended to 64 bits, form the counter
 * `[lo(s0), hi(s0), lo(s1), hi(s1)]` of one Philox-4x32-10 call under the fixed key
 * `[0x3ec8f720, 0x02461e29]`; its output `mix` gives key `[mix0, mix1]` and counter
 * `[0, 0, mix2, mix3]`.
 */
export function scrambleSeed(seed: SeedValue): KeyCounter {
  const a = BigInt.asUintN(64, seed.s0), b = BigInt.asUintN(64, seed.s1);
  const words = [
    Number(a & 0xffffffffn), Number(a >> 32n), Number(b & 0xffffffffn), Number(b >> 32n),
  ];
  const mix = new Uint32Array(4);
  philox4x32Rounds(10, words, SCRAMBLE_KEY, mix);
  return { key: new Uint32Array([mix[0]!, mix[1]!]), counter: new Uint32Array([0, 0, mix[2]!, mix[3]!]) };
}

function checkWords(fn: string, arg: string, x: unknown, n: number): Uint32Array {
  if (x === null || typeof x !== 'object' || typeof (x as ArrayLike<number>).length !== 'number') {
    fail('type', fn, arg, `must be ${n} uint32 words`, x);
  }
  const a = x as ArrayLike<unknown>;
  if (a.length !== n) fail('range', fn, arg, `must have ${n} words`, x);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const w = a[i];
    if (typeof w !== 'number' || !Number.isInteger(w)) fail('type', fn, `${arg}[${i}]`, 'must be an integer', w);
    if (w < 0 || w > 0xffffffff) fail('range', fn, `${arg}[${i}]`, 'must be a uint32 word in [0, 2^32)', w);
    out[i] = w;
  }
  return out;
}

/**
 * The Philox key and counter for a sampler: TF's scramble of a `[s0, s1]` seed, or a
 * `{ key, counter }` object taken as is (see `PhiloxState`).
 */
export function checkSeedOrState(fn: string, arg: string, x: unknown): KeyCounter {
  if (x !== null && typeof x === 'object' && !Array.isArray(x) && !ArrayBuffer.isView(x) && !(x instanceof Tensor) &&
      'key' in x && 'counter' in x) {
    const st = x as PhiloxState;
    return { key: checkWords(fn, `${arg}.key`, st.key, 2), counter: checkWords(fn, `${arg}.counter`, st.counter, 4) };
  }
  return scrambleSeed(checkSeed(fn, arg, x));
}

/**
 * The Philox key and counter TensorFlow derives from a stateless seed
 * (`tf.raw_ops.StatelessRandomGetKeyCounter`), as 32-bit words, least significant first. TF
 * returns the same numbers packed in uint64: key `[key[0] | key[1] << 32]`, counter
 * `[counter[0] | counter[1] << 32, counter[2] | counter[3] << 32]`. Every compat op starts from
 * these: output block `g` is Philox-4x32-10 of `counter + g` under `key`.
 *
 * @throws {TypeError} if `seed` is not a seed or holds non-integers.
 * @throws {RangeError} if `seed` does not have exactly 2 entries, or one is outside int64.
 * @example
 * statelessRandomGetKeyCounter([1, 2]);
 * // { key: Uint32Array [0x6d2f7fba, 0x908502c9], counter: Uint32Array [0, 0, 0x619cb60b, 0xf7734320] }
 */
export function statelessRandomGetKeyCounter(seed: Seed): KeyCounter {
  return scrambleSeed(checkSeed('tensorflow.statelessRandomGetKeyCounter', 'seed', seed));
}
