// Beta: log density, cdf, log cdf, log survival and quantile against 50-digit mpmath
// (fixtures/continuous.py → continuous.json; α, β from 0.05 to 1e5, x down to 1e−300 where the
// cdf underflows but its log does not) and @stdlib, moments and entropy, KL against numerical
// integration, fused gradients against finite differences, TFP's seed structure (split with
// salt 'beta', two log-space gammas, sigmoid of their difference) assembled by hand, KS goodness
// of fit (n = 20000, 3 tests at ALPHA = 1e-6: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import betaLogPdf from '@stdlib/stats-base-dists-beta-logpdf';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { Beta } from '../../distributions/beta.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { grad } from '../../src/tensor/autodiff.js';
import { sigmoidScalar } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';

interface Row { x: number; logpdf: number; cdf: number; logcdf: number; logsf: number }
interface Case { a: number; b: number; rows: Row[]; quantiles: [number, number][]; mean: number; variance: number; entropy: number }
const fixture = JSON.parse(readFileSync(new URL('./fixtures/continuous.json', import.meta.url), 'utf8'),
  (_, v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v)) as { beta: Case[] };

/** |a − b| ≤ tol·max(floor, |b|). */
const near = (a: number, b: number, tol: number, floor = 1, what = '') => {
  if (a !== b) expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(floor, Math.abs(b)));
};
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);

