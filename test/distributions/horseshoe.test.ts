// Horseshoe: the exact log density e^u·E₁(u)/(τ√(2π³)) against mpmath (test/fixtures/
// scipy-distributions, 1e-12 relative; scipy.stats has no horseshoe) and against TFP's
// approximation (within its stated accuracy), fused gradients against finite differences, TFP's
// sampler (split with 'random_horseshoe': HalfCauchy(0, 1) then normal, Z·(τ·λ)), the Identity
// event-space bijector, a compiled joint model against the tape, KS goodness of fit against the
// cdf by quadrature over λ (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Identity } from '../../distributions/bijectors/identity.js';
import { HalfCauchy } from '../../distributions/half-cauchy.js';
import { Independent } from '../../distributions/independent.js';
import { Horseshoe, scaledExp1 } from '../../distributions/horseshoe.js';
import { ndtr } from '../../distributions/internal/ndtr.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { LogNormal } from '../../distributions/log-normal.js';
import { Normal } from '../../distributions/normal.js';
import { Sample } from '../../distributions/sample.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectModelMatchesTape, fixtureRows } from './scipy-fixture.js';

const data = (t: Tensor) => t.data as Float64Array;

/** TFP's approximate log density (horseshoe.py), for comparison. */
function tfpLogProb(x: number, scale: number): number {
  const xx = (x / scale) ** 2 / 2, g = 0.5614594835668851, b = 1.0420764938351215, hInf = 1.0801359952503342;
  const q = (20 / 47) * xx ** 1.0919284281983377, h = 1 / (1 + xx ** 1.5) + (hInf * q) / (1 + q);
  const c = -0.5 * Math.log(2 * Math.PI ** 3) - Math.log(g * scale), z = Math.log1p(-g) - Math.log(g);
  const t = z - xx / (1 - g), softplus = t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
  return -softplus + Math.log(Math.log1p(g / xx - (1 - g) / (h + b * xx) ** 2)) + c;
}

/**
 * P(X ≤ x) = ½ + ½·sign(x)·∫₀¹ (2Φ(|x|/(τ·tan(πv/2))) − 1) dv (λ = tan(πv/2) ~ HalfCauchy), by the
 * midpoint rule on 500 nodes (error below 1e-5, far under the KS statistic's resolution 1/√n).
 */
function horseshoeCdf(x: number, tau: number, m = 500): number {
  let s = 0;
  for (let i = 0; i < m; i++) s += 2 * ndtr(Math.abs(x) / (tau * Math.tan((Math.PI / 2) * ((i + 0.5) / m)))) - 1;
  return 0.5 + 0.5 * Math.sign(x) * (s / m);
}

describe('Horseshoe', () => {
  it('logProb matches the exact density (mpmath e1), and TFP’s approximation to its accuracy', () => {
    for (const row of fixtureRows('Horseshoe')) {
      const d = new Horseshoe({ scale: row.params.scale! });
      const got = data(d.logProb(row.x));
      row.logpdf.forEach((w, i) => {
        close(got[i]!, w, 1e-12, `Horseshoe(${row.params.scale}).logProb at ${row.x[i]}`);
        close(got[i]!, tfpLogProb(row.x[i]!, row.params.scale!), 2e-3, 'TFP approximation', 1);
      });
    }
    expect(new Horseshoe({ scale: 1 }).logProb(0).item()).toBe(Infinity);
    close(scaledExp1(1), 0.5963473623231940743, 1e-14, 'e·E₁(1)');
  });

  it('statistics: mean and mode 0, variance and stddev NaN (TFP)', () => {
    const d = new Horseshoe({ scale: [1, 2] });
    expect(d.mean().toArray()).toEqual([0, 0]);
    expect(d.mode().toArray()).toEqual([0, 0]);
    expect(d.variance().toArray()).toEqual([NaN, NaN]);
    expect(() => new Horseshoe({ scale: 1, allowNanStats: false }).stddev()).toThrow(/Horseshoe.stddev/);
    expect(() => d.cdf(0)).toThrow(/Horseshoe.cdf is not implemented/);
  });

  it('fused gradients match finite differences (both sides of 1 in u)', () => {
    const make = (p: Record<string, Tensor>) => new Horseshoe({ scale: p.scale! });
    expectGradients(make, { scale: [0.7, 1.3, 0.05] }, [[0.3, -2, 0.01], [1.1, 0.2, 4]]);
  });

  it("samples as TFP: split with 'random_horseshoe'; HalfCauchy(0, 1) draws of shape [n, ...batch], then normal; Z·(τ·λ)", () => {
    const tau = [0.5, 2];
    const d = new Horseshoe({ scale: tau });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const [s1, s2] = splitSeed([3, 4], { salt: 'random_horseshoe' });
    const lam = data(new HalfCauchy({ loc: 0, scale: 1 }).sample([4, 2], { seed: s1! }));
    const z = data(samplersNormal([4, 2], { seed: s2! }));
    expect(Array.from(x)).toEqual(Array.from(z, (v, i) => v * (tau[i % 2]! * lam[i]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the horseshoe cdf (KS, cdf by quadrature over λ)', () => {
    const x = new Horseshoe({ scale: [1, 0.01] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => horseshoeCdf(v, 1));
    expectKS(column(x, 1, 2), (v) => horseshoeCdf(v, 0.01));
  });

  it("default event-space bijector is TFP's Identity", () => {
    expect(new Horseshoe({ scale: 1 }).defaultEventSpaceBijector()).toBeInstanceOf(Identity);
  });

  it('a compiled joint model (sparse regression coefficients) equals the tape', () => {
    const model = new JointDistributionNamed({
      tau: new LogNormal({ loc: -1, scale: 0.5 }),
      beta: (tau: Tensor) => new Sample({ distribution: new Horseshoe({ scale: tau }), sampleShape: 3 }),
      y: (beta: Tensor) => new Independent({ distribution: new Normal({ loc: beta, scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    expectModelMatchesTape(model, { y: tensor([0.5, -1, 2]) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new Horseshoe({ scale: f32(1.5) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode()].map((t) => t.dtype)).toEqual(Array(5).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new Horseshoe({ scale: 0, validateArgs: true })).toThrow(/Horseshoe: `scale` must be positive/);
    expect(() => new Horseshoe({} as never)).toThrow(/Horseshoe: `scale` is required/);
    expect(() => new Horseshoe({ scale: 'x' as never })).toThrow(TypeError);
  });
});
