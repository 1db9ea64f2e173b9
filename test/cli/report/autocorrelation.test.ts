import { describe, expect, it } from 'vitest';
import { autocorrelation, chainAutocorrelations } from '../../../cli/report/plots/autocorrelation.js';
import { normal } from '../../../src/random/normal.js';
import { key } from '../../../src/random/keys.js';

/** ρ_k by the definition, summed term by term. */
function directAcf(x: readonly number[], k: number): number {
  const n = x.length;
  const m = x.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let t = 0; t < n; t++) {
    den += (x[t]! - m) ** 2;
    if (t + k < n) num += (x[t]! - m) * (x[t + k]! - m);
  }
  return num / den;
}

/** An AR(1) chain x_t = φ x_{t−1} + ε_t. */
function ar1(phi: number, n: number, seed: number): Float64Array {
  const e = normal(key(seed), [n]).data as Float64Array;
  const x = new Float64Array(n);
  x[0] = e[0]!;
  for (let t = 1; t < n; t++) x[t] = phi * x[t - 1]! + e[t]!;
  return x;
}

describe('autocorrelation', () => {
  it('matches the direct computation for few lags (summed) and many lags (FFT)', () => {
    for (const [n, maxLag] of [[50, 10], [1000, 30], [1000, 100], [777, 776]] as const) {
      const x = ar1(0.8, n, n + maxLag);
      const rho = autocorrelation(x, maxLag);
      expect(rho).toHaveLength(maxLag + 1);
      expect(rho[0]).toBeCloseTo(1, 14);
      const xs = Array.from(x);
      for (let k = 0; k <= maxLag; k++) expect(Math.abs(rho[k]! - directAcf(xs, k)), `n=${n} lag ${k}`).toBeLessThan(1e-12);
    }
  });

  it('decays like φ^k for an AR(1) chain', () => {
    const rho = autocorrelation(ar1(0.7, 20000, 1), 3);
    [1, 0.7, 0.49, 0.343].forEach((w, k) => expect(Math.abs(rho[k]! - w)).toBeLessThan(0.03));
  });

  it('is NaN for constant or non-finite chains, and checks maxLag', () => {
    expect(Array.from(autocorrelation(Float64Array.of(2, 2, 2), 2)).every(Number.isNaN)).toBe(true);
    expect(Array.from(autocorrelation(Float64Array.of(1, NaN, 2), 1)).every(Number.isNaN)).toBe(true);
    expect(Array.from(autocorrelation(Float64Array.of(1, 2, 3, 4), 2))).toEqual([1, 0.25, -0.3]);
    expect(() => autocorrelation(Float64Array.of(1, 2), 2)).toThrow(RangeError);
    expect(() => autocorrelation(Float64Array.of(1, 2), 2)).toThrow(/^autocorrelation: `maxLag` must be in \[0, 1\]/);
    expect(() => autocorrelation(Float64Array.of(1, 2), 0.5)).toThrow(TypeError);
  });

  it('chainAutocorrelations: each chain as autocorrelation gives it, two chains to a transform (odd counts, NaN and constant chains alone)', () => {
    for (const [chains, draws, maxLag] of [[4, 1000, 100], [3, 500, 60], [5, 300, 20], [1, 200, 150]] as const) {
      const values = new Float64Array(chains * draws);
      for (let c = 0; c < chains; c++) values.set(ar1(0.3 + 0.15 * c, draws, 10 * c + draws).map((v) => v * (c + 1) + c), c * draws);
      if (chains >= 3) { values[draws + 7] = NaN; values.fill(2.5, 2 * draws, 3 * draws); }   // chain 1 has a NaN, chain 2 is constant
      if (chains >= 4) for (let i = 3 * draws; i < 4 * draws; i++) values[i] = 1 + values[i]! * 1e-9;   // a stuck chain, paired with a wide one
      if (chains >= 5) for (let i = 4 * draws; i < 5 * draws; i++) values[i] = values[i]! * 1e9;
      const got = chainAutocorrelations(values, chains, draws, maxLag);
      for (let c = 0; c < chains; c++) {
        const want = autocorrelation(values.subarray(c * draws, (c + 1) * draws), maxLag);
        for (let k = 0; k <= maxLag; k++) {
          if (Number.isNaN(want[k]!)) expect(got[c]![k], `chain ${c} lag ${k}`).toBeNaN();
          else expect(Math.abs(got[c]![k]! - want[k]!), `chain ${c} lag ${k}`).toBeLessThan(1e-15);   // rounding only
        }
        if (maxLag <= 40) expect(Array.from(got[c]!)).toEqual(Array.from(want));   // summed directly: the same bits
      }
    }
  });
});
