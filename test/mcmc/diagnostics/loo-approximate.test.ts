// Item 6 of issue 31: the workflow on approximate draws. `loo` with `logP`/`logQ` (importance-
// weighted PSIS-LOO, Magnusson et al. 2019) against R's loo 2.5.1 `loo_approximate_posterior`
// (fixture and its script in test/fixtures/loo-approximate/), and on laplace() draws of a
// Gaussian posterior, where logP − logQ is constant and the weighted LOO must equal plain PSIS-LOO;
// `summary`, the predictive helpers and `inferenceData` taking laplace()'s result or draws.
// Deterministic: fixed inputs and seeds, no statistical tolerance.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loo, summary, logLikelihood, samplePosteriorPredictive } from '../../../mcmc/index.js';
import { laplace } from '../../../optimize/index.js';
import { inferenceData, inferenceDataJson, fromArvizJson } from '../../../cli/report/index.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { gaussianRegression } from '../../optimize/models.js';
import { HalfNormal, JointDistributionNamed, Normal, Sample } from '../../../distributions/index.js';

const R = JSON.parse(readFileSync(new URL('../../fixtures/loo-approximate/loo-approximate.json', import.meta.url), 'utf8')) as {
  log_p: number[]; log_g: number[]; ll: number[][]; elpd_loo: number; elpd_loo_se: number; p_loo: number; pointwise_elpd_loo: number[]; pareto_k: number[];
};
const S = R.log_p.length, n = R.ll[0]!.length;
const ll = new Tensor(Float64Array.from(R.ll.flat()), [S, 1, n], 'float64');   // [draws, chains, observations]
const logP = new Tensor(Float64Array.from(R.log_p), [S, 1], 'float64');
const logQ = new Tensor(Float64Array.from(R.log_g), [S, 1], 'float64');

describe('loo on approximate draws (logP, logQ)', () => {
  it("equals R's loo::loo_approximate_posterior: elpd, SE, p_loo, pointwise elpd and Pareto k", () => {
    const r = loo(ll, { logP, logQ });
    expect(r.approximatePosterior).toBe(true);
    expect(r.reff).toBe(1);
    expect(r.elpdLoo).toBeCloseTo(R.elpd_loo, 9);
    // ArviZ's SE (population variance of the pointwise elpd, as stochax's loo) is R's (sample variance) × √((n − 1)/n).
    expect(r.se * Math.sqrt(n / (n - 1))).toBeCloseTo(R.elpd_loo_se, 9);
    expect(r.pLoo).toBeCloseTo(R.p_loo, 9);
    const looI = r.looI.data as Float64Array, k = r.paretoK.data as Float64Array;
    for (let i = 0; i < n; i++) {
      expect(looI[i]).toBeCloseTo(R.pointwise_elpd_loo[i]!, 9);
      expect(k[i]).toBeCloseTo(R.pareto_k[i]!, 9);
    }
    // Some k above 0.7 in this fixture (an outlier, a skewed posterior): the warning is raised.
    expect(r.warning).toBe(true);
    expect(String(r)).toContain('Posterior approximation correction used.');
    // The correction matters here: plain PSIS-LOO of the same draws is another number.
    expect(Math.abs(loo(ll).elpdLoo - R.elpd_loo)).toBeGreaterThan(0.05);
  });

  it('checks its options: logP and logQ together, shaped like the draws, without reff or posterior', () => {
    expect(() => loo(ll, { logP })).toThrow(/loo.*logQ.*must be given with `logP`/);
    expect(() => loo(ll, { logQ })).toThrow(/loo.*logP/);
    expect(() => loo(ll, { logP, logQ, reff: 0.5 })).toThrow(RangeError);
    expect(() => loo(ll, { logP, logQ, reff: 0.5 })).toThrow(/reff.*independent/);
    expect(() => loo(ll, { logP: new Tensor(new Float64Array(10), [10, 1], 'float64'), logQ })).toThrow(/logP.*\[draws, chains\] = \[1000, 1\]/);
    expect(() => loo(ll, { logP: new Tensor(Float64Array.from(R.log_p, (v, s) => (s === 5 ? Number.NaN : v)), [S, 1], 'float64'), logQ })).toThrow(/logP.*finite or −∞/);
  });
});

describe('laplace() results in the workflow', () => {
  const { model, pins } = gaussianRegression();
  // At the exact mode the approximation is the posterior: logP − logQ is constant.
  const fit = laplace(model, { pins, seed: 3, draws: 800 });

  it('summary(result) equals summary(result.draws)', () => {
    expect(summary(fit).format()).toBe(summary(fit.draws).format());
    expect(summary(fit).rows.map((r) => r.name)).toEqual(['beta[0]', 'beta[1]', 'beta[2]']);
  });

  it('loo with logP/logQ on draws where logP − logQ is nearly constant equals plain PSIS-LOO', () => {
    const lp = fit.logP.data as Float64Array, lq = fit.logQ.data as Float64Array;
    const d = Array.from(lp, (v, s) => v - lq[s]!);
    expect(Math.max(...d) - Math.min(...d)).toBeLessThan(1e-3);   // the mode is Stan-tolerance close, not exact
    const logLik = logLikelihood(model, fit.draws, pins);
    expect(logLik.y!.shape).toEqual([800, 1, 6]);
    const weighted = loo(logLik, { logP: fit.logP, logQ: fit.logQ }), plain = loo(logLik);
    expect(weighted.elpdLoo).toBeCloseTo(plain.elpdLoo, 3);
    for (let i = 0; i < 6; i++) expect((weighted.paretoK.data as Float64Array)[i]).toBeCloseTo((plain.paretoK.data as Float64Array)[i]!, 2);
  });

  it('posterior predictive draws and inferenceData from the result (log_p, log_q in sample_stats)', () => {
    const rep = samplePosteriorPredictive(model, fit.draws, { seed: 1 });
    expect(rep.y!.shape).toEqual([800, 1, 6]);
    const idata = inferenceData(model, fit, { pins, seed: 1, prior: 0 });
    expect(Object.keys(idata.sampleStats as object)).toEqual(['logP', 'logQ']);
    expect((idata.posteriorPredictive!.y!.data as Float64Array)).toEqual(rep.y!.data);
    const back = fromArvizJson(inferenceDataJson(idata));
    expect(back.trace.logP!.data).toEqual(fit.logP.data);
    expect(back.trace.logQ!.data).toEqual(fit.logQ.data);
    expect(back.groups.logLikelihood!.y!.shape).toEqual([800, 1, 6]);
  });
});

describe('README: summary, loo and the posterior predictive on laplace draws', () => {
  it('runs as written on the tour model', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const approx = laplace(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, draws: 1000 });
    expect(String(summary(approx))).toBe(String(summary(approx.draws)));
    const ll = logLikelihood(model, approx.draws, { y: [1.2, 0.7, 2.1] });
    expect(ll.y!.shape).toEqual([1000, 1, 3]);
    const cv = loo(ll, { logP: approx.logP, logQ: approx.logQ });
    expect(Number.isFinite(cv.elpdLoo)).toBe(true);
    expect(typeof cv.warning).toBe('boolean');
    const { y: yRep } = samplePosteriorPredictive(model, approx.draws, { seed: 1 });
    expect(yRep!.shape).toEqual([1000, 1, 3]);
  });
});
