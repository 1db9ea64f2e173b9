import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { chiSquarePValue, ALPHA } from '../stats.js';

const bitsOf = (seed: number, n: number, dtype: random.BitsDType) =>
  Array.from(random.bits(random.key(seed), [n], { dtype }).data as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? v : Number(v)));

describe('random.bits known answers', () => {
  // jax 0.10.2, JAX's testRngRandomBits (reference/jax-random.md §5.3): key 1701, shape (3,).
  it('original mode (testRngRandomBits)', () => {
    for (const x64 of [false, true]) {
      withModes({ x64, threefryPartitionable: false }, () => {
        expect(bitsOf(1701, 3, 'uint8')).toEqual([216, 115, 43]);
        expect(bitsOf(1701, 3, 'uint16')).toEqual([41682, 1300, 55017]);
        expect(bitsOf(1701, 3, 'uint32')).toEqual([56197195, 4200222568, 961309823]);
      });
    }
    withModes({ x64: true, threefryPartitionable: false }, () => {
      expect(bitsOf(1701, 3, 'uint64')).toEqual([3982329540505020460n, 16822122385914693683n, 7882654074788531506n]);
    });
  });

  it('partitionable mode (§5.3)', () => {
    for (const x64 of [false, true]) {
      withModes({ x64, threefryPartitionable: true }, () => {
        expect(bitsOf(1701, 3, 'uint8')).toEqual([37, 59, 52]);
        expect(bitsOf(1701, 3, 'uint16')).toEqual([42789, 29755, 60468]);
        expect(bitsOf(1701, 3, 'uint32')).toEqual([1111271205, 2679469115, 974515252]);
      });
    }
  });

  // _RANDOM_VALUES_CASES of JAX's tests/random_test.py, partitionable=False (§7.1).
  it('JAX _RANDOM_VALUES_CASES bits rows', () => {
    withModes({ x64: false, threefryPartitionable: false }, () => {
      expect(bitsOf(942802475, 5, 'uint8')).toEqual([10, 158, 82, 54, 158]);
      expect(bitsOf(942802475, 5, 'uint16')).toEqual([6738, 38161, 50695, 57337, 61600]);
      expect(bitsOf(942802475, 5, 'uint32')).toEqual([1978747883, 4134381225, 3628107870, 689687174, 2788938207]);
    });
    withModes({ x64: true, threefryPartitionable: false }, () => {
      expect(bitsOf(942802475, 5, 'uint64')).toEqual([
        17649965731882839947n, 1415307058040849897n, 8282622628079774249n, 14024425113645909402n, 2012979996110532418n,
      ]);
    });
  });
});

describe('random.bits structure', () => {
  it('defaults to uint64 in x64 mode and uint32 in x32 mode', () => {
    expect(withModes({ x64: true }, () => random.bits(random.key(0)).dtype)).toBe('uint64');
    expect(withModes({ x64: false }, () => random.bits(random.key(0)).dtype)).toBe('uint32');
    expect(random.bits(random.key(0)).shape).toEqual([]);
  });

  it('is prefix-stable and shape-independent in partitionable mode', () => {
    const six = bitsOf(3, 6, 'uint32');
    expect(Array.from(random.bits(random.key(3), [2, 3], { dtype: 'uint32' }).data as Uint32Array)).toEqual(six);
    expect(bitsOf(3, 4, 'uint32')).toEqual(six.slice(0, 4));
    expect(random.bits(random.key(3), [], { dtype: 'uint32' }).item()).toBe(six[0]);
  });

  it('views the same words at 8, 16 and 32 bits in original mode (testRngRandomBitsViewProperty)', () => {
    withModes({ threefryPartitionable: false }, () => {
      const words = bitsOf(11, 4, 'uint32') as number[];
      const bytes = bitsOf(11, 16, 'uint8') as number[];
      const halves = bitsOf(11, 8, 'uint16') as number[];
      for (let i = 0; i < 16; i++) expect(bytes[i]).toBe((words[i >> 2]! >>> (8 * (i & 3))) & 0xff);
      for (let i = 0; i < 8; i++) expect(halves[i]).toBe((words[i >> 1]! >>> (16 * (i & 1))) & 0xffff);
    });
  });

  it('draws zero values', () => {
    for (const m of ALL_MODES) withModes(m, () => expect(random.bits(random.key(0), [0, 3]).size).toBe(0));
  });

  it('gives uniform bytes (chi-square over 256 cells, n = 256000, alpha 1e-6)', () => {
    for (const m of ALL_MODES) {
      const counts = new Array(256).fill(0);
      withModes(m, () => random.bits(random.key(2024), [256000], { dtype: 'uint8' }).data.forEach((b) => counts[Number(b)]++));
      expect(chiSquarePValue(counts, new Array(256).fill(1 / 256))).toBeGreaterThan(ALPHA);
    }
  });
});

describe('random.bits bad input', () => {
  it('rejects unknown dtypes, uint64 in x32 mode and bad shapes', () => {
    expect(() => random.bits(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.bits: `dtype`/);
    expect(() => withModes({ x64: false }, () => random.bits(random.key(0), [2], { dtype: 'uint64' }))).toThrow(RangeError);
    expect(() => random.bits(random.key(0), [-1])).toThrow(RangeError);
    expect(() => random.bits(random.key(0), [1.5])).toThrow(TypeError);
  });
});
