/**
 * random.pareto: JAX values (§7.1 row and the part-C fixture in all four modes), goodness of fit,
 * parameter broadcasting and bad input. Statistics: KS against @stdlib's Pareto (type I) CDF at
 * fixed keys, n = 20000 per mode, dtype and b, each rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import paretoCdf from '@stdlib/stats-base-dists-pareto-type1-cdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { pareto } from '../../src/random/pareto.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.pareto known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES pareto row b = 0.5 (§7.1, original mode, float32): within 4 ulp', () => {
    const want = [2.7513976097106934, 1.2818633317947388, 87.85447692871094, 1.2545422315597534, 2.8244869709014893];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const t = pareto(random.key(1192560388), 0.5, [5]);
      expect(t.dtype).toBe('float32');
      Array.from(t.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(4));
    });
  });

  it('the part-C fixture (b = [0.5, 3] broadcast to [4, 2]): all four modes, float32 and float64', () => {
    expect(checkJaxCases('pareto', (k, c, [b]) => pareto(k, b, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });
});

describe('random.pareto statistics (KS against @stdlib Pareto type I(b, 1), n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const b of [0.5, 3]) {
          const x = pareto(random.key(34), b, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => paretoCdf(v, b, 1))).toBeGreaterThan(ALPHA);
          expect(Math.min(...x)).toBeGreaterThanOrEqual(1);
        }
      }
    });
  });
});

describe('random.pareto shapes and bad input', () => {
  it('defaults the shape to b\'s and broadcasts b against an explicit shape', () => {
    expect(pareto(random.key(0), [1, 2, 3]).shape).toEqual([3]);
    expect(pareto(random.key(0), tensor([[1], [2]]), [2, 5]).shape).toEqual([2, 5]);
    expect(pareto(random.key(0), 2).shape).toEqual([]);
  });

  it.each([[0], [-1], [NaN], [Infinity]])('rejects b = %s with a RangeError naming b', (b) => {
    expect(() => pareto(random.key(0), b, [3])).toThrow(RangeError);
    expect(() => pareto(random.key(0), b, [3])).toThrow(/random\.pareto: `b` must be positive and finite/);
  });

  it('rejects non-numeric b, shapes that b does not broadcast to, and bad dtypes', () => {
    expect(() => pareto(random.key(0), '2' as never)).toThrow(TypeError);
    expect(() => pareto(random.key(0), [1, 2, 3], [2])).toThrow(/random\.pareto: the shapes of `shape` \[2\] and `b` \[3\] do not broadcast/);
    expect(() => pareto(random.key(0), [[1], [2]], [3])).toThrow(/random\.pareto: `b` of shape \[2, 1\] must broadcast to `shape` \[3\]/);
    expect(() => pareto(random.key(0), 1, [2], { dtype: 'int32' as never })).toThrow(/`dtype`/);
  });
});
