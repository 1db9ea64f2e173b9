// Chi2: log density, cdf, log cdf, log survival and quantile against 50-digit mpmath
// (fixtures/continuous.py → continuous.json; df from 0.01 to 1e4, x from 1e−300 to 2000 where
// the cdfs underflow but their logs do not) and @stdlib, moments, entropy, the three KL rules
// against numerical integration, fused gradients against finite differences, the draw assembled
// by hand from the log-space gamma sampler, KS goodness of fit (n = 20000, 3 tests at
// ALPHA = 1e-6: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import chisqCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import chisqLogPdf from '@stdlib/stats-base-dists-chisquare-logpdf';
import { Chi2 } from '../../distributions/chi2.js';
import { Gamma } from '../../distributions/gamma.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { sanitizeSeed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';
import { detExp } from '../../src/math/index.js';

interface Row { x: number; logpdf: number; cdf: number; logcdf: number; logsf: number }
interface Case { df: number; rows: Row[]; quantiles: [number, number][]; entropy: number }
const fixture = JSON.parse(readFileSync(new URL('./fixtures/continuous.json', import.meta.url), 'utf8'),
  (_, v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v)) as { chi2: Case[] };

const near = (a: number, b: number, tol: number, floor = 1, what = '') => {
  if (a !== b) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(floor, Math.abs(b)));
};
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);

/** KL(p ‖ q) by the midpoint rule on a log-spaced grid over (lo, hi). */
function klByIntegration(p: { logProb(x: number[]): Tensor }, q: { logProb(x: number[]): Tensor }, lo: number, hi: number, n = 200000): number {
  const r = Math.log(hi / lo) / n, xs = Array.from({ length: n }, (_, i) => lo * Math.exp((i + 0.5) * r));
  const lp = arr(p.logProb(xs)), lq = arr(q.logProb(xs));
  return lp.reduce((s, l, i) => s + Math.exp(l) * (l - lq[i]!) * xs[i]! * r, 0);
}

