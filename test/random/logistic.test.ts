/**
 * random.logistic: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of fit
 * and bad input. Statistics: KS against @stdlib's logistic CDF at fixed keys, n = 20000 per mode
 * and dtype, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import logisticCdf from '@stdlib/stats-base-dists-logistic-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { logistic } from '../../src/random/logistic.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.logistic known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES logistic row (§7.1, original mode, float32): within 4 ulp (−0.208 comes out of a cancellation)', () => {
    const want = [0.19611024856567383, -1.7090539932250977, -0.2740935683250427, -0.2083226442337036, -1.6754897832870483];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = logistic(random.key(1466238935), [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(4));
    });
  });

  it('the part-C fixture: all four modes, float32 and float64', () => {
    expect(checkJaxCases('logistic', (k, c) => logistic(k, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.logistic statistics (KS against @stdlib logistic(0, 1), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        const x = logistic(random.key(32), [20000], { dtype }).data;
        expect(ksPValue(x, (v) => logisticCdf(v, 0, 1))).toBeGreaterThan(ALPHA);
      }
    });
  });
});

describe('random.logistic bad input', () => {
  it('rejects bad keys, shapes and dtypes, naming the argument', () => {
    expect(() => logistic(random.split(random.key(0)))).toThrow(/random\.logistic: `key` must be a single key/);
    expect(() => logistic(random.key(0), [-1])).toThrow(RangeError);
    expect(() => logistic(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.logistic: `dtype`/);
    withModes({ x64: false }, () => expect(() => logistic(random.key(0), [2], { dtype: 'float64' })).toThrow(/needs x64/));
  });
});
