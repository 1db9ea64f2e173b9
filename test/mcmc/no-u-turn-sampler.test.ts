// NoUTurnSampler: posterior moments on conjugate models within 4 MCSE (false-failure rate: see
// conjugate.ts, ≈ 6e-5 per comparison), a depth-1 step assembled by hand from TFP's seed usage,
// masking of finished chains (a chain run among others equals the chain run alone),
// reproducibility and chunking, tree depth, divergences (energy error and NaN gradients) and bad
// input.
import { describe, expect, it } from 'vitest';
import { getInverseMassDiag, getLogAcceptRatio, getStepSize, setInverseMassDiag } from '../../mcmc/internal/kernel-results.js';
import { NoUTurnSampler } from '../../mcmc/kernels/no-u-turn-sampler.js';
import { sampleChain } from '../../mcmc/sample-chain.js';
import { random } from '../../src/index.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { normal } from '../../src/samplers/normal.js';
import { uniform } from '../../src/samplers/uniform.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import {
  chunkedAndWhole, correlatedGaussian, expectMoments, gammaPoisson, normalNormal, stdNormal, stdNormalGrad, twoParts,
} from './conjugate.js';

describe('NoUTurnSampler on conjugate models (within 4 MCSE)', () => {
  it('normal–normal, gradients by autodiff (4 chains × 1000)', () => {
    const m = normalNormal();
    const kernel = new NoUTurnSampler({ targetLogProbFn: m.targetLogProbFn, stepSize: 0.4 });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 100, currentState: zeros([4]), kernel, seed: 1 });
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });

  it('gamma–poisson in log space (4 chains × 1000)', () => {
    const m = gammaPoisson();
    const kernel = new NoUTurnSampler({ targetLogProbAndGradFn: m.targetLogProbAndGradFn, stepSize: 0.15 });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 200, currentState: zeros([4]), kernel, seed: 1 });
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });

  it('10-dim correlated Gaussian, identity mass (4 chains × 1000)', () => {
    const m = correlatedGaussian();
    const kernel = new NoUTurnSampler({ targetLogProbAndGradFn: m.targetLogProbAndGradFn, stepSize: 0.2 });
    const { allStates, trace } = sampleChain({
      numResults: 1000, numBurninSteps: 200, currentState: zeros([4, 10]), kernel, seed: 1, traceFn: (_, r) => r.hasDivergence,
    });
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
    expect((trace as Tensor).data.every((v) => v === 0)).toBe(true);
  });

  it('10-dim correlated Gaussian with a diagonal inverse mass matrix (4 chains × 500)', () => {
    const m = correlatedGaussian();
    const kernel = new NoUTurnSampler({ targetLogProbAndGradFn: m.targetLogProbAndGradFn, stepSize: 0.4, inverseMassDiag: tensor([...m.variance]) });
    const { allStates } = sampleChain({ numResults: 500, numBurninSteps: 100, currentState: zeros([4, 10]), kernel, seed: 2 });
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });
});

