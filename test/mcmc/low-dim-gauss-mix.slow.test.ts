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
// Of seeds 1–20, 19 agree and in one (13) chain 1 stays in a minor mode (both means near −2.3,
// sigma[1] ≈ 4: log density −2560 against −2106) and the warning names it
// (test/fixtures/posteriordb/stochax-acceptance.json). The suite runs seed 1 and that seed
// (about 11 CPU-s each, in one thread: the compiled density has a kernel call, `take`, so `cores`
// cannot ship it to a worker); STOCHAX_PDB_SEEDS=1-20 runs the whole acceptance (so does
// bench/posteriordb-acceptance.ts, which also records each chain's means).
import { describe, it } from 'vitest';
import { acceptanceSeeds, expectAcceptable } from '../fixtures/posteriordb/acceptance.js';

describe('low_dim_gauss_mix (posteriordb): issue 30\'s acceptance, seed by seed', () => {
  for (const seed of acceptanceSeeds([1, 13])) {
    it(`seed ${seed}: agrees with the reference, or a chains-disagree warning names the chain in a minor mode`, () => {
      expectAcceptable('low_dim_gauss_mix', seed);
    });
  }
});
