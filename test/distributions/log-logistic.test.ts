// LogLogistic: values against scipy.stats.fisk(c = 1/σ, scale = e^μ) (test/fixtures/
// scipy-distributions, 1e-12 relative; mpmath's values where scipy loses digits in the far
// tails), fused gradients against finite differences, TFP's sampler (exp of a Logistic(μ, σ)
// draw, the seed as given), the Exp event-space bijector, a compiled joint model against the
// tape, KS goodness of fit (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Exp } from '../../distributions/bijectors/exp.js';
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Logistic } from '../../distributions/logistic.js';
import { LogLogistic } from '../../distributions/log-logistic.js';
import { Normal } from '../../distributions/normal.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('LogLogistic', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.fisk', () => {
    expectFixture('LogLogistic', (p) => new LogLogistic({ loc: p.loc!, scale: p.scale! }));
  });

  it('edges: x ≤ 0, undefined moments, mode', () => {
    const d = new LogLogistic({ loc: 1, scale: [0.5, 1, 2] });
    expect(Array.from(data(d.logProb(-1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.logProb(0)))).toEqual([-Infinity, -1, Infinity]);
    expect(Array.from(data(d.cdf(0)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.logSurvivalFunction(0)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.mean())).slice(1)).toEqual([NaN, NaN]);
    expect(Array.from(data(d.variance()))).toEqual([NaN, NaN, NaN]);
    const m = data(d.mode());
    close(m[0]!, Math.E * Math.exp(0.5 * Math.log(0.5 / 1.5)), 1e-15, 'mode');
    expect(m[2]).toBe(0);
    expect(() => new LogLogistic({ loc: 0, scale: 2, allowNanStats: false }).mean()).toThrow(/LogLogistic.mean/);
  });

  it('fused gradients of every method and of the moments match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new LogLogistic({ loc: p.loc!, scale: p.scale! });
    const params = { loc: [0.5, -1], scale: [0.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, 2], [4, 0.1]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: exp of a Logistic(μ, σ) draw with the seed as given', () => {
    const d = new LogLogistic({ loc: [1, -1], scale: [0.2, 0.5] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const y = data(new Logistic({ loc: [1, -1], scale: [0.2, 0.5] }).sample(4, { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(y, Math.exp));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the log-logistic cdf (KS)', () => {
    const x = new LogLogistic({ loc: [0, 3], scale: [1.5, 0.1] }).sample(2000, { seed: 12 });
    const cdf = (m: number, s: number) => (v: number) => (v <= 0 ? 0 : 1 / (1 + Math.exp(-(Math.log(v) - m) / s)));
    expectKS(column(x, 0, 2), cdf(0, 1.5));
    expectKS(column(x, 1, 2), cdf(3, 0.1));
  });

  it("default event-space bijector is TFP's Exp", () => {
    expect(new LogLogistic({ loc: 0, scale: 1 }).defaultEventSpaceBijector()).toBeInstanceOf(Exp);
  });

  it('a compiled joint model with LogLogistic nodes equals the tape', () => {
    const model = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      s: new HalfNormal({ scale: 0.5 }),
      y: (m: Tensor, s: Tensor) => new LogLogistic({ loc: m, scale: s }),
      z: (m: Tensor) => new LogLogistic({ loc: m, scale: 0.3 }),
    });
    expectModelMatchesTape(model, { y: tensor(1.7), z: tensor(0.6) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new LogLogistic({ loc: f32(0.5), scale: f32(0.3) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new LogLogistic({ loc: 0, scale: 0, validateArgs: true })).toThrow(/LogLogistic: `scale` must be positive/);
    expect(() => new LogLogistic({ scale: 1 } as never)).toThrow(/LogLogistic: `loc` is required/);
    expect(() => new LogLogistic({ loc: 0, scale: 1, validateArgs: true }).cdf(-1)).toThrow(/LogLogistic.cdf: `value` must be non-negative/);
    expect(() => new LogLogistic({ loc: [0, 1], scale: [1, 2, 3] })).toThrow(/`loc` \[2\] and `scale` \[3\]/);
  });
});
