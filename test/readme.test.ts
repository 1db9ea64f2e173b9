// The README's tour snippets for distributions, joint distributions and MCMC, run as written
// (values checked against independent formulas or references, not against themselves).
import { describe, expect, it } from 'vitest';
import gammaQuantile from '@stdlib/stats-base-dists-gamma-quantile';
import { compileLogDensity, HalfNormal, JointDistributionNamed, Normal, Gamma, Sample } from '../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../mcmc/index.js';
import { jit, square, sum, tensor, valueAndGrad, type Tensor } from '../src/index.js';

describe('README tour', () => {
  it('distributions', () => {
    const d = new Normal({ loc: [0, 10], scale: 2 });
    expect(d.sample([3], { seed: 42 }).shape).toEqual([3, 2]);
    expect(d.logProb([[0.5, 9]]).shape).toEqual([1, 2]);
    // log Φ(z) ≈ −z²/2 − log(−z) − log√(2π) for z = −50, −55.
    const lc = d.logCdf(-100).toArray() as number[];
    [-50, -55].forEach((z, i) => expect(Math.abs(lc[i]! - (-z * z / 2 - Math.log(-z) - 0.5 * Math.log(2 * Math.PI)))).toBeLessThan(1e-3));
    expect(Math.abs((new Gamma({ concentration: 2, logRate: 0 }).quantile(0.99).item() as number) - gammaQuantile(0.99, 2, 1))).toBeLessThan(1e-12);
    expect(d.slice(1).mean().item()).toBe(10);
    const [, g] = valueAndGrad((mu: Tensor, sigma: Tensor) => new Normal({ loc: mu, scale: sigma }).logProb([1, 2, 3]).sum(), [0, 1])(tensor(0.5), tensor(1.2));
    const [gMu, gSigma] = (g as Tensor[]).map((t) => t.item() as number);
    expect(gMu).toBeCloseTo((0.5 + 1.5 + 2.5) / 1.44, 12);                        // Σ(x − μ)/σ²
    expect(gSigma).toBeCloseTo((0.25 + 2.25 + 6.25) / 1.728 - 3 / 1.2, 12);       // Σ(x − μ)²/σ³ − n/σ
  });

  it('a joint model, pinned, sampled by windowedAdaptiveNuts', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const x = model.sample([], { seed: 0 }) as Record<string, Tensor>;
    expect(x.y!.shape).toEqual([3]);
    const pinned = model.experimentalPin({ y: [1.2, 0.7, 2.1] });
    const byHand = new Normal({ loc: 0, scale: 10 }).logProb(1).item() as number
      + (new HalfNormal({ scale: 1 }).logProb(2).item() as number)
      + [1.2, 0.7, 2.1].reduce((s, v) => s + (new Normal({ loc: 1, scale: 2 }).logProb(v).item() as number), 0);
    expect(pinned.unnormalizedLogProb({ mu: 1, sigma: 2 }).item()).toBeCloseTo(byHand, 12);
    const { draws, trace } = windowedAdaptiveNuts(model, { nChains: 4, nDraws: 500, seed: 0, pins: { y: [1.2, 0.7, 2.1] } });
    const s = summary(draws, { divergences: trace.diverging });
    expect(s.divergences).toBe(0);
    for (const row of s.rows) expect(row.rHat).toBeLessThan(1.02);
    expect(s.format()).toContain('ess_bulk');
  });

  it('compiled models', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const ld = compileLogDensity(model, { pins: { y: [1.2, 0.7, 2.1] } });
    expect(ld.dim).toBe(2);
    expect(ld.paramNames).toEqual(['sigma', 'mu']);
    const grad = new Float64Array(ld.dim);
    const lp = ld.logDensityGradient(Float64Array.of(0.5, 1), grad);
    // By hand: sigma = softplus(0.5), log|dsigma/du| = log sigmoid(0.5).
    const sp = Math.log1p(Math.exp(0.5)), sig = 1 / (1 + Math.exp(-0.5));
    const byHand = (new Normal({ loc: 0, scale: 10 }).logProb(1).item() as number) + (new HalfNormal({ scale: 1 }).logProb(sp).item() as number)
      + [1.2, 0.7, 2.1].reduce((a, v) => a + (new Normal({ loc: 1, scale: sp }).logProb(v).item() as number), 0) + Math.log(sig);
    expect(lp).toBeCloseTo(byHand, 12);
    expect(grad[1]).toBeCloseTo(-1 / 100 + (0.2 + -0.3 + 1.1) / (sp * sp), 12);   // d/dmu
    const c = ld.constrain(Float64Array.of(0.5, 1)) as Record<string, Tensor>;
    expect(c.mu!.item()).toBe(1);
    expect(c.sigma!.item()).toBeCloseTo(sp, 15);
    const u = ld.unconstrain({ mu: 1, sigma: 2 });
    expect(u[0]).toBeCloseTo(Math.log(Math.expm1(2)), 14);
    expect(u[1]).toBe(1);
    const f = jit((x: Tensor) => sum(square(x)));
    expect(f([1, 2, 3]).item()).toBe(14);
  });
});
