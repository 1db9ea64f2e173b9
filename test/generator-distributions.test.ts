/**
 * The Generator's distributions: each method is the stated formula over the `random` sampler
 * with the generator's key (so its values are JAX's algorithm), and its parametrisation is
 * NumPy's (goodness of fit against @stdlib's CDFs and pmfs, never against code under test).
 *
 * Statistics: n = 20000 draws per case from fixed seeds, in two modes (x64 partitionable and
 * x32 original), each test rejecting at ALPHA = 1e-6 (test/stats.ts); KS for continuous
 * distributions, chi-square with cells of ≥ 20 expected draws for discrete ones. The Wald
 * (inverse Gaussian) reference CDF is the closed form Φ(√(λ/x)(x/μ − 1)) + e^(2λ/μ)·Φ(−√(λ/x)(x/μ + 1))
 * with @stdlib's Φ.
 */
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import binomialPmf from '@stdlib/stats-base-dists-binomial-pmf';
import cauchyCdf from '@stdlib/stats-base-dists-cauchy-cdf';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import exponentialCdf from '@stdlib/stats-base-dists-exponential-cdf';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import gammaCdf from '@stdlib/stats-base-dists-gamma-cdf';
import geometricCdf from '@stdlib/stats-base-dists-geometric-cdf';
import laplaceCdf from '@stdlib/stats-base-dists-laplace-cdf';
import logisticCdf from '@stdlib/stats-base-dists-logistic-cdf';
import lognormalCdf from '@stdlib/stats-base-dists-lognormal-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import paretoCdf from '@stdlib/stats-base-dists-pareto-type1-cdf';
import poissonPmf from '@stdlib/stats-base-dists-poisson-pmf';
import rayleighCdf from '@stdlib/stats-base-dists-rayleigh-cdf';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import triangularCdf from '@stdlib/stats-base-dists-triangular-cdf';
import weibullCdf from '@stdlib/stats-base-dists-weibull-cdf';
import { describe, expect, it } from 'vitest';
import { Generator, statefulRng } from '../src/generator.js';
import * as random from '../src/random/index.js';
import { Tensor, tensor } from '../src/tensor/tensor.js';
import { withModes } from './helpers.js';
import { discreteChiSquare } from './random/discrete-gof.js';
import { ALPHA, chiSquarePValue, ksPValue, ksUniformPValue } from './stats.js';

const N = 20000;
const MODES = [
  { x64: true, threefryPartitionable: true },
  { x64: false, threefryPartitionable: false },
] as const;

/** The key a fresh `statefulRng(seed)` uses for its first draw. */
const firstKey = (seed: number) => random.foldIn(random.key(seed), 0);
const arr = (x: unknown) => Array.from((x as Tensor).data as Float64Array, Number);
const ints = (x: unknown) => Array.from((x as Tensor).data as ArrayLike<number | bigint>, Number);

