/**
 * random.rademacher: JAX values (§7.1 row and the part-C fixture in all four modes, exact),
 * its definition through bernoulli, a chi-square test for fairness (n = 200000 per mode,
 * rejecting at ALPHA = 1e-6, test/stats.ts) and bad input.
 */
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { rademacher } from '../../src/random/rademacher.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

describe('random.rademacher known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES rademacher row (§7.1, original mode, int32): exact', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = rademacher(random.key(1719994501), [5]);
      expect(t.dtype).toBe('int32');
      expect(Array.from(t.data as Int32Array)).toEqual([-1, -1, -1, -1, 1]);
    });
  });

  it('the part-C fixture: all four modes (int64 in x64, int32 in x32), exact', () => {
    expect(checkJaxCases('rademacher', (k, c) => rademacher(k, c.kwargs.shape))).toBe(4);
  });

  it('equals 2·bernoulli(key, 0.5) − 1 in every mode and output dtype (float64 draws in x64 mode)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const b = Array.from(random.bernoulli(random.key(12), 0.5, [256]).data, (x) => 2 * x - 1);
        for (const dtype of m.x64 ? (['int8', 'int32', 'int64', 'float32', 'float64'] as const) : (['int16', 'int32', 'float32'] as const)) {
          const t = rademacher(random.key(12), [256], { dtype });
          expect(t.dtype).toBe(dtype);
          expect(Array.from(t.data as ArrayLike<number | bigint>, Number)).toEqual(b);
        }
      });
    }
  });
});

describe('random.rademacher statistics (chi-square on 2 cells, n = 200000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      const x = rademacher(random.key(43), [200000], { dtype: 'int32' }).data as Int32Array;
      const plus = x.reduce((a, v) => a + (v === 1 ? 1 : 0), 0);
      expect(x.every((v) => v === 1 || v === -1)).toBe(true);
      expect(chiSquarePValue([plus, x.length - plus], [0.5, 0.5])).toBeGreaterThan(ALPHA);
    });
  });
});

describe('random.rademacher bad input', () => {
  it('defaults to int64 (BigInt64Array) in x64 mode and int32 in x32 mode', () => {
    withModes({ x64: true }, () => expect(rademacher(random.key(0), [2]).data).toBeInstanceOf(BigInt64Array));
    withModes({ x64: false }, () => expect(rademacher(random.key(0), [2]).data).toBeInstanceOf(Int32Array));
  });

  it('rejects unsigned and unknown dtypes, and 64-bit dtypes in x32 mode', () => {
    expect(() => rademacher(random.key(0), [2], { dtype: 'uint8' as never })).toThrow(/random\.rademacher: `dtype` must be one of/);
    expect(() => rademacher(random.key(0), [2], { dtype: 'bool' as never })).toThrow(RangeError);
    withModes({ x64: false }, () => expect(() => rademacher(random.key(0), [2], { dtype: 'int64' })).toThrow(/needs x64/));
    expect(() => rademacher(random.key(0), -1)).toThrow(/random\.rademacher: `shape`/);
  });
});
