import { checkCount, checkInteger, checkOptions, checkPositiveInteger, fail, show } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { KeyArray, splitKeys } from '../random/key-array.js';
import { key as randomKey } from '../random/keys.js';
import { randintData } from '../random/randint.js';
import { threefry2x32 } from '../random/threefry-impl.js';
import { saltToInt } from '../sha512.js';
import { freshKeyWords } from './global-seed.js';

/**
 * Anything `samplers` accepts as a seed: a single key; a pair of uint32 words or a
 * `Uint32Array(2)` (threefry2x32 key data); an integer (`random.key(int)`); or `undefined`
 * (a fresh key from the global source, see `setGlobalSeed`).
 */
export type Seed = KeyArray | readonly [number, number] | Uint32Array | number | bigint | undefined;

const SEED_KINDS = 'must be a KeyArray, a [number, number] pair of uint32 words, a Uint32Array(2), an integer or undefined';

function isWord(w: unknown): w is number {
  return typeof w === 'number' && Number.isInteger(w);
}

/** A seed of any kind as a single key, with no salt. Errors name `fn` and `seed`. */
export function seedToKey(fn: string, seed: unknown): KeyArray {
  if (seed instanceof KeyArray) {
    if (seed.shape.length !== 0) {
      throw new TypeError(`${fn}: \`seed\` must be a single key, but was given a key array of shape [${seed.shape.join(', ')}]; index it or pass one key`);
    }
    return seed;
  }
  if (seed === undefined) return new KeyArray(threefry2x32, Uint32Array.from(freshKeyWords()), []);
  if (typeof seed === 'number' || typeof seed === 'bigint') {
    if (typeof seed === 'number') checkInteger(fn, 'seed', seed);
    else if (seed < -(2n ** 63n) || seed >= 2n ** 64n) fail('range', fn, 'seed', 'must be in [-2^63, 2^64)', seed);
    return randomKey(seed); // reads the same global modes the caller just read
  }
  if (seed instanceof Uint32Array) {
    if (seed.length !== 2) fail('type', fn, 'seed', `${SEED_KINDS} (a Uint32Array seed must have length 2)`, `a Uint32Array of length ${seed.length}`);
    return new KeyArray(threefry2x32, seed.slice(), []);
  }
  if (Array.isArray(seed) && seed.length === 2) {
    const [a, b] = seed as unknown[];
    if (!isWord(a) || !isWord(b)) fail('type', fn, 'seed', 'as a pair must hold two integer words', seed);
    if (a < 0 || a >= 2 ** 32 || b < 0 || b >= 2 ** 32) fail('range', fn, 'seed', 'as a pair must hold two uint32 words in [0, 2^32)', seed);
    return new KeyArray(threefry2x32, Uint32Array.of(a, b), []);
  }
  fail('type', fn, 'seed', SEED_KINDS, seed);
}

/** Checks a salt: undefined (none) or a string. */
export function checkSalt(fn: string, salt: unknown): string | undefined {
  if (salt !== undefined && typeof salt !== 'string') fail('type', fn, 'salt', 'must be a string (or undefined)', salt);
  return salt;
}

/** A uint32 fold-in value from a string (hashed) or an integer in [-2^31, 2^32) (wrapped). */
function saltWord(fn: string, salt: unknown): number {
  if (typeof salt === 'string') return saltHash(fn, salt);
  let d: number;
  if (typeof salt === 'bigint') {
    if (salt < -(2n ** 31n) || salt >= 2n ** 32n) fail('range', fn, 'salt', 'must be in [-2^31, 2^32) (it is taken as uint32)', salt);
    d = Number(salt);
  } else if (typeof salt === 'number' && Number.isInteger(salt)) {
    if (salt < -(2 ** 31) || salt >= 2 ** 32) fail('range', fn, 'salt', 'must be in [-2^31, 2^32) (it is taken as uint32)', salt);
    d = salt;
  } else {
    fail('type', fn, 'salt', 'must be a string or an integer', salt);
  }
  return d >>> 0;
}

function saltHash(fn: string, salt: string): number {
  try {
    return saltToInt(salt);
  } catch (e) {
    throw e instanceof RangeError ? new RangeError(`${fn}: \`salt\` must not contain a lone surrogate; got ${show(salt)}`) : e;
  }
}

function fold(k: KeyArray, word: number, modes: Modes): KeyArray {
  return new KeyArray(k.impl, k.impl.foldIn(k.data, word, modes), []);
}

/** `sanitizeSeed` with the function name for errors and explicit modes. */
export function sanitize(fn: string, seed: unknown, salt: string | undefined, modes: Modes): KeyArray {
  const k = seedToKey(fn, seed);
  return salt === undefined ? k : fold(k, saltHash(fn, salt), modes);
}

/**
 * Turns a seed of any kind into a single key, optionally salted (TFP's `sanitize_seed`).
 *
 * | seed | key |
 * |---|---|
 * | a `KeyArray` of shape `[]` | itself |
 * | `[w0, w1]` or `Uint32Array.of(w0, w1)`, uint32 words | `random.wrapKeyData([w0, w1])` (threefry2x32) |
 * | an integer `number` or `bigint` | `random.key(seed)` (reproducible, unlike TF's int seeds) |
 * | `undefined` | a fresh key from the global source (`setGlobalSeed` makes it reproducible) |
 *
 * With a salt, the key is then `random.foldIn(key, saltToInt(salt))`, where `saltToInt` is
 * SHA-512 of the salt's UTF-8 bytes, read big-endian, mod 2^31 − 1, exactly as TFP salts
 * stateless seeds. An integer seed is salted the same way (TFP's stateful path hashes
 * `repr((seed, salt))` instead; stochax has no stateful int seeds).
 *
 * @param options.salt a string naming the consumer, e.g. `'gamma'` (default: no salt).
 * @throws TypeError for a seed of another kind, a batch of keys, or a non-string salt;
 *   RangeError for pair words outside [0, 2^32) or an integer seed out of range.
 * @example
 * const k = samplers.sanitizeSeed([1, 2], { salt: 'gamma' });  // → KeyArray []
 * samplers.sanitizeSeed(42);  // the same key as random.key(42)
 */
