// windowedAdaptiveNuts(model, { cores }): chains on worker threads from the synchronous call.
// The same bits for cores 1, 2 and 3 (4 chains: draws of every node and every trace field);
// progress and abort across workers; a failure in a worker rethrown as in process; the runs
// that stay in process say why; a CholeskyLKJ + MVN-TriL + take model and an enumerated mixture on 2 workers; bad `cores`. Deterministic: fixed seeds, no statistics.
// `coresTuning.force` sends these short runs to workers (the size rule would keep them here).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as D from '../../../distributions/index.js';
import { nonCentered, y } from '../../../examples/eight-schools.js';
import { AbortError } from '../../../mcmc/abort-error.js';
import { coresTuning, gradientSeconds } from '../../../mcmc/nuts/stan/cores.js';
import type { FlatTarget } from '../../../src/compile/flat-target.js';
import { windowedAdaptiveNuts, type WindowedAdaptiveNutsOptions, type WindowedPartial, type WindowedProgress } from '../../../mcmc/windowed-adaptive-nuts.js';
import { mul } from '../../../src/tensor/ops/elementwise.js';
import { gather, reshape, slice, stack, transpose } from '../../../src/tensor/ops/shape.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';

const WARMUP = 150, DRAWS = 100, TOTAL = WARMUP + DRAWS;
const run = (o: WindowedAdaptiveNutsOptions = {}) => windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: 7, numAdaptationSteps: WARMUP, nDraws: DRAWS, ...o });
/** Every tensor of a record as bit strings, by key. */
const bits = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, t]) => {
  const d = (t as Tensor).data as ArrayLike<number>;
  // Every NaN alike: V8 may give a NaN another payload in optimised code than in the interpreter.
  return [k, [(t as Tensor).shape.join(','), Array.from(Float64Array.from(d), (v) => (v !== v ? 'NaN' : new Uint32Array(Float64Array.of(v).buffer).join(':'))).join(' ')]];
}));

beforeEach(() => { coresTuning.force = true; });
afterEach(() => { coresTuning.force = false; });

