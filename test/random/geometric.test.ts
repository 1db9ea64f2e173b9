/**
 * random.geometric: the JAX formula and key use, dtypes, p = 1, saturation, goodness of fit and
 * bad input. jax-random.md has no geometric known-answer row.
 *
 * Statistics: chi-square against @stdlib's geometric distribution (which counts failures, so
 * P(X = k) here is its pmf at k − 1, built from its CDF), cells merged to ≥ 20 expected draws,
 * n = 100 000 draws per case, at fixed keys, rejecting at ALPHA = 1e-6 (test/stats.ts).
 */
import { describe, expect, it } from 'vitest';
import geometricCdf from '@stdlib/stats-base-dists-geometric-cdf';
import * as random from '../../src/random/index.js';
import { geometric, geometricData } from '../../src/random/geometric.js';
import type { PrngImpl } from '../../src/random/impl.js';
import { KeyArray } from '../../src/random/key-array.js';
import { tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA } from '../stats.js';
import { discreteChiSquare, numbers } from './discrete-gof.js';

describe('random.geometric formula (§6.17)', () => {
  it('floor(log u / log1p(−p)) + 1 with u = uniform(key, shape, p dtype)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const r = m.x64 ? (v: number) => v : Math.fround;
        const p = [0.3, 0.05, 0.2, 0.01, 0.35];                  // |−p| < √2 − 1: XLA's log1p branch
        const u = random.uniform(random.key(17), [5], { dtype: m.x64 ? 'float64' : 'float32' }).data;
        const want = p.map((pi, i) => r(Math.floor(r(r(Math.log(u[i]!)) / r(Math.log1p(-r(pi))))) + 1));
        expect(numbers(geometric(random.key(17), p).data)).toEqual(want);
      });
    }
  });

  it('p = 1 always gives 1; default dtypes int64 / int32; int16 on request', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const t = geometric(random.key(2), 1, [100]);
        expect(t.dtype).toBe(m.x64 ? 'int64' : 'int32');
        expect(numbers(t.data).every((v) => v === 1)).toBe(true);
      });
    }
    expect(geometric(random.key(2), 0.5, [3], { dtype: 'int16' }).dtype).toBe('int16');
  });

  it('maps a uniform of exactly 0 to 1 (JAX ≥ 0.6), via a stub impl whose bits are all zero', () => {
    const zeros: PrngImpl = {
      name: 'threefry2x32', keyWords: 2,
      seed: () => new Uint32Array(2), split: (_k, n) => new Uint32Array(2 * n), foldIn: () => new Uint32Array(2),
      bits: (_k, width, size) => new Uint32Array(width === 64 ? 2 * size : size),
    };
    const key = new KeyArray(zeros, new Uint32Array(2), []);
    const modes = { x64: true, partitionable: true };
    expect(numbers(geometricData(key, new Float64Array([0.3, 1e-3, 1]), 'float64', 'int32', modes))).toEqual([1, 1, 1]);
    expect(numbers(geometricData(key, new Float32Array([0.3, 0.9]), 'float32', 'int32', modes))).toEqual([1, 1]);
  });

  it('saturates at the integer dtype\'s maximum (XLA\'s float-to-int conversion)', () => {
    withModes({ x64: false, threefryPartitionable: true }, () => {
      const t = geometric(random.key(3), 1e-12, [200]);
      expect(numbers(t.data).every((v) => v > 1e6 && v <= 2 ** 31 - 1)).toBe(true);
      expect(numbers(t.data).some((v) => v === 2 ** 31 - 1)).toBe(true);
    });
  });

  it('takes p\'s dtype: plain numbers act as Python floats; Tensor p keeps its dtype', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const u32 = random.uniform(random.key(4), [50], { dtype: 'float32' }).data;
      const p = Math.fround(0.2);
      const want = Array.from(u32, (u) => Math.fround(Math.floor(Math.fround(Math.fround(Math.log(u)) / Math.fround(Math.log1p(-p)))) + 1));
      expect(numbers(geometric(random.key(4), tensor([p], 'float32').reshape([]), [50]).data)).toEqual(want);
    });
    expect(geometric(random.key(1), [[0.5], [0.25]], [2, 3]).shape).toEqual([2, 3]);
  });
});

describe('random.geometric statistics (chi-square against @stdlib, alpha 1e-6)', () => {
  const pmf = (p: number) => (k: number) => geometricCdf(k - 1, p) - geometricCdf(k - 2, p);
  it.each([[1e-3], [0.5], [0.9], [0.01]])('p = %s (n = 100 000) in all four modes', (p) => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const pp = m.x64 ? p : Math.fround(p);
        const x = numbers(geometric(random.key(606), p, [100000]).data);
        expect(discreteChiSquare(x, pmf(pp), 1, Math.ceil(60 / pp))).toBeGreaterThan(ALPHA);
      });
    }
  });
});

describe('random.geometric bad input', () => {
  it('names the function and the argument', () => {
    const k = random.key(0);
    for (const p of [0, -0.1, 1.5, NaN, Infinity]) {
      expect(() => geometric(k, p, [2])).toThrow(RangeError);
      expect(() => geometric(k, [0.5, p])).toThrow(/random\.geometric: `p` must be a probability in \(0, 1\]/);
    }
    expect(() => geometric(k, 'x' as never)).toThrow(TypeError);
    expect(() => geometric(k, [0.1, 0.2], [3])).toThrow(/random\.geometric: .*`p`/);
    expect(() => geometric(k, 0.5, [2], { dtype: 'float64' as never })).toThrow(/random\.geometric: `dtype`/);
    expect(() => geometric(null as never, 0.5)).toThrow(/random\.geometric: `key`/);
  });
});
