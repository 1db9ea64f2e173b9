/**
 * random.binomial: key derivation of both branches (written from §6.15), per-element branch
 * selection, the p ≥ ½ reflection, JAX's NaN/∞ conventions, dtype rules, goodness of fit and
 * bad input. jax-random.md has no binomial known-answer row.
 *
 * Statistics: chi-square against @stdlib's binomial pmf at fixed keys, cells merged to ≥ 20
 * expected draws, n = 100 000 draws per case (50 000 in the ALL_MODES sweep), rejecting at
 * ALPHA = 1e-6 (test/stats.ts). BTRS with n ≳ 1e7 runs in x64 modes only: with float32 p
 * (x32 mode) JAX's BTRS evaluates (n + 1)·log((n − m + 1)/(n − k + 1)) in float32, which
 * cancels catastrophically for large n (and counts above 2^24 are not even representable), so
 * its draws are visibly off there (variance +1 % at n = 1e7, p = 1e-4; +33 % at n = 1e9,
 * p = 1e-6). We reproduce that arithmetic, so x32 is tested up to n = 1e6.
 */
import { describe, expect, it } from 'vitest';
import binomialPmf from '@stdlib/stats-base-dists-binomial-pmf';
import * as random from '../../src/random/index.js';
import { binomial } from '../../src/random/binomial.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA } from '../stats.js';
import { discreteChiSquare } from './discrete-gof.js';

const X64 = ALL_MODES[0];
const X32_ORIGINAL = ALL_MODES[3];

describe('random.binomial key derivation', () => {
  it('inversion: each round `sub, key = split(key)` (subkey first, unlike poisson), uniform in p\'s dtype', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const r = m.x64 ? (v: number) => v : Math.fround;
        const dtype = m.x64 ? 'float64' : 'float32';
        const ns = [3, 7, 0, 12, 40];
        const ps = [0.3, 0.1, 0.4, 0.05, 0.2].map(r);
        const size = ns.length;
        const num = new Array<number>(size).fill(0);
        const sum = new Array<number>(size).fill(0);
        let key = random.key(123);
        while (sum.some((s, i) => s <= ns[i]!)) {
          const [sub, next] = random.split(key);
          key = next!;
          for (let i = 0; i < size; i++) if (sum[i]! <= ns[i]!) num[i]!++;
          const u = random.uniform(sub!, [size], { dtype }).data;
          for (let i = 0; i < size; i++) sum[i] = r(sum[i]! + Math.ceil(r(r(Math.log(u[i]!)) / r(Math.log1p(-ps[i]!)))));
        }
        const got = Array.from(binomial(random.key(123), ns, [0.3, 0.1, 0.4, 0.05, 0.2]).data);
        expect(got).toEqual(num.map((k) => k - 1));
      });
    }
  });

  it('BTRS: each round `key, s0, s1 = split(key, 3)` (u from s0, v from s1); runs until all accept; the last accepted proposal wins', () => {
    // An independent double-precision restatement of §6.15's BTRS loop (the Stirling tail as
    // JAX evaluates it: the table up to 9, the series at 9 beyond); a seed whose draws come
    // within a tolerance of any threshold is skipped (dtype rounding could decide it).
    const table = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
      0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287];
    const st = (k: number) => (k <= 9 ? table[Math.min(Math.max(k, 0), 9)]! : (1 / 12 - (1 / 360 - 1 / 1260 / 100) / 100) / 10);
    const reference = (seed: number, ns: number[], ps: number[], dtype: 'float32' | 'float64'): number[] | null => {
      const size = ns.length;
      const out = new Array<number>(size).fill(-1);
      const done = new Array<boolean>(size).fill(false);
      let key = random.key(seed);
      while (done.some((d) => !d)) {
        const [next, s0, s1] = random.split(key, 3);
        key = next!;
        const u0 = random.uniform(s0!, [size], { dtype }).data;
        const v0 = random.uniform(s1!, [size], { dtype }).data;
        for (let i = 0; i < size; i++) {
          const n = ns[i]!, p = ps[i]!;
          const sd = Math.sqrt(n * p * (1 - p)), b = 1.15 + 2.53 * sd, a = -0.0873 + 0.0248 * b + 0.01 * p;
          const c = n * p + 0.5, vr = 0.92 - 4.2 / b, r = p / (1 - p), alpha = (2.83 + 5.1 / b) * sd, m = Math.floor((n + 1) * p);
          const u = u0[i]! - 0.5, v = v0[i]!, us = 0.5 - Math.abs(u);
          const x = (2 * a / us + b) * u + c;
          if (Math.abs(x - Math.round(x)) < 1e-3 || Math.abs(v - vr) < 1e-5) return null;
          const k = Math.floor(x);
          let accept = us >= 0.07 && v <= vr;
          if (!accept && !(k < 0 || k > n)) {
            const lv = Math.log(v * alpha / (a / (us * us) + b));
            const ub = (m + 0.5) * Math.log((m + 1) / (r * (n - m + 1))) + (n + 1) * Math.log((n - m + 1) / (n - k + 1))
              + (k + 0.5) * Math.log(r * (n - k + 1) / (k + 1)) + st(m) + st(n - m) - st(k) - st(n - k);
            if (Math.abs(lv - ub) < 1e-3) return null;
            accept = lv <= ub;
          }
          if (accept) { out[i] = k; done[i] = true; }
        }
      }
      return out;
    };
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const dtype = m.x64 ? 'float64' : 'float32';
        const r = m.x64 ? (v: number) => v : Math.fround;
        const ns = [1000, 200, 5000, 60], ps = [0.3, 0.45, 0.02, 0.4].map(r);   // all below ½: no n − sample reflection
        let compared = 0;
        for (let seed = 0; seed < 30; seed++) {
          const want = reference(seed, ns, ps, dtype);
          if (want === null) continue;
          expect(Array.from(binomial(random.key(seed), ns, ps).data)).toEqual(want);
          compared++;
        }
        expect(compared).toBeGreaterThan(20);
      });
    }
  });

  it('runs both branches from one key: inversion elements do not depend on the rest of the array', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const mixed = Array.from(binomial(random.key(4), [20, 1000, 100, 100], [0.3, 0.3, 0.1, 0.11]).data);
        expect(mixed[0]).toBe(binomial(random.key(4), 20, 0.3, [4]).data[0]);
        expect(mixed[2]).toBe(binomial(random.key(4), 100, 0.1, [4]).data[2]);   // n·q = 10 exactly: inversion
      });
    }
  });

  it('p ≥ ½ draws with q = 1 − p and returns n − sample', () => {
    withModes(X64, () => {
      for (const n of [20, 1000]) {
        const hi = Array.from(binomial(random.key(9), n, 0.7, [64]).data);
        const lo = Array.from(binomial(random.key(9), n, 1 - 0.7, [64]).data);
        expect(hi).toEqual(lo.map((s) => n - s));
      }
    });
    withModes(X32_ORIGINAL, () => {
      const p = Math.fround(0.8);
      const hi = Array.from(binomial(random.key(9), 500, p, [64]).data);
      const lo = Array.from(binomial(random.key(9), 500, Math.fround(1 - p), [64]).data);
      expect(hi).toEqual(lo.map((s) => 500 - s));
    });
  });
});

