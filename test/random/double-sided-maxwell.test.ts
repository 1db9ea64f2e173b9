/**
 * random.doubleSidedMaxwell: JAX values (§7.1 row and the part-C fixture in all four modes),
 * goodness of fit, JAX's shape rule and bad input. Statistics at fixed keys, n = 20000 per mode,
 * dtype and parameter pair, each rejecting at ALPHA = 1e-6 (test/stats.ts): KS of |x − loc|/scale
 * against @stdlib's chi(3) CDF, and a chi-square test that the sign of x − loc is fair.
 */
import chiCdf from '@stdlib/stats-base-dists-chi-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { doubleSidedMaxwell } from '../../src/random/double-sided-maxwell.js';
import { maxwell } from '../../src/random/maxwell.js';
import { rademacher } from '../../src/random/rademacher.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.doubleSidedMaxwell known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES double_sided_maxwell row loc = 1, scale = 2 (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [-2.4089131355285645, -3.370436191558838, 3.235352039337158, -0.9077339172363281, -1.7087321281433105];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = doubleSidedMaxwell(random.key(3634826421), 1, 2, [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the part-C fixture (scalar and array loc): all four modes, float32 and float64', () => {
    expect(checkJaxCases('double_sided_maxwell', (k, c, [loc, scale]) => doubleSidedMaxwell(k, loc, scale, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(12);
  });

  it('uses JAX\'s keys: maxwellKey, signKey = split(key)', () => {
    withModes({ x64: true, threefryPartitionable: false }, () => {
      const [km, kr] = random.split(random.key(8));
      const m = maxwell(km!, [32]).data, s = rademacher(kr!, [32], { dtype: 'float64' }).data;
      const got = doubleSidedMaxwell(random.key(8), 0, 1, [32]).data;
      for (let i = 0; i < 32; i++) expect(got[i]).toBe(Number(s[i]!) * m[i]!);
    });
  });
});

describe('random.doubleSidedMaxwell statistics (n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const [loc, scale] of [[0, 1], [1, 2], [-3, 0.5]] as const) {
          const x = doubleSidedMaxwell(random.key(42), loc, scale, [20000], { dtype }).data;
          expect(ksPValue(Array.from(x, (v) => Math.abs(v - loc) / scale), (v) => chiCdf(v, 3))).toBeGreaterThan(ALPHA);
          const above = Array.from(x).filter((v) => v > loc).length;
          expect(chiSquarePValue([above, x.length - above], [0.5, 0.5])).toBeGreaterThan(ALPHA);
        }
      }
    });
  });
});

describe('random.doubleSidedMaxwell shapes and bad input', () => {
  it('follows JAX\'s shape rule: [...shape, ...p], or [...p, ...p] when shape is empty', () => {
    expect(doubleSidedMaxwell(random.key(0), 0, 1).shape).toEqual([]);
    expect(doubleSidedMaxwell(random.key(0), 0, 1, [3]).shape).toEqual([3]);
    expect(doubleSidedMaxwell(random.key(0), [0, 1], 1).shape).toEqual([2, 2]);
    expect(doubleSidedMaxwell(random.key(0), [0, 1], [[1], [2]], [4]).shape).toEqual([4, 2, 2]);
  });

  it('rejects bad parameters, naming them', () => {
    expect(() => doubleSidedMaxwell(random.key(0), NaN, 1)).toThrow(/random\.doubleSidedMaxwell: `loc` must be finite/);
    expect(() => doubleSidedMaxwell(random.key(0), 0, 0)).toThrow(/random\.doubleSidedMaxwell: `scale` must be positive and finite/);
    expect(() => doubleSidedMaxwell(random.key(0), 0, -1)).toThrow(RangeError);
    expect(() => doubleSidedMaxwell(random.key(0), [0, 1, 2], [1, 2])).toThrow(/do not broadcast/);
    expect(() => doubleSidedMaxwell(random.key(0), 'a' as never, 1)).toThrow(TypeError);
  });
});
