// examples/pk-one-compartment.ts fitted with windowedAdaptiveNuts (4 chains × (1000 + 1000), seed 0)
// against Stan's posterior of the same model (bench/stan/pk_one_compartment.stan, rstan 2.21,
// 4 × (1000 + 1000), seed 1; means, sds and MCSEs in test/fixtures/pk-one-compartment/stan.json,
// written by bench/stan/ts-ode-ess.R). Each mean within 4 combined MCSEs (|Δ| / √(MCSE₁² + MCSE₂²) < 4:
// false failure ≈ 6e-5 per quantity, < 3e-4 for the four); each sd within 12% of Stan's (bulk ESS
// ≥ 1400 on both sides, so each sd's relative Monte Carlo error is ≲ 2–3% and 12% is > 3 combined
// errors; ≈ 1e-3 per quantity). Fixed seeds: deterministic. ~1 min of CPU (more on a loaded machine).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fit } from '../../examples/pk-one-compartment.js';

const stan = JSON.parse(readFileSync(new URL('../fixtures/pk-one-compartment/stan.json', import.meta.url), 'utf8')) as {
  params: Record<string, { mean: number; sd: number; mcse_mean: number }>;
};

describe('examples/pk-one-compartment.ts', () => {
  it('posterior means within 4 MCSE and sds within 12% of Stan\'s', { timeout: 900_000 }, () => {
    const f = fit();
    console.log(f.summary.format());
    for (const [name, ref] of Object.entries(stan.params)) {
      const row = f.summary.rows.find((r) => r.name === name)!;
      const z = (row.mean - ref.mean) / Math.hypot(row.mcseMean, ref.mcse_mean);
      expect(Math.abs(z), `${name}: ${row.mean} vs Stan ${ref.mean}`).toBeLessThan(4);
      expect(row.sd / ref.sd, `${name}: sd ${row.sd} vs Stan ${ref.sd}`).toBeGreaterThan(0.88);
      expect(row.sd / ref.sd, `${name}: sd ${row.sd} vs Stan ${ref.sd}`).toBeLessThan(1.12);
    }
    expect(f.summary.rows.every((r) => r.rHat < 1.01)).toBe(true);
  });
});
