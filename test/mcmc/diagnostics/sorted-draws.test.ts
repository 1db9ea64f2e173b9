// sorted() inside sharingSortedDraws (mcmc/diagnostics/internal/quantile.ts): the summary, the
// rank plots and the histograms of one run sort each quantity once. A kept sort is given again
// only for the same draws bit for bit (another order, −0 for 0, or draws changed in place are
// sorted anew), nothing is kept outside a scope, and the summary and report text do not change.
import { describe, expect, it, vi } from 'vitest';
import { sharingSortedDraws, sortedDrawsScope, sorted } from '../../../mcmc/diagnostics/internal/quantile.js';
import { samplingWarnings } from '../../../mcmc/diagnostics/warnings.js';
import { summary } from '../../../mcmc/diagnostics/summary.js';
import { reportHtml } from '../../../cli/report/report-html.js';
import { Tensor } from '../../../src/tensor/tensor.js';

describe('sorted draws shared within a scope', () => {
  it('gives the kept sort for the same bits only', () => {
    const x = Float64Array.of(3, -0, 1, NaN, 2);
    sharingSortedDraws(() => {
      const a = sorted(x);
      expect(Array.from(a)).toEqual([-0, 1, 2, 3, NaN]);
      expect(sorted(Float64Array.from(x))).toBe(a);           // same values, another array: kept
      expect(sorted(Float64Array.of(3, 0, 1, NaN, 2))).not.toBe(a);   // +0 for −0: sorted anew
      expect(Array.from(sorted(Float64Array.of(3, 5, 1, NaN, 2)))).toEqual([1, 2, 3, 5, NaN]);   // the same sieve key, other draws
      x[1] = 7;                                                  // changed in place (same sieve key): sorted anew
      expect(Array.from(sorted(x))).toEqual([1, 2, 3, 7, NaN]);
    });
    expect(sorted(x)).not.toBe(sorted(x));                       // outside a scope nothing is kept
  });

  it('the summary and the report are the same text with and without the scope', () => {
    let s = 11;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const draws = { mu: new Tensor(Float64Array.from({ length: 400 }, rnd), [100, 4], 'float64'), theta: new Tensor(Float64Array.from({ length: 1200 }, rnd), [100, 4, 3], 'float64') };
    const plain = [summary(draws).format(), reportHtml({ draws })];
    const shared = sharingSortedDraws(() => [summary(draws).format(), reportHtml({ draws })]);
    expect(shared).toEqual(plain);
  });

  it('a scope entered twice keeps its sorts: the summary made after the warnings sorts nothing again', () => {
    const sorting = sortedDrawsScope();
    const x = Float64Array.of(3, 1, 2);
    const a = sorting(() => sorted(x));
    expect(sorting(() => sorted(Float64Array.from(x)))).toBe(a);
    expect(sortedDrawsScope()(() => sorted(x))).not.toBe(a);   // another scope keeps its own
    let s = 5;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const draws = { mu: new Tensor(Float64Array.from({ length: 400 }, rnd), [100, 4], 'float64'), theta: new Tensor(Float64Array.from({ length: 1200 }, rnd), [100, 4, 3], 'float64') };
    const sorts = vi.spyOn(Float64Array.prototype, 'sort');
    try {
      const run = sortedDrawsScope();
      run(() => samplingWarnings(draws));
      expect(sorts.mock.calls.length).toBeGreaterThanOrEqual(4);   // one per quantity at least
      const before = sorts.mock.calls.length;
      const table = run(() => summary(draws).format());
      expect(sorts.mock.calls.length).toBe(before);
      expect(table).toBe(summary(draws).format());
    } finally {
      sorts.mockRestore();
    }
  });
});
