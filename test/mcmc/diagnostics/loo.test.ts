import { describe, expect, it } from 'vitest';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { mul, neg, sub } from '../../../src/tensor/ops/elementwise.js';
import { compare, loo, psislw, waic, LooResult, WaicResult } from '../../../mcmc/index.js';
import { expectAllClose, expectClose, fixture, num, tensorOf } from './arviz-loo-fixture.js';

const SCALES = ['log', 'negative_log', 'deviance'] as const;

describe('loo matches az.loo(pointwise=True) to 1e-8', () => {
  for (const [name, c] of Object.entries(fixture.cases)) {
    const ll = tensorOf(c.shape, c.log_lik);
    const posterior = tensorOf(c.posterior_shape, c.posterior);
    for (const scale of SCALES) {
      it(`${name} (${c.note}), scale ${scale}, r_eff from the posterior`, () => {
        const want = c[`loo_${scale}`] as import('./arviz-loo-fixture.js').LooFixture;
        const r = loo(ll, { posterior, scale });
        expectClose(r.reff, c.reff, 'reff');
        expectClose(r.elpdLoo, want.elpd_loo, 'elpd_loo');
        expectClose(r.se, want.se, 'se');
        expectClose(r.pLoo, want.p_loo, 'p_loo');
        expect(r.nSamples).toBe(want.n_samples);
        expect(r.nDataPoints).toBe(want.n_data_points);
        expect(r.warning).toBe(want.warning);
        expectClose(r.goodK, want.good_k, 'good_k');
        expectAllClose(r.looI.data as Float64Array, want.loo_i, 'loo_i');
        expectAllClose(r.paretoK.data as Float64Array, want.pareto_k, 'pareto_k');
        expect(r.looI.shape).toEqual(c.shape.slice(2));
        expect(r.scale).toBe(scale);
      });
    }
    it(`${name}: with reff 0.7 given`, () => {
      const want = c['loo_reff_0.7'];
      const r = loo(ll, { reff: 0.7 });
      expectClose(r.elpdLoo, want.elpd_loo, 'elpd_loo');
      expectClose(r.se, want.se, 'se');
      expectClose(r.pLoo, want.p_loo, 'p_loo');
      expectAllClose(r.looI.data as Float64Array, want.loo_i, 'loo_i');
      expectAllClose(r.paretoK.data as Float64Array, want.pareto_k, 'pareto_k');
    });
    it(`${name}: psislw Pareto k${c.psislw.log_weights ? ' and smoothed log weights' : ''}`, () => {
      const r = psislw(neg(ll), { reff: num(c.reff) });
      expectAllClose(r.paretoK.data as Float64Array, c.psislw.k, 'k');
      if (c.psislw.log_weights) {
        // ArviZ's rows are (observation, sample) with samples stacked (chain, draw)
        const [D, C] = c.shape as [number, number];
        const n = r.paretoK.size;
        c.psislw.log_weights.forEach((row, j) => {
          const got = Float64Array.from({ length: D * C }, (_, s) => (r.logWeights.data as Float64Array)[((s % D) * C + Math.floor(s / D)) * n + j]!);
          expectAllClose(got, row, `log_weights[${j}]`);
        });
      }
    });
  }

  it('the hard cases are in the fixture: k > 0.7, k = ∞ (too few tail draws), one chain', () => {
    expect(Math.max(...fixture.cases.outlier!.loo_log.pareto_k.map(num))).toBeGreaterThan(0.7);
    expect(fixture.cases['few-1x20']!.loo_log.pareto_k.map(num).every((k) => k === Infinity)).toBe(true);
    expect(fixture.cases['few-1x20']!.shape[1]).toBe(1);
    expect(fixture.cases['constant-column']!.loo_log.pareto_k.map(num)[2]).toBe(Infinity);
  });
});

