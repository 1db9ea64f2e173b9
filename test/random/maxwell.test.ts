/**
 * random.maxwell: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of
 * fit and bad input. Statistics: KS against @stdlib's chi CDF with 3 degrees of freedom at fixed
 * keys, n = 20000 per mode and dtype, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import chiCdf from '@stdlib/stats-base-dists-chi-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { maxwell } from '../../src/random/maxwell.js';
import { normal } from '../../src/random/normal.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.maxwell known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES maxwell row (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [3.070781707763672, 0.9084793925285339, 1.5213168859481812, 0.8755506277084351, 1.3061370849609375];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = maxwell(random.key(1331627891), [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture: all four modes, float32 and float64', () => {
    expect(checkJaxCases('maxwell', (k, c) => maxwell(k, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });

  it('is the norm of the rows of normal(key, [...shape, 3])', () => {
    const z = normal(random.key(3), [2, 2, 3]).data;
    const m = maxwell(random.key(3), [2, 2]);
    expect(m.shape).toEqual([2, 2]);
    for (let i = 0; i < 4; i++) expect(m.data[i]).toBe(Math.sqrt(z[3 * i]! ** 2 + z[3 * i + 1]! ** 2 + z[3 * i + 2]! ** 2));
  });
});

describe('random.maxwell statistics (KS against @stdlib chi(3), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        const x = maxwell(random.key(41), [20000], { dtype }).data;
        expect(ksPValue(x, (v) => chiCdf(v, 3))).toBeGreaterThan(ALPHA);
      }
    });
  });
});

describe('random.maxwell bad input', () => {
  it('rejects bad keys, shapes and dtypes, naming the argument', () => {
    expect(() => maxwell(random.split(random.key(0)))).toThrow(/random\.maxwell: `key` must be a single key/);
    expect(() => maxwell(random.key(0), [1.5])).toThrow(TypeError);
    expect(() => maxwell(random.key(0), [2], { dtype: 'float16' as never })).toThrow(/random\.maxwell: `dtype`/);
  });
});
