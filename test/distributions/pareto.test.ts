// Pareto: values against scipy.stats.pareto (test/fixtures/scipy-distributions, 1e-12 relative;
// near the lower end the script stores mpmath's values where scipy loses digits), fused gradients
// against finite differences, TFP's sampler (seed as given, σ·exp(−log1p(−u)/α)), the KL rule
// against numerical integration, float32 dtypes, the
// Chain([Shift(scale), Softplus]) event-space bijector, a compiled joint model against the tape,
// KS goodness of fit (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Chain } from '../../distributions/bijectors/chain.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Pareto } from '../../distributions/pareto.js';
import { exp } from '../../src/tensor/ops/elementwise.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectKlByQuadrature, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';
import { detExp, detLog1p } from '../../src/math/index.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('Pareto', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.pareto', () => {
    expectFixture('Pareto', (p) => new Pareto({ concentration: p.concentration!, scale: p.scale! }));
  });

  it('outside the support: −∞ density, cdf 0, survival 1 (log 0); infinite moments as TFP', () => {
    const d = new Pareto({ concentration: [0.5, 1.5, 3], scale: 2 });
    expect(Array.from(data(d.logProb(1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.cdf(1)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.logCdf(1)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.survivalFunction(1)))).toEqual([1, 1, 1]);
    expect(Array.from(data(d.logSurvivalFunction(1)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.mean()))).toEqual([Infinity, 6, 3]);
    expect(Array.from(data(d.variance())).slice(0, 2)).toEqual([Infinity, Infinity]);
    expect(Array.from(data(d.mode()))).toEqual([2, 2, 2]);
    expect(Array.from(data(d.quantile([0, 1, 0])))).toEqual([2, Infinity, 2]);
  });

  it('KL(Pareto ‖ Pareto) matches numerical integration (TFP\'s rule)', () => {
    const a = new Pareto({ concentration: 2.5, scale: 1.2 }), b = new Pareto({ concentration: 1.5, scale: 1 });
    expectKlByQuadrature(a, b, 1e-4, 1e-14);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Pareto({ concentration: p.concentration!, scale: p.scale! });
    const params = { concentration: [0.7, 2.5], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[1.7, 0.5], [2, 3]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: σ·exp(−log1p(−u)/α), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const d = new Pareto({ concentration: [1.5, 0.5], scale: [2, 0.3] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => [2, 0.3][i % 2]! * detExp(-detLog1p(-v) / [1.5, 0.5][i % 2]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the Pareto cdf (KS)', () => {
    const x = new Pareto({ concentration: [0.6, 40], scale: [1, 10] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => (v <= 1 ? 0 : 1 - v ** -0.6));
    expectKS(column(x, 1, 2), (v) => (v <= 10 ? 0 : 1 - (10 / v) ** 40));
  });

  it("default event-space bijector is TFP's Chain([Shift(scale), Softplus])", () => {
    const b = new Pareto({ concentration: 2, scale: [1, 3] }).defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(Chain);
    const y = data(b.forward([0, 0]));
    close(y[0]!, 1 + Math.LN2, 1e-15, 'forward');
    close(y[1]!, 3 + Math.LN2, 1e-15, 'forward');
    close(data(b.inverse([1 + Math.LN2, 4]))[0]!, 0, 1, 'inverse', 1e-15);
  });

  it('a compiled joint model with Pareto nodes equals the tape', () => {
    const model = new JointDistributionNamed({
      a: new Pareto({ concentration: 3, scale: 1 }),
      ls: new Normal({ loc: 0, scale: 1 }),
      y: (a: Tensor, ls: Tensor) => new Pareto({ concentration: a, scale: exp(ls) }),
    });
    expectModelMatchesTape(model, { y: tensor(4.5) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new Pareto({ concentration: f32(3), scale: f32(1.5) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class, the parameter and the value below scale', () => {
    expect(() => new Pareto({ concentration: 0, scale: 1, validateArgs: true })).toThrow(/Pareto: `concentration` must be positive/);
    expect(() => new Pareto({ concentration: 1, scale: -1, validateArgs: true })).toThrow(/Pareto: `scale` must be positive/);
    expect(() => new Pareto({ concentration: 1 } as never)).toThrow(/Pareto: `scale` is required/);
    const v = new Pareto({ concentration: 1, scale: [1, 2], validateArgs: true });
    expect(() => v.logProb([1.5, 1.5])).toThrow(/Pareto.logProb: `value\[1\]` must be at least `scale` \(2\)/);
    expect(() => v.logProb([1, 2, 3])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
  });
});
