import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

const bools = (t: { toArray(): unknown }) => t.toArray();

describe('random.bernoulli known answers (JAX _RANDOM_VALUES_CASES, §7.1, x32 original mode)', () => {
  it('bernoulli row: p = 0.5', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      expect(bools(random.bernoulli(random.key(1612777541), 0.5, [5]))).toEqual([false, true, true, true, false]);
    });
  });

  it('rademacher row: 2·bernoulli(key, 0.5) − 1', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const b = random.bernoulli(random.key(1719994501), 0.5, [5]).data;
      expect(Array.from(b, (x) => 2 * Number(x) - 1)).toEqual([-1, -1, -1, -1, 1]);
    });
  });
});

describe('random.bernoulli dtype rules', () => {
  it('takes float64 draws for a plain number in x64 mode and float32 in x32 mode', () => {
    for (const partitionable of [true, false]) {
      withModes({ x64: true, threefryPartitionable: partitionable }, () => {
        const u = random.uniform(random.key(5), [64]).data;
        expect(Array.from(random.bernoulli(random.key(5), 0.3, [64]).data)).toEqual(Array.from(u, (x) => (x < 0.3 ? 1 : 0)));
        const u32 = random.uniform(random.key(5), [64], { dtype: 'float32' }).data;
        const p32 = tensor([0.3], 'float32').reshape([]);
        expect(Array.from(random.bernoulli(random.key(5), p32, [64]).data)).toEqual(Array.from(u32, (x) => (x < Math.fround(0.3) ? 1 : 0)));
      });
    }
  });

  it('broadcasts p to shape and defaults shape to p\'s', () => {
    const t = random.bernoulli(random.key(1), [0, 1, 0.5]);
    expect(t.shape).toEqual([3]);
    expect(t.dtype).toBe('bool');
    const b = random.bernoulli(random.key(1), [0, 1], [4, 2]).toArray() as boolean[][];
    expect(b.every((row) => row[0] === false && row[1] === true)).toBe(true);
  });

  it('gives all false at p = 0 and all true at p = 1', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        expect(Array.from(random.bernoulli(random.key(3), 0, [1000]).data).every((x) => x === 0)).toBe(true);
        expect(Array.from(random.bernoulli(random.key(3), 1, [1000]).data).every((x) => x === 1)).toBe(true);
        expect(Array.from(random.bernoulli(random.key(3), 1, [1000], { mode: 'high' }).data).every((x) => x === 1)).toBe(true);
      });
    }
  });
});

describe('random.bernoulli statistics (chi-square on 2 cells, alpha 1e-6)', () => {
  it.each([
    [0.3, 'low', 200000], [0.3, 'high', 200000], [0.999, 'low', 200000], [1e-4, 'high', 1000000],
  ] as const)('p = %s, mode %s, n = %i', (p, mode, n) => {
    for (const m of ALL_MODES) {
      const hits = withModes(m, () => random.bernoulli(random.key(606), p, [n], { mode }).data.reduce((a, b) => a + b, 0));
      expect(chiSquarePValue([hits, n - hits], [p, 1 - p])).toBeGreaterThan(ALPHA);
    }
  });
});

describe('random.bernoulli bad input', () => {
  it.each([[-0.1], [1.5], [NaN]])('rejects p = %s', (p) => {
    expect(() => random.bernoulli(random.key(0), p, [3])).toThrow(RangeError);
    expect(() => random.bernoulli(random.key(0), p, [3])).toThrow(/random\.bernoulli: `p` must be a probability/);
  });

  it('rejects p that does not broadcast, non-float tensors, strings and bad modes', () => {
    expect(() => random.bernoulli(random.key(0), [0.1, 0.2, 0.3], [2])).toThrow(/must broadcast to shape \[2\]/);
    expect(() => random.bernoulli(random.key(0), tensor([1n]), [1])).toThrow(TypeError);
    expect(() => random.bernoulli(random.key(0), '0.5' as never)).toThrow(TypeError);
    expect(() => random.bernoulli(random.key(0), 0.5, [2], { mode: 'mid' as never })).toThrow(/`mode`/);
  });
});
