import { describe, expect, it } from 'vitest';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { kolmogorovSurvival, ksPValue, ksPValueExact, ksTwoSamplePValue } from './stats.js';

describe('the fast KS p-value used by the statistical tests', () => {
  it('agrees with @stdlib kstest (exact) within 0.01 on normal samples, n = 2000 and 20000', () => {
    let s = 99;
    const u = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 2 ** 32; };
    for (const n of [2000, 20000]) {
      for (const shift of [0, 0.01, 0.03]) {
        // Box–Muller normals from a fixed LCG, shifted to move the p-value across its range.
        const x = Array.from({ length: n }, () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()) + shift);
        const cdf = (v: number) => normalCdf(v, 0, 1);
        expect(Math.abs(ksPValue(x, cdf) - ksPValueExact(x, cdf))).toBeLessThan(0.01);
      }
    }
  }, 60_000);   // ~1.5 s alone; 10 s seen with the other test files and a CPU hog on 2 cores
});

describe('ksTwoSamplePValue', () => {
  it('is 1 for equal samples, and Kolmogorov\'s tail at the hand-computed D otherwise', () => {
    const x = Array.from({ length: 50 }, (_, i) => i);
    expect(ksTwoSamplePValue(x, x)).toBe(1);
    // x = 0…49, y = 25…74: the empirical cdfs differ by at most 25/50 = 0.5 (at 24); m = √(50·50/100) = 5.
    const y = x.map((v) => v + 25);
    expect(ksTwoSamplePValue(x, y)).toBe(kolmogorovSurvival((5 + 0.12 + 0.11 / 5) * 0.5));
    expect(ksTwoSamplePValue(y, x)).toBe(ksTwoSamplePValue(x, y));
  });
});
