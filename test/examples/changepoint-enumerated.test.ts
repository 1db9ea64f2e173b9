// examples/changepoint-enumerated.ts on a short run (2 chains × 150 draws after 150 adaptation
// steps, seed 0): the drawn switch points against the closed form given the drawn rates, a χ²
// test (300 draws, cells with expected count < 5 merged, p > 1e-4: false-failure rate 1e-4).
// ~8 s; the full run (4 × 1000) is in changepoint-enumerated.slow.test.ts.
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/changepoint-enumerated.js';
import { chiSquareMergedPValue } from '../stats.js';

describe('examples/changepoint-enumerated.ts (short run)', () => {
  it('switch points drawn by inferDiscrete follow p(s | e, l, D)', async () => {
    const r = await main({ quiet: true, nDraws: 150, numAdaptationSteps: 150, nChains: 2 });
    expect(r.draws).toBe(300);
    expect(r.counts.reduce((a, b) => a + b, 0)).toBe(300);
    expect(chiSquareMergedPValue(r.counts, r.expected.map((e) => e / r.draws))).toBeGreaterThan(1e-4);
    expect(r.early.mean).toBeGreaterThan(2.5);
    expect(r.late.mean).toBeLessThan(1.3);
  }, 120_000);
});
