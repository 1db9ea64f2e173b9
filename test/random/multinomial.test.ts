/**
 * random.multinomial: JAX's conditional-binomial scheme (category i draws
 * binomial(split(key, K)[i], remaining, p_i / Σ_{j≥i} p_j)), shapes, zero-probability
 * categories, moments, a joint chi-square and bad input. jax-random.md has no multinomial row.
 *
 * Statistics, at fixed keys, rejecting at ALPHA = 1e-6 (test/stats.ts): the joint law of
 * (n = 3, K = 3) against the multinomial pmf written out in the test (30 000 draws, chi-square
 * over the 10 outcomes); means and covariances of (n = 20, K = 4) over 20 000 draws against
 * n·p and n·(diag p − p pᵀ), each within 6 standard errors (two-sided normal tail ≈ 2e-9 per
 * entry); a marginal chi-square against @stdlib's binomial pmf (40 000 draws).
 */
import { describe, expect, it } from 'vitest';
import binomialPmf from '@stdlib/stats-base-dists-binomial-pmf';
import * as random from '../../src/random/index.js';
import { binomial } from '../../src/random/binomial.js';
import { multinomial } from '../../src/random/multinomial.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';
import { discreteChiSquare } from './discrete-gof.js';

describe('random.multinomial scheme (JAX ≥ 0.5.1)', () => {
  it('category i is binomial(split(key, K)[i], remaining count, p_i / tail sum)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const r = m.x64 ? (v: number) => v : Math.fround;
        const p = [0.2, 0.3, 0.5].map(r);
        const n = [7, 40, 1000, 0];
        const got = Array.from(multinomial(random.key(8), tensor(n, m.x64 ? 'float64' : 'float32'), p, { shape: [4, 3] }).data);
        const keys = [...random.split(random.key(8), 3)];
        const tail = [r(r(p[2]! + p[1]!) + p[0]!), r(p[2]! + p[1]!), p[2]!];
        let remaining = n.slice();
        const want: number[][] = n.map(() => []);
        for (let i = 0; i < 3; i++) {
          const ratio = r(p[i]! / tail[i]!);
          const c = Array.from(binomial(keys[i]!, remaining, ratio, [4]).data);
          c.forEach((v, b) => want[b]!.push(v));
          remaining = remaining.map((v, b) => r(v - c[b]!));
        }
        expect(got).toEqual(want.flat());
      });
    }
  });

  it('rows sum to n; a zero-probability category gets 0; unnormalised p is normalised', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const t = multinomial(random.key(3), [5, 50, 5000], [[1, 0, 3, 6]], { shape: [3, 4] });
        expect(t.shape).toEqual([3, 4]);
        const d = Array.from(t.data);
        for (let b = 0; b < 3; b++) {
          const row = d.slice(4 * b, 4 * b + 4);
          expect(row.reduce((a, v) => a + v, 0)).toBe([5, 50, 5000][b]);
          expect(row[1]).toBe(0);
          expect(row.every((v) => Number.isInteger(v) && v >= 0)).toBe(true);
        }
        const big = Array.from(multinomial(random.key(3), 1e6, [0.2, 0.3, 0.5]).data);
        expect(big.reduce((a, v) => a + v, 0)).toBe(1e6);
      });
    }
  });

  it('dtypes and shapes: float output, default shape p.shape, n broadcast to shape[:-1]', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      expect(multinomial(random.key(1), 10, [0.5, 0.5]).dtype).toBe('float64');
      expect(multinomial(random.key(1), 10, [0.5, 0.5], { dtype: 'float32' }).dtype).toBe('float32');
      expect(multinomial(random.key(1), [1, 2], [[0.5, 0.5], [0.1, 0.9]]).shape).toEqual([2, 2]);
      expect(multinomial(random.key(1), 3, [0.2, 0.8], { shape: [5, 2] }).shape).toEqual([5, 2]);
    });
    withModes({ x64: false, threefryPartitionable: false }, () => {
      expect(multinomial(random.key(1), 10, [0.5, 0.5]).dtype).toBe('float32');
    });
  });
});

