/**
 * random.laplace: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of fit
 * and bad input. Statistics: KS against @stdlib's Laplace CDF at fixed keys, n = 20000 per mode
 * and dtype, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import laplaceCdf from '@stdlib/stats-base-dists-laplace-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { laplace } from '../../src/random/laplace.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.laplace known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES laplace row (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [0.5789388418197632, -0.2049015909433365, 0.5557326078414917, 0.911052942276001, -0.9645599126815796];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = laplace(random.key(1291781963), [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture: all four modes, float32 and float64', () => {
    expect(checkJaxCases('laplace', (k, c) => laplace(k, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.laplace statistics (KS against @stdlib Laplace(0, 1), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        const x = laplace(random.key(31), [20000], { dtype }).data;
        expect(ksPValue(x, (v) => laplaceCdf(v, 0, 1))).toBeGreaterThan(ALPHA);
      }
    });
  });
});

describe('random.laplace bad input', () => {
  it('rejects bad keys, shapes and dtypes, naming the argument', () => {
    expect(() => laplace(random.split(random.key(0)))).toThrow(/random\.laplace: `key` must be a single key/);
    expect(() => laplace(random.key(0), [-1])).toThrow(RangeError);
    expect(() => laplace(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.laplace: `dtype`/);
    withModes({ x64: false }, () => expect(() => laplace(random.key(0), [2], { dtype: 'float64' })).toThrow(/needs x64/));
  });
});
