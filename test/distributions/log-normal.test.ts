// LogNormal: log density, cdf, log cdf, log survival, quantile, moments and entropy against
// 50-digit mpmath (fixtures/continuous.py → continuous.json; values 38 standard deviations
// into both tails) and @stdlib, KL against numerical integration, fused gradients against finite
// differences, TFP's draw (the Normal's draw with the seed as given, exponentiated), KS goodness
// of fit (n = 20000, 2 tests at ALPHA = 1e-6: false-failure rate 2e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import lognormalCdf from '@stdlib/stats-base-dists-lognormal-cdf';
import lognormalLogPdf from '@stdlib/stats-base-dists-lognormal-logpdf';
import { LogNormal } from '../../distributions/log-normal.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detExp } from '../../src/math/index.js';

interface Row { x: number; logpdf: number; cdf: number; logcdf: number; logsf: number }
interface Case { loc: number; scale: number; rows: Row[]; quantiles: [number, number][]; mean: number; variance: number; mode: number; entropy: number }
const fixture = JSON.parse(readFileSync(new URL('./fixtures/continuous.json', import.meta.url), 'utf8'),
  (_, v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v)) as { logNormal: Case[] };

const near = (a: number, b: number, tol: number, floor = 1, what = '') => {
  if (a !== b) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(floor, Math.abs(b)));
};
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);

describe('LogNormal', () => {
  it('logProb, cdf, logCdf, logSurvivalFunction, quantile, moments and entropy match 50-digit mpmath', () => {
    for (const c of fixture.logNormal) {
      const d = new LogNormal({ loc: c.loc, scale: c.scale });
      const xs = c.rows.map((r) => r.x);
      const lp = arr(d.logProb(xs)), cdf = arr(d.cdf(xs)), lc = arr(d.logCdf(xs)), ls = arr(d.logSurvivalFunction(xs));
      const sf = arr(d.survivalFunction(xs));
      c.rows.forEach((r, i) => {
        // Φ(z) moves by |z|·1e−16 relative per ulp of z = (ln x − μ)/σ.
        const t = 4e-16 * Math.max(4, Math.abs(Math.log(r.x) - c.loc) / c.scale) ** 2;
        const what = `LogNormal(${c.loc}, ${c.scale}) at ${r.x}`;
        near(lp[i]!, r.logpdf, t, 1, `${what} logpdf`);
        near(cdf[i]!, r.cdf, t, 1e-300, `${what} cdf`);
        near(lc[i]!, r.logcdf, t, 1e-300, `${what} logcdf`);
        near(ls[i]!, r.logsf, t, 1e-300, `${what} logsf`);
        near(sf[i]!, Math.exp(r.logsf), t, 1e-300, `${what} sf`);
      });
      const q = arr(d.quantile(c.quantiles.map(([p]) => p)));
      c.quantiles.forEach(([p, x], i) => near(q[i]!, x, 1e-13 * Math.max(1, Math.abs(Math.log(x))), 1e-300, `quantile ${p}`));
      near(d.mean().item() as number, c.mean, 1e-14);
      near(d.variance().item() as number, c.variance, 1e-14);
      near(d.mode().item() as number, c.mode, 1e-14);
      near(d.entropy().item() as number, c.entropy, 1e-15);
    }
    const d = new LogNormal({ loc: 0.3, scale: 0.7 });
    for (const x of [0.05, 0.5, 3, 40]) {
      near(d.logProb(x).item() as number, lognormalLogPdf(x, 0.3, 0.7), 1e-14);
      near(d.cdf(x).item() as number, lognormalCdf(x, 0.3, 0.7), 1e-14);
    }
  });

  it('support: −∞ log density and 0 cdf at and below 0', () => {
    const d = new LogNormal({ loc: 0, scale: 1 });
    expect(arr(d.logProb([-1, 0]))).toEqual([-Infinity, -Infinity]);
    expect(arr(d.cdf([-1, 0]))).toEqual([0, 0]);
    expect(arr(d.logCdf([-1, 0]))).toEqual([-Infinity, -Infinity]);
    expect(arr(d.logSurvivalFunction([-1, 0]))).toEqual([0, 0]);
  });

  it('KL (that of the underlying normals) against numerical integration', () => {
    const a = new LogNormal({ loc: 0.2, scale: 0.6 }), b = new LogNormal({ loc: -0.5, scale: 1.3 });
    const n = 200000, lo = -8, hi = 8, h = (hi - lo) / n;
    const xs = Array.from({ length: n }, (_, i) => Math.exp(lo + (i + 0.5) * h));
    const la = arr(a.logProb(xs)), lb = arr(b.logProb(xs));
    const kl = la.reduce((s, l, i) => s + Math.exp(l) * (l - lb[i]!) * xs[i]! * h, 0);
    near(a.klDivergence(b).item() as number, kl, 1e-9);
  });

  it('fused gradients match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new LogNormal({ loc: p.loc!, scale: p.scale! });
    const params = { loc: [0.5, -1], scale: [1.3, 0.4] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.1, 2], [1.7, 0.2]], { method });
    }
    expectGradients(make, params, [[0.1, 0.2], [0.7, 0.95]], { method: 'quantile' });
  });

  it('samples as TFP: exp(samplers.normal([n, ...batch]) · σ + μ) with the seed as given', () => {
    const d = new LogNormal({ loc: [1, -1], scale: [2, 0.5] });
    const x = arr(d.sample(4, { seed: [3, 4] }));
    const z = arr(samplersNormal([4, 2], { seed: [3, 4] }));
    expect(x).toEqual(z.map((v, i) => detExp(v * [2, 0.5][i % 2]! + [1, -1][i % 2]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit LogNormal(μ, σ) (KS)', () => {
    const x = new LogNormal({ loc: [0, 3], scale: [1, 0.01] }).sample(20000, { seed: 12 });
    expectKS(column(x, 0, 2), (v) => lognormalCdf(v, 0, 1));
    expectKS(column(x, 1, 2), (v) => lognormalCdf(v, 3, 0.01));
  });

  it('bijector is Exp; bad input names the parameter and the shapes', () => {
    expect(new LogNormal({ loc: 0, scale: 1 }).defaultEventSpaceBijector().forward(0).item()).toBe(1);
    expect(() => new LogNormal({ loc: 0, scale: -1, validateArgs: true })).toThrow(/LogNormal: `scale` must be positive; got -1/);
    expect(() => new LogNormal({ loc: NaN, scale: 1, validateArgs: true })).toThrow(/`loc` must not be NaN/);
    expect(() => new LogNormal({ scale: 1 } as never)).toThrow(/`loc` is required/);
    expect(() => new LogNormal({ loc: [1, 2], scale: [1, 2, 3] })).toThrow(/`loc` \[2\] and `scale` \[3\]/);
    expect(() => new LogNormal({ loc: 0, scale: 1, validateArgs: true }).logProb(-1)).toThrow(/LogNormal.logProb: `value` must be non-negative/);
  });
});
