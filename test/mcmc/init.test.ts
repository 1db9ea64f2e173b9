// Where chains start (issue 30, item 2): Stan's uniform(−R, R) with 100 attempts, 'prior', 'median',
// the user's values (shared or per chain) or a function of the chain index; errors that name the node.
import { describe, expect, it } from 'vitest';
import { HalfNormal, JointDistributionNamed, MultivariateNormalTriL, Uniform } from '../../distributions/index.js';
import { flatConstrain, flatTarget, pinModel } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { chainInit } from '../../mcmc/internal/init.js';
import { eye, mul, random, tensor, type Tensor } from '../../src/index.js';
import { foldIn } from '../../src/samplers/seeds.js';
import { model, pins } from './simple-model.js';

const m = flatModel('test', pinModel('test', model, pins));
const target = flatTarget('test', m, true).value;
const constrain = flatConstrain('test', m, true).value;
const seed = random.key(7);
/** Chain c's start in constrained space, through the flat model's bijector. */
const start = (init: Parameters<typeof chainInit>[3], c: number, nChains = 4) => {
  const x = chainInit('test', m, target, init, nChains, seed)(c);
  constrain.run(x);   // unpinned nodes in model order: s, mu
  return { s: constrain.outputs[0]![0]!, mu: constrain.outputs[1]![0]! };
};
const quick = { pins, nDraws: 5, numAdaptationSteps: 5, seed: 3 } as const;

