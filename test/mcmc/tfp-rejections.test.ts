// Rejected proposals in the TFP engine and kernels: a target that throws or is not finite at a
// proposal rejects it and the run goes on — NUTS/HMC: a divergence; MALA, RWM: a rejected
// proposal; slice: the point is outside the slice — counted per chain in the kernel results
// (`rejections`), and for the pooled windowedAdaptiveNuts in `trace.rejections` and
// `result.rejections`; programming errors still throw.
//
// Fault injection: the density throws at ~5% of points, decided by a hash of the point's bits, so
// the failure is a pure function of the point and the sampler must still target the density. The
// draws are thinned per chain to about one per effective draw (bulk ESS) and a KS test against
// the target rejects at ALPHA = 1e-6 (test/stats.ts): a correct sampler fails one KS check with
// probability 1e-6 (8 checks: < 1e-5 in all); the seeds are fixed, so the outcome is deterministic.
// Sample sizes are stated at each test.
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { reduceLogMeanExp } from '../../mcmc/internal/log-mean-exp.js';
import { HamiltonianMonteCarlo } from '../../mcmc/kernels/hamiltonian-monte-carlo.js';
import { MetropolisAdjustedLangevinAlgorithm } from '../../mcmc/kernels/metropolis-adjusted-langevin-algorithm.js';
import { NoUTurnSampler } from '../../mcmc/kernels/no-u-turn-sampler.js';
import { RandomWalkMetropolis, randomWalkNormalFn } from '../../mcmc/kernels/random-walk-metropolis.js';
import { SliceSampler } from '../../mcmc/kernels/slice-sampler.js';
import { ReplicaExchangeMC } from '../../mcmc/kernels/replica-exchange-mc.js';
import { sampleChain } from '../../mcmc/sample-chain.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { windowedAdaptiveNuts, type WindowedPartial } from '../../mcmc/windowed-adaptive-nuts.js';
import type { TransitionKernel } from '../../mcmc/kernel.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { mul, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { ALPHA } from '../stats.js';
import { thinnedNormalKs, total, unitHash } from './fault-injection.js';

const faultyAt = (v: number) => unitHash(v) < 0.05;

type Fault = 'throw' | 'nan' | 'nan-grad' | 'type-error' | 'none';

/** log N(x; 0, 1) over one coordinate, failing as `fault` says at the faulty points where `where(x)`. */
function normalFlat(fault: Fault, where: (x: number) => boolean = () => true): FlatTarget & { calls: number } {
  const f = (x: ArrayLike<number>, g?: Float64Array) => {
    t.calls++;
    const v = x[0]!;
    if (fault !== 'none' && where(v) && faultyAt(v)) {
      if (fault === 'throw') throw new RangeError(`injected fault at ${v}`);
      if (fault === 'type-error') (undefined as unknown as () => void)();
      if (fault === 'nan-grad') { if (g) g[0] = NaN; return -0.5 * v * v; }
      return NaN;
    }
    if (g) g[0] = -v;
    return -0.5 * v * v;
  };
  const t = { dim: 1, paramNames: ['x'], calls: 0, logDensity: (x: ArrayLike<number>) => f(x), logDensityGradient: (x: ArrayLike<number>, g: Float64Array) => f(x, g) };
  return t;
}


const thinnedKs = thinnedNormalKs;

/** sampleChain over 4 chains of the 1-d state, tracing the proposal's rejections and divergence (when it has one). */
function run(kernel: TransitionKernel<object>, numResults: number, seed: number) {
  const proposal = (r: object) => ((r as { proposedResults?: object }).proposedResults ?? r) as { rejections: Tensor; hasDivergence?: Tensor };
  const out = sampleChain({
    numResults, numBurninSteps: 200, currentState: tensor([[0.3], [-0.7], [1.1], [-1.9]]), kernel, seed,
    traceFn: (_, r) => ({ rejections: proposal(r).rejections, diverging: proposal(r).hasDivergence ?? proposal(r).rejections }),
  });
  const all = out.allStates as Tensor;
  return { draws: new Tensor(all.data, [numResults, 4], 'float64'), trace: out.trace as { rejections: Tensor; diverging: Tensor } };
}