describe('NoUTurnSampler seed usage', () => {
  it('a depth-1 step equals one assembled by hand from TFP’s splits and samplers', () => {
    const eps = [0.9, 1.3], C = 6;
    const kernel = new NoUTurnSampler({ targetLogProbAndGradFn: twoParts, stepSize: eps, maxTreeDepth: 1 });
    const state = [tensor([0.5, -1, 2, 0, 1, -2]), tensor([[0.1, 0.2], [1, -1], [0, 3], [1, 1], [-1, 0], [2, 2]])];
    const pkr = kernel.bootstrapResults(state);
    const seed = random.key(77);
    const [next, res] = kernel.oneStep(state, pkr, seed);

    const key = sanitizeSeed(seed);
    const [startSeed, loopSeed] = splitSeed(key);
    const ms = splitSeed(startSeed!, { n: 3 });
    const p0 = [normal([C], { seed: ms[0] }), normal([C, 2], { seed: ms[1] })].map((t) => t.data as Float64Array);
    const [dirSeed, subtreeSeed, acceptSeed] = splitSeed(loopSeed!, { n: 4 });
    const dir = uniform([C], { minval: 0, maxval: 2, dtype: 'int32', seed: dirSeed }).data as Int32Array;
    const [leafAcceptSeed] = splitSeed(subtreeSeed!);
    const uLeaf = uniform([C], { seed: leafAcceptSeed }).data as Float64Array;
    const uTree = uniform([C], { seed: acceptSeed }).data as Float64Array;
    const x0 = state.map((t) => t.data as Float64Array);
    const [, g0] = twoParts(state[0]!, state[1]!);
    const lp0 = pkr.targetLogProb.data as Float64Array;
    let moved = 0, stayed = 0;
    for (let c = 0; c < C; c++) {
      const sgn = dir[c] ? 1 : -1, e = [sgn * eps[0]!, sgn * eps[1]!];
      const idx = [[c], [2 * c, 2 * c + 1]];
      const p = idx.map((is, k) => is.map((i) => p0[k]![i]! + 0.5 * e[k]! * (g0[k]!.data[i] as number)));
      const x = idx.map((is, k) => is.map((i, j) => x0[k]![i]! + e[k]! * p[k]![j]!));
      const [lp1, g1] = twoParts(tensor([x[0]![0]!]), tensor([x[1]!]));
      const p1 = p.map((pk, k) => pk.map((v, j) => v + 0.5 * e[k]! * (g1[k]!.data[j] as number)));
      const kin = (q: number[][]) => 0.5 * (q[0]![0]! ** 2 + q[1]![0]! ** 2 + q[1]![1]! ** 2);
      const h0 = lp0[c]! - kin(idx.map((is, k) => is.map((i) => p0[k]![i]!)));
      const diff = ((lp1.data[0] as number) - kin(p1)) - h0;
      expect(Math.log1p(-uLeaf[c]!)).toBeLessThanOrEqual(0);   // the first leaf always becomes the subtree's candidate
      const choose = Math.log1p(-uTree[c]!) <= diff;
      const [a, b] = next as Tensor[];
      expect(a!.data[c]).toBeCloseTo(choose ? x[0]![0]! : x0[0]![c]!, 12);
      expect(b!.data[2 * c + 1]).toBeCloseTo(choose ? x[1]![1]! : x0[1]![2 * c + 1]!, 12);
      expect(res.isAccepted.data[c]).toBe(choose ? 1 : 0);
      expect((res.logAcceptRatio.data as Float64Array)[c]).toBeCloseTo(Math.min(diff, 0), 12);
      expect(res.leapfrogsTaken.data[c]).toBe(1);
      // Still going after the one doubling unless (p0 + p1) · p0 < 0 or (p0 + p1) · p1 < 0 (the trajectory's U-turn check).
      const p0c = idx.map((is, k) => is.map((i) => p0[k]![i]!));
      const dot = (q: number[][]) => q.flat().reduce((acc, v, j) => acc + v * (p0c.flat()[j]! + p1.flat()[j]!), 0);
      expect(res.reachMaxDepth.data[c]).toBe(dot(p0c) >= 0 && dot(p1) >= 0 ? 1 : 0);
      if (choose) moved++; else stayed++;
    }
    expect(moved).toBeGreaterThan(0);
    expect(stayed).toBeGreaterThan(0);
    expect(res.leapfrogsTaken.dtype).toBe('int32');
    expect(Array.from(random.keyData(res.seed).data)).toEqual(Array.from(random.keyData(key).data));
  });
});

