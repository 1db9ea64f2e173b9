/**
 * random.orthogonal: JAX values (part-C fixture in all four modes; §7.1 has no orthogonal row),
 * orthogonality, Haar distribution and bad input.
 *
 * Haar checks at fixed keys, each rejecting at ALPHA = 1e-6 (test/stats.ts), n = 5000 matrices
 * per mode, dtype and size: for a Haar-random matrix every row (n ≤ m) or column (n ≥ m) is
 * uniform on the sphere, so a squared entry follows Beta(1/2, (d − 1)/2) with d the row or column
 * length (KS against @stdlib's beta CDF, on the first and on the last diagonal entry); entry signs
 * are fair and, for square matrices, det = ±1 with probability ½ each (chi-square, 2 cells).
 */
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { orthogonal } from '../../src/random/orthogonal.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

/** det of a small row-major n×n matrix by Gaussian elimination with partial pivoting. */
function det(a: ArrayLike<number>, n: number, offset: number): number {
  const m = Array.from({ length: n * n }, (_, i) => a[offset + i]!);
  let d = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[p * n + c]!)) p = r;
    if (p !== c) { for (let k = 0; k < n; k++) [m[c * n + k], m[p * n + k]] = [m[p * n + k]!, m[c * n + k]!]; d = -d; }
    d *= m[c * n + c]!;
    for (let r = c + 1; r < n; r++) {
      const f = m[r * n + c]! / m[c * n + c]!;
      for (let k = c; k < n; k++) m[r * n + k]! -= f * m[c * n + k]!;
    }
  }
  return d;
}

describe('random.orthogonal known answers (jax 0.10.2)', () => {
  it('the part-C fixture (3×3 batch, 2×3, 3×2): all four modes, float32 and float64', () => {
    const n = checkJaxCases('orthogonal', (k, c, [n]) => orthogonal(k, n, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType, m: c.kwargs.m }));
    expect(n).toBe(18);
  });
});

describe('random.orthogonal structure', () => {
  it.each([[3, 3], [4, 2], [2, 5], [1, 1], [6, 6]])('n = %i, m = %i: orthonormal rows or columns in both dtypes', (n, m) => {
    for (const dtype of ['float64', 'float32'] as const) {
      const t = orthogonal(random.key(6), n, [10], { dtype, m });
      expect(t.shape).toEqual([10, n, m]);
      const tol = dtype === 'float64' ? 1e-14 : 2e-6;
      for (let b = 0; b < 10; b++) {
        const o = b * n * m;
        const k = Math.min(n, m);
        for (let i = 0; i < k; i++) {
          for (let j = 0; j < k; j++) {
            let s = 0;   // columns' inner products when n ≥ m, rows' when n < m
            if (n >= m) for (let r = 0; r < n; r++) s += t.data[o + r * m + i]! * t.data[o + r * m + j]!;
            else for (let c = 0; c < m; c++) s += t.data[o + i * m + c]! * t.data[o + j * m + c]!;
            expect(Math.abs(s - (i === j ? 1 : 0))).toBeLessThan(tol);
          }
        }
      }
    }
  });

  it('defaults m to n and the batch shape to []', () => {
    expect(orthogonal(random.key(0), 4).shape).toEqual([4, 4]);
    expect(orthogonal(random.key(0), 0).shape).toEqual([0, 0]);
    expect(orthogonal(random.key(0), 2, [3, 1]).shape).toEqual([3, 1, 2, 2]);
  });
});

describe('random.orthogonal Haar statistics (n = 5000 matrices, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, mode) => {
    withModes(mode, () => {
      for (const dtype of mode.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const [n, m] of [[2, 2], [3, 3], [5, 5], [2, 4], [4, 3]] as const) {
          const t = orthogonal(random.key(48), n, [5000], { dtype, m }).data;
          const d = n <= m ? m : n;                   // length of the uniformly distributed rows / columns
          const first = Array.from({ length: 5000 }, (_, b) => t[b * n * m]!);
          const last = Array.from({ length: 5000 }, (_, b) => t[b * n * m + (Math.min(n, m) - 1) * (m + 1)]!);
          for (const [name, x] of [['first', first], ['last', last]] as const) {
            const label = `${n}×${m} ${dtype} ${name}`;
            expect(ksPValue(x.map((v) => v * v), (v) => betaCdf(v, 0.5, (d - 1) / 2)), label).toBeGreaterThan(ALPHA);
            const positive = x.filter((v) => v > 0).length;
            expect(chiSquarePValue([positive, 5000 - positive], [0.5, 0.5]), label).toBeGreaterThan(ALPHA);
          }
          if (n === m) {
            const dets = Array.from({ length: 5000 }, (_, b) => det(t, n, b * n * n));
            expect(dets.every((v) => Math.abs(Math.abs(v) - 1) < 1e-5)).toBe(true);
            const plus = dets.filter((v) => v > 0).length;
            expect(chiSquarePValue([plus, 5000 - plus], [0.5, 0.5])).toBeGreaterThan(ALPHA);
          }
        }
      }
    });
  });
});

describe('random.orthogonal bad input', () => {
  it('rejects bad n, m, shape and dtype, naming the argument', () => {
    expect(() => orthogonal(random.key(0), -1)).toThrow(/random\.orthogonal: `n` must be a non-negative integer/);
    expect(() => orthogonal(random.key(0), 2.5)).toThrow(TypeError);
    expect(() => orthogonal(random.key(0), 2, [], { m: -3 })).toThrow(/random\.orthogonal: `m` must be a non-negative integer/);
    expect(() => orthogonal(random.key(0), 2, [-1])).toThrow(/random\.orthogonal: `shape\[0\]` must be a non-negative dimension/);
    expect(() => orthogonal(random.key(0), 2, [], { dtype: 'int8' as never })).toThrow(/`dtype`/);
    expect(() => orthogonal(random.split(random.key(0)), 2)).toThrow(/single key/);
  });
});
