/**
 * random.rayleigh: JAX values (part-C fixture in all four modes; §7.1 has no rayleigh row),
 * goodness of fit and bad input. Statistics: KS against @stdlib's Rayleigh CDF at fixed keys,
 * n = 20000 per mode, dtype and scale, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import rayleighCdf from '@stdlib/stats-base-dists-rayleigh-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { rayleigh } from '../../src/random/rayleigh.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

describe('random.rayleigh known answers (jax 0.10.2)', () => {
  it('the part-C fixture (scale 2): all four modes, float32 and float64', () => {
    expect(checkJaxCases('rayleigh', (k, c, [s]) => rayleigh(k, s, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.rayleigh statistics (KS against @stdlib Rayleigh(σ), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const scale of [1, 0.3, 5]) {
          const x = rayleigh(random.key(36), scale, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => rayleighCdf(v, scale))).toBeGreaterThan(ALPHA);
        }
      }
    });
  });
});

describe('random.rayleigh shapes and bad input', () => {
  it('defaults the shape to scale\'s', () => {
    expect(rayleigh(random.key(0), [1, 2]).shape).toEqual([2]);
    expect(rayleigh(random.key(0), 1, [3, 2]).shape).toEqual([3, 2]);
  });

  it.each([[0], [-2], [NaN], [Infinity]])('rejects scale = %s with a RangeError naming scale', (s) => {
    expect(() => rayleigh(random.key(0), s)).toThrow(/random\.rayleigh: `scale` must be positive and finite/);
  });

  it('rejects a missing or non-numeric scale', () => {
    expect(() => rayleigh(random.key(0), undefined as never)).toThrow(TypeError);
    expect(() => rayleigh(random.key(0), [1, 'a'] as never)).toThrow(/`scale` must hold only numbers/);
  });
});
