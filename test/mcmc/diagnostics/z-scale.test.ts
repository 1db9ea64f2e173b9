// zScale (ArviZ's _z_scale, mcmc/diagnostics/internal/chains.ts) places each draw by a radix sort
// of its bits instead of a binary search in the sorted draws: the scores must be the very bits the
// search gave, for ties, −0 beside +0, infinities, tiny and large sizes; with a NaN it searches.
import { describe, expect, it } from 'vitest';
import { zScale } from '../../../mcmc/diagnostics/internal/chains.js';
import { normalPpf } from '../../../mcmc/diagnostics/internal/normal-ppf.js';

/** zScale as it was before the radix sort (sort, then a binary search per draw), frozen as the reference. */
function searched(x: Float64Array): Float64Array {
  const size = x.length;
  const sortedX = Float64Array.from(x).sort();
  const c = 3 / 8;
  const denom = size - 2 * c + 1;
  const scores = new Float64Array(size);
  for (let i = 0; i < size;) {
    let j = i + 1;
    while (j < size && sortedX[j] === sortedX[i]) j++;
    const z = normalPpf(((i + 1 + j) / 2 - c) / denom);
    for (let k = i; k < j; k++) scores[k] = z;
    i = j;
  }
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    let lo = 0, hi = size;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (sortedX[mid]! < x[i]!) lo = mid + 1; else hi = mid; }
    out[i] = scores[lo]!;
  }
  return out;
}

const bits = (a: Float64Array): string[] => Array.from(new Uint32Array(a.buffer), (w) => w.toString(16));

describe('zScale', () => {
  let s = 17;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const cases: [string, Float64Array][] = [
    ['4 × 1000 continuous', Float64Array.from({ length: 4000 }, () => (rnd() - 0.5) * 10 ** (8 * rnd() - 4))],
    ['ties (values on a grid of 7)', Float64Array.from({ length: 1000 }, () => Math.floor(rnd() * 7) - 3)],
    ['−0 and +0 among negatives and positives', Float64Array.from({ length: 400 }, (_, i) => [0, -0, -1e-300, 1e-300, -2.5, 3][i % 6]! * (i % 5 === 0 ? 1 : rnd()))],
    ['infinities, subnormals, extremes', Float64Array.of(Infinity, -Infinity, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 0, -0, 1, Infinity, -1)],
    ['all equal', new Float64Array(64).fill(2.5)],
    ['one draw', Float64Array.of(3)],
    ['with a NaN (searched)', Float64Array.of(1, Number.NaN, 0.5, 2, 0.5)],
  ];
  for (const [name, x] of cases) {
    it(`gives the searched scores bit for bit: ${name}`, () => {
      expect(bits(zScale({ data: x, chains: 1, draws: x.length }).data)).toEqual(bits(searched(x)));
    });
  }
  it('reads the draws of a subarray in place', () => {
    const whole = Float64Array.from({ length: 300 }, () => Math.round(rnd() * 50) / 10);
    const part = whole.subarray(100, 260);
    expect(bits(zScale({ data: part, chains: 2, draws: 80 }).data)).toEqual(bits(searched(Float64Array.from(part))));
  });
});
