// windowedAdaptiveNuts(model, { adaptation: 'per-chain' }): Stan's warm-up schedule step by step
// (window ends at Stan's iterations, the regularized variance, the heuristic and dual-averaging
// restart after each window), dual averaging's fixed point, chains as independent computations
// (chain c alone = chain c among any number of chains, bit for bit), compiled = tape bits,
// posterior moments, abort, progress and bad input.
//
// Moment checks are |estimate − truth| < 4 MCSE (≈ 6.3e-5 per check under normality); this file
// makes 30 such checks, so a correct sampler fails one with probability ≈ 2e-3 over the choice
// of seeds, which are fixed, so the outcome is deterministic.
import { describe, expect, it } from 'vitest';
import { Gamma } from '../../distributions/gamma.js';
import { HalfNormal } from '../../distributions/half-normal.js';
import { Independent } from '../../distributions/independent.js';
import { MultivariateNormalTriL } from '../../distributions/multivariate-normal-tri-l.js';
import { cholesky } from '../../src/tensor/ops/linalg.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Poisson } from '../../distributions/poisson.js';
import { Sample } from '../../distributions/sample.js';
import { mcseMean } from '../../mcmc/diagnostics/index.js';
import { ChainRandom, type NutsChain } from '../../mcmc/nuts/stan/nuts-chain.js';
import { configure, getModes } from '../../src/config.js';
import { key } from '../../src/random/keys.js';
import { threefry2x32 } from '../../src/random/threefry-impl.js';
import { StanWarmup, STAN_DUAL_AVERAGING } from '../../mcmc/nuts/stan/warmup.js';
import { DenseMetric } from '../../mcmc/internal/metric.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { windowedAdaptiveNuts, type WindowedPartial, type WindowedProgress } from '../../mcmc/windowed-adaptive-nuts.js';
import { expectMoments, normalNormalJoint } from './conjugate.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';

/** A stand-in chain: records heuristic calls; its draw at step t is (t, 2t) and its acceptance statistic `accept`. */
function fakeChain(accept: number, dense: DenseMetric | null = null) {
  const calls: number[] = [];
  const chain = {
    stepSize: 1, acceptStat: accept, invMetric: new Float64Array(2).fill(1), q: new Float64Array(2), dim: 2, dense,
    step: 0,
    initStepSize() { calls.push(chain.step); },
  };
  return { chain, calls, asChain: chain as unknown as NutsChain };
}

function runWarmup(numWarmup: number, accept = 0.8) {
  const { chain, calls, asChain } = fakeChain(accept);
  const w = new StanWarmup(numWarmup, 2, STAN_DUAL_AVERAGING);
  w.begin(asChain);
  const metrics: [number, number[]][] = [];
  for (let t = 0; t < numWarmup; t++) {
    chain.step = t;
    chain.q[0] = t; chain.q[1] = 2 * t;
    const before = Array.from(chain.invMetric);
    w.afterTransition(asChain, 'test');
    if (Array.from(chain.invMetric).some((v, i) => v !== before[i])) metrics.push([t, Array.from(chain.invMetric)]);
  }
  w.end(asChain);
  return { calls, metrics, chain };
}

/** Sample variance (n − 1) of a..b inclusive, regularized as Stan: (n/(n+5))·var + 1e-3·5/(n+5). */
function stanVariance(a: number, b: number, scale: number): number {
  const n = b - a + 1, mean = (a + b) / 2;
  let s = 0;
  for (let t = a; t <= b; t++) s += (scale * (t - mean)) ** 2;
  return (n / (n + 5)) * (s / (n - 1)) + 1e-3 * (5 / (n + 5));
}

