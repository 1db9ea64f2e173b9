/**
 * Poisson draws at large rates (src/random/poisson-f64.ts): `samplers.poisson` above 10⁶ (TFP's
 * Knuth loop would take a million steps) and `Generator.poisson` above 10⁵ (JAX's float32
 * rejection is too coarse there) draw by float64 transformed rejection, correct at any rate,
 * while every element at a lower rate keeps its TFP/JAX bits.
 *
 * Statistical tests use fixed seeds and ALPHA = 1e-6 (test/stats.ts): a chi-square of n = 20 000
 * draws over 14 cells cut at λ + z√λ (z = −3 … 3 by ½, open ends), with exact cell probabilities
 * from the regularised incomplete gamma function (P(K ≤ k) = Q(k + 1, λ)); for a correct sampler
 * a fixed seed fails with probability 1e-6. Where those probabilities would be slow to compute
 * (λ = 1e15, 1e18) the first three moments are checked instead: the mean within 5 standard
 * errors, the variance within 5% (its standard error is √(2/n) ≈ 1%), the skewness within 0.05
 * (standard error √(6/n) ≈ 0.017; the true skewness 1/√λ is nil).
 */
import { describe, expect, it } from 'vitest';
import { random, samplers, statefulRng } from '../../src/index.js';
import { poissonLogPmf } from '../../src/random/poisson-f64.js';
import { igammacScalar } from '../../src/tensor/special/igamma.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

const N = 20000;

/** Chi-square p-value of draws against Poisson(λ) on cells cut at λ + z√λ, z = −3 … 3 by ½. */
function binnedPValue(draws: ArrayLike<number>, lam: number): number {
  const edges: number[] = [];
  for (let z = -3; z <= 3; z += 0.5) edges.push(Math.floor(lam + z * Math.sqrt(lam)));
  const cdf = (k: number) => igammacScalar(k + 1, lam); // P(K ≤ k)
  const c = edges.map(cdf);
  const probs = [c[0]!, ...c.slice(1).map((v, i) => v - c[i]!), 1 - c[c.length - 1]!];
  const counts = new Array<number>(probs.length).fill(0);
  for (let i = 0; i < draws.length; i++) {
    let j = 0;
    while (j < edges.length && draws[i]! > edges[j]!) j++;
    counts[j]!++;
  }
  return chiSquarePValue(counts, probs);
}

function moments(d: number[]): { mean: number; variance: number; skew: number } {
  const n = d.length, mean = d.reduce((a, b) => a + b, 0) / n;
  const variance = d.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const skew = d.reduce((a, b) => a + ((b - mean) / Math.sqrt(variance)) ** 3, 0) / n;
  return { mean, variance, skew };
}

const samplersDraws = (lam: number, seed: number) =>
  Array.from(samplers.poisson([N], { lam, dtype: 'float64', seed }).data as Float64Array);
const generatorDraws = (lam: number, seed: number) =>
  Array.from((statefulRng(seed).poisson(lam, [N]) as unknown as { data: BigInt64Array }).data, Number);

describe('Poisson draws at large rates', () => {
  it('log pmf keeps its digits at any rate (against the plain formula where that is exact enough)', () => {
    for (const [k, lam] of [[3, 2.5], [12, 10], [150, 140.5], [1e4 + 37, 1e4]] as const) {
      let plain = k * Math.log(lam) - lam;
      for (let j = 2; j <= k; j++) plain -= Math.log(j);
      expect(Math.abs(poissonLogPmf(k, lam) - plain)).toBeLessThan(1e-9 * Math.max(1, Math.abs(plain)));
    }
    // At λ = 1e15, k = λ + √λ: ln p = −½ − ½ ln(2πλ) + O(1/√λ).
    const lam = 1e15, k = lam + Math.sqrt(lam);
    expect(poissonLogPmf(k, lam)).toBeCloseTo(-0.5 - 0.5 * Math.log(2 * Math.PI * lam), 6);
  });

  it.each([2e6, 1e9, 1e12])('samplers.poisson and Generator.poisson fit Poisson(%s) (chi-square, n = 20000)', { timeout: 30_000 }, (lam) => {
    expect(binnedPValue(samplersDraws(lam, 5), lam)).toBeGreaterThan(ALPHA);
    expect(binnedPValue(generatorDraws(lam, 3), lam)).toBeGreaterThan(ALPHA);
  });

  it.each([1e15, 1e18])('first three moments at λ = %s (n = 20000)', { timeout: 30_000 }, (lam) => {
    for (const d of [samplersDraws(lam, 11), generatorDraws(lam, 12)]) {
      const { mean, variance, skew } = moments(d);
      expect(Math.abs(mean - lam) / Math.sqrt(lam / N)).toBeLessThan(5);
      expect(Math.abs(variance / lam - 1)).toBeLessThan(0.05);
      expect(Math.abs(skew)).toBeLessThan(0.05);
    }
  });

  it('leaves the draws at lower rates as they were (TFP and JAX bits)', () => {
    // samplers.poisson: the high-rate elements take no part in TFP's Knuth loop, as λ = 0 would.
    const mixed = samplers.poisson([3], { lam: [4, 5e6, 20], dtype: 'float64', seed: 9 }).data as Float64Array;
    const low = samplers.poisson([3], { lam: [4, 0, 20], dtype: 'float64', seed: 9 }).data as Float64Array;
    for (let i = 0; i < 9; i += 3) {
      expect([mixed[i], mixed[i + 2]]).toEqual([low[i], low[i + 2]]);
      expect(Math.abs(mixed[i + 1]! - 5e6)).toBeLessThan(6 * Math.sqrt(5e6));
    }
    // Generator.poisson up to 1e5 is still random.poisson(key(), λ).
    const k = statefulRng(21).key();
    expect(statefulRng(21).poisson([3, 1e5], [2]) as unknown).toEqual(random.poisson(k, [3, 1e5], [2]));
  });
});
