// Poisson: log pmf and cdf against @stdlib (λ ≤ 123) and an mpmath table (λ up to 1e7,
// fixtures/poisson.py), fused gradients against finite differences, TFP's seed structure
// ([lo, hi] split, Knuth's loop and the first PTRS trial assembled by hand), chi-square
// goodness of fit at fixed seeds (n = 20000 draws per rate, 8 tests at ALPHA = 1e-6:
// false-failure rate < 1e-5).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import poissonCdf from '@stdlib/stats-base-dists-poisson-cdf';
import poissonLogPmf from '@stdlib/stats-base-dists-poisson-logpmf';
import poissonPmf from '@stdlib/stats-base-dists-poisson-pmf';
import { NotImplementedError } from '../../distributions/distribution.js';
import { Poisson } from '../../distributions/poisson.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { ALPHA, chiSquarePValue } from '../stats.js';
import { column, expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';

const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const fixture = JSON.parse(readFileSync(new URL('./fixtures/poisson.json', import.meta.url), 'utf8')) as
  { rate: number; k: number; logpmf: number; cdf: number; sf: number; logcdf: number; logsf: number }[];

describe('Poisson', () => {
  it('logProb and cdf match @stdlib for λ from 1e-300 to 123, from rate and logRate', () => {
    for (const lam of [1e-300, 1e-10, 0.5, 7, 10, 123.4]) {
      const ks = [0, 1, 5, 9, 10, Math.floor(lam), Math.floor(lam + 5 * Math.sqrt(lam)) + 2];
      const a = arr(new Poisson({ rate: lam }).logProb(ks)), b = arr(new Poisson({ logRate: Math.log(lam) }).logProb(ks));
      const c = arr(new Poisson({ rate: lam }).cdf(ks));
      ks.forEach((k, i) => {
        close(a[i]!, poissonLogPmf(k, lam), 1e-13);
        close(b[i]!, poissonLogPmf(k, lam), 1e-13);
        close(c[i]!, poissonCdf(k, lam), 1e-13);
      });
    }
    expect(arr(new Poisson({ rate: 0 }).logProb([0, 1]))).toEqual([-0, -Infinity]);
    expect(arr(new Poisson({ rate: 3 }).logProb([-1, 2.5, Infinity]))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(arr(new Poisson({ logRate: -Infinity }).logProb([0, 3]))).toEqual([-0, -Infinity]);
    const c = arr(new Poisson({ rate: 3 }).cdf([-0.5, 2.7]));
    expect(c[0]).toBe(0);
    close(c[1]!, poissonCdf(2, 3), 1e-14);
  });

  it('logProb, cdf, survival (and their logs) match the mpmath table for λ = 123.4, 1e4, 1e7', () => {
    for (const r of fixture) {
      const d = new Poisson({ rate: r.rate });
      close(d.logProb(r.k).item() as number, r.logpmf, 1e-13);
      close(d.cdf(r.k).item() as number, r.cdf, 1e-11);
      close(d.survivalFunction(r.k).item() as number, r.sf, 1e-11);
      close(d.logCdf(r.k).item() as number, r.logcdf, 1e-11);
      close(d.logSurvivalFunction(r.k).item() as number, r.logsf, 1e-11);
    }
  });

  it('logCdf and logSurvivalFunction stay finite far in the tails (series past the underflow)', () => {
    const d = new Poisson({ rate: 1e4 });
    // log P[X ≤ 0] = −λ exactly; log P[X ≤ 1] = −λ + log(1 + λ).
    close(d.logCdf(0).item() as number, -1e4, 1e-15);
    close(d.logCdf(1).item() as number, -1e4 + Math.log1p(1e4), 1e-15);
    // log P[X > 3e4] against the sum of the log pmf series done here by hand.
    let s = 0, t = 1;
    for (let j = 30001; t > 1e-20; j++) { s += t; t *= 1e4 / (j + 1); }
    close(d.logSurvivalFunction(3e4).item() as number, poissonLogPmf(30001, 1e4) + Math.log(s), 1e-12);
    close(new Poisson({ rate: 1e-200 }).logSurvivalFunction(3).item() as number, 4 * Math.log(1e-200) - Math.log(24), 1e-14);
    expectGradients((p) => new Poisson({ rate: p.rate! }), { rate: [1e4] }, [[0], [40], [3e4]], { method: 'logCdf', skipValue: true, eps: 1e-8 });
    expectGradients((p) => new Poisson({ logRate: p.logRate! }), { logRate: [Math.log(1e4)] }, [[3e4], [11000]], { method: 'logSurvivalFunction', skipValue: true, eps: 1e-9 });
  });

  it('mean, variance, mode', () => {
    const d = new Poisson({ logRate: [Math.log(3), Math.log(0.5)] });
    close(arr(d.mean())[0]!, 3, 1e-15);
    expect(arr(d.variance())).toEqual(arr(d.mean()));
    expect(arr(new Poisson({ rate: [3, 0.5, 7.9] }).mode())).toEqual([3, 0, 7]);
    expect(() => d.entropy()).toThrow(NotImplementedError);
  });

  it('gradients of logProb, cdf and survival in rate and logRate match finite differences', () => {
    const value = [[0, 3, 12], [1, 7, 40]];
    for (const method of ['logProb', 'cdf', 'survivalFunction', 'logCdf', 'logSurvivalFunction'] as const) {
      expectGradients((p) => new Poisson({ rate: p.rate! }), { rate: [0.7, 5, 30] }, value, { method, skipValue: true, tol: 1e-6 });
      expectGradients((p) => new Poisson({ logRate: p.logRate! }), { logRate: [-0.3, 1.6, 3.4] }, value, { method, skipValue: true, tol: 1e-6 });
    }
  });

  it("seed discipline: no salt, [lo, hi] split, Knuth's loop by hand for λ < 10", () => {
    const rates = [0.3, 4, 9.5];
    const got = arr(new Poisson({ rate: rates }).sample(2, { seed: [7, 8] }));
    const [seedLo] = splitSeed([7, 8]) as [KeyArray, KeyArray];
    const prod = new Float64Array(6).fill(1), want = new Float64Array(6), going = new Uint8Array(6).fill(1);
    let s = seedLo;
    for (let it = 0; going.includes(1); it++) {
      const [uSeed, next] = splitSeed(s) as [KeyArray, KeyArray];
      const u = uniform([2, 3], { seed: uSeed }).data as Float64Array;
      for (let i = 0; i < 6; i++) {
        prod[i]! *= u[i]!;
        if (going[i] && prod[i]! <= Math.exp(-rates[i % 3]!)) { want[i] = it; going[i] = 0; }
      }
      s = next;
    }
    expect(got).toEqual(Array.from(want));
  });

  it('seed discipline: a first PTRS trial accepted in the box is the draw (λ ≥ 10)', () => {
    const lam = 250, b = 0.931 + 2.53 * Math.sqrt(lam), a = -0.059 + 0.02483 * b;
    let checked = 0;
    for (let seed = 0; seed < 30; seed++) {
      const [, seedHi] = splitSeed(seed) as [KeyArray, KeyArray];
      const [initSeed] = splitSeed(seedHi) as [KeyArray, KeyArray];
      const [uSeed, vSeed] = splitSeed(initSeed) as [KeyArray, KeyArray];
      const u = (uniform([1], { seed: uSeed }).data[0] as number) - 0.5, v = uniform([1], { seed: vSeed }).data[0] as number;
      const us = 0.5 - Math.abs(u), k = Math.floor((2 * a / us + b) * u + lam + 0.43);
      if (!(us >= 0.07 && v <= 0.9277 - 3.6224 / (b - 2) && k >= 0)) continue;
      checked++;
      expect(new Poisson({ rate: lam }).sample(1, { seed }).data[0]).toBe(k);
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('draws fit the pmf (chi-square, n = 20000): tiny rates, both sides of λ = 10, and λ = 50', () => {
    const rates = [1e-3, 0.7, 3, 9.99, 10, 50];
    const x = new Poisson({ rate: rates }).sample(20000, { seed: 21 });
    rates.forEach((lam, j) => {
      expectChiSquare(column(x, j, rates.length), (k) => poissonPmf(k, lam), Math.ceil(lam + 5 * Math.sqrt(lam) + 2), `λ=${lam}`);
    });
    expect(arr(new Poisson({ rate: [0, 1e-300] }).sample(3, { seed: 0 }))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('draws fit λ = 1e4 and 1e7 (binned chi-square on the cdf, checked above against mpmath)', () => {
    for (const lam of [1e4, 1e7]) {
      const v = new Poisson({ rate: lam }).sample(20000, { seed: 5 }).data as Float64Array;
      const ref = new Poisson({ rate: lam }), sd = Math.sqrt(lam);
      const edges = [-2.5, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2.5].map((z) => Math.round(lam + z * sd));
      const counts = new Float64Array(edges.length + 1), probs = new Float64Array(edges.length + 1);
      for (const k of v) { let b = 0; while (b < edges.length && k >= edges[b]!) b++; counts[b]! += 1; }
      let prev = 0;
      edges.forEach((e, b) => { const c = ref.cdf(e - 1).item() as number; probs[b] = c - prev; prev = c; });
      probs[edges.length] = 1 - prev;
      const p = chiSquarePValue(counts, probs);
      expect(p, `λ=${lam}: p-value ${p}`).toBeGreaterThan(ALPHA);
    }
  });

  it('sample shape invariance; NaN rates give NaN draws', () => {
    expectSampleShapeInvariance(new Poisson({ rate: [[2], [40]] }));
    expect(arr(new Poisson({ logRate: [NaN, 0] }).sample(1, { seed: 0 }))[0]).toBeNaN();
  });

  it('bad input: names the parameter, the value shape, and the method', () => {
    expect(() => new Poisson({})).toThrow(/Poisson: `rate` or `logRate` must be given/);
    expect(() => new Poisson({ rate: -1, validateArgs: true })).toThrow(/`rate` must be non-negative/);
    expect(() => new Poisson({ logRate: NaN, validateArgs: true })).toThrow(/`logRate` must not be NaN/);
    const v = new Poisson({ rate: [1, 2], validateArgs: true });
    expect(() => v.logProb([1, 1.5])).toThrow(/Poisson.logProb: `value\[1\]` must be a non-negative integer/);
    expect(() => v.logProb([1, 1, 1])).toThrow(/`value` \[3\] and `batchShape \+ eventShape` \[2\]/);
    expect(() => v.defaultEventSpaceBijector()).toThrow(NotImplementedError);
  });
});
