/**
 * random.multivariateNormal: JAX values (§7.1 row and the part-C fixture in all four modes),
 * moments and goodness of fit for all three methods, a singular covariance, batching and bad input.
 *
 * Statistics at fixed keys, n = 20000 draws per mode, dtype and method, each test rejecting at
 * ALPHA = 1e-6 (test/stats.ts): KS of the squared Mahalanobis distances against @stdlib's
 * chi-square CDF (dimension = rank), KS of each whitened coordinate against the standard normal
 * CDF, and sample means and covariances within 6 standard errors
 * (SE(mean_i) = √(Σii/n), SE(S_ij) = √((Σii·Σjj + Σij²)/n)).
 */
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { cholesky } from '../../src/random/linalg.js';
import { multivariateNormal, type MvnMethod } from '../../src/random/multivariate-normal.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));
const COV = [[2, 0.5, 0.1], [0.5, 1, 0.3], [0.1, 0.3, 1.5]];
const MEAN = [1, -2, 0.5];

/** Sample mean and covariance of `n` rows of `d` values. */
function moments(x: ArrayLike<number>, d: number): { mean: number[]; cov: number[][] } {
  const n = x.length / d;
  const mean = new Array<number>(d).fill(0);
  for (let r = 0; r < n; r++) for (let i = 0; i < d; i++) mean[i]! += x[r * d + i]! / n;
  const cov = mean.map(() => new Array<number>(d).fill(0));
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) cov[i]![j]! += (x[r * d + i]! - mean[i]!) * (x[r * d + j]! - mean[j]!) / (n - 1);
  }
  return { mean, cov };
}

function expectMoments(x: ArrayLike<number>, mean: number[], cov: number[][], label: string): void {
  const d = mean.length, n = x.length / d;
  const m = moments(x, d);
  for (let i = 0; i < d; i++) {
    expect(Math.abs(m.mean[i]! - mean[i]!), `${label} mean[${i}]`).toBeLessThan(6 * Math.sqrt(cov[i]![i]! / n) + 1e-12);
    for (let j = 0; j < d; j++) {
      const se = Math.sqrt((cov[i]![i]! * cov[j]![j]! + cov[i]![j]! ** 2) / n);
      expect(Math.abs(m.cov[i]![j]! - cov[i]![j]!), `${label} cov[${i}][${j}]`).toBeLessThan(6 * se + 1e-12);
    }
  }
}

/** Whitens rows with the Cholesky factor of a positive-definite covariance: z = L⁻¹(x − μ). */
function whiten(x: ArrayLike<number>, mean: number[], cov: number[][]): Float64Array {
  const d = mean.length, n = x.length / d;
  const l = cholesky(cov.flat(), d)!;
  const z = new Float64Array(x.length);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < d; i++) {
      let s = x[r * d + i]! - mean[i]!;
      for (let k = 0; k < i; k++) s -= l[i * d + k]! * z[r * d + k]!;
      z[r * d + i] = s / l[i * d + i]!;
    }
  }
  return z;
}

function expectGoodnessOfFit(x: ArrayLike<number>, mean: number[], cov: number[][], label: string): void {
  const d = mean.length, n = x.length / d;
  const z = whiten(x, mean, cov);
  const r2 = Array.from({ length: n }, (_, r) => { let s = 0; for (let i = 0; i < d; i++) s += z[r * d + i]! ** 2; return s; });
  expect(ksPValue(r2, (v) => chisquareCdf(v, d)), `${label} Mahalanobis`).toBeGreaterThan(ALPHA);
  for (let i = 0; i < d; i++) {
    const zi = Array.from({ length: n }, (_, r) => z[r * d + i]!);
    expect(ksPValue(zi, (v) => normalCdf(v, 0, 1)), `${label} z[${i}]`).toBeGreaterThan(ALPHA);
  }
}

