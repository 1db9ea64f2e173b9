// Dirichlet: log densities, entropies, means, variances and KL against 50-digit mpmath (fixtures/
// dirichlet.py → dirichlet.json, cross-checked there with scipy.stats.dirichlet and quadrature;
// α from 1e-3 to 4e5, values with entries of 1e-200), goodness of fit of draws (KS of each
// marginal against Beta(αᵢ, α₀ − αᵢ) from @stdlib, n = 20000, 6 tests; one mean/covariance
// moment test; each at ALPHA = 1e-6: false-failure rate ≤ 7e-6), TFP's seed use (log-space gammas
// with the seed as given, normalised in log space), gradients, and bad input.
import { describe, expect, it } from 'vitest';
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import { Dirichlet } from '../../distributions/dirichlet.js';
import { SoftmaxCentered } from '../../distributions/bijectors/softmax-centered.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { sanitizeSeed } from '../../src/samplers/seeds.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { expectMeanAndCovariance, rowsOf } from './mv-moments.js';
import fixture from './fixtures/dirichlet.json' with { type: 'json' };
import { detExp } from '../../src/math/index.js';

const close = (a: number, b: number, rel: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const flat = (t: { data: unknown }) => Array.from(t.data as Float64Array);

describe('Dirichlet', () => {
  it('logProb, entropy, mean and variance match mpmath (tiny and huge concentrations, entries of 1e-200)', () => {
    for (const c of fixture.cases) {
      const d = new Dirichlet({ concentration: c.concentration });
      // Σ lgamma(αⱼ) − lgamma(α₀) cancels for α ~ 1e5 (TFP's lbeta does the same): ~1e-9 there.
      const tol = Math.max(...c.concentration) > 1e4 ? 1e-8 : 1e-12;
      const lp = flat(d.logProb(c.x));
      c.logProb.forEach((want, i) => close(lp[i]!, want, tol));
      close(d.entropy().item() as number, c.entropy, tol);
      flat(d.mean()).forEach((v, i) => close(v, c.mean[i]!, 1e-15));
      flat(d.variance()).forEach((v, i) => close(v, c.variance[i]!, 1e-14));
    }
  });

  it('KL divergence matches mpmath (and quadrature for k = 2)', () => {
    for (const c of fixture.kl) {
      const kl = new Dirichlet({ concentration: c.a }).klDivergence(new Dirichlet({ concentration: c.b })).item() as number;
      close(kl, c.kl, 1e-9);
    }
    const a = new Dirichlet({ concentration: [[1, 2], [3, 4]] });
    expect(a.klDivergence(a).toArray()).toEqual([0, 0]);
    expect(() => a.klDivergence(new Dirichlet({ concentration: [1, 2, 3] }))).toThrow(/event shape \[3\] but this distribution has event shape \[2\]/);
  });

  it('covariance, mode, shapes, slicing and the SoftmaxCentered bijector', () => {
    const d = new Dirichlet({ concentration: [[2, 3, 5], [0.5, 4, 4]] });
    expect(d.batchShape).toEqual([2]);
    expect(d.eventShape).toEqual([3]);
    const cov = d.covariance().toArray() as number[][][];
    const a = [2, 3, 5], a0 = 10;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const want = i === j ? (a[i]! * (a0 - a[i]!)) / (a0 * a0 * (a0 + 1)) : (-a[i]! * a[j]!) / (a0 * a0 * (a0 + 1));
      close(cov[0]![i]![j]!, want, 1e-15);
    }
    const mode = d.mode().toArray() as number[][];
    mode[0]!.forEach((v, i) => close(v, (a[i]! - 1) / (a0 - 3), 1e-15));
    expect(mode[1]!.every(Number.isNaN)).toBe(true);
    expect(() => new Dirichlet({ concentration: [0.5, 4], allowNanStats: false }).mode()).toThrow(/mode/);
    expect(d.slice(1).concentration.toArray()).toEqual([0.5, 4, 4]);
    expect(d.logProb([0.2, 0.3, 0.5]).shape).toEqual([2]);
    expect(d.sample([2, 3], { seed: 1 }).shape).toEqual([2, 3, 2, 3]);
    const b = d.defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(SoftmaxCentered);
    const y = b.forward([[0.3, -2], [4, 1]]);
    flat(y).reduce((s, v, i) => { if (i % 3 === 2) { close(s + v, 1, 1e-15); return 0; } return s + v; }, 0);
    expect(flat(d.logProb(y)).every(Number.isFinite)).toBe(true);
  });

  it('samples as TFP: log-space gammas (seed as given, salts inside random_gamma), normalised in log space', () => {
    const conc = [[0.1, 1, 10], [3, 3, 3]];
    const d = new Dirichlet({ concentration: conc });
    const x = flat(d.sample(4, { seed: [7, 8] }));
    const g = randomLogGamma([4, 2, 3], Float64Array.from({ length: 24 }, (_, i) => conc[Math.floor(i / 3) % 2]![i % 3]!), null, sanitizeSeed([7, 8]), 'float64');
    for (let o = 0; o < 24; o += 3) {
      const m = Math.max(g[o]!, g[o + 1]!, g[o + 2]!);
      const s = detExp(g[o]! - m) + detExp(g[o + 1]! - m) + detExp(g[o + 2]! - m);
      for (let j = 0; j < 3; j++) expect(x[o + j]).toBe(detExp(g[o + j]! - m) / s);
    }
    expectSampleShapeInvariance(d);
  });

  it('tiny concentrations give finite draws on the simplex (log-space normalisation)', () => {
    const x = flat(new Dirichlet({ concentration: [1e-3, 2e-3, 5e-3] }).sample(2000, { seed: 3 }));
    expect(x.every((v) => v >= 0 && v <= 1)).toBe(true);
    for (let o = 0; o < x.length; o += 3) close(x[o]! + x[o + 1]! + x[o + 2]!, 1, 1e-15);
    expect(x.some((v) => v > 0 && v < 1e-100)).toBe(true);
  });

  it('marginals fit Beta(αᵢ, α₀ − αᵢ) (KS, n = 20000) and the moments match', () => {
    const conc = [[0.3, 2, 5], [0.05, 0.1, 0.2]];
    const x = new Dirichlet({ concentration: conc }).sample(20000, { seed: 31 });
    for (let b = 0; b < 2; b++) {
      const a0 = conc[b]!.reduce((s, v) => s + v, 0);
      for (let j = 0; j < 3; j++) expectKS(column(x, 3 * b + j, 6), (v) => betaCdf(v, conc[b]![j]!, a0 - conc[b]![j]!), `batch ${b} component ${j}`);
    }
    const d0 = new Dirichlet({ concentration: conc[0]! });
    const cov = flat(d0.covariance());
    expectMeanAndCovariance(rowsOf(x.data as Float64Array, 6, [0, 1]), flat(d0.mean()).slice(0, 2), [cov[0]!, cov[1]!, cov[3]!, cov[4]!], 'Dirichlet');
  });

  it('logProb gradients w.r.t. value and concentration match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Dirichlet({ concentration: p.concentration });
    expectGradients(make, { concentration: [0.7, 2, 3.5] }, [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]);
    expectGradients(make, { concentration: [[1.5, 0.4], [5, 9]] }, [0.35, 0.65]);
  });

  it('bad input and values outside the support', () => {
    expect(() => new Dirichlet({ concentration: [1, 0], validateArgs: true })).toThrow(/Dirichlet: `concentration\[1\]` must be positive; got 0/);
    expect(() => new Dirichlet({ concentration: [2] })).toThrow(/`concentration` must have an event size \(last dimension\) of at least 2/);
    expect(() => new Dirichlet({ concentration: 2 })).toThrow(/at least 1 dimension/);
    expect(() => new Dirichlet({} as never)).toThrow(/`concentration` is required/);
    const d = new Dirichlet({ concentration: [1, 2, 3] });
    expect(() => d.logProb([0.5, 0.5])).toThrow(/`value` \[2\] and `batchShape \+ eventShape` \[3\]/);
    expect(d.logProb([-0.1, 0.6, 0.5]).item()).toBe(-Infinity);
    const v = new Dirichlet({ concentration: [1, 2, 3], validateArgs: true });
    expect(() => v.logProb([0.2, 0.2, 0.2])).toThrow(/Dirichlet.logProb: `value` rows must sum to 1/);
    expect(() => v.logProb([-0.1, 0.6, 0.5])).toThrow(/non-negative/);
    expect(v.logProb(tensor([0.2, 0.3, 0.5])).item()).toBeCloseTo(Math.log(60 * 0.3 * 0.25), 13);
  });
});
