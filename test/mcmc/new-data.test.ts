/**
 * Data that can change (issue 34 item 2, PyMC's `pm.Data`/`set_data`): the model is a function of
 * its data, fitted at x_train (N = 20) and asked for predictions at x_test (N = 7) with the same
 * posterior draws (see the module comment of mcmc/predictive.ts).
 *
 * Exact checks: the regression line at x_test per draw is a + b·x_test (to 1e-12), and the
 * predictive draws are a pure function of the seed. One statistical check per test input: given
 * the draws, y_rep − (a + b·x) are independent N(0, σ²) draws (each replicate has its own key), so
 * z = Σ(y_rep − mean) / √Σσ² is exactly standard normal; |z| < 4.4 (false-failure rate 1.1e-5 per
 * input, 7.6e-5 for the 7) at a fixed seed.
 */
import { describe, expect, it } from 'vitest';
import { add, mul, tensor, type Tensor } from '../../src/index.js';
import { HalfNormal, Independent, JointDistributionNamed, Normal, deterministic } from '../../distributions/index.js';
import { samplePosteriorPredictive, summary, windowedAdaptiveNuts } from '../../mcmc/index.js';

/** The model as a function of its data: the documented way to change it. */
const regression = (x: readonly number[]) => new JointDistributionNamed({
  a: new Normal({ loc: 0, scale: 5 }),
  b: new Normal({ loc: 0, scale: 5 }),
  sigma: new HalfNormal({ scale: 2 }),
  mu: deterministic(({ a, b }: { a: Tensor; b: Tensor }) => add(a, mul(b, tensor(x)))),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Independent({ distribution: new Normal({ loc: mu, scale: sigma }), reinterpretedBatchNdims: 1 }),
});

const xTrain = Array.from({ length: 20 }, (_, i) => -2 + (4 * i) / 19);
const yTrain = xTrain.map((x, i) => 1 + 2 * x + 0.5 * Math.sin(7 * i));   // a line plus a fixed wiggle
const xTest = [-3, -1.5, -0.2, 0, 0.7, 2.5, 4];

describe('predictions at new data with the same draws (a model factory)', () => {
  const fit = windowedAdaptiveNuts(regression(xTrain), { pins: { y: yTrain }, seed: 0, nChains: 2, nDraws: 500, numAdaptationSteps: 500 });
  const test = regression(xTest);

  it('the line at x_test is a + b·x_test per draw, and its mean the draws\' average', () => {
    const mu = samplePosteriorPredictive(test, fit.draws, { seed: 5, deterministics: true }).mu!;
    expect(mu.shape).toEqual([500, 2, 7]);
    expect(fit.deterministics!.mu!.shape).toEqual([500, 2, 20]);
    const a = fit.draws.a!.data as Float64Array, b = fit.draws.b!.data as Float64Array;
    const n = a.length;
    xTest.forEach((x, k) => {
      let want = 0, got = 0;
      for (let d = 0; d < n; d++) {
        expect(mu.data[d * 7 + k]).toBe(a[d]! + b[d]! * x);
        want += a[d]! + b[d]! * x;
        got += mu.data[d * 7 + k] as number;
      }
      expect(got / n).toBeCloseTo(want / n, 12);
    });
  });

  it('predictive draws at x_test: shape [draws, chains, 7], centred on the line given the draws', () => {
    const pp = samplePosteriorPredictive(test, fit.draws, { seed: 5 });
    expect(Object.keys(pp)).toEqual(['y']);
    const withMu = samplePosteriorPredictive(test, fit.draws, { seed: 5, deterministics: true });
    expect(Object.keys(withMu)).toEqual(['y', 'mu']);
    expect(Array.from(withMu.y!.data as Float64Array)).toEqual(Array.from(pp.y!.data as Float64Array));   // the same replicates
    expect(pp.y!.shape).toEqual([500, 2, 7]);
    const a = fit.draws.a!.data as Float64Array, b = fit.draws.b!.data as Float64Array, s = fit.draws.sigma!.data as Float64Array;
    xTest.forEach((x, k) => {
      let resid = 0, variance = 0;
      for (let d = 0; d < a.length; d++) { resid += (pp.y!.data[d * 7 + k] as number) - (a[d]! + b[d]! * x); variance += s[d]! ** 2; }
      expect(Math.abs(resid / Math.sqrt(variance)), `x = ${x}`).toBeLessThan(4.4);
    });
  });

  it('is a pure function of the seed; the fit\'s derived values may come along; train and test shapes differ', () => {
    const one = samplePosteriorPredictive(test, fit.draws, { seed: 5 }).y!;
    const again = samplePosteriorPredictive(regression(xTest), { ...fit.draws, ...fit.deterministics }, { seed: 5 }).y!;
    expect(Array.from(again.data as Float64Array)).toEqual(Array.from(one.data as Float64Array));
    const other = samplePosteriorPredictive(test, fit.draws, { seed: 6 }).y!;
    expect(Array.from(other.data as Float64Array)).not.toEqual(Array.from(one.data as Float64Array));
    expect(samplePosteriorPredictive(regression(xTrain), fit.draws, { seed: 5 }).y!.shape).toEqual([500, 2, 20]);
  });
});

describe('the README snippet (New data and missing values), as written', () => {
  it('runs', () => {
    const line = (x: number[]) => new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 5 }),
      b: new Normal({ loc: 0, scale: 5 }),
      sigma: new HalfNormal({ scale: 2 }),
      mu: deterministic(({ a, b }: { a: Tensor; b: Tensor }) => add(a, mul(b, tensor(x)))),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Independent({ distribution: new Normal({ loc: mu, scale: sigma }), reinterpretedBatchNdims: 1 }),
    });
    const xTrain = [0, 1, 2, 3, 4, 5];
    const fit = windowedAdaptiveNuts(line(xTrain), { pins: { y: [0.9, 3.2, 4.8, 7.1, 9.0, 11.2] }, seed: 0 });
    const atNew = samplePosteriorPredictive(line([6, 7.5]), fit.draws, { seed: 1, deterministics: true });
    expect(atNew.y!.shape).toEqual([1000, 4, 2]);
    expect(atNew.mu!.shape).toEqual([1000, 4, 2]);

    const gappy = windowedAdaptiveNuts(line(xTrain), { pins: { y: [0.9, NaN, 4.8, 7.1, NaN, 11.2] }, seed: 0 });
    expect(gappy.imputed).toEqual([{ node: 'y', name: 'y_missing', count: 2, indices: [1, 4] }]);
    const rows = summary(gappy.draws).format().split('\n').map((l) => l.trim().split(/\s+/)[0]);
    expect(rows).toEqual(expect.arrayContaining(['a', 'b', 'sigma', 'y_missing[0]', 'y_missing[1]']));
  });
});
