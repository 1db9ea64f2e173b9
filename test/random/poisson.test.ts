/**
 * random.poisson: JAX known answer, key derivation of both branches, per-element branch
 * selection, corner values, goodness of fit and bad input.
 *
 * Statistics: chi-square against @stdlib's Poisson pmf at fixed keys, cells merged to ≥ 20
 * expected draws, n = 100 000 draws per case (50 000 for the ALL_MODES sweep), rejecting at
 * ALPHA = 1e-6 (test/stats.ts). λ = 1e6 is checked by its moments only: JAX's float32 PTRS
 * evaluates −λ + k·log λ − lgamma(k + 1) with terms near 1.4e7 (float32 spacing 1), so its
 * acceptance test is coarse there and the variance comes out ≈ 2.7 % high. We reproduce that
 * arithmetic on purpose (the same algorithm in double passes a fine chi-square), so the test
 * pins the mean tightly and the variance loosely, and documents the effect.
 */
import { describe, expect, it } from 'vitest';
import poissonPmf from '@stdlib/stats-base-dists-poisson-pmf';
import * as random from '../../src/random/index.js';
import { poisson } from '../../src/random/poisson.js';
import { lgamma32 } from '../../src/random/xla-math.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA } from '../stats.js';
import { discreteChiSquare, moments, numbers } from './discrete-gof.js';

const f = Math.fround;

describe('random.poisson known answers (JAX _RANDOM_VALUES_CASES, §7.1, x32 original mode)', () => {
  it('poisson row: seed 1349191556, λ = 5, shape (5,) → [7, 3, 6, 11, 6] exactly', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = poisson(random.key(1349191556), 5, [5]);
      expect(t.dtype).toBe('int32');
      expect(Array.from(t.data as Int32Array)).toEqual([7, 3, 6, 11, 6]);
    });
  });
});

describe('random.poisson key derivation', () => {
  it("Knuth: each round `rng, sub = split(rng)`, a whole-shape float32 uniform from sub (written from §6.14)", () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const lam = [0.5, 3, 9.5, 0.01, 7];
        const n = lam.length;
        const k = new Array<number>(n).fill(0);
        const logp = new Array<number>(n).fill(0);
        let rng = random.key(99);
        while (logp.some((lp, i) => lp > -f(lam[i]!))) {
          const [next, sub] = random.split(rng);
          rng = next!;
          for (let i = 0; i < n; i++) if (logp[i]! > -f(lam[i]!)) k[i]!++;
          const u = random.uniform(sub!, [n], { dtype: 'float32' }).data;
          for (let i = 0; i < n; i++) logp[i] = f(logp[i]! + f(Math.log(u[i]!)));
        }
        expect(numbers(poisson(random.key(99), lam).data)).toEqual(k.map((v) => v - 1));
      });
    }
  });

  it('PTRS: each round `key, s0, s1 = split(key, 3)` (u from s0, v from s1); runs until all accept; the last accepted proposal wins', () => {
    // An independent double-precision restatement of §6.14's loop; a seed whose draws come
    // within a tolerance of any threshold is skipped (float32 rounding could decide it).
    const logFact = [0];
    for (let k = 1; k <= 5000; k++) logFact.push(logFact[k - 1]! + Math.log(k));
    const reference = (seed: number, lam: number[]): number[] | null => {
      const n = lam.length;
      const out = new Array<number>(n).fill(-1);
      const done = new Array<boolean>(n).fill(false);
      let key = random.key(seed);
      for (let round = 0; done.some((d) => !d); round++) {
        const [next, s0, s1] = random.split(key, 3);
        key = next!;
        const u0 = random.uniform(s0!, [n], { dtype: 'float32' }).data;
        const v0 = random.uniform(s1!, [n], { dtype: 'float32' }).data;
        for (let i = 0; i < n; i++) {
          const l = lam[i]!, b = 0.931 + 2.53 * Math.sqrt(l), a = -0.059 + 0.02483 * b;
          const invAlpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
          const u = u0[i]! - 0.5, v = v0[i]!, us = 0.5 - Math.abs(u);
          const x = (2 * a / us + b) * u + l + 0.43;
          if (Math.abs(x - Math.round(x)) < 1e-3 || Math.abs(v - vr) < 1e-5) return null;
          const k = Math.floor(x);
          let accept = us >= f(0.07) && v <= vr;
          if (!accept && !(k < 0 || (us < f(0.013) && v > us))) {
            const sv = Math.log(v * invAlpha / (a / (us * us) + b));
            const t = -l + k * Math.log(l) - logFact[k]!;
            if (Math.abs(sv - t) < 1e-3) return null;
            accept = sv <= t;
          }
          if (accept) { out[i] = k; done[i] = true; }
        }
      }
      return out;
    };
    for (const m of ALL_MODES) {
      withModes(m, () => {
        let compared = 0;
        for (let seed = 0; seed < 30; seed++) {
          const lam = [50, 12, 300, 50.5, 10];
          const want = reference(seed, lam);
          if (want === null) continue;
          expect(numbers(poisson(random.key(seed), lam).data)).toEqual(want);
          compared++;
        }
        expect(compared).toBeGreaterThan(20);
      });
    }
  });

  it('runs both branches from one key: Knuth elements do not depend on the rest of the array', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const mixed = numbers(poisson(random.key(3), [4, 40, 0.2, 400, 9.99, 10]).data);
        expect(mixed[0]).toBe(numbers(poisson(random.key(3), 4, [6]).data)[0]);
        expect(mixed[2]).toBe(numbers(poisson(random.key(3), 0.2, [6]).data)[2]);
        expect(mixed[4]).toBe(numbers(poisson(random.key(3), 9.99, [6]).data)[4]);
      });
    }
  });

  it('a rejection element keeps its last accepted proposal, so its value depends on when the others finish', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      let changed = 0;
      for (let seed = 0; seed < 40; seed++) {
        const fast = numbers(poisson(random.key(seed), [30, 1, 1, 1, 1, 1, 1, 1]).data)[0];
        const slow = numbers(poisson(random.key(seed), [30, 30, 30, 30, 30, 30, 30, 30]).data)[0];
        if (fast !== slow) changed++;
      }
      expect(changed).toBeGreaterThan(0);
    });
  });

  it('converts λ to float32 in every mode (float64 λ that round alike give the same draws)', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const a = numbers(poisson(random.key(8), 12.3, [50]).data);
      const b = numbers(poisson(random.key(8), tensor([f(12.3)], 'float32').reshape([]), [50]).data);
      expect(a).toEqual(b);
    });
  });
});

