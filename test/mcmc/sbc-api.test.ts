// sbc (mcmc/sbc.ts): simulation-based calibration of windowedAdaptiveNuts on a conjugate normal
// model, mu ~ N(0, 1), y_i ~ N(mu, 1), i = 1..5 (posterior N(Σy/6, 1/6)).
//
// Settings: S = 200 simulations, 1 chain, 100 warm-up steps, 100 draws thinned by 5 (maxRank 20,
// 7 χ² bins of 3 rank values, ≈ 28.6 expected per bin; bulk ESS per kept draw ≈ 1 here).
// (a) The right posterior: both uniformity tests (χ² and the ECDF test) must give p > 1e-3. A priori
//     false-failure rate ≲ 2 × 1e-3 (two tests; the ECDF p-value's Monte Carlo floor is 1/1001);
//     the seed is fixed, so the outcome is deterministic.
//     At seed 11: χ² 3.21 (p 0.78), ECDF p 0.71; about 7 s.
// (b) Wrong posteriors must be rejected with S = 100: the sampler fed a prior with a shifted mean
//     (N(1.5, 1)): χ² 45.9 (p 3e-8), and one fed a too-narrow likelihood (scale 0.5): χ² 32.6
//     (p 1.3e-5); both ECDF γ (1e-7, 5e-10) below all 1000 uniform replicates (p at its floor 1/1001).
import { describe, expect, it } from 'vitest';
import { Independent } from '../../distributions/independent.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Sample } from '../../distributions/sample.js';
import { sbc } from '../../mcmc/sbc.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const N_OBS = 5, S = 200, S_WRONG = 100;
const sampler = { nChains: 1, numAdaptationSteps: 100, nDraws: 100 } as const;

function model(priorLoc = 0, likScale = 1): JointDistributionNamed {
  return new JointDistributionNamed({
    mu: new Normal({ loc: priorLoc, scale: 1 }),
    y: ({ mu }: { mu: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: likScale }), sampleShape: N_OBS }),
  });
}

describe('sbc', () => {
  it('right posterior: ranks uniform (χ² and ECDF tests p > 1e-3)', () => {
    const r = sbc(model(), { pins: ['y'], simulations: S, thin: 5, seed: 11, sampler });
    expect(r.variables).toEqual(['mu']);
    expect(r.maxRank).toBe(20);
    expect(r.ranks.mu!.length).toBe(S);
    expect(r.stats.length).toBe(S);
    expect(r.tests.mu!.pValue).toBeGreaterThan(1e-3);
    expect(r.tests.mu!.ecdfPValue).toBeGreaterThan(1e-3);
  });

  it('wrong posteriors: shifted prior mean and too-narrow likelihood are rejected', () => {
    for (const fit of [model(1.5, 1), model(0, 0.5)]) {
      const r = sbc(model(), { pins: ['y'], simulations: S_WRONG, thin: 5, seed: 11, sampler, fitModel: fit });
      expect(r.tests.mu!.pValue).toBeLessThan(1e-3);
      expect(r.tests.mu!.ecdfPValue).toBe(1 / 1001);   // the Monte Carlo floor: no uniform replicate as extreme
    }
  });

  const tiny = { nChains: 2, numAdaptationSteps: 20, nDraws: 20 } as const;

  it('simulation i depends only on the seed and i; vector parameters get ArviZ labels', () => {
    const m = new JointDistributionNamed({
      theta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }),
      y: ({ theta }: { theta: Tensor }) => new Independent({ distribution: new Normal({ loc: theta, scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const long = sbc(m, { pins: ['y'], simulations: 4, thin: 2, seed: 3, sampler: tiny, ecdfReplicates: 0 });
    const short = sbc(m, { pins: ['y'], simulations: 2, thin: 2, seed: 3, sampler: tiny, ecdfReplicates: 0 });
    expect(long.variables).toEqual(['theta[0]', 'theta[1]']);
    expect(long.maxRank).toBe(20);   // 2 chains × 20 draws / 2
    expect(short.stats).toEqual(long.stats.slice(0, short.stats.length));
    expect(Array.from(long.ranks['theta[1]']!)).toEqual(long.stats.filter((r) => r.variable === 'theta[1]').map((r) => r.rank));
    expect(long.backendDiagnostics.map((b) => b.simId)).toEqual([0, 1, 2, 3]);
    const other = sbc(m, { pins: ['y'], simulations: 2, thin: 2, seed: 4, sampler: tiny, ecdfReplicates: 0 });
    expect(other.stats[0]!.simulatedValue).not.toBe(short.stats[0]!.simulatedValue);
  });

  it('a pinned model\'s pins are the data by default; bad input names sbc and the argument', () => {
    const m = model();
    const pinned = m.experimentalPin({ y: [0, 0, 0, 0, 0] });
    const r = sbc(pinned, { simulations: 1, thin: 2, seed: 1, sampler: tiny, ecdfReplicates: 0 });
    expect(r.variables).toEqual(['mu']);
    expect(() => sbc(m, { simulations: 2 })).toThrow(/sbc.*pins.*data nodes/);
    expect(() => sbc(m, { pins: ['z'], simulations: 2 })).toThrow(/sbc.*pins.*unknown node "z"/);
    expect(() => sbc(m, { pins: ['y'], simulations: 0 })).toThrow(/sbc.*simulations.*at least 1/);
    expect(() => sbc(m, { pins: ['y'], simulations: 2, thin: 0 })).toThrow(/sbc.*thin/);
    expect(() => sbc(m, { pins: ['y'], simulations: 2, thin: 50, sampler: tiny })).toThrow(/sbc.*thin.*nDraws/);
    expect(() => sbc(m, { pins: ['y'], simulations: 2, sampler: { seed: 1 } as never })).toThrow(/sbc.*sampler\.seed/);
    expect(() => sbc(m, { pins: ['y'], simulations: 2, simulation: 3 } as never)).toThrow(/unknown option `simulation`/);
    expect(() => sbc({} as never, { pins: ['y'], simulations: 2 })).toThrow(/sbc.*model.*joint distribution/);
    const other = new JointDistributionNamed({ m: new Normal({ loc: 0, scale: 1 }), y: ({ m: mu }: { m: Tensor }) => new Normal({ loc: mu, scale: 1 }) });
    expect(() => sbc(m, { pins: ['y'], simulations: 2, fitModel: other })).toThrow(/sbc.*fitModel.*nodes/);
  });
});