describe('random.multinomial statistics (alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('joint law of n = 3, p = (0.2, 0.3, 0.5) in %s (30 000 draws)', (_, m) => {
    withModes(m, () => {
      const p = [0.2, 0.3, 0.5], N = 30000;
      const d = Array.from(multinomial(random.key(555), 3, p, { shape: [N, 3] }).data);
      const fact = [1, 1, 2, 6];
      const counts = new Map<string, number>();
      for (let i = 0; i < N; i++) {
        const key = `${d[3 * i]},${d[3 * i + 1]},${d[3 * i + 2]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const cells: number[] = [], probs: number[] = [];
      for (let a = 0; a <= 3; a++) {
        for (let b = 0; a + b <= 3; b++) {
          const c = 3 - a - b;
          probs.push(fact[3]! / (fact[a]! * fact[b]! * fact[c]!) * p[0]! ** a * p[1]! ** b * p[2]! ** c);
          cells.push(counts.get(`${a},${b},${c}`) ?? 0);
        }
      }
      expect(cells.reduce((x, y) => x + y, 0)).toBe(N);
      expect(chiSquarePValue(cells, probs)).toBeGreaterThan(ALPHA);
    });
  });

  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('means and covariances of n = 20, p ∝ (1, 2, 3, 4) in %s (20 000 draws)', (_, m) => {
    withModes(m, () => {
      const n = 20, p = [0.1, 0.2, 0.3, 0.4], K = 4, N = 20000;
      const d = Array.from(multinomial(random.key(808), n, [1, 2, 3, 4], { shape: [N, K] }).data);
      const mean = new Array<number>(K).fill(0);
      for (let i = 0; i < N; i++) for (let a = 0; a < K; a++) mean[a] += d[K * i + a]!;
      for (let a = 0; a < K; a++) mean[a]! /= N;
      const cov = (a: number, b: number) => (a === b ? n * p[a]! * (1 - p[a]!) : -n * p[a]! * p[b]!);
      for (let a = 0; a < K; a++) {
        expect(Math.abs(mean[a]! - n * p[a]!)).toBeLessThan(6 * Math.sqrt(cov(a, a) / N));
        for (let b = 0; b < K; b++) {
          let s = 0;
          for (let i = 0; i < N; i++) s += (d[K * i + a]! - mean[a]!) * (d[K * i + b]! - mean[b]!);
          const se = Math.sqrt((cov(a, a) * cov(b, b) + cov(a, b) ** 2) / N);
          expect(Math.abs(s / (N - 1) - cov(a, b))).toBeLessThan(6 * se);
        }
      }
    });
  });

  it('marginals are binomial: the last of five categories with n = 300 (x64) and n = 60 (x32)', () => {
    for (const [m, n] of [[ALL_MODES[0], 300], [ALL_MODES[3], 60]] as const) {
      withModes(m, () => {
        const p = [0.05, 0.15, 0.25, 0.2, 0.35], N = 40000;
        const d = Array.from(multinomial(random.key(31337), n, p, { shape: [N, 5] }).data);
        const last = Array.from({ length: N }, (_, i) => d[5 * i + 4]!);
        expect(discreteChiSquare(last, (k) => binomialPmf(k, n, 0.35), 0, n)).toBeGreaterThan(ALPHA);
      });
    }
  });
});

describe('random.multinomial bad input', () => {
  it('names the function and the argument', () => {
    const k = random.key(0);
    for (const n of [-1, NaN, Infinity]) expect(() => multinomial(k, n, [0.5, 0.5])).toThrow(/random\.multinomial: `n`/);
    for (const p of [-0.1, NaN, Infinity]) expect(() => multinomial(k, 3, [0.5, p])).toThrow(/random\.multinomial: `p`/);
    expect(() => multinomial(k, 3, [[0.5, 0.5], [0, 0]])).toThrow(/random\.multinomial: `p` must have a positive entry/);
    expect(() => multinomial(k, 3, 0.5)).toThrow(/random\.multinomial: `p`/);
    expect(() => multinomial(k, 'a' as never, [0.5, 0.5])).toThrow(TypeError);
    expect(() => multinomial(k, [1, 2, 3], [0.5, 0.5], { shape: [2, 2] })).toThrow(/random\.multinomial: .*`n`/);
    expect(() => multinomial(k, 3, [0.2, 0.3, 0.5], { shape: [2] })).toThrow(/random\.multinomial: .*`p`/);
    expect(() => multinomial(k, 3, [0.5, 0.5], { shape: [2], dtype: 'int32' as never })).toThrow(/random\.multinomial: `dtype`/);
    expect(() => multinomial({} as never, 3, [0.5, 0.5])).toThrow(/random\.multinomial: `key`/);
  });
});
