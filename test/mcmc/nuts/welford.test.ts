// The variance estimators (mcmc/nuts/welford.ts) against two-pass variances on awkward data: a
// large offset (1e9 + small spread, where Σx² − n·mean² loses every digit), values spanning
// twelve orders of magnitude, constant data, one sample; Stan's Welford and WelfordCovariance
// one draw at a time, TFP's addChunk in chunks of every size; and the claim in the file header
// that for one-draw chunks the two forms give the same means bit for bit. Deterministic data.
import { describe, expect, it } from 'vitest';
import { addChunk, Welford, WelfordCovariance } from '../../../mcmc/nuts/welford.js';

/** Two-pass sample variance (n − ddof denominator). */
function twoPass(xs: readonly number[], ddof = 1): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, b) => a + (b - m) * (b - m), 0) / (xs.length - ddof);
}

const offset = Array.from({ length: 200 }, (_, i) => 1e9 + Math.sin(0.7 * i) * 3 + (i % 7) * 0.01);
const spread = Array.from({ length: 120 }, (_, i) => (i % 2 ? -1 : 1) * 10 ** ((i % 13) - 6) * (1 + i / 100));
// With a 1e9 offset each update rounds at ulp(1e9) ≈ 1.2e−7 against a spread of ~3: 1e−7 relative
// is the honest tolerance there (the naive formula is off by more than 1%); elsewhere 1e−12.
const datasets = [{ name: '1e9 offset', xs: offset, tol: 1e-7 }, { name: '1e−6 … 1e6', xs: spread, tol: 1e-12 }, { name: 'integers', xs: [4, 7, 13, 16], tol: 1e-12 }];

describe('Welford (Stan engine form)', () => {
  it.each(datasets)('$name: the sample variance of each coordinate matches the two-pass one (to $tol relative)', ({ xs, tol }) => {
    const w = new Welford(2), out = new Float64Array(2);
    for (const x of xs) w.add(Float64Array.of(x, -3 * x));
    w.variance(out);
    const want = twoPass(xs);
    expect(Math.abs(out[0]! - want)).toBeLessThan(tol * want);
    expect(Math.abs(out[1]! - 9 * want)).toBeLessThan(tol * 9 * want);
    // The naive Σx² − n·mean² is useless on the offset data: what Welford is for.
    if (xs === offset) {
      const n = xs.length, m = xs.reduce((a, b) => a + b, 0) / n;
      const naive = (xs.reduce((a, b) => a + b * b, 0) - n * m * m) / (n - 1);
      expect(Math.abs(naive - want)).toBeGreaterThan(0.01 * want);
    }
  });

  it('integers 4, 7, 13, 16: variance exactly 30; constant data: 0; fewer than 2 draws leave `out` alone; restart empties', () => {
    const w = new Welford(1), out = Float64Array.of(-1);
    w.add(Float64Array.of(4));
    w.variance(out);
    expect(out[0]).toBe(-1);
    for (const x of [7, 13, 16]) w.add(Float64Array.of(x));
    w.variance(out);
    expect(out[0]).toBe(30);
    expect(w.n).toBe(4);
    w.restart();
    expect(w.n).toBe(0);
    for (let i = 0; i < 5; i++) w.add(Float64Array.of(1e300));
    w.variance(out);
    expect(out[0]).toBe(0);
  });
});

describe('WelfordCovariance (Stan engine form)', () => {
  it('the 1e9-offset data: the covariance of (x, 2x + noise) matches the two-pass one to 1e−7 relative', () => {
    const ys = offset.map((x, i) => 2 * x + Math.cos(1.1 * i));
    const w = new WelfordCovariance(2), out = new Float64Array(4);
    offset.forEach((x, i) => w.add(Float64Array.of(x, ys[i]!)));
    w.covariance(out);
    const n = offset.length, mx = offset.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
    let sxy = 0;
    for (let i = 0; i < n; i++) sxy += (offset[i]! - mx) * (ys[i]! - my);
    const want = [twoPass(offset), sxy / (n - 1), sxy / (n - 1), twoPass(ys)];
    want.forEach((v, k) => expect(Math.abs(out[k]! - v), String(k)).toBeLessThan(1e-7 * Math.abs(v)));
    // (x − mean_new)·dᵀ is not exactly symmetric: Stan's M₂ is symmetric only to rounding.
    expect(Math.abs(out[1]! - out[2]!)).toBeLessThan(1e-7 * Math.abs(out[1]!));
  });
});

describe('addChunk (TFP engine form, Pébay)', () => {
  it.each(datasets)('$name: chunks of 1, 2, 3, 7 and all samples give the two-pass variance (to $tol relative)', ({ xs, tol }) => {
    const want = twoPass(xs, 0);
    for (const size of [1, 2, 3, 7, xs.length]) {
      const out = new Float64Array(2);
      let n = 0, mean = 0, ssr = 0;
      for (let at = 0; at < xs.length; at += size) {
        const m = Math.min(size, xs.length - at);
        addChunk(out, n, mean, ssr, xs, at, 1, m);
        n += m; mean = out[0]!; ssr = out[1]!;
      }
      expect(Math.abs(ssr / n - want), `chunks of ${size}`).toBeLessThan(tol * want);
    }
  });

  it('reads a strided chunk: coordinate i of samples laid out [m, size]', () => {
    const x = [1, 10, 3, 20, 5, 60];   // two coordinates, three samples
    const out = new Float64Array(2);
    addChunk(out, 0, 0, 0, x, 1, 2, 3);
    expect(Array.from(out)).toEqual([30, 1400]);
    addChunk(out, 0, 0, 0, x, 0, 2, 3);
    expect(Array.from(out)).toEqual([3, 8]);
  });

  it('one draw at a time: the same means as Welford bit for bit (the sums of squares may differ in the last bits)', () => {
    const w = new Welford(1), out = new Float64Array(2), v = new Float64Array(1);
    let n = 0, mean = 0, ssr = 0;
    for (const x of spread) {
      w.add(Float64Array.of(x));
      addChunk(out, n, mean, ssr, [x], 0, 1, 1);
      n++; mean = out[0]!; ssr = out[1]!;
      expect((w as unknown as { mean: Float64Array }).mean[0]).toBe(mean);
    }
    w.variance(v);
    expect(Math.abs(v[0]! - ssr / (n - 1))).toBeLessThan(1e-12 * v[0]!);
  });
});
