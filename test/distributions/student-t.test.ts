// StudentT: log density, cdf, log cdf, log survival, quantile and entropy against an mpmath
// table (fixtures/student-t.json from fixtures/student-t.py: ν from 0.05 to 1e10, |t| up to
// 1e150, p down to 1e-300), moderate values against @stdlib, moments, fused gradients against
// finite differences, TFP's seed structure rebuilt by hand (salt 'student_t', normal + gamma),
// KS goodness of fit (3 tests, n = 20000 each, ALPHA = 1e-6 per test: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tLogPdf from '@stdlib/stats-base-dists-t-logpdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import { Identity } from '../../distributions/bijectors/identity.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { StudentT } from '../../distributions/student-t.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { grad as gradTree } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectGradients, expectKS, expectSampleShapeInvariance } from './harness.js';

interface Row { df: number; t: number; logPdf: number; cdf: number; logCdf: number; logSf: number }
interface QRow { df: number; p: number; q: number | string }
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/student-t.json', import.meta.url)), 'utf8')) as
  { values: Row[]; quantiles: QRow[]; entropies: { df: number; entropy: number }[] };

/** |a − b| ≤ rel·max(floor, |b|). */
const close = (a: number, b: number, rel: number, floor = 1, what = '') =>
  expect(a === b ? 0 : Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(floor, Math.abs(b)));
const data = (t: Tensor) => t.data as Float64Array;

/** The gradient of a function of one tensor, as a tensor. */
const grad = (f: (x: Tensor) => Tensor) => (x: Tensor) => gradTree(f)(x) as Tensor;