describe('Beta', () => {
  it('logProb, cdf, logCdf, logSurvivalFunction and quantile match 50-digit mpmath, tails included', () => {
    for (const c of fixture.beta) {
      const d = new Beta({ concentration1: c.a, concentration0: c.b });
      const xs = c.rows.map((r) => r.x);
      const lp = arr(d.logProb(xs)), cdf = arr(d.cdf(xs)), lc = arr(d.logCdf(xs)), ls = arr(d.logSurvivalFunction(xs));
      const sf = arr(d.survivalFunction(xs));
      // Large α, β: the tolerance scales with the condition number of I_x near the mean.
      const k = c.a > 100 ? 2e-9 : 1e-12;
      c.rows.forEach((r, i) => {
        const what = `Beta(${c.a}, ${c.b}) at ${r.x}`;
        near(lp[i]!, r.logpdf, 1e-13, 1, `${what} logpdf`);
        near(cdf[i]!, r.cdf, k, 1e-300, `${what} cdf`);
        near(lc[i]!, r.logcdf, k, 1, `${what} logcdf`);
        near(ls[i]!, r.logsf, k, 1e-300, `${what} logsf`);
        near(sf[i]!, Math.exp(r.logsf), k, 1e-300, `${what} sf`);
      });
      const q = arr(d.quantile(c.quantiles.map(([p]) => p)));
      c.quantiles.forEach(([p, x], i) => near(q[i]!, x, c.a > 100 ? 1e-10 : 1e-9, 1e-300, `Beta(${c.a}, ${c.b}) quantile ${p}`));
      near(d.mean().item() as number, c.mean, 1e-15);
      near(d.variance().item() as number, c.variance, 1e-14);
      // TFP's entropy formula cancels terms of size (α + β)·ψ(α + β): about 1e−16·(α + β)·ln(α + β) absolute.
      near(d.entropy().item() as number, c.entropy, 2e-15 * Math.max(10, (c.a + c.b) * Math.log(c.a + c.b)), 1, `entropy ${c.a} ${c.b}`);
    }
  });

  it('agrees with @stdlib at moderate parameters; the log cdf is finite where the cdf underflows', () => {
    const d = new Beta({ concentration1: 2.5, concentration0: 0.8 });
    for (const x of [0.01, 0.2, 0.6, 0.95]) {
      near(d.logProb(x).item() as number, betaLogPdf(x, 2.5, 0.8), 1e-13);
      near(d.cdf(x).item() as number, betaCdf(x, 2.5, 0.8), 1e-13);
      near(d.quantile(betaCdf(x, 2.5, 0.8)).item() as number, betaQuantile(betaCdf(x, 2.5, 0.8), 2.5, 0.8), 1e-12);
    }
    const e = new Beta({ concentration1: 3, concentration0: 2 });
    expect(e.cdf(1e-120).item()).toBe(0);
    // log I_x(3, 2) ≈ 3 ln x + ln(4) for tiny x (B(3, 2) = 1/12, I ≈ x³/(3B)).
    near(e.logCdf(1e-120).item() as number, 3 * Math.log(1e-120) + Math.log(4), 1e-14);
    // Near 1: log I_y(2, 3) ≈ ln(6y²) − 4y/3 with y = 1 − x (as rounded).
    const y = 1 - (1 - 1e-12);
    near(e.logSurvivalFunction(1 - 1e-12).item() as number, Math.log(6 * y * y) - (4 * y) / 3, 1e-14);
  });

  it('support: −∞ log density outside [0, 1], the boundary limits, 0 and 1 cdfs', () => {
    const d = new Beta({ concentration1: [1, 0.5, 3], concentration0: [4, 2, 1] });
    expect(arr(d.logProb(-0.1))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(arr(d.logProb(1.1))).toEqual([-Infinity, -Infinity, -Infinity]);
    const at0 = arr(d.logProb(0)), at1 = arr(d.logProb(1));
    near(at0[0]!, Math.log(4), 1e-15);
    expect([at0[1], at0[2]]).toEqual([Infinity, -Infinity]);
    expect([at1[0], at1[1]]).toEqual([-Infinity, -Infinity]);
    near(at1[2]!, Math.log(3), 1e-15);
    expect(arr(new Beta({ concentration1: 2, concentration0: 2 }).cdf([-1, 0, 1, 2]))).toEqual([0, 0, 1, 1]);
  });

  it('moments, mode (NaN unless both concentrations exceed 1), KL against numerical integration', () => {
    const d = new Beta({ concentration1: [2, 0.5, 3], concentration0: [5, 3, 1] });
    const m = arr(d.mode());
    near(m[0]!, 1 / 5, 1e-15);
    expect(Number.isNaN(m[1]!) && Number.isNaN(m[2]!)).toBe(true);
    expect(() => new Beta({ concentration1: 0.5, concentration0: 2, allowNanStats: false }).mode()).toThrow(RangeError);
    near(arr(d.stddev())[0]!, Math.sqrt(10 / (49 * 8)), 1e-15);
    const a = new Beta({ concentration1: 2.5, concentration0: 1.5 }), b = new Beta({ concentration1: 0.8, concentration0: 3 });
    const n = 200000, xs = Array.from({ length: n }, (_, i) => (i + 0.5) / n);
    const la = arr(a.logProb(xs)), lb = arr(b.logProb(xs));
    const kl = la.reduce((s, l, i) => s + Math.exp(l) * (l - lb[i]!) / n, 0);
    near(a.klDivergence(b).item() as number, kl, 1e-6);
    near(a.klDivergence(a).item() as number, 0, 1e-15);
  });

  it('fused gradients match finite differences (logProb, cdfs, log cdfs in and beyond the underflow, quantile)', () => {
    const make = (p: Record<string, Tensor>) => new Beta({ concentration1: p.a!, concentration0: p.b! });
    const params = { a: [0.7, 3.5], b: [2, 1.2] };
    for (const method of ['logProb', 'cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, [[0.1, 0.6], [0.85, 0.3]], { method, tol: 1e-5 });
    }
    // Where I_x underflows (x = 1e−150, 1e−20 for α = 3, 40): the log-space series and its tangents.
    expectGradients(make, { a: [3, 40], b: [2, 30] }, [1e-150, 1e-20], { method: 'logCdf', tol: 1e-5, skipValue: true });
    const g = new Beta({ concentration1: [3, 40], concentration0: [2, 30] });
    const dx = arr(grad((x: Tensor) => sum(g.logCdf(x)))(tensor([1e-150, 1e-20])) as Tensor);
    near(dx[0]! * 1e-150, 3, 1e-12);
    near(dx[1]! * 1e-20, 40, 1e-12);
    expectGradients(make, params, [[0.1, 0.6], [0.85, 0.3]], { method: 'quantile', tol: 1e-5 });
  });

  it("samples as TFP: splitSeed(seed, { salt: 'beta' }), two log-space gammas, sigmoid(log g₁ − log g₂)", () => {
    const c1 = [0.4, 3], c0 = [2, 25];
    const d = new Beta({ concentration1: c1, concentration0: c0 });
    const x = arr(d.sample(5, { seed: 17 }));
    const [s1, s2] = splitSeed(sanitizeSeed(17), { salt: 'beta' }) as [KeyArray, KeyArray];
    const rep = (v: number[]) => Float64Array.from({ length: 10 }, (_, i) => v[i % 2]!);
    const g1 = randomLogGamma([5, 2], rep(c1), null, s1, 'float64');
    const g2 = randomLogGamma([5, 2], rep(c0), null, s2, 'float64');
    expect(x).toEqual(Array.from(g1, (g, i) => sigmoidScalar(g - g2[i]!)));
    expectSampleShapeInvariance(d);
  });

  it('draws fit Beta(α, β) (KS)', () => {
    const c1 = [0.3, 2, 200], c0 = [0.3, 5, 50];
    const x = new Beta({ concentration1: c1, concentration0: c0 }).sample(20000, { seed: 3 });
    c1.forEach((a, j) => expectKS(column(x, j, 3), (v) => betaCdf(v, a, c0[j]!), `Beta(${a}, ${c0[j]})`));
  });

  it('bijector is Sigmoid onto (0, 1); bad input names the parameter and the shapes', () => {
    const b = new Beta({ concentration1: 1, concentration0: 1 }).defaultEventSpaceBijector();
    expect(b.forward(0).item()).toBe(0.5);
    expect(() => new Beta({ concentration1: -1, concentration0: 1, validateArgs: true })).toThrow(/Beta: `concentration1` must be positive; got -1/);
    expect(() => new Beta({ concentration1: 1, concentration0: [1, 0], validateArgs: true })).toThrow(/`concentration0\[1\]` must be positive/);
    expect(() => new Beta({ concentration1: 1 } as never)).toThrow(/`concentration0` is required/);
    expect(() => new Beta({ concentration1: [1, 2], concentration0: [1, 2, 3] })).toThrow(/`concentration1` \[2\] and `concentration0` \[3\]/);
    expect(() => new Beta({ concentration1: 1, concentration0: 1, validateArgs: true }).logProb(1.5)).toThrow(/Beta.logProb: `value` must be in \[0, 1\]/);
    expect(Number.isNaN(new Beta({ concentration1: -1, concentration0: 1 }).sample(1, { seed: 0 }).item() as number)).toBe(true);
  });
});
