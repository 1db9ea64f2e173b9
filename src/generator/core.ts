/**
 * The Generator's state and key handling: a base key and a counter, `key()`, `split`, `spawn`,
 * batches (indexing, iteration, `map`), and JSON round trips. The sampling methods are added by
 * the subclasses in basic.ts, arrays.ts, continuous.ts and discrete.ts; `Generator` itself is
 * in generator.ts.
 */
import { checkFunction, checkInteger, checkNonNegativeInteger, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { ImplName, PrngImpl } from '../random/impl.js';
import { IMPLS, KeyArray, splitKeys } from '../random/key-array.js';
import { sizeOf } from '../tensor/shapes.js';

/** A Generator as plain JSON (`toJSON` / `Generator.fromJSON`). */
export interface GeneratorJSON {
  /** Always `'stochax.Generator'`. */
  readonly type: 'stochax.Generator';
  /** Format version, 1. */
  readonly version: 1;
  /** The key implementation. */
  readonly impl: ImplName;
  /** `[]` for a single generator; the batch shape for one made by `split`. */
  readonly shape: readonly number[];
  /** Base key words (uint32), row-major: `keyWords` words per generator. */
  readonly key: readonly number[];
  /** Keys drawn so far: a number for a single generator, one per generator (row-major) for a batch. */
  readonly counter: number | readonly number[];
}

/** Children of a batch, shared by the batch and its sub-batches; created on first access. */
interface Kids {
  readonly list: (GeneratorCore | undefined)[];
  /** Counters for children not created yet (from `fromJSON`), else all 0. */
  readonly initial: Float64Array | null;
}

/**
 * Construction state. Not part of the public API: make generators with `statefulRng`,
 * `defaultRng`, `split`, `spawn` or `Generator.fromJSON`.
 */
export interface GeneratorState {
  readonly impl: PrngImpl;
  /** Base key words, `impl.keyWords` per generator. */
  readonly words: Uint32Array;
  readonly shape: readonly number[];
  /** Initial counter (single generators). */
  readonly counter?: number;
  /** Batches: the shared children and this (sub-)batch's first flat index in them. */
  readonly kids?: Kids;
  readonly offset?: number;
}

/**
 * Base class of `Generator`: holds `baseKey` and a counter, and makes one fresh key per draw
 * (`foldIn(baseKey, counter)`, then `counter + 1`). See `Generator` for the whole API.
 */
export class GeneratorCore {
  /** The key implementation of the base key. */
  protected readonly impl: PrngImpl;
  /** Base key words (`impl.keyWords` per generator). */
  protected readonly words: Uint32Array;
  readonly #shape: readonly number[];
  readonly #kids: Kids | undefined;
  readonly #offset: number;
  /**
   * Keys drawn so far (single generators). A JS number, exact to 2^53; the key for a draw folds
   * in its low 32 bits (JAX's `fold_in` takes the counter as uint32).
   */
  protected count: number;

  /** @internal Use `statefulRng`, `defaultRng`, `split`, `spawn` or `Generator.fromJSON`. */
  constructor(state: GeneratorState) {
    this.impl = state.impl;
    this.words = state.words;
    this.#shape = Object.freeze([...state.shape]);
    this.#kids = state.kids;
    this.#offset = state.offset ?? 0;
    this.count = state.counter ?? 0;
  }

  /** A new generator of this class (so `split` on a `Generator` makes `Generator`s). */
  protected make(state: GeneratorState): this {
    return new (this.constructor as new (s: GeneratorState) => this)(state);
  }

  /** `[]` for a single generator; the batch shape for a batch made by `split(num)`. */
  get shape(): readonly number[] {
    return this.#shape;
  }

  /** Rank of `shape`: 0 for a single generator. */
  get ndim(): number {
    return this.#shape.length;
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
    this.single('Generator.counter');
    return this.count;
  }

  /**
   * The base key (a copy): shape `[]` for a single generator, the batch shape for a batch.
   *
   * @example
   * random.keyData(statefulRng(1701).baseKey).toArray(); // the words of random.key(1701)
   */
  get baseKey(): KeyArray {
    return new KeyArray(this.impl, this.words.slice(), this.#shape);
  }

  /** Throws the batch error unless this is a single generator. */
  protected single(fn: string): void {
    if (this.#shape.length !== 0) {
      throw new TypeError(
        `${fn}: this Generator is a batch of shape [${this.#shape.join(', ')}] (from split()); draw from one ` +
        'generator at a time: index it (gens.at(i)), iterate over it (for (const g of gens)) or map over it ' +
        '(gens.map((g, i) => ...))',
      );
    }
  }

  /** The key of the next draw, `foldIn(baseKey, counter mod 2^32)`, without advancing. */
  protected peekKey(modes: Modes): KeyArray {
    return new KeyArray(this.impl, this.impl.foldIn(this.words, this.count >>> 0, modes), []);
  }

  /**
   * One draw: `body` gets the next key and the modes; the counter advances only if it returns
   * (so a call rejected for bad arguments leaves the generator as it was).
   */
  protected draw<T>(fn: string, body: (key: KeyArray, modes: Modes) => T): T {
    this.single(fn);
    const modes = getModes();
    const out = body(this.peekKey(modes), modes);
    this.count++;
    return out;
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
    const fn = 'Generator.key';
    const s = shape === undefined ? [] : checkShape(fn, 'shape', shape);
    return this.draw(fn, (k, modes) => (s.length === 0 ? k : new KeyArray(k.impl, k.impl.split(k.data, sizeOf(s), modes), s)));
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
    const fn = 'Generator.split';
    const s = checkShape(fn, 'num', num);
    const n = sizeOf(s);
    return this.draw(fn, (k, modes) => {
      if (s.length === 0) return this.make({ impl: this.impl, words: k.data, shape: [] });
      const words = this.impl.split(k.data, n, modes);
      return this.make({ impl: this.impl, words, shape: s, kids: { list: new Array(n).fill(undefined), initial: null } });
    });
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
    const fn = 'Generator.spawn';
    checkNonNegativeInteger(fn, 'n', n);
    return this.draw(fn, (k, modes) => {
      return splitKeys(k, n, modes).map((child) => this.make({ impl: this.impl, words: child.data, shape: [] }));
    });
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
    const fn = 'Generator.at';
    const shape = this.#shape;
    if (shape.length === 0) throw new TypeError(`${fn}: a single generator (shape []) cannot be indexed; only a batch from split() can`);
    const n = shape[0]!;
    checkInteger(fn, 'i', i);
    if (i < -n || i >= n) fail('range', fn, 'i', `must be an index in [${-n}, ${n})`, i);
    const j = i < 0 ? i + n : i;
    const kids = this.#kids!;
    const inner = sizeOf(shape) / n;
    const w = this.impl.keyWords;
    const start = this.#offset + j * inner;
    if (shape.length > 1) {
      const words = this.words.subarray(j * inner * w, (j + 1) * inner * w);
      return this.make({ impl: this.impl, words, shape: shape.slice(1), kids, offset: start });
    }
    let kid = kids.list[start] as this | undefined;
    if (kid === undefined) {
      kid = this.make({ impl: this.impl, words: this.words.slice(j * w, (j + 1) * w), shape: [], counter: kids.initial?.[start] ?? 0 });
      kids.list[start] = kid;
    }
    return kid;
  }

  /**
   * Iterates over the first axis of a batch (`for (const g of gens)`, `const [a, b] = gens`).
   *
   * @throws TypeError on a single generator.
   */
  *[Symbol.iterator](): Iterator<this> {
    if (this.#shape.length === 0) {
      throw new TypeError('Generator: a single generator is not iterable; split(n) makes a batch of n generators');
    }
    for (let i = 0; i < this.#shape[0]!; i++) yield this.at(i);
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
    const out: T[] = [];
    let i = 0;
    for (const g of this) out.push(f(g, i++));
    return out;
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
    const common = { type: 'stochax.Generator' as const, version: 1 as const, impl: this.impl.name, shape: [...this.#shape], key: Array.from(this.words) };
    if (this.#shape.length === 0) return { ...common, counter: this.count };
    const kids = this.#kids!;
    const counter = Array.from({ length: sizeOf(this.#shape) }, (_, i) => {
      const k = this.#offset + i;
      const kid = kids.list[k];
      return kid !== undefined ? kid.count : kids.initial?.[k] ?? 0;
    });
    return { ...common, counter };
  }

  /**
   * A generator from `toJSON`'s output (the object or its JSON text).
   *
   * @throws TypeError/RangeError naming the offending field for anything `toJSON` cannot have made.
   * @example
   * const rng = Generator.fromJSON({ type: 'stochax.Generator', version: 1, impl: 'threefry2x32',
   *   shape: [], key: [0, 1701], counter: 2 });
   */
  static fromJSON<T extends GeneratorCore>(this: new (state: GeneratorState) => T, json: unknown): T {
    const fn = 'Generator.fromJSON';
    let j = json;
    if (typeof j === 'string') {
      try { j = JSON.parse(j); } catch { fail('type', fn, 'json', 'must be JSON text of a Generator', json); }
    }
    if (j === null || typeof j !== 'object' || Array.isArray(j)) fail('type', fn, 'json', 'must be an object from Generator.toJSON (or its JSON text)', json);
    const o = j as Record<string, unknown>;
    if (o.type !== 'stochax.Generator') fail('range', fn, 'json.type', "must be 'stochax.Generator'", o.type);
    if (o.version !== 1) fail('range', fn, 'json.version', 'must be 1', o.version);
    if (typeof o.impl !== 'string' || !Object.hasOwn(IMPLS, o.impl)) {
      fail('range', fn, 'json.impl', `must be one of ${Object.keys(IMPLS).map((n) => `'${n}'`).join(', ')}`, o.impl);
    }
    const impl = IMPLS[o.impl as ImplName];
    const shape = checkShape(fn, 'json.shape', o.shape);
    const n = sizeOf(shape);
    if (!Array.isArray(o.key) || o.key.length !== n * impl.keyWords) {
      fail('range', fn, 'json.key', `must be an array of ${n * impl.keyWords} uint32 words`, o.key);
    }
    const words = new Uint32Array(o.key.length);
    o.key.forEach((w: unknown, i: number) => {
      if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w >= 2 ** 32) fail('range', fn, `json.key[${i}]`, 'must be a uint32 word', w);
      words[i] = w;
    });
    const count = (c: unknown, arg: string): number => {
      if (typeof c !== 'number' || !Number.isSafeInteger(c) || c < 0) fail('range', fn, arg, 'must be a non-negative safe integer', c);
      return c;
    };
    if (shape.length === 0) return new this({ impl, words, shape, counter: count(o.counter, 'json.counter') });
    if (!Array.isArray(o.counter) || o.counter.length !== n) fail('range', fn, 'json.counter', `must be an array of ${n} counters`, o.counter);
    const initial = Float64Array.from(o.counter as unknown[], (c, i) => count(c, `json.counter[${i}]`));
    return new this({ impl, words, shape, kids: { list: new Array(n).fill(undefined), initial } });
  }

  toString(): string {
    return this.#shape.length === 0
      ? `Generator(${this.impl.name}, counter ${this.count})`
      : `Generator(${this.impl.name}, batch [${this.#shape.join(', ')}])`;
  }
}
