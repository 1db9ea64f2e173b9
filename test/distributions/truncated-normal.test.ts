// TruncatedNormal: log density, cdf, log cdf, log survival, quantile, mean, variance and entropy
// against 50-digit mpmath (fixtures/continuous.py → continuous.json; intervals in the body, in
// one tail out to 40σ, and 30σ into the lower tail), the untruncated limit against Normal, fused
// gradients against finite differences for the value and all four parameters, TFP-on-JAX's draw
// (random.truncatedNormal on the standardized bounds with the seed as given, · σ + μ), KS
// goodness of fit (n = 20000, 3 tests at ALPHA = 1e-6: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Normal } from '../../distributions/normal.js';
import { TruncatedNormal } from '../../distributions/truncated-normal.js';
import { truncatedNormal } from '../../src/random/truncated-normal.js';
import { sanitizeSeed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';

interface Row { x: number; logpdf: number; cdf: number; logcdf: number; logsf: number }
interface Case {
  loc: number; scale: number; low: number; high: number; rows: Row[]; quantiles: [number, number][];
  mean: number; variance: number; entropy: number;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/continuous.json', import.meta.url), 'utf8'),
  (_, v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v)) as { truncatedNormal: Case[] };

const near = (a: number, b: number, tol: number, floor = 1, what = '') => {
  if (a !== b) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(floor, Math.abs(b)));
};
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);

