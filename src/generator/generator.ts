/**
 * `Generator`: the stateful, NumPy-style generator of JAX's stateful-RNG proposal
 * (`jax.experimental.random.stateful_rng`), on stochax's keys. One class whose methods are
 * one-liners over the functions of core.ts (state and keys), basic.ts (uniforms, normals,
 * integers, bytes), arrays.ts (choice and permutations), continuous.ts and discrete.ts (NumPy's
 * distributions); `statefulRng` and `defaultRng` are in rng.ts.
 */
import { checkFunction } from '../checks.js';
import type { KeyArray } from '../random/key-array.js';
import type { MvnMethod } from '../random/multivariate-normal.js';
import type { FloatDType, IntDType } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { ParamLike, Scalar, SizeLike } from './args.js';
import * as arrays from './arrays.js';
import type { ChoiceOptions, TypedArray } from './arrays.js';
import * as basic from './basic.js';
import type { FloatOptions, IntegersOptions, IntLike } from './basic.js';
import * as continuous from './continuous.js';
import * as core from './core.js';
import type { GeneratorJSON, GeneratorState, State } from './core.js';
import * as discrete from './discrete.js';

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
export class Generator {
  readonly #s: State;

  /** @internal Use `statefulRng`, `defaultRng`, `split`, `spawn` or `Generator.fromJSON`. */
  constructor(state: GeneratorState) {
    this.#s = core.newState(state);
  }

  /** `[]` for a single generator; the batch shape for a batch made by `split(num)`. */
  get shape(): readonly number[] {
    return this.#s.shape;
  }

  /** Rank of `shape`: 0 for a single generator. */
  get ndim(): number {
    return this.#s.shape.length;
  }