export function sanitizeSeed(seed: Seed, options?: { salt?: string }): KeyArray {
  const fn = 'samplers.sanitizeSeed';
  const opts = checkOptions(fn, options, ['salt']);
  const salt = checkSalt(fn, opts.salt);
  return sanitize(fn, seed, salt, getModes());
}

/** Most keys `splitSeed` returns: one JS object each, so 2^24 of them already take gigabytes. */
const MAX_SPLIT_SEEDS = 2 ** 24;

/**
 * Splits a seed into `n` keys (TFP's `split_seed`): `[...random.split(sanitizeSeed(seed,
 * { salt }), n)]`. So `splitSeed(s, { n, salt })` equals `splitSeed(sanitizeSeed(s, { salt }),
 * { n })`; the children differ from each other and from the parent, and splitting the same
 * seed again gives the same children.
 *
 * @param options.n how many keys (a positive integer, default 2, at most 2^24: each is an
 *   object of its own; `random.split(key, n)` returns many keys as one key array).
 * @param options.salt as in `sanitizeSeed`.
 * @throws TypeError for a bad seed, salt or a non-integer `n`; RangeError for `n < 1` or `n > 2^24`.
 * @example
 * const [sampleSeed, nextSeed] = samplers.splitSeed(seed);
 * const [g1, g2, b] = samplers.splitSeed(seed, { n: 3, salt: 'beta_binomial' });
 */
export function splitSeed(seed: Seed, options?: { n?: number; salt?: string }): KeyArray[] {
  const fn = 'samplers.splitSeed';
  const opts = checkOptions(fn, options, ['n', 'salt']);
  let n = 2;
  if (opts.n !== undefined) {
    n = checkPositiveInteger(fn, 'n', opts.n);
    checkCount(fn, 'n', n, MAX_SPLIT_SEEDS);
  }
  const salt = checkSalt(fn, opts.salt);
  const modes = getModes();
  return splitKeys(sanitize(fn, seed, salt, modes), n, modes);
}

/**
 * A key derived from a seed and a salt (TFP's `fold_in`): `random.foldIn(key, word)` where
 * `word` is `saltToInt(salt)` for a string and the integer itself, taken as uint32, otherwise.
 * The seed may be of any kind (it is sanitized first, without salt).
 *
 * @param salt a string, or an integer in [-2^31, 2^32) (negative values wrap, −1 → 2^32 − 1).
 * @throws TypeError for a bad seed or a salt that is neither a string nor an integer;
 *   RangeError for an integer salt out of range.
 * @example
 * samplers.foldIn(key, 3);        // = random.foldIn(key, 3)
 * samplers.foldIn(key, 'gamma');  // = samplers.sanitizeSeed(key, { salt: 'gamma' })
 */
export function foldIn(seed: Seed, salt: number | bigint | string): KeyArray {
  const fn = 'samplers.foldIn';
  const modes = getModes();
  const word = saltWord(fn, salt);
  return fold(seedToKey(fn, seed), word, modes);
}

/**
 * The all-zeros key, `random.key(0)`: the placeholder seed kernels put in
 * `bootstrapResults`, and what joint distributions pass when no randomness is needed.
 *
 * @example
 * random.keyData(samplers.zerosSeed()).toArray(); // [0, 0]
 */
export function zerosSeed(): KeyArray {
  return new KeyArray(threefry2x32, threefry2x32.seed(0, 0), []);   // random.key(0), without its argument checks
}

/**
 * A copy of a key that shares no storage with it (TFP's `clone_seed`, `jax.random.clone`). A key
 * array of any shape is copied as is; other seed kinds are sanitized first.
 *
 * @throws TypeError for a seed of another kind.
 * @example
 * const copy = samplers.cloneSeed(key); // same words, new storage
 */
export function cloneSeed(seed: Seed): KeyArray {
  const fn = 'samplers.cloneSeed';
  if (seed instanceof KeyArray) return new KeyArray(seed.impl, seed.data.slice(), seed.shape);
  const k = seedToKey(fn, seed);
  return new KeyArray(k.impl, k.data.slice(), []);
}

/**
 * An integer in [0, 2^31) from a seed (TFP's `get_integer_seed`), for APIs that want an int: an
 * integer seed gives `seed mod 2^31` (a non-negative remainder, as Python's `%`); any other seed
 * gives `random.randint(sanitizeSeed(seed), [], 0, 2^31 − 1, { dtype: 'int32' })` as a number.
 *
 * @throws TypeError for a seed of another kind.
 * @example
 * samplers.getIntegerSeed(-1);          // 2147483647
 * samplers.getIntegerSeed(random.key(0)); // an integer in [0, 2^31 − 1)
 */
export function getIntegerSeed(seed: Seed): number {
  const fn = 'samplers.getIntegerSeed';
  if (typeof seed === 'number') {
    checkInteger(fn, 'seed', seed);
    return ((seed % 2 ** 31) + 2 ** 31) % 2 ** 31;
  }
  if (typeof seed === 'bigint') return Number(((seed % 2n ** 31n) + 2n ** 31n) % 2n ** 31n);
  const modes = getModes();
  const k = seedToKey(fn, seed);
  return (randintData(k, 1, 0n, 2n ** 31n - 1n, 'int32', modes) as Int32Array)[0]!;
}