describe('Chi2', () => {
  it('logProb, cdf, logCdf, logSurvivalFunction and quantile match 50-digit mpmath, tails included', () => {
    for (const c of fixture.chi2) {
      const d = new Chi2({ df: c.df });
      const xs = c.rows.map((r) => r.x);
      const lp = arr(d.logProb(xs)), cdf = arr(d.cdf(xs)), lc = arr(d.logCdf(xs)), ls = arr(d.logSurvivalFunction(xs));
      const sf = arr(d.survivalFunction(xs));
      const k = c.df > 1000 ? 1e-11 : 5e-14;
      c.rows.forEach((r, i) => {
        const what = `Chi2(${c.df}) at ${r.x}`;
        near(lp[i]!, r.logpdf, 1e-14, 1, `${what} logpdf`);
        // exp of a log power term near −600 carries ~600 ulp: scale by the larger |log|.
        const t = k * Math.max(1, -r.logcdf / 20, -r.logsf / 20);
        near(cdf[i]!, r.cdf, t, 1e-300, `${what} cdf`);
        near(lc[i]!, r.logcdf, k, 1, `${what} logcdf`);
        near(ls[i]!, r.logsf, t, 1e-300, `${what} logsf`);
        near(sf[i]!, Math.exp(r.logsf), t, 1e-300, `${what} sf`);
      });
      const q = arr(d.quantile(c.quantiles.map(([p]) => p)));
      c.quantiles.forEach(([p, x], i) => near(q[i]!, x, 1e-10, 1e-300, `Chi2(${c.df}) quantile ${p}`));
      // TFP's entropy formula cancels terms of size (k/2)·ψ(k/2): about 1e−16·k·ln k absolute.
      near(d.entropy().item() as number, c.entropy, 2e-15 * Math.max(10, c.df * Math.log(c.df)), 1, `entropy ${c.df}`);
    }
    const d = new Chi2({ df: 3.5 });
    for (const x of [0.01, 1, 4, 20]) {
      near(d.logProb(x).item() as number, chisqLogPdf(x, 3.5), 1e-13);
      near(d.cdf(x).item() as number, chisqCdf(x, 3.5), 1e-13);
    }
  });

  it('support edges: −∞ below 0, the limit at 0 by df, cdf 0 and survival 1 at and below 0', () => {
    const d = new Chi2({ df: [1, 2, 3] });
    expect(arr(d.logProb(-1))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(arr(d.logProb(0))).toEqual([Infinity, -Math.LN2, -Infinity]);
    expect(arr(d.cdf(0))).toEqual([0, 0, 0]);
    expect(arr(d.survivalFunction(-2))).toEqual([1, 1, 1]);
    expect(arr(d.logCdf(0))).toEqual([-Infinity, -Infinity, -Infinity]);
  });

  it('moments, mode, KL rules (Chi2–Chi2, Chi2–Gamma, Gamma–Chi2) against numerical integration', () => {
    const d = new Chi2({ df: [1, 4, 9] });
    expect(arr(d.mean())).toEqual([1, 4, 9]);
    expect(arr(d.variance())).toEqual([2, 8, 18]);
    expect(arr(d.stddev())).toEqual([Math.sqrt(2), Math.sqrt(8), Math.sqrt(18)]);
    const m = arr(d.mode());
    expect(Number.isNaN(m[0]!)).toBe(true);
    expect(m.slice(1)).toEqual([2, 7]);
    const a = new Chi2({ df: 3 }), b = new Chi2({ df: 5.5 }), g = new Gamma({ concentration: 2, rate: 0.7 });
    near(a.klDivergence(b).item() as number, klByIntegration(a, b, 1e-12, 200), 1e-7);
    near(a.klDivergence(g).item() as number, klByIntegration(a, g, 1e-12, 200), 1e-7);
    near(g.klDivergence(a).item() as number, klByIntegration(g, a, 1e-12, 200), 1e-7);
    near(a.klDivergence(a).item() as number, 0, 1e-15);
  });

  it('fused gradients match finite differences, in the tails too', () => {
    const make = (p: Record<string, Tensor>) => new Chi2({ df: p.df! });
    const params = { df: [0.7, 5] };
    for (const method of ['logProb', 'cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.3, 2], [4, 9]], { method, tol: 1e-5 });
    }
    // The log-space series and continued fraction (cdf and survival below 1e−280).
    expectGradients(make, { df: [3, 4] }, [1e-200, 1500], { method: 'logCdf', tol: 1e-5, skipValue: true });
    expectGradients(make, { df: [3, 4] }, [1e-200, 1500], { method: 'logSurvivalFunction', tol: 1e-5, skipValue: true });
    expectGradients(make, params, [[0.1, 0.3], [0.6, 0.95]], { method: 'quantile', tol: 1e-5 });
  });

  it('samples from the log-space gamma sampler: exp(randomLogGamma([n, ...batch], df/2, log rate −ln 2))', () => {
    const df = [0.6, 7];
    const d = new Chi2({ df });
    const x = arr(d.sample(5, { seed: 9 }));
    const conc = Float64Array.from({ length: 10 }, (_, i) => df[i % 2]! / 2);
    const g = randomLogGamma([5, 2], conc, new Float64Array(10).fill(-Math.LN2), sanitizeSeed(9), 'float64');
    expect(x).toEqual(Array.from(g, (v) => detExp(v)));
    expectSampleShapeInvariance(d);
    // Tiny df: draws that underflow become finfo.tiny, as TFP's linear-space path gives.
    expect(Math.min(...arr(new Chi2({ df: 1e-3 }).sample(200, { seed: 1 })))).toBeGreaterThan(0);
  });

  it('draws fit Chi2(df) (KS)', () => {
    const df = [0.4, 3, 150];
    const x = new Chi2({ df }).sample(20000, { seed: 21 });
    df.forEach((k, j) => expectKS(column(x, j, 3), (v) => chisqCdf(v, k), `Chi2(${k})`));
  });

  it('bijector is Softplus; bad input names the parameter and the shapes', () => {
    expect(new Chi2({ df: 1 }).defaultEventSpaceBijector().forward(0).item()).toBeCloseTo(Math.LN2, 15);
    expect(() => new Chi2({ df: -2, validateArgs: true })).toThrow(/Chi2: `df` must be positive; got -2/);
    expect(() => new Chi2({} as never)).toThrow(/`df` is required/);
    expect(() => new Chi2({ df: 1, validateArgs: true }).logProb(-0.5)).toThrow(/Chi2.logProb: `value` must be non-negative/);
    expect(() => new Chi2({ df: [1, 2] }).logProb([[1, 2, 3]])).toThrow(/`value` \[1, 3\] and `batchShape \+ eventShape` \[2\]/);
  });
});
