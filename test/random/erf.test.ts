/**
 * src/random/erf.ts (erf and erfcx in float64, used by truncatedNormal) against @stdlib's
 * implementations, which are themselves within about 2 ulp (so agreement is asked within 4).
 */
import stdErf from '@stdlib/math-base-special-erf';
import stdErfcx from '@stdlib/math-base-special-erfcx';
import { describe, expect, it } from 'vitest';
import { erf, erfcx } from '../../src/random/erf.js';

/** |got − want| in units of 2^−52·|want| (about one ulp). */
const ulps = (got: number, want: number) => (got === want ? 0 : Math.abs(got - want) / (Number.EPSILON * Math.abs(want)));

describe('erf', () => {
  it('agrees with @stdlib erf within 4 ulp on a grid over [−7, 7] and at tiny arguments', () => {
    for (let i = -7000; i <= 7000; i++) {
      const x = i / 1000 + 1e-4;
      expect(ulps(erf(x), stdErf(x)), `erf(${x})`).toBeLessThanOrEqual(4);
    }
    for (const x of [1e-300, 1e-20, 1e-8, -3e-5, 0.49999, 0.5, 0.50001, 5.999, 6]) expect(ulps(erf(x), stdErf(x)), `erf(${x})`).toBeLessThanOrEqual(4);
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
