// The false-alarm rate of samplingWarnings on healthy runs: 4 × 1000 NUTS runs (windowedAdaptiveNuts'
// defaults) of a standard normal, 300 seeds in 1-d and 100 in 10-d, must give no warning of any
// kind. The chains-disagree test is built for about 1e-4 false alarms per run (Bonferroni at
// α = 1e-4; R-hat > 1.01 and ESS < 400 are rarer still on these runs), so this test's
// false-failure rate is about 400 × 1e-4 ≈ 4% by design, and it is deterministic under its fixed
// seeds. It also checks that the chains-disagree statistic is not much more conservative than
// designed (which would cost power): in 1-d the share of runs whose largest first-round |z| passes
// the 5% Bonferroni threshold is within [1%, 10%] (4.5% measured over 1000 seeds; binomial sd
// 1.2% at n = 300, so a false failure is below 1e-3).
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed } from '../../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../../distributions/normal.js';
import { Sample } from '../../../distributions/sample.js';
import { flaggedChains } from '../../../mcmc/diagnostics/chains-disagree.js';
import { componentChains, float64Values } from '../../../mcmc/diagnostics/draws.js';
import { normalPpf } from '../../../mcmc/diagnostics/internal/normal-ppf.js';
import { windowedAdaptiveNuts } from '../../../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../../../src/tensor/tensor.js';

/** Warnings per kind over `seeds` runs, and each run's largest first-round |z| (log density and every coordinate). */
function healthyRuns(dim: number, seeds: number, first: number): { counts: Record<string, number>; maxZ: number[] } {
  const model = new JointDistributionNamed({
    x: dim === 1 ? new Normal({ loc: 0, scale: 1 }) : new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: dim }),
  });
  const counts: Record<string, number> = {};
  const maxZ: number[] = [];
  for (let s = first; s < first + seeds; s++) {
    const r = windowedAdaptiveNuts(model, { seed: s });
    for (const w of r.warnings) counts[w.kind] = (counts[w.kind] ?? 0) + 1;
    const one = { draws: 1000, chains: 4, eventShape: [], eventSize: 1 };
    const x = float64Values(r.draws.x as Tensor);
    const quantities = [componentChains(float64Values(r.trace.targetLogProb), one, 0), ...Array.from({ length: dim }, (_, e) => componentChains(x, { ...one, eventSize: dim }, e))];
    maxZ.push(Math.abs(flaggedChains(quantities, 0)[0]!.z));
  }
  return { counts, maxZ };
}

describe('samplingWarnings: no false alarm on healthy 4 × 1000 runs', () => {
  it('standard normal, 300 seeds: no warning; chains-disagree\'s |z| close to its nominal law', () => {
    const { counts, maxZ } = healthyRuns(1, 300, 5000);
    expect(counts).toEqual({});
    const at5 = normalPpf(1 - 0.05 / (2 * 8));   // 4 chains × (lp, x)
    const share = maxZ.filter((z) => z > at5).length / maxZ.length;
    expect(share).toBeGreaterThan(0.01);
    expect(share).toBeLessThan(0.1);
  }, 120_000);

  it('10-d standard normal, 100 seeds: no warning', () => {
    expect(healthyRuns(10, 100, 7000).counts).toEqual({});
  }, 120_000);
});
