// HalfCauchy: values against @stdlib's Cauchy (density ×2, cdf 2F − 1) over grids with both
// tails, the far tails against series, entropy against numerical integration, fused gradients
// against finite differences, TFP's sampler (seed as given, uniform [0, 1), tan(πu/2)), the
// Chain([Shift(loc), Exp]) event-space bijector, KS goodness of fit (2 tests, n = 20000 each,
// ALPHA = 1e-6 per test: false-failure rate 2e-6).
import { describe, expect, it } from 'vitest';
import cauchyCdf from '@stdlib/stats-base-dists-cauchy-cdf';
import cauchyLogPdf from '@stdlib/stats-base-dists-cauchy-logpdf';
import { Chain } from '../../distributions/bijectors/chain.js';
import { HalfCauchy } from '../../distributions/half-cauchy.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detTan } from '../../src/math/index.js';

const close = (a: number, b: number, rel: number, floor = 1) =>
  expect(a === b ? 0 : Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(floor, Math.abs(b)));
const data = (t: Tensor) => t.data as Float64Array;

describe('HalfCauchy', () => {
  it('logProb, cdf, survival and their logs match @stdlib (via the Cauchy), −∞ / 0 below loc', () => {
    for (const [m, s] of [[0, 1], [2, 0.3], [-5, 40]] as const) {
      const d = new HalfCauchy({ loc: m, scale: s });
      const zs = [1e-7, 0.1, 0.5, 1, 3, 40, 1e4];
      const xs = zs.map((z) => m + z * s);
      const lp = data(d.logProb(xs)), cdf = data(d.cdf(xs)), lc = data(d.logCdf(xs));
      const sf = data(d.survivalFunction(xs)), ls = data(d.logSurvivalFunction(xs));
      xs.forEach((x, i) => {
        const F = 2 * cauchyCdf(x, m, s) - 1, S = 2 * cauchyCdf(2 * m - x, m, s); // S = 2(1 − F_Cauchy)
        close(lp[i]!, Math.LN2 + cauchyLogPdf(x, m, s), 1e-13);
        close(cdf[i]!, F, zs[i]! < 1e-3 ? 1e-8 : 1e-13, 1e-300);
        close(lc[i]!, Math.log(F), zs[i]! < 1e-3 ? 1e-8 : 1e-13);
        close(sf[i]!, S, zs[i]! > 100 ? 1e-9 : 1e-13, 1e-300);
        close(ls[i]!, Math.log(S), zs[i]! > 100 ? 1e-9 : 1e-13);
      });
      const below = d.logProb(m - s).item(), at = d.logProb(m).item() as number;
      expect(below).toBe(-Infinity);
      close(at, Math.log(2 / Math.PI) - Math.log(s), 1e-15);
      expect([d.cdf(m - 1).item(), d.survivalFunction(m - 1).item(), d.logCdf(m - 1).item()]).toEqual([0, 1, -Infinity]);
    }
  });

  it('both tails keep their digits (series), and quantile inverts cdf', () => {
    const d = new HalfCauchy({ loc: 0, scale: 1 });
    for (const z of [1e-5, 1e-12, 1e-200]) {
      const lower = (2 / Math.PI) * (z - z ** 3 / 3);
      close(d.cdf(z).item() as number, lower, 1e-15, 1e-300);
      close(d.logCdf(z).item() as number, Math.log(lower), 1e-15);
      close(d.survivalFunction(1 / z).item() as number, lower, 1e-15, 1e-300);
      close(d.logSurvivalFunction(1 / z).item() as number, Math.log(lower), 1e-15);
    }
    close(d.quantile(1e-20).item() as number, (Math.PI / 2) * 1e-20, 1e-15);
    close(d.quantile(1 - 2 ** -40).item() as number, 1 / Math.tan((Math.PI / 2) * 2 ** -40), 1e-15);
    const ps = [1e-3, 0.3, 0.5, 0.9, 0.99999];
    const e = new HalfCauchy({ loc: 2, scale: 3 }), q = data(e.quantile(ps));
    ps.forEach((p, i) => close(2 * cauchyCdf(q[i]!, 2, 3) - 1, p, 1e-13));
    expect(d.quantile([0, 1]).toArray()).toEqual([0, Infinity]);
  });

  it('moments are NaN as in TFP; mode, entropy (numerical integration)', () => {
    const d = new HalfCauchy({ loc: [1, 2], scale: 3 });
    expect(d.mean().toArray()).toEqual([NaN, NaN]);
    expect(d.variance().toArray()).toEqual([NaN, NaN]);
    expect(d.stddev().toArray()).toEqual([NaN, NaN]);
    expect(d.mode().toArray()).toEqual([1, 2]);
    expect(() => new HalfCauchy({ loc: 0, scale: 1, allowNanStats: false }).variance()).toThrow(/HalfCauchy.variance/);
    const a = new HalfCauchy({ loc: 0.3, scale: 0.7 });
    const n = 200000, us = Array.from({ length: n }, (_, i) => (i + 0.5) / n);
    const la = data(a.logProb(a.quantile(us)));
    close(a.entropy().item() as number, -la.reduce((s, v) => s + v, 0) / n, 1e-5);
  });

  it("default event-space bijector is TFP's Chain([Shift(loc), Exp])", () => {
    const d = new HalfCauchy({ loc: [1, -2], scale: 1 });
    const b = d.defaultEventSpaceBijector();
    expect(b).toBeInstanceOf(Chain);
    const y = data(b.forward([0, Math.log(3)]));
    expect(y[0]).toBe(2);
    close(y[1]!, 1, 1e-15);
    close(data(b.inverse([2, 1]))[1]!, Math.log(3), 1e-15);
    close(data(b.forwardLogDetJacobian([0.5, -1]))[1]!, -1, 1e-15);
  });

  it('fused gradients of every method match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new HalfCauchy({ loc: p.loc!, scale: p.scale! });
    const params = { loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.7, 2], [4, -0.8]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: loc + scale·tan(π/2 · u), u = samplers.uniform([n, ...batch]) with the seed as given', () => {
    const d = new HalfCauchy({ loc: [1, -1], scale: [2, 0.5] });
    const x = data(d.sample(4, { seed: [3, 4] }));
    const u = data(samplersUniform([4, 2], { seed: [3, 4] }));
    expect(Array.from(x)).toEqual(Array.from(u, (v, i) => [1, -1][i % 2]! + [2, 0.5][i % 2]! * detTan((Math.PI / 2) * v)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the half-Cauchy cdf (KS)', () => {
    const x = new HalfCauchy({ loc: [0, 5], scale: [1, 1e-3] }).sample(20000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => 2 * cauchyCdf(v, 0, 1) - 1);
    expectKS(column(x, 1, 2), (v) => 2 * cauchyCdf(v, 5, 1e-3) - 1);
  });

  it('bad input: names the parameter, the value below loc, and both shapes', () => {
    expect(() => new HalfCauchy({ loc: 0, scale: -2, validateArgs: true })).toThrow(/HalfCauchy: `scale` must be positive/);
    expect(() => new HalfCauchy({ loc: [1, 2], scale: [1, 2, 3] })).toThrow(/`loc` \[2\] and `scale` \[3\]/);
    const v = new HalfCauchy({ loc: [0, 1], scale: 1, validateArgs: true });
    expect(() => v.logProb([0.5, 0.5])).toThrow(/HalfCauchy.logProb: `value\[1\]` must be at least `loc` \(1\)/);
    expect(() => v.cdf([[0, 1], [1, 1]])).not.toThrow();
    expect(() => v.logProb([1, 2, 3])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
  });
});
