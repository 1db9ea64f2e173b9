import { describe, expect, it } from 'vitest';
import { orderStatistic, psisSmooth, tailLength } from '../../../mcmc/diagnostics/internal/psis.js';

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

describe('orderStatistic (the PSIS cutoff without a full sort)', () => {
  /** What the full sort puts at `pos`: ascending, NaN last (the order psisSmooth used to build). */
  const sorted = (x: Float64Array, pos: number) => Float64Array.from(x).sort()[pos];
  let state = 12345;
  const rnd = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const cases: [string, () => Float64Array][] = [
    ['continuous', () => Float64Array.from({ length: 4000 }, () => Math.log(rnd()) * 3)],
    ['heavy ties', () => Float64Array.from({ length: 997 }, () => Math.floor(rnd() * 5))],
    ['all equal', () => new Float64Array(500).fill(-2.5)],
    ['sorted ascending', () => Float64Array.from({ length: 1000 }, (_, i) => i)],
    ['sorted descending', () => Float64Array.from({ length: 1000 }, (_, i) => -i)],
    ['organ pipe', () => Float64Array.from({ length: 1001 }, (_, i) => Math.min(i, 1000 - i))],
    ['NaN and ±∞', () => Float64Array.from({ length: 300 }, () => { const u = rnd(); return u < 0.1 ? NaN : u < 0.2 ? -Infinity : u < 0.25 ? Infinity : u; })],
    ['mostly NaN', () => Float64Array.from({ length: 50 }, (_, i) => (i % 10 === 3 ? i : NaN))],
    ['all −∞', () => new Float64Array(64).fill(-Infinity)],
    ['±0', () => Float64Array.from({ length: 40 }, (_, i) => (i % 2 ? -0 : 0))],
  ];
  it.each(cases)('equals the full sort at every position near the tail and at the ends: %s', (_, make) => {
    const x = make();
    const copy = Float64Array.from(x);
    const n = x.length;
    const positions = new Set([0, 1, n - 1, n - 2, Math.floor(n / 2)]);
    for (const tail of [1, 4, 5, tailLength(n, 1), tailLength(n, 0.3)]) if (tail < n) positions.add(n - tail - 1);
    for (const pos of positions) {
      expect(Object.is(orderStatistic(x, pos), sorted(x, pos)) || orderStatistic(x, pos) === sorted(x, pos)).toBe(true);
    }
    expect(x).toEqual(copy);   // the input is left as it was
  });
  it('handles the smallest sizes', () => {
    expect(orderStatistic(Float64Array.of(3), 0)).toBe(3);
    expect(orderStatistic(Float64Array.of(2, 1), 0)).toBe(1);
    expect(orderStatistic(Float64Array.of(2, 1), 1)).toBe(2);
    expect(orderStatistic(Float64Array.of(NaN, 1), 1)).toBeNaN();
    expect(orderStatistic(new Float64Array(0), 0)).toBeNaN();
    for (let n = 1; n <= 12; n++) {
      for (let rep = 0; rep < 20; rep++) {
        const x = Float64Array.from({ length: n }, () => Math.floor(rnd() * 4));
        for (let pos = 0; pos < n; pos++) expect(orderStatistic(x, pos)).toBe(sorted(x, pos));
      }
    }
  });
  it('leaves psisSmooth as the full sort made it: small S, ties and −∞ in the tail', () => {
    // S = 10 (tail 2 < 5: k = ∞, no smoothing), ties straddling the cutoff, a −∞ weight
    const lw = Float64Array.of(0, -1, -1, -1, -Infinity, -1, -2, -1, 0.5, -3);
    expect(psisSmooth(lw, tailLength(10, 1))).toBe(Infinity);
    expect(Array.from(lw, (v) => Math.exp(v)).reduce((a, b) => a + b)).toBeCloseTo(1, 14);
    // 100 draws in 4 tied values: the cutoff is one of them and only the strictly larger ones are the tail
    const tied = Float64Array.from({ length: 100 }, (_, i) => (i % 4) * 0.25);
    expect(psisSmooth(tied, tailLength(100, 1))).toBe(Infinity);   // 25 tied maxima are not > the cutoff: empty tail
  });
});
