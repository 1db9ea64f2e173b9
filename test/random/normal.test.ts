import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';

/** |got − want| in units of the float32 spacing at `want`. */
const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.normal known answers (jax 0.10.2)', () => {
  it('JAX _RANDOM_VALUES_CASES normal row (§7.1, original mode, float32): within 2 ulp', () => {
    const want = [-1.1732335090637207, -1.5116621255874634, 0.0705929547548294, -0.09976384043693542, 1.0528450012207031];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const got = Array.from(random.normal(random.key(1193674498), [5]).data);
      got.forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(2));
    });
  });

  it('the Common Gotchas notebook (§3.3): printed to 8 significant digits', () => {
    const close = (got: number, printed: number) => expect(Math.abs(got - printed)).toBeLessThan(Math.abs(printed) * 1e-7 + 1e-8);
    withModes({ x64: false, threefryPartitionable: false }, () => {
      let [key, subkey] = random.split(random.key(0));
      close(random.normal(subkey!, [1]).data[0]!, -1.2515389);
      [key, subkey] = random.split(key!);
      close(random.normal(subkey!, [1]).data[0]!, -0.58665055);
      const subkeys = [...random.split(key!, 4)].slice(1);
      [-0.37533438, 0.98645043, 0.14553197].forEach((v, i) => close(random.normal(subkeys[i]!, [1]).data[0]!, v));
      close(random.normal(random.key(0), [1]).data[0]!, -0.20584226);
    });
    withModes({ x64: false, threefryPartitionable: true }, () => {
      let [key, subkey] = random.split(random.key(0));
      close(random.normal(subkey!, [1]).data[0]!, -2.4424558);
      [key, subkey] = random.split(key!);
      close(random.normal(subkey!, [1]).data[0]!, -1.2574776);
      close(random.normal(random.key(0), [1]).data[0]!, 1.6226422);
    });
  });
});

describe('random.normal statistics (KS against @stdlib normal CDF, n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      const z = random.normal(random.key(2718), [20000]).data;
      expect(ksPValue(z, (x) => normalCdf(x, 0, 1))).toBeGreaterThan(ALPHA);
      const z32 = random.normal(random.key(2718), [20000], { dtype: 'float32' }).data;
      expect(ksPValue(z32, (x) => normalCdf(x, 0, 1))).toBeGreaterThan(ALPHA);
    });
  });

  it('reaches the float32 extremes without infinities', () => {
    const z = random.normal(random.key(3), [200000], { dtype: 'float32' }).data;
    expect(z.every(Number.isFinite)).toBe(true);
    expect(Math.max(...z.subarray(0, 100000))).toBeLessThan(6);
  });
});

describe('random.normal bad input', () => {
  it('rejects bad dtypes and shapes', () => {
    expect(() => random.normal(random.key(0), [2], { dtype: 'int32' as never })).toThrow(/random\.normal: `dtype`/);
    expect(() => random.normal(random.key(0), [-2])).toThrow(RangeError);
    expect(() => random.normal(random.split(random.key(0)))).toThrow(/single key/);
  });
});

describe('random.normal sizes (issue 18)', () => {
  it('refuses more than 2^28 elements up front, naming the function and the size', () => {
    const t0 = Date.now();
    expect(() => random.normal(random.key(0), [3e9])).toThrow(RangeError);
    expect(() => random.normal(random.key(0), [3e9])).toThrow(/^random\.normal: `shape` asks for 3000000000 elements, more than the limit of 268435456/);
    expect(() => random.normal(random.key(0), [1e5, 1e5])).toThrow(/asks for 10000000000 elements/);
    expect(Date.now() - t0).toBeLessThan(2000); // nothing was allocated
  });
});
