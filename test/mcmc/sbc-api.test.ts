// sbc (mcmc/sbc.ts): simulation-based calibration of windowedAdaptiveNuts on a conjugate normal
// model, mu ~ N(0, 1), y_i ~ N(mu, 1), i = 1..5 (posterior N(Σy/6, 1/6)).
//
// Settings: S = 200 simulations, 1 chain, 100 warm-up steps, 100 draws thinned by 5 (maxRank 20,
// 7 χ² bins of 3 rank values, ≈ 28.6 expected per bin; bulk ESS per kept draw ≈ 1 here).
// (a) The right posterior: both uniformity tests (χ² and the ECDF test) must give p > 1e-3. A priori
//     false-failure rate ≲ 2 × 1e-3 (two tests; the ECDF p-value's Monte Carlo floor is 1/1001);
//     the seed is fixed, so the outcome is deterministic.
// (b) Wrong posteriors must be rejected (p < 1e-3) with S = 100: the sampler fed a prior with a
//     shifted mean (N(1.5, 1)), and one fed a too-narrow likelihood (scale 0.5).
import { describe, expect, it } from 'vitest';
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
    const t0 = performance.now();
    const r = sbc(model(), { pins: ['y'], simulations: S, thin: 5, seed: 11, sampler });
    console.log('sbc', S, 'sims', (performance.now() - t0).toFixed(0), 'ms', r.tests.mu, r.warnings.map((w) => w.message));
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
      console.log('wrong', r.tests.mu);
      expect(r.tests.mu!.pValue).toBeLessThan(1e-3);
      expect(r.tests.mu!.ecdfPValue).toBeLessThan(1e-3);
    }
  });
});
