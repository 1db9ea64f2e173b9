// powerscaleSensitivity against priorsense itself (test/fixtures/priorsense/priorsense.json, made by
// test/fixtures/priorsense/generate.R from priorsense's own R code: see the command there).
// Deterministic, no sampling: fixed draws, log prior and log likelihood in, sensitivities and
// Pareto k̂ out, compared to 5e-10 (they agree to 4e-11; Pareto k̂ to 3e-12).
import { describe, expect, it } from 'vitest';
import { HalfNormal } from '../../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../../distributions/normal.js';
import { Sample } from '../../../distributions/sample.js';
import { powerscaleSensitivity } from '../../../mcmc/diagnostics/powerscale.js';
import { logLikelihood, logPrior } from '../../../mcmc/predictive.js';
import { windowedAdaptiveNuts } from '../../../mcmc/windowed-adaptive-nuts.js';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';
import raw from '../../fixtures/priorsense/priorsense.json' with { type: 'json' };

interface Case {
  draws: Record<string, number[][] | number[][][]>;
  logPrior: number[][];
  logLikelihood: number[][][];
  expected: {
    sensitivity: { variable: string; prior: number; likelihood: number; diagnosis: string }[];
    khat: Record<string, number>;
  };
}
const cases = (raw as unknown as { cases: Record<string, Case> }).cases;

/** priorsense's 1-based `theta[1]` as stochax's 0-based `theta[0]`. */
const zeroBased = (v: string) => v.replace(/\[(\d+)\]/, (_, i: string) => `[${Number(i) - 1}]`);

describe('powerscaleSensitivity against priorsense', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      const draws = Object.fromEntries(Object.entries(c.draws).map(([k, v]) => [k, tensor(v)]));
      const r = powerscaleSensitivity(draws, { logPrior: tensor(c.logPrior), logLikelihood: tensor(c.logLikelihood) });
      expect(r.rows.map((row) => row.variable)).toEqual(c.expected.sensitivity.map((e) => zeroBased(e.variable)));
      c.expected.sensitivity.forEach((e, j) => {
        const row = r.rows[j]!;
        expect(row.prior).toBeCloseTo(e.prior, 9);
        expect(row.likelihood).toBeCloseTo(e.likelihood, 9);
        expect(row.diagnosis).toBe(e.diagnosis);
      });
      expect(r.paretoK.prior!.lower).toBeCloseTo(c.expected.khat['prior_0.99']!, 9);
      expect(r.paretoK.prior!.upper).toBeCloseTo(c.expected.khat['prior_1.01']!, 9);
      expect(r.paretoK.likelihood!.lower).toBeCloseTo(c.expected.khat['likelihood_0.99']!, 9);
      expect(r.paretoK.likelihood!.upper).toBeCloseTo(c.expected.khat['likelihood_1.01']!, 9);
    });
  }
});

// priorsense's example model (its 25 observations near 10, mu ~ N(0, 1)): a prior-data conflict.
const Y = [9.5, 10.2, 9.1, 9.1, 10.3, 10.9, 11.7, 10.3, 9.6, 8.6, 9.1, 11.1, 9.3, 10.5, 9.7, 10.3, 10.0, 9.8, 9.6, 8.3, 10.2, 9.8, 10.0, 10.0, 9.1];
const conflictModel = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 2.5 }),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: Y.length }),
});

