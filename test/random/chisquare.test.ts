/**
 * random.chisquare: its definition 2·exp(loggamma(key, df/2)) (same key), goodness of fit with
 * KS against @stdlib's chi-square CDF at fixed keys (n = 20000, rejecting at ALPHA = 1e-6, see
 * test/stats.ts) for df = 0.5, 3 and 30 in float64 and float32 across the modes, and bad input.
 * (JAX's §7.1 table has no chisquare row; test/random/samplers-numpy-reference.test.ts compares
 * all four modes with the independent NumPy model.)
 */
import { describe, expect, it } from 'vitest';
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import * as random from '../../src/random/index.js';
import { chisquare } from '../../src/random/chisquare.js';
import { loggamma } from '../../src/random/gamma.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

describe('random.chisquare', () => {
  it('is 2·exp(loggamma(key, df/2)) with the same key', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(8);
        const lg = loggamma(key, [0.25, 1.5, 15], [3, 3]).data;
        const x = chisquare(key, [0.5, 3, 30], [3, 3]).data;
        x.forEach((v, i) => expect(Math.abs(v - 2 * Math.exp(lg[i]!))).toBeLessThanOrEqual((m.x64 ? 1e-15 : 2e-7) * v));
      });
    }
  });

  it.each([0.5, 3, 30])('KS against the chi-square CDF, df = %s, n = 20000', (df) => {
    for (const [i, m] of ALL_MODES.entries()) {
      withModes(m, () => {
        const dtype = i % 2 === 0 && m.x64 ? 'float64' : 'float32';
        const x = chisquare(random.key(300 + i), df, [20000], { dtype }).data;
        expect(ksPValue(x, (v) => chisquareCdf(v, df))).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('shapes, NaN for df ≤ 0, bad input', () => {
    const key = random.key(0);
    expect(chisquare(key, [1, 2]).shape).toEqual([2]);
    expect(chisquare(key, 2, [2, 2]).shape).toEqual([2, 2]);
    expect(Array.from(chisquare(key, [-1, NaN, 0, 1]).data).map((v) => (Number.isNaN(v) ? 'nan' : v === 0 ? 0 : '+'))).toEqual(['nan', 'nan', 0, '+']);
    expect(() => chisquare(key, 'x' as never)).toThrow(/random\.chisquare: `df`/);
    expect(() => chisquare(key, [1, 2], [3])).toThrow(RangeError);
    expect(() => chisquare(random.split(key), 1)).toThrow(TypeError);
  });
});
