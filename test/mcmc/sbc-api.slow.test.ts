// sbc on the hierarchical model of windowed-sbc.slow.test.ts, with two chains per simulation:
//
//   mu ~ N(0, 1),  s = log σ ~ N(0, 0.5²),  y_i ~ N(mu, σ),  i = 1..8.
//
// S = 300 simulations, 2 chains, 150 warm-up steps, 100 draws thinned by 5: maxRank 40 (41 rank
// values, no divisor in 5…20: 20 bins of 2–3 values, ≈ 15 expected per bin). For each of mu
// and s, the χ² and ECDF tests must give p > 1e-3: a priori false-failure rate ≲ 4e-3 (4 tests
// at 1e-3; more if residual autocorrelation of the thinned draws remains); fixed seed, so
// deterministic. A wrong posterior (the fitted model's likelihood counted four times: scale σ/2,
// S = 150) must be rejected by the χ² test of s. About 20 s.
import { describe, expect, it } from 'vitest';
import { Independent } from '../../distributions/independent.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { sbc } from '../../mcmc/sbc.js';
import { div, exp } from '../../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const N_OBS = 8;
const like = (mu: Tensor, s: Tensor) => new Independent({ distribution: new Normal({ loc: broadcastTo(mu, [N_OBS]), scale: exp(s) }), reinterpretedBatchNdims: 1 });

function model(copies = 1): JointDistributionNamed {
  return new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 1 }),
    s: new Normal({ loc: 0, scale: 0.5 }),
    y: ({ mu, s }: { mu: Tensor; s: Tensor }) => (copies === 1 ? like(mu, s) : new Independent({
      // the likelihood counted `copies` times: y's log density scaled by stacking the data
      distribution: new Normal({ loc: broadcastTo(mu, [N_OBS]), scale: div(exp(s), Math.sqrt(copies)) }), reinterpretedBatchNdims: 1,
    })),
  });
}

const sampler = { nChains: 2, numAdaptationSteps: 150, nDraws: 100 } as const;

describe('sbc (slow): two parameters, two chains', () => {
  it('right posterior: mu and s ranks uniform', () => {
    const r = sbc(model(), { pins: ['y'], simulations: 300, thin: 5, seed: 21, sampler });
    expect(r.maxRank).toBe(40);
    for (const v of ['mu', 's']) {
      expect(r.tests[v]!.bins).toBe(20);
      expect(r.tests[v]!.pValue).toBeGreaterThan(1e-3);
      expect(r.tests[v]!.ecdfPValue).toBeGreaterThan(1e-3);
    }
  });

  it('wrong posterior (too narrow a likelihood in the fitted model): rejected', () => {
    const r = sbc(model(), { pins: ['y'], simulations: 150, thin: 5, seed: 21, sampler, fitModel: model(4) });
    expect(r.tests.s!.pValue).toBeLessThan(1e-3);
  });
});
