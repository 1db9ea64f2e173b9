// Binomial: log pmf and cdf against @stdlib (moderate n) and an mpmath table (n up to 1e12,
// fixtures/binomial.py), fused gradients against finite differences, TFP's seed structure
// (salt 'binomial', [inversion, btrs] split, the inversion loop and the first BTRS trial
// assembled by hand), chi-square goodness of fit at fixed seeds (n = 20000 draws per test,
// 9 tests at ALPHA = 1e-6: false-failure rate < 1e-5).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import binomialLogPmf from '@stdlib/stats-base-dists-binomial-logpmf';
import binomialPmf from '@stdlib/stats-base-dists-binomial-pmf';
import { Binomial } from '../../distributions/binomial.js';
import { NotImplementedError } from '../../distributions/distribution.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { ALPHA, chiSquarePValue } from '../stats.js';
import { column, expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';

const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const fixture = JSON.parse(readFileSync(new URL('./fixtures/binomial.json', import.meta.url), 'utf8')) as
  { n: number; p: number; k: number; logpmf: number; cdf?: number; sf?: number; logcdf?: number | null; logsf?: number | null }[];

/** Chi-square over bins [e₀, e₁), [e₁, e₂), … (integer edges, outer bins open), probabilities from `cdf`. */
function expectBinnedChiSquare(values: ArrayLike<number>, cdf: (k: number) => number, edges: number[], label: string): void {
  const counts = new Float64Array(edges.length + 1), probs = new Float64Array(edges.length + 1);
  for (let i = 0; i < values.length; i++) {
    let b = 0;
    while (b < edges.length && values[i]! >= edges[b]!) b++;
    counts[b]! += 1;
  }
  let prev = 0;
  edges.forEach((e, b) => { const c = cdf(e - 1); probs[b] = c - prev; prev = c; });
  probs[edges.length] = 1 - prev;
  const p = chiSquarePValue(counts, probs);
  expect(p, `${label}: p-value ${p}`).toBeGreaterThan(ALPHA);
}

describe('Binomial', () => {
  it('logProb matches @stdlib for n ≤ 1000, p near 0 and 1, from probs and from logits', () => {
    for (const n of [0, 1, 7, 50, 1000]) {
      for (const p of [1e-10, 0.03, 0.5, 0.77, 1 - 1e-9]) {
        const ks = [...new Set([0, 1, Math.floor(n / 3), Math.floor(n * p), n])].filter((k) => k <= n);
        const a = arr(new Binomial({ totalCount: n, probs: p }).logProb(ks));
        const b = arr(new Binomial({ totalCount: n, logits: Math.log(p) - Math.log1p(-p) }).logProb(ks));
        ks.forEach((k, i) => {
          close(a[i]!, binomialLogPmf(k, n, p), 1e-12);
          close(b[i]!, binomialLogPmf(k, n, p), 1e-9);   // logits round-trip p to ~1e-16 relative (1 − p to ~1e-7 at p = 1 − 1e-9)
        });
      }
    }
    // Degenerate p = 0 and p = 1, and values outside the support.
    expect(arr(new Binomial({ totalCount: 5, probs: [0, 1] }).logProb([[0], [5], [2]]))).toEqual([0, -Infinity, -Infinity, 0, -Infinity, -Infinity]);
    expect(arr(new Binomial({ totalCount: 5, probs: 0.4 }).logProb([-1, 6, 2.5, Infinity]))).toEqual([-Infinity, -Infinity, -Infinity, -Infinity]);
    expect(arr(new Binomial({ totalCount: 5, logits: [-Infinity, Infinity] }).logProb([[0], [5]]))).toEqual([0, -Infinity, -Infinity, 0]);
    expect(Number.isNaN(new Binomial({ totalCount: 5, probs: 0.4 }).logProb(NaN).item() as number)).toBe(true);
    // Extreme logits: p underflows to 0 but the log mass stays finite.
    close(new Binomial({ totalCount: 3, logits: -800 }).logProb(2).item() as number, -1600 + Math.log(3), 1e-14);
  });

  it('logProb, cdf and survival function match the mpmath table for n = 1e6 … 1e12', () => {
    for (const r of fixture) {
      const d = new Binomial({ totalCount: r.n, probs: r.p });
      close(d.logProb(r.k).item() as number, r.logpmf, 1e-13);
      if (r.cdf === undefined) continue;
      close(d.cdf(r.k).item() as number, r.cdf, 1e-10);
      close(d.survivalFunction(r.k).item() as number, r.sf!, 1e-10);
      // Including the far tails (log cdf down to −7e8), where the cdf itself underflows.
      if (r.logcdf != null) close(d.logCdf(r.k).item() as number, r.logcdf, 1e-10);
      if (r.logsf != null) close(d.logSurvivalFunction(r.k).item() as number, r.logsf, 1e-10);
    }
  });

  it('cdf matches @stdlib (⌊k⌋ for non-integers, 0 below the support, 1 above)', () => {
    for (const [n, p] of [[10, 0.3], [200, 0.97], [1000, 1e-3]] as const) {
      const d = new Binomial({ totalCount: n, probs: p });
      const ks = [-1, 0, 1.5, Math.floor(n * p), n - 1, n, n + 3];
      const c = arr(d.cdf(ks)), s = arr(d.survivalFunction(ks));
      ks.forEach((k, i) => {
        close(c[i]!, binomialCdf(Math.floor(k), n, p), 1e-12);
        close(s[i]!, 1 - binomialCdf(Math.floor(k), n, p), 1e-12);
      });
    }
  });

  it('mean, variance, mode (the larger of two modes, as TFP)', () => {
    const d = new Binomial({ totalCount: [10, 9, 4], probs: [0.25, 0.5, 1] });
    expect(arr(d.mean())).toEqual([2.5, 4.5, 4]);
    expect(arr(d.variance())).toEqual([1.875, 2.25, 0]);
    expect(arr(d.mode())).toEqual([2, 5, 4]);
    close(arr(new Binomial({ totalCount: 10, logits: 40 }).variance())[0]!, 10 * Math.exp(-40), 1e-14);
    expect(() => d.entropy()).toThrow(NotImplementedError);
  });

  it('gradients of logProb, cdf and survival in totalCount and logits/probs match finite differences', () => {
    const byProbs = (p: Record<string, Tensor>) => new Binomial({ totalCount: p.totalCount!, probs: p.probs! });
    const byLogits = (p: Record<string, Tensor>) => new Binomial({ totalCount: p.totalCount!, logits: p.logits! });
    const value = [[0, 3, 7], [2, 5, 12]];
    expectGradients(byProbs, { totalCount: [12, 15, 30], probs: [0.2, 0.5, 0.9] }, value, { skipValue: true });
    expectGradients(byLogits, { totalCount: [12, 15, 30], logits: [-1, 0.3, 2] }, value, { skipValue: true });
    for (const method of ['cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients(byProbs, { totalCount: [12, 15, 30], probs: [0.2, 0.5, 0.9] }, value, { skipValue: true, method, tol: 1e-5 });
      expectGradients(byLogits, { totalCount: [12, 15, 30], logits: [-1, 0.3, 2] }, value, { skipValue: true, method, tol: 1e-5 });
    }
  });

  it('log tails past the underflow: values and probability gradients', () => {
    const d = new Binomial({ totalCount: 5000, probs: 0.5 });
    close(d.logCdf(0).item() as number, 5000 * Math.log(0.5), 1e-15);
    close(d.logCdf(1).item() as number, 5000 * Math.log(0.5) + Math.log(5001), 1e-14);
    close(d.logSurvivalFunction(4998).item() as number, 5000 * Math.log(0.5) + Math.log(5001), 1e-14);
    const byProbs = (p: Record<string, Tensor>) => new Binomial({ totalCount: 5000, probs: p.probs! });
    const byLogits = (p: Record<string, Tensor>) => new Binomial({ totalCount: 5000, logits: p.logits! });
    expectGradients(byProbs, { probs: [0.5] }, [[3], [4990]], { method: 'logCdf', skipValue: true });
    expectGradients(byLogits, { logits: [0.2] }, [[10], [4990]], { method: 'logSurvivalFunction', skipValue: true });
  });

  it('seed discipline: salt "binomial", [inversion, btrs] split, the inversion loop by hand', () => {
    // Every element has n·q < 10, so the draw is the inversion count (flipped where p ≥ ½).
    const counts = [5, 12, 30, 7], probs = [0.3, 0.5, 0.9, 0.1];
    const d = new Binomial({ totalCount: counts, probs });
    const got = arr(d.sample(3, { seed: [11, 22] }));
    const salted = sanitizeSeed([11, 22], { salt: 'binomial' });
    const [inversionSeed] = splitSeed(salted) as [KeyArray, KeyArray];
    const q = probs.map((p) => Math.min(p, 1 - p));
    const sum = new Float64Array(12), num = new Float64Array(12);
    let s = inversionSeed, going = true;
    while (going) {
      const [uSeed, next] = splitSeed(s) as [KeyArray, KeyArray];
      const u = uniform([3, 4], { seed: uSeed }).data as Float64Array;
      going = false;
      for (let i = 0; i < 12; i++) {
        sum[i]! += Math.ceil(Math.log(u[i]!) / Math.log1p(-q[i % 4]!));
        if (sum[i]! <= counts[i % 4]!) { num[i]! += 1; going = true; }
      }
      s = next;
    }
    expect(got).toEqual(Array.from(num, (k, i) => (probs[i % 4]! < 0.5 ? k : counts[i % 4]! - k)));
  });

  it('seed discipline: a first BTRS trial accepted in the box is the draw', () => {
    const n = 1000, p = 0.3, sd = Math.sqrt(n * p * (1 - p));
    const b = 1.15 + 2.53 * sd, a = -0.0873 + 0.0248 * b + 0.01 * p, c = n * p + 0.5;
    let checked = 0;
    for (let seed = 0; seed < 40; seed++) {
      const salted = sanitizeSeed(seed, { salt: 'binomial' });
      const [, btrsSeed] = splitSeed(salted) as [KeyArray, KeyArray];
      const [initSeed] = splitSeed(btrsSeed) as [KeyArray, KeyArray];
      const [uSeed, vSeed] = splitSeed(initSeed) as [KeyArray, KeyArray];
      const u = (uniform([1], { seed: uSeed }).data[0] as number) - 0.5, v = uniform([1], { seed: vSeed }).data[0] as number;
      const us = 0.5 - Math.abs(u), k = Math.floor((2 * a / us + b) * u + c);
      if (!(us >= 0.07 && v <= 0.92 - 4.2 / b && k >= 0 && k <= n)) continue;
      checked++;
      expect(new Binomial({ totalCount: n, probs: p }).sample(1, { seed }).data[0]).toBe(k);
      expect(new Binomial({ totalCount: n, probs: 1 - p }).sample(1, { seed }).data[0]).toBe(n - k);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('draws fit the pmf (chi-square, n = 20000): inversion, BTRS, flips, p near 0 and 1', () => {
    const cases = [[10, 0.3], [100, 0.3], [20, 0.999], [60, 0.8], [1e4, 1e-4]] as const;
    const d = new Binomial({ totalCount: cases.map((c) => c[0]), probs: cases.map((c) => c[1]) });
    const x = d.sample(20000, { seed: 3 });
    cases.forEach(([n, p], j) => {
      const v = column(x, j, cases.length);
      const kMax = Math.min(n, Math.ceil(n * p + 5 * Math.sqrt(n * p * (1 - p)) + 3));
      // Flip near p = 1 so the lumped top bin is the sparse tail: count failures.
      const flip = p > 0.5;
      const vals = flip ? v.map((k) => n - k) : v;
      expectChiSquare(vals, (k) => binomialPmf(k, n, flip ? 1 - p : p), flip ? Math.min(n, Math.ceil(n * (1 - p) + 5 * Math.sqrt(n * p * (1 - p)) + 3)) : kMax, `n=${n} p=${p}`);
    });
  });

  it('draws fit huge counts (BTRS at n = 1e6 and 1e9; binned chi-square, n = 20000)', () => {
    const cases = [[1e6, 0.3], [1e9, 0.5], [1e9, 2e-8]] as const;
    const d = new Binomial({ totalCount: cases.map((c) => c[0]), probs: cases.map((c) => c[1]) });
    const x = d.sample(20000, { seed: 8 });
    cases.forEach(([n, p], j) => {
      const mean = n * p, sd = Math.sqrt(n * p * (1 - p));
      const edges = [...new Set([-2.5, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2.5].map((z) => Math.max(1, Math.round(mean + z * sd))))];
      // Reference: Binomial.cdf, checked against mpmath above (@stdlib's cdf is off by 0.02 at n = 1e9).
      const ref = new Binomial({ totalCount: n, probs: p });
      expectBinnedChiSquare(column(x, j, 3), (k) => ref.cdf(k).item() as number, edges, `n=${n} p=${p}`);
    });
    // p = 0 and p = 1, total count 0.
    expect(arr(new Binomial({ totalCount: [1e9, 1e9, 0], probs: [0, 1, 0.5] }).sample(2, { seed: 1 }))).toEqual([0, 1e9, 0, 0, 1e9, 0]);
  });

  it('float32 parameters give float32 draws; sample shape invariance; slicing', () => {
    const d = new Binomial({ totalCount: tensor([10, 400], 'float32'), probs: tensor([0.3, 0.6], 'float32') });
    expect(d.sample(4, { seed: 0 }).dtype).toBe('float32');
    expectSampleShapeInvariance(d);
    expectSampleShapeInvariance(new Binomial({ totalCount: [[3], [500]], logits: [0.1, -2] }));
    expect(new Binomial({ totalCount: [[3], [500]], logits: [0.1, -2] }).slice(1, 0).mean().toArray()).toBeCloseTo(500 / (1 + Math.exp(-0.1)), 10);
  });

  it('bad input: names the parameter, the value shape, and the method', () => {
    expect(() => new Binomial({ totalCount: 3 })).toThrow(/Binomial: `logits` or `probs` must be given/);
    expect(() => new Binomial({ totalCount: 3, logits: 0, probs: 0.5 })).toThrow(TypeError);
    expect(() => new Binomial({ probs: 0.5 } as never)).toThrow(/`totalCount` is required/);
    expect(() => new Binomial({ totalCount: 2.5, probs: 0.5, validateArgs: true })).toThrow(/`totalCount` must be a non-negative integer/);
    expect(() => new Binomial({ totalCount: -1, probs: 0.5, validateArgs: true })).toThrow(RangeError);
    expect(() => new Binomial({ totalCount: 3, probs: 1.5, validateArgs: true })).toThrow(/`probs` must be in \[0, 1\]/);
    expect(() => new Binomial({ totalCount: [1, 2], probs: [0.1, 0.2, 0.3] })).toThrow(/`totalCount` \[2\] and `probs` \[3\]/);
    const v = new Binomial({ totalCount: [3, 5], probs: 0.5, validateArgs: true });
    expect(() => v.logProb([3, 6])).toThrow(/Binomial.logProb: `value\[1\]` must be an integer in \[0, totalCount\]/);
    expect(() => v.logProb([0.5, 1])).toThrow(RangeError);
    expect(() => v.logProb([1, 1, 1])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
    expect(() => v.defaultEventSpaceBijector()).toThrow(NotImplementedError);
  });
});
