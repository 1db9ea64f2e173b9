/**
 * src/random/erf.ts (erfcx in float64, used by truncatedNormal, and the erf it re-exports)
 * against @stdlib's erfcx, itself within about 2 ulp (so agreement is asked within 8). erf's
 * accuracy is tested against mpmath and mathjs in test/tensor/erf.test.ts.
 */
import stdErfcx from '@stdlib/math-base-special-erfcx';
import { describe, expect, it } from 'vitest';
import { erf, erfcx } from '../../src/random/erf.js';
import { erf as specialErf } from '../../src/tensor/special/erf.js';

/** |got − want| in units of 2^−52·|want| (about one ulp). */
const ulps = (got: number, want: number) => (got === want ? 0 : Math.abs(got - want) / (Number.EPSILON * Math.abs(want)));

describe('erf', () => {
  it('is the special-function erf (one implementation)', () => {
    expect(erf).toBe(specialErf);
  });

  it('is odd, saturates at ±1 and propagates NaN', () => {
    expect(erf(0)).toBe(0);
    expect(erf(1.3)).toBe(-erf(-1.3));
    expect(erf(Infinity)).toBe(1);
    expect(erf(-Infinity)).toBe(-1);
    expect(erf(6.5)).toBe(1);
    expect(erf(NaN)).toBeNaN();
    expect(erf(1)).toBeCloseTo(0.8427007929497149, 15);
  });
});

describe('erfcx', () => {
  it('agrees with @stdlib erfcx within 8 ulp on [0, 30] and for large arguments', () => {
    for (let i = 0; i <= 30000; i++) {
      const x = i / 1000;
      expect(ulps(erfcx(x), stdErfcx(x)), `erfcx(${x})`).toBeLessThanOrEqual(8);
    }
    for (const x of [50, 1e3, 1e8, 1e150]) expect(ulps(erfcx(x), stdErfcx(x)), `erfcx(${x})`).toBeLessThanOrEqual(8);
  });

  it('has erfcx(0) = 1, erfcx(∞) = 0, the 1/(x√π) asymptote, and NaN below 0', () => {
    expect(erfcx(0)).toBe(1);
    expect(erfcx(Infinity)).toBe(0);
    expect(ulps(erfcx(1e10), 1 / (1e10 * Math.sqrt(Math.PI)))).toBeLessThanOrEqual(2);
    expect(erfcx(-1)).toBeNaN();
    expect(erfcx(NaN)).toBeNaN();
  });
});
