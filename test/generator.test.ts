/**
 * The stateful Generator (src/generator.ts): the stateful-RNG proposal's known answers and JAX's
 * docstring examples, bit-exact replay of JAX 0.10.2's own `stateful_rng` sequences in all four
 * modes (test/fixtures/jax-stateful-rng.json, written by the script beside it), the buffered
 * scalar path against unbuffered draws, counter semantics, batches from `split`, JSON round
 * trips and bad input. Distributions and NumPy parametrisations: test/generator-distributions.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configure } from '../src/config.js';
import { defaultRng, Generator, statefulRng } from '../src/generator.js';
import { setWasmEnabled } from '../src/prng/wasm.js';
import * as random from '../src/random/index.js';
import { KeyArray } from '../src/random/key-array.js';
import { Tensor, tensor } from '../src/tensor/tensor.js';
import { ALL_MODES, f32Bits, withModes } from './helpers.js';

const X32 = { x64: false, threefryPartitionable: true } as const;
const f32 = (xs: number[]) => xs.map(Math.fround);
const toNumbers = (t: Tensor) => Array.from(t.data as Float32Array, Number);

describe('known answers from the stateful-RNG proposal and JAX docstrings (x32, partitionable)', () => {
  it('statefulRng(1701).random([5]) twice: the proposal rows, bit for bit', () => {
    withModes(X32, () => {
      const rng = statefulRng(1701);
      const a = rng.random([5], { dtype: 'float32' });
      expect(a.dtype).toBe('float32');
      expect(toNumbers(a)).toEqual(f32([0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055]));
      expect(toNumbers(rng.random([5], { dtype: 'float32' }))).toEqual(f32([0.8131045, 0.33873856, 0.88808906, 0.96005905, 0.7616446]));
      expect(rng.counter).toBe(2);
    });
  });

  it('the split(5) vmap example: i + child_i.uniform()', () => {
    withModes(X32, () => {
      const children = statefulRng(0).split(5);
      const got = children.map((g, i) => Math.fround(i + g.uniform()));
      expect(got).toEqual(f32([0.07174575, 1.0163325, 2.0435536, 3.4391735, 4.534091]));
    });
  });

  it('stateful_rng docstrings: uniform() draws and key() words of seed 42, key() of seed 0', () => {
    withModes(X32, () => {
      const rng = statefulRng(42);
      expect([rng.uniform(), rng.uniform(), rng.uniform(), rng.uniform()]).toEqual(f32([0.5302608, 0.72766423, 0.6672406, 0.3890121]));
      expect(random.keyData(rng.key()).toArray()).toEqual([2954079971, 3276725750]);
      expect(random.keyData(rng.key()).toArray()).toEqual([2765691542, 824333390]);
      const zero = statefulRng(0);
      expect(random.keyData(zero.key()).toArray()).toEqual([1797259609, 2579123966]);
      expect(random.keyData(zero.key()).toArray()).toEqual([928981903, 3453687069]);
    });
  });

  it('split and spawn docstrings (seed 123)', () => {
    withModes(X32, () => {
      expect(statefulRng(123).split(3).map((g) => g.uniform())).toEqual(f32([0.35525954, 0.21937883, 0.5336956]));
      const kids = statefulRng(123).spawn(2);
      expect(kids.map((g) => (g.integers(0, 10, 2) as Tensor).toArray())).toEqual([[4, 5], [2, 1]]);
    });
  });

  it('defaultRng is the same generator as statefulRng', () => {
    expect(defaultRng(7).random([4]).toArray()).toEqual(statefulRng(7).random([4]).toArray());
  });
});

// ---------------------------------------------------------------------------------------------
// Replay of JAX's own sequences.
// ---------------------------------------------------------------------------------------------
interface Encoded { dtype: string; shape: number[]; values: (number | string)[]; error?: undefined }
type Out = Encoded | { error: string };
interface Op { m: string; kw: Record<string, any>; out: any }
interface Run { mode: { x64: boolean; partitionable: boolean }; seed: number; ops?: Op[]; error?: string }

const FIXTURE = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/jax-stateful-rng.json', import.meta.url)), 'utf8')) as { runs: Run[] };

/** JSON integers beyond 2^53 (exact powers of two here) as bigints; arrays recursively. */
function big(v: unknown): any {
  if (Array.isArray(v)) return v.map(big);
  return typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v) : v;
}

function apply(g: Generator, m: string, kw: Record<string, any>): unknown {
  const opts = kw.dtype === undefined ? undefined : { dtype: kw.dtype };
  switch (m) {
    case 'random': return g.random(kw.size, opts);
    case 'uniform': return g.uniform(kw.low, kw.high, kw.size, opts);
    case 'normal': return g.normal(kw.loc, kw.scale, kw.size, opts);
    case 'integers': return g.integers(big(kw.low), big(kw.high), kw.size, opts);
    case 'key': return g.key(kw.shape);
  }
  throw new Error(`no runner for ${m}`);
}

