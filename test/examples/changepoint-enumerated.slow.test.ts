// examples/changepoint-enumerated.ts, the full run (4 chains × 1000 draws, seed 0; about 30 s):
// the switch-point draws against the closed form given the rates (χ², 4000 draws, cells with
// expected count < 5 merged, p > 1e-4), the rates against their exact posterior means (4 MCSE),
// and the switch point's posterior against the exact marginal p(s | D) (within 0.015 per year).
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/changepoint-enumerated.js';
import { chiSquareMergedPValue } from '../stats.js';

describe('examples/changepoint-enumerated.ts', () => {
  it('matches the closed forms', async () => {
    const r = await main({ quiet: true });
    expect(r.draws).toBe(4000);
    expect(chiSquareMergedPValue(r.counts, r.expected.map((e) => e / r.draws))).toBeGreaterThan(1e-4);
    for (const rate of [r.early, r.late]) expect(Math.abs(rate.mean - rate.exact)).toBeLessThan(4 * rate.mcse);
    expect(r.maxRHat).toBeLessThan(1.01);
    expect(r.divergences).toBe(0);
    expect(Math.max(...r.frequencies.map((f, k) => Math.abs(f - r.exact[k]!)))).toBeLessThan(0.015);
  }, 600_000);
});
