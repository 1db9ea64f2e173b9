// BetaBinomial: log pmf against an mpmath table (n up to 1e6, concentrations 0.05 to 1e6;
// fixtures/beta-binomial.py), moments against sums of the pmf, fused gradients against finite
// differences, TFP's seed structure (3-way split with salt 'beta_binomial', two log-space gammas,
// a Binomial on their logit difference, assembled by hand), chi-square goodness of fit
// (n = 20000 per column, 4 tests at ALPHA = 1e-6: false-failure rate 4e-6).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BetaBinomial } from '../../distributions/beta-binomial.js';
import { Binomial } from '../../distributions/binomial.js';
import { NotImplementedError } from '../../distributions/distribution.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { reshape } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';

const close = (a: number, b: number, rel = 1e-12) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const fixture = JSON.parse(readFileSync(new URL('./fixtures/beta-binomial.json', import.meta.url), 'utf8')) as
  { n: number; a: number; b: number; k: number; logpmf: number }[];
const pmf = (n: number, a: number, b: number) => (k: number) =>
  Math.exp(new BetaBinomial({ totalCount: n, concentration1: a, concentration0: b }).logProb(k).item() as number);

describe('BetaBinomial', () => {
  it('logProb matches the mpmath table (n ≤ 1e6, concentrations 0.05 … 1e6)', () => {
    for (const r of fixture) {
      const d = new BetaBinomial({ totalCount: r.n, concentration1: r.a, concentration0: r.b });
      // n ≈ α + β, both ≥ 1e5, is the one regime where a large log-gamma term remains (2.7e-10 measured).
      const hard = r.n >= 1e5 && r.a >= 1e5;
      close(d.logProb(r.k).item() as number, r.logpmf, hard ? 1e-9 : 1e-12);
    }
    const d = new BetaBinomial({ totalCount: 5, concentration1: 2, concentration0: 3 });
    expect(arr(d.logProb([-1, 6, 2.5]))).toEqual([-Infinity, -Infinity, -Infinity]);
    let total = 0;
    for (let k = 0; k <= 5; k++) total += pmf(5, 2, 3)(k);
    close(total, 1, 1e-14);
  });

  it('mean and variance match sums over the pmf', () => {
    const [n, a, b] = [40, 0.7, 2.5];
    let m = 0, v = 0;
    for (let k = 0; k <= n; k++) m += k * pmf(n, a, b)(k);
    for (let k = 0; k <= n; k++) v += (k - m) ** 2 * pmf(n, a, b)(k);
    const d = new BetaBinomial({ totalCount: n, concentration1: a, concentration0: b });
    close(d.mean().item() as number, m, 1e-13);
    close(d.variance().item() as number, v, 1e-12);
    expect(() => d.entropy()).toThrow(NotImplementedError);
  });

  it('gradients of logProb in totalCount and both concentrations match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new BetaBinomial({ totalCount: p.totalCount!, concentration1: p.concentration1!, concentration0: p.concentration0! });
    expectGradients(make, { totalCount: [10, 25, 300], concentration1: [0.5, 2, 40], concentration0: [1.5, 0.3, 70] }, [[0, 7, 100], [9, 24, 150]], { skipValue: true });
  });

  it("seed discipline: splitSeed(seed, { n: 3, salt: 'beta_binomial' }), two log gammas, Binomial(logits = difference)", () => {
    const d = new BetaBinomial({ totalCount: [8, 300], concentration1: [0.5, 4], concentration0: 2 });
    const got = arr(d.sample(3, { seed: [4, 2] }));
    const [g1, g2, b] = splitSeed([4, 2], { n: 3, salt: 'beta_binomial' }) as [KeyArray, KeyArray, KeyArray];
    const lg1 = randomLogGamma([3, 2], [0.5, 4, 0.5, 4, 0.5, 4], null, g1, 'float64');
    const lg2 = randomLogGamma([3, 2], [2, 2, 2, 2, 2, 2], null, g2, 'float64');
    const logits = reshape(tensor(Array.from(lg1, (v, i) => v - lg2[i]!), 'float64'), [3, 2]);
    const want = new Binomial({ totalCount: [8, 300], logits }).sample(1, { seed: b });
    expect(got).toEqual(arr(want));
    expectSampleShapeInvariance(d);
  });

  it('draws fit the pmf (chi-square, n = 20000): tiny and large concentrations, BTRS-sized counts', () => {
    const cases = [[10, 0.2, 0.3], [12, 2, 3], [50, 200, 100], [1000, 1, 1]] as const;
    const d = new BetaBinomial({ totalCount: cases.map((c) => c[0]), concentration1: cases.map((c) => c[1]), concentration0: cases.map((c) => c[2]) });
    const x = d.sample(20000, { seed: 13 });
    cases.forEach(([n, a, b], j) => {
      const v = column(x, j, 4);
      if (n === 1000) {   // uniform on {0..1000}: 20 equal bins
        expectChiSquare(v.map((k) => Math.min(19, Math.floor(k / 50))), (k) => (k < 19 ? 50 : 51) / 1001, 19, 'n=1000 α=β=1');
      } else {
        expectChiSquare(v, pmf(n, a, b), n, `n=${n} α=${a} β=${b}`);
      }
    });
  });

  it('bad input: names the parameter, the value shape, and the method', () => {
    expect(() => new BetaBinomial({ totalCount: 3, concentration1: 1 } as never)).toThrow(/BetaBinomial: `concentration0` is required/);
    expect(() => new BetaBinomial({ totalCount: 3, concentration1: -1, concentration0: 1, validateArgs: true })).toThrow(/`concentration1` must be positive/);
    expect(() => new BetaBinomial({ totalCount: 1.5, concentration1: 1, concentration0: 1, validateArgs: true })).toThrow(/`totalCount` must be a non-negative integer/);
    expect(() => new BetaBinomial({ totalCount: [1, 2], concentration1: [1, 2, 3], concentration0: 1 })).toThrow(/`totalCount` \[2\] and `concentration1` \[3\]/);
    const v = new BetaBinomial({ totalCount: 4, concentration1: 1, concentration0: 1, validateArgs: true });
    expect(() => v.logProb(5)).toThrow(/BetaBinomial.logProb: `value` must be an integer in \[0, totalCount\]/);
    expect(() => v.defaultEventSpaceBijector()).toThrow(NotImplementedError);
  });
});
