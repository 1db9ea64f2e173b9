// posteriordb's gp_pois_regr (a Gaussian-process Poisson regression whose kernel matrix has a jitter
// of only 1e-10, so its Cholesky factor fails at extreme length scales) sampled by the default
// per-chain engine on the compiled log density: the failures are rejected proposals, counted and
// named, and the run agrees with posteriordb's reference posterior (rstan, 10 chains × 1000 draws
// kept of 10 000 thinned by 10; test/fixtures/posteriordb/gp_pois_regr.json, made by extract.mjs
// beside it, holds the data and the reference's mean, sd and MCSE of the mean; the model is in
// models.ts there).
//
// Agreement, as issue 30 asks: for every parameter and f[i], |z| ≤ 4 with z the difference of
// means over √(MCSE² + MCSE_ref²), and the sd ratio in [0.9, 1.1]. Each run keeps 4 × 1000 draws
// (bulk ESS ≳ 1500 for every quantity, so an sd estimate's relative error is ≲ 2.5%: the ratio
// check is > 4 sd wide); 13 z-checks per seed at |z| ≤ 4 fail a correct sampler with probability
// ≈ 8e-4 per seed. Seeds are fixed, so the outcome is deterministic.
//
// Issue 30's acceptance over 20 seeds is the either/or of test/fixtures/posteriordb/acceptance.ts:
// seeds 1 and 2 strictly here, and the others either agree or name the chain left in a minor mode.
import { describe, expect, it } from 'vitest';
import { windowedAdaptiveNuts } from '../../mcmc/windowed-adaptive-nuts.js';
import { agreement, gpFixture, gpPins, gpPoisRegr, gpQuantities } from '../fixtures/posteriordb/models.js';
import { acceptanceSeeds, expectAcceptable } from '../fixtures/posteriordb/acceptance.js';

describe('gp_pois_regr (posteriordb): Cholesky failures are rejections', () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: completes, agrees with the reference posterior, and reports the Cholesky rejections`, () => {
      const r = windowedAdaptiveNuts(gpPoisRegr(), { pins: gpPins, seed });
      for (const q of agreement(gpFixture.reference, gpQuantities(r as never))) {
        expect(Math.abs(q.z), `${q.name}: mean ${q.mean} vs ${gpFixture.reference[q.name]!.mean}`).toBeLessThanOrEqual(4);
        expect(q.sdRatio, `${q.name}: sd ${q.sd} vs ${gpFixture.reference[q.name]!.sd}`).toBeGreaterThanOrEqual(0.9);
        expect(q.sdRatio, `${q.name}: sd ${q.sd} vs ${gpFixture.reference[q.name]!.sd}`).toBeLessThanOrEqual(1.1);
      }
      console.log(`gp_pois_regr seed ${seed}:`, JSON.stringify(r.rejections));
      const chol = r.rejections!.find((e) => /cholesky/.test(e.message));
      expect(chol, JSON.stringify(r.rejections)).toBeDefined();
      expect(chol!.message).toMatch(/^RangeError: cholesky: `a` is not positive definite/);
      expect(chol!.node).toBe('node `k` (building its distribution)');
    });
  }
});

describe('gp_pois_regr (posteriordb): issue 30\'s acceptance, seed by seed', () => {
  for (const seed of acceptanceSeeds([3, 4]).filter((s) => s > 2)) {
    it(`seed ${seed}: agrees with the reference, or a chains-disagree warning names the chain in a minor mode`, () => {
      expectAcceptable('gp_pois_regr', seed);
    });
  }
});
