// windowedAdaptiveNuts(..., { adaptation: 'pooled' }) and its WindowedAdaptation kernel: TFP's window sizes (N = 500 and small
// N), the window schedule checked step by step with a deterministic fake kernel (mass matrix =
// each chain's population variance over exactly the slow window; dual averaging restarted at each
// window and switched to ε̄ at its end; frozen after N), the default initial step size, output
// shapes, reproducibility, posterior moments on two conjugate models, and bad input. Each moment
// check is |estimate − truth| < 4 MCSE (~6e-5 per check under normality; 8 checks → false-failure
// rate ≈ 5e-4, deterministic under the fixed seeds).
import { describe, expect, it } from 'vitest';
import { Gamma } from '../../distributions/gamma.js';
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { JointDistributionSequential } from '../../distributions/joint/joint-distribution-sequential.js';
import { Normal } from '../../distributions/normal.js';
import { Poisson } from '../../distributions/poisson.js';
import { Sample } from '../../distributions/sample.js';
import { Uniform } from '../../distributions/uniform.js';
import { summary } from '../../mcmc/diagnostics/index.js';
import { getInverseMassDiag } from '../../mcmc/internal/kernel-results.js';
import { runningVarianceFromStats } from '../../mcmc/nuts/tfp/running-variance.js';
import { WindowedAdaptation, windows, windowSizes } from '../../mcmc/nuts/tfp/windowed-adaptation.js';
import { DiagonalMassMatrixAdaptation } from '../../mcmc/kernels/diagonal-mass-matrix-adaptation.js';
import { DualAveragingStepSizeAdaptation } from '../../mcmc/kernels/dual-averaging-step-size-adaptation.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../../mcmc/windowed-adaptive-nuts.js';
import { ones, zeros } from '../../src/tensor/ops/create.js';
import { sub } from '../../src/tensor/ops/elementwise.js';
import { gather } from '../../src/tensor/ops/shape.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { FakeKernel, run, type FakeResults } from './fake-kernel.js';
import { expectMoments, normalNormalJoint } from './conjugate.js';

describe('window sizes', () => {
  it('N = 500: 75 / 25, 50, 100, 200 / 50; proportional for other N; one fast window for N < 20', () => {
    expect(windowSizes(500)).toEqual({ first: 75, slow: 25, last: 50 });
    expect(windows(500).map((w) => [w.kind, w.end - w.start])).toEqual([
      ['fast', 75], ['slow', 25], ['slow', 50], ['slow', 100], ['slow', 200], ['fast', 50]]);
    expect(windows(1000).map((w) => w.end - w.start)).toEqual([150, 50, 100, 200, 400, 100]);
    expect(windows(20).map((w) => w.end - w.start)).toEqual([3, 1, 2, 4, 8, 2]);
    expect(windows(39).map((w) => w.end - w.start)).toEqual([3, 1, 2, 4, 8, 21]);
    expect(windows(19)).toEqual([{ kind: 'fast', start: 0, end: 19 }]);
    expect(windows(0)).toEqual([]);
    for (const n of [20, 57, 500, 1234]) expect(windows(n).at(-1)!.end).toBe(n);
  });
});

/** State of chain c, dim d at step t (from 1): a fixed irregular sequence. */
const value = (t: number, c: number, d: number) => Math.sin(0.9 * t + 1.7 * c + 0.4 * d) * (2 + c) + 0.03 * t;
const popVar = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
};

/** The windowed kernel stack around a fake inner kernel with C = 2 chains, D = 2 dims. */
function fakeStack(n: number) {
  const inner = new FakeKernel({
    stepSize: 0.5,
    logAccept: (c, eps) => -(1 + c) * eps,
    next: (_p, t) => [new Tensor(Float64Array.from({ length: 4 }, (_, i) => value(t, i >> 1, i & 1)), [2, 2], 'float64')],
  });
  const dassa = new DualAveragingStepSizeAdaptation({ innerKernel: inner, numAdaptationSteps: n });
  const dmma = new DiagonalMassMatrixAdaptation({
    innerKernel: dassa, numEstimationSteps: n,
    initialRunningVariance: [runningVarianceFromStats({ numSamples: 0, mean: zeros([2, 2]), variance: ones([2, 2]) })],
  });
  return new WindowedAdaptation<FakeResults>({ innerKernel: dmma, numAdaptationSteps: n });
}

