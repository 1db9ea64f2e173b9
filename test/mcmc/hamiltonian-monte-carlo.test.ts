// HamiltonianMonteCarlo / UncalibratedHamiltonianMonteCarlo: posterior moments on conjugate
// models within 4 MCSE (false-failure rate: see conjugate.ts, ≈ 6e-5 per comparison), a step
// assembled by hand from TFP's seed usage, reproducibility and chunking, multi-chain layout,
// NaN gradients, step size / mass matrix in the results, and bad input.
import { describe, expect, it } from 'vitest';
import { getInverseMassDiag, getStepSize, setInverseMassDiag, setStepSize } from '../../mcmc/internal/kernel-results.js';
import { HamiltonianMonteCarlo } from '../../mcmc/kernels/hamiltonian-monte-carlo.js';
import { MetropolisHastings } from '../../mcmc/kernels/metropolis-hastings.js';
import { UncalibratedHamiltonianMonteCarlo } from '../../mcmc/kernels/uncalibrated-hamiltonian-monte-carlo.js';
import type { State } from '../../mcmc/kernel.js';
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

describe('HamiltonianMonteCarlo on conjugate models (within 4 MCSE)', () => {
  it('normal–normal, gradients by autodiff (4 chains × 1000)', () => {
    const m = normalNormal();
    const kernel = new HamiltonianMonteCarlo({ targetLogProbFn: m.targetLogProbFn, stepSize: 0.5, numLeapfrogSteps: 3 });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 100, currentState: zeros([4]), kernel, seed: 1 });
    expect((allStates as Tensor).shape).toEqual([1000, 4]);
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });

  it('gamma–poisson in log space (4 chains × 1000)', () => {
    const m = gammaPoisson();
    const kernel = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: m.targetLogProbAndGradFn, stepSize: 0.3, numLeapfrogSteps: 5 });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 200, currentState: zeros([4]), kernel, seed: 2 });
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });

  it('10-dim correlated Gaussian with a diagonal inverse mass matrix (4 chains × 1000)', () => {
    const m = correlatedGaussian();
    const kernel = new HamiltonianMonteCarlo({
      targetLogProbAndGradFn: m.targetLogProbAndGradFn, stepSize: 0.3, numLeapfrogSteps: 8, inverseMassDiag: tensor([...m.variance]),
    });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 200, currentState: zeros([4, 10]), kernel, seed: 1 });
    expect((allStates as Tensor).shape).toEqual([1000, 4, 10]);
    expectMoments(m.name, allStates as Tensor, m.mean, m.variance);
  });
});

