/**
 * random.gamma / random.loggamma.
 *
 * - Known answers: the §7.1 JAX rows (original mode, x32, float32) within 2 float32 ulp (they
 *   match bit for bit today) and JAX's test_loggamma_nan_corner_case value.
 * - The threefry fast path (gamma-threefry.ts) equals the plain path (gammaReference) bit for bit
 *   in all four modes and both dtypes, over shapes that exercise the boost, rejections, a = 0,
 *   ∞, NaN and negative values; normals64 equals normalData bit for bit.
 * - Goodness of fit at fixed keys, each rejecting at ALPHA = 1e-6 (test/stats.ts), with
 *   reference CDFs from @stdlib: KS (n = 20000) for gamma at a = 0.5, 1, 2.5 and 1e4 and for
 *   loggamma at a = 1e-3 (whose gamma values mostly underflow), chi-square over fixed bins
 *   (n = 20000) for gamma at a = 1e-3 including its underflowed mass; float32 and float64, in
 *   several modes.
 * - Bad input and edge values.
 */
import { describe, expect, it } from 'vitest';
import gammaCdf from '@stdlib/stats-base-dists-gamma-cdf';
import gammaln from '@stdlib/math-base-special-gammaln';
import * as random from '../../src/random/index.js';
import { gamma, gammaData, gammaReference, loggamma, loggammaData } from '../../src/random/gamma.js';
import { normals64 } from '../../src/random/gamma-threefry.js';
import { normalData } from '../../src/random/normal.js';
import { threefryFill } from '../../src/prng/index.js';
import { tensor } from '../../src/tensor/tensor.js';
import { getModes } from '../../src/config.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue, ksPValue } from '../stats.js';

/** |got − want| in units of the float32 spacing at `want`. */
const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));
const X32_ORIGINAL = { x64: false, threefryPartitionable: false } as const;
const modeName = (m: { x64: boolean; threefryPartitionable: boolean }) => `x64=${m.x64} partitionable=${m.threefryPartitionable}`;

