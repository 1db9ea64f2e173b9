/**
 * The Generator's state and key handling: a base key and a counter, one fresh key per draw,
 * `key()`, `split`, `spawn`, batches (indexing, JSON counters), and JSON round trips. The
 * `Generator` class (generator.ts) holds one `State` and its methods call the functions here
 * and in basic.ts, arrays.ts, continuous.ts and discrete.ts.
 */
import { checkInteger, checkNonNegativeInteger, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { ImplName, PrngImpl } from '../random/impl.js';
import { IMPLS, KeyArray, splitBatch, splitKeys } from '../random/key-array.js';
import { sizeOf } from '../tensor/shapes.js';
import { ScalarBuffer } from './unit-cache.js';

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

/** A child generator as the batch sees it: only its counter (for `toJSON`). */
interface Child {
  readonly counter: number;
}

/** Children of a batch, shared by the batch and its sub-batches; created on first access. */
interface Kids {
  readonly list: (Child | undefined)[];
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

/** A generator's live state: base key, counter, batch bookkeeping and the scalar buffers. */
export interface State {
  /** The key implementation of the base key. */
  readonly impl: PrngImpl;
  /** Base key words (`impl.keyWords` per generator). */
  readonly words: Uint32Array;
  readonly shape: readonly number[];
  readonly kids: Kids | undefined;
  readonly offset: number;
  /**
   * Keys drawn so far (single generators). A JS number, exact to 2^53; the key for a draw folds
   * in its low 32 bits (JAX's `fold_in` takes the counter as uint32).
   */
  count: number;
  // Buffered scalar draws: `vals[i]` is the scalar uniform (or standard normal) of counter
  // `start + i` in `dtype` under `modes`. A pure function of the base key and the counter, filled
  // for counters the generator has not reached yet and read only when the counter gets there,
  // so the values are those of unbuffered draws.
  readonly uniforms: ScalarBuffer;
  normals: ScalarBuffer | null;
}

export function newState(s: GeneratorState): State {
  return {
    impl: s.impl, words: s.words, shape: Object.freeze([...s.shape]), kids: s.kids, offset: s.offset ?? 0,
    count: s.counter ?? 0, uniforms: new ScalarBuffer(false), normals: null,
  };
}

/** Throws the batch error unless this is a single generator. */
export function single(st: State, fn: string): void {
  if (st.shape.length !== 0) {
    throw new TypeError(
      `${fn}: this Generator is a batch of shape [${st.shape.join(', ')}] (from split()); draw from one ` +
      'generator at a time: index it (gens.at(i)), iterate over it (for (const g of gens)) or map over it ' +
      '(gens.map((g, i) => ...))',
    );
  }
}

/**
 * One draw: `body` gets the next key, `foldIn(baseKey, counter mod 2^32)`, and the modes; the
 * counter advances only if it returns (so a call rejected for bad arguments leaves the
 * generator as it was).
 */
export function draw<T>(st: State, fn: string, body: (key: KeyArray, modes: Modes) => T): T {
  single(st, fn);
  const modes = getModes();
  const out = body(new KeyArray(st.impl, st.impl.foldIn(st.words, st.count >>> 0, modes), []), modes);
  st.count++;
  return out;
}

/** `Generator.counter`. */
export function counter(st: State): number {
  single(st, 'Generator.counter');
  return st.count;
}

/** `Generator.key`: the next key, or that key split into `shape`. */
export function key(st: State, shape: number | readonly number[] | undefined): KeyArray {
  const fn = 'Generator.key';
  const s = shape === undefined ? [] : checkShape(fn, 'shape', shape);
  return draw(st, fn, (k, modes) => (s.length === 0 ? k : splitBatch(k, s, modes)));
}

/** `Generator.split`: the state of a single child or of a batch with fresh children. */
export function split(st: State, num: number | readonly number[]): GeneratorState {
  const fn = 'Generator.split';
  const s = checkShape(fn, 'num', num);
  return draw(st, fn, (k, modes) => {
    if (s.length === 0) return { impl: st.impl, words: k.data, shape: [] };
    const words = splitBatch(k, s, modes).data;
    return { impl: st.impl, words, shape: s, kids: { list: new Array(sizeOf(s)).fill(undefined), initial: null } };
  });
}

/** `Generator.spawn`: the states of `n` single children. */
export function spawn(st: State, n: number): GeneratorState[] {
  const fn = 'Generator.spawn';
  checkNonNegativeInteger(fn, 'n', n);
  return draw(st, fn, (k, modes) => splitKeys(k, n, modes).map((child) => ({ impl: st.impl, words: child.data, shape: [] })));
}

/**
 * `Generator.at`: entry `i` of the first axis, a sub-batch (made by `make` each time) or a
 * child (made by `make` once and kept in the batch's shared list).
 */
export function at<G extends Child>(st: State, i: number, make: (s: GeneratorState) => G): G {
  const fn = 'Generator.at';
  const shape = st.shape;
  if (shape.length === 0) throw new TypeError(`${fn}: a single generator (shape []) cannot be indexed; only a batch from split() can`);
  const n = shape[0]!;
  checkInteger(fn, 'i', i);
  if (i < -n || i >= n) fail('range', fn, 'i', `must be an index in [${-n}, ${n})`, i);
  const j = i < 0 ? i + n : i;
  const kids = st.kids!;
  const inner = sizeOf(shape) / n;
  const w = st.impl.keyWords;
  const start = st.offset + j * inner;
  if (shape.length > 1) {
    const words = st.words.subarray(j * inner * w, (j + 1) * inner * w);
    return make({ impl: st.impl, words, shape: shape.slice(1), kids, offset: start });
  }
  let kid = kids.list[start] as G | undefined;
  if (kid === undefined) {
    kid = make({ impl: st.impl, words: st.words.slice(j * w, (j + 1) * w), shape: [], counter: kids.initial?.[start] ?? 0 });
    kids.list[start] = kid;
  }
  return kid;
}

/** The length of a batch's first axis, for iteration; throws on a single generator. */
export function length(st: State): number {
  if (st.shape.length === 0) {
    throw new TypeError('Generator: a single generator is not iterable; split(n) makes a batch of n generators');
  }
  return st.shape[0]!;
}

/** `Generator.toJSON`. */
export function toJSON(st: State): GeneratorJSON {
  const common = { type: 'stochax.Generator' as const, version: 1 as const, impl: st.impl.name, shape: [...st.shape], key: Array.from(st.words) };
  if (st.shape.length === 0) return { ...common, counter: st.count };
  const kids = st.kids!;
  const counter = Array.from({ length: sizeOf(st.shape) }, (_, i) => {
    const k = st.offset + i;
    const kid = kids.list[k];
    return kid !== undefined ? kid.counter : kids.initial?.[k] ?? 0;
  });
  return { ...common, counter };
}

/** `Generator.fromJSON`: the construction state, every field checked. */
export function fromJSON(json: unknown): GeneratorState {
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
  if (shape.length === 0) return { impl, words, shape, counter: count(o.counter, 'json.counter') };
  if (!Array.isArray(o.counter) || o.counter.length !== n) fail('range', fn, 'json.counter', `must be an array of ${n} counters`, o.counter);
  const initial = Float64Array.from(o.counter as unknown[], (c, i) => count(c, `json.counter[${i}]`));
  return { impl, words, shape, kids: { list: new Array(n).fill(undefined), initial } };
}

/** `Generator.toString`. */
export function describe(st: State): string {
  return st.shape.length === 0
    ? `Generator(${st.impl.name}, counter ${st.count})`
    : `Generator(${st.impl.name}, batch [${st.shape.join(', ')}])`;
}

/** `Generator.baseKey`: a copy of the base key(s). */
export function baseKey(st: State): KeyArray {
  return new KeyArray(st.impl, st.words.slice(), st.shape);
}