describe('windowedAdaptiveNuts({ cores })', () => {
  it('4 chains on 1, 2 and 3 cores: the same draws and trace, bit for bit', () => {
    const one = run({ cores: 1 });
    expect(one.parallel).toEqual({ cores: 1 });
    for (const cores of [2, 3]) {
      const r = run({ cores });
      expect(r.parallel).toEqual({ cores });
      expect(bits(r.draws as Record<string, unknown>)).toEqual(bits(one.draws as Record<string, unknown>));
      expect(bits(r.trace as unknown as Record<string, unknown>)).toEqual(bits(one.trace as unknown as Record<string, unknown>));
    }
  });

  it('reports progress of the chains on workers, up to the last step, with their divergences', () => {
    const reports: WindowedProgress[] = [];
    const r = run({ cores: 2, progressInterval: 0, onProgress: (p) => reports.push(p) });
    expect(r.parallel).toEqual({ cores: 2 });
    for (let c = 0; c < 4; c++) {
      const mine = reports.filter((p) => p.chain === c);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      expect(mine.every((p, i) => i === 0 || p.step >= mine[i - 1]!.step)).toBe(true);
      const last = mine[mine.length - 1]!;
      expect(last.step).toBe(TOTAL);
      const div = (r.trace as unknown as Record<string, Tensor>).diverging!.data as Uint8Array;
      let n = 0;
      for (let t = 0; t < DRAWS; t++) n += div[t * 4 + c]!;
      expect(last.divergences).toBe(n);
    }
  });

  it('an abort from onProgress stops the workers; the partial draws are an exact prefix of each chain', () => {
    // 20,000 draws: the abort at step WARMUP + 30 is seen long before any chain could finish.
    const ac = new AbortController();
    let caught: unknown;
    try {
      run({ cores: 2, nDraws: 20_000, progressInterval: 0, signal: ac.signal, onProgress: (p) => { if (p.step >= WARMUP + 30) ac.abort(); } });
    } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(AbortError);
    const partial = (caught as AbortError<WindowedPartial>).partial;
    const n = partial.numResults;
    expect(n).toBeGreaterThanOrEqual(30);
    expect(n).toBeLessThan(20_000);
    // A chain's first n draws do not depend on nDraws: the in-process run of n draws is the reference.
    const full = run({ cores: 1, nDraws: n });
    expect(bits(partial.draws as Record<string, unknown>)).toEqual(bits(full.draws as Record<string, unknown>));
    expect(bits(partial.trace as unknown as Record<string, unknown>)).toEqual(bits(full.trace as unknown as Record<string, unknown>));
  });

  it("a chain's failure on a worker is rethrown with its class and message, as in process", () => {
    // Chain 3 starts at tau = 0, where the unconstrained point is −∞.
    const currentState = { mu: tensor([0, 0, 0, 0]), tau: tensor([1, 1, 1, 0]), thetaTilde: new Tensor(new Float64Array(32), [4, 8], 'float64') };
    const message = (cores: number) => { try { run({ cores, currentState }); } catch (e) { return [(e as Error).constructor.name, (e as Error).message]; } return undefined; };
    const inProcess = message(1);
    expect(inProcess?.[0]).toBe('RangeError');
    expect(message(2)).toEqual(inProcess);
  });

  it('a CholeskyLKJ + MVN-TriL model with take (transpose, slice) runs on 2 workers with the draws of 1 core, bit for bit', () => {
    const lkjMvn = new D.JointDistributionNamed({
      L: new D.CholeskyLKJ({ dimension: 3, concentration: 2 }),
      s: new D.Sample({ distribution: new D.HalfNormal({ scale: 1 }), sampleShape: 3 }),
      m: new D.Sample({ distribution: new D.Normal({ loc: 0, scale: 1 }), sampleShape: [3, 1] }),
      y: (m: Tensor, s: Tensor, L: Tensor) => new D.Sample({
        distribution: new D.MultivariateNormalTriL({ loc: slice(transpose(m), [0, 0], [1, 3]).reshape([3]), scaleTril: mul(L, reshape(s, [3, 1])) }),
        sampleShape: 4,
      }),
    });
    const go = (cores: number) => windowedAdaptiveNuts(lkjMvn, {
      pins: { y: tensor([[0.1, 0.2, 0.3], [1, 0, -1], [0.5, 0.4, -0.2], [-0.3, 0.8, 0.1]]) }, seed: 3, numAdaptationSteps: 60, nDraws: 40, cores,
    });
    const one = go(1), two = go(2);
    expect(one.parallel).toEqual({ cores: 1 });
    expect(two.parallel).toEqual({ cores: 2 });
    expect(bits(two.draws as Record<string, unknown>)).toEqual(bits(one.draws as Record<string, unknown>));
    expect(bits(two.trace as unknown as Record<string, unknown>)).toEqual(bits(one.trace as unknown as Record<string, unknown>));
  });

  it('an enumerated mixture (Categorical labels summed out) runs on 2 workers with the draws of 1 core, bit for bit', () => {
    const ys = [-2.1, -1.7, 2.2, 1.9, 2.4];
    const mix = new D.JointDistributionNamed({
      w: new D.Dirichlet({ concentration: [2, 2] }),
      mu: new D.Independent({ distribution: new D.Normal({ loc: [-2, 2], scale: 1 }), reinterpretedBatchNdims: 1 }),
      z: ({ w }: { w: Tensor }) => new D.Sample({ distribution: new D.Categorical({ probs: w }), sampleShape: ys.length }),
      y: ({ mu, z }: { mu: Tensor; z: Tensor }) => new D.Independent({ distribution: new D.Normal({ loc: gather(mu, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const go = (cores: number) => windowedAdaptiveNuts(mix, { pins: { y: ys }, seed: 3, numAdaptationSteps: 60, nDraws: 40, cores });
    const one = go(1), two = go(2);
    expect(two.parallel).toEqual({ cores: 2 });
    expect(bits(two.draws as Record<string, unknown>)).toEqual(bits(one.draws as Record<string, unknown>));
  });

  it('runs in process, saying why, when the model cannot be sent, with compile: false, and for one chain', () => {
    // OneHotCategorical's log density is a kernel made per call without a named factory.
    const cat = new D.JointDistributionNamed({
      x: new D.Normal({ loc: 0, scale: 1 }),
      y: (x: Tensor) => new D.OneHotCategorical({ logits: stack([x, tensor(0), tensor(1)]) }),
    });
    const r = windowedAdaptiveNuts(cat, { pins: { y: tensor([0, 0, 1]) }, seed: 1, numAdaptationSteps: 20, nDraws: 10, cores: 2 });
    expect(r.parallel?.cores).toBe(1);
    expect(r.parallel?.reason).toMatch(/cannot be sent to a worker: .*`OneHotCategorical\.logProb`/);
    expect(run({ cores: 2, compile: false, nDraws: 10, numAdaptationSteps: 10 }).parallel).toEqual({ cores: 1, reason: expect.stringMatching(/compile: false/) });
    expect(run({ cores: 2, chainIndex: 1 }).parallel).toEqual({ cores: 1, reason: 'one chain' });
  });

  it('keeps a short run in process by the size rule, and says so', () => {
    coresTuning.force = false;
    const r = run({ cores: 2 });
    expect(r.parallel).toEqual({ cores: 1, reason: expect.stringMatching(/^the run is estimated at .* s or less in process, too short to pay for 1 worker/) });
  });

  it('times the gradient once its first calls are past (they run unoptimised, several times slower)', () => {
    // A target whose first 72 calls take 40 µs and the rest ~0: the old 16–64 timed calls all saw 40 µs. The slow calls
    // take ~3 ms of gradientSeconds' 20-ms budget, so a loaded machine (a CPU hog, other test files) still leaves time to
    // reach the fast ones (with 150 slow calls, 6 ms, one run under a CPU hog did not).
    const busy = (us: number) => { const t = performance.now(); while (performance.now() - t < us / 1000) { /* spin */ } };
    let calls = 0;
    const target = { logDensityGradient: () => { if (calls++ < 72) busy(40); return 0; } } as unknown as FlatTarget;
    expect(gradientSeconds(target, 3, 0)).toBeLessThan(20e-6);
    expect(calls).toBeGreaterThan(72);
    // It stops at the first batch at or below `enough`: the caller's answer is then settled.
    calls = 1000;
    gradientSeconds(target, 3, 1);
    expect(calls).toBe(1008);
  });

  it('rejects a bad cores', () => {
    expect(() => run({ cores: 0 })).toThrow(RangeError);
    expect(() => run({ cores: 0 })).toThrow(/windowedAdaptiveNuts.*cores/);
    expect(() => run({ cores: 1.5 })).toThrow(/windowedAdaptiveNuts.*cores/);
    expect(() => run({ cores: '2' as unknown as number })).toThrow(/windowedAdaptiveNuts.*cores/);
    expect(() => run({ cores: 2, adaptation: 'pooled' })).toThrow(/windowedAdaptiveNuts.*cores.*per-chain/);
  });
});
