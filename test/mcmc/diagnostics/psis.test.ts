import { describe, expect, it } from 'vitest';
import { psisSmooth, tailLength } from '../../../mcmc/diagnostics/internal/psis.js';

describe('psisSmooth', () => {
  it('keeps finite weights when the log ratios are constant up to rounding (fitted σ = 0)', () => {
    // logP − logQ of an exact approximation: −3 plus the rounding of (a + b) − a − b. With this
    // Park–Miller stream (seed 9) the tail's GPD fit has k̂ = 0 before the prior and σ = 0,
    // which made every smoothed weight NaN (ArviZ's az.psislw gives NaN here too).
    let s = 9;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const lw = Float64Array.from({ length: 1000 }, () => {
      const a = -140 - rnd() * 20, b = rnd() * 1e-3;
      return a + b - a - b - 3;
    });
    const k = psisSmooth(lw, tailLength(1000, 1));
    expect(k).toBeLessThan(0.1);
    expect(lw.every(Number.isFinite)).toBe(true);
    let total = 0;
    for (const v of lw) total += Math.exp(v);
    expect(total).toBeCloseTo(1, 12);
    // nearly uniform weights: none above twice the mean
    expect(Math.max(...lw)).toBeLessThan(Math.log(2 / 1000));
  });
});