describe('WindowedAdaptation schedule', () => {
  it('mass matrix = per-chain variance over each slow window, set at its end; dual averaging restarts per window', () => {
    const n = 100;                                                   // s = 5: 15 / 5, 10, 20, 40 / 10
    const { all } = run(fakeStack(n), zeros([2, 2]), 130);
    const ws = windows(n);
    const slowEnds = ws.filter((w) => w.kind === 'slow').map((w) => w.end);
    expect(slowEnds).toEqual([20, 30, 50, 90]);
    let prev: unknown;
    all.forEach((r, i) => {
      const t = i + 1;                                                // steps taken
      const m = getInverseMassDiag(r.innerResults);
      if (slowEnds.includes(t)) {
        expect(m).not.toBe(prev);
        const w = ws.find((x) => x.end === t)!;
        const got = (m as Tensor[])[0]!;
        for (let c = 0; c < 2; c++) for (let d = 0; d < 2; d++) {
          const xs = Array.from({ length: w.end - w.start }, (_, k) => value(w.start + k + 1, c, d));
          expect(got.data[c * 2 + d]).toBeCloseTo(popVar(xs), 12);
        }
      } else {
        expect(m, `mass matrix unchanged at step ${t}`).toBe(prev);
      }
      prev = m;
    });
    // dual averaging windows: [0, 20) (first fast + first slow), [20, 30), [30, 50), [50, 90), [90, 100)
    const daWindows = [[0, 20], [20, 30], [30, 50], [50, 90], [90, 100]];
    for (const [a, b] of daWindows) {
      const start = all[a]!.innerResults.innerResults;                 // after the window's first step
      expect(start.step).toBe(1);
      expect(start.numAdaptationSteps).toBe(b - a);
      const end = all[b - 1]!.innerResults.innerResults;
      expect(end.step).toBe(b - a);
      expect(end.newStepSize).toBeCloseTo(Math.exp(end.logAveragingStep[0]!.data[0] as number), 14);   // switched to ε̄
      if (a > 0) {
        const before = all[a - 1]!.innerResults.innerResults.newStepSize as number;
        expect(start.logShrinkageTarget[0]!.data[0]).toBeCloseTo(Math.log(10 * before), 14);
      }
    }
    // frozen after N steps: step size and mass matrix never change again
    const last = all[n - 1]!;
    for (const r of all.slice(n)) {
      expect(r.innerResults.innerResults.newStepSize).toBe(last.innerResults.innerResults.newStepSize);
      expect(getInverseMassDiag(r.innerResults)).toBe(getInverseMassDiag(last.innerResults));
    }
  });

  // TFP's WindowedAdaptation at step 0 with s = 0: every window start coincides, the selector
  // (1 + 2 + 3 + 4, clipped by choose_from) takes the last window's update, which leaves the mass
  // matrix estimation as DiagonalMassMatrixAdaptation bootstrapped it (N steps). (This test used
  // to expect no mass matrix at all: stochax switched the estimation off, which is not TFP's
  // schedule; TFP on JAX's eight-schools run with N = 12 in windowed-tfp-parity.test.ts follows it.)
  it('small N (s = 0): one window of N steps: dual averaging, and the mass matrix from all N draws set at step N', () => {
    const n = 12;
    const { all } = run(fakeStack(n), zeros([2, 2]), 15);
    all.slice(0, n - 1).forEach((r) => expect(getInverseMassDiag(r.innerResults)).toBeUndefined());
    const m = getInverseMassDiag(all[n - 1]!.innerResults) as Tensor[];
    for (let c = 0; c < 2; c++) for (let d = 0; d < 2; d++) {
      expect(m[0]!.data[c * 2 + d]).toBeCloseTo(popVar(Array.from({ length: n }, (_, k) => value(k + 1, c, d))), 12);
    }
    all.slice(n).forEach((r) => expect(getInverseMassDiag(r.innerResults)).toBe(m));
    expect(all[11]!.innerResults.innerResults.numAdaptationSteps).toBe(12);
    expect(all[11]!.innerResults.innerResults.newStepSize).toBe(all[14]!.innerResults.innerResults.newStepSize);
    expect(all[10]!.innerResults.innerResults.newStepSize).not.toBe(all[11]!.innerResults.innerResults.newStepSize);
  });
});

