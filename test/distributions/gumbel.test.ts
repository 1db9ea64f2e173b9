// Gumbel: values against scipy.stats.gumbel_r (test/fixtures/scipy-distributions, 1e-12
// relative), fused gradients against finite differences, TFP's sampler (seed as given,
// v = tiny + (1 − tiny)·u, μ − β·log(−log v)), the Identity event-space bijector, the KL rule
// against numerical integration, a compiled joint model against the tape, KS goodness of fit
// (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Identity } from '../../distributions/bijectors/identity.js';
import { Gumbel } from '../../distributions/gumbel.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { exp } from '../../src/tensor/ops/elementwise.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { close, expectKlByQuadrature, expectModelMatchesTape, expectFixture } from './scipy-fixture.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('Gumbel', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.gumbel_r', () => {
    expectFixture('Gumbel', (p) => new Gumbel({ loc: p.loc!, scale: p.scale! }));
  });

  it('far tails keep their digits', () => {
    const d = new Gumbel({ loc: 0, scale: 1 });
    close(d.logCdf(-10).item() as number, -Math.exp(10), 1e-15, 'logCdf far left');
    close(d.logSurvivalFunction(60).item() as number, -60 - Math.exp(-60) / 2, 1e-15, 'logSurvival far right');
    close(d.survivalFunction(60).item() as number, Math.exp(-60), 1e-14, 'survival far right');
    expect(d.quantile([0, 1]).toArray()).toEqual([-Infinity, Infinity]);
  });

  it('mean, stddev, mode, entropy', () => {
    const d = new Gumbel({ loc: [1, 2], scale: 3 });
    close(d.mean().data[0] as number, 1 + 3 * 0.5772156649015329, 1e-15, 'mean');
    close(d.stddev().data[1] as number, 3 * Math.PI / Math.sqrt(6), 1e-15, 'stddev');
    expect(d.mode().toArray()).toEqual([1, 2]);
    expect(d.entropy().shape).toEqual([2]);
  });

  it('KL(Gumbel ‖ Gumbel) matches numerical integration', () => {
    const a = new Gumbel({ loc: 0.3, scale: 0.7 }), b = new Gumbel({ loc: -0.5, scale: 1.4 });
    expectKlByQuadrature(a, b, 1e-5, 1e-15);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new Gumbel({ loc: p.loc!, scale: p.scale! });
    const params = { loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, 2], [-1, -0.8]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: μ − β·log(−log(tiny + (1 − tiny)·u)), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const d = new Gumbel({ loc: [1, -1], scale: [2, 0.5] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { seed: [3, 4] }));
    const tiny = 2 ** -1022;
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => [1, -1][i % 2]! - [2, 0.5][i % 2]! * Math.log(-Math.log(tiny + (1 - tiny) * v))));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the Gumbel cdf (KS)', () => {
    const x = new Gumbel({ loc: [0, 5], scale: [1, 1e-3] }).sample(2000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => Math.exp(-Math.exp(-v)));
    expectKS(column(x, 1, 2), (v) => Math.exp(-Math.exp(-(v - 5) / 1e-3)));
  });

  it("default event-space bijector is TFP's Identity", () => {
    expect(new Gumbel({ loc: 0, scale: 1 }).defaultEventSpaceBijector()).toBeInstanceOf(Identity);
  });

  it('a compiled joint model with Gumbel nodes equals the tape', () => {
    const model = new JointDistributionNamed({
      m: new Gumbel({ loc: 0, scale: 2 }),
      ls: new Normal({ loc: 0, scale: 1 }),
      y: (m: Tensor, ls: Tensor) => new Gumbel({ loc: m, scale: exp(ls) }),
      z: (m: Tensor) => new Gumbel({ loc: m, scale: 0.5 }),
    });
    expectModelMatchesTape(model, { y: tensor(0.8), z: tensor(-1.1) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new Gumbel({ loc: f32(0.5), scale: f32(1.5) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class and the parameter', () => {
    expect(() => new Gumbel({ loc: 0, scale: -2, validateArgs: true })).toThrow(/Gumbel: `scale` must be positive/);
    expect(() => new Gumbel({ loc: Number.NaN, scale: 1, validateArgs: true })).toThrow(/Gumbel: `loc` must not be NaN/);
    expect(() => new Gumbel({ scale: 1 } as never)).toThrow(/Gumbel: `loc` is required/);
    expect(() => new Gumbel({ loc: [1, 2], scale: [1, 2, 3] })).toThrow(/`loc` \[2\] and `scale` \[3\]/);
  });
});