describe('random.poisson corners', () => {
  it('λ = 0 gives 0; negative or NaN λ gives −1 (as JAX); default dtypes int64 / int32', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const t = poisson(random.key(1), [0, -1, NaN, -20, 0], [2, 5]);
      expect(t.dtype).toBe('int64');
      expect(Array.from(t.data as BigInt64Array)).toEqual([0n, -1n, -1n, -1n, 0n, 0n, -1n, -1n, -1n, 0n]);
    });
    withModes({ x64: false, threefryPartitionable: true }, () => {
      const t = poisson(random.key(1), 0, [3]);
      expect(t.dtype).toBe('int32');
      expect(Array.from(t.data as Int32Array)).toEqual([0, 0, 0]);
      expect(poisson(random.key(1), 2.5, [4], { dtype: 'int16' }).dtype).toBe('int16');
    });
  });

  it('shape defaults to λ\'s shape; scalars give shape []', () => {
    expect(poisson(random.key(1), [[1, 2, 3]]).shape).toEqual([1, 3]);
    expect(poisson(random.key(1), 4).shape).toEqual([]);
    expect(poisson(random.key(1), [1, 2], [0, 2]).shape).toEqual([0, 2]);
  });
});

describe('lgamma32 (XLA float32 lgamma)', () => {
  it('matches log Γ to float32 accuracy, with reflection and poles', () => {
    let logFact = 0;
    for (let k = 1; k <= 200; k++) {
      logFact += Math.log(k);
      expect(Math.abs(lgamma32(k + 1) - logFact)).toBeLessThanOrEqual(2e-6 * Math.max(1, logFact));
    }
    expect(lgamma32(1e6 + 1)).toBeCloseTo(12815518.38, -1);
    expect(lgamma32(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 6);
    expect(lgamma32(-0.5)).toBeCloseTo(Math.log(2 * Math.sqrt(Math.PI)), 5);
    expect(lgamma32(-2)).toBe(Infinity);
    expect(lgamma32(Infinity)).toBe(Infinity);
    expect(lgamma32(1)).toBeCloseTo(0, 6);
  });
});

describe('random.poisson statistics (chi-square against @stdlib pmf, alpha 1e-6)', () => {
  const cases: [number, number][] = [[1e-3, 100000], [1, 100000], [9.9, 100000], [10.1, 100000], [60, 100000], [1e4, 100000]];
  it.each(cases)('λ = %s, n = %i, x64 partitionable and x32 original', (lam, n) => {
    for (const m of [ALL_MODES[0], ALL_MODES[3]]) {
      withModes(m, () => {
        const x = numbers(poisson(random.key(2024), lam, [n]).data);
        const sd = Math.sqrt(lam);
        const p = discreteChiSquare(x, (k) => poissonPmf(k, lam), 0, Math.ceil(lam + 12 * sd + 10));
        expect(p).toBeGreaterThan(ALPHA);
      });
    }
  });

  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('λ = 3.7 and 25 in %s (n = 50 000)', (_, m) => {
    withModes(m, () => {
      for (const lam of [3.7, 25]) {
        const x = numbers(poisson(random.key(77), lam, [50000]).data);
        expect(discreteChiSquare(x, (k) => poissonPmf(k, lam), 0, Math.ceil(lam + 12 * Math.sqrt(lam) + 10))).toBeGreaterThan(ALPHA);
      }
    });
  });

  it('λ = 1e-3: zeros and ones only at this size, mean ≈ λ', () => {
    const x = numbers(poisson(random.key(31), 1e-3, [200000]).data);
    expect(x.every((v) => v >= 0 && v <= 2)).toBe(true);
    expect(Math.abs(moments(x).mean - 1e-3)).toBeLessThan(6 * Math.sqrt(1e-3 / 200000));
  });

  it('λ = 1e6 (n = 100 000): mean within 6 standard errors; variance within [0.97, 1.06]·λ (JAX float32 PTRS inflates it ≈ 2.7 %)', () => {
    for (const m of [ALL_MODES[0], ALL_MODES[3]]) {
      withModes(m, () => {
        const lam = 1e6, n = 100000;
        const x = numbers(poisson(random.key(4242), lam, [n]).data);
        const { mean, variance } = moments(x);
        expect(Math.abs(mean - lam)).toBeLessThan(6 * Math.sqrt(lam / n));
        expect(variance / lam).toBeGreaterThan(0.97);
        expect(variance / lam).toBeLessThan(1.06);
      });
    }
  });
});

describe('random.poisson bad input', () => {
  it('names the function and the argument', () => {
    const k = random.key(0);
    expect(() => poisson(k, Infinity, [2])).toThrow(RangeError);
    expect(() => poisson(k, [1, Infinity])).toThrow(/random\.poisson: `lam` must be finite/);
    expect(() => poisson(k, 'a' as never)).toThrow(TypeError);
    expect(() => poisson(k, ['a'] as never)).toThrow(/random\.poisson: `lam`/);
    expect(() => poisson(k, [1, 2, 3], [2])).toThrow(/random\.poisson: .*`lam`.*broadcast/);
    expect(() => poisson(k, 1, [-1])).toThrow(RangeError);
    expect(() => poisson(k, 1, [2], { dtype: 'float32' as never })).toThrow(/random\.poisson: `dtype`/);
    expect(() => poisson({} as never, 1)).toThrow(/random\.poisson: `key`/);
    expect(() => poisson(random.split(k), 1)).toThrow(/single key/);
    withModes({ x64: false, threefryPartitionable: true }, () => {
      expect(() => poisson(k, 1, [2], { dtype: 'int64' })).toThrow(/x64/);
    });
  });
});

describe('random.poisson rate beyond float32 (issue 18)', () => {
  it('names the float32 limit rather than calling a finite rate infinite', () => {
    expect(() => random.poisson(random.key(0), 1e300)).toThrow(RangeError);
    expect(() => random.poisson(random.key(0), 1e300)).toThrow(/random\.poisson: `lam` must be finite and at most 3\.4028234663852886e\+38 \(λ is computed in float32, as in JAX\); got 1e\+300/);
  });
});
