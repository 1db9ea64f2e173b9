// init: 'pathfinder' in windowedAdaptiveNuts (issue 31, item 3): chain c starts at draw c of one
// multi-path Pathfinder run on the sampler's own target, seeded from the run's seed, so chain c's
// draws do not depend on which other chains run; the same seed gives the same bits.
import { describe, expect, it } from 'vitest';
import { HalfNormal, JointDistributionNamed, Normal } from '../../distributions/index.js';
import { flatTarget, pinModel } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { chainInit } from '../../mcmc/internal/init.js';
import { pathfinder } from '../../optimize/index.js';
import { random, tensor, type Tensor } from '../../src/index.js';
import { foldIn } from '../../src/samplers/seeds.js';

const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  s: new HalfNormal({ scale: 1 }),
  y: (mu: Tensor, s: Tensor) => new Normal({ loc: mu, scale: s }),
}, { name: 'Simple' });
const pins = { y: tensor(1) };
const quick = { pins, nDraws: 5, numAdaptationSteps: 5, seed: 3 } as const;

describe("init: 'pathfinder'", () => {
  it('chain c starts at draw c of pathfinder(target, { seed: foldIn(seed, "pathfinder"), draws: max(nChains, 100) })', () => {
    const m = flatModel('test', pinModel('test', model, pins));
    const target = flatTarget('test', m, true).value;
    const seed = random.key(7);
    const starts = chainInit('test', m, target, 'pathfinder', 4, seed);
    const fit = pathfinder(target, { seed: foldIn(seed, 'pathfinder'), draws: 100 });
    for (let c = 0; c < 4; c++) expect(Array.from(starts(c))).toEqual(Array.from(fit.unconstrained.subarray(c * 2, c * 2 + 2)));
    // 150 chains: 150 draws resampled.
    const many = chainInit('test', m, target, 'pathfinder', 150, seed);
    const fit150 = pathfinder(target, { seed: foldIn(seed, 'pathfinder'), draws: 150 });
    expect(Array.from(many(149))).toEqual(Array.from(fit150.unconstrained.subarray(298, 300)));
  });

  it("the same seed gives the same bits; chain c's draws do not depend on the other chains; other starts than 'uniform'", () => {
    const a = windowedAdaptiveNuts(model, { ...quick, nChains: 3, init: 'pathfinder' });
    const b = windowedAdaptiveNuts(model, { ...quick, nChains: 3, init: 'pathfinder' });
    expect(Array.from(a.draws.mu!.data as Float64Array)).toEqual(Array.from(b.draws.mu!.data as Float64Array));
    const one = windowedAdaptiveNuts(model, { ...quick, nChains: 3, chainIndex: 2, init: 'pathfinder' });
    const col = Array.from({ length: 5 }, (_, t) => (a.draws.mu!.data as Float64Array)[t * 3 + 2]);
    expect(Array.from(one.draws.mu!.data as Float64Array)).toEqual(col);
    const u = windowedAdaptiveNuts(model, { ...quick, nChains: 3 });
    expect(Array.from(u.draws.mu!.data as Float64Array)).not.toEqual(Array.from(a.draws.mu!.data as Float64Array));
    expect(windowedAdaptiveNuts(model, { ...quick, adaptation: 'pooled', init: 'pathfinder' }).draws.mu!.shape).toEqual([5, 4]);
  });
});
