import { describe, expect, it } from 'vitest';
import { gaussianKde, gridGaussianKde, linspace, scottBandwidth } from '../../../cli/report/plots/kde.js';
import { normal } from '../../../src/random/normal.js';
import { key } from '../../../src/random/keys.js';
import { detExp } from '../../../src/math/index.js';

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

describe('gridGaussianKde (the plots\' curves: binned onto 64 bins a bandwidth)', () => {
  // Deterministic data (fixed keys), compared with the exact sum: the bound is the stated
  // linear-binning error (δ/h)²/8 ≤ 3.1e-5 of the peak, so there is no false-failure rate.
  const within = (x: Float64Array, lo: number, hi: number, n: number, h: number, tol: number) => {
    const exact = gaussianKde(x, linspace(lo, hi, n), h), fast = gridGaussianKde(x, lo, hi, n, h);
    const peak = Math.max(...exact);
    let worst = 0;
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(fast[j]! - exact[j]!) / peak);
    expect(worst).toBeLessThan(tol);
    return worst;
  };
  it('agrees with the exact KDE to 3.1e-5 of the peak: a marginal (4,000 draws, 200 points over the range)', () => {
    const x = Float64Array.from(normal(key(3), [4000]).data as Float64Array, (v, i) => (i % 5 === 0 ? v * 4 + 6 : v));
    let min = Infinity, max = -Infinity;
    for (const v of x) { min = Math.min(min, v); max = Math.max(max, v); }
    within(x, min, max, 200, scottBandwidth(x), 3.1e-5);
  });
  it('agrees on 600 points (a predictive line), 200 000 skewed points (the pooled line) and a wide bandwidth', () => {
    const z = normal(key(4), [600]).data as Float64Array;
    within(z, -3, 3.5, 160, scottBandwidth(z), 3.1e-5);
    const ln = Float64Array.from(normal(key(5), [200_000]).data as Float64Array, (v) => Math.exp(v));
    within(ln, 0, 20, 160, scottBandwidth(ln), 3.1e-5);
    within(Float64Array.of(0, 0.5, 1), -1, 2, 5, 0.4, 3.1e-5);
    within(Float64Array.of(0, 0.5, 1), -1, 2, 5, 40, 3.1e-5);   // grid step ≪ bandwidth
  });
  it('uses the exact sum when the grid spans too many bandwidths, and degenerate input gives zeros', () => {
    const x = Float64Array.of(0, 1e-6, 2e-6, 1e6);
    expect(Array.from(gridGaussianKde(x, 0, 1e6, 50, 1e-6))).toEqual(Array.from(gaussianKde(x, linspace(0, 1e6, 50), 1e-6)));
    // one grid point, and lo = hi
    expect(gridGaussianKde(Float64Array.of(1, 2), 1.5, 1.5, 1, 0.5)[0]).toBeCloseTo(gaussianKde(Float64Array.of(1, 2), [1.5], 0.5)[0]!, 6);
    expect(gridGaussianKde(Float64Array.of(1, 2), 1.5, 1.5, 3, 0.5)[2]).toBeCloseTo(gaussianKde(Float64Array.of(1, 2), [1.5], 0.5)[0]!, 6);
    // beyond the span, NaN, empty input or a bad bandwidth add nothing
    const grid = [0, 20, 160] as const;
    expect(gridGaussianKde(Float64Array.of(1e9, Number.NaN), ...grid, 0.3).every((v) => v === 0)).toBe(true);
    expect(gridGaussianKde(new Float64Array(0), ...grid, 0.3).every((v) => v === 0)).toBe(true);
    expect(gridGaussianKde(Float64Array.of(1, 2), ...grid, Number.NaN).every((v) => v === 0)).toBe(true);
    expect(gridGaussianKde(Float64Array.of(1, 2), 0, 1, 0, 1)).toHaveLength(0);
  });
  it('visits only the filled bins where a window holds few, with the bits of the sum over every bin', () => {
    // the dense tap loop gridGaussianKde ran for every grid point before (binning as it does)
    const dense = (x: Float64Array, lo: number, hi: number, n: number, h: number): Float64Array => {
      const out = new Float64Array(n), step = (hi - lo) / (n - 1), r = Math.max(1, Math.ceil((step * 64) / h)), delta = step / r;
      const reach = Math.ceil((8.6 * h) / delta), bins = (n - 1) * r + 1 + 2 * reach, origin = lo - reach * delta;
      const w = new Float64Array(bins);
      for (const v of x) {
        const t = (v - origin) / delta;
        if (!(t >= 0 && t <= bins - 1)) continue;
        const k = Math.min(Math.floor(t), bins - 2), f = t - k;
        w[k]! += 1 - f; w[k + 1]! += f;
      }
      const kernel = Float64Array.from({ length: reach + 1 }, (_, o) => { const u = (o * delta) / h; return detExp(-0.5 * u * u); });
      const norm = 1 / (x.length * h * Math.sqrt(2 * Math.PI));
      for (let j = 0; j < n; j++) {
        const c = reach + j * r;
        let sum = w[c]! * kernel[0]!;
        for (let o = 1; o <= reach; o++) sum += (w[c - o]! + w[c + o]!) * kernel[o]!;
        out[j] = sum * norm;
      }
      return out;
    };
    const z = normal(key(6), [600]).data as Float64Array;
    const cases: [Float64Array, number, number, number][] = [
      [Float64Array.of(28, 8, -3, 7, -1, 1, 18, 12), -3, 28, 160],   // eight observations: every window sparse
      [Float64Array.from(z, (v, i) => (i % 100 === 0 ? v * 30 : v)), -60, 60, 160],   // a dense middle, sparse tails
      [z, -3.5, 3.5, 200],   // dense
      [Float64Array.of(0, 0, 0, 1e-3, 5), -1, 6, 7],
    ];
    for (const [x, lo, hi, n] of cases) {
      const h = scottBandwidth(x);
      expect(Array.from(gridGaussianKde(x, lo, hi, n, h))).toEqual(Array.from(dense(x, lo, hi, n, h)));
    }
  });
});