describe("Stan's warm-up schedule", () => {
  it('1000 warm-up steps: windows end at iterations 100, 150, 250, 450, 950 (75 / 25, 50, 100, 200, 500 / 50), each draw in exactly one window', () => {
    const { calls, metrics } = runWarmup(1000);
    expect(calls).toEqual([99, 149, 249, 449, 949]);
    expect(metrics.map(([t]) => t)).toEqual([99, 149, 249, 449, 949]);
    const bounds = [[75, 99], [100, 149], [150, 249], [250, 449], [450, 949]];
    metrics.forEach(([, m], i) => {
      const [a, b] = bounds[i]!;
      expect(m[0]).toBeCloseTo(stanVariance(a!, b!, 1), 9);
      expect(m[1]).toBeCloseTo(stanVariance(a!, b!, 2), 9);
    });
  });

  it("dense metric: each window's covariance, shrunk as Stan's covar_adaptation (n/(n+5)·Σ + 1e-3·5/(n+5)·I)", () => {
    const dense = new DenseMetric(2);
    const { chain, asChain } = fakeChain(0.8, dense);
    const w = new StanWarmup(1000, 2, STAN_DUAL_AVERAGING, 'dense');
    w.begin(asChain);
    for (let t = 0; t < 150; t++) { chain.q[0] = t; chain.q[1] = 2 * t; w.afterTransition(asChain, 'test'); }
    // After the second window (draws 100..149): var(t) over it, covariance 2·var, var(2t) = 4·var, shrunk.
    const n = 50, v = (n * (n + 1)) / 12, shrink = n / (n + 5), eps = 1e-3 * (5 / (n + 5));
    const want = [shrink * v + eps, shrink * 2 * v, shrink * 2 * v, shrink * 4 * v + eps];
    Array.from(dense.cov).forEach((c, i) => expect(c).toBeCloseTo(want[i]!, 9));
    expect(Array.from(chain.invMetric)).toEqual([1, 1]);             // the diagonal one is not used
  });

  it('150 steps fit 75 + 25 + 50 exactly: one window; 100 steps shrink to 15 / 75 / 10; under 20 steps no metric', () => {
    expect(runWarmup(150).calls).toEqual([99]);
    expect(runWarmup(100).calls).toEqual([89]);      // init 15, window 75 → ends at 15 + 75 − 1
    const small = runWarmup(19);
    expect(small.calls).toEqual([]);
    expect(Array.from(small.chain.invMetric)).toEqual([1, 1]);
  });

  it('dual averaging: acceptance at the target keeps log ε at μ = log(10 ε₀); the final step size is exp(x̄)', () => {
    const { chain } = runWarmup(10, STAN_DUAL_AVERAGING.targetAcceptProb);
    expect(chain.stepSize).toBeCloseTo(10, 12);
    // acceptance 1 (above target): ε grows past 10 ε₀ after the first step: x = μ + 0.2·√1/0.05·(1/11)
    const { asChain, chain: c2 } = fakeChain(1);
    const w = new StanWarmup(10, 2, STAN_DUAL_AVERAGING);
    w.begin(asChain);
    w.afterTransition(asChain, 'test');
    expect(c2.stepSize).toBeCloseTo(Math.exp(Math.log(10) + (0.2 / 11) / 0.05), 12);
  });
});

const { model: normal, y: yNormal, mean: mPost, variance: vPost } = normalNormalJoint();
const normalModel = () => normal;
/** Chain c's values of a `[draws, C]` tensor. */
const column = (t: Tensor, c: number, C: number) => Array.from(t.data as ArrayLike<number>).filter((_, i) => i % C === c);

