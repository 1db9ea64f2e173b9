// windowedAdaptiveNuts(..., { adaptation: 'pooled' }) against TFP on JAX's
// tfp.experimental.mcmc.windowed_adaptive_nuts (test/fixtures/tfp-jax/windowed.py): the same
// models, pins, chains, warm-up and key give the same runs, warm-up included.
//
// Exact: every transition's number of leapfrog steps and divergence flag (any different
// decision of the sampler — a tree direction, a multinomial pick, a U-turn, a window's restart —
// shows there as a difference of whole steps).
//
// Close, not equal: the draws, the step-size trace and the target log density. Both sides do the
// same operations in the same order, but the last bit of a few differs: XLA contracts a·b + c into
// one fused multiply-add inside the compiled sampling loop (the leapfrog's kicks and drifts; checked
// in jax 0.10.2 on CPU: `jit(lambda a, b, c: a + b * c)` is the exactly rounded fma), XLA's log
// and exp are not src/math's, and the model's log density sums its terms in another order. NUTS is
// chaotic in those bits: the differences start at ~1e-16 and grow with every transition, the
// faster the longer the trajectories (measured: the hierarchical model ~1e-13 after 5 steps and
// ~2e-9 after 45; the log-normal scale model stays below 1e-12 over 46; eight schools ~2e-13
// after its 18 steps, but with 40 warm-up steps, where its trajectories reach 223 leapfrog steps,
// ~1e-11 after 12 steps, ~1e-9 after 28 and ~1e-4 after 40: hence its short fixture). So step t is held to
// 1e-12 · 10^(t / STEPS_PER_DECADE[model]) relative to max(1, |TFP's|): 1e-12 at the start, with
// a margin of 10–100× over the measured growth.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HalfCauchy, Independent, JointDistributionNamed, LogNormal, Normal, Sample } from '../../distributions/index.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../../mcmc/windowed-adaptive-nuts.js';
import { key } from '../../src/random/index.js';
import { add, expandDims, mul, ones, tensor, type Tensor } from '../../src/index.js';

interface Case {
  model: string; pins: Record<string, number[]>; nChains: number; numAdaptationSteps: number; nDraws: number; seed: number;
  draws: Record<string, unknown>; stepSize: number[]; nSteps: number[][]; targetLogProb: number[][]; acceptRatio: number[][]; diverging: boolean[][];
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/tfp-jax/windowed-x64.json', import.meta.url), 'utf8')) as { cases: Case[] };

const SIGMA = [15, 10, 16, 11, 9, 11, 10, 18];
// The fixture's models, written for the pooled sampler's chains axis (every latent has a leading [C]).
const MODELS: Record<string, () => JointDistributionNamed> = {
  hierarchical: () => new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 2 }),
    x: (mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
    y: (x: Tensor) => new Independent({ distribution: new Normal({ loc: x, scale: 0.5 }), reinterpretedBatchNdims: 1 }),
  }),
  'eight-schools': () => new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 5 }),
    tau: new HalfCauchy({ loc: 0, scale: 5 }),
    thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
    y: (mu: Tensor, tau: Tensor, thetaTilde: Tensor) => new Independent({
      distribution: new Normal({ loc: add(expandDims(mu, -1), mul(expandDims(tau, -1), thetaTilde)), scale: tensor(SIGMA) }),
      reinterpretedBatchNdims: 1,
    }),
  }),
  'log-normal-scale': () => new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 10 }),
    sigma: new LogNormal({ loc: 0, scale: 1 }),
    y: (mu: Tensor, sigma: Tensor) => new Independent({
      distribution: new Normal({ loc: expandDims(mu, -1), scale: mul(expandDims(sigma, -1), ones([5])) }), reinterpretedBatchNdims: 1,
    }),
  }),
};

/** Transitions per tenfold growth of the allowed difference (see the header). */
const STEPS_PER_DECADE: Record<string, number> = { hierarchical: 10, 'eight-schools': 10, 'log-normal-scale': 40 };

function flat(x: unknown): number[] {
  return Array.isArray(x) ? x.flatMap(flat) : [x as number];
}

describe("windowedAdaptiveNuts (pooled) gives TFP on JAX's windowed_adaptive_nuts runs (x64)", () => {
  it('covers every model of the fixture', () => expect(new Set(fixture.cases.map((c) => c.model))).toEqual(new Set(Object.keys(MODELS))));
  for (const c of fixture.cases) {
    it(`${c.model}: ${c.nChains} chains, ${c.numAdaptationSteps} warm-up steps + ${c.nDraws} draws, key ${c.seed}`, () => {
      const pins = Object.fromEntries(Object.entries(c.pins).map(([k, v]) => [k, tensor(v)]));
      const { draws, trace } = windowedAdaptiveNuts(MODELS[c.model]!(), {
        adaptation: 'pooled', pins, nChains: c.nChains, numAdaptationSteps: c.numAdaptationSteps, nDraws: c.nDraws,
        seed: key(c.seed), discardTuning: false,
      });
      const t = trace as WindowedTrace, N = c.numAdaptationSteps + c.nDraws, C = c.nChains;
      // Discrete decisions: exactly TFP's.
      expect(Array.from(t.nSteps.data as Int32Array)).toEqual(c.nSteps.flat());
      expect(Array.from(t.diverging.data as Uint8Array, Boolean)).toEqual(c.diverging.flat());
      const bound = (step: number) => 1e-12 * 10 ** (step / STEPS_PER_DECADE[c.model]!);
      const close = (got: number, want: number, step: number, what: string) =>
        expect(Math.abs(got - want), `${what} at step ${step}: ${got} vs TFP ${want}`).toBeLessThanOrEqual(bound(step) * Math.max(1, Math.abs(want)));
      // The step size (one for all chains in TFP's trace).
      const ss = t.stepSize.data as Float64Array;
      c.stepSize.forEach((want, s) => { for (let k = 0; k < C; k++) close(ss[s * C + k]!, want, s, 'step size'); });
      const lp = t.targetLogProb.data as Float64Array;
      c.targetLogProb.flat().forEach((want, i) => close(lp[i]!, want, Math.floor(i / C), 'target log prob'));
      for (const [name, value] of Object.entries(c.draws)) {
        const got = (draws as Record<string, Tensor>)[name]!, want = flat(value), per = want.length / N;
        expect(got.size, name).toBe(want.length);
        const g = got.data as Float64Array;
        want.forEach((w, i) => close(g[i]!, w, Math.floor(i / per), name));
      }
    }, 60_000);
  }
});