describe('TFP kernels under sampleChain: a target that throws at 5% of points', () => {
  // Each: 4 chains × N draws after 200 burn-in steps; KS at ALPHA after thinning by the bulk ESS.
  const cases: [string, (t: FlatTarget) => TransitionKernel<object>, number, number][] = [
    ['HamiltonianMonteCarlo (3 leapfrog steps)', (t) => new HamiltonianMonteCarlo({ targetLogProbFn: t, stepSize: 0.6, numLeapfrogSteps: 3 }), 2000, 0.12],
    ['MetropolisAdjustedLangevinAlgorithm', (t) => new MetropolisAdjustedLangevinAlgorithm({ targetLogProbFn: t, stepSize: 0.8 }), 3000, 0.04],
    ['RandomWalkMetropolis', (t) => new RandomWalkMetropolis({ targetLogProbFn: t, newStateFn: randomWalkNormalFn({ scale: 2 }) }), 4000, 0.04],
  ];
  for (const [name, make, N, perStep] of cases) {
    it(`${name}: samples N(0, 1) (KS), counts every rejection per chain`, () => {
      const r = run(make(normalFlat('throw')), N, 7);
      const ks = thinnedKs(r.draws);
      expect(ks.n).toBeGreaterThan(250);
      expect(ks.p).toBeGreaterThan(ALPHA);
      const rej = r.trace.rejections.data as Int32Array;
      expect(r.trace.rejections.shape).toEqual([N, 4]);
      // Every chain meets faults: ≈ 5% of its proposals' points (HMC: of 3 per proposal).
      for (let c = 0; c < 4; c++) {
        let n = 0;
        for (let t = 0; t < N; t++) n += rej[t * 4 + c]!;
        expect(n / N).toBeGreaterThan(perStep / 2);
        expect(n / N).toBeLessThan(perStep * 2);
      }
      // The chains never sit on a faulty point.
      (r.draws.data as Float64Array).forEach((v) => expect(faultyAt(v)).toBe(false));
      // HMC: a rejected proposal is divergent.
      if (name.startsWith('Hamiltonian')) rej.forEach((n, i) => { if (n > 0) expect((r.trace.diverging.data as Uint8Array)[i]).toBe(1); });
    });
  }

  it('NoUTurnSampler and SliceSampler: a failure is a divergence / outside the slice, and the run goes on', () => {
    const nuts = run(new NoUTurnSampler({ targetLogProbFn: normalFlat('throw'), stepSize: 0.7 }), 1500, 3);
    expect(thinnedKs(nuts.draws).p).toBeGreaterThan(ALPHA);
    const rej = nuts.trace.rejections.data as Int32Array;
    expect(total(nuts.trace.rejections)).toBeGreaterThan(50);
    rej.forEach((n, i) => { if (n > 0) expect((nuts.trace.diverging.data as Uint8Array)[i]).toBe(1); });
    // With two leapfrog steps per leaf, a failure at a leaf's first step still makes it divergent.
    const unrolled = run(new NoUTurnSampler({ targetLogProbFn: normalFlat('throw'), stepSize: 0.35, unrolledLeapfrogSteps: 2 }), 300, 3);
    expect(total(unrolled.trace.rejections)).toBeGreaterThan(20);
    (unrolled.trace.rejections.data as Int32Array).forEach((n, i) => { if (n > 0) expect((unrolled.trace.diverging.data as Uint8Array)[i]).toBe(1); });
    // The slice sampler takes a tensor function: one that throws for the batch fails every chain's point.
    const throwing = (x: Tensor) => {
      const d = x.data as Float64Array;
      for (let i = 0; i < d.length; i++) if (faultyAt(d[i]!)) throw new RangeError('injected fault');
      return sum(mul(-0.5, square(x)), -1);
    };
    const slice = run(new SliceSampler({ targetLogProbFn: throwing, stepSize: 1, maxDoublings: 5 }) as TransitionKernel<object>, 600, 5);
    expect(thinnedKs(slice.draws).p).toBeGreaterThan(ALPHA);
    const srej = slice.trace.rejections.data as Int32Array;
    expect(total(slice.trace.rejections)).toBeGreaterThan(50);
    // Every chain counts the step where the batch threw.
    for (let t = 0; t < 600; t++) for (let c = 1; c < 4; c++) expect(srej[t * 4 + c]).toBe(srej[t * 4]);
  });

  it('a NaN log density or gradient is counted the same way; a healthy run counts none', () => {
    const nan = run(new HamiltonianMonteCarlo({ targetLogProbFn: normalFlat('nan'), stepSize: 0.6, numLeapfrogSteps: 3 }), 300, 7);
    expect(total(nan.trace.rejections)).toBeGreaterThan(0);
    // A finite log density with a NaN gradient entry is a failure too (HMC: 4 chains × 300).
    const nanGrad = run(new HamiltonianMonteCarlo({ targetLogProbFn: normalFlat('nan-grad'), stepSize: 0.6, numLeapfrogSteps: 3 }), 300, 7);
    expect(total(nanGrad.trace.rejections)).toBeGreaterThan(0);
    (nanGrad.draws.data as Float64Array).forEach((v) => expect(Number.isFinite(v) && !faultyAt(v)).toBe(true));
    const healthy = run(new HamiltonianMonteCarlo({ targetLogProbFn: normalFlat('none'), stepSize: 0.6, numLeapfrogSteps: 3 }), 300, 7);
    expect(total(healthy.trace.rejections)).toBe(0);
  });

  it('a programming error (TypeError) still throws, from a flat target and from a tensor function', () => {
    expect(() => run(new HamiltonianMonteCarlo({ targetLogProbFn: normalFlat('type-error'), stepSize: 0.6, numLeapfrogSteps: 3 }), 300, 7)).toThrow(TypeError);
    expect(() => run(new RandomWalkMetropolis({ targetLogProbFn: normalFlat('type-error') }), 300, 7)).toThrow(TypeError);
    let calls = 0;
    const late = (x: Tensor) => { if (++calls > 5) (undefined as unknown as () => void)(); return sum(mul(-0.5, square(x)), -1); };
    expect(() => run(new MetropolisAdjustedLangevinAlgorithm({ targetLogProbFn: late, stepSize: 0.5 }), 50, 1)).toThrow(TypeError);
  });
});

