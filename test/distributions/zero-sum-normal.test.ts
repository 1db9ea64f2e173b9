// ZeroSumNormal: the density against independent normals in the Helmert coordinates (the density
// on the subspace is the product of N(0, σ²) over any orthonormal basis of it), the closed-form
// moments, draws' moments, and NUTS on a conjugate model whose posterior is known in closed form.
import { describe, expect, it } from 'vitest';
import { SumToZero } from '../../distributions/bijectors/sum-to-zero.js';
import { HalfNormal } from '../../distributions/half-normal.js';
import { Independent } from '../../distributions/independent.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { ZeroSumNormal } from '../../distributions/zero-sum-normal.js';
import { windowedAdaptiveNuts } from '../../mcmc/windowed-adaptive-nuts.js';
import { effectiveSampleSize } from '../../mcmc/diagnostics/index.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { tensor } from '../../src/tensor/tensor.js';

describe('ZeroSumNormal', () => {
  it('logProb = Σ N(0, σ²) log densities of the Helmert coordinates, with a batch of scales', () => {
    const d = new ZeroSumNormal({ scale: [0.5, 2], eventSize: 4 });
    expect([d.batchShape, d.eventShape]).toEqual([[2], [4]]);
    const x = new SumToZero().forward([[0.3, -1.2, 2.5], [1, 0, -4]]);
    const coords = new Normal({ loc: 0, scale: [[0.5], [2]] }).logProb(new SumToZero().inverse(x));
    const want = sum(coords, -1).toNumbers(), got = d.logProb(x).toNumbers();
    got.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThan(1e-12));
    expect(new ZeroSumNormal({ scale: 2, eventSize: 3 }).logProb([1, -1, 0]).toNumber()).toBeCloseTo(-0.25 - 2 * (Math.log(2) + 0.5 * Math.log(2 * Math.PI)), 14);
  });

  it('moments: mean 0, variance σ²(1 − 1/n), covariance σ²(I − 𝟙𝟙ᵀ/n); the default scale is 1', () => {
    const d = new ZeroSumNormal({ scale: 3, eventSize: 3 });
    expect(d.mean().toNumbers()).toEqual([0, 0, 0]);
    d.variance().toNumbers().forEach((v) => expect(v).toBeCloseTo(6, 14));
    const c = d.covariance().toNumbers();
    [6, -3, -3, -3, 6, -3, -3, -3, 6].forEach((v, i) => expect(c[i]).toBeCloseTo(v, 13));
    expect(new ZeroSumNormal({ eventSize: 2 }).variance().toNumbers()).toEqual([0.5, 0.5]);
  });

  it('draws sum to zero and have the covariance σ²(I − 𝟙𝟙ᵀ/n) (20 000 draws; 6-se bounds)', () => {
    const n = 5, N = 20_000, s = 1.5;
    const x = new ZeroSumNormal({ scale: s, eventSize: n }).sample([N], { seed: 3 }).toNumbers();
    let worstSum = 0;
    const cov = new Float64Array(n * n);
    for (let r = 0; r < N; r++) {
      let t = 0;
      for (let i = 0; i < n; i++) { t += x[r * n + i]!; for (let j = 0; j < n; j++) cov[i * n + j]! += x[r * n + i]! * x[r * n + j]! / N; }
      worstSum = Math.max(worstSum, Math.abs(t));
    }
    expect(worstSum).toBeLessThan(1e-13);
    // an entry's estimate has sd ≈ σ²·√((Σ²ᵢᵢ Σ²ⱼⱼ + Σ²ᵢⱼ)/ N)/σ² ≤ σ²·√(2/N)·(1 − 1/n) ≈ 0.016; 6 sd → false failure < 1e-8 per entry
    const bound = 6 * s * s * Math.sqrt(2 / N);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(Math.abs(cov[i * n + j]! - s * s * ((i === j ? 1 : 0) - 1 / n))).toBeLessThan(bound);
  });

  it('NUTS recovers the closed-form posterior of a ~ ZeroSumNormal(σ), y ~ N(μ + a, 1)', () => {
    // With μ fixed at 0: in Helmert coordinates x (a = Vx) the prior is N(0, σ²I) and the likelihood
    // N(Vx, I), so the posterior of a has mean (y − ȳ)/(1 + 1/σ²) and covariance (I − 𝟙𝟙ᵀ/n)/(1 + 1/σ²).
    const y = [1, 2, 3, 6], s = 2, shrink = 1 / (1 + 1 / (s * s));
    const model = new JointDistributionNamed({
      a: new ZeroSumNormal({ scale: s, eventSize: 4 }),
      y: ({ a }) => new Independent({ distribution: new Normal({ loc: a, scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const r = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
    expect(r.compiled).toBe(true);
    const a = r.draws.a!, v = a.toNumbers(), S = v.length / 4;
    const ess = effectiveSampleSize(a).toNumbers();
    const ybar = 3;
    for (let i = 0; i < 4; i++) {
      let m = 0;
      for (let k = 0; k < S; k++) m += v[k * 4 + i]! / S;
      const sd = Math.sqrt(shrink * (1 - 1 / 4));
      expect(Math.abs(m - (y[i]! - ybar) * shrink) / (sd / Math.sqrt(ess[i]!))).toBeLessThan(5);   // |z| < 5: 6e-7 per check
    }
    for (let k = 0; k < S; k++) expect(Math.abs(v[4 * k]! + v[4 * k + 1]! + v[4 * k + 2]! + v[4 * k + 3]!)).toBeLessThan(1e-12);
  });

  it('bad input and pinned data off the subspace', () => {
    expect(() => new ZeroSumNormal({ scale: 1, eventSize: 1 })).toThrow(/ZeroSumNormal: `eventSize` must be at least 2/);
    expect(() => new ZeroSumNormal({ scale: 1 } as never)).toThrow(/ZeroSumNormal.*eventSize/);
    expect(() => new ZeroSumNormal({ scale: 1, eventSize: 3, size: 3 } as never)).toThrow(/unknown parameter `size`/);
    expect(() => new ZeroSumNormal({ scale: -1, eventSize: 3, validateArgs: true })).toThrow(/scale/);
    expect(() => new ZeroSumNormal({ scale: 1, eventSize: 3, validateArgs: true }).logProb([1, 1, 1])).toThrow(/summing to 0/);
    const model = new JointDistributionNamed({ s: new HalfNormal({ scale: 1 }), a: ({ s }) => new ZeroSumNormal({ scale: s, eventSize: 3 }) });
    expect(() => windowedAdaptiveNuts(model, { pins: { a: tensor([1, 2, 3]) }, seed: 0 })).toThrow(/pins\.a.*summing to 0.*outside ZeroSumNormal's support/);
  });
});
