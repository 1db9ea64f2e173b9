// The multichain statistics (R-hat, bulk/tail ESS, MCSE) that summary and samplingWarnings share
// per run (internal/arviz-stats.ts `sharedMultichainStatistics`): a second call on the same
// draws answers from the cache, and the cache never answers for draws that differ — changed in
// place, another array, another split into chains, or another warm-up cut. Deterministic draws
// (fixed keys); exact equality, so no false-failure rate. Also zScale's shared table of untied
// scores against the per-run computation, bit for bit.
import { describe, expect, it } from 'vitest';
import { samplingWarnings, summary } from '../../../mcmc/diagnostics/index.js';
import { multichainStatistics, sharedMultichainStatistics } from '../../../mcmc/diagnostics/internal/arviz-stats.js';
import { zScale } from '../../../mcmc/diagnostics/internal/chains.js';
import { normalPpf } from '../../../mcmc/diagnostics/internal/normal-ppf.js';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { Tensor } from '../../../src/tensor/tensor.js';

const N = 400, C = 4;
const draws = (k: number, f: (v: number, i: number) => number = (v) => v): Tensor =>
  new Tensor(Float64Array.from(normal(key(k), [N, C, 3]).data as Float64Array, f), [N, C, 3], 'float64');
/** The same numbers in a new array: what a cold cache computes. */
const copy = (t: Tensor): Tensor => new Tensor(Float64Array.from(t.data as Float64Array), [...t.shape], 'float64');
const rowsOf = (t: Tensor) => summary({ x: t }).rows;

describe('statistics shared by summary and samplingWarnings', () => {
  it('gives the cold numbers on a repeat call and after samplingWarnings', () => {
    const x = draws(1, (v, i) => v + (i % C === 2 ? 0.4 : 0));   // chain 2 shifted: R-hat warnings
    const cold = rowsOf(copy(x));
    const warnings = samplingWarnings({ x });
    expect(rowsOf(x)).toEqual(cold);
    expect(rowsOf(x)).toEqual(cold);
    expect(samplingWarnings({ x })).toEqual(warnings);
    expect(warnings.map((w) => w.kind)).toContain('rhat');
    expect(samplingWarnings({ x: copy(x) })).toEqual(warnings);
  });

  it('recomputes draws changed in place (never the stale statistics)', () => {
    const x = draws(2);
    const before = rowsOf(x);
    const data = x.data as Float64Array;
    for (let i = 0; i < data.length; i += 3 * C) data[i] = data[i]! * 3 + 1;   // element 0, chain 0 only
    const after = rowsOf(x);
    expect(after).toEqual(rowsOf(copy(x)));
    expect(after[0]!.rHat).not.toBe(before[0]!.rHat);
    expect(after[1]).toEqual(before[1]);
    // one draw changed by one ulp is a change too
    data[5] = data[5]! + Math.abs(data[5]!) * Number.EPSILON;
    expect(rowsOf(x)).toEqual(rowsOf(copy(x)));
    // warnings see the change as well
    data.fill(0, 0, 3 * C * (N / 2));   // the first half of every chain constant: R-hat and ESS warnings
    expect(samplingWarnings({ x })).toEqual(samplingWarnings({ x: copy(x) }));
    expect(samplingWarnings({ x }).length).toBeGreaterThan(0);
  });

  it('keeps other draws, a warm-up cut and another split apart', () => {
    const a = draws(3), b = draws(4);
    expect(rowsOf(b)).not.toEqual(rowsOf(a));
    expect(rowsOf(b)).toEqual(rowsOf(copy(b)));
    // samplingWarnings with a warm-up cut reads other draws of the same array than summary
    const cut = samplingWarnings({ x: a }, undefined, { warmupDraws: 100 });
    expect(cut).toEqual(samplingWarnings({ x: copy(a) }, undefined, { warmupDraws: 100 }));
    // the same numbers at the same place, split into other chains: computed, not looked up
    const source = new Float64Array(N * C);
    const values = Float64Array.from(normal(key(5), [N * C]).data as Float64Array);
    const four = sharedMultichainStatistics(source, 'p', { data: values, chains: 4, draws: N });
    const two = sharedMultichainStatistics(source, 'p', { data: values, chains: 2, draws: 2 * N });
    expect(two).toEqual(multichainStatistics({ data: values, chains: 2, draws: 2 * N }));
    expect(two.rHat).not.toBe(four.rHat);
    // callers get their own objects
    two.rHat = -1;
    expect(sharedMultichainStatistics(source, 'p', { data: values, chains: 2, draws: 2 * N }).rHat).not.toBe(-1);
  });
});

describe('zScale with its table of untied scores per size', () => {
  /** ArviZ's _z_scale written out: every run's mean rank through normalPpf. */
  function reference(x: Float64Array): Float64Array {
    const s = Float64Array.from(x).sort(), n = x.length, c = 3 / 8;
    return Float64Array.from(x, (v) => {
      let i = 0;
      while (s[i]! < v) i++;
      let j = i + 1;
      while (j < n && s[j] === s[i]) j++;
      return normalPpf(((i + 1 + j) / 2 - c) / (n - 2 * c + 1));
    });
  }
  it('gives the bits of the per-run computation, with ties, for many sizes (the cache evicting)', () => {
    for (const n of [4, 5, 400, 13, 4, 1000, 7, 8, 9, 10, 11, 12, 400]) {
      const base = normal(key(n), [n]).data as Float64Array;
      for (const x of [Float64Array.from(base), Float64Array.from(base, (v) => Math.round(v * 2))]) {
        expect(Array.from(zScale({ data: x, chains: 1, draws: n }).data)).toEqual(Array.from(reference(x)));
      }
    }
  });
});
