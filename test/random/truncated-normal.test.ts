/**
 * random.truncatedNormal: JAX values (§7.1 row and the part-C fixture in all four modes), the
 * tail method where JAX's algorithm degenerates, goodness of fit and bad input.
 *
 * Statistics: KS at fixed keys, n = 20000 per mode, dtype and interval, each rejecting at
 * ALPHA = 1e-6 (test/stats.ts), against the truncated normal CDF written in log space with
 * @stdlib's normal log-CDF: for lower ≥ 0, F(x) = expm1(L(x) − L(lower)) / expm1(L(upper) − L(lower))
 * with L(x) = log Q(x) = logΦ(−x), mirrored for upper ≤ 0, and plain Φ differences otherwise.
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalLogCdf from '@stdlib/stats-base-dists-normal-logcdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { TAIL_FALLBACK_MIN_VALUES, truncatedNormal, truncatedNormalTailQuantile } from '../../src/random/truncated-normal.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));
const logQ = (x: number) => normalLogCdf(-x, 0, 1);
const logPhi = (x: number) => normalLogCdf(x, 0, 1);

/** CDF of the standard normal truncated to [lo, hi], accurate in either tail. */
function truncatedCdf(lo: number, hi: number): (x: number) => number {
  if (lo >= 0) {
    const total = Math.expm1(logQ(hi) - logQ(lo));
    return (x) => (x <= lo ? 0 : x >= hi ? 1 : Math.expm1(logQ(x) - logQ(lo)) / total);
  }
  if (hi <= 0) {
    const total = -Math.expm1(logPhi(lo) - logPhi(hi));
    return (x) => (x <= lo ? 0 : x >= hi ? 1 : (Math.exp(logPhi(x) - logPhi(hi)) - Math.exp(logPhi(lo) - logPhi(hi))) / total);
  }
  const a = normalCdf(lo, 0, 1), b = normalCdf(hi, 0, 1);
  return (x) => (x <= lo ? 0 : x >= hi ? 1 : (normalCdf(x, 0, 1) - a) / (b - a));
}

describe('random.truncatedNormal known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES truncated_normal row lower = 0, upper = 2 (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [0.5828065276145935, 1.7097711563110352, 0.1595129370689392, 0.8613762855529785, 0.3614804446697235];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = truncatedNormal(random.key(2846034731), 0, 2, [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture ([0, 2], [−1, 1.5], [−∞, −2], [0, ∞], broadcast arrays): all four modes, float32 and float64', () => {
    const n = checkJaxCases('truncated_normal', (k, c, [lo, hi]) => truncatedNormal(k, lo, hi, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }));
    expect(n).toBe(30);
  });
});

