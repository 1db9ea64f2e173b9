// examples/model-comparison.ts: the Challenger data under a temperature and a constant model —
// posterior predictive check of the coldest launches and PSIS-LOO. The constant model's p-value
// is checked against its exact value E[p⁴] by quadrature; fixed seeds, ~10 s.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
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
    // Pareto k: the constant model's are all small; the temperature model's largest sits near 0.7
    // (0.56–0.72 as the last bits of the draws moved), so only its warning's consistency is pinned.
    const maxK = (m: typeof r.loo.constant) => Math.max(...Array.from(m.paretoK.data as Float64Array));
    expect(maxK(r.loo.constant)).toBeLessThan(0.5);
    expect(r.loo.constant.warning).toBe(false);
    expect(r.loo.temperature.warning).toBe(maxK(r.loo.temperature) > r.loo.temperature.goodK);
    // the report step: one report.html and one InferenceData draws.json per model, in a temporary folder
    for (const file of [r.reports.temperature, r.reports.constant]) {
      const html = readFileSync(file, 'utf8');
      expect(html).toContain('<section id="ppc">');
      expect(html).toContain('<section id="loo">');
      const idata = fromArvizJson(readFileSync(`${dirname(file)}/draws.json`, 'utf8'));
      expect(idata.groups.logLikelihood!.damage!.shape).toEqual([1000, 4, 23]);
      expect(idata.groups.observedData!.damage!.shape).toEqual([23]);
    }
    rmSync(dirname(dirname(r.reports.temperature)), { recursive: true });
    expect(existsSync(r.reports.temperature)).toBe(false);
  }, 120_000);
});
