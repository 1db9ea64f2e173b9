/**
 * random.f: its key order (kd, kn = split(key), the denominator's key first; (χ²(kn, dfnum)/dfnum)
 * / (χ²(kd, dfden)/dfden)), goodness of fit with KS against @stdlib's F CDF at fixed keys
 * (n = 20000, rejecting at ALPHA = 1e-6, see test/stats.ts) for (dfnum, dfden) = (5, 10),
 * (0.7, 3) and (30, 0.5) in float64 and float32 across the modes, and bad input. (JAX's §7.1
 * table has no f row; test/random/samplers-numpy-reference.test.ts compares all four modes with
 * the NumPy model.)
 */
import { describe, expect, it } from 'vitest';
import fCdf from '@stdlib/stats-base-dists-f-cdf';
import * as random from '../../src/random/index.js';
import { chisquare } from '../../src/random/chisquare.js';
import { f } from '../../src/random/f.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

describe('random.f', () => {
  it('is (χ²(kn, dfnum)/dfnum) / (χ²(kd, dfden)/dfden) with kd, kn = split(key)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(14);
        const [kd, kn] = random.split(key);
        const num = chisquare(kn!, [2, 7], [3, 2]).data;
        const den = chisquare(kd!, 4, [3, 2]).data;
        const x = f(key, [2, 7], 4, [3, 2]).data;
        x.forEach((v, i) => expect(Math.abs(v - (num[i]! / [2, 7][i % 2]!) / (den[i]! / 4))).toBeLessThanOrEqual((m.x64 ? 1e-15 : 4e-7) * v));
      });
    }
  });

  it.each([[5, 10], [0.7, 3], [30, 0.5]] as const)('KS against the F CDF, dfnum = %s, dfden = %s, n = 20000', (dn, dd) => {
    for (const [i, m] of ALL_MODES.entries()) {
      withModes(m, () => {
        const dtype = i % 2 === 0 && m.x64 ? 'float64' : 'float32';
        const x = f(random.key(500 + i), dn, dd, [20000], { dtype }).data;
        expect(ksPValue(x, (v) => fCdf(v, dn, dd))).toBeGreaterThan(ALPHA);
      });
    }
  });

  it('shapes, NaN for non-positive degrees of freedom, bad input', () => {
    const key = random.key(0);
    expect(f(key, [1, 2], [[3], [4]]).shape).toEqual([2, 2]);
    expect(f(key, 1, 2, [5]).shape).toEqual([5]);
    expect(Array.from(f(key, [-1, 2], [2, NaN]).data).every(Number.isNaN)).toBe(true);
    expect(() => f(key, 'x' as never, 1)).toThrow(/random\.f: `dfnum`/);
    expect(() => f(key, 1, [] as never, [2])).toThrow(/random\.f: .*`dfden`/);
    expect(() => f(key, [1, 2], [1, 2, 3])).toThrow(RangeError);
  });
});