describe('NoUTurnSampler chains, reproducibility and tree depth', () => {
  const kernel = new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 0.3 });

  it('masks finished chains: each of 4 chains equals the same chain run alone', () => {
    const four = sampleChain({ numResults: 25, currentState: tensor([[0, 0, 0], [1, 2, 3], [-3, 0, 0], [0.5, 0.5, 0.5]]), kernel, seed: 5, traceFn: (_, r) => r.leapfrogsTaken });
    const f = four.allStates as Tensor;
    const steps = (four.trace as Tensor).data as Int32Array;
    expect(new Set(steps).size).toBeGreaterThan(2);   // chains really stop at different times
    // Chain 0 alone (partitionable threefry: a chain's draws do not depend on the batch size).
    const one = sampleChain({ numResults: 25, currentState: zeros([1, 3]), kernel, seed: 5 }).allStates as Tensor;
    for (let n = 0; n < 25; n++) for (let j = 0; j < 3; j++) expect(f.data[n * 12 + j]).toBe(one.data[n * 3 + j]);
  });

  it('gives identical draws for the same seed; run in 3 chunks equals one run, bit for bit', () => {
    const run = (seed: number) => Array.from((sampleChain({ numResults: 30, currentState: zeros([2, 3]), kernel, seed }).allStates as Tensor).data as Float64Array);
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
    const [whole, chunked] = chunkedAndWhole(kernel, zeros([2, 3]), 40, [10, 1, 29], 8);
    expect(Array.from(chunked.data as Float64Array)).toEqual(Array.from(whole.data as Float64Array));
  });

  it('stops at maxTreeDepth (2^depth − 1 leaves, times unrolledLeapfrogSteps) when the trajectory never turns', () => {
    // A very flat target with a tiny step size: no U-turn within 7 leaves.
    const flat = (x: Tensor) => [stdNormal(x), [new Tensor(new Float64Array(x.size), x.shape)]] as const;
    for (const unrolled of [1, 2]) {
      const k = new NoUTurnSampler({ targetLogProbAndGradFn: flat, stepSize: 0.01, maxTreeDepth: 3, unrolledLeapfrogSteps: unrolled });
      const x = zeros([3, 2]);
      const [, r] = k.oneStep(x, k.bootstrapResults(x), random.key(1));
      expect(Array.from(r.leapfrogsTaken.data as Int32Array)).toEqual([7, 7, 7].map((v) => v * unrolled));
      expect(Array.from(r.reachMaxDepth.data as Uint8Array)).toEqual([1, 1, 1]);
    }
  });

  it('U-turns on a Gaussian long before the maximum depth and nearly conserves energy with a small step', () => {
    const k = new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 0.05 });
    const { trace } = sampleChain({
      numResults: 20, currentState: zeros([4, 2]), kernel: k, seed: 2,
      traceFn: (_, r) => ({ n: r.leapfrogsTaken, max: r.reachMaxDepth, lar: r.logAcceptRatio, div: r.hasDivergence }),
    });
    const t = trace as { n: Tensor; max: Tensor; lar: Tensor; div: Tensor };
    expect(t.max.data.every((v) => v === 0)).toBe(true);
    expect(t.div.data.every((v) => v === 0)).toBe(true);
    const n = t.n.data as Int32Array;
    expect(n.every((v) => v >= 3 && v < 128)).toBe(true);     // half a period of the oscillation is π/ε ≈ 63 steps
    expect(n.reduce((a, b) => a + b, 0) / n.length).toBeGreaterThan(30);
    expect((t.lar.data as Float64Array).every((v) => v > -1e-2 && v <= 0)).toBe(true);
  });
});