describe('one chain’s failure rejects only its own proposal', () => {
  // A mixture of N(−20, 1) and N(20, 1): chain 0 starts at +20, chains 1–3 at −20, and no chain
  // crosses (the modes are 40 sd apart). The density fails at 5% of the points with x > 0 only,
  // so only chain 0 meets faults; chains 1–3 must be the bits of the run without faults.
  const mixture = (fault: Fault): FlatTarget => {
    const f = (x: ArrayLike<number>, g?: Float64Array) => {
      const v = x[0]!;
      if (fault !== 'none' && v > 0 && faultyAt(v)) throw new Error('injected fault');
      const a = -0.5 * (v + 20) ** 2, b = -0.5 * (v - 20) ** 2, m = Math.max(a, b);
      const wa = Math.exp(a - m), wb = Math.exp(b - m);
      if (g) g[0] = (wa * -(v + 20) + wb * -(v - 20)) / (wa + wb);
      return m + Math.log(wa + wb);
    };
    return { dim: 1, paramNames: ['x'], logDensity: (x) => f(x), logDensityGradient: (x, g) => f(x, g) };
  };
  const start = tensor([[20], [-20], [-20.5], [-19.5]]);
  const kernels: [string, (t: FlatTarget) => TransitionKernel<object>][] = [
    ['HMC', (t) => new HamiltonianMonteCarlo({ targetLogProbFn: t, stepSize: 0.5, numLeapfrogSteps: 4 })],
    ['NUTS', (t) => new NoUTurnSampler({ targetLogProbFn: t, stepSize: 0.5 })],
    ['MALA', (t) => new MetropolisAdjustedLangevinAlgorithm({ targetLogProbFn: t, stepSize: 0.5 })],
    ['RWM', (t) => new RandomWalkMetropolis({ targetLogProbFn: t })],
  ];
  for (const [name, make] of kernels) {
    it(`${name}: chains 1–3 are bit-identical to the run without faults, and count no rejection (4 chains × 300)`, () => {
      const go = (fault: Fault) => sampleChain({
        numResults: 300, currentState: start, kernel: make(mixture(fault)), seed: 11,
        traceFn: (_, r) => ({ rejections: (((r as { proposedResults?: object }).proposedResults ?? r) as { rejections: Tensor }).rejections }),
      });
      const bad = go('throw'), good = go('none');
      const b = (bad.allStates as Tensor).data as Float64Array, g = (good.allStates as Tensor).data as Float64Array;
      const rej = (bad.trace as unknown as { rejections: Tensor }).rejections.data as Int32Array;
      let chain0 = 0;
      for (let t = 0; t < 300; t++) {
        for (let c = 1; c < 4; c++) { expect(b[t * 4 + c]).toBe(g[t * 4 + c]); expect(rej[t * 4 + c]).toBe(0); }
        chain0 += rej[t * 4]!;
      }
      expect(chain0).toBeGreaterThan(0);
      expect(b.some((v, i) => v !== g[i])).toBe(true);   // chain 0 did change
    });
  }

  it('ReplicaExchangeMC with a tensor target that throws: every replica’s and chain’s proposal is rejected for that step, and the run goes on', () => {
    let thrown = 0;
    const target = (x: Tensor) => {
      const d = x.data as Float64Array;
      for (let i = 0; i < d.length; i++) if (faultyAt(d[i]!)) { thrown++; throw new Error('injected fault'); }
      return sum(mul(-0.5, square(x)), -1);
    };
    const remc = new ReplicaExchangeMC({
      targetLogProbFn: target, inverseTemperatures: tensor([1, 0.5]),
      makeKernelFn: (t) => new HamiltonianMonteCarlo({ targetLogProbFn: t, stepSize: 0.5, numLeapfrogSteps: 2 }),
    });
    const out = sampleChain({ numResults: 200, currentState: tensor([[0.1], [0.2]]), kernel: remc, seed: 2 });
    expect(thrown).toBeGreaterThan(0);
    ((out.allStates as Tensor).data as Float64Array).forEach((v) => expect(faultyAt(v)).toBe(false));
  });
});

