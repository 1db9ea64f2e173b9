// The README's `stochax/optimize` snippet, run as written on the tour's model (its printed claims checked).
import { describe, expect, it } from 'vitest';
import { HalfNormal, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { advi, laplace, optimize, pathfinder } from '../../optimize/index.js';

describe('README: optimize and laplace', () => {
  it('runs as written', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const map = optimize(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
    expect(map.params.mu!.shape).toEqual([1, 1]);
    expect(map.converged).toBe(true);
    expect(map.reason).toBe('Convergence detected: relative gradient magnitude is below tolerance');
    // The MAP's mu: the weighted mean of y under the N(0, 10) prior at the MAP sigma (its own stationarity condition).
    const s = map.params.sigma!.item() as number, mu = map.params.mu!.item() as number;
    expect(mu).toBeCloseTo((4 / s ** 2) / (3 / s ** 2 + 1 / 100), 3);
    const approx = laplace(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, draws: 1000 });
    expect(approx.draws.sigma!.shape).toEqual([1000, 1]);
    expect(Number.isFinite(approx.paretoK)).toBe(true);
  });
});

describe('README: pathfinder', () => {
  it('runs as written', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const pf = pathfinder(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
    expect(pf.draws.mu!.shape).toEqual([1000, 1]);
    expect(pf.elbo).toHaveLength(4);
    expect(pf.gradientEvaluations).toBeGreaterThan(0);
    expect(Number.isFinite(pf.paretoK)).toBe(true);
    const fromPathfinder = windowedAdaptiveNuts(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, init: 'pathfinder', nDraws: 10, numAdaptationSteps: 10 });
    expect(fromPathfinder.draws.mu!.shape).toEqual([10, 4]);
    const seeded = windowedAdaptiveNuts(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, init: 'pathfinder', initInvMetric: 'pathfinder', nDraws: 10, numAdaptationSteps: 10 });
    expect(seeded.draws.mu!.shape).toEqual([10, 4]);
    expect(Array.from(seeded.resume!.chains[0]!.invMetric)).not.toEqual([1, 1]);
  });
});

describe('README: advi', () => {
  it('runs as written', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const vi = advi(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0 });
    expect(vi.draws.mu!.shape).toEqual([1000, 1]);
    expect(vi.converged).toBe(true);
    expect(vi.reason).toMatch(/ELBO converged$/);
    expect(vi.eta).toBeGreaterThan(0);
    const last = vi.elboHistory.at(-1)!;
    expect(Object.keys(last)).toEqual(['iter', 'elbo', 'relMean', 'relMedian']);
    const fr = advi(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, algorithm: 'fullrank' });
    expect(Number.isFinite(fr.paretoK)).toBe(true);
    expect(fr.L!.length).toBe(4);
    const corrected = advi(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, psisResample: true });
    expect(corrected.draws.mu!.shape).toEqual([1000, 1]);
    expect(corrected.paretoK).toBe(vi.paretoK);
  });
});