describe('waic matches az.waic(pointwise=True) to 1e-8', () => {
  for (const [name, c] of Object.entries(fixture.cases)) {
    const ll = tensorOf(c.shape, c.log_lik);
    for (const scale of SCALES) {
      it(`${name}, scale ${scale}`, () => {
        const want = c[`waic_${scale}`] as unknown as import('./arviz-loo-fixture.js').WaicFixture;
        const r = waic(ll, { scale });
        expectClose(r.elpdWaic, want.elpd_waic, 'elpd_waic');
        expectClose(r.se, want.se, 'se');
        expectClose(r.pWaic, want.p_waic, 'p_waic');
        expect(r.nSamples).toBe(want.n_samples);
        expect(r.nDataPoints).toBe(want.n_data_points);
        expect(r.warning).toBe(want.warning);
        expectAllClose(r.waicI.data as Float64Array, want.waic_i, 'waic_i');
      });
    }
  }
});

describe('compare matches az.compare', () => {
  const models = fixture.compare.models;
  const ll = (n: string) => tensorOf(models[n]!.shape, models[n]!.log_lik);
  const post = (n: string) => tensorOf(models[n]!.shape.slice(0, 2), models[n]!.posterior);
  for (const want of fixture.compare.results) {
    it(`ic ${want.ic}, ${want.method}, scale ${want.scale}: every column to 1e-8 (stacking weights: see below)`, () => {
      const input = Object.fromEntries(Object.keys(models).filter((n) => n !== 'bad').map((n) => [n,
        want.ic === 'loo' ? loo(ll(n), { posterior: post(n), scale: want.scale }) : waic(ll(n), { scale: want.scale })]));
      const got = compare(input, { method: want.method });
      expect(got.ic).toBe(want.ic);
      expect(got.scale).toBe(want.scale);
      expect(got.rows.map((r) => r.name)).toEqual(want.rows.map((r) => r.name));
      got.rows.forEach((r, i) => {
        const w = want.rows[i]!;
        expect(r.rank).toBe(w.rank);
        expectClose(r.elpd, w.elpd, `${r.name} elpd`);
        expectClose(r.p, w.p, `${r.name} p`);
        expectClose(r.elpdDiff, w.elpd_diff, `${r.name} elpd_diff`);
        expectClose(r.se, w.se, `${r.name} se`);
        expectClose(r.dse, w.dse, `${r.name} dse`);
        expect(r.warning).toBe(w.warning);
        expect(r.scale).toBe(w.scale);
        if (want.method === 'pseudo-BMA') expectClose(r.weight, w.weight, `${r.name} weight`);
      });
      if (want.method === 'stacking') {
        // the optimum, solved independently by the generator to rounding: 1e-8
        got.rows.forEach((r, i) => expectClose(r.weight, want.exact_stacking![i], `${r.name} stacking weight (exact)`));
        // ArviZ's SLSQP stops at its default ftol (1e-6 on the objective): on this fixture its
        // weights are 8.8e-6 from the optimum at most, so they are checked to 1e-4
        got.rows.forEach((r, i) => expectClose(r.weight, want.rows[i]!.weight, `${r.name} stacking weight (ArviZ's SLSQP)`, 1e-4));
      }
    });
  }

  it('a dominating model: the stacking optimum at a corner of the simplex', () => {
    const c = fixture.compare.corner;
    const input = Object.fromEntries(c.names.map((n, i) => [n, loo(ll(c.models[i]!), { posterior: post(c.models[i]!) })]));
    const got = compare(input);
    got.rows.forEach((r, i) => {
      const w = c.rows[i]!;
      expect(r.name).toBe(w.name);
      for (const [ours, theirs] of [['elpd', 'elpd'], ['p', 'p'], ['elpdDiff', 'elpd_diff'], ['se', 'se'], ['dse', 'dse']] as const) {
        expectClose(r[ours], w[theirs], `${r.name} ${theirs}`);
      }
      expectClose(r.weight, c.exact_stacking[i], `${r.name} weight (exact)`);
      expectClose(r.weight, w.weight, `${r.name} weight (ArviZ)`, 1e-6);
    });
  });

  it('computes loo (or waic) itself from raw log-likelihoods, with r_eff 1', () => {
    const a = ll('lowMean'), b = ll('highMean');
    const got = compare({ a, b });
    expect(got.get('a')!.elpd).toBe(loo(a).elpdLoo);
    const w = compare({ a, b }, { ic: 'waic', scale: 'deviance' });
    expect(w.get('b')!.elpd).toBe(waic(b, { scale: 'deviance' }).elpdWaic);
    expect(w.rows.reduce((s, r) => s + r.weight, 0)).toBeCloseTo(1, 14);
  });

  it('prints a table', () => {
    const t = compare({ a: ll('lowMean'), b: ll('highMean') }).format();
    expect(t.split('\n')[0]!.trim().split(/\s+/)).toEqual(['rank', 'elpd_loo', 'p_loo', 'elpd_diff', 'weight', 'se', 'dse', 'warning', 'scale']);
    expect(t.split('\n')).toHaveLength(3);
  });
});

