// examples/model-comparison.ts: the Challenger data under a temperature and a constant model —
// posterior predictive check of the coldest launches and PSIS-LOO. The constant model's p-value
// is checked against its exact value E[p⁴] by quadrature; fixed seeds, ~10 s.
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/model-comparison.js';

/** E[p⁴] under the constant model's posterior (α ~ Normal(0, 10), logit p = α; 7 of 23 damaged), by quadrature. */
function exactAllFourDamaged(): number {
  let num = 0, den = 0;
  for (let a = -30; a <= 30; a += 1e-3) {
    const p = 1 / (1 + Math.exp(-a));
    const w = Math.exp(-(a * a) / 200 + 7 * Math.log(p) + 16 * Math.log1p(-p));
    num += w * p ** 4; den += w;
  }
  return num / den;
}

describe('examples/model-comparison.ts', () => {
  it('the constant model fails the cold-launch check, the temperature model passes it, and LOO prefers it', async () => {
    const r = await main({ quiet: true });
    // 4000 replicates from autocorrelated draws: with an effective size ≥ 1000, 5 sd of the estimate is < 0.02.
    expect(Math.abs(r.pValue.constant - exactAllFourDamaged())).toBeLessThan(0.02);
    expect(r.pValue.constant).toBeLessThan(0.05);
    expect(r.pValue.temperature).toBeGreaterThan(0.2);
    expect(r.loo.temperature.elpdLoo).toBeGreaterThan(r.loo.constant.elpdLoo);
    expect(r.comparison.rows.map((row) => row.name)).toEqual(['temperature', 'constant']);
    for (const m of [r.loo.temperature, r.loo.constant]) expect(m.warning).toBe(false);
  }, 120_000);
});