describe('random.binomial corners and dtypes (JAX conventions)', () => {
  it('n = 0 → 0, p = 0 → 0, p = 1 → n, fractional n floored, n = ∞ → ∞', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        expect(Array.from(binomial(random.key(1), 0, 0.4, [3]).data)).toEqual([0, 0, 0]);
        expect(Array.from(binomial(random.key(1), 50, 0, [3]).data)).toEqual([0, 0, 0]);
        expect(Array.from(binomial(random.key(1), 50, 1, [3]).data)).toEqual([50, 50, 50]);
        expect(Array.from(binomial(random.key(1), 5.7, 1, [2]).data)).toEqual([5, 5]);
        expect(Array.from(binomial(random.key(1), Infinity, 0.3, [2]).data)).toEqual([Infinity, Infinity]);
        const ones = Array.from(binomial(random.key(1), 1, 0.5, [200]).data);
        expect(ones.every((v) => v === 0 || v === 1)).toBe(true);
      });
    }
  });

  it('invalid parameters give NaN elementwise, as JAX does (no error)', () => {
    const t = binomial(random.key(2), [5, -1, NaN, 5, 5, 5, -Infinity], [0.5, 0.5, 0.5, NaN, 1.5, -0.1, 0.5]);
    const d = Array.from(t.data);
    expect(d[0]).toBeGreaterThanOrEqual(0);
    expect(d.slice(1).every(Number.isNaN)).toBe(true);
  });

  it('float output; plain p is a Python float (float64 draws in x64), Tensor p keeps its dtype', () => {
    withModes(X64, () => {
      const t = binomial(random.key(3), 30, 0.2, [10]);
      expect(t.dtype).toBe('float64');
      expect(Array.from(binomial(random.key(3), 30, tensor([0.2], 'float64'), [10]).data)).toEqual(Array.from(t.data));
      const t32 = binomial(random.key(3), 30, tensor([Math.fround(0.2)], 'float32'), [10], { dtype: 'float32' });
      expect(t32.dtype).toBe('float32');
    });
    withModes(X32_ORIGINAL, () => {
      expect(binomial(random.key(3), 30, 0.2, [10]).dtype).toBe('float32');
    });
    expect(binomial(random.key(3), [[1], [2]], [0.1, 0.2, 0.3]).shape).toEqual([2, 3]);
  });
});

