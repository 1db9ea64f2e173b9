// Kumaraswamy: values against closed forms in mpmath at 400 digits (scipy.stats has no
// Kumaraswamy; test/fixtures/scipy-distributions, 1e-12 relative unless stated), fused gradients
// against finite differences, TFP's sampler (seed as given, uniform [0, 1), the inverse cdf),
// the Sigmoid event-space bijector, a compiled joint model against the tape, KS goodness of fit
// (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Sigmoid } from '../../distributions/bijectors/sigmoid.js';
import { Beta } from '../../distributions/beta.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Kumaraswamy } from '../../distributions/kumaraswamy.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';
import { detExp, detLog1p } from '../../src/math/index.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('Kumaraswamy', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match the closed forms (mpmath)', () => {
    expectFixture('Kumaraswamy', (p) => new Kumaraswamy({ concentration1: p.concentration1!, concentration0: p.concentration0! }));
  });

  it('outside [0, 1]: −∞ log density, cdf 0 / 1; the mode is NaN unless both concentrations exceed 1', () => {
    const d = new Kumaraswamy({ concentration1: [0.5, 2, 3], concentration0: [2, 0.5, 4] });
    expect(Array.from(data(d.logProb(-0.1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.logProb(1.1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.cdf(-1)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.cdf(2)))).toEqual([1, 1, 1]);
    const m = data(d.mode());
    expect(m[0]).toBeNaN();
    expect(m[1]).toBeNaN();
    close(m[2]!, (2 / 11) ** (1 / 3), 1e-15, 'mode');
    // a = b = 1 is Uniform(0, 1); a = 1 is Beta(1, b).
    expect(new Kumaraswamy({ concentration1: 1, concentration0: 1 }).logProb([0, 0.3, 1]).toArray()).toEqual([0, 0, 0]);
    close(new Kumaraswamy({ concentration1: 1, concentration0: 3 }).logProb(0.4).item() as number, new Beta({ concentration1: 1, concentration0: 3 }).logProb(0.4).item() as number, 1e-14, 'Beta(1, b)');
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Kumaraswamy({ concentration1: p.concentration1!, concentration0: p.concentration0! });
    const params = { concentration1: [0.7, 2.5], concentration0: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.2, 0.5], [0.7, 0.9]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: exp(log1p(−exp(log1p(−u)/b))/a), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const [a, b] = [[1.5, 0.5], [2, 0.3]];
    const d = new Kumaraswamy({ concentration1: a, concentration0: b });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => detExp(detLog1p(-detExp(detLog1p(-v) / b[i % 2]!)) / a[i % 2]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the Kumaraswamy cdf (KS)', () => {
    const x = new Kumaraswamy({ concentration1: [0.4, 5], concentration0: [0.7, 3] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => (v <= 0 ? 0 : v >= 1 ? 1 : 1 - (1 - v ** 0.4) ** 0.7));
    expectKS(column(x, 1, 2), (v) => (v <= 0 ? 0 : v >= 1 ? 1 : 1 - (1 - v ** 5) ** 3));
  });

  it("default event-space bijector is TFP's Sigmoid", () => {
    expect(new Kumaraswamy({ concentration1: 2, concentration0: 2 }).defaultEventSpaceBijector()).toBeInstanceOf(Sigmoid);
  });

  it('a compiled joint model with Kumaraswamy nodes equals the tape', () => {
    const model = new JointDistributionNamed({
      p: new Kumaraswamy({ concentration1: 2, concentration0: 3 }),
      q: (p: Tensor) => new Kumaraswamy({ concentration1: p, concentration0: 1.5 }),
      y: (p: Tensor, q: Tensor) => new Kumaraswamy({ concentration1: p, concentration0: q }),
    });
    expectModelMatchesTape(model, { y: tensor(0.35) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new Kumaraswamy({ concentration1: f32(2), concentration0: f32(3) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new Kumaraswamy({ concentration1: 0, concentration0: 1, validateArgs: true })).toThrow(/Kumaraswamy: `concentration1` must be positive/);
    expect(() => new Kumaraswamy({ concentration1: 1, concentration0: -1, validateArgs: true })).toThrow(/Kumaraswamy: `concentration0` must be positive/);
    expect(() => new Kumaraswamy({ concentration1: 1 } as never)).toThrow(/Kumaraswamy: `concentration0` is required/);
    expect(() => new Kumaraswamy({ concentration1: 1, concentration0: 1, validateArgs: true }).logProb(1.5)).toThrow(/Kumaraswamy.logProb: `value` must be in \[0, 1\]/);
  });
});