describe('TruncatedNormal', () => {
  it('logProb, cdf, logCdf, logSurvivalFunction, quantile and moments match 50-digit mpmath, far tails included', () => {
    for (const c of fixture.truncatedNormal) {
      const d = new TruncatedNormal({ loc: c.loc, scale: c.scale, low: c.low, high: c.high });
      const xs = c.rows.map((r) => r.x);
      const lp = arr(d.logProb(xs)), cdf = arr(d.cdf(xs)), lc = arr(d.logCdf(xs)), ls = arr(d.logSurvivalFunction(xs));
      const sf = arr(d.survivalFunction(xs));
      const zmax = Math.max(Math.abs(c.low - c.loc), Math.abs(c.high - c.loc)) / c.scale;
      // log Φ at z carries ~z²·1e−16 absolute; differences of nearby log Φ lose that over their gap.
      const t = 1e-15 * Math.max(4, zmax * zmax);
      c.rows.forEach((r, i) => {
        const what = `TruncatedNormal(${c.loc}, ${c.scale}, ${c.low}, ${c.high}) at ${r.x}`;
        near(lp[i]!, r.logpdf, t, 1, `${what} logpdf`);
        near(lc[i]!, r.logcdf, t, 1e-300, `${what} logcdf`);
        near(ls[i]!, r.logsf, t, 1e-300, `${what} logsf`);
        near(cdf[i]!, r.cdf, t, 1e-300, `${what} cdf`);
        near(sf[i]!, Math.exp(r.logsf), t, 1e-300, `${what} sf`);
      });
      const q = arr(d.quantile(c.quantiles.map(([p]) => p)));
      c.quantiles.forEach(([p, x], i) => near(q[i]!, x, t, 1, `quantile ${p} of (${c.low}, ${c.high})`));
      near(d.mean().item() as number, c.mean, t, 1, 'mean');
      near(d.variance().item() as number, c.variance, 1e-13 * Math.max(1, zmax ** 4), 1e-300, `variance (${c.low}, ${c.high})`);
      near(d.entropy().item() as number, c.entropy, t, 1, 'entropy');
    }
  });

  it('with infinite bounds it is the Normal; outside [low, high] −∞ log density and 0/1 cdfs', () => {
    const d = new TruncatedNormal({ loc: 1, scale: 2, low: -Infinity, high: Infinity });
    const n = new Normal({ loc: 1, scale: 2 });
    const xs = [-40, -3, 0, 1, 2.5, 30];
    for (const m of ['logProb', 'cdf', 'logCdf', 'logSurvivalFunction'] as const) {
      arr(d[m](xs)).forEach((v, i) => near(v, arr(n[m](xs))[i]!, 1e-13));
    }
    arr(d.quantile([1e-10, 0.3, 0.9])).forEach((v, i) => near(v, arr(n.quantile([1e-10, 0.3, 0.9]))[i]!, 1e-13));
    near(d.mean().item() as number, 1, 1e-15);
    near(d.variance().item() as number, 4, 1e-15);
    near(d.entropy().item() as number, n.entropy().item() as number, 1e-15);
    const e = new TruncatedNormal({ loc: 0, scale: 1, low: -1, high: 2 });
    expect(arr(e.logProb([-1.5, 2.5]))).toEqual([-Infinity, -Infinity]);
    expect(arr(e.cdf([-1.5, -1, 2, 2.5]))).toEqual([0, 0, 1, 1]);
    expect(arr(e.survivalFunction([-1.5, 2.5]))).toEqual([1, 0]);
    expect(arr(e.quantile([0, 1]))).toEqual([-1, 2]);
    expect(arr(new TruncatedNormal({ loc: [-5, 0.5, 9], scale: 1, low: -1, high: 2 }).mode())).toEqual([-1, 0.5, 2]);
  });

  it('fused gradients match finite differences for the value and all four parameters', () => {
    const make = (p: Record<string, Tensor>) => new TruncatedNormal({ loc: p.loc!, scale: p.scale!, low: p.low!, high: p.high! });
    const params = { loc: [0.5, -1, 6], scale: [1.3, 0.4, 1], low: [-1, -2, 1], high: [2, -0.5, 2] };
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [0.1, -0.7, 1.5], { method, tol: 1e-5 });
    }
    expectGradients(make, params, [0.1, 0.7, 0.95], { method: 'quantile', tol: 1e-5 });
    // Far in the upper tail (bounds 10σ and 40σ above the mean).
    expectGradients(make, { loc: [0], scale: [1], low: [10], high: [40] }, [10.3], { method: 'logCdf', tol: 1e-5 });
  });

  it("samples as TFP on JAX: random.truncatedNormal(seed, (low − μ)/σ, (high − μ)/σ, [n, ...batch]) · σ + μ", () => {
    const d = new TruncatedNormal({ loc: [0, 2], scale: [1, 0.5], low: [-1, 3], high: [1, 9] });
    const x = arr(d.sample(5, { seed: 6 }));
    const lo = [-1, 2], hi = [1, 14];
    const z = arr(truncatedNormal(sanitizeSeed(6), lo, hi, [5, 2]));
    expect(x).toEqual(z.map((v, i) => v * [1, 0.5][i % 2]! + [0, 2][i % 2]!));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the truncated normal (KS), one-sided and far in a tail too', () => {
    const lo = [-1, 0, 5], hi = [1, Infinity, 6];
    const d = new TruncatedNormal({ loc: 0, scale: 1, low: lo, high: hi });
    const x = d.sample(20000, { seed: 2 });
    lo.forEach((_, j) => {
      const v = column(x, j, 3);
      const c = arr(new TruncatedNormal({ loc: 0, scale: 1, low: lo[j]!, high: hi[j]! }).cdf(Array.from(v)));
      const cdfOf = new Map(Array.from(v, (t, i) => [t, c[i]!]));
      expectKS(v, (t) => cdfOf.get(t)!, `TruncatedNormal(${lo[j]}, ${hi[j]})`);
    });
  });

  it('bijector is Sigmoid onto (low, high), low + eˣ, high − eˣ or the identity (Stan\'s); bad input names the parameter and the shapes', () => {
    const b = new TruncatedNormal({ loc: 0, scale: 1, low: 2, high: 6 }).defaultEventSpaceBijector();
    near(b.forward(0).item() as number, 4, 1e-15);
    const bij = (low: number | number[], high: number | number[]) => new TruncatedNormal({ loc: 0, scale: 1, low, high }).defaultEventSpaceBijector();
    for (const [low, high, y, ldj] of [[1, Infinity, 1 + Math.exp(0.3), 0.3], [-Infinity, 2, 2 - Math.exp(0.3), 0.3], [-Infinity, Infinity, 0.3, 0]] as const) {
      const f = bij(low, high);
      near(f.forward(0.3).item() as number, y, 1e-15);
      near(f.inverse(y).item() as number, 0.3, 1e-14);
      near(f.forwardLogDetJacobian(0.3, 0).item() as number, ldj, 1e-15);
    }
    near(bij([0, 1], Infinity).forward([0, 0]).data[1] as number, 2, 1e-15);
    expect(() => bij([0, -Infinity], 5)).toThrow(/TruncatedNormal.defaultEventSpaceBijector: `low` and `high` must each be finite in every element or infinite in every element/);
    expect(() => new TruncatedNormal({ loc: 0, scale: 1, low: 2, high: 2, validateArgs: true })).toThrow(/TruncatedNormal: `low` must be less than `high`/);
    expect(() => new TruncatedNormal({ loc: 0, scale: -1, low: 0, high: 1, validateArgs: true })).toThrow(/`scale` must be positive/);
    expect(() => new TruncatedNormal({ loc: 0, scale: 1, low: -Infinity, high: 1, validateArgs: true })).toThrow(/`low` must be finite/);
    expect(() => new TruncatedNormal({ loc: 0, scale: 1, low: 0 } as never)).toThrow(/`high` is required/);
    expect(() => new TruncatedNormal({ loc: [0, 1], scale: 1, low: [0, 0, 0], high: 1 })).toThrow(/`loc` \[2\].*`low` \[3\]/);
    expect(() => new TruncatedNormal({ loc: 0, scale: 1, low: 0, high: 1, validateArgs: true }).logProb([0.5, 2])).toThrow(/TruncatedNormal.logProb: `value\[1\]` must be in \[low, high\]; got 2/);
  });
});