describe("windowedAdaptiveNuts(..., { adaptation: 'per-chain' })", () => {
  const opts = { adaptation: 'per-chain' as const, nDraws: 800, numAdaptationSteps: 300 };

  it('normal–normal: posterior moments, Stan-style trace, per-chain step sizes', () => {
    const { draws, trace } = windowedAdaptiveNuts(normalModel(), { ...opts, pins: { y: yNormal }, seed: 3 });
    expect(draws.mu!.shape).toEqual([800, 4]);
    for (const k of ['stepSize', 'tune', 'nSteps', 'treeDepth', 'diverging', 'acceptRatio', 'energy', 'targetLogProb', 'isAccepted'] as const) expect(trace[k].shape, k).toEqual([800, 4]);
    expectMoments('normal–normal', draws.mu!, [mPost], [vPost]);
    const eps = [0, 1, 2, 3].map((c) => column(trace.stepSize, c, 4));
    eps.forEach((e) => expect(new Set(e).size).toBe(1));                  // frozen after warm-up
    expect(new Set(eps.map((e) => e[0])).size).toBe(4);                    // one per chain
    const steps = Array.from(trace.nSteps.data as Int32Array), depth = Array.from(trace.treeDepth.data as Int32Array);
    // depth counts completed doublings; a last, abandoned subtree adds at most 2^depth more steps
    steps.forEach((n, i) => { expect(n).toBeGreaterThanOrEqual(2 ** depth[i]! - 1); expect(n).toBeLessThanOrEqual(2 ** (depth[i]! + 1) - 1); });
    expect(Array.from(trace.diverging.data as Uint8Array).every((d) => d === 0)).toBe(true);
  }, 60_000);

  it('constrained and vector nodes: gamma–poisson and a 6-d standard normal beside a half-normal', () => {
    const ys = [2, 4, 1, 3, 5];
    const gp = new JointDistributionNamed({
      lam: new Gamma({ concentration: 3, rate: 2 }),
      y: (lam: Tensor) => new Sample({ distribution: new Poisson({ rate: lam }), sampleShape: ys.length }),
    });
    const { draws } = windowedAdaptiveNuts(gp, { ...opts, pins: { y: ys }, seed: 5 });
    expectMoments('gamma–poisson', draws.lam!, [18 / 7], [18 / 49]);
    const m = new JointDistributionNamed({
      s: new HalfNormal({ scale: 2 }),
      z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 6 }),
    });
    const r = windowedAdaptiveNuts(m, { ...opts, seed: 11 });
    // HalfNormal(2): mean 2√(2/π), variance 4(1 − 2/π)
    expectMoments('half-normal', r.draws.s!, [2 * Math.sqrt(2 / Math.PI)], [4 * (1 - 2 / Math.PI)]);
    expectMoments('z', r.draws.z!, new Array(6).fill(0), new Array(6).fill(1));
  }, 60_000);

  it("metric: 'dense' on a strongly correlated 3-d Gaussian: moments and correlations, fewer leapfrog steps than the diagonal metric", () => {
    const rho = 0.95, sd = [1, 2, 0.5];
    const cov = sd.map((a, i) => sd.map((b, j) => a * b * rho ** Math.abs(i - j)));
    const model = new JointDistributionNamed({ x: new MultivariateNormalTriL({ loc: tensor([1, -1, 0]), scaleTril: cholesky(tensor(cov)) }) });
    const dense = windowedAdaptiveNuts(model, { ...opts, seed: 4, metric: 'dense' });
    const x = dense.draws.x!, xd = x.data as Float64Array, N = x.size / 3;
    expectMoments('x', x, [1, -1, 0], cov.map((row, k) => row[k]!));
    // E[(x0 − μ0)(x1 − μ1)] = cov[0][1]
    const prod = new Tensor(Float64Array.from({ length: N }, (_, i) => (xd[i * 3]! - 1) * (xd[i * 3 + 1]! + 1)), [800, 4], 'float64');
    const avg = Array.from(prod.data as Float64Array).reduce((p, v) => p + v, 0) / N;
    expect(Math.abs(avg - cov[0]![1]!)).toBeLessThan(4 * (mcseMean(prod).data[0] as number));
    const diag = windowedAdaptiveNuts(model, { ...opts, seed: 4 });
    const steps = (t: Tensor) => Array.from(t.data as Int32Array).reduce((p, v) => p + v, 0);
    expect(steps(dense.trace.nSteps)).toBeLessThan(steps(diag.trace.nSteps) / 2);
    expect(() => windowedAdaptiveNuts(model, { adaptation: 'pooled', metric: 'dense' })).toThrow(/metric.*per-chain/);
    expect(() => windowedAdaptiveNuts(model, { metric: 'full' as never })).toThrow(/metric/);
    expect(() => windowedAdaptiveNuts(model, { metrics: 'dense' } as never)).toThrow(/unknown option `metrics`/);
  }, 60_000);

  it('numStepsBetweenResults thins after warm-up: the kept draws are every (k + 1)-th draw of the unthinned run, per-chain and pooled', () => {
    const model = new JointDistributionNamed({ s: new HalfNormal({ scale: 1 }), z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }) });
    for (const adaptation of ['per-chain', 'pooled'] as const) {
      const o = { adaptation, seed: 3, numAdaptationSteps: 40, nChains: 2 };
      const thinned = windowedAdaptiveNuts(model, { ...o, nDraws: 6, numStepsBetweenResults: 2 });
      const all = windowedAdaptiveNuts(model, { ...o, nDraws: 16 });
      const every3 = (t: Tensor) => Array.from(t.data as Float64Array).filter((_, i) => Math.floor(i / 2) % 3 === 0);   // rows 0, 3, …, 15 of [16, 2]
      expect(thinned.draws.s!.shape, adaptation).toEqual([6, 2]);
      expect(Array.from(thinned.draws.s!.data as Float64Array), adaptation).toEqual(every3(all.draws.s!));
    }
    expect(() => windowedAdaptiveNuts(model, { nDraws: 5, numStepsBetweenResults: 1, discardTuning: false })).toThrow(/numStepsBetweenResults.*discardTuning/);
    expect(() => windowedAdaptiveNuts(model, { nDraws: 5, numStepsBetweenResults: -1 })).toThrow(RangeError);
  }, 60_000);

  it('chain c alone (chainIndex) equals chain c among 4 and among 3, bit for bit; compiled and tape give the same bits', () => {
    const model = new JointDistributionNamed({ s: new HalfNormal({ scale: 1 }), z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }) });
    const o = { adaptation: 'per-chain' as const, seed: 7, nDraws: 40, numAdaptationSteps: 60 };
    const four = windowedAdaptiveNuts(model, { ...o, nChains: 4 });
    const three = windowedAdaptiveNuts(model, { ...o, nChains: 3 });
    const alone = windowedAdaptiveNuts(model, { ...o, nChains: 4, chainIndex: 2 });
    expect(alone.draws.s!.shape).toEqual([40, 1]);
    expect(column(alone.draws.s!, 0, 1)).toEqual(column(four.draws.s!, 2, 4));
    expect(column(three.draws.s!, 2, 3)).toEqual(column(four.draws.s!, 2, 4));
    expect(column(alone.trace.energy, 0, 1)).toEqual(column(four.trace.energy, 2, 4));
    expect(column(four.draws.s!, 0, 4)).not.toEqual(column(four.draws.s!, 1, 4));
    const tape = windowedAdaptiveNuts(model, { ...o, nChains: 2, compile: false });
    expect(Array.from(tape.draws.z!.data as Float64Array)).toEqual(Array.from(four.draws.z!.data as Float64Array).filter((_, i) => Math.floor(i / 3) % 4 < 2));
    const other = windowedAdaptiveNuts(model, { ...o, nChains: 1, seed: 8 });
    expect(column(other.draws.s!, 0, 1)).not.toEqual(column(four.draws.s!, 0, 4));
  }, 60_000);

  it('currentState, discardTuning: false, progress per chain, abort with the draws so far', () => {
    const progress: WindowedProgress[] = [];
    const r = windowedAdaptiveNuts(normalModel(), {
      adaptation: 'per-chain', pins: { y: yNormal }, seed: 1, nDraws: 5, numAdaptationSteps: 30, nChains: 3,
      currentState: { mu: [1, 2, 3] }, discardTuning: false, onProgress: (p) => progress.push(p), progressInterval: 0,
    });
    expect(r.draws.mu!.shape).toEqual([35, 3]);
    expect(Array.from(r.trace.tune.data as Uint8Array)).toEqual([...Array(90).fill(1), ...Array(15).fill(0)]);
    expect(progress.length).toBe(35 * 3);
    // warm-up counted apart: the counts equal chain 2's diverging flags over the (undiscarded) warm-up and after it
    const flags2 = column(r.trace.diverging, 2, 3), count = (f: number[]) => f.reduce((a, b) => a + b, 0);
    expect(progress.at(-1)).toEqual({ chain: 2, step: 35, total: 35, phase: 'sampling', divergences: count(flags2.slice(30)), warmupDivergences: count(flags2.slice(0, 30)) });
    expect(progress[3 * 30 - 1]!.phase).toBe('warmup');

    const controller = new AbortController();
    let caught: unknown;
    try {
      windowedAdaptiveNuts(normalModel(), {
        adaptation: 'per-chain', pins: { y: yNormal }, seed: 1, nDraws: 50, numAdaptationSteps: 30, signal: controller.signal,
        onProgress: (p) => { if (p.step === 40 && p.chain === 3) controller.abort('stop'); }, progressInterval: 0,
      });
    } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(AbortError);
    const partial = (caught as AbortError<WindowedPartial>).partial;
    expect(partial.numResults).toBe(10);
    expect((partial.draws as Record<string, Tensor>).mu!.shape).toEqual([10, 4]);
    const full = windowedAdaptiveNuts(normalModel(), { adaptation: 'per-chain', pins: { y: yNormal }, seed: 1, nDraws: 50, numAdaptationSteps: 30 });
    expect(Array.from((partial.draws as Record<string, Tensor>).mu!.data as Float64Array)).toEqual(Array.from(full.draws.mu!.data as Float64Array).slice(0, 40));
  }, 60_000);

  /** A straight line through four points, written for one draw (a and b scalars). */
  const line = () => {
    const xs = tensor([0, 1, 2, 3]);
    return new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 5 }),
      b: new Normal({ loc: 0, scale: 5 }),
      y: ({ a, b }: Record<string, Tensor>) => new Independent({ distribution: new Normal({ loc: add(a, mul(b, xs)), scale: 0.5 }), reinterpretedBatchNdims: 1 }),
    }, { name: 'Line' });
  };

  it('models are written for one draw; a mis-shaped pin or a callable whose shapes clash names its node', () => {
    const regression = line();
    const { draws } = windowedAdaptiveNuts(regression, { pins: { y: tensor([1.1, 2.9, 5.2, 6.8]) }, seed: 2, nDraws: 400, numAdaptationSteps: 300 });
    const mean = (t: Tensor) => Array.from(t.data as Float64Array).reduce((p, v) => p + v, 0) / t.size;
    expect(mean(draws.b!)).toBeGreaterThan(1.5);                         // least squares: b = 1.92, sd ≈ 0.22
    expect(mean(draws.b!)).toBeLessThan(2.4);
    expect(() => windowedAdaptiveNuts(regression, { pins: { y: tensor([1, 2, 3]) }, nDraws: 2, numAdaptationSteps: 0 }))
      .toThrow(/\[3\].*\[4\].*\(in node `model\.y` of model "Line"\)/);
  }, 60_000);

  it("adaptation: 'pooled' takes the same model written for one draw: chains evaluated one by one, one step size for all", () => {
    const { draws, trace } = windowedAdaptiveNuts(line(), { adaptation: 'pooled', pins: { y: tensor([1.1, 2.9, 5.2, 6.8]) }, seed: 2, nDraws: 400, numAdaptationSteps: 300 });
    expect(draws.b!.shape).toEqual([400, 4]);
    // Least squares: a = 1.14, b = 1.92; posterior sds ≈ 0.42 and 0.22, so 1600 draws (ESS > 200) put the means within ±0.2 / ±0.1 with |z| > 6 needed to fail.
    const mean = (t: Tensor) => Array.from(t.data as Float64Array).reduce((p, v) => p + v, 0) / t.size;
    expect(Math.abs(mean(draws.a!) - 1.14)).toBeLessThan(0.2);
    expect(Math.abs(mean(draws.b!) - 1.92)).toBeLessThan(0.1);
    const steps = trace.stepSize.data as Float64Array;
    for (let i = 0; i < steps.length; i++) expect(steps[i]).toBe(steps[i - (i % 4)]);   // one adapted step size shared by the 4 chains of a draw
  }, 60_000);

  it('bad input: options only the pooled sampler has, chainIndex, step sizes, dual-averaging names', () => {
    const m = normalModel(), pins = { y: yNormal };
    const call = (o: object) => () => windowedAdaptiveNuts(m, { pins, nDraws: 2, numAdaptationSteps: 0, ...o });
    expect(call({ adaptation: 'stan' })).toThrow(/windowedAdaptiveNuts: `adaptation`/);
    expect(call({ adaptation: 'pooled', chainIndex: 1 })).toThrow(/`chainIndex`.*per-chain/);
    expect(call({ adaptation: 'per-chain', chainIndex: 4 })).toThrow(RangeError);
    expect(call({ adaptation: 'per-chain', chainIndex: 1.5 })).toThrow(/chainIndex/);
    expect(call({ adaptation: 'per-chain', traceFn: () => ({}) })).toThrow(/traceFn.*pooled/);
    expect(call({ adaptation: 'per-chain', initStepSize: [0.1] })).toThrow(/initStepSize.*one number/);
    expect(call({ adaptation: 'per-chain', initStepSize: -1 })).toThrow(/initStepSize/);
    expect(call({ adaptation: 'per-chain', targetAcceptProb: 1 })).toThrow(/targetAcceptProb/);
    expect(call({ adaptation: 'per-chain', dualAveraging: { reduceFn: () => 0 } })).toThrow(/unknown option `reduceFn`/);
    expect(call({ adaptation: 'per-chain', maxTreeDepth: 0 })).toThrow(/maxTreeDepth/);
    expect(call({ adaptation: 'per-chain', maxEnergyDiff: Number.NaN })).toThrow(/maxEnergyDiff/);
    expect(call({ nDraws: 1e8 })).toThrow(/windowedAdaptiveNuts: `nDraws` keeps 100000000 draws × 1 coordinates × 4 chains, more than 2\^28/);
  });
});