describe('random.multivariateNormal known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES multivariate_normal row mean = ones((1, 3)), cov = eye(3), shape (2,) (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [[1.067826509475708, 1.2155990600585938, 0.23416590690612793], [-0.2375338077545166, 1.3259096145629883, 1.4139875173568726]];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = multivariateNormal(random.key(3497659512), [[1, 1, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [2]);
      expect(t.dtype).toBe('float32');
      expect(t.shape).toEqual([2, 3]);
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want.flat()[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture (Cholesky, batched mean, eigh and svd of a diagonal cov): all four modes, float32 and float64', () => {
    const n = checkJaxCases('multivariate_normal', (k, c, [mean, cov]) => multivariateNormal(
      k, tensor(mean, c.kwargs.dtype as FloatDType), tensor(cov, c.kwargs.dtype as FloatDType), c.kwargs.shape,
      { dtype: c.kwargs.dtype as FloatDType, method: c.kwargs.method as MvnMethod | undefined },
    ));
    expect(n).toBe(24);
  });

  it('is mean + L·z with z = normal(key, [...shape, n]) for the Cholesky factor L', () => {
    const z = random.normal(random.key(5), [4, 2]).data;
    const x = multivariateNormal(random.key(5), [1, 2], [[4, 2], [2, 5]], [4]).data;
    for (let r = 0; r < 4; r++) {
      expect(x[2 * r]).toBeCloseTo(1 + 2 * z[2 * r]!, 14);
      expect(x[2 * r + 1]).toBeCloseTo(2 + 1 * z[2 * r]! + 2 * z[2 * r + 1]!, 14);
    }
  });
});

describe('random.multivariateNormal statistics (n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s: all three methods, float32 and float64', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const method of ['cholesky', 'eigh', 'svd'] as const) {
          const t = multivariateNormal(random.key(45), MEAN, COV, [20000], { dtype, method });
          expect(t.shape).toEqual([20000, 3]);
          expectMoments(t.data, MEAN, COV, `${method} ${dtype}`);
          expectGoodnessOfFit(t.data, MEAN, COV, `${method} ${dtype}`);
        }
      }
    });
  });

  it('samples a singular (rank-2) covariance with eigh and svd, and refuses it with cholesky', () => {
    // Σ = v·vᵀ + w·wᵀ with v = (1, 1, 0), w = (0, 1, 2): x − μ lies in span(v, w), so
    // (x − μ)·(v × w) = 0, and the coordinates along an orthonormal basis of the span are normal.
    const cov = [[1, 1, 0], [1, 2, 2], [0, 2, 4]];
    const normalVec = [2, -2, 1]; // v × w
    for (const m of ALL_MODES) {
      withModes(m, () => {
        for (const method of ['eigh', 'svd'] as const) {
          const x = multivariateNormal(random.key(46), [0, 0, 0], cov, [20000], { method }).data;
          expectMoments(x, [0, 0, 0], cov, `singular ${method}`);
          let worst = 0;
          for (let r = 0; r < 20000; r++) worst = Math.max(worst, Math.abs(normalVec[0]! * x[3 * r]! + normalVec[1]! * x[3 * r + 1]! + normalVec[2]! * x[3 * r + 2]!));
          expect(worst).toBeLessThan(m.x64 ? 1e-12 : 1e-4);
          // Coordinates along v and along w′ = w − (w·v / v·v)v have a positive-definite 2×2 covariance.
          const proj = new Float64Array(2 * 20000);
          for (let r = 0; r < 20000; r++) {
            const a = x[3 * r]!, b = x[3 * r + 1]!, c = x[3 * r + 2]!;
            proj[2 * r] = a + b;                   // v·x
            proj[2 * r + 1] = -0.5 * a + 0.5 * b + 2 * c; // w′·x with w′ = (−1/2, 1/2, 2)
          }
          // Var(v·x) = vᵀΣv = 5, Var(w′·x) = w′ᵀΣw′ = 20.25, Cov = vᵀΣw′ = 4.5.
          expectGoodnessOfFit(proj, [0, 0], [[5, 4.5], [4.5, 20.25]], `singular ${method}`);
        }
      });
    }
    expect(() => multivariateNormal(random.key(0), [0, 0, 0], cov)).toThrow(/random\.multivariateNormal: `cov` must be positive definite for method 'cholesky'/);
  });
});