describe('HamiltonianMonteCarlo seed usage', () => {
  it('equals a step assembled by hand from splitSeed, samplers.normal/uniform and a leapfrog loop', () => {
    const eps = [0.4, 0.7], L = 3;
    const kernel = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: twoParts, stepSize: eps, numLeapfrogSteps: L });
    const state = [tensor([0.5, -1, 2]), tensor([[0.1, 0.2], [1, -1], [0, 3]])];
    const pkr = kernel.bootstrapResults(state);
    const seed = random.key(1234);
    const [next, res] = kernel.oneStep(state, pkr, seed);

    // By hand: MH splits [proposal, accept]; the proposal splits one key per part.
    const key = sanitizeSeed(seed);
    const [proposalSeed, acceptSeed] = splitSeed(key);
    const keys = splitSeed(proposalSeed!, { n: 2 });
    const p0 = [normal([3], { seed: keys[0] }), normal([3, 2], { seed: keys[1] })].map((t) => Float64Array.from(t.data as Float64Array));
    const x = state.map((t) => Float64Array.from(t.data as Float64Array));
    const p = p0.map((a) => a.slice());
    let [lp, grads] = twoParts(new Tensor(x[0]!, [3]), new Tensor(x[1]!, [3, 2]));
    for (let s = 0; s < L; s++) {
      for (let k = 0; k < 2; k++) {
        const gk = grads[k]!.data as Float64Array;
        for (let i = 0; i < p[k]!.length; i++) { p[k]![i] = p[k]![i]! + 0.5 * eps[k]! * gk[i]!; x[k]![i] = x[k]![i]! + eps[k]! * p[k]![i]!; }
      }
      [lp, grads] = twoParts(new Tensor(x[0]!.slice(), [3]), new Tensor(x[1]!.slice(), [3, 2]));
      for (let k = 0; k < 2; k++) {
        const gk = grads[k]!.data as Float64Array;
        for (let i = 0; i < p[k]!.length; i++) p[k]![i] = p[k]![i]! + 0.5 * eps[k]! * gk[i]!;
      }
    }
    const kin = (q: Float64Array[], c: number) => 0.5 * (q[0]![c]! ** 2 + q[1]![2 * c]! ** 2 + q[1]![2 * c + 1]! ** 2);
    const lp0 = pkr.acceptedResults.targetLogProb.data as Float64Array;
    const u = uniform([3], { seed: acceptSeed }).data as Float64Array;
    for (let c = 0; c < 3; c++) {
      const lar = ((lp.data as Float64Array)[c]! - lp0[c]!) + (kin(p0, c) - kin(p, c));
      expect((res.logAcceptRatio.data as Float64Array)[c]).toBeCloseTo(lar, 12);
      const accepted = Math.log(u[c]!) < lar;
      expect(res.isAccepted.data[c]).toBe(accepted ? 1 : 0);
      const [a, b] = next as Tensor[];
      expect(a!.data[c]).toBeCloseTo(accepted ? x[0]![c]! : state[0]!.data[c] as number, 12);
      expect(b!.data[2 * c + 1]).toBeCloseTo(accepted ? x[1]![2 * c + 1]! : state[1]!.data[2 * c + 1] as number, 12);
    }
    expect(Array.from(res.proposedResults.initialMomentum[1]!.data as Float64Array)).toEqual(Array.from(p0[1]!));
    expect(Array.from(random.keyData(res.seed).data)).toEqual(Array.from(random.keyData(key).data));
    expect(res.isAccepted.data).toContain(1);
  });

  it('UncalibratedHamiltonianMonteCarlo is the proposal: MetropolisHastings around it equals HamiltonianMonteCarlo', () => {
    const opts = { targetLogProbFn: stdNormal, stepSize: 0.3, numLeapfrogSteps: 4 };
    const a = sampleChain({ numResults: 20, currentState: zeros([3, 2]), kernel: new HamiltonianMonteCarlo(opts), seed: 5 }).allStates as Tensor;
    const mh = new MetropolisHastings({ innerKernel: new UncalibratedHamiltonianMonteCarlo(opts) });
    const b = sampleChain({ numResults: 20, currentState: zeros([3, 2]), kernel: mh, seed: 5 }).allStates as Tensor;
    expect(Array.from(a.data as Float64Array)).toEqual(Array.from(b.data as Float64Array));
    expect(new UncalibratedHamiltonianMonteCarlo(opts).isCalibrated).toBe(false);
  });
});

describe('HamiltonianMonteCarlo reproducibility and chains', () => {
  const kernel = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: stdNormalGrad, stepSize: 0.4, numLeapfrogSteps: 5 });

  it('gives identical draws for the same seed and different draws for another', () => {
    const run = (seed: number) => Array.from((sampleChain({ numResults: 50, currentState: zeros([2, 3]), kernel, seed }).allStates as Tensor).data as Float64Array);
    expect(run(3)).toEqual(run(3));
    expect(run(3)).not.toEqual(run(4));
  });

  it('run in 3 chunks equals one run, bit for bit', () => {
    const [whole, chunked] = chunkedAndWhole(kernel, zeros([2, 3]), 60, [25, 5, 30], 9);
    expect(Array.from(chunked.data as Float64Array)).toEqual(Array.from(whole.data as Float64Array));
  });

  it('runs [4, D] states as 4 independent chains: chain 0 equals the same chain run alone', () => {
    const four = sampleChain({ numResults: 30, currentState: zeros([4, 3]), kernel, seed: 11, traceFn: (_, r) => r.isAccepted });
    const one = sampleChain({ numResults: 30, currentState: zeros([1, 3]), kernel, seed: 11 });
    const f = four.allStates as Tensor, o = one.allStates as Tensor;
    expect(f.shape).toEqual([30, 4, 3]);
    expect((four.trace as Tensor).shape).toEqual([30, 4]);
    for (let n = 0; n < 30; n++) for (let j = 0; j < 3; j++) expect(f.data[n * 12 + j]).toBe(o.data[n * 3 + j]);
  });

  it('takes a per-chain step size of shape [C, 1]: each chain moves as with its own scalar step size', () => {
    const steps = [0.1, 0.5];
    const batched = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: stdNormalGrad, stepSize: tensor([[0.1], [0.5]]), numLeapfrogSteps: 3 });
    const both = sampleChain({ numResults: 10, currentState: zeros([2, 3]), kernel: batched, seed: 2 }).allStates as Tensor;
    const first = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: stdNormalGrad, stepSize: steps[0]!, numLeapfrogSteps: 3 });
    const alone = sampleChain({ numResults: 10, currentState: zeros([1, 3]), kernel: first, seed: 2 }).allStates as Tensor;
    for (let n = 0; n < 10; n++) for (let j = 0; j < 3; j++) expect(both.data[n * 6 + j]).toBe(alone.data[n * 3 + j]);
  });
});

