// HalfStudentT: values against scipy.stats.t folded at loc (density 2·t.pdf, cdf 2·t.cdf − 1,
// survival 2·t.sf; test/fixtures/scipy-distributions, 1e-12 relative unless stated), fused
// gradients against finite differences, TFP's sampler (|StudentT(ν, 0, σ) draw| + μ, the seed as
// given), the Chain([Shift(loc), Exp]) event-space bijector, a compiled joint model against the
// tape, KS goodness of fit (2 tests, n = 2000 each, ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import { Chain } from '../../distributions/bijectors/chain.js';
import { HalfStudentT } from '../../distributions/half-student-t.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { StudentT } from '../../distributions/student-t.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { expectModelMatchesTape, expectFixture } from './scipy-fixture.js';

const data = (t: Tensor) => t.data as Float64Array;

describe('HalfStudentT', () => {
  it('logProb, cdf, survival and their logs, quantile and moments match scipy.stats.t folded at loc', () => {
    // The fixture holds mpmath's values where scipy's 2·F(t) − 1 and 2·sf lose digits next to loc.
    expectFixture('HalfStudentT', (p) => new HalfStudentT({ df: p.df!, loc: p.loc!, scale: p.scale! }));
  });

  it('outside the support: −∞ log density, cdf 0, survival 1; undefined moments as TFP', () => {
    const d = new HalfStudentT({ df: [0.5, 1.5, 3], loc: 1, scale: 2 });
    expect(Array.from(data(d.logProb(0)))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(Array.from(data(d.cdf(0)))).toEqual([0, 0, 0]);
    expect(Array.from(data(d.logSurvivalFunction(0)))).toEqual([0, 0, 0]);
    const m = data(d.mean()), v = data(d.variance());
    expect(m[0]).toBeNaN();
    expect(Number.isFinite(m[1]!)).toBe(true);
    expect(v[0]).toBeNaN();
    expect(v[1]).toBe(Infinity);
    expect(Array.from(data(d.mode()))).toEqual([1, 1, 1]);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new HalfStudentT({ df: p.df!, loc: p.loc!, scale: p.scale! });
    const params = { df: [1.5, 7], loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, -0.5], [4, 0.1]], { method, tol: 1e-5 });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile', tol: 1e-5 });
  });

  it("samples as TFP: |StudentT(ν, 0, σ) draw| + μ with the seed as given", () => {
    const d = new HalfStudentT({ df: [3, 10], loc: [1, -1], scale: [2, 0.5] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const t = data(new StudentT({ df: [3, 10], loc: [0, 0], scale: [2, 0.5] }).sample(4, { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(t, (v, i) => Math.abs(v) + [1, -1][i % 2]!));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the half-Student-t cdf (KS)', () => {
    const d = new HalfStudentT({ df: [2, 30], loc: [0, 5], scale: [1, 3] });
    const x = d.sample(2000, { seed: 12 });
    const a = new HalfStudentT({ df: 2, loc: 0, scale: 1 }), b = new HalfStudentT({ df: 30, loc: 5, scale: 3 });
    expectKS(column(x, 0, 2), (v) => a.cdf(v).item() as number);
    expectKS(column(x, 1, 2), (v) => b.cdf(v).item() as number);
  });

  it("default event-space bijector is TFP's Chain([Shift(loc), Exp])", () => {
    const b = new HalfStudentT({ df: 3, loc: [1, -2], scale: 1 }).defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(Chain);
    expect(Array.from(data(b.forward([0, 0])))).toEqual([2, -1]);
  });

  it('a compiled joint model with a HalfStudentT scale prior equals the tape', () => {
    const model = new JointDistributionNamed({
      sigma: new HalfStudentT({ df: 3, loc: 0, scale: 2.5 }),
      mu: new Normal({ loc: 0, scale: 1 }),
      y: (sigma: Tensor, mu: Tensor) => new HalfStudentT({ df: 4, loc: mu, scale: sigma }),
    });
    expectModelMatchesTape(model, { y: tensor(1.7) });
  });

  it('float32 parameters give float32 draws, densities and statistics', () => {
    const f32 = (v: number) => tensor(v, 'float32');
    const d = new HalfStudentT({ df: f32(3), loc: f32(0.5), scale: f32(1.5) });
    const x = d.sample(3, { seed: 0 });
    expect([x, d.logProb(x), d.mean(), d.variance(), d.mode(), d.entropy()].map((t) => t.dtype)).toEqual(Array(6).fill('float32'));
  });

  it('bad input: names the class, the parameter and the value below loc', () => {
    expect(() => new HalfStudentT({ df: 0, loc: 0, scale: 1, validateArgs: true })).toThrow(/HalfStudentT: `df` must be positive/);
    expect(() => new HalfStudentT({ df: 1, loc: 0, scale: -1, validateArgs: true })).toThrow(/HalfStudentT: `scale` must be positive/);
    expect(() => new HalfStudentT({ df: 1, scale: 1 } as never)).toThrow(/HalfStudentT: `loc` is required/);
    const v = new HalfStudentT({ df: 3, loc: [0, 1], scale: 1, validateArgs: true });
    expect(() => v.logProb([0.5, 0.5])).toThrow(/HalfStudentT.logProb: `value\[1\]` must be at least `loc` \(1\)/);
  });
});