describe('loo, waic, psislw and compare: input forms and bad input', () => {
  const ll = sub(mul(normal(key(0), [100, 2, 5]), 0.2), 1);

  it('accept a record of one log-likelihood (as logLikelihood returns it), or pick one by varName', () => {
    expect(loo({ y: ll }).elpdLoo).toBe(loo(ll).elpdLoo);
    expect(waic({ y: ll, z: mul(ll, 2) }, { varName: 'z' }).elpdWaic).toBe(waic(mul(ll, 2)).elpdWaic);
    expect(() => loo({ y: ll, z: ll })).toThrow(/loo: `logLik` has 2 log-likelihood entries \(y, z\); pick one with `varName`/);
    expect(() => loo({ y: ll }, { varName: 'w' })).toThrow(RangeError);
  });

  it('results are branded classes with a printout', () => {
    const r = loo(ll);
    expect(r).toBeInstanceOf(LooResult);
    expect(String(r)).toMatch(/elpd_loo/);
    expect(String(r)).toMatch(/Pareto k diagnostic values/);
    expect(waic(ll)).toBeInstanceOf(WaicResult);
    expect(String(waic(ll))).toMatch(/p_waic/);
  });

  it('unknown option names are TypeErrors naming the function', () => {
    expect(() => loo(ll, { ref: 1 } as never)).toThrow(TypeError);
    expect(() => loo(ll, { ref: 1 } as never)).toThrow(/loo: `options` has unknown option `ref`/);
    expect(() => waic(ll, { scales: 'log' } as never)).toThrow(/waic: `options` has unknown option `scales`/);
    expect(() => psislw(ll, { r_eff: 1 } as never)).toThrow(/psislw:/);
    expect(() => compare({ a: ll }, { weights: 'x' } as never)).toThrow(TypeError);
  });

  it('bad values are TypeErrors or RangeErrors naming the argument', () => {
    expect(() => loo('x' as never)).toThrow(TypeError);
    expect(() => loo(ll, { reff: 0 })).toThrow(/loo: `reff` must be positive/);
    expect(() => loo(ll, { reff: '1' as never })).toThrow(TypeError);
    expect(() => loo(ll, { reff: 1, posterior: ll })).toThrow(RangeError);
    expect(() => loo(ll, { scale: 'ln' as never })).toThrow(/loo: `scale` must be one of/);
    expect(() => loo(new Tensor(Float64Array.of(1), [1, 1]))).toThrow(/at least 2 draws/);
    expect(() => waic(new Tensor(new Float64Array(0), [0, 2]))).toThrow(RangeError);
    expect(() => compare({})).toThrow(/compare: `models` must name at least one model/);
    expect(() => compare([ll] as never)).toThrow(TypeError);
    expect(() => compare({ a: 'x' } as never)).toThrow(/compare: `models.a` must be a pointwise log-likelihood/);
    expect(() => compare({ a: ll, b: normal(key(1), [100, 2, 4]) })).toThrow(/models.b` has 4 observations/);
    expect(() => compare({ a: loo(ll), b: waic(ll) })).toThrow(/models.b` is a waic result/);
    expect(() => compare({ a: loo(ll) }, { ic: 'waic' })).toThrow(RangeError);
    expect(() => compare({ a: loo(ll), b: loo(ll, { scale: 'deviance' }) })).toThrow(/scale 'deviance'/);
    expect(() => compare({ a: ll }, { method: 'BB-pseudo-BMA' as never })).toThrow(RangeError);
    expect(() => compare({ a: ll }, { ic: 3 as never })).toThrow(TypeError);
  });
});
