/**
 * random.t: its key order (kn, kg = split(key); n·√((df/2)/g) with n = normal(kn) and
 * g = gamma(kg, df/2)), goodness of fit with KS against @stdlib's t CDF at fixed keys
 * (n = 20000, rejecting at ALPHA = 1e-6, see test/stats.ts) for df = 0.5, 3 and 30 in float64
 * and float32 across the modes, and bad input. (JAX's §7.1 table has no t row;
 * test/random/samplers-numpy-reference.test.ts compares all four modes with the NumPy model.)
 */
import { describe, expect, it } from 'vitest';
import tCdf from '@stdlib/stats-base-dists-t-cdf';
import * as random from '../../src/random/index.js';
import { gamma } from '../../src/random/gamma.js';
import { t } from '../../src/random/t.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

describe('random.t', () => {
  it('is n·√((df/2)/g) with kn, kg = split(key), n = normal(kn), g = gamma(kg, df/2)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(12);
        const [kn, kg] = random.split(key);
        const n = random.normal(kn!, [6]).data;
        const g = gamma(kg!, [0.25, 1.5, 15], [2, 3]).data;
        const half = [0.25, 1.5, 15];
        const x = t(key, [0.5, 3, 30], [2, 3]).data;
        x.forEach((v, i) => expect(Math.abs(v - n[i]! * Math.sqrt(half[i % 3]! / g[i]!))).toBeLessThanOrEqual((m.x64 ? 1e-15 : 4e-7) * Math.abs(v)));
      });
    }
  });

  it.each([0.5, 3, 30])('KS against the t CDF, df = %s, n = 20000', (df) => {
    for (const [i, m] of ALL_MODES.entries()) {
      withModes(m, () => {
        const dtype = i % 2 === 0 && m.x64 ? 'float64' : 'float32';
        const x = t(random.key(400 + i), df, [20000], { dtype }).data;
        expect(ksPValue(x, (v) => tCdf(v, df))).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('shapes (default: df\'s shape), NaN for df ≤ 0, bad input', () => {
    const key = random.key(0);
    expect(t(key, 3).shape).toEqual([]);
    expect(t(key, [1, 2]).shape).toEqual([2]);
    expect(t(key, [1, 2], [3, 2]).shape).toEqual([3, 2]);
    expect(Array.from(t(key, [-1, NaN, 0]).data).every(Number.isNaN)).toBe(true);
    expect(() => t(key, null as never)).toThrow(/random\.t: `df`/);
    expect(() => t(key, [1, 2], [3])).toThrow(RangeError);
    withModes({ x64: false, threefryPartitionable: true }, () => {
      expect(() => t(key, 1, [2], { dtype: 'float64' })).toThrow(/random\.t: `dtype`/);
    });
  });
});
