// laggedProductSums' direct sums (few lags, mcmc/diagnostics/internal/autocov.ts) add four lags per
// pass over a series; each lag's sum must keep the bits of the one-lag loop it replaced.
import { describe, expect, it } from 'vitest';
import { laggedProductSums } from '../../../mcmc/diagnostics/internal/autocov.js';

/** The one-lag-at-a-time loop, frozen as the reference. */
function oneLag(x: Float64Array, offsets: readonly number[], n: number, maxLag: number): Float64Array {
  const out = new Float64Array(maxLag + 1);
  for (const o of offsets) {
    for (let k = 0; k <= maxLag; k++) {
      let s = 0;
      for (let i = 0; i + k < n; i++) s += x[o + i + k]! * x[o + i]!;
      out[k] += s;
    }
  }
  return out;
}

const bits = (a: Float64Array): string[] => Array.from(new Uint32Array(a.buffer), (w) => w.toString(16));

describe('laggedProductSums, direct sums', () => {
  let s = 3;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
  for (const [n, maxLag, chains] of [[1000, 10, 8], [1000, 40, 4], [500, 9, 3], [63, 62, 2], [5, 4, 1], [7, 0, 2], [2, 1, 1], [64, 13, 1]] as const) {
    it(`are the one-lag loop's bits: ${chains} series of ${n}, lags 0…${maxLag}`, () => {
      const x = Float64Array.from({ length: n * chains + 5 }, (_, i) => (i % 11 === 0 ? -0 : rnd() * 10 ** (6 * rnd())));
      const offsets = Array.from({ length: chains }, (_, c) => 5 + c * n);
      expect(bits(laggedProductSums(x, offsets, n, maxLag))).toEqual(bits(oneLag(x, offsets, n, maxLag)));
    });
  }
});
