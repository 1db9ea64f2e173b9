// posteriordb's low_dim_gauss_mix (a two-component normal mixture with ordered means, N = 1000;
// the model in test/fixtures/posteriordb/models.ts, the data and reference summaries in
// low_dim_gauss_mix.json beside it, made by extract.mjs) sampled by windowedAdaptiveNuts with its
// defaults (4 chains × (1000 warm-up + 1000)).
//
// Issue 30's acceptance, seed by seed: the run agrees with the reference posterior (for mu[1..2],
// sigma[1..2] and theta, |z| ≤ 4 with z the difference of means over √(MCSE² + MCSE_ref²), and
// the sd ratio in [0.9, 1.1]), or, when a chain stays in a minor mode, the chains-disagree warning
// names it and the other chains agree. 5 z-checks per seed at |z| ≤ 4 fail a correct sampler with
// probability ≈ 3e-4 per seed; the sd ratio check is > 4 sd wide at 4 × 1000 draws (bulk ESS
// ≳ 2000 here). Seeds are fixed, so the outcome is deterministic.
//
// The suite runs the seeds below (about 10 CPU-s each); STOCHAX_PDB_SEEDS=1-20 runs the whole
// acceptance (so does bench/posteriordb-acceptance.ts, which also records each chain's means).
import { describe, it } from 'vitest';
import { acceptanceSeeds, expectAcceptable } from '../fixtures/posteriordb/acceptance.js';

describe('low_dim_gauss_mix (posteriordb): issue 30\'s acceptance, seed by seed', () => {
  for (const seed of acceptanceSeeds([1, 2, 3])) {
    it(`seed ${seed}: agrees with the reference, or a chains-disagree warning names the chain in a minor mode`, () => {
      expectAcceptable('low_dim_gauss_mix', seed);
    });
  }
});