  /**
   * The number of keys this generator has drawn (one per draw, `key()`, `split` or `spawn`).
   *
   * @throws TypeError on a batch (read each generator's counter: `gens.at(i).counter`).
   * @example
   * const rng = statefulRng(0);
   * rng.random(); rng.normal([3]);
   * rng.counter; // 2
   */
  get counter(): number {
    return core.counter(this.#s);
  }

  /**
   * The base key (a copy): shape `[]` for a single generator, the batch shape for a batch.
   *
   * @example
   * random.keyData(statefulRng(1701).baseKey).toArray(); // the words of random.key(1701)
   */
  get baseKey(): KeyArray {
    return core.baseKey(this.#s);
  }

  /**
   * A fresh key, `random.foldIn(baseKey, counter)`, advancing the counter (JAX's
   * `StatefulPRNG.key`). With `shape`, that key split into a key array of that shape
   * (`random.split(key, shape)`), still one counter step.
   *
   * @param shape optional shape of keys to return (a length or an array; `[]` gives one key).
   * @throws TypeError on a batch (index it first); TypeError/RangeError for a bad `shape`.
   * @example
   * const rng = statefulRng(0);
   * random.keyData(rng.key()).toArray(); // [1797259609, 2579123966] (as in JAX's docs)
   * rng.key(3).shape;                    // [3]
   */
  key(shape?: number | readonly number[]): KeyArray {
    return core.key(this.#s, shape);
  }

  /**
   * A batch of independent generators for mapped code: their base keys are
   * `random.split(this.key(), num)` and their counters start at 0 (JAX's `StatefulPRNG.split`).
   * Drawing from the batch itself throws; index it (`.at(i)`), iterate over it or `map` over it.
   * Each child keeps its own counter, so `gens.at(2)` returns the same generator every time.
   *
   * @param num the batch size, or a batch shape (`[]` gives a single generator).
   * @throws TypeError on a batch; TypeError/RangeError for a bad `num`.
   * @example
   * const gens = statefulRng(0).split(5);
   * gens.map((g, i) => i + g.uniform()); // the proposal's vmap example, as JS numbers
   * const [a, b] = statefulRng(1).split(2);
   */
  split(num: number | readonly number[]): this {
    return sibling(this, core.split(this.#s, num));
  }

  /**
   * `n` independent generators as an array (JAX's and NumPy's `spawn`): base keys
   * `random.split(this.key(), n)`, counters at 0. One counter step for the parent.
   *
   * @throws TypeError on a batch; TypeError/RangeError when `n` is not a non-negative integer.
   * @example
   * const [worker0, worker1] = statefulRng(123).spawn(2);
   */
  spawn(n: number): this[] {
    return core.spawn(this.#s, n).map((s) => sibling(this, s));
  }

  /**
   * Generator `i` along the first axis of a batch (a sub-batch for batches of rank > 1);
   * negative indices count from the end. A child generator is the same object every time (also
   * when reached through sub-batches, iteration or `map`), so its counter carries over.
   *
   * @throws TypeError on a single generator; RangeError for an index out of range.
   * @example
   * const gens = statefulRng(0).split([2, 3]);
   * gens.at(1).at(-1).random(); // the last child of the second row
   */
  at(i: number): this {
    return core.at(this.#s, i, (s) => sibling(this, s));
  }

  /**
   * Iterates over the first axis of a batch (`for (const g of gens)`, `const [a, b] = gens`).
   *
   * @throws TypeError on a single generator.
   */
  *[Symbol.iterator](): Iterator<this> {
    for (let i = 0, n = core.length(this.#s); i < n; i++) yield this.at(i);
  }

  /**
   * `f(gens.at(i), i)` for every i along the first axis of a batch, as an array (the JS
   * counterpart of `jax.vmap` over a split generator).
   *
   * @throws TypeError on a single generator, or when `f` is not a function.
   * @example
   * statefulRng(0).split(3).map((g) => g.normal()); // three numbers
   */
  map<T>(f: (g: this, i: number) => T): T[] {
    checkFunction('Generator.map', 'f', f);
    return Array.from(this, (g, i) => f(g, i));
  }

  /**
   * The generator as plain JSON: implementation, base key words and counter(s). Restoring it
   * with `Generator.fromJSON` continues the sequence exactly (under the same `configure()`
   * modes, which decide the values as they do for every `random` function). Values the
   * generator has buffered for speed are a pure function of key, counter and modes, so they are
   * not part of the state.
   *
   * @example
   * const saved = JSON.stringify(rng);
   * const again = Generator.fromJSON(saved); // draws what rng would draw next
   */
  toJSON(): GeneratorJSON {
    return core.toJSON(this.#s);
  }

  /**
   * A generator from `toJSON`'s output (the object or its JSON text).
   *
   * @throws TypeError/RangeError naming the offending field for anything `toJSON` cannot have made.
   * @example
   * const rng = Generator.fromJSON({ type: 'stochax.Generator', version: 1, impl: 'threefry2x32',
   *   shape: [], key: [0, 1701], counter: 2 });
   */
  static fromJSON<T extends Generator>(this: new (state: GeneratorState) => T, json: unknown): T {
    return new this(core.fromJSON(json));
  }

  toString(): string {
    return core.describe(this.#s);
  }

  /**
   * Uniform floats in [0, 1) (NumPy's `Generator.random`; JAX's `StatefulPRNG.random`):
   * `random.uniform(this.key(), size, { dtype })`. Float64 values are multiples of 2^-52,
   * float32 values multiples of 2^-23.
   *
   * Scalar calls are buffered: a call fills the values of the next counters (24, growing to 384
   * as calls continue) in one pass, two Threefry blocks per value with WebAssembly SIMD when
   * available, and later calls read them as the counter reaches them. The values are exactly
   * those of unbuffered draws, and the counter advances by one per call as usual.
   *
   * @param size output shape (a length or an array); omitted (or null) for one value as a JS number.
   * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
   * @throws TypeError on a batch from `split` (index or map over it), or for a bad `size`;
   *   RangeError for `'float64'` in x32 mode.
   * @example
   * const rng = statefulRng(1701);
   * rng.random();       // a number in [0, 1)
   * rng.random([2, 3]); // → Tensor float64 [2, 3]
   * configure({ x64: false });
   * statefulRng(1701).random(5).toArray(); // [0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055] (float32)
   */
  random(size?: null, options?: FloatOptions): number;
  random(size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  random(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  random(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return basic.random(this.#s, size, options);
  }

  /**
   * Uniform floats in [low, high) (NumPy's `Generator.uniform`, argument order `low, high,
   * size`): JAX's `random.uniform(key(), shape, minval=low, maxval=high)`, i.e.
   * `max(low, f·(high − low) + low)` with f the unit uniform, rounded as XLA does. `low` and
   * `high` broadcast (to `size` when given). Unlike NumPy, `low > high` is an error.
   *
   * @param low lower bound, included (default 0): a number, nested arrays or a Tensor.
   * @param high upper bound, excluded (default 1).
   * @param size output shape; omitted for the parameters' broadcast shape (a JS number when scalar).
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws RangeError for a non-finite bound, `low > high`, or shapes that do not broadcast.
   * @example
   * rng.uniform();                 // a number in [0, 1)
   * rng.uniform(-1, 1, [3]);       // → Tensor float64 [3]
   * rng.uniform([0, 10], 20);      // → Tensor float64 [2]
   */
  uniform(low?: number, high?: number, size?: null, options?: FloatOptions): number;
  uniform(low: ParamLike | undefined, high: ParamLike | undefined, size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  uniform(low?: ParamLike, high?: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  uniform(low: ParamLike = 0, high: ParamLike = 1, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return basic.uniform(this.#s, low, high, size, options);
  }

  /**
   * Normal (Gaussian) samples with mean `loc` and standard deviation `scale` (NumPy's
   * `Generator.normal`, argument order `loc, scale, size`): density
   * exp(−(x − loc)²/(2·scale²))/(scale·√(2π)) on ℝ. Computed as JAX's `StatefulPRNG.normal`:
   * `loc + scale·z` with z = `random.normal(key(), shape)`, the product and the sum each
   * rounded to the dtype. Scalar draws are buffered as `random()`'s are (the same values as
   * unbuffered draws).
   *
   * @param loc mean (default 0), finite.
   * @param scale standard deviation (default 1), finite and ≥ 0.
   * @param size output shape; omitted for the parameters' broadcast shape (a JS number when scalar).
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws RangeError for a negative or non-finite `scale`, a non-finite `loc`, or shapes that do not broadcast.
   * @example
   * rng.normal();              // a number
   * rng.normal(10, 2, [1000]); // → Tensor float64 [1000]
   */
  normal(loc?: number, scale?: number, size?: null, options?: FloatOptions): number;
  normal(loc: ParamLike | undefined, scale: ParamLike | undefined, size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  normal(loc?: ParamLike, scale?: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  normal(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return basic.normal(this.#s, 'Generator.normal', loc, scale, size, options);
  }

  /**
   * Standard normal samples (NumPy's `Generator.standard_normal`): `normal(0, 1, size, options)`.
   *
   * @param size output shape; omitted for one value as a JS number.
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws TypeError for a bad `size`, or on a batch.
   * @example
   * rng.standardNormal();                          // a number
   * rng.standardNormal([2, 2], { dtype: 'float32' }); // → Tensor float32 [2, 2]
   */
  standardNormal(size?: null, options?: FloatOptions): number;
  standardNormal(size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  standardNormal(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  standardNormal(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return basic.normal(this.#s, 'Generator.standardNormal', 0, 1, size, options);
  }

  /**
   * Uniform random integers in [low, high), or [low, high] with `endpoint: true` (NumPy's
   * `Generator.integers`, argument order `low, high, size`; with `high` omitted the range is
   * [0, low)). The values are JAX's `random.randint(key(), shape, low, high, dtype)`, bit for bit.
   * Bounds may be arrays (they broadcast, to `size` when given). As in NumPy, `low >= high`
   * and bounds outside the dtype are errors (JAX would return `low`, or clip).
   *
   * @param low lowest value (or the exclusive upper bound when `high` is omitted): a number,
   *   bigint, nested arrays of them or an integer Tensor.
   * @param high upper bound, excluded unless `endpoint` (omitted or null: see `low`).
   * @param size output shape; omitted for the bounds' broadcast shape (a JS scalar when both are
   *   scalars: a bigint for 64-bit dtypes, a number otherwise).
   * @param options.dtype integer dtype: default `'int64'` in x64 mode, `'int32'` in x32 mode.
   * @param options.endpoint include `high` (default false).
   * @throws TypeError for non-integer bounds; RangeError for `low >= high` (`low > high` with
   *   `endpoint`), bounds outside the dtype, or a 64-bit dtype in x32 mode.
   * @example
   * rng.integers(10);                        // 0n .. 9n in x64 mode (int64), 0 .. 9 in x32
   * rng.integers(1, 7, [5], { dtype: 'int32' }); // → Tensor int32 [5], dice rolls
   * rng.integers(1, 6, null, { endpoint: true, dtype: 'int32' }); // a number in 1..6
   */
  integers(low: number | bigint, high?: number | bigint | null, size?: null, options?: IntegersOptions): number | bigint;
  integers(low: IntLike, high: IntLike | null | undefined, size: number | readonly number[], options?: IntegersOptions): Tensor<IntDType>;
  integers(low: IntLike, high?: IntLike | null, size?: SizeLike, options?: IntegersOptions): number | bigint | Tensor<IntDType>;
  integers(low: IntLike, high?: IntLike | null, size?: SizeLike, options?: IntegersOptions): number | bigint | Tensor<IntDType> {
    return basic.integers(this.#s, low, high, size, options);
  }

  /**
   * `length` random bytes (NumPy's `Generator.bytes`, which returns Python `bytes`): JAX's
   * `random.bits(key(), [length], dtype=uint8)` as a Uint8Array.
   *
   * @throws TypeError/RangeError when `length` is not a non-negative integer at most `MAX_SIZE` (2^28).
   * @example
   * rng.bytes(16); // Uint8Array(16)
   */
  bytes(length: number): Uint8Array {
    return basic.bytes(this.#s, length);
  }

  /**
   * A random sample from `a` (NumPy's `Generator.choice`, argument order `a, size`, options
   * `replace`, `p`, `axis`): `random.choice(key(), a, size, { replace, p, axis })`. With `a` an
   * integer n, samples are from [0, n) in the default int dtype; otherwise slices of `a` along
   * `axis`. The result has shape `a.shape[:axis] + size + a.shape[axis+1:]`; with `size` omitted
   * and a 1-D `a` (or an integer), one value as a JS scalar.
   *
   * As in NumPy, `p` must sum to 1 (within √eps of its dtype), and sampling without replacement
   * needs at least `size` entries with non-zero probability. (NumPy's `shuffle` option is not
   * offered: the order of a sample without replacement is always random.)
   *
   * @throws RangeError for an empty population, bad probabilities, or too many draws without replacement.
   * @example
   * rng.choice(5, [3]);                               // → Tensor int64 [3] (x64 mode)
   * rng.choice(['a', 'b'].length);                    // 0n or 1n
   * rng.choice(3, [10], { p: [0.2, 0.3, 0.5] });
   * rng.choice(tensor([[1, 2], [3, 4], [5, 6]]), 2, { replace: false }); // → two rows
   */
  choice(a: number | Tensor | readonly unknown[], size: number | readonly number[], options?: ChoiceOptions): Tensor;
  choice(a: number | Tensor | readonly unknown[], size?: SizeLike, options?: ChoiceOptions): Scalar | Tensor;
  choice(a: number | Tensor | readonly unknown[], size?: SizeLike, options?: ChoiceOptions): Scalar | Tensor {
    return arrays.choice(this.#s, a, size, options);
  }

  /**
   * Shuffles `x` in place along `axis` (NumPy's `Generator.shuffle`): the order of
   * `random.permutation(key(), x, { axis })`. `x` may be a Tensor (any axis) or a plain JS array
   * or typed array (axis 0 only, as NumPy allows only axis 0 for sequences); the elements of a
   * JS array can be anything. Returns nothing, as NumPy does.
   *
   * @throws TypeError for other kinds of `x`; RangeError for a bad axis or a 0-d Tensor.
   * @example
   * const deck = Array.from({ length: 52 }, (_, i) => i);
   * rng.shuffle(deck);                       // deck is now shuffled
   * rng.shuffle(t, { axis: 1 });             // columns of a Tensor, in place
   */
  shuffle(x: Tensor | unknown[] | TypedArray, options?: { axis?: number }): void {
    return arrays.shuffle(this.#s, x, options);
  }

  /**
   * A copy of `x` with each lane along `axis` shuffled independently (NumPy's
   * `Generator.permuted`): `random.permutation(key(), x, { axis, independent: true })`. Without
   * `axis`, the flattened array is shuffled and reshaped back.
   *
   * @throws TypeError for an `x` that is not an array or Tensor; RangeError for a bad axis.
   * @example
   * rng.permuted(tensor([[1, 2, 3], [4, 5, 6]]), { axis: 1 }); // each row shuffled on its own
   * rng.permuted([1, 2, 3, 4]);                                // → Tensor float64 [4]
   */
  permuted(x: Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
    return arrays.permuted(this.#s, x, options);
  }

  /**
   * A randomly permuted range or copy (NumPy's `Generator.permutation`): for an integer n,
   * `[0, n)` shuffled (default int dtype); for an array, its slices along `axis` shuffled
   * together. `random.permutation(key(), x, { axis })`.
   *
   * @throws TypeError/RangeError for a negative or fractional n, a bad axis or a 0-d array.
   * @example
   * rng.permutation(10);                                 // → Tensor int64 [10] (x64 mode)
   * rng.permutation(tensor([[1, 2], [3, 4]]), { axis: 1 }); // columns permuted
   */
  permutation(x: number | Tensor | readonly unknown[], options?: { axis?: number }): Tensor {
    return arrays.permutation(this.#s, x, options);
  }

  /**
   * Exponential samples with mean `scale` (NumPy's `Generator.exponential(scale=1, size)`):
   * density e^(−x/scale)/scale on [0, ∞). `scale · random.exponential(key(), shape)`.
   *
   * @param scale β ≥ 0, finite (default 1).
   * @param size output shape; omitted for `scale`'s shape (a JS number when scalar).
   * @throws RangeError for a negative or non-finite `scale`, or shapes that do not broadcast.
   * @example
   * rng.exponential();          // a number
   * rng.exponential(2, [1000]); // → Tensor float64 [1000], mean ≈ 2
   */
  exponential(scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.exponential(this.#s, scale, size);
  }

  /**
   * Standard exponential samples (NumPy's `Generator.standard_exponential(size, dtype)`):
   * density e^(−x) on [0, ∞). `random.exponential(key(), shape, { dtype })`.
   *
   * @example
   * rng.standardExponential([3], { dtype: 'float32' }); // → Tensor float32 [3]
   */
  standardExponential(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return continuous.standardExponential(this.#s, size, options);
  }

  /**
   * Gamma samples with shape k and scale θ (NumPy's `Generator.gamma(shape, scale=1, size)`):
   * density x^(k−1)·e^(−x/θ)/(Γ(k)·θ^k) on (0, ∞). `scale · random.gamma(key(), shape)`
   * (Marsaglia–Tsang with JAX's per-element keys).
   *
   * @param shape k ≥ 0, finite (k = 0 gives 0).
   * @param scale θ ≥ 0, finite (default 1).
   * @throws RangeError for negative or non-finite parameters, or shapes that do not broadcast.
   * @example
   * rng.gamma(2, 3);        // a number, mean 6
   * rng.gamma([0.5, 5], 1); // → Tensor float64 [2]
   */
  gamma(shape: ParamLike, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.gamma(this.#s, shape, scale, size);
  }

  /**
   * Standard gamma samples (NumPy's `Generator.standard_gamma(shape, size, dtype)`): `gamma`
   * with scale 1, `random.gamma(key(), shape, size, { dtype })`.
   *
   * @param shape k ≥ 0, finite.
   * @example
   * rng.standardGamma(0.5, [4]); // → Tensor float64 [4]
   */
  standardGamma(shape: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return continuous.standardGamma(this.#s, shape, size, options);
  }

  /**
   * Beta samples (NumPy's `Generator.beta(a, b, size)`): density x^(a−1)(1−x)^(b−1)/B(a, b) on
   * [0, 1]. `random.beta(key(), a, b, shape)`.
   *
   * @param a α > 0, finite.
   * @param b β > 0, finite.
   * @example
   * rng.beta(2, 5, [3]); // → Tensor float64 [3]
   */
  beta(a: ParamLike, b: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.beta(this.#s, a, b, size);
  }

  /**
   * Laplace (double exponential) samples (NumPy's `Generator.laplace(loc=0, scale=1, size)`):
   * density e^(−|x−μ|/λ)/(2λ). `loc + scale · random.laplace(key(), shape)`.
   *
   * @param loc μ, finite (default 0).
   * @param scale λ ≥ 0, finite (default 1).
   * @example
   * rng.laplace(0, 2, [3]); // → Tensor float64 [3]
   */
  laplace(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.laplace(this.#s, loc, scale, size);
  }

  /**
   * Logistic samples (NumPy's `Generator.logistic(loc=0, scale=1, size)`): density
   * e^(−(x−μ)/s)/(s(1 + e^(−(x−μ)/s))²). `loc + scale · random.logistic(key(), shape)`.
   *
   * @param loc μ, finite (default 0).
   * @param scale s ≥ 0, finite (default 1).
   * @example
   * rng.logistic(1, 0.5); // a number
   */
  logistic(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.logistic(this.#s, loc, scale, size);
  }

  /**
   * Log-normal samples (NumPy's `Generator.lognormal(mean=0, sigma=1, size)`): exp(mean + sigma·z)
   * for z = `random.normal(key(), shape)`, the mean and standard deviation of the underlying
   * normal. (JAX's `random.lognormal(key, sigma)` is the `mean = 0` case.)
   *
   * @param mean μ of log x, finite (default 0).
   * @param sigma σ ≥ 0 of log x, finite (default 1).
   * @example
   * rng.lognormal(0, 0.25, [3]); // → Tensor float64 [3]
   */
  lognormal(mean: ParamLike = 0, sigma: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.lognormal(this.#s, mean, sigma, size);
  }

  /**
   * Chi-square samples (NumPy's `Generator.chisquare(df, size)`): density ∝ x^(ν/2−1)e^(−x/2)
   * on (0, ∞). `random.chisquare(key(), df, shape)`.
   *
   * @param df ν > 0, finite.
   * @example
   * rng.chisquare(3, [4]); // → Tensor float64 [4]
   */
  chisquare(df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.chisquare(this.#s, df, size);
  }

  /**
   * Student's t samples (NumPy's `Generator.standard_t(df, size)`): density
   * ∝ (1 + x²/ν)^(−(ν+1)/2) on ℝ. `random.t(key(), df, shape)`.
   *
   * @param df ν > 0, finite.
   * @example
   * rng.standardT(5); // a number
   */
  standardT(df: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.standardT(this.#s, df, size);
  }

  /**
   * Standard Cauchy samples (NumPy's `Generator.standard_cauchy(size)`): density 1/(π(1 + x²)).
   * `random.cauchy(key(), shape)`.
   *
   * @example
   * rng.standardCauchy([3]); // → Tensor float64 [3]
   */
  standardCauchy(size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.standardCauchy(this.#s, size);
  }

  /**
   * Pareto II (Lomax) samples, NumPy's `Generator.pareto(a, size)`: density a/(1 + x)^(a+1) on
   * [0, ∞), i.e. a classical Pareto with x_m = 1, shifted by −1. This is JAX's
   * `random.pareto(key(), b=a) − 1` (JAX's is the classical Pareto on [1, ∞)), computed as
   * `expm1(e/a)` from the same exponential draw e, so small values keep their precision.
   *
   * @param a shape > 0, finite.
   * @example
   * rng.pareto(3, [4]); // → Tensor float64 [4], values ≥ 0
   */
  pareto(a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.pareto(this.#s, a, size);
  }

  /**
   * Weibull samples with shape a and scale 1 (NumPy's `Generator.weibull(a, size)`): density
   * a·x^(a−1)·e^(−x^a) on [0, ∞). JAX's `random.weibullMin(key(), scale=1, concentration=a)`;
   * a = 0 gives 0, as in NumPy.
   *
   * @param a shape ≥ 0, finite.
   * @example
   * rng.weibull(1.5, [4]); // → Tensor float64 [4]
   */
  weibull(a: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.weibull(this.#s, a, size);
  }

  /**
   * Rayleigh samples (NumPy's `Generator.rayleigh(scale=1, size)`): density
   * (x/σ²)·e^(−x²/(2σ²)) on [0, ∞). `scale · random.rayleigh(key(), 1, shape)`.
   *
   * @param scale σ ≥ 0, finite (default 1).
   * @example
   * rng.rayleigh(2, [3]); // → Tensor float64 [3]
   */
  rayleigh(scale: ParamLike = 1, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.rayleigh(this.#s, scale, size);
  }

  /**
   * Triangular samples (NumPy's `Generator.triangular(left, mode, right, size)`): density rising
   * linearly from `left` to a peak at `mode`, then falling to `right`.
   * `random.triangular(key(), left, mode, right, shape)`.
   *
   * @param left lower limit, finite.
   * @param mode peak, left ≤ mode ≤ right.
   * @param right upper limit, left < right.
   * @throws RangeError for non-finite limits, `left >= right`, or a mode outside [left, right].
   * @example
   * rng.triangular(0, 1, 3, [4]); // → Tensor float64 [4]
   */
  triangular(left: ParamLike, mode: ParamLike, right: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.triangular(this.#s, left, mode, right, size);
  }

  /**
   * Wald (inverse Gaussian) samples with mean μ and shape λ (NumPy's `Generator.wald(mean,
   * scale, size)`, where `scale` is λ): density √(λ/(2πx³))·exp(−λ(x − μ)²/(2μ²x)) on (0, ∞).
   * JAX's `random.wald(key, m)` is the inverse Gaussian IG(m, 1) (mean m, shape 1), and
   * λ·IG(μ/λ, 1) is IG(μ, λ), so this is `scale · random.wald(key(), mean / scale, shape)`.
   *
   * @param mean μ > 0, finite.
   * @param scale λ > 0, finite.
   * @example
   * rng.wald(1, 3, [4]); // → Tensor float64 [4], mean 1
   */
  wald(mean: ParamLike, scale: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.wald(this.#s, mean, scale, size);
  }

  /**
   * F (Fisher–Snedecor) samples (NumPy's `Generator.f(dfnum, dfden, size)`):
   * `random.f(key(), dfnum, dfden, shape)`.
   *
   * @param dfnum numerator degrees of freedom, > 0.
   * @param dfden denominator degrees of freedom, > 0.
   * @example
   * rng.f(5, 10, [3]); // → Tensor float64 [3]
   */
  f(dfnum: ParamLike, dfden: ParamLike, size?: SizeLike): number | Tensor<FloatDType> {
    return continuous.f(this.#s, dfnum, dfden, size);
  }

  /**
   * Binomial counts (NumPy's `Generator.binomial(n, p, size)`): P(k) = C(n, k)·p^k·(1−p)^(n−k)
   * on k = 0..n. `random.binomial(key(), n, p, shape)`, returned in the default int dtype (as
   * NumPy returns int64): a bigint scalar in x64 mode, a number in x32 mode.
   *
   * @param n number of trials, a non-negative integer.
   * @param p success probability in [0, 1].
   * @example
   * rng.binomial(10, 0.5);        // 0n .. 10n (x64 mode)
   * rng.binomial(100, 0.3, [4]);  // → Tensor int64 [4]
   */
  binomial(n: ParamLike, p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
    return discrete.binomial(this.#s, n, p, size);
  }

  /**
   * Poisson counts (NumPy's `Generator.poisson(lam=1, size)`): P(k) = λ^k·e^(−λ)/k! on k ≥ 0.
   * `random.poisson(key(), lam, shape)` (JAX draws with a float32 λ) in the default int dtype,
   * for λ up to 10⁵; larger rates are drawn in float64 by transformed rejection from
   * `foldIn(key(), 'pois')` (the others still from `random.poisson`, with those rates as 0).
   *
   * @param lam λ ≥ 0, at most NumPy's `POISSON_LAM_MAX` ≈ 9.2234e18 (default 1).
   * @throws RangeError for a negative λ, or a λ above that limit (NumPy: "lam value too large").
   * @example
   * rng.poisson(4, [5]); // → Tensor int64 [5]
   */
  poisson(lam: ParamLike = 1, size?: SizeLike): Scalar | Tensor<IntDType> {
    return discrete.poisson(this.#s, lam, size);
  }

  /**
   * Geometric counts (NumPy's `Generator.geometric(p, size)`): the number of Bernoulli(p)
   * trials up to and including the first success, P(k) = p(1−p)^(k−1) on k = 1, 2, …
   * `random.geometric(key(), p, shape)` in the default int dtype.
   *
   * @param p success probability in (0, 1].
   * @example
   * rng.geometric(0.25); // 1n, 2n, ... (x64 mode)
   */
  geometric(p: ParamLike, size?: SizeLike): Scalar | Tensor<IntDType> {
    return discrete.geometric(this.#s, p, size);
  }

  /**
   * Multinomial counts (NumPy's `Generator.multinomial(n, pvals, size)`): n trials over the k
   * categories of `pvals`' last axis. As in NumPy, the last probability is taken to be
   * 1 − sum(pvals[..., :-1]) (so `pvals` need only sum to 1 up to rounding, and
   * sum(pvals[..., :-1]) must not exceed 1), `size` is the batch shape and the result has shape
   * `[...size, k]` in the default int dtype. Drawn by `random.multinomial(key(), n, pvals')`
   * (JAX's sequential conditional binomials).
   *
   * @param n number of trials: a non-negative integer, or an array broadcasting to the batch shape.
   * @param pvals probabilities, shape `[..., k]`, each in [0, 1].
   * @param size batch shape; omitted for the broadcast of `n` and `pvals[..., 0]`.
   * @example
   * rng.multinomial(20, [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]); // → Tensor int64 [6]
   * rng.multinomial([10, 100], [0.5, 0.5], [2]);                     // → Tensor int64 [2, 2]
   */
  multinomial(n: ParamLike, pvals: ParamLike, size?: SizeLike): Tensor<IntDType> {
    return discrete.multinomial(this.#s, n, pvals, size);
  }

  /**
   * Dirichlet samples (NumPy's `Generator.dirichlet(alpha, size)`): density ∝ ∏ x_i^(α_i−1) on
   * the simplex. `random.dirichlet(key(), alpha, size)`; `size` is the batch shape and the result
   * has shape `[...size, k]` (NumPy's convention; `alpha` may also carry batch axes).
   *
   * @param alpha concentrations > 0, shape `[..., k]`.
   * @example
   * rng.dirichlet([1, 1, 1]);      // → Tensor float64 [3], sums to 1
   * rng.dirichlet([0.5, 2], [4]);  // → Tensor float64 [4, 2]
   */
  dirichlet(alpha: ParamLike, size?: SizeLike): Tensor<FloatDType> {
    return discrete.dirichlet(this.#s, alpha, size);
  }

  /**
   * Multivariate normal samples (NumPy's `Generator.multivariate_normal(mean, cov, size,
   * method)`): density (2π)^(−n/2)·det(Σ)^(−1/2)·exp(−½(x−μ)ᵀΣ⁻¹(x−μ)).
   * `random.multivariateNormal(key(), mean, cov, size, { method })`; `size` is the batch shape
   * and the result has shape `[...size, n]`. The default method is JAX's `'cholesky'` (NumPy's
   * is `'svd'`; pass `{ method: 'svd' }` or `'eigh'` for a singular covariance). NumPy's
   * `check_valid` and `tol` are not offered: a covariance that is not symmetric positive
   * (semi-)definite is always an error.
   *
   * @param mean μ, shape `[..., n]`.
   * @param cov Σ, shape `[..., n, n]`, symmetric positive definite (semi-definite for 'svd'/'eigh').
   * @param options.method `'cholesky'` (default), `'eigh'` or `'svd'`.
   * @example
   * rng.multivariateNormal([0, 0], [[1, 0.5], [0.5, 1]], [100]); // → Tensor float64 [100, 2]
   */
  multivariateNormal(mean: ParamLike, cov: ParamLike, size?: SizeLike, options?: { method?: MvnMethod }): Tensor<FloatDType> {
    return discrete.multivariateNormal(this.#s, mean, cov, size, options);
  }
}

/** A new generator of `g`'s class (so `split` on a subclass of Generator makes instances of it). */
function sibling<G extends Generator>(g: G, state: GeneratorState): G {
  return new (g.constructor as new (s: GeneratorState) => G)(state);
}