/** Our result in the fixture's encoding (float32 as bits, int64 as strings), given the expected dtype. */
function encode(x: unknown, dtype: string): { shape: number[]; values: (number | string)[]; dtype: string } {
  if (x instanceof KeyArray) return { dtype: 'key', shape: [...x.shape], values: Array.from(x.data) };
  if (x instanceof Tensor) {
    const vals = Array.from(x.data as ArrayLike<number | bigint>, (v) =>
      x.dtype === 'float32' ? f32Bits(v as number) : typeof v === 'bigint' ? String(v) : v);
    return { dtype: x.dtype, shape: [...x.shape], values: vals };
  }
  if (typeof x === 'bigint') return { dtype: 'int64', shape: [], values: [String(x)] };
  if (typeof x === 'number') return { dtype, shape: [], values: [dtype === 'float32' ? f32Bits(x) : x] };
  throw new Error(`unexpected result ${String(x)}`);
}

/** Largest distance in float32 ulps / float64 relative error between normal draws. */
function normalClose(got: (number | string)[], want: (number | string)[], dtype: string): boolean {
  if (got.length !== want.length) return false;
  return got.every((g, i) => {
    const w = want[i] as number;
    if (dtype === 'float32') {
      const a = new Float32Array(new Uint32Array([g as number]).buffer)[0]!, b = new Float32Array(new Uint32Array([w]).buffer)[0]!;
      return Math.abs(a - b) <= 4 * 2 ** (Math.floor(Math.log2(Math.max(Math.abs(b), 2 ** -126))) - 23);
    }
    return Math.abs((g as number) - w) <= 1e-13 * Math.max(1, Math.abs(w));
  });
}

function compare(where: string, m: string, got: ReturnType<typeof encode>, want: Encoded, failures: string[]): void {
  const valuesOk = m === 'normal' ? normalClose(got.values, want.values, want.dtype) : JSON.stringify(got.values) === JSON.stringify(want.values);
  if (!valuesOk || got.dtype !== want.dtype || JSON.stringify(got.shape) !== JSON.stringify(want.shape)) {
    failures.push(`${where}\n   got ${got.dtype} [${got.shape}] ${got.values.slice(0, 4)}\n  want ${want.dtype} [${want.shape}] ${want.values.slice(0, 4)}`);
  }
}

/** Stacks per-child encodings into one batched encoding (children row-major). */
function stack(parts: ReturnType<typeof encode>[], batch: number[]) {
  return { dtype: parts[0]!.dtype, shape: [...batch, ...parts[0]!.shape], values: parts.flatMap((p) => p.values) };
}

function leaves(g: Generator): Generator[] {
  return g.ndim === 0 ? [g] : [...g].flatMap(leaves);
}

function replay(run: Run): string[] {
  const failures: string[] = [];
  const rng = statefulRng(run.seed);
  for (const [n, op] of run.ops!.entries()) {
    const where = `${JSON.stringify(run.mode)} seed ${run.seed} op ${n} ${op.m} ${JSON.stringify(op.kw).slice(0, 100)}`;
    if (op.m === 'split') {
      const kids = rng.split(op.kw.num);
      const batch = typeof op.kw.num === 'number' ? [op.kw.num] : op.kw.num;
      const list = leaves(kids);
      op.kw.vmap.forEach((calls: [string, Record<string, any>][], i: number) => {
        const per = list.map((k) => calls.map(([m, kw], j) => encode(apply(k, m, kw), op.out[i][j].dtype)));
        calls.forEach(([m], j) => compare(`${where} call ${i} op ${j}`, m, stack(per.map((p) => p[j]!), batch), op.out[i][j], failures));
      });
    } else if (op.m === 'spawn') {
      rng.spawn(op.kw.n).forEach((k, i) => {
        op.kw.each.forEach(([m, kw]: [string, Record<string, any>], j: number) => compare(`${where} child ${i} op ${j}`, m, encode(apply(k, m, kw), op.out[i][j].dtype), op.out[i][j], failures));
      });
    } else if ((op.out as Out).error === undefined) {
      compare(where, op.m, encode(apply(rng, op.m, op.kw), op.out.dtype), op.out, failures);
    } else {
      failures.push(`${where}: JAX refused (${op.out.error}); no case should`);
    }
  }
  return failures;
}

