// GeneralizedPareto: values against scipy.stats.genpareto (test/fixtures/scipy-distributions,
// 1e-12 relative) for ξ < 0, ξ = 0, ξ = 1e-9, ξ > 0; fused gradients against finite differences
// (across ξ = 0); TFP's sampler (seed as given, inversion); TFP's GeneralizedPareto event-space
// bijector (both branches, and a batch that mixes them); a compiled joint model against the
// tape; KS goodness of fit (3 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 3e-6).
import { describe, expect, it } from 'vitest';
import { GeneralizedPareto } from '../../distributions/generalized-pareto.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { exp } from '../../src/tensor/ops/elementwise.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';
import { detExpm1, detLog1p } from '../../src/math/index.js';

const data = (t: Tensor) => t.data as Float64Array;
const gpdCdf = (x: number, m: number, s: number, k: number) => {
  const z = (x - m) / s;
  if (z <= 0) return 0;
  if (k === 0) return -Math.expm1(-z);
  return 1 + k * z <= 0 ? 1 : -Math.expm1(-Math.log1p(k * z) / k);
};

describe('GeneralizedPareto', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.genpareto', () => {
    // scipy's infinite mean at ξ = 2 is NaN in TFP (mean defined for ξ < 1 only).
    expectFixture('GeneralizedPareto', (p) => new GeneralizedPareto({ loc: p.loc!, scale: p.scale!, concentration: p.concentration! }), { infiniteStatIsNaN: true });
  });

  it('outside the support: −∞ log density, cdf 0 below loc and 1 above the upper end (ξ < 0); NaN moments as TFP', () => {
    const d = new GeneralizedPareto({ loc: 1, scale: 2, concentration: [0.5, 0, -0.5] });
    expect(Array.from(data(d.logProb(0)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(data(d.logProb(6))[2]).toBe(-Infinity);
    expect(Array.from(data(d.cdf(0)))).toEqual([0, 0, 0]);
    expect(data(d.cdf(6))[2]).toBe(1);
    expect(data(d.logSurvivalFunction(6))[2]).toBe(-Infinity);
    const m = data(new GeneralizedPareto({ loc: 0, scale: 1, concentration: [1, 0.6, 0.2] }).mean());
    expect(m[0]).toBeNaN();
    close(m[1]!, 2.5, 1e-15, 'mean');
    expect(data(new GeneralizedPareto({ loc: 0, scale: 1, concentration: 0.5 }).variance())[0]).toBeNaN();
    expect(() => new GeneralizedPareto({ loc: 0, scale: 1, concentration: 1, allowNanStats: false }).mean()).toThrow(/GeneralizedPareto.mean/);
  });

  it('fused gradients of every method match finite differences, for ξ < 0, ξ = 0 and ξ > 0', () => {
    const make = (p: Record<string, Tensor>) => new GeneralizedPareto({ loc: p.loc!, scale: p.scale!, concentration: p.concentration! });
    const params = { loc: [0.5, -1, 0.2], scale: [1.3, 0.4, 2], concentration: [0.3, 0, -0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, -0.5, 1], [2, -0.2, 3.5]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2, 0.3], [0.7, 0.95, 0.999]], { method: 'quantile' });
  });

  it('samples as TFP: ℓ = log1p(−u), μ + σ/ξ·expm1(−ξℓ) (μ − σℓ at ξ = 0), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const [m, s, k] = [[1, -1, 0], [2, 0.5, 1], [0.5, 0, -0.3]];
    const d = new GeneralizedPareto({ loc: m, scale: s, concentration: k });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 3], { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => {
      const l = detLog1p(-v), j = i % 3;
      return k[j] === 0 ? m[j]! - s[j]! * l : m[j]! + (s[j]! / k[j]!) * detExpm1(-k[j]! * l);
    }));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the GeneralizedPareto cdf (KS)', () => {
    const x = new GeneralizedPareto({ loc: [0, 5, -1], scale: [1, 2, 0.5], concentration: [0.7, 0, -0.6] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 3), (v) => gpdCdf(v, 0, 1, 0.7));
    expectKS(column(x, 1, 3), (v) => gpdCdf(v, 5, 2, 0));
    expectKS(column(x, 2, 3), (v) => gpdCdf(v, -1, 0.5, -0.6));
  });

  it("default event-space bijector is TFP's: Shift(loc)∘Softplus for ξ ≥ 0, Sigmoid(loc, loc + |σ/ξ|) for ξ < 0, element by element", () => {
    const d = new GeneralizedPareto({ loc: [1, 1, 1], scale: 2, concentration: [0.5, 0, -0.5] });
    const b = d.defaultEventSpaceBijector();
    const y = data(b.forward([0, 0, 0]));
    close(y[0]!, 1 + Math.LN2, 1e-15, 'ξ > 0');
    close(y[1]!, 1 + Math.LN2, 1e-15, 'ξ = 0');
    close(y[2]!, 3, 1e-15, 'ξ < 0: the middle of [1, 5]');
    const x = data(b.inverse([1.5, 4, 4.9]));
    const back = data(b.forward(x));
    [1.5, 4, 4.9].forEach((v, i) => close(back[i]!, v, 1e-14, `round trip ${i}`));
    const fldj = data(b.forwardLogDetJacobian([0.3, 0.3, 0.3]));
    const sig = 1 / (1 + Math.exp(-0.3));
    close(fldj[0]!, Math.log(sig), 1e-15, 'softplus ldj');
    close(fldj[2]!, Math.log(4 * sig * (1 - sig)), 1e-14, 'sigmoid ldj');
    const ildj = data(b.inverseLogDetJacobian([1.5, 4, 4.9]));
    const fwd = data(b.forwardLogDetJacobian(x));
    ildj.forEach((v, i) => close(v, -fwd[i]!, 1e-13, `ildj ${i}`));
  });

  it('a compiled joint model with GeneralizedPareto nodes (ξ of both signs) equals the tape', () => {
    const model = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      ls: new Normal({ loc: 0, scale: 1 }),
      k: new Normal({ loc: 0.2, scale: 0.1 }),
      a: new GeneralizedPareto({ loc: 0, scale: 1, concentration: -0.3 }),
      b: new GeneralizedPareto({ loc: 1, scale: 2, concentration: 0.4 }),
      y: (m: Tensor, ls: Tensor, k: Tensor) => new GeneralizedPareto({ loc: m, scale: exp(ls), concentration: k }),
    });
    expectModelMatchesTape(model, { y: tensor(2.5) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new GeneralizedPareto({ loc: f32(0.5), scale: f32(1.5), concentration: f32(0.2) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class, the parameter and the value outside the support', () => {
    expect(() => new GeneralizedPareto({ loc: 0, scale: 0, concentration: 1, validateArgs: true })).toThrow(/GeneralizedPareto: `scale` must be positive/);
    expect(() => new GeneralizedPareto({ loc: 0, scale: 1, concentration: Number.NaN, validateArgs: true })).toThrow(/GeneralizedPareto: `concentration` must not be NaN/);
    expect(() => new GeneralizedPareto({ loc: 0, scale: 1 } as never)).toThrow(/GeneralizedPareto: `concentration` is required/);
    const v = new GeneralizedPareto({ loc: 0, scale: 1, concentration: [0.5, -0.5], validateArgs: true });
    expect(() => v.logProb([-1, 1])).toThrow(/GeneralizedPareto.logProb: `value\[0\]` must be at least `loc` \(0\)/);
    expect(() => v.cdf([1, 3])).toThrow(/GeneralizedPareto.cdf: `value\[1\]` must be at most `loc − scale\/concentration` \(2\)/);
  });
});