describe('pooled windowedAdaptiveNuts: failures at a proposal are rejections', () => {
  /** x ~ N(0, 1), y | x ~ N(x, 1), y = 0 observed: x | y ~ N(0, 1/2); the likelihood fails at faulty x. */
  const model = (fault: Fault) => new JointDistributionNamed({
    x: new Normal({ loc: 0, scale: 1 }),
    y: ({ x }: Record<string, Tensor>) => {
      if (fault !== 'none' && faultyAt((x.data as Float64Array)[0]!)) {
        if (fault === 'throw') throw new Error('injected fault');
        if (fault === 'type-error') (undefined as unknown as () => void)();
        return new Normal({ loc: x, scale: NaN });
      }
      return new Normal({ loc: x, scale: 1 });
    },
  });
  // The step size is adapted to the chains' arithmetic mean acceptance: TFP's default, the
  // harmonic mean, is 0 whenever one chain's trajectory fails at its first leaf, and faults that
  // are a hash of the point (as likely at any step size) then drive the step size to ~1e-13
  // (measured: bulk ESS 5 of 2000 draws). Real failures (a Cholesky factor far out in the tails)
  // get rarer as the step shrinks; these do not.
  const opts = {
    adaptation: 'pooled', pins: { y: 0 }, compile: false, seed: 4, nChains: 4, numAdaptationSteps: 200, nDraws: 1000,
    dualAveraging: { reduceFn: reduceLogMeanExp },
  } as const;

  it('a likelihood that throws at 5% of points: the posterior is right (KS), every rejection counted and named (4 chains × 1000)', () => {
    const r = windowedAdaptiveNuts(model('throw'), opts);
    const ks = thinnedKs(r.draws.x!, Math.SQRT1_2);
    expect(ks.n).toBeGreaterThan(250);
    expect(ks.p).toBeGreaterThan(ALPHA);
    expect(r.rejections).toHaveLength(1);
    const [rej] = r.rejections!;
    expect(rej!.message).toBe('Error: injected fault');
    expect(rej!.node).toBe('node `y` (building its distribution)');
    expect(rej!.chains).toEqual([0, 1, 2, 3]);
    expect(rej!.warmupCount).toBeGreaterThan(0);
    const trace = r.trace as { rejections: Tensor; diverging: Tensor; nSteps: Tensor };
    expect(trace.rejections.shape).toEqual([1000, 4]);
    expect(rej!.count - rej!.warmupCount).toBe(total(trace.rejections));
    // At most one per chain per transition, each a divergence.
    const rejs = trace.rejections.data as Int32Array, div = trace.diverging.data as Uint8Array;
    rejs.forEach((n, i) => { expect(n).toBeLessThanOrEqual(1); if (n > 0) expect(div[i]).toBe(1); });
    expect(total(trace.rejections)).toBeGreaterThan(100);
    (r.draws.x!.data as Float64Array).forEach((v) => expect(faultyAt(v)).toBe(false));
  });

  it('a NaN likelihood is kind NaN at node y; a healthy run has none; a TypeError throws', () => {
    const nan = windowedAdaptiveNuts(model('nan'), { ...opts, nDraws: 200 });
    expect(nan.rejections!.map((e) => [e.kind, e.node])).toEqual([['NaN', 'node `y`']]);
    const healthy = windowedAdaptiveNuts(model('none'), { ...opts, nDraws: 100 });
    expect(healthy.rejections).toEqual([]);
    expect(total((healthy.trace as { rejections: Tensor }).rejections)).toBe(0);
    expect(() => windowedAdaptiveNuts(model('type-error'), { ...opts, nDraws: 100 })).toThrow(TypeError);
  });

  it('an aborted run\'s partial carries the rejections so far (pooled and per-chain)', () => {
    for (const adaptation of ['pooled', 'per-chain'] as const) {
      let steps = 0;
      const controller = new AbortController();
      const onProgress = () => { if (++steps === 4 * 250) controller.abort(); };   // after warm-up (200 pooled, 100 per-chain)
      const { dualAveraging: _, ...perChain } = opts;   // reduceFn is the pooled adaptation's
      const run = () => windowedAdaptiveNuts(model('throw'), { ...(adaptation === 'pooled' ? opts : perChain), adaptation, numAdaptationSteps: adaptation === 'pooled' ? 200 : 100, nDraws: 300, progressInterval: 0, onProgress, signal: controller.signal });
      let partial: WindowedPartial | undefined;
      try { run(); } catch (e) { if (e instanceof AbortError) partial = e.partial as WindowedPartial; else throw e; }
      expect(partial, adaptation).toBeDefined();
      expect(partial!.numResults).toBeGreaterThan(0);
      expect(partial!.rejections.map((r) => r.message), adaptation).toEqual(['Error: injected fault']);
      expect(partial!.rejections[0]!.count).toBeGreaterThan(0);
    }
  });
});
