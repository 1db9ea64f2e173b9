// The report's fast paths give what the plain versions gave: ranks by a native sort against the
// comparator sort they replaced (ties, NaN, ±0, ±∞); float64Values' typed-array conversion against
// Number(v); ppcPlot reads the caller's arrays without changing them, and its integer test
// (≤ 30 distinct integers: the discrete plot) decides as a Set would. Fixed data: exact checks.
import { describe, expect, it } from 'vitest';
import { rankCounts, ranks } from '../../../cli/report/plots/rank.js';
import { ppcPlot, ppcRowsPlot, rangeScan } from '../../../cli/report/plots/ppc.js';
import { coord, coordTexts, polyline } from '../../../cli/report/plots/svg.js';
import { float64Values } from '../../../mcmc/diagnostics/draws.js';
import { checkFlags } from '../../../cli/report/parameters.js';
import { Tensor } from '../../../src/tensor/tensor.js';

/** scipy's rankdata by an index sort with a comparator: what ranks() computed before. */
function referenceRanks(values: Float64Array): Float64Array {
  const idx = Array.from(values.keys()).filter((i) => !Number.isNaN(values[i]!));
  idx.sort((a, b) => values[a]! - values[b]! || a - b);
  const out = new Float64Array(values.length).fill(NaN);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && values[idx[j + 1]!] === values[idx[i]!]) j++;
    for (let k = i; k <= j; k++) out[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

describe('report fast paths', () => {
  it('ranks equal the comparator sort on ties, NaN, ±0 and ±∞', () => {
    let s = 3;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const specials = [NaN, -0, 0, Infinity, -Infinity];
    for (const n of [0, 1, 2, 7, 100, 4000]) {
      const x = Float64Array.from({ length: n }, () => { const u = rnd(); return u < 0.1 ? specials[Math.floor(rnd() * 5)]! : u < 0.5 ? Math.floor(u * 20) : u; });
      expect(Array.from(ranks(x))).toEqual(Array.from(referenceRanks(x)));
    }
  });

  it('rankCounts, by each bin\'s first value in the pooled sort, counts what binning ranks() per draw counted (ties, NaN, ±0, ±∞)', () => {
    let s = 5;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const specials = [NaN, -0, 0, Infinity, -Infinity];
    for (const [chains, draws, bins] of [[1, 1, 1], [2, 7, 3], [4, 1000, 21], [3, 50, 60]] as const) {
      const values = Float64Array.from({ length: chains * draws }, () => { const u = rnd(); return u < 0.1 ? specials[Math.floor(rnd() * 5)]! : u < 0.5 ? Math.floor(u * 20) : u; });
      const r = referenceRanks(values);
      const want = Array.from({ length: chains }, (_, c) => {
        const row = new Array<number>(bins).fill(0);
        for (let d = 0; d < draws; d++) { const v = r[c * draws + d]!; if (!Number.isNaN(v)) row[Math.min(bins - 1, Math.floor(((v - 1) / values.length) * bins))]! += 1; }
        return row;
      });
      expect(rankCounts({ name: 'x', chains, draws, values }, bins).counts).toEqual(want);
    }
  });

  it('checkFlags converts typed arrays natively and other array-likes one by one, both as Number(v)', () => {
    const cases: ArrayLike<number | boolean>[] = [Float64Array.of(0.1, 1, NaN, -0), Uint8Array.of(0, 1, 255, 2), Int8Array.of(-1, 0, 1, 5), Float32Array.of(0.5, 0, 1, NaN), [true, false, true, false], [0, 1, 2, NaN]];
    for (const f of cases) expect(Array.from(checkFlags('f', 'flags', f, 4)!)).toEqual(Array.from(f as ArrayLike<number>, Number));
    expect(() => checkFlags('f', 'flags', Uint8Array.of(1), 4)).toThrow(RangeError);
  });

  it('float64Values converts every dtype as Number(v) does', () => {
    const cases: Tensor[] = [
      new Tensor(Int32Array.of(-3, 0, 2147483647), [3], 'int32'),
      new Tensor(Uint8Array.of(0, 1, 1), [3], 'bool'),
      new Tensor(Float32Array.of(0.1, -2.5, NaN), [3], 'float32'),
      new Tensor(BigInt64Array.of(-5n, 2n ** 60n), [2], 'int64'),
    ];
    for (const t of cases) expect(Array.from(float64Values(t))).toEqual(Array.from(t.data as ArrayLike<number | bigint>, Number));
    const f = new Tensor(Float64Array.of(1, 2), [2], 'float64');
    expect(float64Values(f)).toBe(f.data);
  });

  it('ppcPlot leaves its inputs unchanged and picks the discrete plot for ≤ 30 distinct integers only', () => {
    const observed = Float64Array.of(3, 1, NaN, 2, 0);
    const replicated = [Float64Array.of(1, 2, 3, -0, 0), Float64Array.of(4, Infinity, 1, 1, 2)];
    const before = [observed, ...replicated].map((a) => Array.from(a));
    const svg = ppcPlot({ name: 'y', observed, replicated });
    expect([observed, ...replicated].map((a) => Array.from(a))).toEqual(before);
    expect(svg).toContain('share of observations');
    const ints = (k: number) => Float64Array.from({ length: 40 }, (_, i) => i % k);
    expect(ppcPlot({ name: 'y', observed: ints(30), replicated: [ints(30)] })).toContain('share of observations');   // 30 values: discrete
    expect(ppcPlot({ name: 'y', observed: ints(31), replicated: [ints(30)] })).not.toContain('share of observations'); // 31: densities
    expect(ppcPlot({ name: 'y', observed: Float64Array.of(0, 1, 0.5), replicated: [Float64Array.of(1, 1, 1)] })).not.toContain('share of observations');
    // integers over a wide range: densities, even when few (one bar per integer between would be 10⁷ bars)
    const wide = (k: number) => Float64Array.from({ length: 40 }, (_, i) => (i % k) * 1e7);
    expect(ppcPlot({ name: 'y', observed: wide(31), replicated: [wide(30)] })).not.toContain('share of observations');
    expect(ppcPlot({ name: 'y', observed: wide(2), replicated: [wide(2), Float64Array.from({ length: 40 }, (_, i) => (i % 2) * 1e9)] })).not.toContain('share of observations');
    expect(ppcPlot({ name: 'y', observed: Float64Array.of(0, 999), replicated: [Float64Array.of(0, 999)] })).toContain('share of observations');   // 1,000 integers: bars
    // −0 and 0 as one value, non-finite values left out
    const signed = Float64Array.from({ length: 40 }, (_, i) => (i === 0 ? -0 : i === 1 ? NaN : i === 2 ? Infinity : i % 30));
    expect(ppcPlot({ name: 'y', observed: signed, replicated: [ints(30)] })).toContain('share of observations');   // 0..29 (−0 is 0)
    expect(ppcPlot({ name: 'y', observed: Float64Array.of(-0.5, 1), replicated: [ints(2).subarray(0, 2)] })).not.toContain('share of observations');
  });

  it('the PPC\'s range scan: range, integers, where non-finite values are, and the last array summed as scottBandwidth sums it', () => {
    let st = 9;
    const u = () => (st = (st * 16807) % 2147483647) / 2147483647;
    const specials = [NaN, Infinity, -Infinity, -0];
    const make = (n: number, ints: boolean, odd: number) => Float64Array.from({ length: n }, () => { const r = u(); return r < odd ? specials[Math.floor(u() * 4)]! : ints ? Math.floor(r * 9) - 4 : (r - 0.5) * 7; });
    for (const [obsInts, repInts, odd] of [[true, true, 0], [true, false, 0], [false, false, 0], [true, false, 0.01], [false, true, 0.02], [true, true, 0.01]] as const) {
      const obs = make(30, obsInts, odd), flat = make(3000, repInts, odd);
      const got = rangeScan([obs, flat], 30);
      let min = Infinity, max = -Infinity, integers = true, finiteFrom = 0, sum = 0;
      [obs, flat].forEach((x, a) => x.forEach((v) => { if (!Number.isFinite(v)) finiteFrom = a + 1; else { min = Math.min(min, v); max = Math.max(max, v); integers &&= Number.isInteger(v); } }));
      for (const v of flat) sum += v;   // scottBandwidth's order
      expect([got.min, got.max, got.finiteFrom]).toEqual([min, max, finiteFrom]);
      expect(got.few).toBe(integers && new Set([...obs, ...flat].filter(Number.isFinite)).size <= 30);
      expect(Object.is(got.lastSum, sum)).toBe(true);
    }
  });

  it('ppcPlot draws the same densities from replicates that are rows of one buffer (pooled as a view) and from separate arrays (pooled by copying)', () => {
    let st = 5;
    const u = () => (st = (st * 16807) % 2147483647) / 2147483647;
    const n = 7, draws = 60;
    for (const gaps of [false, true]) {
      const buf = Float64Array.from({ length: n * draws }, (_, i) => (gaps && i % 53 === 0 ? Number.NaN : 3 * u() - 1 + (i % n)));
      const rows = Array.from({ length: draws }, (_, d) => buf.subarray(d * n, (d + 1) * n));
      const copies = rows.map((r) => Float64Array.from(r));
      const observed = Float64Array.from({ length: n }, (_, i) => i + 0.5);
      const viaView = ppcPlot({ name: 'y', observed, replicated: rows });
      expect(viaView).toBe(ppcPlot({ name: 'y', observed, replicated: copies }));
      expect(ppcRowsPlot('y', observed, buf, draws)).toBe(viaView);   // the report's path: rows of one buffer, no view per row
      expect(viaView).toContain('replicated, pooled');
      // the pooled curve is the density of every replicate: a different pool (the last row left out) changes it
      expect(ppcPlot({ name: 'y', observed, replicated: rows.slice(0, -1) })).not.toBe(ppcPlot({ name: 'y', observed, replicated: copies }));
      // integers: the discrete plot counts each row of the buffer
      const ints = Float64Array.from(buf, (v) => (Number.isNaN(v) ? v : Math.floor(v)));
      const intRows = Array.from({ length: draws }, (_, d) => Float64Array.from(ints.subarray(d * n, (d + 1) * n)));
      const discrete = ppcPlot({ name: 'y', observed: Float64Array.from(observed, Math.floor), replicated: intRows });
      expect(discrete).toContain('share of observations');
      expect(ppcRowsPlot('y', Float64Array.from(observed, Math.floor), ints, draws)).toBe(discrete);
      // shares and their 5–95% range do not depend on the replicates' order (each row counted as a row)
      const reversed = new Float64Array(ints.length);
      intRows.forEach((r, d) => reversed.set(r, (draws - 1 - d) * n));
      expect(ppcRowsPlot('y', Float64Array.from(observed, Math.floor), reversed, draws)).toBe(discrete);
    }
  });

  it('polyline prints what joining coord\'s texts prints (breaks at non-finite points, −0, huge values, x texts changed between calls)', () => {
    const plain = (xs: ArrayLike<number>, ys: ArrayLike<number>, attrs: string, xText?: readonly (string | undefined)[]) => {
      let out = '', run: string[] = [];
      const flush = () => { if (run.length > 0) out += `<polyline points="${run.join(' ')}" fill="none" ${attrs}/>`; run = []; };
      for (let i = 0; i < xs.length; i++) {
        if (Number.isFinite(xs[i]!) && Number.isFinite(ys[i]!)) run.push(`${xText === undefined ? coord(xs[i]!) : xText[i]!},${coord(ys[i]!)}`);
        else flush();
      }
      flush();
      return out;
    };
    let st = 11;
    const u = () => (st = (st * 16807) % 2147483647) / 2147483647;
    const specials = [NaN, Infinity, -0, 0, 0.004, -0.004, 0.005, -0.005, 1e13, -3e12, 1e300, 123456789.987];
    for (const n of [0, 1, 2, 50, 3000]) {
      const xs = Float64Array.from({ length: n }, (_, i) => (u() < 0.05 ? specials[Math.floor(u() * specials.length)]! : 40 + i * 0.37));
      const ys = Float64Array.from({ length: n }, () => (u() < 0.1 ? specials[Math.floor(u() * specials.length)]! : (u() - 0.3) * 300));
      const xText = coordTexts(xs);
      expect(polyline(xs, ys, 'stroke="red"')).toBe(plain(xs, ys, 'stroke="red"'));
      expect(polyline(xs, ys, '', xText)).toBe(plain(xs, ys, '', xText));
      if (n > 0) {   // the same array with other texts: not the bytes kept from the first call
        const i = xText.findIndex((t) => t !== undefined);
        if (i >= 0) { xText[i] = '7.77'; expect(polyline(xs, ys, '', xText)).toBe(plain(xs, ys, '', xText)); }
      }
    }
  });

  it('coord prints what String(Math.round(x · 100) / 100) prints (−0 as 0), from the integer, at every magnitude', () => {
    const ref = (x: number) => { const r = Math.round(x * 100) / 100; return String(Object.is(r, -0) ? 0 : r); };
    let st = 11;
    const u = () => (st = (st * 16807) % 2147483647) / 2147483647;
    const xs = [0, -0, 0.004, -0.004, 0.005, -0.005, 0.015, 2.675, 1.005, -1.005, 0.1, 0.7, 12.3456, 1e-300, 1e10, -1e10, 2 ** 40 / 100, 1e13 + 0.1, 7.6e13, 1e21, -1e22];
    for (let i = 0; i < 100_000; i++) xs.push((u() - 0.5) * 10 ** Math.floor(u() * 24 - 6));
    for (let i = 0; i < 100_000; i++) xs.push(Math.round((u() - 0.5) * 2e6 * 10 ** Math.floor(u() * 7)) / 100 + 0.005 * Math.floor(u() * 3));
    const wrong = xs.filter((x) => coord(x) !== ref(x));
    expect(wrong).toEqual([]);
  }, 10_000);
});