describe('random.truncatedNormal far in a tail (where JAX has a handful of outcomes, or one)', () => {
  it('gives distinct values inside (8, 9) in both dtypes, mirrored for (−9, −8)', () => {
    for (const dtype of ['float64', 'float32'] as const) {
      const x = truncatedNormal(random.key(1), 8, 9, [1000], { dtype }).data;
      expect(x.every((v) => v > 8 && v < 9)).toBe(true);
      expect(new Set(x).size).toBeGreaterThan(900);
      const y = truncatedNormal(random.key(1), -9, -8, [1000], { dtype }).data;
      expect(Array.from(y)).toEqual(Array.from(x, (v) => -v));
    }
  });

  it('maps the same uniform per element: a mixed array equals the scalar calls element by element', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const mixed = truncatedNormal(random.key(2), [0, 8, -1, -40], [2, 9, 1, -39]).data;
        const alone = [[0, 2], [8, 9], [-1, 1], [-40, -39]].map(([lo, hi], i) => truncatedNormal(random.key(2), lo!, hi!, [4]).data[i]);
        expect(Array.from(mixed)).toEqual(alone);
      });
    }
  });

  it('hands over to the tail method only when JAX\'s uniform range holds fewer than 4096 values', () => {
    expect(TAIL_FALLBACK_MIN_VALUES).toBe(4096);
    // [3, 4] in float64 and [0, 2] in float32 follow JAX (fixture and §7.1); [5, 6] in float32
    // has about 10 representable uniforms and uses the tail method: its values are not all
    // √2·erfinv of a float32 in [erf(5/√2), erf(6/√2)], which holds only ~10 distinct values.
    const x = truncatedNormal(random.key(3), 5, 6, [1000], { dtype: 'float32' }).data;
    expect(new Set(x).size).toBeGreaterThan(500);
  });

  it('inverts the truncated CDF accurately: the tail quantile against bisection on @stdlib\'s log-CDF', () => {
    for (const [lo, hi] of [[8, 9], [40, Infinity], [3, 4], [0.5, 0.75], [0, Infinity], [5, 5.001]] as const) {
      const cdf = truncatedCdf(lo, hi);
      for (const f of [1e-9, 0.001, 0.1, 0.5, 0.9, 0.999]) {
        let a: number = lo, b = Math.min(hi, lo + 40);
        for (let i = 0; i < 200; i++) { const mid = (a + b) / 2; if (cdf(mid) < f) a = mid; else b = mid; }
        const got = truncatedNormalTailQuantile(lo, hi, f);
        expect(Math.abs(got - a), `${lo} ${hi} ${f}`).toBeLessThanOrEqual(1e-10 * (a - lo) + 4e-16 * Math.max(a, 1));
        expect(truncatedNormalTailQuantile(-hi, -lo, f)).toBe(-got);
      }
    }
  });

  it('stays accurate for a very narrow interval away from 0 and for huge bounds', () => {
    const x = truncatedNormal(random.key(4), 1, 1 + 1e-10, [100]).data;
    expect(x.every((v) => v > 1 && v < 1 + 1e-10)).toBe(true);
    const y = truncatedNormal(random.key(4), 1e6, Infinity, [100]).data;
    expect(y.every((v) => v > 1e6 && v < 1e6 + 3e-5)).toBe(true);
  });
});

describe('random.truncatedNormal statistics (KS against the truncated normal CDF, n = 20000, alpha 1e-6)', () => {
  const intervals: [number, number][] = [[0, 2], [-1, 1.5], [-0.1, 0.1], [0, Infinity], [8, 9], [-9, -8], [3, 4], [5, 6], [40, Infinity], [-Infinity, -12]];
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const [lo, hi] of intervals) {
          const x = truncatedNormal(random.key(44), lo, hi, [20000], { dtype }).data;
          expect(x.every((v) => v > lo && v < hi), `${lo} ${hi} ${dtype}`).toBe(true);
          expect(ksPValue(x, truncatedCdf(lo, hi)), `${lo} ${hi} ${dtype}`).toBeGreaterThan(ALPHA);
        }
      }
    });
  });
});

describe('random.truncatedNormal shapes and bad input', () => {
  it('broadcasts lower and upper; shape defaults to their broadcast shape', () => {
    expect(truncatedNormal(random.key(0), [-1, 0], 1).shape).toEqual([2]);
    expect(truncatedNormal(random.key(0), tensor([[-1], [0]]), [1, 2, 3]).shape).toEqual([2, 3]);
    expect(truncatedNormal(random.key(0), 0, 1, [4, 2]).shape).toEqual([4, 2]);
  });

  it('rejects lower >= upper (after rounding to the dtype), NaN bounds and non-numeric bounds, naming them', () => {
    expect(() => truncatedNormal(random.key(0), 1, 1)).toThrow(/random\.truncatedNormal: `lower` must be less than `upper`/);
    expect(() => truncatedNormal(random.key(0), [0, 2], 1)).toThrow(RangeError);
    expect(() => truncatedNormal(random.key(0), 1, 1 + 1e-12, [], { dtype: 'float32' })).toThrow(/`lower` must be less than `upper`/);
    expect(() => truncatedNormal(random.key(0), NaN, 1)).toThrow(/random\.truncatedNormal: `lower` must not be NaN/);
    expect(() => truncatedNormal(random.key(0), 0, NaN)).toThrow(/`upper` must not be NaN/);
    expect(() => truncatedNormal(random.key(0), Infinity, Infinity)).toThrow(RangeError);
    expect(() => truncatedNormal(random.key(0), '0' as never, 1)).toThrow(TypeError);
    expect(() => truncatedNormal(random.key(0), [0, 1, 2], 3, [2])).toThrow(/do not broadcast/);
  });
});