describe('random.gamma / loggamma known answers (jax 0.10.2, §7.1: original mode, x32, float32)', () => {
  it('gamma row: seed 1038747260, a = 0.8, shape [5]', () => {
    const want = [0.824220597743988, 1.7244755029678345, 0.5028824210166931, 5.386131763458252, 0.6855431795120239];
    withModes(X32_ORIGINAL, () => {
      const got = gamma(random.key(1038747260), 0.8, [5]);
      expect(got.dtype).toBe('float32');
      Array.from(got.data).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('loggamma row: seed 1440221118, a = 0.8, shape [5]', () => {
    const want = [0.24055933952331543, -3.5754425525665283, -0.4509458541870117, -2.161372184753418, -2.943276882171631];
    withModes(X32_ORIGINAL, () => {
      const got = loggamma(random.key(1440221118), 0.8, [5]).data;
      Array.from(got).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('test_loggamma_nan_corner_case: loggamma(wrapKeyData([3200590325, 713258242]), 0.0) = -4.595436', () => {
    // a = 0 makes the boost log1p(−u)·(1/0) = −∞, except that this key's boost draw is u = 0,
    // where JAX's `log_samples == 0` guard drops the boost: the result is log d + log V.
    withModes(X32_ORIGINAL, () => {
      const got = loggamma(random.wrapKeyData([3200590325, 713258242]), 0.0, undefined, { dtype: 'float32' });
      expect(got.shape).toEqual([]);
      expect(Math.abs(got.item() as number - -4.595436)).toBeLessThan(5e-6);
    });
  });
});

describe('the threefry fast path equals the plain path bit for bit', () => {
  const edge = [2.5, 1e-3, 0.3, 0.8, 1, 1 - 2 ** -20, 7, 1e4, 0, NaN, -0.5, -2, Infinity, 1e-30, 0.999, 50];
  const alphas = Float64Array.from({ length: 611 }, (_, i) => edge[i % edge.length]!);

  it.each(ALL_MODES.map((m) => [modeName(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      const modes = getModes();
      const key = random.key(20240611);
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        const a = dtype === 'float32' ? Float32Array.from(alphas) : alphas;
        for (const logSpace of [false, true]) {
          const fast = (logSpace ? loggammaData : gammaData)(key, a, a.length, dtype, modes);
          const plain = gammaReference(key, a, a.length, logSpace, dtype, modes);
          expect(Array.from(fast).map((x, i) => (Object.is(x, plain[i]) ? '' : `${i}: ${x} vs ${plain[i]}`)).filter(Boolean)).toEqual([]);
        }
        // One shape for all elements (the cores broadcast a length-1 array), odd sizes, size 1 and 0.
        for (const [a0, n] of [[2.5, 1501], [0.4, 7], [3, 1], [3, 0]] as const) {
          const fast = gammaData(key, [a0], n, dtype, modes);
          const plain = gammaReference(key, [a0], n, false, dtype, modes);
          expect(fast.length).toBe(n);
          expect(Array.from(fast).every((x, i) => Object.is(x, plain[i]))).toBe(true);
        }
      }
    });
  });

  it('normals64 equals normalData (float64) bit for bit, tails included', () => {
    withModes({ x64: true, threefryPartitionable: true }, () => {
      const key = random.key(77);
      const n = 200_000;                                 // about 400 draws take erfinv's tail branches
      const words = new Uint32Array(2 * n);
      threefryFill('blocks', key.data[0]!, key.data[1]!, 0, 0, 0, n, words);   // the f64 draws' blocks
      const xs = new Float64Array(n);
      normals64(new Int32Array(words.buffer), Int32Array.from({ length: n }, (_, i) => i), n, xs, new Float64Array(n), new Int32Array(n));
      const want = normalData(key, n, 'float64', getModes());
      let mismatches = 0;
      for (let i = 0; i < n; i++) if (!Object.is(xs[i], want[i])) mismatches++;
      expect(mismatches).toBe(0);
      expect(Array.from(want).reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBeGreaterThan(4);
    });
  });

  it('other impls use the plain path and are reproducible', () => {
    const key = random.key(5, { impl: 'philox4x32' });
    const x = gamma(key, [0.5, 2, 9]).data;
    expect(Array.from(x)).toEqual(Array.from(gamma(key, [0.5, 2, 9]).data));
    expect(Array.from(x).every((v) => v > 0 && Number.isFinite(v))).toBe(true);
  });
});

describe('random.gamma statistics (KS, n = 20000, alpha 1e-6)', () => {
  const n = 20000;
  it.each([
    [0.5, ALL_MODES[0]], [1, ALL_MODES[1]], [2.5, ALL_MODES[2]], [1e4, ALL_MODES[3]], [0.5, ALL_MODES[3]], [2.5, ALL_MODES[0]],
  ] as const)('a = %s, %o', (a, m) => {
    withModes(m, () => {
      const dtypes = m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const);
      dtypes.forEach((dtype, i) => {
        const x = gamma(random.key(100 + i), a, [n], { dtype }).data;
        expect(ksPValue(x, (v) => gammaCdf(v, a, 1))).toBeGreaterThan(ALPHA);
      });
    });
  });

  it('gamma with a = 1e-3: chi-square over bins reaching down to the underflowed mass', () => {
    const a = 1e-3;
    for (const [m, dtype, edges] of [
      [ALL_MODES[0], 'float64', [1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1e-5, 0.1]],
      [ALL_MODES[3], 'float32', [1e-44, 1e-35, 1e-25, 1e-15, 1e-8, 1e-3, 0.1]],
    ] as const) {
      withModes(m, () => {
        const x = gamma(random.key(7), a, [n], { dtype }).data;
        // The first bin [0, edges[0]] holds the values that underflow to 0 (most of them).
        const counts = new Array<number>(edges.length + 1).fill(0);
        for (const v of x) counts[edges.findIndex((e) => v <= e) === -1 ? edges.length : edges.findIndex((e) => v <= e)]!++;
        const cdf = edges.map((e) => gammaCdf(e, a, 1));
        const probs = [...cdf, 1].map((c, i) => c - (i === 0 ? 0 : cdf[i - 1]!));
        expect(chiSquarePValue(counts, probs)).toBeGreaterThan(ALPHA);
      });
    }
  });
});

describe('random.loggamma statistics (KS, n = 20000, alpha 1e-6)', () => {
  /** P(log G ≤ x) for G ~ Gamma(a): P(a, e^x), with P(a, z) = z^a / Γ(a + 1) once e^x underflows. */
  const logGammaCdf = (x: number, a: number) => (x > -700 ? gammaCdf(Math.exp(x), a, 1) : Math.exp(a * x - gammaln(a + 1)));

  it.each([[1e-3, ALL_MODES[0]], [1e-3, ALL_MODES[3]], [0.05, ALL_MODES[1]], [3, ALL_MODES[2]]] as const)('a = %s, %o', (a, m) => {
    withModes(m, () => {
      const dtypes = m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const);
      dtypes.forEach((dtype, i) => {
        const x = loggamma(random.key(200 + i), a, [20000], { dtype }).data;
        expect(x.every(Number.isFinite)).toBe(true);
        expect(ksPValue(x, (v) => logGammaCdf(v, a))).toBeGreaterThan(ALPHA);
      });
    });
  });

  it('exp(loggamma) equals gamma for the same key wherever gamma does not underflow', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(31);
        const a = tensor([0.05, 0.5, 1, 2.5, 40], m.x64 ? 'float64' : 'float32');
        const g = gamma(key, a, [200, 5]).data;
        const lg = loggamma(key, a, [200, 5]).data;
        const rtol = m.x64 ? 1e-12 : 1e-5;
        for (let i = 0; i < g.length; i++) {
          if (g[i]! > 1e-30) expect(Math.abs(Math.exp(lg[i]!) - g[i]!)).toBeLessThanOrEqual(rtol * g[i]!);
        }
      });
    }
  });
});

describe('random.gamma / loggamma shapes, edge values and bad input', () => {
  it('broadcasts a to shape and defaults shape to a\'s', () => {
    const key = random.key(1);
    expect(gamma(key, [[1], [2]], [2, 3]).shape).toEqual([2, 3]);
    expect(gamma(key, [1, 2, 3]).shape).toEqual([3]);
    expect(gamma(key, 2).shape).toEqual([]);
    expect(loggamma(key, 2, [4]).dtype).toBe('float64');
    withModes({ x64: false, threefryPartitionable: true }, () => expect(gamma(key, 2, [4]).dtype).toBe('float32'));
    // Element i uses key i of split(key, N): the same a at different positions gives different values.
    const x = gamma(key, [3, 3]).data;
    expect(x[0]).not.toBe(x[1]);
  });

  it('follows JAX at the edges: a = 0 gives 0 (gamma) and −∞ (loggamma), a = ∞ gives ∞, NaN gives NaN', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(2);
        expect(Array.from(gamma(key, 0, [50]).data).every((v) => v === 0)).toBe(true);
        expect(Array.from(loggamma(key, 0, [50]).data).every((v) => v === -Infinity)).toBe(true);
        expect(Array.from(gamma(key, [Infinity, NaN]).data)).toEqual([Infinity, NaN]);
        expect(Array.from(loggamma(key, [Infinity, NaN]).data)).toEqual([Infinity, NaN]);
      });
    }
  });

  it('gives NaN for a < 0 (documented: JAX gives NaN only below −2/3)', () => {
    expect(Array.from(gamma(random.key(3), [-0.5, -1, -1e-300]).data).every(Number.isNaN)).toBe(true);
    expect(Array.from(loggamma(random.key(3), [-0.5, 2]).data).map(Number.isNaN)).toEqual([true, false]);
  });

  it('rejects bad arguments, naming the function and argument', () => {
    const key = random.key(0);
    expect(() => gamma(key, 'x' as never)).toThrow(TypeError);
    expect(() => gamma(key, 'x' as never)).toThrow(/random\.gamma: `a`/);
    expect(() => loggamma(key, [1, 2, 3], [2])).toThrow(/random\.loggamma: .*`a`/);
    expect(() => gamma(key, 1, [-1])).toThrow(RangeError);
    expect(() => gamma(random.split(key), 1)).toThrow(/random\.gamma: `key` must be a single key/);
    expect(() => gamma(key, 1, [2], { dtype: 'int32' as never })).toThrow(/random\.gamma: `dtype`/);
    withModes({ x64: false, threefryPartitionable: true }, () => {
      expect(() => gamma(key, 1, [2], { dtype: 'float64' })).toThrow(RangeError);
    });
    expect(() => gammaData(key, [1, 2], 3, 'float64', getModes())).toThrow(RangeError);
  });
});
