/**
 * random.cauchy: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of fit
 * and bad input. Statistics: KS against @stdlib's Cauchy CDF at fixed keys, n = 20000 per mode
 * and dtype, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import cauchyCdf from '@stdlib/stats-base-dists-cauchy-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { cauchy } from '../../src/random/cauchy.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.cauchy known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES cauchy row (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [-0.08841580152511597, -10.169687271118164, 3.496774435043335, -1.1805592775344849, 0.3455606698989868];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = cauchy(random.key(1175914230), [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture: all four modes, float32 and float64', () => {
    expect(checkJaxCases('cauchy', (k, c) => cauchy(k, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });

  it('maps the uniform through tan(π(u − ½)) with u on [eps, 1): finite, both tails reached', () => {
    const x = cauchy(random.key(5), [200000], { dtype: 'float32' }).data;
    expect(x.every(Number.isFinite)).toBe(true);
    expect(Math.min(...x.subarray(0, 100000))).toBeLessThan(-1e3);
    expect(Math.max(...x.subarray(0, 100000))).toBeGreaterThan(1e3);
  });
});

describe('random.cauchy statistics (KS against @stdlib Cauchy(0, 1), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        const x = cauchy(random.key(33), [20000], { dtype }).data;
        expect(ksPValue(x, (v) => cauchyCdf(v, 0, 1))).toBeGreaterThan(ALPHA);
      }
    });
  });
});

describe('random.cauchy bad input', () => {
  it('rejects bad keys, shapes and dtypes, naming the argument', () => {
    expect(() => cauchy(random.split(random.key(0)))).toThrow(/random\.cauchy: `key` must be a single key/);
    expect(() => cauchy(random.key(0), [-1])).toThrow(RangeError);
    expect(() => cauchy(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.cauchy: `dtype`/);
    withModes({ x64: false }, () => expect(() => cauchy(random.key(0), [2], { dtype: 'float64' })).toThrow(/needs x64/));
  });
});
