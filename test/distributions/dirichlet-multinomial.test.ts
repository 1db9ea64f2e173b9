// DirichletMultinomial: log pmf against an mpmath table (n up to 1e6, concentrations 0.05 to
// 1e6; fixtures/multinomial.py), moments, fused gradients against finite differences, TFP's
// seed structure (salt 'dirichlet_multinomial', log-space gammas, softmax, iterated Binomials,
// assembled by hand), chi-square goodness of fit over every outcome and on a BetaBinomial
// marginal (n = 20000 draws, 3 tests at ALPHA = 1e-6: false-failure rate 3e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BetaBinomial } from '../../distributions/beta-binomial.js';
import { DirichletMultinomial } from '../../distributions/dirichlet-multinomial.js';
import { NotImplementedError } from '../../distributions/distribution.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { iteratedBinomialMultinomial } from '../../distributions/internal/tfp-random-multinomial.js';
import { Multinomial } from '../../distributions/multinomial.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { digamma } from '../../src/tensor/special/gamma.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { expectOutcomeChiSquare } from './count-vectors.js';
import { column, expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';

const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const fixture = (JSON.parse(readFileSync(new URL('./fixtures/multinomial.json', import.meta.url), 'utf8')) as
  { dirichletMultinomial: { x: number[]; alpha: number[]; logpmf: number }[] }).dirichletMultinomial;

describe('DirichletMultinomial', () => {
  it('logProb matches the mpmath table (n up to 1e6, concentrations 0.05 … 1e6)', () => {
    for (const r of fixture) {
      const n = r.x.reduce((a, b) => a + b, 0);
      // n ≈ α₀ with both ~1e6 keeps one large log-gamma term (6.5e-11 measured).
      const hard = n >= 1e5 && r.alpha[0]! >= 1e5;
      close(new DirichletMultinomial({ totalCount: n, concentration: r.alpha }).logProb(r.x).item() as number, r.logpmf, hard ? 1e-9 : 1e-12);
    }
    const d = new DirichletMultinomial({ totalCount: 5, concentration: [1, 2, 3] });
    expect(arr(d.logProb([[1, 1, 1], [6, -1, 0], [2.5, 2.5, 0]]))).toEqual([-Infinity, -Infinity, -Infinity]);
    // With K = 2 it is the BetaBinomial.
    const bb = new BetaBinomial({ totalCount: 9, concentration1: 0.7, concentration0: 2.2 });
    const dm = new DirichletMultinomial({ totalCount: 9, concentration: [0.7, 2.2] });
    for (let k = 0; k <= 9; k++) close(dm.logProb([k, 9 - k]).item() as number, bb.logProb(k).item() as number, 1e-13);
  });

  it('mean, variance, covariance', () => {
    const d = new DirichletMultinomial({ totalCount: 10, concentration: [1, 2, 3] });
    arr(d.mean()).forEach((m, i) => close(m, [10 / 6, 20 / 6, 30 / 6][i]!, 1e-15));
    const scale = 10 * 16 / 7, p = [1 / 6, 2 / 6, 3 / 6];
    arr(d.variance()).forEach((v, i) => close(v, scale * p[i]! * (1 - p[i]!), 1e-14));
    close(arr(d.covariance())[1]!, -scale * p[0]! * p[1]!, 1e-14);
    expect(() => d.entropy()).toThrow(NotImplementedError);
  });

  it('gradients of logProb in concentration match finite differences; totalCount gets ψ(n + 1) − ψ(α₀ + n)', () => {
    expectGradients((p) => new DirichletMultinomial({ totalCount: 10, concentration: p.concentration! }),
      { concentration: [[0.3, 1, 2.5], [40, 5, 0.9]] }, [[2, 3, 5], [0, 10, 0]], { skipValue: true });
    const [, g] = valueAndGrad((n) => sum(new DirichletMultinomial({ totalCount: n, concentration: [0.5, 2] }).logProb([3, 7])))(tensor([10]));
    close(arr(g as Tensor)[0]!, digamma(11) - digamma(12.5), 1e-14);
  });

  it("seed discipline: splitSeed(seed, { salt: 'dirichlet_multinomial' }), log gammas, softmax, iterated Binomials", () => {
    const conc = [[0.5, 1, 3], [2, 2, 2]], n = 3;
    const got = arr(new DirichletMultinomial({ totalCount: [5, 60], concentration: conc }).sample(n, { seed: [8, 1] }));
    const [g, m] = splitSeed([8, 1], { salt: 'dirichlet_multinomial' }) as [KeyArray, KeyArray];
    const alpha = Array.from({ length: n }, () => conc.flat()).flat();
    const logG = randomLogGamma([n, 2, 3], alpha, null, g, 'float64');
    const probs: number[] = [];
    for (let r = 0; r < n * 2; r++) {
      const row = Array.from(logG.slice(3 * r, 3 * r + 3)), mx = Math.max(...row), e = row.map((v) => Math.exp(v - mx)), s = e[0]! + e[1]! + e[2]!;
      probs.push(...e.map((v) => v / s));
    }
    expect(got).toEqual(Array.from(iteratedBinomialMultinomial([n, 2], 3, probs, [5, 60, 5, 60, 5, 60], m, 'float64')));
    // The iterated-binomial step itself is checked by hand in multinomial.test.ts; here also against Multinomial.sample.
    const mult = new Multinomial({ totalCount: 4, probs: [0.2, 0.3, 0.5] });
    const mseed = splitSeed(5, { n: 1 })[0]!;
    expect(arr(mult.sample(2, { seed: mseed }))).toEqual(Array.from(iteratedBinomialMultinomial([2], 3, [0.2, 0.3, 0.5, 0.2, 0.3, 0.5], [4, 4], mseed, 'float64')));
    expectSampleShapeInvariance(new DirichletMultinomial({ totalCount: [3, 40], concentration: [0.1, 1, 2] }));
  });

  it('draws fit the pmf over every outcome (n = 5, K = 3) and a BetaBinomial marginal (n = 300)', () => {
    const d = new DirichletMultinomial({ totalCount: 5, concentration: [0.4, 1.5, 3] });
    expectOutcomeChiSquare(d.sample(20000, { seed: 9 }).data as Float64Array, 3, 5, (v) => d.logProb(v).item() as number, 'n=5');
    // x₀ of DirichletMultinomial(n, α) is BetaBinomial(n, α₀, Σα − α₀).
    const e = new DirichletMultinomial({ totalCount: 300, concentration: [20, 30, 50] });
    const bb = new BetaBinomial({ totalCount: 300, concentration1: 20, concentration0: 80 });
    const x0 = column(e.sample(20000, { seed: 10 }), 0, 3);
    // Bins 30 … 90 (±2.2 sd), the tails lumped into the end bins.
    expectChiSquare(x0.map((v) => Math.max(0, v - 30)), (k) => Math.exp(bb.logProb(k + 30).item() as number) + (k === 0 ? sumBelow(bb, 30) : 0), 60, 'marginal');
  });

  it('bad input: names the parameter, the value shape, and the method', () => {
    expect(() => new DirichletMultinomial({ totalCount: 3 } as never)).toThrow(/DirichletMultinomial: `concentration` is required/);
    expect(() => new DirichletMultinomial({ totalCount: 3, concentration: [1, -1], validateArgs: true })).toThrow(/`concentration\[1\]` must be positive/);
    expect(() => new DirichletMultinomial({ totalCount: [1, 2, 3], concentration: [[1, 1], [1, 1]] })).toThrow(/`totalCount` \[3\] and `concentration` \[2\]/);
    const v = new DirichletMultinomial({ totalCount: 4, concentration: [1, 1], validateArgs: true });
    expect(() => v.logProb([1, 2])).toThrow(/DirichletMultinomial.logProb: `value` rows must sum to totalCount/);
    expect(() => v.defaultEventSpaceBijector()).toThrow(NotImplementedError);
  });
});

/** P[X < m] for a BetaBinomial, summed from its pmf (the lumped bottom bin). */
function sumBelow(d: BetaBinomial, m: number): number {
  let s = 0;
  for (let k = 0; k < m; k++) s += Math.exp(d.logProb(k).item() as number);
  return s;
}