describe('each method is its formula over the random sampler with the next key', () => {
  it.each([[true], [false]])('x64 = %s', (x64) => {
    withModes({ x64, threefryPartitionable: true }, () => {
      const S = [6];
      const k = firstKey(5);
      const g = () => statefulRng(5);
      const r = x64 ? (v: number) => v : Math.fround;
      const same = (got: unknown, want: number[]) => expect(arr(got)).toEqual(want);
      same(g().exponential(2, S), arr(random.exponential(k, S)).map((e) => r(2 * e)));
      same(g().standardExponential(S), arr(random.exponential(k, S)));
      same(g().gamma(2.5, 3, S), arr(random.gamma(k, 2.5, S)).map((e) => r(r(3) * e)));
      same(g().standardGamma(0.7, S), arr(random.gamma(k, 0.7, S)));
      same(g().beta(2, 5, S), arr(random.beta(k, 2, 5, S)));
      same(g().laplace(1, 2, S), arr(random.laplace(k, S)).map((e) => r(1 + r(2 * e))));
      same(g().logistic(-1, 0.5, S), arr(random.logistic(k, S)).map((e) => r(-1 + r(0.5 * e))));
      same(g().lognormal(0.5, 0.25, S), arr(random.normal(k, S)).map((z) => r(Math.exp(r(0.5 + r(0.25 * z))))));
      same(g().chisquare(3, S), arr(random.chisquare(k, 3, S)));
      same(g().standardT(4, S), arr(random.t(k, 4, S)));
      same(g().standardCauchy(S), arr(random.cauchy(k, S)));
      same(g().f(3, 7, S), arr(random.f(k, 3, 7, S)));
      same(g().triangular(0, 1, 3, S), arr(random.triangular(k, 0, 1, 3, S)));
      same(g().pareto(3, S), arr(random.exponential(k, S)).map((e) => r(Math.expm1(r(e / 3)))));
      same(g().weibull(1.5, S), arr(random.weibullMin(k, 1, 1.5, S)));
      same(g().rayleigh(2, S), arr(random.rayleigh(k, 1, S)).map((e) => r(2 * e)));
      same(g().wald(1.5, 3, S), arr(random.wald(k, r(1.5 / 3), S)).map((e) => r(3 * e)));
      same(g().normal(3, 2, S), arr(random.normal(k, S)).map((z) => r(3 + r(2 * z))));
      expect(ints(g().binomial(20, 0.3, S))).toEqual(arr(random.binomial(k, 20, 0.3, S)));
      expect(ints(g().poisson(4, S))).toEqual(ints(random.poisson(k, 4, S)));
      expect(ints(g().geometric(0.3, S))).toEqual(ints(random.geometric(k, 0.3, S)));
      expect(ints(g().multinomial(10, [0.2, 0.3, 0.5], [2]))).toEqual(arr(random.multinomial(k, 10, [0.2, 0.3, 0.5], { shape: [2, 3] })));
      same(g().dirichlet([1, 2, 3], [2]), arr(random.dirichlet(k, [1, 2, 3], [2])));
      same(g().multivariateNormal([0, 1], [[2, 0.5], [0.5, 1]], [3]), arr(random.multivariateNormal(k, [0, 1], [[2, 0.5], [0.5, 1]], [3])));
      expect(ints(g().choice(10, S))).toEqual(ints(random.choice(k, 10, S)));
      expect(ints(g().permutation(10))).toEqual(ints(random.permutation(k, 10)));
      expect(Array.from(g().bytes(9))).toEqual(Array.from(random.bits(k, [9], { dtype: 'uint8' }).data as Uint8Array));
      expect(ints(g().integers(3, 9, S))).toEqual(ints(random.randint(k, S, 3, 9)));
    });
  });

  it('integer-valued results use the default int dtype (bigint scalars in x64 mode)', () => {
    const g = statefulRng(0);
    for (const t of [g.binomial(5, 0.5, [2]), g.poisson(2, [2]), g.geometric(0.5, [2]), g.multinomial(3, [0.5, 0.5])]) expect((t as Tensor).dtype).toBe('int64');
    withModes({ x64: false }, () => expect((g.binomial(5, 0.5, [2]) as Tensor).dtype).toBe('int32'));
  });

  it('pareto is JAX pareto(b = a) − 1 (to rounding), weibull(0) is 0, integers with array bounds agree with scalar bounds', () => {
    const k = firstKey(9);
    const lomax = arr(statefulRng(9).pareto(2, [50]));
    arr(random.pareto(k, 2, [50])).forEach((x, i) => expect(lomax[i]!).toBeCloseTo(x - 1, 12));
    expect(arr(statefulRng(1).weibull([0, 1], [2]))[0]).toBe(0);
    for (const m of [{ x64: true, threefryPartitionable: true }, { x64: false, threefryPartitionable: false }]) {
      withModes(m, () => {
        const a = ints(statefulRng(4).integers([5, 5, 5], [17, 17, 17]));
        const b = ints(statefulRng(4).integers(5, 17, [3]));
        expect(a).toEqual(b);
      });
    }
  });

  it('multinomial takes the last probability as 1 − sum(others), as NumPy does', () => {
    const a = ints(statefulRng(3).multinomial(100, [0.2, 0.3, 0.9]));   // last entry ignored
    const b = ints(statefulRng(3).multinomial(100, [0.2, 0.3, 0.5]));
    expect(a).toEqual(b);
    expect(a.reduce((x, y) => x + y, 0)).toBe(100);
  });
});

// ---------------------------------------------------------------------------------------------
// Goodness of fit (NumPy's parametrisations).
// ---------------------------------------------------------------------------------------------
const Phi = (x: number) => normalCdf(x, 0, 1);
/** Inverse Gaussian IG(μ, λ) CDF (closed form; the exponential factor is taken in log space). */
function waldCdf(x: number, mu: number, lam: number): number {
  if (!(x > 0)) return 0;
  const s = Math.sqrt(lam / x);
  const tail = Phi(-s * (x / mu + 1));
  return Phi(s * (x / mu - 1)) + (tail > 0 ? Math.exp(2 * lam / mu + Math.log(tail)) : 0);
}