describe('random.binomial statistics (chi-square against @stdlib pmf, alpha 1e-6)', () => {
  const check = (n: number, p: number, size: number, seed: number, f32: boolean) => {
    const pp = f32 ? Math.fround(p) : p;
    const x = Array.from(binomial(random.key(seed), n, pp, [size]).data);
    const mean = n * pp, sd = Math.sqrt(n * pp * (1 - pp));
    const lo = Math.max(0, Math.floor(mean - 12 * sd - 10)), hi = Math.min(n, Math.ceil(mean + 12 * sd + 10));
    return discreteChiSquare(x, (k) => binomialPmf(k, n, pp), lo, hi);
  };

  const cases: [number, number][] = [
    [1, 0.3], [10, 0.5], [100, 0.1], [100, 0.1001], [100, 0.5], [50, 0.9], [1e4, 0.3], [1e6, 0.5], [1e6, 1e-3],
    [1e9, 1e-9], [2000, 0.999],
  ];
  it.each(cases)('n = %s, p = %s (n = 100 000 draws), x64 partitionable and x32 original', (n, p) => {
    withModes(X64, () => expect(check(n, p, 100000, 31, false)).toBeGreaterThan(ALPHA));
    withModes(X32_ORIGINAL, () => expect(check(n, p, 100000, 31, true)).toBeGreaterThan(ALPHA));
  });

  it('n = 1e9, p = 1e-6 and n = 1e7, p = 1e-4 (BTRS, x64 modes; float32 BTRS is off beyond n ≈ 1e6, as in JAX)', () => {
    for (const m of [ALL_MODES[0], ALL_MODES[1]]) {
      withModes(m, () => {
        expect(check(1e9, 1e-6, 100000, 31, false)).toBeGreaterThan(ALPHA);
        expect(check(1e7, 1e-4, 100000, 32, false)).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('n = 1e9, p = ½ and p = 1 − 1e-9 (x64 modes)', () => {
    for (const m of [ALL_MODES[0], ALL_MODES[1]]) {
      withModes(m, () => {
        expect(check(1e9, 0.5, 100000, 77, false)).toBeGreaterThan(ALPHA);
        const x = Array.from(binomial(random.key(77), 1e9, 1 - 1e-9, [100000]).data);
        // 1e9 − X ~ Binomial(1e9, 1e-9 + O(eps)) ≈ Poisson(1)
        expect(discreteChiSquare(x.map((v) => 1e9 - v), (k) => binomialPmf(k, 1e9, 1e-9), 0, 20)).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('x32: p = 1 − 1e-9 rounds to 1 in float32, so every draw is n', () => {
    withModes(X32_ORIGINAL, () => {
      expect(Array.from(binomial(random.key(5), 1e9, 1 - 1e-9, [100]).data).every((v) => v === 1e9)).toBe(true);
    });
  });

  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('n = 30 p = 0.2 and n = 400 p = 0.45 in %s (n = 50 000)', (_, m) => {
    withModes(m, () => {
      expect(check(30, 0.2, 50000, 8, !m.x64)).toBeGreaterThan(ALPHA);
      expect(check(400, 0.45, 50000, 8, !m.x64)).toBeGreaterThan(ALPHA);
    });
  });
});

describe('random.binomial bad input', () => {
  it('names the function and the argument', () => {
    const k = random.key(0);
    expect(() => binomial(k, 'a' as never, 0.5)).toThrow(/random\.binomial: `n`/);
    expect(() => binomial(k, 5, 'a' as never)).toThrow(/random\.binomial: `p`/);
    expect(() => binomial(k, 5, [['x']] as never)).toThrow(TypeError);
    expect(() => binomial(k, [1, 2, 3], 0.5, [2])).toThrow(/random\.binomial: .*`n`.*broadcast/);
    expect(() => binomial(k, 5, [0.1, 0.2], [3])).toThrow(RangeError);
    expect(() => binomial(k, 5, 0.5, [2], { dtype: 'int32' as never })).toThrow(/random\.binomial: `dtype`/);
    expect(() => binomial(7 as never, 5, 0.5)).toThrow(/random\.binomial: `key`/);
    withModes(X32_ORIGINAL, () => {
      expect(() => binomial(k, 5, tensor([0.5], 'float64'))).toThrow(/random\.binomial: `p`.*x64/);
    });
  });
});
