// advi against rstan's vb with 40 seeds per algorithm (about 20 s on a quiet machine): beside the
// mean μ (advi.test.ts does it with 20 seeds), the draws' standard deviations, the iterations the
// tol_rel_obj rule needs and Pareto k̂, each averaged over seeds, within 3 standard errors of the
// difference of the two averages (sample sds over seeds; see advi-rstan.ts). 20 comparisons:
// false-failure rate ≈ 20 × 0.4% ≈ 8% for a random choice of seeds (Welch t, ~78 df, beyond 3);
// the seeds are fixed (1–40). The largest |z| (2.1–2.2, full-rank sds of alpha and beta[0]) comes
// from the coordinates' order (stochax's compiled order is beta, alpha; Stan's alpha, beta), which
// full-rank's triangular L makes matter under an early stop: permuted to Stan's order, |z| ≤ 0.7.
import { describe, expect, it } from 'vitest';
import { compareWithRstan } from './advi-rstan.js';

describe('advi against rstan vb, 40 seeds', () => {
  it('logistic regression, mean-field and full-rank: means, draws\' sds, iterations and Pareto k̂ agree in distribution', () => {
    const rows = compareWithRstan(40);
    expect(rows.length).toBe(20);
    for (const r of rows) expect(Math.abs(r.z), `${r.algorithm} ${r.what}${r.j >= 0 ? ` [${r.j}]` : ''}: z = ${r.z.toFixed(2)}`).toBeLessThan(3);
  });
});
