// The `defaultEventSpaceBijector` option every distribution takes (PyMC's `transform=`): it is what
// `defaultEventSpaceBijector()` returns, so the joint distributions' default joint bijector,
// compileLogDensity and NUTS sample in it. Oracles: the closed-form transform and log-Jacobian
// (log σ = u, log|J| = u for Exp), the tape (compiled = tape bitwise), and a known posterior (with
// no data the posterior is the prior: HalfNormal(1) has mean √(2/π), sd √(1 − 2/π)).
import { describe, expect, it } from 'vitest';
import {
  bijectors, compileLogDensity, HalfNormal, ImproperUniform, Independent, JointDistributionNamed, Normal, Sample,
} from '../../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { tensor, type Tensor } from '../../src/index.js';
import { expectModelMatchesTape } from '../compile/model-tape.js';

const num = (t: Tensor) => t.item() as number;

describe('the defaultEventSpaceBijector option', () => {
  it('replaces what defaultEventSpaceBijector() returns, survives copy, and reaches wrappers through their inner distribution', () => {
    const exp = new bijectors.Exp();
    expect(new HalfNormal({ scale: 1 }).defaultEventSpaceBijector()).toBeInstanceOf(bijectors.Softplus);
    const d = new HalfNormal({ scale: 1, defaultEventSpaceBijector: exp });
    expect(d.defaultEventSpaceBijector()).toBe(exp);
    expect(d.copy({ scale: 2 }).defaultEventSpaceBijector()).toBe(exp);
    // Sample and Independent build theirs from the inner distribution's.
    expect(num(new Sample({ distribution: d, sampleShape: 2 }).defaultEventSpaceBijector().forward(tensor([0.5, -1])).sum())).toBeCloseTo(Math.exp(0.5) + Math.exp(-1), 15);
    const ind = new Independent({ distribution: new HalfNormal({ scale: [1, 2], defaultEventSpaceBijector: exp }), reinterpretedBatchNdims: 1 });
    expect(num(ind.defaultEventSpaceBijector().forwardLogDetJacobian(tensor([0.5, -1]), 1))).toBeCloseTo(-0.5, 15);
    // On the wrapper itself.
    const own = new Sample({ distribution: new HalfNormal({ scale: 1 }), sampleShape: 2, defaultEventSpaceBijector: exp });
    expect(own.defaultEventSpaceBijector()).toBe(exp);
    // The improper prior's Stan transform can be swapped too.
    expect(new ImproperUniform({ low: 0, defaultEventSpaceBijector: new bijectors.Softplus() }).defaultEventSpaceBijector()).toBeInstanceOf(bijectors.Softplus);
  });

  const model = (withExp: boolean) => new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 1 }),
    sigma: new HalfNormal({ scale: 1, ...(withExp ? { defaultEventSpaceBijector: new bijectors.Exp() } : {}) }),
    y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 3 }),
  });
  const y = [0.2, -0.4, 1.1];

  it('the joint bijector, compileLogDensity and its gradient use it', () => {
    const bij = model(true).experimentalPin({ y }).defaultEventSpaceBijector();
    const u = bij.inverse({ mu: 0.3, sigma: 2 }) as Record<string, Tensor>;
    expect(num(u.sigma!)).toBeCloseTo(Math.log(2), 15);
    expect(num(bij.forwardLogDetJacobian({ mu: 0.3, sigma: -0.7 }))).toBeCloseTo(-0.7, 15);
    expectModelMatchesTape(model(true), { y });
    const ld = compileLogDensity(model(true), { pins: { y } });
    const x = ld.unconstrain({ mu: 0.3, sigma: 2 });
    expect(x[0]).toBeCloseTo(Math.log(2), 15);   // sigma first: TFP's node order
    const lp = num(model(false).experimentalPin({ y }).unnormalizedLogProb({ mu: 0.3, sigma: 2 }));
    expect(ld.logDensity(x)).toBeCloseTo(lp + Math.log(2), 12);   // + log|dσ/du| = u
  });

  it('NUTS in the other space samples the same distribution: HalfNormal(1) with no data', () => {
    const jd = new JointDistributionNamed({ sigma: new HalfNormal({ scale: 1, defaultEventSpaceBijector: new bijectors.Exp() }) });
    const { draws } = windowedAdaptiveNuts(jd, { seed: 4, nChains: 2, numAdaptationSteps: 300, nDraws: 1000 });
    const s = summary(draws).get('sigma')!;
    const mean = Math.sqrt(2 / Math.PI), sd = Math.sqrt(1 - 2 / Math.PI);
    expect(s.essBulk).toBeGreaterThan(400);
    expect(Math.abs(s.mean - mean)).toBeLessThan(5 * sd / Math.sqrt(400));   // 5 MCSE
    expect(Math.abs(s.sd - sd) / sd).toBeLessThan(0.1);
  }, 30_000);

  it('bad input: a non-bijector is a TypeError naming the distribution and the option; a bijector of vector events on a scalar one a RangeError', () => {
    expect(() => new Normal({ loc: 0, scale: 1, defaultEventSpaceBijector: {} as never })).toThrow(TypeError);
    expect(() => new Normal({ loc: 0, scale: 1, defaultEventSpaceBijector: (() => 1) as never })).toThrow(/Normal: `defaultEventSpaceBijector` must be a Bijector/);
    const bad = new Normal({ loc: 0, scale: 1, defaultEventSpaceBijector: new bijectors.SoftmaxCentered() });
    expect(() => bad.defaultEventSpaceBijector()).toThrow(RangeError);
    expect(() => bad.defaultEventSpaceBijector()).toThrow(/Normal: `defaultEventSpaceBijector` acts on events of rank 1, but the event shape is \[\]/);
  });
});
