// InverseGamma: log density, cdf, log cdf, log survival, quantile, moments and entropy against
// 50-digit mpmath (fixtures/continuous.py → continuous.json; α from 0.1 to 1e4, x from 1e−3 to
// 1e300, where the cdfs underflow but their logs do not) and @stdlib, fused gradients against
// finite differences, TFP's draw (exp of minus a log-space gamma with log rate ln β) assembled
// by hand, KS goodness of fit (n = 20000, 3 tests at ALPHA = 1e-6: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import invgammaCdf from '@stdlib/stats-base-dists-invgamma-cdf';
import invgammaLogPdf from '@stdlib/stats-base-dists-invgamma-logpdf';
import { Chain } from '../../distributions/bijectors/chain.js';
import { InverseGamma } from '../../distributions/inverse-gamma.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { sanitizeSeed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detExp, detLog } from '../../src/math/index.js';

interface Row { x: number; logpdf: number; cdf: number; logcdf: number; logsf: number }
interface Case {
  concentration: number; scale: number; rows: Row[]; quantiles: [number, number][];
  mean: number; variance: number; mode: number; entropy: number;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/continuous.json', import.meta.url), 'utf8'),
  (_, v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v)) as { inverseGamma: Case[] };

const near = (a: number, b: number, tol: number, floor = 1, what = '') => {
  if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(floor, Math.abs(b)));
};
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);

