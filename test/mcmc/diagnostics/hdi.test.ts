import { describe, expect, it } from 'vitest';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { hdi, summary } from '../../../mcmc/index.js';
import { hdiColumnTitles } from '../../../mcmc/diagnostics/summary.js';
import { expectAllClose, expectClose, fixture, num, tensorOf } from './arviz-loo-fixture.js';

describe('hdi matches az.hdi to 1e-8', () => {
  for (const c of fixture.hdi) {
    for (const r of c.results) {
      it(`${c.note}, hdiProb ${r.hdi_prob}${r.error ? ' (ArviZ raises)' : ''}`, () => {
        // a flat sample is one chain: [draws]; a [draws, chains] sample pools both axes
        const x = tensorOf(c.shape, c.x);
        if (r.error) {
          expect(() => hdi(x, { hdiProb: r.hdi_prob })).toThrow(RangeError);
          expect(() => hdi(x, { hdiProb: r.hdi_prob })).toThrow(/hdi: `hdiProb` leaves too few draws/);
          return;
        }
        const got = hdi(x, { hdiProb: r.hdi_prob });
        expect(got.shape).toEqual([2]);
        expectAllClose(got.data as Float64Array, r.hdi!, 'hdi');
      });
    }
  }

  it('per element of [draws, chains, 3], over chains and draws pooled', () => {
    const v = fixture.hdi_vector;
    const got = hdi({ x: tensorOf(v.shape, v.x) }, { hdiProb: v.hdi_prob }).x;
    expect(got.shape).toEqual([3, 2]);
    expectAllClose(got.data as Float64Array, v.hdi.flat(), 'hdi');
  });

  it('skipNa drops NaN draws first (ArviZ\'s skipna)', () => {
    const x = Float64Array.of(Number.NaN, 3, 1, 2, Number.NaN, 5, 4);
    expect(hdi(x, { hdiProb: 0.5, skipNa: true }).toArray()).toEqual(hdi(Float64Array.of(3, 1, 2, 5, 4), { hdiProb: 0.5 }).toArray());
    const withNan = fixture.hdi.find((c) => c.note === 'with NaN')!;
    expect(num(withNan.results[0]!.hdi![1])).toBeNaN();   // ArviZ's own behaviour without skipna
  });

  it('accepts arrays of parts and records, and defaults to 0.94', () => {
    const a = normal(key(0), [400, 2]);
    expect(hdi(a).toArray()).toEqual(hdi(a, { hdiProb: 0.94 }).toArray());
    const [p, q] = hdi([a, normal(key(1), [400, 2, 2])]);
    expect(p!.shape).toEqual([2]);
    expect(q!.shape).toEqual([2, 2]);
  });

  it('bad input: TypeError/RangeError naming hdi and the argument; unknown options are TypeErrors', () => {
    const a = normal(key(0), [100, 2]);
    expect(() => hdi(a, { hdiProb: 0 })).toThrow(/hdi: `hdiProb` must be a probability in \(0, 1\]/);
    expect(() => hdi(a, { hdiProb: 1.5 })).toThrow(RangeError);
    expect(() => hdi(a, { hdiProb: '0.9' as never })).toThrow(TypeError);
    expect(() => hdi(a, { skipNa: 1 as never })).toThrow(/hdi: `skipNa` must be a boolean/);
    expect(() => hdi(a, { prob: 0.9 } as never)).toThrow(TypeError);
    expect(() => hdi(a, { prob: 0.9 } as never)).toThrow(/hdi: `options` has unknown option `prob`/);
    expect(() => hdi('x' as never)).toThrow(TypeError);
    expect(() => hdi(new Tensor(Float64Array.of(1), []))).toThrow(RangeError);
  });
});

describe('summary gains ArviZ\'s HDI columns', () => {
  const s = fixture.summary;
  const draws = { mu: tensorOf(s.mu.shape, s.mu.draws), theta: tensorOf(s.theta.shape, s.theta.draws) };

  it('hdiLower/hdiUpper equal az.summary\'s hdi_3% / hdi_97% to 1e-8, and hdi_5% / hdi_95% with hdiProb 0.9', () => {
    expect(s.columns).toContain('hdi_3%');
    const got = summary(draws);
    const got90 = summary(draws, { hdiProb: 0.9 });
    expect(got.rows.map((r) => r.name)).toEqual(s.rows.map((r) => r.label));
    s.rows.forEach((want, i) => {
      expectClose(got.rows[i]!.hdiLower, want['hdi_3%'], `${want.label} hdi_3%`);
      expectClose(got.rows[i]!.hdiUpper, want['hdi_97%'], `${want.label} hdi_97%`);
      expectClose(got90.rows[i]!.hdiLower, want['hdi_5%'], `${want.label} hdi_5%`);
      expectClose(got90.rows[i]!.hdiUpper, want['hdi_95%'], `${want.label} hdi_95%`);
    });
  });

  it('column titles are ArviZ\'s', () => {
    expect(hdiColumnTitles(0.94)).toEqual(['hdi_3%', 'hdi_97%']);
    expect(hdiColumnTitles(0.9)).toEqual([s.columns90[2], s.columns90[3]]);
    expect(hdiColumnTitles(0.95)).toEqual(['hdi_2.5%', 'hdi_97.5%']);
  });

  it('the table prints the HDI by default (as az.summary) and the quantiles with interval: "quantiles"', () => {
    const header = (t: string) => t.split('\n')[0]!.trim().split(/\s+/);
    expect(header(summary(draws).format())).toEqual(['mean', 'mcse', 'sd', 'hdi_3%', 'hdi_97%', 'ess_bulk', 'ess_tail', 'r_hat']);
    expect(header(summary(draws, { interval: 'quantiles' }).format())).toEqual(['mean', 'mcse', 'sd', '5%', '50%', '95%', 'ess_bulk', 'ess_tail', 'r_hat']);
    expect(header(summary(draws).format({ interval: 'quantiles' }))).toEqual(['mean', 'mcse', 'sd', '5%', '50%', '95%', 'ess_bulk', 'ess_tail', 'r_hat']);
    expect(header(summary(draws, { hdiProb: 0.9 }).format({ interval: 'hdi' }))).toEqual(['mean', 'mcse', 'sd', 'hdi_5%', 'hdi_95%', 'ess_bulk', 'ess_tail', 'r_hat']);
    const row = summary(draws, { interval: 'hdi' }).format().split('\n')[1]!.trim().split(/\s+/);
    expect(row[4]).toBe(summary(draws).get('mu')!.hdiLower.toFixed(3));
  });

  it('existing fields are unchanged', () => {
    const r = summary(draws).get('mu')!;
    for (const k of ['mean', 'sd', 'mcseMean', 'mcseSd', 'q5', 'q50', 'q95', 'essBulk', 'essTail', 'rHat'] as const) expect(typeof r[k]).toBe('number');
  });

  it('bad hdiProb or interval: RangeError/TypeError naming summary', () => {
    expect(() => summary(draws, { hdiProb: 0 })).toThrow(/summary: `hdiProb` must be a probability in \(0, 1\]/);
    expect(() => summary(draws, { hdiProb: 1 })).toThrow(/summary: `hdiProb` leaves too few draws/);
    expect(() => summary(draws, { interval: 'eti' as never })).toThrow(RangeError);
    expect(() => summary(draws).format({ interval: 'eti' as never })).toThrow(/Summary.format: `interval`/);
  });
});
