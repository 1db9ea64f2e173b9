// InverseGaussian: values against scipy.stats.invgauss(μ/λ, scale=λ) (test/fixtures/
// scipy-distributions; mpmath's values where scipy loses digits), fused gradients against finite
// differences, TFP's sampler (salt 'inverse_gaussian', split with the same salt, normal² and
// uniform), implicit reparameterization gradients of draws, TFP's event-space bijector, a
// compiled joint model against the tape, KS goodness of fit (2 tests, n = 2000 each,
// ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Chain } from '../../distributions/bijectors/chain.js';
import { InverseGaussian } from '../../distributions/inverse-gaussian.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { LogNormal } from '../../distributions/log-normal.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { checkGradient, valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';
import { detExpm1, detLog1p } from '../../src/math/index.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('InverseGaussian', () => {
  it('logProb, cdf, survival, mean and variance match scipy.stats.invgauss', () => {
    // No quantile or entropy (TFP has neither).
    expectFixture('InverseGaussian', (p) => new InverseGaussian({ loc: p.loc!, concentration: p.concentration! }), { skip: ['ppf', 'entropy'] });
  });

  it('edges: −∞ log density at x ≤ 0, cdf 0 / survival 1 there; mode', () => {
    const d = new InverseGaussian({ loc: 2, concentration: [0.5, 8] });
    expect(Array.from(data(d.logProb(0)))).toEqual([-Infinity, -Infinity]);
    expect(Array.from(data(d.cdf(-1)))).toEqual([0, 0]);
    expect(Array.from(data(d.survivalFunction(0)))).toEqual([1, 1]);
    // The mode maximizes the density.
    const m = data(d.mode());
    for (let j = 0; j < 2; j++) {
      const e = new InverseGaussian({ loc: 2, concentration: [0.5, 8][j]! });
      const g = checkGradient((x) => sum(e.logProb(x)), tensor(m[j]!)).analytic[0]!;
      close(g, 0, 1, 'd/dx logProb at the mode', 1e-12);
    }
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new InverseGaussian({ loc: p.loc!, concentration: p.concentration! });
    const params = { loc: [0.7, 2.5], concentration: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, 0.2], [2, 3.5]], { method });
    }
  });

  it("samples as TFP: sanitize with 'inverse_gaussian', split with the same salt, normal² then uniform", () => {
    const [mu, lam] = [[1, 0.3], [2, 50]];
    const d = new InverseGaussian({ loc: mu, concentration: lam });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const [s1, s2] = splitSeed(sanitizeSeed([3, 4], { salt: 'inverse_gaussian' }), { salt: 'inverse_gaussian' });
    const z = data(samplersNormal([4, 2], { seed: s1! })), u = data(samplersUniform([4, 2], { seed: s2! }));
    const want = Array.from(z, (zi, i) => {
      const m = mu[i % 2]!, l = lam[i % 2]!, r = (4 * l) / (m * (zi * zi));
      const w = m * (detExpm1(0.5 * detLog1p(r)) / (1 + Math.sqrt(r + 1)));
      return u[i]! <= m / (m + w) ? w : (m * m) / w;
    });
    expect(Array.from(x)).toEqual(want);
    expectSampleShapeInvariance(d);
  });

  it('draws are reparameterized: ∂x/∂θ = −(∂F/∂θ)/p(x), checked against the quantile map x(θ) = F⁻¹(F(x₀; θ₀); θ) by finite differences', () => {
    const base = { loc: 0.9, concentration: 2.2 };
    for (const which of ['loc', 'concentration'] as const) {
      const [x, g] = valueAndGrad((p: Tensor) => sum(new InverseGaussian({ ...base, [which]: p }).sample(3, { seed: 5 })))(tensor(base[which])) as [Tensor, Tensor];
      const draws = data(new InverseGaussian(base).sample(3, { seed: 5 }));
      expect(x.item()).toBe(draws.reduce((s, v) => s + v, 0));
      // x(θ) solving F(x; θ) = F(x₀; θ₀), by Newton steps on the cdf.
      const solve = (x0: number, theta: number): number => {
        const u = new InverseGaussian(base).cdf(x0).item() as number;
        const d = new InverseGaussian({ ...base, [which]: theta });
        let y = x0;
        for (let k = 0; k < 50; k++) y -= ((d.cdf(y).item() as number) - u) / (d.prob(y).item() as number);
        return y;
      };
      const h = 1e-6;
      const fd = Array.from(draws).reduce((s, x0) => s + (solve(x0, base[which] + h) - solve(x0, base[which] - h)) / (2 * h), 0);
      close(g.item() as number, fd, 1e-6, `∂draws/∂${which}`);
    }
  });

  it('draws fit the inverse Gaussian cdf (KS)', () => {
    const d = new InverseGaussian({ loc: [1, 3], concentration: [0.2, 40] });
    const x = d.sample(2000, { seed: 12 });
    const a = new InverseGaussian({ loc: 1, concentration: 0.2 }), b = new InverseGaussian({ loc: 3, concentration: 40 });
    expectKS(column(x, 0, 2), (v) => a.cdf(v).item() as number);
    expectKS(column(x, 1, 2), (v) => b.cdf(v).item() as number);
  });

  it("default event-space bijector is TFP's Chain([Softplus, Scale(−1), Log, Softplus])", () => {
    const b = new InverseGaussian({ loc: 1, concentration: 1 }).defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(Chain);
    const sp = (v: number) => Math.log1p(Math.exp(v));
    close(b.forward(0.3).item() as number, sp(-Math.log(sp(0.3))), 1e-15, 'forward');
    close(b.forward(b.inverse(2.5)).item() as number, 2.5, 1e-14, 'round trip');
  });

  it('a compiled joint model with InverseGaussian nodes equals the tape', () => {
    const model = new JointDistributionNamed({
      mu: new LogNormal({ loc: 0, scale: 1 }),
      lam: new InverseGaussian({ loc: 2, concentration: 3 }),
      y: (mu: Tensor, lam: Tensor) => new InverseGaussian({ loc: mu, concentration: lam }),
    });
    expectModelMatchesTape(model, { y: tensor(1.3) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new InverseGaussian({ loc: f32(1), concentration: f32(2) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode()].map((t) => t.dtype)).toEqual(Array(5).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new InverseGaussian({ loc: 0, concentration: 1, validateArgs: true })).toThrow(/InverseGaussian: `loc` must be positive/);
    expect(() => new InverseGaussian({ loc: 1, concentration: -1, validateArgs: true })).toThrow(/InverseGaussian: `concentration` must be positive/);
    expect(() => new InverseGaussian({ loc: 1 } as never)).toThrow(/InverseGaussian: `concentration` is required/);
    expect(() => new InverseGaussian({ loc: 1, concentration: 1, validateArgs: true }).logProb(-1)).toThrow(/InverseGaussian.logProb: `value` must be non-negative/);
    expect(() => new InverseGaussian({ loc: 1, concentration: 1 }).quantile(0.5)).toThrow(/InverseGaussian.quantile is not implemented/);
  });
});
