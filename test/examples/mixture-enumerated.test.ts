// examples/mixture-enumerated.ts: a K = 3 mixture with explicit labels, enumerated: the compiled
// density equals MixtureSameFamily's; NUTS (4 chains × 500 draws, seed 0) recovers the component
// locations; inferDiscrete labels most observations correctly. Fixed seeds; ~5 s.
import { describe, expect, it } from 'vitest';
import { main, TRUE_LOC } from '../../examples/mixture-enumerated.js';

describe('examples/mixture-enumerated.ts', () => {
  it('matches MixtureSameFamily; NUTS and inferDiscrete recover the mixture', async () => {
    const r = await main({ quiet: true });
    expect(r.maxRelDiff).toBeLessThan(1e-12);
    expect(r.maxRHat).toBeLessThan(1.01);
    expect(r.divergences).toBe(0);
    // 40 observations from unit-variance components: each location within 0.8 of the truth.
    r.muMean.forEach((m, k) => expect(Math.abs(m - TRUE_LOC[k]!)).toBeLessThan(0.8));
    expect(r.labelAccuracy).toBeGreaterThan(0.8);
    for (const p of r.labelProbs) expect(Math.abs(p[0]! + p[1]! + p[2]! - 1)).toBeLessThan(1e-9);
  });
});