describe('init', () => {
  it('values: shared, per chain (leading nChains axis), or a function of the chain index', () => {
    expect(m.names).toEqual(['s', 'mu']);
    const shared = start({ mu: 0.3, s: 2 }, 2);
    expect(shared.mu).toBe(0.3);
    expect(shared.s).toBeCloseTo(2, 14);
    expect(start({ mu: tensor([0, 1, 2, 3]), s: 1 }, 2).mu).toBe(2);
    expect(start((c) => ({ mu: 10 * c, s: 1 }), 3).mu).toBe(30);
  });

  it("'median' is the median of 15 prior draws under chain c's own key; 'prior' a prior draw", () => {
    // draw k from foldIn(chain c's init key, k), one draw at a time (a model written for one draw need not batch)
    const draws = Array.from({ length: 15 }, (_, k) => m.pinned.sampleUnpinned([], { seed: foldIn(foldIn(foldIn(seed, 1), 'init'), k) }) as Record<string, Tensor>);
    const med = (v: 'mu' | 's') => draws.map((d) => d[v]!.toNumber()).sort((a, b) => a - b)[7]!;
    const got = start('median', 1);
    expect(got.mu).toBe(med('mu'));
    expect(got.s).toBeCloseTo(med('s'), 13);
    const prior = m.pinned.sampleUnpinned([], { seed: foldIn(foldIn(foldIn(seed, 1), 'init'), 0) }) as Record<string, Tensor>;
    expect(start('prior', 1).mu).toBe(prior.mu!.item());
    expect(start('prior', 1).mu).not.toBe(start('prior', 2).mu);
  });

  it("'median' and 'prior' work on a model written for one draw that does not broadcast over a batch of draws", () => {
    // s · I₃ with s of shape [15] would not broadcast: the median's prior draws are taken one at a time
    const oneDraw = new JointDistributionNamed({
      s: new HalfNormal({ scale: 1 }),
      x: ({ s }: { s: Tensor }) => new MultivariateNormalTriL({ loc: [0, 0, 0], scaleTril: mul(s, eye(3)) }),
    });
    expect(() => oneDraw.experimentalPin({ x: [0.1, 0.2, 0.3] }).sampleUnpinned([15], { seed: 0 })).toThrow(/broadcast/);
    for (const init of ['median', 'prior'] as const) {
      const r = windowedAdaptiveNuts(oneDraw, { pins: { x: [0.1, 0.2, 0.3] }, nDraws: 5, numAdaptationSteps: 5, seed: 3, init });
      expect(r.draws.s!.shape).toEqual([5, 4]);
    }
  });

  it("chain c's draws do not depend on the other chains, whatever the init", () => {
    for (const init of ['prior', 'median', { mu: tensor([0, 1, 2]), s: 1 }] as const) {
      const all = windowedAdaptiveNuts(model, { ...quick, nChains: 3, init });
      const one = windowedAdaptiveNuts(model, { ...quick, nChains: 3, chainIndex: 2, init });
      const col = Array.from({ length: 5 }, (_, t) => (all.draws.mu!.data as Float64Array)[t * 3 + 2]);
      expect(Array.from(one.draws.mu!.data as Float64Array)).toEqual(col);
    }
  });

  it("'uniform' with initRadius 2 is the default; another radius moves the start; pooled takes every init too", () => {
    const a = windowedAdaptiveNuts(model, quick), b = windowedAdaptiveNuts(model, { ...quick, init: 'uniform', initRadius: 2 });
    expect(Array.from(a.draws.mu!.data as Float64Array)).toEqual(Array.from(b.draws.mu!.data as Float64Array));
    const c = windowedAdaptiveNuts(model, { ...quick, initRadius: 0.5 });
    expect(Array.from(c.draws.mu!.data as Float64Array)).not.toEqual(Array.from(a.draws.mu!.data as Float64Array));
    for (const init of ['uniform', 'prior', 'median', { mu: 0.5, s: 1 }] as const) {
      expect(windowedAdaptiveNuts(model, { ...quick, adaptation: 'pooled', init }).draws.mu!.shape).toEqual([5, 4]);
    }
  });

  it('bad values and impossible starts: errors name the argument, the node and why', () => {
    expect(() => windowedAdaptiveNuts(model, { ...quick, init: { mu: 1 } as never })).toThrow(/`init\.s` is missing: give every unpinned node/);
    expect(() => windowedAdaptiveNuts(model, { ...quick, init: { mu: 1, s: -1 } })).toThrow(/`init\.s` must be non-negative \(outside HalfNormal's support\); got -1/);
    expect(() => windowedAdaptiveNuts(model, { ...quick, init: { mu: tensor([1, 2]), s: 1 } })).toThrow(/`init\.mu` must have the node's shape \[\] or \[nChains = 4\]/);
    expect(() => windowedAdaptiveNuts(model, { ...quick, init: 'prior', currentState: { mu: tensor([0, 0, 0, 0]), s: tensor([1, 1, 1, 1]) } })).toThrow(/`init` must not be given together with `currentState`/);
    expect(() => windowedAdaptiveNuts(model, { ...quick, init: 'nope' as never })).toThrow(TypeError);
    expect(() => windowedAdaptiveNuts(model, { ...quick, initRadius: 0 })).toThrow(/`initRadius` must be positive/);
    // y = 50 under Uniform(0, hi) with hi ~ HalfNormal(0.1): finite nowhere near the prior.
    const unif = new JointDistributionNamed({ hi: new HalfNormal({ scale: 0.1 }), y: (hi: Tensor) => new Uniform({ low: 0, high: hi }) }, { name: 'Unif' });
    expect(() => windowedAdaptiveNuts(unif, { ...quick, pins: { y: tensor(50) } }))
      .toThrow(/"Unif" has a non-finite log density or gradient at every one of 100 starts tried for chain 0 \(uniform\(−2, 2\).*node `y` has log density -Infinity at the pinned y = 50/);
    expect(() => windowedAdaptiveNuts(unif, { ...quick, pins: { y: tensor(50) }, adaptation: 'pooled' }))
      .toThrow(/50 initial points.*node `y` has log density -Infinity at the pinned y = 50/);
    expect(() => windowedAdaptiveNuts(unif, { ...quick, pins: { y: tensor(50) }, init: 'prior' })).toThrow(/'prior': none of 100 prior draws for chain 0.*node `y`/);
    expect(() => windowedAdaptiveNuts(unif, { ...quick, pins: { y: tensor(50) }, init: { hi: 1 } })).toThrow(/`init` gives chain 0 a start \(init\) where node `y` has log density -Infinity/);
  });
});
