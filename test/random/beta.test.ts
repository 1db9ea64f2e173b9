/**
 * random.beta: the §7.1 JAX row (original mode, x32, float32) within 4 float32 ulp; its key
 * order (ka, kb = split(key), log-gammas) against loggamma; goodness of fit at fixed keys with
 * @stdlib's beta CDF, rejecting at ALPHA = 1e-6 (test/stats.ts): KS (n = 20000) for (0.5, 0.5)
 * and (2, 5), and chi-square over fixed bins (n = 20000) for the hard corner a, b < 0.1 (0.05,
 * 0.08), whose samples pile up within rounding of 0 and 1; float32 and float64; bad input.
 */
import { describe, expect, it } from 'vitest';
import betaCdf from '@stdlib/stats-base-dists-beta-cdf';
import * as random from '../../src/random/index.js';
import { beta } from '../../src/random/beta.js';
import { loggamma } from '../../src/random/gamma.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue, ksPValue } from '../stats.js';

const ulps32 = (got: number, want: number) => Math.abs(got - want) / (2 ** (Math.floor(Math.log2(Math.abs(want))) - 23));

describe('random.beta known answers (jax 0.10.2)', () => {
  it('§7.1 beta row: seed 923534869, a = 0.8, b = 0.9, shape [5], within 4 ulp', () => {
    const want = [0.13258960843086243, 0.8248932957649231, 0.9483627676963806, 0.9641547203063965, 0.23544837534427643];
    withModes({ x64: false, threefryPartitionable: false }, () => {
      const got = beta(random.key(923534869), 0.8, 0.9, [5]).data;
      Array.from(got).forEach((g, i) => expect(ulps32(g, want[i]!)).toBeLessThanOrEqual(4));
    });
  });

  it('is Ga/(Ga + Gb) from log-gammas drawn with ka, kb = split(key)', () => {
    for (const m of ALL_MODES) {
      withModes(m, () => {
        const key = random.key(9);
        const [ka, kb] = random.split(key);
        const la = loggamma(ka!, 0.3, [64]).data, lb = loggamma(kb!, 4, [64]).data;
        const want = Array.from(la, (x, i) => 1 / (1 + Math.exp(lb[i]! - x)));
        const got = beta(key, 0.3, 4, [64]).data;
        got.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThan(m.x64 ? 1e-14 : 1e-6));
      });
    }
  });
});

describe('random.beta statistics (alpha 1e-6)', () => {
  it.each([[0.5, 0.5], [2, 5]] as const)('KS, a = %s, b = %s, n = 20000', (a, b) => {
    for (const [i, m] of ALL_MODES.entries()) {
      if (i % 2 === 1) continue;                           // one mode per x64 setting
      withModes(m, () => {
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const x = beta(random.key(40 + i), a, b, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => betaCdf(v, a, b))).toBeGreaterThan(ALPHA);
        }
      });
    }
  });

  it('a = 0.05, b = 0.08: chi-square over bins from 1e-30 to 1 − 1e-5, n = 20000', () => {
    const a = 0.05, b = 0.08;
    const edges = [1e-30, 1e-15, 1e-8, 1e-3, 0.1, 0.5, 0.9, 1 - 1e-3, 1 - 1e-5];
    const cdf = edges.map((e) => betaCdf(e, a, b));
    const probs = [...cdf, 1].map((c, i) => c - (i === 0 ? 0 : cdf[i - 1]!));
    for (const m of [ALL_MODES[0], ALL_MODES[3]]) {
      withModes(m, () => {
        for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
          const x = beta(random.key(5), a, b, [20000], { dtype }).data;
          expect(x.every((v) => v >= 0 && v <= 1)).toBe(true);
          const counts = new Array<number>(edges.length + 1).fill(0);
          for (const v of x) { const k = edges.findIndex((e) => v <= e); counts[k === -1 ? edges.length : k]!++; }
          expect(chiSquarePValue(counts, probs)).toBeGreaterThan(ALPHA);
        }
      });
    }
  });
});

describe('random.beta shapes and bad input', () => {
  it('broadcasts a and b', () => {
    expect(beta(random.key(1), [1, 2, 3], 2).shape).toEqual([3]);
    expect(beta(random.key(1), [[1], [2]], [1, 2, 3]).shape).toEqual([2, 3]);
    expect(beta(random.key(1), 1, 2, [4, 2]).shape).toEqual([4, 2]);
    expect(Array.from(beta(random.key(1), [-1, NaN, 2], 2).data).map(Number.isNaN)).toEqual([true, true, false]);
  });

  it('rejects bad arguments, naming them', () => {
    const key = random.key(0);
    expect(() => beta(key, 'a' as never, 1)).toThrow(/random\.beta: `a`/);
    expect(() => beta(key, 1, {} as never)).toThrow(/random\.beta: `b`/);
    expect(() => beta(key, [1, 2], [1, 2, 3])).toThrow(RangeError);
    expect(() => beta(key, [1, 2], 1, [3])).toThrow(/random\.beta: .*`a`/);
  });
});