describe('powerscaleSensitivity from a model', () => {
  it('logPrior is the sum of the latent nodes\' log densities per draw', () => {
    const model = conflictModel();
    const draws = { mu: tensor([[9.4, 9.6], [9.5, 9.7], [9.3, 9.55]]), sigma: tensor([[1.1, 0.9], [1.0, 1.2], [1.05, 0.95]]) };
    const lp = logPrior(model, draws, { y: Y });
    expect(lp.shape).toEqual([3, 2]);
    const mu = draws.mu.data as Float64Array, sigma = draws.sigma.data as Float64Array;
    const hn = new HalfNormal({ scale: 2.5 });
    for (let i = 0; i < 6; i++) {
      const want = Number(new Normal({ loc: 0, scale: 1 }).logProb(mu[i]!).item()) + Number(hn.logProb(sigma[i]!).item());
      expect((lp.data as Float64Array)[i]).toBeCloseTo(want, 12);
    }
    expect(() => logPrior(model, draws)).toThrow(/logPrior.*pins/);
    expect(() => logPrior(model, { mu: draws.mu }, { y: Y })).toThrow(/logPrior.*sigma/);
  });

  it('diagnoses the prior-data conflict of priorsense\'s example from windowedAdaptiveNuts draws', () => {
    const model = conflictModel();
    const { draws } = windowedAdaptiveNuts(model, { pins: { y: Y }, seed: 1, nChains: 2, numAdaptationSteps: 300, nDraws: 500 });
    const ps = powerscaleSensitivity(draws, { logPrior: logPrior(model, draws, { y: Y }), logLikelihood: logLikelihood(model, draws, { y: Y }) });
    const mu = ps.rows.find((r) => r.variable === 'mu')!;
    // seed 1: mu 0.339 / 0.484, sigma 0.279 / 0.539 (prior / likelihood), both far above 0.05
    expect(mu.diagnosis).toBe('potential prior-likelihood conflict');
    expect(ps.rows.find((r) => r.variable === 'sigma')!.diagnosis).toBe('potential prior-likelihood conflict');
    expect(ps.warnings).toEqual([]);
    expect(String(ps)).toMatch(/^Sensitivity based on cjs_dist/);
  });

  it('the README snippet (the tour model, default sampler settings, seed 0)', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const y = [1.2, 0.7, 2.1];
    const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
    const ps = powerscaleSensitivity(draws, { logPrior: logPrior(model, draws, { y }), logLikelihood: logLikelihood(model, draws, { y }) });
    expect(String(ps).split('\n').slice(1, 4)).toEqual([
      'variable      prior likelihood  diagnosis',
      'mu            0.031      0.078  -',
      'sigma         0.170      0.183  potential prior-likelihood conflict',
    ]);
  });

  it('warns when a few draws dominate the weights (Pareto k̂ above the threshold)', () => {
    // 400 draws; the log likelihood spread so wide (sd 3000) that 1% power-scaling gives log weights of sd 30
    const z = normal(key(7), [400, 1]), mu = normal(key(8), [400, 1]);
    const ll = new Tensor(Float64Array.from(z.data as Float64Array, (v) => 3000 * v), [400, 1]);
    const ps = powerscaleSensitivity({ mu }, { logPrior: z, logLikelihood: ll });
    expect(Math.max(ps.paretoK.likelihood!.lower, ps.paretoK.likelihood!.upper)).toBeGreaterThan(ps.paretoKThreshold);
    expect(ps.warnings).toHaveLength(1);
    expect(ps.warnings[0]).toMatch(/likelihood power-scaling weights.*unreliable/);
    expect(String(ps)).toContain(ps.warnings[0]);
  });

  it('bad input names powerscaleSensitivity and the argument', () => {
    const d = { mu: tensor([[0.1], [0.3], [0.2], [0.5], [0.4]]) };
    const lp = tensor([[-1], [-1.2], [-1.1], [-1.5], [-1.3]]);
    expect(() => powerscaleSensitivity(d, { logPrior: lp } as never)).toThrow(/powerscaleSensitivity.*logLikelihood.*must be given/);
    expect(() => powerscaleSensitivity(d, { logPrior: tensor([[1], [2]]), logLikelihood: lp })).toThrow(/powerscaleSensitivity.*logPrior.*\[5, 1\]/);
    expect(() => powerscaleSensitivity(d, { logPrior: tensor([[1], [1], [1], [1], [1]]), logLikelihood: lp })).toThrow(/powerscaleSensitivity.*logPrior.*constant/);
    expect(() => powerscaleSensitivity(d, { logPrior: lp, logLikelihood: lp, lowerAlpha: 1.1 })).toThrow(/powerscaleSensitivity.*lowerAlpha/);
    expect(() => powerscaleSensitivity(d, { logPrior: lp, logLikelihood: lp, upperAlpha: 0.9 })).toThrow(/powerscaleSensitivity.*upperAlpha/);
    expect(() => powerscaleSensitivity(d, { logPrior: lp, logLikelihood: lp, component: ['priors'] as never })).toThrow(/powerscaleSensitivity.*component/);
    expect(() => powerscaleSensitivity(d, { logPrior: lp, logLikelihood: lp, alpha: 1 } as never)).toThrow(/unknown option `alpha`/);
    expect(() => powerscaleSensitivity(d, { logPrior: tensor([[0], [Infinity], [0], [0], [1]]), logLikelihood: lp })).toThrow(/powerscaleSensitivity.*logPrior.*finite/);
    const one = powerscaleSensitivity(d, { logPrior: lp, logLikelihood: lp, component: ['prior'] });
    expect(Number.isNaN(one.rows[0]!.likelihood)).toBe(true);
  });
});