type Cont = [name: string, draw: (g: Generator) => unknown, cdf: (x: number) => number];
const CONTINUOUS: Cont[] = [
  ['normal(3, 2)', (g) => g.normal(3, 2, N), (x) => normalCdf(x, 3, 2)],
  ['exponential(2)', (g) => g.exponential(2, N), (x) => exponentialCdf(x, 0.5)],
  ['gamma(2.5, 3)', (g) => g.gamma(2.5, 3, N), (x) => gammaCdf(x, 2.5, 1 / 3)],
  ['gamma(0.5, 1)', (g) => g.gamma(0.5, 1, N), (x) => gammaCdf(x, 0.5, 1)],
  ['beta(2, 5)', (g) => g.beta(2, 5, N), (x) => betaCdf(x, 2, 5)],
  ['laplace(1, 2)', (g) => g.laplace(1, 2, N), (x) => laplaceCdf(x, 1, 2)],
  ['logistic(1, 2)', (g) => g.logistic(1, 2, N), (x) => logisticCdf(x, 1, 2)],
  ['lognormal(0.5, 0.75)', (g) => g.lognormal(0.5, 0.75, N), (x) => lognormalCdf(x, 0.5, 0.75)],
  ['chisquare(3)', (g) => g.chisquare(3, N), (x) => chisquareCdf(x, 3)],
  ['standardT(4)', (g) => g.standardT(4, N), (x) => tCdf(x, 4)],
  ['standardCauchy()', (g) => g.standardCauchy(N), (x) => cauchyCdf(x, 0, 1)],
  ['pareto(3) = Lomax: Pareto I(3, 1) shifted by -1', (g) => g.pareto(3, N), (x) => paretoCdf(x + 1, 3, 1)],
  ['weibull(1.5), scale 1', (g) => g.weibull(1.5, N), (x) => weibullCdf(x, 1.5, 1)],
  ['rayleigh(2)', (g) => g.rayleigh(2, N), (x) => rayleighCdf(x, 2)],
  ['triangular(0, 1, 3)', (g) => g.triangular(0, 1, 3, N), (x) => triangularCdf(x, 0, 3, 1)],
  ['wald(1.5, 3) = IG(mean 1.5, shape 3)', (g) => g.wald(1.5, 3, N), (x) => waldCdf(x, 1.5, 3)],
  ['wald(4, 0.5) = IG(mean 4, shape 0.5)', (g) => g.wald(4, 0.5, N), (x) => waldCdf(x, 4, 0.5)],
  ['f(5, 10)', (g) => g.f(5, 10, N), (x) => fCdf(x, 5, 10)],
];

describe(`continuous distributions (KS against @stdlib, n = ${N}, alpha ${ALPHA})`, () => {
  for (const m of MODES) {
    it.each(CONTINUOUS)(`${JSON.stringify(m)}: %s`, (_, draw, cdf) => {
      withModes(m, () => {
        const x = arr(draw(statefulRng(2024)));
        expect(ksPValue(x, cdf)).toBeGreaterThan(ALPHA);
      });
    });
  }

  it.each(MODES.map((m) => [JSON.stringify(m), m] as const))('%s: uniform(-2, 5) and random()', (_, m) => {
    withModes(m, () => {
      expect(ksUniformPValue(arr(statefulRng(7).uniform(-2, 5, N)), -2, 5)).toBeGreaterThan(ALPHA);
      const g = statefulRng(8);
      expect(ksUniformPValue(Array.from({ length: N }, () => g.random()))).toBeGreaterThan(ALPHA);
    });
  });

  it("JAX's random.wald(key, m) is the inverse Gaussian IG(m, 1): KS, mean m and variance m³", () => {
    for (const mu of [0.5, 2]) {
      const x = arr(random.wald(random.key(77), mu, [N]));
      expect(ksPValue(x, (v) => waldCdf(v, mu, 1))).toBeGreaterThan(ALPHA);
      const mean = x.reduce((a, b) => a + b, 0) / N;
      const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / (N - 1);
      expect(Math.abs(mean - mu)).toBeLessThan(6 * Math.sqrt(mu ** 3 / N));
      expect(variance / mu ** 3).toBeGreaterThan(0.8);
      expect(variance / mu ** 3).toBeLessThan(1.25);
    }
  });
});

