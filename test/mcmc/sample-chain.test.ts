// sampleChain: TFP's loop, checked with a counting kernel written here (its state is the number of
// kernel steps taken, its results record every seed it was given), then with RandomWalkMetropolis
// for resuming in chunks. No statistical assertions in this file.
import { describe, expect, it } from 'vitest';
import type { State, TransitionKernel } from '../../mcmc/kernel.js';
import { RandomWalkMetropolis } from '../../mcmc/kernels/random-walk-metropolis.js';
import { sampleChain } from '../../mcmc/sample-chain.js';
import { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add, mul, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

interface CountResults {
  readonly count: number;
  readonly even: boolean;
  readonly vec: Tensor;
  readonly seed: KeyArray;
}

/** State ← state + 1 per part; results count the steps; `seeds` records every seed passed. */
class Counting implements TransitionKernel<CountResults> {
  readonly isCalibrated = true;
  readonly parameters = {};
  readonly seeds: KeyArray[] = [];
  bootstraps = 0;
  bootstrapResults(): CountResults {
    this.bootstraps++;
    return { count: 0, even: true, vec: tensor([0, 0]), seed: zerosSeed() };
  }
  oneStep(state: State, prev: CountResults, seed: KeyArray): [State, CountResults] {
    this.seeds.push(seed);
    const next = state instanceof Tensor ? add(state, 1) : state.map((p) => add(p, 1));
    const count = prev.count + 1;
    return [next, { count, even: count % 2 === 0, vec: tensor([count, -count]), seed }];
  }
  copy(): Counting { return new Counting(); }
}

const values = (t: unknown) => Array.from((t as Tensor).data as ArrayLike<number>);
const words = (k: KeyArray) => Array.from(k.data);

describe('sampleChain: step counts', () => {
  it('records [1 + burnin, 1 + thin, …] steps, not the initial state', () => {
    const kernel = new Counting();
    const { allStates, finalKernelResults } = sampleChain({
      numResults: 4, numBurninSteps: 3, numStepsBetweenResults: 2, currentState: tensor(0), kernel, seed: 1,
    });
    expect((allStates as Tensor).shape).toEqual([4]);
    expect(values(allStates)).toEqual([4, 7, 10, 13]);
    expect(kernel.seeds.length).toBe(3 + 4 + 3 * 2);
    expect(finalKernelResults.count).toBe(13);
    expect(kernel.bootstraps).toBe(1);
  });

  it('defaults: no burn-in, no thinning, one step per result', () => {
    const kernel = new Counting();
    const { allStates, trace } = sampleChain({ numResults: 3, currentState: tensor(0), kernel, seed: 0 });
    expect(values(allStates)).toEqual([1, 2, 3]);
    expect(trace).toBeUndefined();
  });

  it('numResults 1 with burn-in takes 1 + burnin steps', () => {
    const kernel = new Counting();
    expect(values(sampleChain({ numResults: 1, numBurninSteps: 5, numStepsBetweenResults: 9, currentState: tensor(0), kernel, seed: 0 }).allStates)).toEqual([6]);
    expect(kernel.seeds.length).toBe(6);
  });

  it('stacks every part of a multi-part state along a new leading axis', () => {
    const { allStates } = sampleChain({ numResults: 3, currentState: [zeros([2]), zeros([2, 3])], kernel: new Counting(), seed: 0 });
    const [a, b] = allStates as Tensor[];
    expect(a!.shape).toEqual([3, 2]);
    expect(b!.shape).toEqual([3, 2, 3]);
    expect(values(a)).toEqual([1, 1, 2, 2, 3, 3]);
  });
});

describe('sampleChain: traceFn', () => {
  it('stacks numbers, booleans, tensors, arrays and records', () => {
    const { trace } = sampleChain({
      numResults: 3, numBurninSteps: 1, numStepsBetweenResults: 1, currentState: tensor(0), kernel: new Counting(), seed: 0,
      traceFn: (state, r) => ({ count: r.count, even: r.even, vec: r.vec, pair: [state as Tensor, r.count * 10], nested: { c: r.count } }),
    });
    const t = trace as Record<string, unknown>;
    const count = t.count as Tensor, even = t.even as Tensor, vec = t.vec as Tensor;
    expect([count.dtype, count.shape]).toEqual(['float64', [3]]);
    expect(values(count)).toEqual([2, 4, 6]);
    expect([even.dtype, even.shape, values(even)]).toEqual(['bool', [3], [1, 1, 1]]);
    expect([vec.shape, values(vec)]).toEqual([[3, 2], [2, -2, 4, -4, 6, -6]]);
    const [s, c10] = t.pair as Tensor[];
    expect([s!.shape, values(s)]).toEqual([[3], [2, 4, 6]]);
    expect(values(c10)).toEqual([20, 40, 60]);
    expect(values((t.nested as Record<string, Tensor>).c)).toEqual([2, 4, 6]);
  });

  it('calls traceFn once per recorded state (not on burn-in or thinned steps)', () => {
    let calls = 0;
    sampleChain({ numResults: 5, numBurninSteps: 4, numStepsBetweenResults: 3, currentState: tensor(0), kernel: new Counting(), seed: 0, traceFn: () => { calls++; return 0; } });
    expect(calls).toBe(5);
  });
});

describe('sampleChain: seeds', () => {
  it('the per-step seeds are the splitSeed chain from sanitizeSeed(seed, { salt: "mcmc.sample_chain" })', () => {
    for (const seed of [0, 42, [3, 4] as const]) {
      const kernel = new Counting();
      const { finalSeed, finalKernelResults } = sampleChain({ numResults: 3, numBurninSteps: 2, numStepsBetweenResults: 1, currentState: tensor(0), kernel, seed });
      let carry = sanitizeSeed(seed, { salt: 'mcmc.sample_chain' });
      const expected: number[][] = [];
      for (let i = 0; i < 2 + 3 + 2; i++) {
        const [step, next] = splitSeed(carry) as [KeyArray, KeyArray];
        expected.push(words(step));
        carry = next;
      }
      expect(kernel.seeds.map(words)).toEqual(expected);
      expect(words(finalSeed)).toEqual(words(carry));
      expect(words(finalKernelResults.seed)).toEqual(expected[expected.length - 1]);
    }
  });

  it('resuming uses the given seed unsalted as the carried seed', () => {
    const kernel = new Counting();
    const prev = { count: 7, even: false, vec: tensor([7, -7]), seed: zerosSeed() };
    const start = sanitizeSeed(5);
    const { allStates, finalKernelResults } = sampleChain({ numResults: 2, currentState: tensor(7), kernel, seed: start, previousKernelResults: prev });
    expect(values(allStates)).toEqual([8, 9]);
    expect(finalKernelResults.count).toBe(9);
    expect(kernel.bootstraps).toBe(0);
    expect(words(kernel.seeds[0]!)).toEqual(words(splitSeed(start)[0]!));
  });
});

describe('sampleChain: resuming in chunks equals one run, bit for bit', () => {
  const target = (x: Tensor, y: Tensor) => add(sum(mul(-0.5, square(x)), -1), mul(-2, square(y)));
  const kernel = new RandomWalkMetropolis({ targetLogProbFn: target });
  const x0: Tensor[] = [zeros([4, 3]), zeros([4])];

  function chunked(sizes: number[], burnin: number, thin: number) {
    let state: State = x0, results = undefined as ReturnType<typeof kernel.bootstrapResults> | undefined, seed = 11 as KeyArray | number;
    const parts: Tensor[][] = [];
    sizes.forEach((n, i) => {
      const r = sampleChain({
        numResults: n, currentState: state, kernel, seed,
        // The first result of a later chunk is one thinning interval after the previous chunk's last.
        numBurninSteps: i === 0 ? burnin : thin, numStepsBetweenResults: thin,
        previousKernelResults: results, traceFn: (_, k) => k.isAccepted,
      });
      const all = r.allStates as Tensor[];
      parts.push([...all, r.trace as Tensor]);
      state = all.map((a) => new Tensor((a.data as Float64Array).slice((n - 1) * a.size / n), a.shape.slice(1)));
      results = r.finalKernelResults;
      seed = r.finalSeed;
    });
    return { parts, results: results!, seed: seed as KeyArray };
  }

  for (const [burnin, thin] of [[0, 0], [5, 2]] as const) {
    it(`3 chunks (burn-in ${burnin}, thinning ${thin}) with previousKernelResults + finalSeed`, () => {
      const one = sampleChain({ numResults: 30, currentState: x0, kernel, seed: 11, numBurninSteps: burnin, numStepsBetweenResults: thin, traceFn: (_, k) => k.isAccepted });
      const { parts, results, seed } = chunked([10, 12, 8], burnin, thin);
      const oneParts = [...(one.allStates as Tensor[]), one.trace as Tensor];
      oneParts.forEach((whole, j) => {
        const joined = parts.flatMap((p) => values(p[j]));
        expect(joined).toEqual(values(whole));
      });
      expect(words(seed)).toEqual(words(one.finalSeed));
      expect(values(results.acceptedResults.targetLogProb)).toEqual(values(one.finalKernelResults.acceptedResults.targetLogProb));
      expect(words(results.seed)).toEqual(words(one.finalKernelResults.seed));
    });
  }
});

describe('sampleChain: bad input', () => {
  const base = { numResults: 2, currentState: tensor(0), kernel: new Counting(), seed: 0 };
  it.each([
    [{ numResults: 0 }, RangeError, /numResults/],
    [{ numResults: 1.5 }, TypeError, /numResults/],
    [{ numBurninSteps: -1 }, RangeError, /numBurninSteps/],
    [{ numStepsBetweenResults: 0.5 }, TypeError, /numStepsBetweenResults/],
    [{ kernel: {} }, TypeError, /kernel/],
    [{ kernel: undefined }, TypeError, /kernel/],
    [{ currentState: [1, 2] }, TypeError, /currentState/],
    [{ currentState: [] }, TypeError, /currentState/],
    [{ traceFn: 3 }, TypeError, /traceFn/],
    [{ seed: 'x' }, TypeError, /seed/],
  ])('%o', (patch, kind, msg) => {
    expect(() => sampleChain({ ...base, ...patch } as never)).toThrow(kind);
    expect(() => sampleChain({ ...base, ...patch } as never)).toThrow(msg);
  });

  it('names the argument for a non-object options', () => {
    expect(() => sampleChain(null as never)).toThrow(/sampleChain/);
  });
});

// Issue 34 item 6: the result's types follow the call, so user code needs no casts. `tsc --noEmit`
// (part of `npm test`) checks the annotations; the expectations check the values agree with them.
describe('sampleChain: typed by its call', () => {
  const kernel = new RandomWalkMetropolis({ targetLogProbFn: (x: Tensor) => mul(-0.5, square(x)) });
  it('a Tensor state gives Tensor draws; traceFn records give stacked tensors of the same structure', () => {
    const run = sampleChain({ numResults: 5, currentState: zeros([3]), kernel, seed: 0, traceFn: (_, r) => ({ acc: r.isAccepted, n: 1, pair: [r.isAccepted, true] as const }) });
    const draws: Tensor = run.allStates;
    const acc: Tensor = run.trace.acc, n: Tensor = run.trace.n, second: Tensor = run.trace.pair[1];
    expect([draws.shape, acc.shape, n.shape, second.shape]).toEqual([[5, 3], [5, 3], [5], [5]]);
    expect(second.dtype).toBe('bool');
  });
  it('an array state gives an array of draws', () => {
    const two = new RandomWalkMetropolis({ targetLogProbFn: (x: Tensor, y: Tensor) => add(mul(-0.5, square(x)), mul(-0.5, square(y))) });
    const run = sampleChain({ numResults: 4, currentState: [zeros([2]), zeros([2])], kernel: two, seed: 1 });
    const parts: Tensor[] = run.allStates;
    expect(parts.map((p) => p.shape)).toEqual([[4, 2], [4, 2]]);
  });
});
