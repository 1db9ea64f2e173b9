/**
 * exponential and gumbel: JAX's values, and Kolmogorov–Smirnov tests at fixed keys against
 * @stdlib CDFs (n = 20000 per test, alpha = 1e-6 each: a correct sampler fails a given test
 * with probability 1e-6).
 */
import { describe, expect, it } from 'vitest';
import expCdf from '@stdlib/stats-base-dists-exponential-cdf';
import gumbelCdf from '@stdlib/stats-base-dists-gumbel-cdf';
import * as random from '../../src/random/index.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';

const x32original = { x64: false, threefryPartitionable: false };

describe('known answers (JAX _RANDOM_VALUES_CASES, §7.1, x32 original mode, float32)', () => {
  it('exponential row, bit for bit', () => {
    withModes(x32original, () => {
      expect(Array.from(random.exponential(random.key(1942292768), [5]).data)).toEqual(
        [0.5260666012763977, 0.04304581508040428, 0.0399320051074028, 0.4642702043056488, 0.1238858699798584]);
    });
  });

  it('gumbel row, bit for bit', () => {
    withModes(x32original, () => {
      expect(Array.from(random.gumbel(random.key(1179715317), [5]).data)).toEqual(
        [2.067009925842285, 0.9117260575294495, 0.14573562145233154, 0.18542666733264923, -0.007110409904271364]);
    });
  });
});

describe('goodness of fit', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('exponential and gumbel (both modes of gumbel), %s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float32', 'float64'] as const) : (['float32'] as const)) {
        const e = random.exponential(random.key(10), [20000], { dtype }).data;
        expect(ksPValue(e, (x) => expCdf(x, 1))).toBeGreaterThan(ALPHA);
        for (const mode of ['low', 'high'] as const) {
          const g = random.gumbel(random.key(11), [20000], { dtype, mode }).data;
          expect(ksPValue(g, (x) => gumbelCdf(x, 0, 1))).toBeGreaterThan(ALPHA);
        }
      }
    });
  });

  it("gumbel 'high' resolves the far right tail that 'low' puts on a 2^-23 grid", () => {
    // Large g needs u near 1 in 'low' mode, where u = 1 − k·2^-23: above g = −log(2^-14) there
    // are only ~512 possible values, and ~120 of 2M draws land there, so 'low' repeats values
    // (P(no repeat) ≈ e^-14). 'high' refines x near 0 with a second uniform: no repeats.
    const cut = -Math.log(2 ** -14);
    const tailDistinct = (mode: 'low' | 'high') => {
      const g = random.gumbel(random.key(12), [2_000_000], { dtype: 'float32', mode }).data;
      const tail = Array.from(g).filter((v) => v > cut);
      return [tail.length, new Set(tail).size];
    };
    withModes({ x64: false }, () => {
      const [nLow, distinctLow] = tailDistinct('low');
      const [nHigh, distinctHigh] = tailDistinct('high');
      expect(nLow).toBeGreaterThan(60);
      expect(distinctLow).toBeLessThan(nLow!);
      expect(nHigh).toBeGreaterThan(60);
      expect(distinctHigh).toBe(nHigh);
    });
  });
});

describe('bad input', () => {
  it('rejects bad dtypes, modes and shapes', () => {
    expect(() => random.exponential(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.exponential: `dtype`/);
    expect(() => random.gumbel(random.key(0), [2], { mode: 'highest' as never })).toThrow(/random\.gumbel: `mode`/);
    expect(() => random.gumbel(random.key(0), [0.5])).toThrow(TypeError);
  });
});
