/**
 * `Generator`, `statefulRng` and `defaultRng`: the stateful, NumPy-style generator of JAX's
 * stateful-RNG proposal (`jax.experimental.random.stateful_rng`), on stochax's keys.
 */
import { fail } from '../checks.js';
import { getModes } from '../config.js';
import type { ImplName } from '../random/impl.js';
import { seedWords } from '../random/keys.js';
import { checkImpl, KeyArray } from '../random/key-array.js';
import { seedToKey } from '../samplers/seeds.js';
import { Tensor } from '../tensor/tensor.js';
import { DiscreteMethods } from './discrete.js';

/**
 * A stateful random generator with NumPy's `Generator` API, built as JAX's stateful-RNG
 * proposal specifies: a base key and a counter. Every draw takes one fresh key,
 * `random.foldIn(baseKey, counter)`, advances the counter by one, and calls the stateless
 * `random` sampler with that key. So a Generator's values are those of JAX's
 * `jax.experimental.random.stateful_rng` (bit for bit for `random`, `uniform`, `integers` and
 * `key`, to a few ulp for `normal`), and `g.key()` hands out ordinary functional keys.
 *
 * **The same as NumPy's `default_rng`:** the method names (camelCase: `standardNormal` for
 * `standard_normal`), the argument order (`uniform(low, high, size)`, `normal(loc, scale, size)`,
 * `gamma(shape, scale, size)`, `integers(low, high, size, { endpoint })`, ...), `size` as the
 * output shape with parameters broadcasting to it (the batch shape for `multinomial`,
 * `dirichlet` and `multivariateNormal`, whose event axis is appended), and every distribution's
 * parametrisation, even where JAX's sampler of the same name differs: `pareto` is NumPy's
 * Pareto II (Lomax, JAX's pareto − 1), `weibull(a)` has scale 1, `wald(mean, scale)` has shape
 * λ = scale, `lognormal(mean, sigma)` takes the underlying normal's mean, `exponential(scale)`
 * and `gamma(shape, scale)` take scales, and `binomial`, `poisson`, `geometric` and
 * `multinomial` return integers. NumPy's argument checks too: `integers` refuses `low >= high`
 * and bounds outside its dtype, `choice`'s `p` must sum to 1, and so on.
 *
 * **Different from NumPy:** the values (JAX's algorithms on Threefry keys, not PCG64; the same
 * seed gives other numbers than NumPy); with `size` omitted and scalar parameters a method
 * returns a JS `number` (or a `bigint` for 64-bit integers: `integers`, `binomial`, `poisson`,
 * `geometric` and `choice(n)` in x64 mode), never a 0-d array, and with `size` a `Tensor`;
 * dtypes follow JAX's modes (`configure({ x64 })`): float64 and int64 by default in x64 mode,
 * float32 and int32 in x32 mode; `bytes` returns a Uint8Array; `shuffle` of a plain JS array
 * works along axis 0 only; `uniform` with `low > high` is an error; `multivariateNormal`
 * defaults to the Cholesky method (NumPy: SVD); there is no `bit_generator`, and `spawn`
 * and `split` derive children from keys instead of seed sequences.
 *
 * **Batches.** `split(num)` returns a batch of generators (`shape` = `[num]`), JAX's input to
 * `vmap`: index it (`.at(i)`), iterate over it or `map` over it; drawing from the batch itself
 * throws a TypeError. **State.** `toJSON()` / `Generator.fromJSON()` save and restore a
 * generator exactly; a call that throws does not advance the counter.
 *
 * @example
 * import { statefulRng, configure } from 'stochax';
 * const rng = statefulRng(1701);
 * rng.random();                    // a number in [0, 1)
 * rng.normal(0, 1, [2, 3]);        // → Tensor float64 [2, 3]
 * rng.integers(1, 7, [10]);        // → Tensor int64 [10]
 * const gens = rng.split(4);       // four independent generators
 * gens.map((g) => g.uniform());    // four numbers
 */
export class Generator extends DiscreteMethods {}

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
