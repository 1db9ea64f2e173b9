/**
 * random.triangular: JAX values (part-C fixture in all four modes; §7.1 has no triangular row),
 * goodness of fit and bad input. Statistics: KS against @stdlib's triangular CDF at fixed keys,
 * n = 20000 per mode, dtype and parameter triple, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import triangularCdf from '@stdlib/stats-base-dists-triangular-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { triangular } from '../../src/random/triangular.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

describe('random.triangular known answers (jax 0.10.2)', () => {
  it('the part-C fixture (0, 1, 3): all four modes, float32 and float64', () => {
    expect(checkJaxCases('triangular', (k, c, [l, m, r]) => triangular(k, l, m, r, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.triangular statistics (KS against @stdlib Triangular, n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const [l, mo, r] of [[0, 1, 3], [-2, -2, 5], [1, 4, 4], [-1, 0, 1]] as const) {
          const x = triangular(random.key(38), l, mo, r, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => triangularCdf(v, l, r, mo))).toBeGreaterThan(ALPHA);
          expect(Math.min(...x)).toBeGreaterThanOrEqual(l);
          expect(Math.max(...x)).toBeLessThanOrEqual(r);
        }
      }
    });
  });
});

describe('random.triangular shapes and bad input', () => {
  it('broadcasts the three parameters', () => {
    expect(triangular(random.key(0), [0, 1], 2, [[3], [4]]).shape).toEqual([2, 2]);
  });

  it('rejects mode outside [left, right], left >= right and non-finite parameters, naming the argument', () => {
    expect(() => triangular(random.key(0), 0, 4, 3)).toThrow(/random\.triangular: `mode` must lie in \[left, right\]/);
    expect(() => triangular(random.key(0), 0, -1, 3)).toThrow(/`mode` must lie/);
    expect(() => triangular(random.key(0), 3, 3, 3)).toThrow(/random\.triangular: `left` must be less than `right`/);
    expect(() => triangular(random.key(0), -Infinity, 0, 1)).toThrow(/`left` must be finite/);
    expect(() => triangular(random.key(0), 0, NaN, 1)).toThrow(/`mode` must be finite/);
    expect(() => triangular(random.key(0), 0, 0, 1, [2], { dtype: 'bool' as never })).toThrow(/`dtype`/);
  });
});