describe('HamiltonianMonteCarlo step size and mass matrix in the results', () => {
  it('reads them from the previous results, so setStepSize / setInverseMassDiag change the next step', () => {
    const mk = (stepSize: number, inverseMassDiag?: Tensor) => new HamiltonianMonteCarlo({ targetLogProbAndGradFn: stdNormalGrad, stepSize, numLeapfrogSteps: 3, inverseMassDiag });
    const x = tensor([[0.3, -0.2]]);
    const r0 = mk(0.1).bootstrapResults(x);
    expect(getStepSize(r0)).toBe(0.1);
    expect(getInverseMassDiag(r0)).toBeUndefined();
    const seed = random.key(3);
    const m = tensor([2, 0.5]);
    const [changed] = mk(0.1).oneStep(x, setInverseMassDiag(setStepSize(r0, 0.4), [m]), seed);
    const [direct, rd] = mk(0.4, m).oneStep(x, mk(0.4, m).bootstrapResults(x), seed);
    expect(Array.from((changed as Tensor).data as Float64Array)).toEqual(Array.from((direct as Tensor).data as Float64Array));
    expect(getStepSize(rd)).toBe(0.4);
    expect(getInverseMassDiag(rd)).toBe(m);
  });

  it('copy replaces options and keeps the rest', () => {
    const k = new HamiltonianMonteCarlo({ targetLogProbFn: stdNormal, stepSize: 0.1, numLeapfrogSteps: 3 });
    const c = k.copy({ numLeapfrogSteps: 7 });
    expect(c.parameters.numLeapfrogSteps).toBe(7);
    expect(c.parameters.stepSize).toBe(0.1);
    expect(c.parameters.targetLogProbFn).toBe(stdNormal);
    expect(k.copy({ targetLogProbAndGradFn: stdNormalGrad }).parameters.targetLogProbFn).toBeUndefined();
  });
});

describe('HamiltonianMonteCarlo with NaN or infinite gradients', () => {
  it('rejects the proposal and flags a divergence instead of crashing', () => {
    // Outside |x| < 1.5 the density is NaN and so is the gradient.
    const nanOutside = (x: Tensor) => {
      const d = x.data as Float64Array;
      const lp = new Float64Array(d.length), g = new Float64Array(d.length);
      for (let i = 0; i < d.length; i++) {
        const ok = Math.abs(d[i]!) < 1.5;
        lp[i] = ok ? -0.5 * d[i]! * d[i]! : NaN; g[i] = ok ? -d[i]! : NaN;
      }
      return [new Tensor(lp, x.shape), [new Tensor(g, x.shape)]] as const;
    };
    const kernel = new HamiltonianMonteCarlo({ targetLogProbAndGradFn: nanOutside, stepSize: 0.8, numLeapfrogSteps: 4 });
    const { allStates, trace } = sampleChain({
      numResults: 200, currentState: zeros([4]), kernel, seed: 0,
      traceFn: (_, r) => ({ div: r.proposedResults.hasDivergence, acc: r.isAccepted, lar: r.logAcceptRatio }),
    });
    const x = (allStates as Tensor).data as Float64Array;
    expect(x.every((v) => Math.abs(v) < 1.5)).toBe(true);
    const t = trace as { div: Tensor; acc: Tensor; lar: Tensor };
    let divergences = 0;
    for (let i = 0; i < t.div.size; i++) {
      if (t.div.data[i]) { divergences++; expect(t.acc.data[i]).toBe(0); expect(t.lar.data[i]).toBe(-Infinity); }
    }
    expect(divergences).toBeGreaterThan(10);
    expect(divergences).toBeLessThan(t.div.size);
  });
});

