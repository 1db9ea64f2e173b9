// examples/stochastic-volatility.ts: the 90% posterior intervals of mu, phi, sigma and tau cover
// the values the returns were simulated with; the chains converge without (or with very few)
// divergences, and the posterior mean volatility tracks the simulated one. Fixed seeds; ~30 s.
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/stochastic-volatility.js';

describe('examples/stochastic-volatility.ts', () => {
  it('the posterior covers the true persistence and volatility parameters', async () => {
    const r = await main({ quiet: true });
    for (const [name, p] of Object.entries(r.parameters)) {
      expect(p.covered, `${name}: ${p.truth} in [${p.q5}, ${p.q95}]`).toBe(true);
    }
    expect(r.parameters.phi.q5).toBeGreaterThan(0.5);           // the data do say "persistent"
    expect(r.divergences).toBeLessThanOrEqual(20);              // ≤ 0.5% of 4000 draws: 2, 3 and now 12 as the draws' last bits moved (the (φ, σ) form gives tens)
    expect(r.maxRHat).toBeLessThan(1.02);
    expect(r.volatilityCorrelation).toBeGreaterThan(0.6);
  });
});