describe('random.multivariateNormal batching', () => {
  it('broadcasts the batch axes of mean and cov against shape, as JAX', () => {
    expect(multivariateNormal(random.key(0), [[0, 0], [1, 1], [2, 2]], [[1, 0], [0, 1]]).shape).toEqual([3, 2]);
    expect(multivariateNormal(random.key(0), [0, 0], [[[1, 0], [0, 1]], [[2, 0], [0, 2]]]).shape).toEqual([2, 2]);
    expect(multivariateNormal(random.key(0), [[0, 0], [5, 5]], [[1, 0], [0, 1]], [4, 2]).shape).toEqual([4, 2, 2]);
    expect(() => multivariateNormal(random.key(0), [[0, 0], [5, 5]], [[1, 0], [0, 1]], [3])).toThrow(RangeError);
  });

  it('pairs each batch element with its own mean and covariance', () => {
    const covs = [[[1, 0.9], [0.9, 1]], [[4, -1], [-1, 0.5]]];
    const means = [[0, 0], [10, -10]];
    const x = multivariateNormal(random.key(47), means, covs, [20000, 2]).data;
    for (let b = 0; b < 2; b++) {
      const rows = new Float64Array(2 * 20000);
      for (let r = 0; r < 20000; r++) { rows[2 * r] = x[4 * r + 2 * b]!; rows[2 * r + 1] = x[4 * r + 2 * b + 1]!; }
      expectMoments(rows, means[b]!, covs[b]!, `batch ${b}`);
    }
  });
});

describe('random.multivariateNormal bad input', () => {
  const I2 = [[1, 0], [0, 1]];
  it('rejects wrong ranks and shapes, naming mean or cov', () => {
    expect(() => multivariateNormal(random.key(0), 0, I2)).toThrow(/random\.multivariateNormal: `mean` must have at least 1 dimension/);
    expect(() => multivariateNormal(random.key(0), [0, 0], [1, 1])).toThrow(/`cov` must have at least 2 dimensions/);
    expect(() => multivariateNormal(random.key(0), [0, 0, 0], I2)).toThrow(/`cov` must have shape \[\.\.\., 3, 3\]/);
    expect(() => multivariateNormal(random.key(0), [0, 0], [[1, 0, 0], [0, 1, 0]])).toThrow(/`cov` must have shape/);
  });

  it('rejects non-symmetric, indefinite and non-finite covariances and non-finite means', () => {
    expect(() => multivariateNormal(random.key(0), [0, 0], [[1, 0.5], [0.2, 1]])).toThrow(/`cov` must be symmetric/);
    for (const method of ['eigh', 'svd'] as const) {
      expect(() => multivariateNormal(random.key(0), [0, 0], [[1, 2], [2, 1]], [], { method })).toThrow(/`cov` must be positive semi-definite/);
    }
    expect(() => multivariateNormal(random.key(0), [0, 0], [[1, 2], [2, 1]])).toThrow(/`cov` must be positive definite/);
    expect(() => multivariateNormal(random.key(0), [0, 0], [[1, NaN], [NaN, 1]])).toThrow(/`cov` must be finite/);
    expect(() => multivariateNormal(random.key(0), [0, Infinity], I2)).toThrow(/`mean` must be finite/);
  });

  it('rejects unknown methods, bad dtypes and non-numeric parameters', () => {
    expect(() => multivariateNormal(random.key(0), [0, 0], I2, [], { method: 'qr' as never })).toThrow(/`method` must be one of 'cholesky', 'eigh', 'svd'/);
    expect(() => multivariateNormal(random.key(0), [0, 0], I2, [], { dtype: 'int32' as never })).toThrow(/`dtype`/);
    expect(() => multivariateNormal(random.key(0), 'x' as never, I2)).toThrow(TypeError);
  });
});
