/**
 * `statefulRng` and `defaultRng`: a `Generator` from a seed (JAX's
 * `jax.experimental.random.stateful_rng(seed)`, NumPy's `default_rng(seed)`).
 */
import { fail } from '../checks.js';
import { getModes } from '../config.js';
import type { ImplName } from '../random/impl.js';
import { seedWords } from '../random/keys.js';
import { checkImpl, KeyArray } from '../random/key-array.js';
import { seedToKey } from '../samplers/seeds.js';
import { Tensor } from '../tensor/tensor.js';
import { Generator } from './generator.js';

/** Options of `statefulRng` / `defaultRng`. */
export interface StatefulRngOptions {
  /** Key implementation for an integer seed: `'threefry2x32'` (default, JAX's) or `'philox4x32'`. */
  impl?: ImplName;
}

/** A seed `statefulRng` accepts: what `samplers.sanitizeSeed` accepts, or a scalar integer Tensor. */
export type GeneratorSeed = number | bigint | KeyArray | readonly [number, number] | Uint32Array | Tensor | undefined;

function makeGenerator(fn: string, seed: unknown, options: StatefulRngOptions | undefined): Generator {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    fail('type', fn, 'options', 'must be an object', options);
  }
  const impl = options?.impl === undefined ? undefined : checkImpl(fn, options.impl);
  let key: KeyArray;
  if (seed instanceof Tensor || (impl !== undefined && (typeof seed === 'number' || typeof seed === 'bigint'))) {
    const k = impl ?? checkImpl(fn, undefined);              // random.key's core: the default impl is threefry2x32
    const [hi, lo] = seedWords(fn, seed, getModes().x64);
    key = new KeyArray(k, k.seed(hi, lo), []);
  } else {
    key = seedToKey(fn, seed);
    if (impl !== undefined && key.impl !== impl) {
      fail('range', fn, 'options.impl', `must match the seed's key implementation ('${key.impl.name}')`, impl.name);
    }
  }
  return new Generator({ impl: key.impl, words: key.data.slice(), shape: [] });
}

/**
 * A stateful NumPy-style generator (JAX's `jax.experimental.random.stateful_rng(seed)`): base
 * key `random.key(seed)`, counter 0. The seed may be anything `samplers.sanitizeSeed` takes:
 * an integer (`random.key(seed)`), a single key (used as the base key), a `[w0, w1]` pair or
 * `Uint32Array(2)` of key words, a scalar integer Tensor, or nothing (a fresh key from the
 * global seed source; `samplers.setGlobalSeed(n)` makes it reproducible).
 *
 * @param options.impl key implementation for an integer seed (default `'threefry2x32'`).
 * @throws TypeError for a seed of another kind, a batch of keys, or a non-integer;
 *   RangeError for an integer out of range or an `impl` that does not match a key seed.
 * @example
 * configure({ x64: false });
 * const rng = statefulRng(1701);
 * rng.random(5).toArray(); // [0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055]
 * rng.random(5).toArray(); // [0.8131045, 0.33873856, 0.88808906, 0.96005905, 0.7616446]
 */
export function statefulRng(seed?: GeneratorSeed, options?: StatefulRngOptions): Generator {
  return makeGenerator('statefulRng', seed, options);
}

/**
 * The same as `statefulRng` under NumPy's name (`numpy.random.default_rng`), for code ported
 * from NumPy. The values still follow JAX's algorithms, not NumPy's.
 *
 * @example
 * const rng = defaultRng(42);
 * rng.standardNormal([3]); // → Tensor float64 [3]
 */
export function defaultRng(seed?: GeneratorSeed, options?: StatefulRngOptions): Generator {
  return makeGenerator('defaultRng', seed, options);
}