const { model: normal, y: yNormal, mean: mPost, variance: vPost } = normalNormalJoint();
const normalModel = () => normal;

describe("windowedAdaptiveNuts(..., { adaptation: 'pooled' }) (TFP's pipeline)", () => {
  it('returns [nDraws, nChains, ...] draws and an ArviZ-style [nDraws, nChains] trace; posterior moments of a normal–normal model', () => {
    const { draws, trace } = windowedAdaptiveNuts(normalModel(), { adaptation: 'pooled', pins: { y: yNormal }, seed: 3, nDraws: 800, numAdaptationSteps: 200 });
    const t = trace as WindowedTrace;
    expect(draws.mu!.shape).toEqual([800, 4]);
    for (const k of ['stepSize', 'tune', 'nSteps', 'treeDepth', 'diverging', 'acceptRatio', 'energy', 'targetLogProb', 'isAccepted'] as const) {
      expect(t[k].shape, k).toEqual([800, 4]);
    }
    expect(new Set(Array.from(t.stepSize.data as Float64Array)).size).toBe(1);               // frozen after warm-up
    expect(Array.from(t.tune.data as Uint8Array).every((v) => v === 0)).toBe(true);
    expect(Array.from(t.treeDepth.data as Int32Array).every((d, i) => 2 ** (d - 1) <= (t.nSteps.data[i] as number) && (t.nSteps.data[i] as number) < 2 ** d)).toBe(true);
    expectMoments('normal–normal', draws.mu!, [mPost], [vPost]);
    const s = summary(draws, { divergences: t.diverging });
    expect(s.divergences).toBe(0);
    expect(s.get('mu')!.rHat).toBeLessThan(1.02);
  }, 30_000);

  it('constrained nodes: gamma–poisson through the joint bijector (array-structured model)', () => {
    const ys = [2, 4, 1, 3, 5];
    const model = new JointDistributionSequential([
      new Gamma({ concentration: 3, rate: 2 }),
      (lam: Tensor) => new Sample({ distribution: new Poisson({ rate: lam }), sampleShape: ys.length }),
    ]);
    const { draws } = windowedAdaptiveNuts(model, { adaptation: 'pooled', pins: [undefined, ys], seed: 5, nDraws: 800, numAdaptationSteps: 200 });
    const lam = (draws as Tensor[])[0]!;
    expect(Math.min(...Array.from(lam.data as Float64Array))).toBeGreaterThan(0);
    expectMoments('gamma–poisson', lam, [18 / 7], [18 / 49]);
  }, 30_000);

  it('is reproducible (same seed → identical draws and trace) and starts from 0.5·D^(−1/4)', () => {
    const model = new JointDistributionNamed({
      s: new HalfNormal({ scale: 1 }),
      z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 15 }),
    });
    const opts = { adaptation: 'pooled' as const, seed: 42, nDraws: 30, numAdaptationSteps: 40, nChains: 2, discardTuning: false };
    const a = windowedAdaptiveNuts(model, opts), b = windowedAdaptiveNuts(model, opts);
    const vals = (t: Tensor) => Array.from(t.data as Float64Array);
    expect(vals(a.draws.s!)).toEqual(vals(b.draws.s!));
    expect(vals(a.draws.z!)).toEqual(vals(b.draws.z!));
    expect(vals((a.trace as WindowedTrace).energy)).toEqual(vals((b.trace as WindowedTrace).energy));
    const c = windowedAdaptiveNuts(model, { ...opts, seed: 43 });
    expect(vals(c.draws.s!)).not.toEqual(vals(a.draws.s!));
    const t = a.trace as WindowedTrace;
    expect(a.draws.z!.shape).toEqual([70, 2, 15]);
    expect(t.stepSize.data[0]).toBeCloseTo(0.5 * 16 ** -0.25, 15);
    expect(Array.from(t.tune.data as Uint8Array)).toEqual([...Array(80).fill(1), ...Array(60).fill(0)]);
  }, 30_000);

  it('takes currentState and a custom traceFn (TFP’s (state, bijector, isAdapting, results))', () => {
    const { draws, trace } = windowedAdaptiveNuts(normalModel(), {
      adaptation: 'pooled', pins: { y: yNormal }, seed: 1, nDraws: 5, numAdaptationSteps: 10, nChains: 3, currentState: { mu: [1, 2, 3] },
      traceFn: (state, _bij, adapting, r) => ({ u: state[0]!, adapting, lp: r.targetLogProb }),
    });
    expect(draws.mu!.shape).toEqual([5, 3]);
    const tr = trace as { u: Tensor; adapting: Tensor; lp: Tensor };
    expect(tr.u.shape).toEqual([5, 3, 1]);
    expect(tr.adapting.shape).toEqual([5]);
    expect(Array.from(tr.u.data as Float64Array)).toEqual(Array.from(draws.mu!.data as Float64Array));
  });

  it("a custom traceFn gets the state in the model's order (unpinnedNames), though pooled chains keep TFP's sorted order", () => {
    // Node order [b, a] (a depends on b); TFP's flattening sorts the names: [a, b].
    const model = new JointDistributionNamed({
      b: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
      a: ({ b }: { b: Tensor }) => new Normal({ loc: gather(b, 0, -1), scale: 1 }),
    });
    const pinned = model.experimentalPin({});
    const { draws, trace } = windowedAdaptiveNuts(model, {
      adaptation: 'pooled', seed: 2, nDraws: 4, numAdaptationSteps: 10, nChains: 2,
      traceFn: (state) => ({ first: state[0]!, second: state[1]! }),
    });
    expect(pinned.unpinnedNames).toEqual(['b', 'a']);
    const tr = trace as { first: Tensor; second: Tensor };
    expect(tr.first.shape).toEqual([4, 2, 3]);
    expect(tr.second.shape).toEqual([4, 2, 1]);
    expect(Array.from(tr.second.data as Float64Array)).toEqual(Array.from(draws.a!.data as Float64Array));
  }, 30_000);

  it('errors: the init failure after 100 (per-chain) or 50 (pooled) tries names the model and the node; pins of unknown nodes; bad options', () => {
    const broken = new JointDistributionNamed({
      x: new Normal({ loc: 0, scale: 1 }),
      y: (x: Tensor) => new Uniform({ low: sub(x, 1), high: x }),
    }, { name: 'BrokenModel' });
    expect(() => windowedAdaptiveNuts(broken, { pins: { y: 100 }, seed: 0 })).toThrow(/BrokenModel.*every one of 100 starts.*node `y` has log density -Infinity at the pinned y = 100/);
    expect(() => windowedAdaptiveNuts(broken, { pins: { y: 100 }, seed: 0, adaptation: 'pooled' })).toThrow(/BrokenModel.*every one of 50 initial points.*node `y`/);
    expect(() => windowedAdaptiveNuts(broken, { pins: { y: 100 }, seed: 0 })).toThrow(RangeError);
    expect(() => windowedAdaptiveNuts(normalModel(), { pins: { y: yNormal, w: 1 } })).toThrow(/pins.*unknown nodes.*\bw\b/);
    expect(() => windowedAdaptiveNuts(normalModel(), { pins: { y: yNormal }, nChains: 0 })).toThrow(/nChains/);
    expect(() => windowedAdaptiveNuts(normalModel(), { pins: { y: yNormal }, initStepSize: -1 })).toThrow(/initStepSize/);
    expect(() => windowedAdaptiveNuts({} as never)).toThrow(/model/);
    expect(() => windowedAdaptiveNuts(normalModel(), { pins: { mu: 1, y: yNormal } })).toThrow(/nothing is left/);
    expect(() => windowedAdaptiveNuts(normalModel(), { pins: { y: yNormal }, currentState: { mu: tensor([1, 2]) } })).toThrow(/nChains/);
  });
});
