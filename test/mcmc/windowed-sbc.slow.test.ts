// Simulation-based calibration (Talts et al. 2018) of windowedAdaptiveNuts with both adaptations,
// per-chain (Stan's) and pooled (TFP's), the whole pipeline (warm-up included), on
//
//   mu ~ N(0, 1),  s = log σ ~ N(0, 0.5²),  y_i ~ N(mu, σ),  i = 1..8.
//
// Each of S = 200 simulations draws (mu*, s*) from the prior and a data set from the likelihood,
// pins it, and runs windowedAdaptiveNuts (1 chain, 200 warm-up steps, 100 draws thinned by 5: L =
// 20). The rank of the true value among the L draws is uniform on {0..20} when the whole pipeline
// is right; ranks go into 7 bins of 3 values (≈ 28.6 expected per bin) and each parameter's
// histogram gets a chi-square test with 6 degrees of freedom at α = 1e-4.
//
// False-failure rate: 4 tests (2 adaptations × 2 parameters) at α = 1e-4, so ≲ 4e-4 under uniform
// ranks (slightly more from residual autocorrelation after thinning). Seeds are fixed, so the
// outcome is deterministic. The same procedure with a wrong posterior (the likelihood counted
// three times) must fail, which shows the test has power. About 15 s.
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { describe, expect, it } from 'vitest';
import { Independent } from '../../distributions/independent.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { windowedAdaptiveNuts } from '../../mcmc/windowed-adaptive-nuts.js';
import { normal } from '../../src/samplers/normal.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { exp } from '../../src/tensor/ops/elementwise.js';
import { broadcastTo, expandDims } from '../../src/tensor/ops/shape.js';
import { Tensor } from '../../src/tensor/tensor.js';

const S = 200, N_OBS = 8, DRAWS = 100, THIN = 5, L = DRAWS / THIN, WARMUP = 200, BINS = 7, ALPHA = 1e-4;

/**
 * The model; `copies` > 1 counts the likelihood that many times (a wrong posterior, for the power check).
 * Written with expandDims so that it also takes the pooled sampler's chains axis.
 */
function model(copies: number): JointDistributionNamed {
  const like = (mu: Tensor, s: Tensor) => new Independent({
    distribution: new Normal({ loc: broadcastTo(expandDims(mu, -1), [...mu.shape, N_OBS]), scale: exp(expandDims(s, -1)) }), reinterpretedBatchNdims: 1,
  });
  return new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 1 }),
    s: new Normal({ loc: 0, scale: 0.5 }),
    y: (mu: Tensor, s: Tensor) => like(mu, s),
    ...Object.fromEntries(Array.from({ length: copies - 1 }, (_, i) => [`y${i + 2}`, (mu: Tensor, s: Tensor) => like(mu, s)])),
  });
}

function simulate(seed: number): { mu: Float64Array; s: Float64Array; y: Float64Array } {
  const [kMu, kS, kY] = splitSeed(seed, { n: 3, salt: 'sbc' });
  const mu = normal([S], { seed: kMu }).data as Float64Array;
  const s = normal([S], { stddev: 0.5, seed: kS }).data as Float64Array;
  const z = normal([S, N_OBS], { seed: kY }).data as Float64Array;
  const y = Float64Array.from({ length: S * N_OBS }, (_, k) => mu[Math.floor(k / N_OBS)]! + Math.exp(s[Math.floor(k / N_OBS)]!) * z[k]!);
  return { mu, s, y };
}

/** Chi-square statistics of the binned rank histograms of mu and s. */
function sbc(adaptation: 'per-chain' | 'pooled', copies: number, seed: number): number[] {
  const sims = simulate(seed), m = model(copies);
  const counts = [new Array<number>(BINS).fill(0), new Array<number>(BINS).fill(0)];
  for (let j = 0; j < S; j++) {
    const y = new Tensor(sims.y.slice(j * N_OBS, (j + 1) * N_OBS), [N_OBS], 'float64');
    const { draws } = windowedAdaptiveNuts(m, {
      adaptation, nChains: 1, numAdaptationSteps: WARMUP, nDraws: DRAWS, seed: seed * 1000 + j, pins: Object.fromEntries(Array.from({ length: copies }, (_, i) => [i === 0 ? 'y' : `y${i + 1}`, y])),
    });
    [draws.mu!, draws.s!].forEach((t, p) => {
      const d = t.data as Float64Array, truth = (p === 0 ? sims.mu : sims.s)[j]!;
      let rank = 0;
      for (let l = THIN - 1; l < DRAWS; l += THIN) if (d[l]! < truth) rank++;
      counts[p]![Math.floor((rank * BINS) / (L + 1))]!++;
    });
  }
  const expected = S / BINS;
  return counts.map((c) => c.reduce((acc, n) => acc + (n - expected) ** 2 / expected, 0));
}

/** The (1 − α) quantile of χ²(df), by bisection on the cdf. */
function chiSquareQuantile(df: number, alpha: number): number {
  let lo = 0, hi = 200;
  for (let i = 0; i < 100; i++) { const mid = (lo + hi) / 2; if (chisquareCdf(mid, df) < 1 - alpha) lo = mid; else hi = mid; }
  return hi;
}

describe('windowedAdaptiveNuts: simulation-based calibration of the whole pipeline', () => {
  const critical = chiSquareQuantile(BINS - 1, ALPHA);
  for (const adaptation of ['per-chain', 'pooled'] as const) {
    it(`${adaptation}: rank histograms of mu and log σ are uniform (χ²(6) below the α = 1e-4 critical value)`, () => {
      const [chiMu, chiS] = sbc(adaptation, 1, 3);
      expect(chiMu, 'mu').toBeLessThan(critical);
      expect(chiS, 's').toBeLessThan(critical);
    }, 300_000);
  }

  it('detects a wrong posterior (the likelihood counted three times: χ² ≈ 80 and 100)', () => {
    const [chiMu, chiS] = sbc('per-chain', 3, 3);
    expect(Math.max(chiMu!, chiS!)).toBeGreaterThan(critical);
  }, 300_000);
});