describe('StudentT', () => {
  it('matches the mpmath table in every corner (log density, cdf, log cdf, log survival)', () => {
    // Measured worst relative errors: logProb 9e-16, cdf 9e-14, logCdf and logSurvival 1.2e-15.
    const rows = fixture.values;
    const loc = 1.5, scale = 2;
    const d = new StudentT({ df: rows.map((r) => r.df), loc, scale });
    const xs = rows.map((r) => loc + scale * r.t);
    const lp = data(d.logProb(xs)), cdf = data(d.cdf(xs)), lc = data(d.logCdf(xs));
    const sf = data(d.survivalFunction(xs)), ls = data(d.logSurvivalFunction(xs));
    rows.forEach((r, i) => {
      const at = `df=${r.df} t=${r.t}`;
      close(lp[i]!, r.logPdf - Math.log(scale), 1e-14, 1, `logProb ${at}`);
      close(cdf[i]!, r.cdf, 2e-13, 1e-300, `cdf ${at}`);
      close(lc[i]!, r.logCdf, 1e-14, 1, `logCdf ${at}`);
      close(ls[i]!, r.logSf, 1e-14, 1, `logSurvival ${at}`);
      close(sf[i]!, Math.exp(r.logSf), 2e-13, 1e-300, `survival ${at}`);
    });
    // The log cdf stays finite where the cdf underflows (ν = 30, t = −1e20: log cdf ≈ −1375).
    expect(rows.some((r, i) => cdf[i] === 0 && Number.isFinite(lc[i]!))).toBe(true);
  });

  it('quantile matches the mpmath table, p from 1e-300 to 1 − 1e-12 (worst 1e-13)', () => {
    const rows = fixture.quantiles;
    const d = new StudentT({ df: rows.map((r) => r.df), loc: 0, scale: 1 });
    const q = data(d.quantile(rows.map((r) => r.p)));
    rows.forEach((r, i) => close(q[i]!, Number(r.q), 2e-13, 1e-300, `quantile df=${r.df} p=${r.p}`));
    const e = new StudentT({ df: 3, loc: -1, scale: 0.5 });
    expect(e.quantile([0, 0.5, 1]).toArray()).toEqual([-Infinity, -1, Infinity]);
    expect(Number.isNaN(e.quantile(1.5).item() as number)).toBe(true);
  });

  it('agrees with @stdlib over moderate values', () => {
    for (const [df, m, s] of [[1, 0, 1], [2.5, -1, 0.5], [12, 3, 4]] as const) {
      const d = new StudentT({ df, loc: m, scale: s });
      const xs = [-40, -3, -0.2, 0, 0.7, 5, 90].map((z) => m + s * z);
      const lp = data(d.logProb(xs)), cdf = data(d.cdf(xs));
      xs.forEach((x, i) => {
        close(lp[i]!, tLogPdf((x - m) / s, df) - Math.log(s), 1e-12);
        close(cdf[i]!, tCdf((x - m) / s, df), 1e-12, 1e-300);
      });
      const ps = [1e-8, 0.05, 0.5, 0.8, 0.999];
      const q = data(d.quantile(ps));
      ps.forEach((p, i) => close(q[i]!, m + s * tQuantile(p, df), 1e-10));
    }
  });

  it('moments follow TFP: mean NaN for ν ≤ 1, variance ∞ for 1 < ν ≤ 2 and NaN for ν ≤ 1', () => {
    const d = new StudentT({ df: [0.5, 1, 1.5, 2, 3, 10], loc: 2, scale: 3 });
    expect(d.mean().toArray()).toEqual([NaN, NaN, 2, 2, 2, 2]);
    expect(d.variance().toArray()).toEqual([NaN, NaN, Infinity, Infinity, 27, 9 * 10 / 8]);
    expect(d.stddev().toArray()).toEqual([NaN, NaN, Infinity, Infinity, Math.sqrt(27), Math.sqrt(90 / 8)]);
    expect(d.mode().toArray()).toEqual([2, 2, 2, 2, 2, 2]);
    expect(() => new StudentT({ df: 1, loc: 0, scale: 1, allowNanStats: false }).mean()).toThrow(/StudentT.mean/);
    expect(new StudentT({ df: 3, loc: 0, scale: 1, allowNanStats: false }).mean().item()).toBe(0);
    const ent = fixture.entropies;
    const h = data(new StudentT({ df: ent.map((r) => r.df), loc: 0, scale: 2 }).entropy());
    ent.forEach((r, i) => close(h[i]!, r.entropy + Math.log(2), 1e-14, 1, `entropy df=${r.df}`));
    expect(new StudentT({ df: 3, loc: 0, scale: 1 }).defaultEventSpaceBijector()).toBeInstanceOf(Identity);
  });

  it('fused gradients of every method match finite differences (value, df, loc, scale)', () => {
    const make = (p: Record<string, Tensor>) => new StudentT({ df: p.df!, loc: p.loc!, scale: p.scale! });
    const params = { df: [0.8, 4.5, 60], loc: [0.5, -1, 2], scale: [1.3, 0.4, 2] };
    const value = [[0.1, 2, -3], [-2.7, -1.2, 40]];
    for (const method of ['logProb', 'cdf', 'logCdf', 'survivalFunction', 'logSurvivalFunction'] as const) {
      expectGradients(make, params, value, { method, tol: 1e-5 });
    }
    expectGradients(make, params, [[0.1, 0.2, 0.9], [0.7, 0.95, 0.02]], { method: 'quantile', tol: 1e-5 });
    // Moments and entropy are differentiable too.
    const g = grad((df: Tensor) => sum(new StudentT({ df, loc: 0, scale: 2 }).entropy()))(tensor([0.7, 3, 250]));
    const f = (v: number) => new StudentT({ df: v, loc: 0, scale: 2 }).entropy().item() as number;
    [0.7, 3, 250].forEach((v, i) => close(data(g)[i]!, (f(v * (1 + 1e-6)) - f(v * (1 - 1e-6))) / (2e-6 * v), 1e-5));
  });

  it("samples as TFP: splitSeed(seed, 'student_t') → normal · (G/ν)^(−½), G ~ Gamma(ν/2, rate ½)", () => {
    const df = [0.6, 1.5, 3, 40], loc = [0, 1, -2, 5], scale = [1, 2, 0.5, 3], n = 7;
    const x = data(new StudentT({ df, loc, scale }).sample(n, { seed: [5, 6] }));
    const [normalSeed, gammaSeed] = splitSeed([5, 6], { salt: 'student_t' }) as [KeyArray, KeyArray];
    const shape = [n, 4];
    const z = data(samplersNormal(shape, { seed: normalSeed }));
    // ν/2 ≥ 1: TFP's random_gamma is the rejection draw; exp of our log-space draw with log rate log ½.
    const conc = new Float64Array(n * 4), logRate = new Float64Array(n * 4).fill(Math.log(0.5));
    for (let i = 0; i < n * 4; i++) { const a = df[i % 4]! / 2; conc[i] = a < 1 ? a + 1 : a; }
    const logG = randomLogGamma(shape, conc, logRate, gammaSeed, 'float64');
    // ν/2 < 1: the draw for ν/2 + 1 (same trials) times U^(2/ν), U from random_gamma's second seed.
    const fixSeed = splitSeed(sanitizeSeed(gammaSeed, { salt: 'random_gamma' }), { salt: 'random_gamma' })[1]!;
    const u = data(samplersUniform(shape, { seed: fixSeed }));
    for (let i = 0; i < n * 4; i++) {
      const j = i % 4, a = df[j]! / 2;
      const g = Math.exp(logG[i]!) * (a < 1 ? u[i]! ** (1 / a) : 1);
      close(x[i]!, (z[i]! / Math.sqrt(g / df[j]!)) * scale[j]! + loc[j]!, 1e-13, 1, `draw ${i}`);
    }
    expectSampleShapeInvariance(new StudentT({ df: [0.5, 7], loc: 0, scale: 1 }));
  });

  it('draws fit StudentT (KS, ν = 0.7, 2.5, 30)', () => {
    const d = new StudentT({ df: [0.7, 2.5, 30], loc: [0, 10, -1], scale: [1, 0.01, 5] });
    const x = d.sample(20000, { seed: 17 });
    expectKS(column(x, 0, 3), (v) => tCdf(v, 0.7), 'ν = 0.7');
    expectKS(column(x, 1, 3), (v) => tCdf((v - 10) / 0.01, 2.5), 'ν = 2.5');
    expectKS(column(x, 2, 3), (v) => tCdf((v + 1) / 5, 30), 'ν = 30');
  });

  it('draws are differentiable in loc and scale', () => {
    const g = grad((s: Tensor) => sum(new StudentT({ df: 4, loc: 0, scale: s }).sample(5, { seed: 3 })))(tensor(2));
    const z = data(new StudentT({ df: 4, loc: 0, scale: 1 }).sample(5, { seed: 3 }));
    close(g.item() as number, z.reduce((a, b) => a + b, 0), 1e-14);
  });

  it('bad input: names the parameter and both shapes', () => {
    expect(() => new StudentT({ df: 0, loc: 0, scale: 1, validateArgs: true })).toThrow(/StudentT: `df` must be positive/);
    expect(() => new StudentT({ df: [1, -2], loc: 0, scale: 1, validateArgs: true })).toThrow(/`df\[1\]` must be positive/);
    expect(() => new StudentT({ df: 1, loc: 0, scale: -1, validateArgs: true })).toThrow(/StudentT: `scale` must be positive/);
    expect(() => new StudentT({ df: 1, loc: 0 } as never)).toThrow(/StudentT: `scale` is required/);
    expect(() => new StudentT({ df: [1, 2], loc: [1, 2, 3], scale: 1 })).toThrow(/`df` \[2\] and `loc` \[3\]/);
    const d = new StudentT({ df: [1, 2], loc: 0, scale: 1 });
    expect(() => d.logProb([1, 2, 3])).toThrow(/StudentT.logProb.*`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
    expect(() => new StudentT({ df: 1, loc: 0, scale: 1, validateArgs: true }).quantile(-0.1)).toThrow(/`p` must be in \[0, 1\]/);
    // Without validateArgs a bad df is not checked (TFP): NaN, not an error.
    expect(Number.isNaN(new StudentT({ df: -1, loc: 0, scale: 1 }).logProb(0).item() as number)).toBe(true);
  });
});
