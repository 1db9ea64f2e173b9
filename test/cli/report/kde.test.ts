import { describe, expect, it } from 'vitest';
import { binnedGaussianKde, gaussianKde, linspace, scottBandwidth } from '../../../cli/report/plots/kde.js';
import { normal } from '../../../src/random/normal.js';
import { key } from '../../../src/random/keys.js';

/** The textbook sum over every point, no cut-off. */
function directKde(x: Float64Array, g: number, h: number): number {
  let s = 0;
  for (const xi of x) s += Math.exp(-0.5 * ((g - xi) / h) ** 2) / Math.sqrt(2 * Math.PI);
  return s / (x.length * h);
}

describe('gaussianKde with Scott\'s bandwidth', () => {
  it('matches scipy.stats.gaussian_kde (bandwidth and density)', () => {
    // scipy 1.17: gaussian_kde(x).factor * x.std(ddof=1) and gaussian_kde(x)(grid).
    const x = Float64Array.of(-1.2, 0.3, 0.35, 1.9, 2.4, 3.1, -0.7, 0.0);
    expect(scottBandwidth(x)).toBeCloseTo(1.0096818607218006, 14);
    const want = [0.07160056578251393, 0.21814838958274568, 0.20639823765724047, 0.15207860987122263, 0.053100437553088665];
    const got = gaussianKde(x, [-2, 0, 0.5, 2.2, 4]);
    want.forEach((w, i) => expect(Math.abs(got[i]! - w) / w).toBeLessThan(1e-13));
  });

  it('equals the direct sum over all points (the 8.6-bandwidth cut-off changes nothing visible)', () => {
    const x = Float64Array.from(normal(key(3), [4000]).data as Float64Array, (v, i) => (i % 5 === 0 ? v * 4 + 6 : v));
    const h = scottBandwidth(x);
    const grid = linspace(-10, 30, 401);
    const got = gaussianKde(x, grid);
    const peak = Math.max(...got);
    grid.forEach((g, i) => {
      const want = directKde(x, g, h);
      expect(Math.abs(got[i]! - want), `at ${g}`).toBeLessThanOrEqual(1e-14 * peak + 1e-12 * want);
    });
    // ... and integrates to about 1 over a wide grid.
    let integral = 0;
    for (let i = 1; i < grid.length; i++) integral += ((got[i]! + got[i - 1]!) / 2) * (grid[i]! - grid[i - 1]!);
    expect(integral).toBeCloseTo(1, 3);
  });

  it('takes an explicit bandwidth; degenerate input gives zeros, not NaN', () => {
    const x = Float64Array.of(0, 1, 5);
    expect(gaussianKde(x, [0.5, 3], 0.3)[1]).toBeCloseTo(directKde(x, 3, 0.3), 15);
    expect(Array.from(gaussianKde(Float64Array.of(2, 2, 2), [1, 2, 3]))).toEqual([0, 0, 0]);
    expect(Array.from(gaussianKde(new Float64Array(0), [1]))).toEqual([0]);
    expect(scottBandwidth(Float64Array.of(1))).toBeNaN();
    expect(Array.from(linspace(0, 1, 3))).toEqual([0, 0.5, 1]);
    expect(Array.from(linspace(2, 5, 1))).toEqual([2]);
  });
});

describe('binnedGaussianKde (the ppc plot\'s pooled line)', () => {
  it('agrees with the exact KDE to 1e-3 of the peak on 200 000 skewed points', () => {
    // exp of standard normals (log-normal: a long right tail, so bins are wide next to h)
    const z = normal(key(3), [200_000]).data as Float64Array;
    const x = Float64Array.from(z, (v) => Math.exp(v));
    const h = scottBandwidth(x);
    const grid = linspace(0, 20, 160);
    const exact = gaussianKde(x, grid, h), binned = binnedGaussianKde(x, grid, h);
    const peak = Math.max(...exact);
    for (let j = 0; j < grid.length; j++) expect(Math.abs(binned[j]! - exact[j]!)).toBeLessThan(1e-3 * peak);
    // a value beyond the span, NaN and an empty input add nothing
    expect(binnedGaussianKde(Float64Array.of(1e9, Number.NaN), grid, h).every((v) => v === 0)).toBe(true);
    expect(binnedGaussianKde(new Float64Array(0), grid, h).every((v) => v === 0)).toBe(true);
  });
});
