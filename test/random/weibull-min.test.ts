/**
 * random.weibullMin: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of
 * fit, shapes and bad input. Statistics: KS against @stdlib's Weibull CDF at fixed keys,
 * n = 20000 per mode, dtype and parameter pair, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import weibullCdf from '@stdlib/stats-base-dists-weibull-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { uniform } from '../../src/random/uniform.js';
import { weibullMin } from '../../src/random/weibull-min.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.weibullMin known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES weibull_min row scale = 1, concentration = 1 (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [1.6058629751205444, 0.8418090343475342, 0.2242175191640854, 0.4826001822948456, 0.027901295572519302];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = weibullMin(random.key(1921059088), 1, 1, [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture (scale 2, concentration 1.5): all four modes, float32 and float64', () => {
    expect(checkJaxCases('weibull_min', (k, c, [s, conc]) => weibullMin(k, s, conc, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.weibullMin statistics (KS against @stdlib Weibull(c, σ), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const [scale, c] of [[1, 1], [2, 0.5], [0.5, 3]] as const) {
          const x = weibullMin(random.key(35), scale, c, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => weibullCdf(v, c, scale))).toBeGreaterThan(ALPHA);
        }
      }
    });
  });
});

describe('random.weibullMin shapes and bad input', () => {
  it('gives every element its own uniform when the parameters are arrays (unlike JAX\'s default shape ())', () => {
    const t = weibullMin(random.key(7), [1, 1], 1);
    expect(t.shape).toEqual([2]);
    const u = uniform(random.key(7), [2]).data;
    expect(Array.from(t.data)).toEqual(Array.from(u, (v) => -Math.log1p(-v)));
  });

  it.each([['scale', 0, 1], ['scale', -1, 1], ['concentration', 1, 0], ['concentration', 1, NaN], ['scale', Infinity, 1]] as const)(
    'rejects %s out of range (%s, %s)', (arg, scale, c) => {
      expect(() => weibullMin(random.key(0), scale, c, [2])).toThrow(RangeError);
      expect(() => weibullMin(random.key(0), scale, c, [2])).toThrow(new RegExp(`random\\.weibullMin: \`${arg}\` must be positive and finite`));
    });

  it('rejects parameters that do not broadcast', () => {
    expect(() => weibullMin(random.key(0), [1, 2], [1, 2, 3])).toThrow(/do not broadcast/);
    expect(() => weibullMin(random.key(0), [1, 2], 1, [3])).toThrow(/`scale` \[2\] do not broadcast/);
    expect(() => weibullMin(random.key(0), 1, [[1], [2]], [2])).toThrow(/`concentration` of shape \[2, 1\] must broadcast to `shape` \[2\]/);
  });
});
