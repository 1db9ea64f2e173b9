/**
 * random.dirichlet: the §7.1 JAX row (original mode, x32, float32) within 4 float32 ulp; the
 * construction (softmax of loggamma over shape + [k]); shape semantics (alpha's last axis is the
 * event axis); means and covariances against α_i/α₀ and the Dirichlet covariance (n = 20000 per
 * case, every z-score below 4.9, two-sided alpha 1e-6 per statistic as in test/stats.ts), and a
 * KS test of a marginal against its Beta(α_i, α₀ − α_i) CDF; float32 and float64; bad input.
 */
import { describe, expect, it } from 'vitest';
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import * as random from '../../src/random/index.js';
import { dirichlet } from '../../src/random/dirichlet.js';
import { loggamma } from '../../src/random/gamma.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));
const Z = 4.89;   // two-sided normal quantile at 1e-6

describe('random.dirichlet known answers (jax 0.10.2)', () => {
  it('§7.1 dirichlet row: seed 1590822961, alpha = [0.5, 0.6, 0.7], shape [2], within 4 ulp', () => {
    const want = [0.0031280030962079763, 0.009693996980786324, 0.9871779680252075, 0.025938278064131737, 0.4790910482406616, 0.4949706494808197];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const got = dirichlet(random.key(1590822961), [0.5, 0.6, 0.7], [2]);
      expect(got.shape).toEqual([2, 3]);
      Array.from(got.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(4));
    });
  });

  it('is a softmax over the last axis of loggamma(key, alpha, shape + [k])', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(4);
        const lg = loggamma(key, [0.2, 1, 3], [5, 3]).data;
        const got = dirichlet(key, [0.2, 1, 3], [5]).data;
        for (let i = 0; i < 5; i++) {
          const row = Array.from(lg.subarray(3 * i, 3 * i + 3));
          const mx = Math.max(...row);
          const e = row.map((x) => Math.exp(x - mx));
          const s = e.reduce((a, b) => a + b);
          e.forEach((v, j) => expect(Math.abs(got[3 * i + j]! - v / s)).toBeLessThan(m.x64 ? 1e-15 : 1e-6));
        }
      });
    }
  });
});

describe('random.dirichlet moments (n = 20000)', () => {
  it.each([[[0.5, 0.6, 0.7]], [[2, 3, 5]], [[0.05, 0.1, 0.2, 0.3]]] as const)('alpha = %o', (alpha) => {
    const k = alpha.length;
    const a0 = (alpha as readonly number[]).reduce((a, b) => a + b, 0);
    const mean = alpha.map((a) => a / a0);
    const cov = (i: number, j: number) => ((i === j ? alpha[i]! * a0 : 0) - alpha[i]! * alpha[j]!) / (a0 * a0 * (a0 + 1));
    const n = 20000;
    for (const [mi, m] of [ALL_MODES[0], ALL_MODES[3]].entries()) {
      withModes(m, () => {
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const x = dirichlet(random.key(60 + mi), [...alpha], [n], { dtype }).data;
          for (let r = 0; r < n; r++) {
            let s = 0;
            for (let j = 0; j < k; j++) s += x[r * k + j]!;
            expect(Math.abs(s - 1)).toBeLessThan(dtype === 'float32' ? 1e-6 : 1e-14);
          }
          for (let i = 0; i < k; i++) {
            let mu = 0;
            for (let r = 0; r < n; r++) mu += x[r * k + i]!;
            mu /= n;
            expect(Math.abs(mu - mean[i]!) / Math.sqrt(cov(i, i) / n)).toBeLessThan(Z);
            for (let j = i; j < k; j++) {
              // z-score of the sample covariance, its standard error estimated from the samples.
              const prods = new Float64Array(n);
              for (let r = 0; r < n; r++) prods[r] = (x[r * k + i]! - mean[i]!) * (x[r * k + j]! - mean[j]!);
              const c = prods.reduce((a, b) => a + b) / n;
              const sd = Math.sqrt(prods.reduce((a, p) => a + (p - c) ** 2, 0) / (n - 1));
              expect(Math.abs(c - cov(i, j)) / (sd / Math.sqrt(n))).toBeLessThan(Z);
            }
          }
          // The first marginal is Beta(α₁, α₀ − α₁).
          const x0 = Float64Array.from({ length: n }, (_, r) => x[r * k]!);
          expect(ksPValue(x0, (v) => betaCdf(v, alpha[0]!, a0 - alpha[0]!))).toBeGreaterThan(ALPHA);
        }
      });
    }
  });
});

describe('random.dirichlet shapes and bad input', () => {
  it('takes alpha\'s last axis as the event axis; shape is the batch shape', () => {
    const key = random.key(1);
    expect(dirichlet(key, [1, 2, 3]).shape).toEqual([3]);
    expect(dirichlet(key, [[1, 2, 3], [4, 5, 6]]).shape).toEqual([2, 3]);
    expect(dirichlet(key, [1, 2, 3], [4, 2]).shape).toEqual([4, 2, 3]);
    expect(dirichlet(key, [[1, 2, 3], [4, 5, 6]], [5, 2]).shape).toEqual([5, 2, 3]);
    expect(dirichlet(key, [[1, 2, 3]], [4]).shape).toEqual([4, 3]);
    expect(dirichlet(key, [2], [3]).toArray()).toEqual([[1], [1], [1]]);
    expect(Array.from(dirichlet(key, [1, -1, 2]).data).every(Number.isNaN)).toBe(true);
  });

  it('rejects bad arguments, naming them', () => {
    const key = random.key(0);
    expect(() => dirichlet(key, 1)).toThrow(/random\.dirichlet: `alpha` must have at least one axis/);
    expect(() => dirichlet(key, [[1, 2], [3, 4]], [3])).toThrow(/random\.dirichlet: .*`alpha`/);
    expect(() => dirichlet(key, [[1, 2], [3, 4]], [])).toThrow(/random\.dirichlet: `alpha` of shape \[2, 2\] must broadcast/);
    expect(() => dirichlet(key, 'x' as never)).toThrow(TypeError);
    expect(() => dirichlet(key, [1, 2], [-1])).toThrow(RangeError);
  });
});