describe('NoUTurnSampler divergences', () => {
  it('flags an energy error above maxEnergyDiff', () => {
    const k = new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 2.5, maxEnergyDiff: 0.5 });
    const { trace } = sampleChain({ numResults: 50, currentState: zeros([4, 5]), kernel: k, seed: 0, traceFn: (_, r) => r.hasDivergence });
    expect((trace as Tensor).data.some((v) => v === 1)).toBe(true);
  });

  it('treats a NaN log density or gradient as a divergence, never a crash, and keeps a valid state', () => {
    const nanOutside = (x: Tensor) => {
      const d = x.data as Float64Array, C = x.shape[0]!, D = d.length / C;
      const lp = new Float64Array(C), g = new Float64Array(d.length);
      for (let i = 0; i < d.length; i++) {
        const ok = Math.abs(d[i]!) < 1.5;
        lp[Math.floor(i / D)] += ok ? -0.5 * d[i]! * d[i]! : NaN;
        g[i] = ok ? -d[i]! : NaN;
      }
      return [new Tensor(lp, [C]), [new Tensor(g, x.shape)]] as const;
    };
    const k = new NoUTurnSampler({ targetLogProbAndGradFn: nanOutside, stepSize: 0.5 });
    const { allStates, trace } = sampleChain({ numResults: 100, currentState: zeros([4, 2]), kernel: k, seed: 0, traceFn: (_, r) => ({ div: r.hasDivergence, lp: r.targetLogProb }) });
    const x = (allStates as Tensor).data as Float64Array;
    expect(x.every((v) => Math.abs(v) < 1.5)).toBe(true);
    const t = trace as { div: Tensor; lp: Tensor };
    expect(t.div.data.some((v) => v === 1)).toBe(true);
    expect((t.lp.data as Float64Array).every(Number.isFinite)).toBe(true);
  });
});

describe('NoUTurnSampler results and options', () => {
  it('carries the step size and inverse mass diagonal in its results', () => {
    const m = tensor([4, 0.25]);
    const k = new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 0.3 });
    const x = tensor([[0.3, -0.2], [1, 1]]);
    const r0 = k.bootstrapResults(x);
    expect(getStepSize(r0)).toBe(0.3);
    expect(getLogAcceptRatio(r0).shape).toEqual([2]);
    const seed = random.key(9);
    const [a, ra] = k.oneStep(x, setInverseMassDiag(r0, [m]), seed);
    const km = new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 0.3, inverseMassDiag: m });
    const [b] = km.oneStep(x, km.bootstrapResults(x), seed);
    expect(Array.from((a as Tensor).data as Float64Array)).toEqual(Array.from((b as Tensor).data as Float64Array));
    expect(getInverseMassDiag(ra)).toEqual([m]);
    expect(r0.energy.shape).toEqual([2]);
    expect(k.copy({ maxTreeDepth: 4 }).parameters.maxTreeDepth).toBe(4);
    expect(k.copy({ maxTreeDepth: 4 }).parameters.stepSize).toBe(0.3);
  });

  it('names bad options, a non-finite initial density and a changed state shape', () => {
    const ok = { targetLogProbFn: stdNormal, stepSize: 0.1 };
    expect(() => new NoUTurnSampler({ stepSize: 0.1 })).toThrow(/NoUTurnSampler: `targetLogProbFn` must be a function/);
    expect(() => new NoUTurnSampler({ ...ok, maxTreeDepth: 0 })).toThrow(/`maxTreeDepth` must be an integer in \[1, 30\]/);
    expect(() => new NoUTurnSampler({ ...ok, maxTreeDepth: 2.5 })).toThrow(TypeError);
    expect(() => new NoUTurnSampler({ ...ok, maxEnergyDiff: 0 })).toThrow(/`maxEnergyDiff` must be positive/);
    expect(() => new NoUTurnSampler({ ...ok, maxEnergyDiff: '1' as never })).toThrow(TypeError);
    expect(() => new NoUTurnSampler({ ...ok, unrolledLeapfrogSteps: 0 })).toThrow(/`unrolledLeapfrogSteps` must be a positive integer/);
    expect(() => new NoUTurnSampler({ ...ok, stepSize: 0 })).toThrow(/`stepSize` must be positive/);
    const k = new NoUTurnSampler(ok);
    expect(() => k.bootstrapResults(tensor([[NaN, 0]]))).toThrow(/returned NaN at `currentState`/);
    const r = k.bootstrapResults(zeros([3, 2]));
    expect(() => k.oneStep(zeros([2, 2]), r, random.key(0))).toThrow(/must have shape \[3, 2\]/);
  });
});
