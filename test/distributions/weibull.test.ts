// Weibull: values against scipy.stats.weibull_min (test/fixtures/scipy-distributions, 1e-12
// relative), fused gradients against finite differences, TFP's sampler (seed as given, uniform
// [0, 1), λ(−log1p(−u))^(1/k)), the KL rule against numerical integration, the Softplus
// event-space bijector, float32 dtypes, a compiled joint model against
// the tape, KS goodness of fit (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure
// rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Softplus } from '../../distributions/bijectors/softplus.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Weibull } from '../../distributions/weibull.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectKlByQuadrature, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';
import { detLog1p, detPow } from '../../src/math/index.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('Weibull', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.weibull_min', () => {
    expectFixture('Weibull', (p) => new Weibull({ concentration: p.concentration!, scale: p.scale! }));
  });

  it('edges: −∞ below 0, the density at 0 by concentration, cdf/survival outside the support', () => {
    const d = new Weibull({ concentration: [0.5, 1, 2], scale: 2 });
    expect(Array.from(data(d.logProb(-1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.logProb(0)))).toEqual([Infinity, Math.log(0.5), -Infinity]);
    expect(Array.from(data(d.cdf(-1)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.logSurvivalFunction(0)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.quantile([0, 1, 0.5])))).toEqual([0, Infinity, 2 * Math.sqrt(Math.LN2)]);
    close(new Weibull({ concentration: 2, scale: 1 }).logCdf(1e-200).item() as number, -400 * Math.LN10, 1e-15, 'logCdf deep tail');
  });

  it('mode ((k − 1)/k)^(1/k)·λ for k > 1, 0 for k ≤ 1; stddev', () => {
    const d = new Weibull({ concentration: [0.5, 1, 3], scale: 2 });
    const m = data(d.mode());
    expect(m[0]).toBe(0);
    expect(m[1]).toBe(0);
    close(m[2]!, 2 * (2 / 3) ** (1 / 3), 1e-15, 'mode');
    close(d.stddev().data[2] as number, Math.sqrt(d.variance().data[2] as number), 1e-15, 'stddev');
  });

  it('KL(Weibull ‖ Weibull) matches numerical integration (TFP\'s rule)', () => {
    const a = new Weibull({ concentration: 1.7, scale: 0.8 }), b = new Weibull({ concentration: 0.9, scale: 1.6 });
    expectKlByQuadrature(a, b, 1e-4, 1e-14);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Weibull({ concentration: p.concentration!, scale: p.scale! });
    const params = { concentration: [0.7, 2.5], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, 0.2], [2, 0.5]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: λ·(−log1p(−u))^(1/k), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const d = new Weibull({ concentration: [1.5, 0.5], scale: [2, 0.3] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => [2, 0.3][i % 2]! * detPow(-detLog1p(-v), 1 / [1.5, 0.5][i % 2]!)));
    expectSampleShapeInvariance(d);
    expect(d.sample(3, { seed: 1 }).shape).toEqual([3, 2]);
  });

  it('draws fit the Weibull cdf (KS)', () => {
    const x = new Weibull({ concentration: [0.6, 4], scale: [1, 10] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => (v <= 0 ? 0 : -Math.expm1(-(v ** 0.6))));
    expectKS(column(x, 1, 2), (v) => (v <= 0 ? 0 : -Math.expm1(-((v / 10) ** 4))));
  });

  it("default event-space bijector is TFP's Softplus", () => {
    const b = new Weibull({ concentration: 2, scale: 1 }).defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(Softplus);
    close(b.forward(0).item() as number, Math.LN2, 1e-15, 'softplus(0)');
  });

  it('a compiled joint model with a Weibull node and a Weibull likelihood equals the tape', () => {
    const model = new JointDistributionNamed({
      k: new Weibull({ concentration: 2, scale: 1.5 }),
      s: new Weibull({ concentration: 1.2, scale: 1 }),
      y: (k: Tensor, s: Tensor) => new Weibull({ concentration: k, scale: s }),
      z: (k: Tensor) => new Normal({ loc: k, scale: 1 }),
    });
    expectModelMatchesTape(model, { y: tensor(0.8), z: tensor(1.1) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new Weibull({ concentration: f32(2), scale: f32(1.5) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new Weibull({ concentration: -1, scale: 1, validateArgs: true })).toThrow(/Weibull: `concentration` must be positive/);
    expect(() => new Weibull({ concentration: 1, scale: 0, validateArgs: true })).toThrow(/Weibull: `scale` must be positive/);
    expect(() => new Weibull({ concentration: 1 } as never)).toThrow(TypeError);
    expect(() => new Weibull({ concentration: 1 } as never)).toThrow(/Weibull: `scale` is required/);
    expect(() => new Weibull({ concentration: [1, 2], scale: [1, 2, 3] })).toThrow(/`concentration` \[2\] and `scale` \[3\]/);
    expect(() => new Weibull({ concentration: 'a' as never, scale: 1 })).toThrow(TypeError);
    const v = new Weibull({ concentration: 1, scale: 1, validateArgs: true });
    expect(() => v.logProb(-0.5)).toThrow(/Weibull.logProb: `value` must be non-negative/);
    expect(() => v.quantile(1.5)).toThrow(/Weibull.quantile: `p` must be in \[0, 1\]/);
  });
});
