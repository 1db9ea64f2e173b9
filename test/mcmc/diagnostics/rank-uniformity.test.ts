// rankUniformity: the χ² statistic and p-value against @stdlib's χ² cdf, the ECDF γ against a
// direct binomial-sum computation, and the Monte Carlo p-value's calibration. Deterministic
// (fixed keys); no statistical test here can fail by chance with these seeds.
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { describe, expect, it } from 'vitest';
import { rankUniformity } from '../../../mcmc/diagnostics/rank-uniformity.js';
import { randint } from '../../../src/random/randint.js';
import { key } from '../../../src/random/keys.js';

/** P(B ≤ k), B ~ Binomial(n, p), by summing the pmf. */
function binomCdf(k: number, n: number, p: number): number {
  let s = 0;
  for (let j = 0; j <= k; j++) {
    let lc = 0;
    for (let i = 1; i <= j; i++) lc += Math.log(n - j + i) - Math.log(i);
    s += Math.exp(lc + j * Math.log(p) + (n - j) * Math.log1p(-p));
  }
  return s;
}

describe('rankUniformity', () => {
  it('exactly uniform ranks: χ² = 0, p = 1', () => {
    const t = rankUniformity([0, 3, 1, 2, 3, 0, 2, 1], 3, { bins: 4 });
    expect(t.counts).toEqual([2, 2, 2, 2]);
    expect(t.chiSquare).toBe(0);
    expect(t.pValue).toBeCloseTo(1, 12);
  });

  it('χ² with unequal bin widths and its p-value match @stdlib', () => {
    const ranks = Array.from(randint(key(3), [150], 0, 11, { dtype: 'int32' }).data as Int32Array);
    ranks.push(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);   // a pile-up in the first bin
    const t = rankUniformity(ranks, 10, { bins: 4, ecdfReplicates: 0 });   // 11 rank values in bins of 3, 3, 3, 2
    const widths = [3, 3, 3, 2], S = ranks.length;
    const counts = [0, 0, 0, 0];
    for (const r of ranks) counts[Math.floor((r * 4) / 11)]!++;
    const chi = counts.reduce((a, c, b) => a + (c - (widths[b]! * S) / 11) ** 2 / ((widths[b]! * S) / 11), 0);
    expect(t.counts).toEqual(counts);
    expect(t.chiSquare).toBeCloseTo(chi, 12);
    expect(t.pValue).toBeCloseTo(1 - chisquareCdf(chi, 3), 12);
    expect(Number.isNaN(t.ecdfPValue)).toBe(true);
  });

  it('γ equals twice the smallest binomial tail of the ECDF (direct sums; low and high ranks piled up)', () => {
    const high = [0, 0, 1, 4, 4, 4, 2, 3, 4, 4, 1, 0, 4, 3, 4, 4, 2, 4, 4, 1];
    for (const ranks of [high, high.map((r) => 4 - r)]) {
      const S = ranks.length, K = 5;
      let g = 1;
      for (let j = 1; j < K; j++) {
        const c = ranks.filter((r) => r < j).length, z = j / K;
        g = Math.min(g, binomCdf(c, S, z), c === 0 ? 1 : 1 - binomCdf(c - 1, S, z));
      }
      const t = rankUniformity(ranks, 4, { bins: 5, ecdfReplicates: 200 });
      expect(t.gamma).toBeCloseTo(Math.min(1, 2 * g), 12);
      expect(t.ecdfPValue).toBeGreaterThan(0);
      expect(t.ecdfPValue).toBeLessThanOrEqual(1);
    }
  });

  it('the ECDF p-value is calibrated: of 200 uniform rank sets, 2–20 have p < 0.05', () => {
    // 200 sets of 50 ranks on 0…9, 200 replicates each. Expected 10 below 0.05; the band 2..20 fails
    // with probability < 1e-3 for a calibrated test (binomial(200, 0.05)); the keys are fixed.
    const u = randint(key(5), [200, 50], 0, 10, { dtype: 'int32' }).data as Int32Array;
    let below = 0;
    for (let m = 0; m < 200; m++) if (rankUniformity(u.subarray(m * 50, (m + 1) * 50), 9, { ecdfReplicates: 200, seed: m }).ecdfPValue < 0.05) below++;
    expect(below).toBeGreaterThanOrEqual(2);
    expect(below).toBeLessThanOrEqual(20);
  });

  it('bad input names the function and the argument', () => {
    expect(() => rankUniformity([0, 1], 0)).toThrow(/rankUniformity.*maxRank/);
    expect(() => rankUniformity([0, 5], 3)).toThrow(RangeError);
    expect(() => rankUniformity([0, 1.5], 3)).toThrow(/rankUniformity.*ranks\[1\].*integer/);
    expect(() => rankUniformity([0, 1], 3, { bins: 5 })).toThrow(/rankUniformity.*bins/);
    expect(() => rankUniformity([0, 1], 3, { bin: 2 } as never)).toThrow(/unknown option `bin`/);
  });
});