describe(`discrete distributions (chi-square against @stdlib pmfs, n = ${N}, alpha ${ALPHA})`, () => {
  for (const m of MODES) {
    it(`${JSON.stringify(m)}: binomial, poisson, geometric (trials, support 1, 2, ...), integers, choice`, () => {
      withModes(m, () => {
        const g = statefulRng(31);
        expect(discreteChiSquare(ints(g.binomial(20, 0.3, N)), (k) => binomialPmf(k, 20, 0.3), 0, 20)).toBeGreaterThan(ALPHA);
        expect(discreteChiSquare(ints(g.poisson(4, N)), (k) => poissonPmf(k, 4), 0, 30)).toBeGreaterThan(ALPHA);
        const geo = ints(g.geometric(0.3, N));
        expect(Math.min(...geo)).toBe(1);
        expect(discreteChiSquare(geo, (k) => geometricCdf(k - 1, 0.3) - geometricCdf(k - 2, 0.3), 1, 60)).toBeGreaterThan(ALPHA);
        const dice = ints(g.integers(1, 6, N, { endpoint: true }));
        const counts = [1, 2, 3, 4, 5, 6].map((v) => dice.filter((d) => d === v).length);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(N);
        expect(chiSquarePValue(counts, new Array(6).fill(1 / 6))).toBeGreaterThan(ALPHA);
        const picks = ints(g.choice(3, N, { p: [0.2, 0.3, 0.5] }));
        expect(chiSquarePValue([0, 1, 2].map((v) => picks.filter((d) => d === v).length), [0.2, 0.3, 0.5])).toBeGreaterThan(ALPHA);
      });
    });
  }

  it('multinomial marginals are binomial(n, p_i); dirichlet means are alpha / sum(alpha)', () => {
    const g = statefulRng(12);
    const counts = ints(g.multinomial(12, [0.1, 0.6, 0.3], [N]));
    for (const [i, p] of [[0, 0.1], [1, 0.6], [2, 0.3]] as const) {
      const col = counts.filter((_, j) => j % 3 === i);
      expect(discreteChiSquare(col, (k) => binomialPmf(k, 12, p), 0, 12)).toBeGreaterThan(ALPHA);
    }
    for (let r = 0; r < N; r++) expect(counts[3 * r]! + counts[3 * r + 1]! + counts[3 * r + 2]!).toBe(12);
    const d = arr(g.dirichlet([1, 2, 3], [N]));
    for (const [i, a] of [[0, 1], [1, 2], [2, 3]] as const) {
      const mean = d.filter((_, j) => j % 3 === i).reduce((x, y) => x + y, 0) / N;
      const sd = Math.sqrt((a / 6) * (1 - a / 6) / 7);           // Dirichlet marginal Beta(a, 6 - a)
      expect(Math.abs(mean - a / 6)).toBeLessThan(6 * sd / Math.sqrt(N));
    }
  });

  it('multivariateNormal: sample covariance matches cov (n = 20000, within 5 standard errors)', () => {
    const cov = [[2, 0.6], [0.6, 1]];
    const x = arr(statefulRng(13).multivariateNormal([1, -1], cov, [N]));
    const m0 = x.filter((_, j) => j % 2 === 0), m1 = x.filter((_, j) => j % 2 === 1);
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const c = (a: number[], b: number[]) => { const ma = mean(a), mb = mean(b); return a.reduce((s, v, i) => s + (v - ma) * (b[i]! - mb), 0) / (N - 1); };
    expect(Math.abs(mean(m0) - 1)).toBeLessThan(5 * Math.sqrt(2 / N));
    expect(Math.abs(mean(m1) + 1)).toBeLessThan(5 * Math.sqrt(1 / N));
    expect(Math.abs(c(m0, m0) - 2)).toBeLessThan(5 * 2 * Math.sqrt(2 / N));
    expect(Math.abs(c(m0, m1) - 0.6)).toBeLessThan(5 * Math.sqrt((2 * 1 + 0.36) / N));
  });

  it('shuffle and permuted: every position uniform over the values (chi-square, 6000 shuffles of 4)', () => {
    const g = statefulRng(14);
    const firsts = [0, 0, 0, 0], lanes = [0, 0, 0, 0];
    for (let i = 0; i < 6000; i++) {
      const a = [0, 1, 2, 3];
      g.shuffle(a);
      firsts[a[0]!]!++;
      const p = g.permuted(tensor([[0, 1, 2, 3], [0, 1, 2, 3]]), { axis: 1 }).toArray() as number[][];
      lanes[p[1]![0]!]!++;
    }
    expect(chiSquarePValue(firsts, [0.25, 0.25, 0.25, 0.25])).toBeGreaterThan(ALPHA);
    expect(chiSquarePValue(lanes, [0.25, 0.25, 0.25, 0.25])).toBeGreaterThan(ALPHA);
  });
});