describe('InverseGamma', () => {
  it('logProb, cdf, logCdf, logSurvivalFunction, quantile, moments and entropy match 50-digit mpmath', () => {
    for (const c of fixture.inverseGamma) {
      const d = new InverseGamma({ concentration: c.concentration, scale: c.scale });
      const xs = c.rows.map((r) => r.x);
      const lp = arr(d.logProb(xs)), cdf = arr(d.cdf(xs)), lc = arr(d.logCdf(xs)), ls = arr(d.logSurvivalFunction(xs));
      const sf = arr(d.survivalFunction(xs));
      const k = c.concentration > 1000 ? 1e-11 : 5e-14;
      c.rows.forEach((r, i) => {
        const what = `InverseGamma(${c.concentration}, ${c.scale}) at ${r.x}`;
        const t = k * Math.max(1, -r.logcdf / 20, -r.logsf / 20);
        near(lp[i]!, r.logpdf, 1e-14, 1, `${what} logpdf`);
        near(cdf[i]!, r.cdf, t, 1e-300, `${what} cdf`);
        near(lc[i]!, r.logcdf, k, 1, `${what} logcdf`);
        near(ls[i]!, r.logsf, t, 1e-300, `${what} logsf`);
        near(sf[i]!, Math.exp(r.logsf), t, 1e-300, `${what} sf`);
      });
      const q = arr(d.quantile(c.quantiles.map(([p]) => p)));
      c.quantiles.forEach(([p, x], i) => near(q[i]!, x, 1e-13, 1e-300, `quantile ${p}`));
      near(d.mean().item() as number, c.mean, 1e-15);
      near(d.variance().item() as number, c.variance, 1e-14);
      near(d.mode().item() as number, c.mode, 1e-15);
      const a = c.concentration;
      near(d.entropy().item() as number, c.entropy, 2e-15 * Math.max(10, a * Math.log(a)), 1, `entropy ${a}`);
    }
    const d = new InverseGamma({ concentration: 2.5, scale: 1.5 });
    for (const x of [0.05, 0.5, 3, 40]) {
      near(d.logProb(x).item() as number, invgammaLogPdf(x, 2.5, 1.5), 1e-13);
      near(d.cdf(x).item() as number, invgammaCdf(x, 2.5, 1.5), 1e-13);
    }
  });

  it('support edges and statistics that need α > 1, α > 2', () => {
    const d = new InverseGamma({ concentration: [0.5, 1.5, 3], scale: 1 });
    expect(arr(d.logProb([-1, 0, 0]))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(arr(d.cdf(0))).toEqual([0, 0, 0]);
    expect(arr(d.survivalFunction(-1))).toEqual([1, 1, 1]);
    const m = arr(d.mean()), v = arr(d.variance());
    expect([Number.isNaN(m[0]!), m[1], m[2]]).toEqual([true, 2, 0.5]);
    expect([Number.isNaN(v[0]!), Number.isNaN(v[1]!), v[2]]).toEqual([true, true, 0.25]);
    expect(() => new InverseGamma({ concentration: 0.5, scale: 1, allowNanStats: false }).mean()).toThrow(/mean/);
    expect(arr(d.stddev())[2]).toBe(0.5);
  });

  it('fused gradients match finite differences, in the tails too', () => {
    const make = (p: Record<string, Tensor>) => new InverseGamma({ concentration: p.a!, scale: p.b! });
    const params = { a: [0.7, 4], b: [2, 0.5] };
    for (const method of ['logProb', 'cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.3, 2], [4, 0.09]], { method, tol: 1e-5 });
    }
    // log Q and log P where Q(α, β/x), P(α, β/x) underflow.
    expectGradients(make, { a: [2, 3], b: [1, 1] }, [1e-3, 1e-3], { method: 'logCdf', tol: 1e-5, skipValue: true });
    expectGradients(make, { a: [2, 3], b: [1, 1] }, [1e200, 1e150], { method: 'logSurvivalFunction', tol: 1e-5, skipValue: true });
    expectGradients(make, params, [[0.1, 0.3], [0.6, 0.95]], { method: 'quantile', tol: 1e-5 });
  });

  it('samples as TFP: exp(−randomLogGamma([n, ...batch], α, log rate ln β))', () => {
    const a = [0.3, 6], b = [2, 0.1];
    const d = new InverseGamma({ concentration: a, scale: b });
    const x = arr(d.sample(5, { seed: 4 }));
    const rep = (v: number[], f = (t: number) => t) => Float64Array.from({ length: 10 }, (_, i) => f(v[i % 2]!));
    const g = randomLogGamma([5, 2], rep(a), rep(b, detLog), sanitizeSeed(4), 'float64');
    expect(x).toEqual(Array.from(g, (v) => detExp(-v)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit InverseGamma(α, β) (KS)', () => {
    const a = [0.4, 3, 80], b = [1, 0.2, 50];
    const x = new InverseGamma({ concentration: a, scale: b }).sample(20000, { seed: 8 });
    a.forEach((al, j) => expectKS(column(x, j, 3), (v) => invgammaCdf(v, al, b[j]!), `InverseGamma(${al}, ${b[j]})`));
  });

  it('bijector is Chain([Reciprocal, Softplus]); bad input names the parameter and the shapes', () => {
    const bij = new InverseGamma({ concentration: 1, scale: 1 }).defaultEventSpaceBijector();
    expect(bij).toBeInstanceOf(Chain);
    near(bij.forward(0).item() as number, 1 / Math.LN2, 1e-15);
    near(bij.inverse(bij.forward(-3)).item() as number, -3, 1e-12);
    expect(() => new InverseGamma({ concentration: 1, scale: 0, validateArgs: true })).toThrow(/InverseGamma: `scale` must be positive; got 0/);
    expect(() => new InverseGamma({ concentration: [1, -1], scale: 1, validateArgs: true })).toThrow(/`concentration\[1\]` must be positive/);
    expect(() => new InverseGamma({ concentration: 1 } as never)).toThrow(/`scale` is required/);
    expect(() => new InverseGamma({ concentration: [1, 2], scale: [1, 2, 3] })).toThrow(/`concentration` \[2\] and `scale` \[3\]/);
    expect(() => new InverseGamma({ concentration: 1, scale: 1, validateArgs: true }).logProb(-1)).toThrow(/InverseGamma.logProb: `value` must be non-negative/);
  });
});