describe('bit-exact replay of JAX 0.10.2 stateful_rng sequences (test/fixtures/jax-stateful-rng.json)', () => {
  it('covers all four modes, seven seeds, split, spawn and every StatefulPRNG method', () => {
    const modes = new Set(FIXTURE.runs.map((r) => JSON.stringify(r.mode)));
    expect(modes.size).toBe(4);
    const ops = new Set(FIXTURE.runs.flatMap((r) => r.ops!.map((o) => o.m)));
    expect([...ops].sort()).toEqual(['integers', 'key', 'normal', 'random', 'spawn', 'split', 'uniform']);
    expect(FIXTURE.runs.every((r) => r.error === undefined)).toBe(true);
  });

  for (const m of ALL_MODES) {
    it(`${JSON.stringify(m)}: random/uniform/integers/key exact, normal within 4 float32 ulp or 1e-13 relative`, () => {
      const failures = withModes(m, () => FIXTURE.runs.filter((r) => r.mode.x64 === m.x64 && r.mode.partitionable === m.threefryPartitionable).flatMap(replay));
      expect(failures.slice(0, 5).join('\n')).toBe('');
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The buffered scalar path.
// ---------------------------------------------------------------------------------------------
function generatorAt(seed: number, counter: number): Generator {
  return Generator.fromJSON({ ...statefulRng(seed).toJSON(), counter });
}

describe('buffered scalar random() / uniform(): identical to unbuffered draws', () => {
  const starts = [0, 3, 2 ** 32 - 333, 2 ** 33 + 17];

  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s: both dtypes, across refills and the 2^32 counter wrap, wasm on and off', (_, m) => {
    withModes(m, () => {
      for (const wasm of [true, false]) {
        const previous = setWasmEnabled(wasm);
        try {
          for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
            for (const start of starts) {
              const g = generatorAt(1701, start);
              const base = statefulRng(1701).baseKey;
              const isDefault = dtype === (m.x64 ? 'float64' : 'float32');
              for (let i = 0; i < 700; i++) {
                const got = isDefault ? g.random() : g.random(null, { dtype });
                const want = random.uniform(random.foldIn(base, (start + i) % 2 ** 32), [], { dtype }).data[0];
                if (got !== want) throw new Error(`dtype ${dtype} start ${start} i ${i} wasm ${wasm}: ${got} !== ${want}`);
              }
              expect(g.counter).toBe(start + 700);
            }
          }
        } finally {
          setWasmEnabled(previous);
        }
      }
    });
  });

  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s: scalar normal() / standardNormal() equal random.normal of the key, wasm on and off', (_, m) => {
    withModes(m, () => {
      for (const wasm of [true, false]) {
        const previous = setWasmEnabled(wasm);
        try {
          for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
            for (const start of [0, 2 ** 32 - 100]) {
              const g = generatorAt(77, start);
              const base = statefulRng(77).baseKey;
              for (let i = 0; i < 450; i++) {
                const got = i % 2 === 0 ? g.standardNormal(null, { dtype }) : g.normal(0, 1, null, { dtype });
                const want = random.normal(random.foldIn(base, (start + i) % 2 ** 32), [], { dtype }).data[0];
                if (got !== want) throw new Error(`dtype ${dtype} start ${start} i ${i} wasm ${wasm}: ${got} !== ${want}`);
              }
              const h = generatorAt(77, start + 450);
              const r = dtype === 'float32' ? Math.fround : (v: number) => v;
              const z = random.normal(random.foldIn(base, (start + 450) % 2 ** 32), [], { dtype }).data[0]!;
              expect(h.normal(1.5, 2, null, { dtype })).toBe(r(r(1.5) + r(r(2) * z)));
            }
          }
        } finally {
          setWasmEnabled(previous);
        }
      }
    });
  });

  it('interleaved with other draws, ranges, and a mode change mid-stream', () => {
    const g = statefulRng(99), h = statefulRng(99);
    const seq: number[] = [], ref: number[] = [];
    for (let i = 0; i < 500; i++) {
      if (i === 250) configure({ x64: false });
      try {
        if (i % 7 === 3) { g.normal([2]); h.key(); continue; }
        const lo = i % 5 === 0 ? -3 : 0, hi = i % 5 === 0 ? 2.5 : 1;
        seq.push(i % 3 === 0 ? g.uniform(lo, hi) : g.random());
        ref.push((random.uniform(h.key(), [], i % 3 === 0 ? { minval: lo, maxval: hi } : {}).data[0] as number));
      } finally {
        if (i === 499) configure({ x64: true });
      }
    }
    expect(seq).toEqual(ref);
    expect(g.counter).toBe(h.counter);
  });

  it('a philox4x32 generator (unbuffered path) draws random.uniform of its keys', () => {
    const g = statefulRng(5, { impl: 'philox4x32' });
    const base = random.key(5, { impl: 'philox4x32' });
    const got = [g.random(), g.random(), g.uniform(2, 4)];
    expect(got).toEqual([
      random.uniform(random.foldIn(base, 0), []).data[0],
      random.uniform(random.foldIn(base, 1), []).data[0],
      random.uniform(random.foldIn(base, 2), [], { minval: 2, maxval: 4 }).data[0],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Counter, key, split, spawn, batches, JSON.
// ---------------------------------------------------------------------------------------------
describe('counter and keys', () => {
  it('key() is foldIn(baseKey, counter) and advances it; key(shape) splits that key', () => {
    const g = statefulRng(11);
    const base = random.key(11);
    expect(random.keyData(g.key()).toArray()).toEqual(random.keyData(random.foldIn(base, 0)).toArray());
    expect(random.keyData(g.key([2, 2])).toArray()).toEqual(random.keyData(random.split(random.foldIn(base, 1), [2, 2])).toArray());
    expect(g.key(3).shape).toEqual([3]);
    expect(g.counter).toBe(3);
  });

  it('every method advances the counter by exactly one', () => {
    const g = statefulRng(3);
    const calls: (() => unknown)[] = [
      () => g.random(), () => g.random([2]), () => g.uniform(), () => g.uniform(0, 2, [3]), () => g.normal(), () => g.standardNormal([2]),
      () => g.integers(5), () => g.integers([1, 2], 9), () => g.choice(4), () => g.shuffle([1, 2, 3]), () => g.permuted([1, 2]),
      () => g.permutation(3), () => g.exponential(), () => g.standardExponential(), () => g.gamma(2), () => g.standardGamma(2),
      () => g.beta(1, 2), () => g.binomial(5, 0.5), () => g.poisson(), () => g.multinomial(3, [0.5, 0.5]), () => g.dirichlet([1, 1]),
      () => g.laplace(), () => g.logistic(), () => g.lognormal(), () => g.geometric(0.5), () => g.chisquare(2), () => g.standardT(3),
      () => g.standardCauchy(), () => g.pareto(2), () => g.weibull(1), () => g.rayleigh(), () => g.triangular(0, 1, 2),
      () => g.wald(1, 1), () => g.f(2, 3), () => g.multivariateNormal([0], [[1]]), () => g.bytes(3), () => g.key(), () => g.split(2),
      () => g.spawn(2),
    ];
    calls.forEach((call, i) => {
      call();
      expect(g.counter).toBe(i + 1);
    });
  });

  it('a call rejected for bad arguments does not advance the counter', () => {
    const g = statefulRng(3);
    expect(() => g.normal(0, -1)).toThrow(RangeError);
    expect(() => g.integers(5, 2)).toThrow(RangeError);
    expect(() => g.gamma([1, 2], 1, [3])).toThrow(RangeError);
    expect(() => g.choice(3, [2], { p: [0.5, 0.5, 0.5] })).toThrow(RangeError);
    expect(g.counter).toBe(0);
  });

  it('seeds: integers, keys, word pairs, tensors; the key of an integer seed is random.key(seed)', () => {
    const fromKey = statefulRng(random.key(8));
    expect(random.keyData(fromKey.baseKey).toArray()).toEqual([0, 8]);
    expect(random.keyData(statefulRng([1, 2]).baseKey).toArray()).toEqual([1, 2]);
    expect(random.keyData(statefulRng(Uint32Array.of(3, 4)).baseKey).toArray()).toEqual([3, 4]);
    expect(random.keyData(statefulRng(tensor(9, 'int32')).baseKey).toArray()).toEqual([0, 9]);
    expect(random.keyData(statefulRng(2n ** 40n).baseKey).toArray()).toEqual([256, 0]);
    expect(statefulRng().baseKey.shape).toEqual([]);
  });
});

describe('split, spawn and batches', () => {
  it('children have base keys split(key(), num) and counters at 0; the parent advances by one', () => {
    const g = statefulRng(21);
    const kids = g.split(4);
    expect(kids.shape).toEqual([4]);
    expect(g.counter).toBe(1);
    expect(random.keyData(kids.baseKey).toArray()).toEqual(random.keyData(random.split(random.foldIn(random.key(21), 0), 4)).toArray());
    expect(kids.at(2).counter).toBe(0);
    expect(kids.at(2).random()).toBe(random.uniform(random.foldIn(random.split(random.foldIn(random.key(21), 0), 4).at(2), 0), []).data[0]);
  });

  it('drawing from a batch throws a TypeError that says to index or map; so do counter and key', () => {
    const kids = statefulRng(0).split(3);
    for (const call of [() => kids.uniform(), () => kids.random(), () => kids.normal([2]), () => kids.key(), () => kids.split(2), () => kids.counter, () => kids.choice(2)]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(/batch of shape \[3\].*\.at\(i\).*map/);
    }
  });

  it('children are stateful objects: at(i) returns the same child, iteration and map see the same state', () => {
    const kids = statefulRng(0).split(3);
    const a = kids.at(1).random();
    const b = kids.at(1).random();
    expect(a).not.toBe(b);
    expect(kids.at(1)).toBe(kids.at(-2));
    expect([...kids][1]!.counter).toBe(2);
    expect(kids.map((g) => g.counter)).toEqual([0, 2, 0]);
    const [x, y] = statefulRng(1).split(2);
    expect(x!.random()).not.toBe(y!.random());
  });

  it('split with a shape: nested batches; split([]) gives a single generator', () => {
    const kids = statefulRng(0).split([2, 3]);
    expect(kids.shape).toEqual([2, 3]);
    expect(kids.at(1).shape).toEqual([3]);
    const leaf = kids.at(1).at(2);
    leaf.random();
    expect(kids.at(1).at(2).counter).toBe(1);
    expect(kids.toJSON().counter).toEqual([0, 0, 0, 0, 0, 1]);
    expect(statefulRng(0).split([]).shape).toEqual([]);
  });

  it('spawn(n) returns an array of independent single generators', () => {
    const g = statefulRng(4);
    const kids = g.spawn(3);
    expect(kids.length).toBe(3);
    expect(kids.every((k) => k instanceof Generator && k.ndim === 0)).toBe(true);
    expect(random.keyData(kids[2]!.baseKey).toArray()).toEqual(random.keyData(random.split(random.foldIn(random.key(4), 0), 3).at(2)).toArray());
  });

  it('single generators refuse indexing and iteration', () => {
    const g = statefulRng(0);
    expect(() => g.at(0)).toThrow(TypeError);
    expect(() => [...g]).toThrow(TypeError);
    expect(() => statefulRng(0).split(2).at(2)).toThrow(RangeError);
    expect(() => statefulRng(0).split(2).at(0.5)).toThrow(TypeError);
  });
});

describe('toJSON / Generator.fromJSON', () => {
  it('a saved single generator resumes exactly, buffered scalars included', () => {
    const g = statefulRng(1701);
    g.random(); g.normal([3]); g.random();             // the buffer now holds values ahead of the counter
    const saved = JSON.stringify(g);
    expect(JSON.parse(saved)).toEqual({ type: 'stochax.Generator', version: 1, impl: 'threefry2x32', shape: [], key: [0, 1701], counter: 3 });
    const h = Generator.fromJSON(saved);
    const run = (x: Generator) => [x.random(), x.normal(), x.integers(100), x.random([2]).toArray(), x.random()];
    expect(run(h)).toEqual(run(g));
  });

  it('a batch round-trips with each child counter; restored children continue their sequences', () => {
    const kids = statefulRng(5, { impl: 'philox4x32' }).split(3);
    kids.at(0).random(); kids.at(2).random([4]); kids.at(2).random();
    const json = kids.toJSON();
    expect(json.impl).toBe('philox4x32');
    expect(json.counter).toEqual([1, 0, 2]);
    const back = Generator.fromJSON(json);
    expect(back.toJSON()).toEqual(json);
    expect(back.map((g) => g.random())).toEqual(kids.map((g) => g.random()));
  });

  it('rejects anything toJSON cannot have made, naming the field', () => {
    const ok = statefulRng(1).toJSON();
    const bad: [unknown, RegExp][] = [
      ['{nope', /`json`/],
      [null, /`json`/],
      [{ ...ok, type: 'x' }, /`json.type`/],
      [{ ...ok, version: 2 }, /`json.version`/],
      [{ ...ok, impl: 'rbg' }, /`json.impl`/],
      [{ ...ok, key: [1] }, /`json.key`/],
      [{ ...ok, key: [1, -1] }, /`json.key\[1\]`/],
      [{ ...ok, counter: -1 }, /`json.counter`/],
      [{ ...ok, counter: 1.5 }, /`json.counter`/],
      [{ ...ok, shape: [2], key: [1, 2, 3, 4], counter: 0 }, /`json.counter`/],
      [{ ...ok, shape: [-1] }, /`json.shape/],
    ];
    for (const [json, msg] of bad) expect(() => Generator.fromJSON(json), String(JSON.stringify(json))).toThrow(msg);
  });
});

// ---------------------------------------------------------------------------------------------
// Shapes and return types.
// ---------------------------------------------------------------------------------------------
describe('NumPy size semantics and return types', () => {
  it('scalars without size (numbers; bigints for int64), Tensors with size (even size [])', () => {
    const g = statefulRng(0);
    expect(typeof g.random()).toBe('number');
    expect(typeof g.normal(1, 2)).toBe('number');
    expect(typeof g.integers(10)).toBe('bigint');
    expect(typeof g.binomial(10, 0.5)).toBe('bigint');
    expect(typeof g.choice(tensor([1.5, 2.5]))).toBe('number');
    expect(withModes(X32, () => typeof g.integers(10))).toBe('number');
    const t = g.random([]);
    expect(t).toBeInstanceOf(Tensor);
    expect(t.shape).toEqual([]);
    expect((g.normal([0, 1], 1) as Tensor).shape).toEqual([2]);
    expect((g.normal(tensor(0), 1))).toBeTypeOf('number');
  });

  it('parameters broadcast to size; size is the batch shape of multinomial, dirichlet and multivariateNormal', () => {
    const g = statefulRng(0);
    expect((g.uniform([[0], [10]], [20, 30, 40], [2, 3]) as Tensor).shape).toEqual([2, 3]);
    expect((g.gamma([1, 2, 3], 1) as Tensor).shape).toEqual([3]);
    expect(g.multinomial(10, [0.2, 0.8], [4]).shape).toEqual([4, 2]);
    expect(g.multinomial([5, 6], [0.2, 0.8]).shape).toEqual([2, 2]);
    expect(g.dirichlet([1, 2, 3], [5]).shape).toEqual([5, 3]);
    expect(g.multivariateNormal([0, 0], [[1, 0], [0, 1]], [7]).shape).toEqual([7, 2]);
    expect(g.choice(tensor([[1, 2], [3, 4], [5, 6]]), [2]).shape).toEqual([2, 2]);
    expect((g.choice(tensor([[1, 2], [3, 4], [5, 6]]), undefined, { axis: 1 }) as Tensor).shape).toEqual([3]);
  });

  it('shuffle works in place on Tensors (any axis), JS arrays and typed arrays, as permutation orders them', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]]);
    statefulRng(8).shuffle(t, { axis: 1 });
    expect(t.toArray()).toEqual(statefulRng(8).permutation(tensor([[1, 2, 3], [4, 5, 6]]), { axis: 1 }).toArray());
    const arr = ['a', 'b', 'c', 'd', 'e', { f: 1 }];
    statefulRng(9).shuffle(arr);
    const order = statefulRng(9).permutation(6).toArray() as bigint[];
    expect(arr).toEqual(order.map((i) => ['a', 'b', 'c', 'd', 'e', { f: 1 }][Number(i)]));
    const typed = Float64Array.of(1, 2, 3, 4);
    statefulRng(9).shuffle(typed);
    expect(Array.from(typed)).toEqual(statefulRng(9).permutation(tensor([1, 2, 3, 4])).toArray());
  });

  it('permuted shuffles lanes independently (flattened without axis); permutation keeps rows together', () => {
    const x = tensor([[1, 2, 3, 4], [5, 6, 7, 8]]);
    const p = statefulRng(2).permuted(x, { axis: 1 });
    expect(p.toArray()).toEqual(random.permutation(random.foldIn(random.key(2), 0), x, { axis: 1, independent: true }).toArray());
    const flat = statefulRng(2).permuted(x);
    expect(flat.shape).toEqual([2, 4]);
    expect((flat.toArray() as number[][]).flat().sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const rows = statefulRng(2).permutation(x).toArray() as number[][];
    expect(rows.map((r) => r[0]).sort()).toEqual([1, 5]);
  });
});

// ---------------------------------------------------------------------------------------------
// Bad input.
// ---------------------------------------------------------------------------------------------
describe('bad input: errors name the Generator method and the argument', () => {
  const g = statefulRng(0);
  const cases: [string, () => unknown, ErrorConstructor, RegExp][] = [
    ['size negative', () => g.random([-1]), RangeError, /Generator\.random: `size\[0\]`/],
    ['size fractional', () => g.normal(0, 1, 2.5), TypeError, /Generator\.normal: `size`/],
    ['size string', () => g.uniform(0, 1, 'x' as never), TypeError, /Generator\.uniform: `size`/],
    ['dtype float64 in x32', () => withModes(X32, () => g.random(null, { dtype: 'float64' })), RangeError, /Generator\.random: `dtype`/],
    ['uniform low > high', () => g.uniform(2, 1), RangeError, /Generator\.uniform: `low`/],
    ['uniform array low > high', () => g.uniform([0, 3], 2), RangeError, /Generator\.uniform: `low`/],
    ['uniform infinite', () => g.uniform(0, Infinity), RangeError, /`high` must be finite/],
    ['normal negative scale', () => g.normal(0, -1), RangeError, /Generator\.normal: `scale`/],
    ['normal NaN loc', () => g.normal(NaN), RangeError, /Generator\.normal: `loc`/],
    ['normal params vs size', () => g.normal([0, 1, 2], 1, [2]), RangeError, /Generator\.normal: .*`size`/],
    ['integers low >= high', () => g.integers(5, 5), RangeError, /Generator\.integers: `low` must be less than `high`/],
    ['integers endpoint low > high', () => g.integers(5, 4, null, { endpoint: true }), RangeError, /`low` must not exceed `high`/],
    ['integers array low >= high', () => g.integers([0, 9], [5, 9]), RangeError, /Generator\.integers: `low`/],
    ['integers fractional', () => g.integers(2.5), TypeError, /Generator\.integers: `low`/],
    ['integers out of int32', () => g.integers(0, 2 ** 31 + 1, null, { dtype: 'int32' }), RangeError, /`high` is out of bounds for int32/],
    ['integers below uint8', () => g.integers(-1, 5, null, { dtype: 'uint8' }), RangeError, /`low` is out of bounds for uint8/],
    ['integers bad dtype', () => g.integers(5, null, null, { dtype: 'float32' as never }), RangeError, /Generator\.integers: `dtype`/],
    ['integers endpoint type', () => g.integers(5, null, null, { endpoint: 1 as never }), TypeError, /`endpoint`/],
    ['choice zero population', () => g.choice(0, [2]), RangeError, /Generator\.choice: `a`/],
    ['choice p not summing to 1', () => g.choice(3, null, { p: [0.5, 0.5, 0.5] }), RangeError, /`p` must sum to 1/],
    ['choice p wrong length', () => g.choice(3, null, { p: [0.5, 0.5] }), RangeError, /`p` must have 3 entries/],
    ['choice too many without replacement', () => g.choice(3, [4], { replace: false }), RangeError, /`size`/],
    ['choice too few non-zero p', () => g.choice(3, [2], { replace: false, p: [1, 0, 0] }), RangeError, /`p` has 1 non-zero/],
    ['shuffle non-array', () => g.shuffle('abc' as never), TypeError, /Generator\.shuffle: `x`/],
    ['shuffle JS array axis 1', () => g.shuffle([[1, 2]], { axis: 1 }), RangeError, /`axis`/],
    ['shuffle bad axis', () => g.shuffle(tensor([1, 2]), { axis: 2 }), RangeError, /Generator\.shuffle: `axis`/],
    ['permutation negative', () => g.permutation(-1), RangeError, /Generator\.permutation: `x`/],
    ['permuted bad axis', () => g.permuted([1, 2], { axis: 3 }), RangeError, /Generator\.permuted: `axis`/],
    ['exponential negative', () => g.exponential(-1), RangeError, /Generator\.exponential: `scale`/],
    ['gamma negative shape', () => g.gamma(-1), RangeError, /Generator\.gamma: `shape`/],
    ['gamma shape vs size', () => g.gamma([1, 2], 1, [3]), RangeError, /Generator\.gamma: .*`size` \[3\]/],
    ['standardGamma NaN', () => g.standardGamma(NaN), RangeError, /Generator\.standardGamma: `shape`/],
    ['beta zero', () => g.beta(0, 1), RangeError, /Generator\.beta: `a`/],
    ['binomial fractional n', () => g.binomial(2.5, 0.5), RangeError, /Generator\.binomial: `n`/],
    ['binomial p > 1', () => g.binomial(5, 1.5), RangeError, /Generator\.binomial: `p`/],
    ['poisson negative', () => g.poisson(-1), RangeError, /Generator\.poisson: `lam`/],
    ['geometric zero', () => g.geometric(0), RangeError, /Generator\.geometric: `p`/],
    ['multinomial sum > 1', () => g.multinomial(5, [0.8, 0.7, 0]), RangeError, /Generator\.multinomial: `pvals`/],
    ['multinomial negative n', () => g.multinomial(-1, [0.5, 0.5]), RangeError, /Generator\.multinomial: `n`/],
    ['multinomial scalar pvals', () => g.multinomial(3, 0.5), RangeError, /`pvals`/],
    ['dirichlet zero alpha', () => g.dirichlet([1, 0]), RangeError, /Generator\.dirichlet: `alpha`/],
    ['dirichlet scalar', () => g.dirichlet(2), RangeError, /Generator\.dirichlet: `alpha`/],
    ['laplace negative scale', () => g.laplace(0, -2), RangeError, /Generator\.laplace: `scale`/],
    ['logistic NaN loc', () => g.logistic(NaN), RangeError, /Generator\.logistic: `loc`/],
    ['lognormal negative sigma', () => g.lognormal(0, -1), RangeError, /Generator\.lognormal: `sigma`/],
    ['chisquare zero', () => g.chisquare(0), RangeError, /Generator\.chisquare: `df`/],
    ['standardT negative', () => g.standardT(-1), RangeError, /Generator\.standardT: `df`/],
    ['pareto zero', () => g.pareto(0), RangeError, /Generator\.pareto: `a`/],
    ['weibull negative', () => g.weibull(-1), RangeError, /Generator\.weibull: `a`/],
    ['rayleigh negative', () => g.rayleigh(-1), RangeError, /Generator\.rayleigh: `scale`/],
    ['triangular mode outside', () => g.triangular(0, 5, 3), RangeError, /Generator\.triangular: `mode`/],
    ['triangular left = right', () => g.triangular(1, 1, 1), RangeError, /Generator\.triangular: `left`/],
    ['wald zero scale', () => g.wald(1, 0), RangeError, /Generator\.wald: `scale`/],
    ['f zero', () => g.f(0, 1), RangeError, /Generator\.f: `dfnum`/],
    ['mvn cov shape', () => g.multivariateNormal([0, 0], [[1]]), RangeError, /Generator\.multivariateNormal: `cov`/],
    ['mvn not positive definite', () => g.multivariateNormal([0, 0], [[1, 2], [2, 1]]), RangeError, /Generator\.multivariateNormal: `cov`/],
    ['mvn method', () => g.multivariateNormal([0], [[1]], null, { method: 'qr' as never }), RangeError, /Generator\.multivariateNormal: `method`/],
    ['bytes negative', () => g.bytes(-1), RangeError, /Generator\.bytes: `length`/],
    ['split bad num', () => g.split(-2), RangeError, /Generator\.split: `num`/],
    ['spawn fractional', () => g.spawn(1.5), TypeError, /Generator\.spawn: `n`/],
    ['key bad shape', () => g.key([1.5]), TypeError, /Generator\.key: `shape\[0\]`/],
    ['map non-function', () => statefulRng(0).split(2).map(3 as never), TypeError, /Generator\.map: `f`/],
    ['statefulRng fractional seed', () => statefulRng(1.5), TypeError, /statefulRng: `seed`/],
    ['defaultRng string seed', () => defaultRng('x' as never), TypeError, /defaultRng: `seed`/],
    ['statefulRng batch key', () => statefulRng(random.split(random.key(0), 2)), TypeError, /statefulRng: `seed`/],
    ['statefulRng impl mismatch', () => statefulRng(random.key(0), { impl: 'philox4x32' }), RangeError, /statefulRng: `options\.impl`/],
    ['statefulRng unknown impl', () => statefulRng(0, { impl: 'rbg' as never }), RangeError, /statefulRng: `impl`/],
  ];
  it.each(cases)('%s', (_, call, E, msg) => {
    expect(call).toThrow(E);
    expect(call).toThrow(msg);
  });
  it('none of them moved the counter', () => {
    expect(g.counter).toBe(0);
  });
});

describe('Generator: NumPy\'s checks (issue 18)', () => {
  it('poisson refuses a rate above NumPy\'s POISSON_LAM_MAX ("lam value too large")', () => {
    const rng = statefulRng(0);
    expect(() => rng.poisson(1e20)).toThrow(RangeError);
    expect(() => rng.poisson(1e20)).toThrow(/Generator\.poisson: `lam` must be non-negative and at most 9223372006484771000 \(lam value too large, as NumPy says\)/);
    expect(() => rng.poisson([1, 1e19])).toThrow(/lam value too large/);
    expect(() => rng.poisson(1e18)).not.toThrow();
  });

  it('bytes names itself, not the PRNG, for a length too large', () => {
    expect(() => statefulRng(0).bytes(2 ** 40)).toThrow(/^Generator\.bytes: `length` is 1099511627776, more than the limit of 268435456/);
  });

  it('rejects unknown option names with a TypeError', () => {
    expect(() => statefulRng(0).integers(0, 10, [2], { endpont: true } as never)).toThrow(TypeError);
    expect(() => statefulRng(0).integers(0, 10, [2], { endpont: true } as never)).toThrow(/Generator\.integers: `options` has unknown option `endpont`/);
  });
});

describe('Generator.uniform with huge finite bounds (issue 18)', () => {
  it('gives finite values in range, for scalar and element-wise bounds', () => {
    const lo = -1.7e308, hi = 1.7e308;
    const ok = (v: number) => Number.isFinite(v) && v >= lo && v < hi;
    const rng = statefulRng(0);
    expect(ok(rng.uniform(lo, hi) as number)).toBe(true);
    expect(Array.from((rng.uniform(lo, hi, [100]) as Tensor).data as Float64Array).every(ok)).toBe(true);
    expect(Array.from((rng.uniform([lo, lo], [hi, hi]) as Tensor).data as Float64Array).every(ok)).toBe(true);
  });
});
