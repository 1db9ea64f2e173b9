import { brand } from '../brand.js';
import { fail } from '../checks.js';
import { philox4x32 } from './philox-impl.js';
import { threefry2x32 } from './threefry-impl.js';
import type { Modes } from '../config.js';
import { sizeOf } from '../tensor/shapes.js';
import type { ImplName, PrngImpl } from './impl.js';

/** The registered implementations, by name. */
export const IMPLS: Readonly<Record<ImplName, PrngImpl>> = { threefry2x32, philox4x32 };
export const IMPL_NAMES = Object.keys(IMPLS) as ImplName[];

/** The shape of a single key, shared (kernels make several single keys per step). */
const SCALAR: readonly number[] = Object.freeze([]);

/**
 * A typed array of PRNG keys: an implementation plus raw uint32 words whose trailing length is
 * the implementation's `keyWords`. Its `shape` leaves that trailing axis out, so a single key
 * has shape `[]`. Keys have no arithmetic; `keyData` is the only way to their words, and
 * `wrapKeyData` the only way back. A batch iterates over its first axis, so
 * `const [a, b] = random.split(key)` works; a single key refuses iteration.
 *
 * @example
 * const keys = random.split(random.key(0), 3);
 * keys.shape;            // [3]
 * const [k0, k1, k2] = keys;
 */
export class KeyArray implements Iterable<KeyArray> {
  readonly impl: PrngImpl;
  readonly shape: readonly number[];
  /** Raw words, row-major, `size × impl.keyWords` long. Treat as read-only. */
  readonly data: Uint32Array;

  constructor(impl: PrngImpl, data: Uint32Array, shape: readonly number[]) {
    const size = sizeOf(shape);
    if (data.length !== size * impl.keyWords) {
      throw new RangeError(`KeyArray: ${data.length} words do not make ${size} ${impl.name} keys`);
    }
    this.impl = impl;
    this.data = data;
    this.shape = shape.length === 0 ? SCALAR : Object.freeze([...shape]);
  }

  get size(): number { return this.data.length / this.impl.keyWords; }
  get ndim(): number { return this.shape.length; }

  /** The key (or sub-batch) at index `i` of the first axis; negative indices count from the end. */
  at(i: number): KeyArray {
    if (this.shape.length === 0) throw new TypeError('KeyArray.at: a single key (shape []) cannot be indexed');
    const n = this.shape[0]!;
    if (!Number.isInteger(i) || i < -n || i >= n) fail('range', 'KeyArray.at', 'i', `must be an index in [${-n}, ${n})`, i);
    const j = i < 0 ? i + n : i;
    const inner = this.data.length / n;
    return new KeyArray(this.impl, this.data.subarray(j * inner, (j + 1) * inner), this.shape.slice(1));
  }

  *[Symbol.iterator](): Iterator<KeyArray> {
    if (this.shape.length === 0) {
      throw new TypeError('KeyArray: a single key (shape []) is not iterable; use random.split(key, n) for n keys');
    }
    for (let i = 0; i < this.shape[0]!; i++) yield this.at(i);
  }

  toString(): string {
    return `KeyArray(${this.impl.name}, [${this.shape.join(', ')}])`;
  }
}
brand(KeyArray, 'KeyArray');   // recognised across copies of stochax (src/brand.ts)

/**
 * Checks that `x` is a single key (shape `[]`) and returns its words. Random functions take one
 * key, as JAX's do; batches are split or indexed first.
 */
export function checkKey(fn: string, arg: string, x: unknown): Uint32Array {
  if (!(x instanceof KeyArray)) {
    fail('type', fn, arg, 'must be a KeyArray from random.key, random.split or random.wrapKeyData', x);
  }
  if (x.shape.length !== 0) {
    throw new TypeError(`${fn}: \`${arg}\` must be a single key, but was given a key array of shape [${x.shape.join(', ')}]; index it or map over it`);
  }
  return x.data;
}

/** Looks up an implementation by name (default threefry2x32). */
export function checkImpl(fn: string, impl: unknown): PrngImpl {
  if (impl === undefined) return threefry2x32;
  if (typeof impl !== 'string' || !(impl in IMPLS)) {
    fail(typeof impl === 'string' ? 'range' : 'type', fn, 'impl', `must be one of ${IMPL_NAMES.map((n) => `'${n}'`).join(', ')}`, impl);
  }
  return IMPLS[impl as ImplName];
}

/**
 * `split(key, n)` as n single keys (JAX's `_split`; element i is `keys[i]`): the one way code
 * below the public `random.split` turns a key into several (samplers' `k1, k2 = split(key)`,
 * `samplers.splitSeed`, the Generator's `spawn`).
 *
 * Each key gets its own copy of its words rather than a view into one n-key buffer. Keys from
 * here escape (seeds held by distributions and kernels, `finalSeed`, generators): a view would
 * keep the whole batch alive as long as any one key lives, and `structuredClone`/`postMessage`
 * (parallel chains, worker results) copies a view's entire underlying buffer, not its window.
 * The copies cost one small allocation per key, next to the KeyArray object each key costs
 * anyway. (A batch from `random.split` or `KeyArray.at` stays one buffer with views into it.)
 */
export function splitKeys(key: KeyArray, n: number, modes: Modes): KeyArray[] {
  const impl = key.impl, words = impl.split(key.data, n, modes), w = impl.keyWords;
  const out = new Array<KeyArray>(n);
  for (let i = 0; i < n; i++) out[i] = new KeyArray(impl, words.slice(w * i, w * (i + 1)), SCALAR);
  return out;
}

/**
 * `split(key, shape)` as one key array of that shape in one buffer (row-major): the same keys
 * as `splitKeys(key, sizeOf(shape))`. The core of `random.split` and of the Generator's `key`
 * and `split`, whose batches stay one buffer.
 */
export function splitBatch(key: KeyArray, shape: readonly number[], modes: Modes): KeyArray {
  return new KeyArray(key.impl, key.impl.split(key.data, sizeOf(shape), modes), shape);
}
