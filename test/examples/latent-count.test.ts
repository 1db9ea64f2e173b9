// examples/latent-count.ts on a short run (4 chains × 500 draws, 4 transitions skipped between
// kept draws, 500 adaptation steps, seed 0): N takes Gibbs steps found automatically, and its
// posterior mean matches the closed form p(N | y) within 4 MCSE (z-test, false-failure rate
// 6.3e-5; the draws are autocorrelated, so the MCSE, not a χ², is the yardstick). ~5 s.
import { describe, expect, it } from 'vitest';
import { exactPosterior, main } from '../../examples/latent-count.js';

describe('examples/latent-count.ts (short run)', () => {
  const r = main({ quiet: true, nDraws: 500 });

  it('N is a Gibbs node with integer draws at least max y', () => {
    expect(r.draws).toBe(2000);
    expect(r.counts.slice(0, 12).every((c) => c === 0)).toBe(true);
    for (const a of r.acceptRate) expect(a).toBeGreaterThan(0.3);
    expect(r.maxRHat).toBeLessThan(1.1);
  });

  it('E[N | y] matches the closed form within 4 MCSE', () => {
    expect(Math.abs(r.mean - r.exactMean)).toBeLessThan(4 * r.mcse);
  });

  it('the closed form is a distribution on N ≥ max y', () => {
    const p = exactPosterior();
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p.slice(0, 12).every((v) => v === 0)).toBe(true);
    expect(p[p.length - 1]!).toBeLessThan(1e-12);
  });
});
