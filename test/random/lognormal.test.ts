/**
 * random.lognormal: JAX values (part-C fixture in all four modes; §7.1 has no lognormal row),
 * goodness of fit and bad input. Statistics: KS against @stdlib's log-normal CDF at fixed keys,
 * n = 20000 per mode, dtype and sigma, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import lognormalCdf from '@stdlib/stats-base-dists-lognormal-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { lognormal } from '../../src/random/lognormal.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

describe('random.lognormal known answers (jax 0.10.2)', () => {
  it('the part-C fixture (sigma 0.7): all four modes, float32 and float64', () => {
    expect(checkJaxCases('lognormal', (k, c, [s]) => lognormal(k, s, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });

  it('is exp of random.normal at the same key', () => {
    const z = random.normal(random.key(4), [16]).data;
    expect(Array.from(lognormal(random.key(4), 1, [16]).data)).toEqual(Array.from(z, Math.exp));
  });
});

describe('random.lognormal statistics (KS against @stdlib LogNormal(0, σ), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const sigma of [1, 0.25, 2]) {
          const x = lognormal(random.key(37), sigma, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => lognormalCdf(v, 0, sigma))).toBeGreaterThan(ALPHA);
        }
      }
    });
  });
});

describe('random.lognormal shapes and bad input', () => {
  it('defaults sigma to 1 and the shape to sigma\'s; sigma = 0 gives 1', () => {
    expect(lognormal(random.key(0)).shape).toEqual([]);
    expect(lognormal(random.key(0), [0, 1]).shape).toEqual([2]);
    expect(Array.from(lognormal(random.key(0), 0, [4]).data)).toEqual([1, 1, 1, 1]);
  });

  it.each([[-1], [NaN], [Infinity]])('rejects sigma = %s with a RangeError naming sigma', (s) => {
    expect(() => lognormal(random.key(0), s)).toThrow(/random\.lognormal: `sigma` must be non-negative and finite/);
  });
});