describe('ChainRandom: uniforms one at a time (the PRNG record\'s uniformFloat64At)', () => {
  it('element j alone is element j of the whole fill, in both threefry modes, and the chain draws are those of the block path', () => {
    const k = Uint32Array.of(0x12345678, 0x9abcdef0);
    for (const partitionable of [true, false]) {
      const modes = { ...getModes(), partitionable };
      const all = new Float64Array(32);
      threefry2x32.uniformFloat64!(k, all, modes);
      for (let j = 0; j < 32; j++) expect(threefry2x32.uniformFloat64At!(k, j, 32, modes)).toBe(all[j]);
    }
    // A stream of single uniforms across blocks, with and without the hook.
    const draw = () => { const r = new ChainRandom(key(5), getModes()); r.begin(3); return Array.from({ length: 70 }, () => r.uniform()); };
    const at = threefry2x32.uniformFloat64At;
    for (const partitionable of [true, false]) {
      configure({ threefryPartitionable: partitionable });
      try {
        const one = draw();
        delete (threefry2x32 as { uniformFloat64At?: unknown }).uniformFloat64At;
        expect(draw()).toEqual(one);
      } finally {
        (threefry2x32 as { uniformFloat64At?: unknown }).uniformFloat64At = at;
        configure({ threefryPartitionable: true });
      }
    }
  });
});