describe('HamiltonianMonteCarlo bad input', () => {
  const ok = { targetLogProbFn: stdNormal, stepSize: 0.1, numLeapfrogSteps: 3 };
  it('names the bad option', () => {
    expect(() => new HamiltonianMonteCarlo({ stepSize: 0.1, numLeapfrogSteps: 3 })).toThrow(/UncalibratedHamiltonianMonteCarlo: `targetLogProbFn` must be a function/);
    expect(() => new HamiltonianMonteCarlo({ ...ok, targetLogProbAndGradFn: stdNormalGrad })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo({ ...ok, targetLogProbFn: 3 as never })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo({ ...ok, numLeapfrogSteps: 0 })).toThrow(/`numLeapfrogSteps` must be a positive integer/);
    expect(() => new HamiltonianMonteCarlo({ ...ok, numLeapfrogSteps: 1.5 })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo({ ...ok, stepSize: -0.1 })).toThrow(/`stepSize` must be positive/);
    expect(() => new HamiltonianMonteCarlo({ ...ok, stepSize: 'big' as never })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo({ ...ok, stepSize: [] })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo({ ...ok, inverseMassDiag: 2 as never })).toThrow(/inverseMassDiag/);
    expect(() => new HamiltonianMonteCarlo({ ...ok, stateGradientsAreStopped: 1 as never })).toThrow(TypeError);
    expect(() => new HamiltonianMonteCarlo(null as never)).toThrow(TypeError);
  });

  it('throws a clear error at a non-finite initial log density', () => {
    const k = new HamiltonianMonteCarlo(ok);
    expect(() => k.bootstrapResults(tensor([[0, 0], [Infinity, 0]]))).toThrow(/`targetLogProbFn` returned -Infinity at `currentState` \(chain 1\)/);
    const nan = new HamiltonianMonteCarlo({ ...ok, targetLogProbFn: (x: Tensor) => new Tensor(new Float64Array(x.shape[0]!).fill(NaN), [x.shape[0]!]) });
    expect(() => nan.bootstrapResults(zeros([2, 2]))).toThrow(RangeError);
  });

  it('names the expected shape when the state or the target’s output has the wrong shape', () => {
    const k = new HamiltonianMonteCarlo(ok);
    const r = k.bootstrapResults(zeros([4, 2]));
    expect(() => k.oneStep(zeros([4, 3]), r, random.key(0))).toThrow(/must have shape \[4, 2\]/);
    expect(() => k.oneStep([zeros([4, 2]), zeros([4])] as State, r, random.key(0))).toThrow(RangeError);
    const bad = new HamiltonianMonteCarlo({ ...ok, stepSize: tensor([0.1, 0.2, 0.3]) });
    expect(() => bad.bootstrapResults(zeros([4, 2]))).toThrow(/`stepSize` of shape \[3\] must broadcast to shape \[4, 2\]/);
    const scalarLp = new HamiltonianMonteCarlo({ ...ok, targetLogProbFn: (x: Tensor) => stdNormal(x).reshape([2, 2]) });
    expect(() => scalarLp.bootstrapResults(zeros([4, 2]))).toThrow(/leading \(chain\) dims \[2, 2\]/);
    const wrongGrads = new HamiltonianMonteCarlo({ ...ok, targetLogProbFn: undefined, targetLogProbAndGradFn: (x: Tensor) => [stdNormal(x), [x, x]] as const });
    expect(() => wrongGrads.bootstrapResults(zeros([4, 2]))).toThrow(/one gradient per state part/);
    let calls = 0;
    const shifty = new HamiltonianMonteCarlo({ ...ok, targetLogProbFn: (x: Tensor) => (calls++ > 0 ? stdNormal(x).reshape([1, 4]) : stdNormal(x)) });
    const rs = shifty.bootstrapResults(zeros([4, 2]));
    expect(() => shifty.oneStep(zeros([4, 2]), rs, random.key(0))).toThrow(/chain shape \[4\]/);
  });
});
