/**
 * random.wald: JAX values (part-C fixture in all four modes; §7.1 has no wald row), goodness of
 * fit, the large-mean corner and bad input. Statistics: KS against the inverse Gaussian CDF
 * (λ = 1) written with @stdlib's normal CDF and log-CDF,
 *   F(x) = Φ((x/μ − 1)/√x) + exp(2/μ + log Φ(−(x/μ + 1)/√x)),
 * at fixed keys, n = 20000 per mode, dtype and mean, each rejecting at ALPHA = 1e-6
 * (test/stats.ts); plus the sample mean against μ (variance μ³) at 6 standard errors.
 */
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalLogCdf from '@stdlib/stats-base-dists-normal-logcdf';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { normal } from '../../src/random/normal.js';
import { uniform } from '../../src/random/uniform.js';
import { wald } from '../../src/random/wald.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, ksPValue } from '../stats.js';
import { checkJaxCases } from './jax-fixture-c.js';

const waldCdf = (x: number, mu: number) => {
  if (!(x > 0)) return 0;
  const r = Math.sqrt(x);
  return normalCdf((x / mu - 1) / r, 0, 1) + Math.exp(2 / mu + normalLogCdf(-(x / mu + 1) / r, 0, 1));
};

describe('random.wald known answers (jax 0.10.2)', () => {
  it('the part-C fixture (mean 2): all four modes, float32 and float64', () => {
    expect(checkJaxCases('wald', (k, c, [mu]) => wald(k, mu, c.kwargs.shape, { dtype: c.kwargs.dtype as FloatDType }))).toBe(6);
  });

  it('uses JAX\'s keys: k1, k2 = split(key); the normal from k1, the uniform from k2', () => {
    const mu = 1.5;
    const [k1, k2] = random.split(random.key(9));
    const v = normal(k1!, [64]).data, z = uniform(k2!, [64]).data;
    const got = wald(random.key(9), mu, [64]).data;
    for (let i = 0; i < 64; i++) {
      const y = v[i]! * v[i]!;
      const x = mu + (mu * mu * y) / 2 - (mu / 2) * Math.sqrt(4 * mu * y + mu * mu * y * y);   // JAX's form
      const want = z[i]! <= mu / (mu + x) ? x : (mu * mu) / x;
      expect(Math.abs(got[i]! - want)).toBeLessThanOrEqual(1e-12 * Math.max(want, 1));
    }
  });
});

describe('random.wald statistics (KS against the inverse Gaussian CDF, n = 20000, alpha 1e-6)', () => {
  it.each(ALL_MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, m) => {
    withModes(m, () => {
      for (const dtype of m.x64 ? (['float64', 'float32'] as const) : (['float32'] as const)) {
        for (const mu of [0.5, 2, 10]) {
          const x = wald(random.key(39), mu, [20000], { dtype }).data;
          expect(ksPValue(x, (v) => waldCdf(v, mu))).toBeGreaterThan(ALPHA);
          const mean = Array.from(x).reduce((a, b) => a + b, 0) / x.length;
          expect(Math.abs(mean - mu)).toBeLessThan(6 * Math.sqrt(mu ** 3 / x.length));
        }
      }
    });
  });

  it('stays positive and correct for a large mean in float32 (JAX\'s cancellation gives values ≤ 0 there)', () => {
    withModes({ x64: false, threefryPartitionable: true }, () => {
      const x = wald(random.key(40), 1000, [20000]).data;
      expect(x.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
      expect(ksPValue(x, (v) => waldCdf(v, 1000))).toBeGreaterThan(ALPHA);
    });
  });
});

describe('random.wald bad input', () => {
  it.each([[0], [-1], [NaN], [Infinity]])('rejects mean = %s with a RangeError naming mean', (mu) => {
    expect(() => wald(random.key(0), mu)).toThrow(/random\.wald: `mean` must be positive and finite/);
  });

  it('rejects non-numeric means and mismatched shapes', () => {
    expect(() => wald(random.key(0), null as never)).toThrow(TypeError);
    expect(() => wald(random.key(0), [1, 2], [3])).toThrow(RangeError);
  });
});
