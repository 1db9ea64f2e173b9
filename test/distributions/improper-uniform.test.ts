// ImproperUniform (NumPyro's ImproperUniform, PyMC's Flat/HalfFlat, Stan's default prior): log
// density 0 on the support and −∞ outside; Stan's constraining transforms as the default
// event-space bijector (checked against Stan's formulas and log-Jacobians, closed form, 1e-15
// relative); no draws; joint models with improper nodes pin, unconstrain, compile (compiled =
// tape bitwise) and initialise without drawing them; NUTS recovers closed-form posteriors of
// models with flat priors (tolerances: a few Monte Carlo standard errors, stated per check).
import { describe, expect, it } from 'vitest';
import {
  Binomial, compileLogDensity, ImproperUniform, JointDistributionCoroutine, JointDistributionNamed, JointDistributionSequential,
  Normal, NotImplementedError, Root, Sample, type CoroutineModel,
} from '../../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { tensor, type Tensor } from '../../src/index.js';
import { expectModelMatchesTape } from '../compile/model-tape.js';

const arr = (t: Tensor) => Array.from(t.data as ArrayLike<number>);
const num = (t: Tensor) => t.item() as number;
const close = (a: number, b: number, rel = 1e-15) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
const sigmoid = (u: number) => 1 / (1 + Math.exp(-u));

describe('ImproperUniform: density, support, shapes', () => {
  it('logProb is 0 on the closed support and −∞ outside (and for NaN), with zero gradient', () => {
    expect(arr(new ImproperUniform().logProb([-1e300, 0, 5]))).toEqual([0, 0, 0]);
    expect(arr(new ImproperUniform({ low: 0 }).logProb([-1e-300, 0, 1e300]))).toEqual([-Infinity, 0, 0]);
    expect(arr(new ImproperUniform({ high: 2 }).logProb([1, 2, 2.0000001]))).toEqual([0, 0, -Infinity]);
    expect(arr(new ImproperUniform({ low: -1, high: 1 }).logProb([-1.5, -1, 0, 1, 1.5, NaN]))).toEqual([-Infinity, 0, 0, 0, -Infinity, -Infinity]);
  });

  it('batch and event shapes: declared, or the bounds\' shape; logProb sums over the event', () => {
    const d = new ImproperUniform({ eventShape: [3] });
    expect([d.batchShape, d.eventShape]).toEqual([[], [3]]);
    expect(arr(d.logProb([[0, 1, 2], [0, -1, 2]]))).toEqual([0, 0]);
    const half = new ImproperUniform({ low: 0, eventShape: [3] });
    expect(arr(half.logProb([[0, 1, 2], [0, -1, 2]]))).toEqual([0, -Infinity]);
    const b = new ImproperUniform({ low: [0, 1] });
    expect([b.batchShape, b.eventShape]).toEqual([[2], []]);
    expect(arr(b.logProb([0.5, 0.5]))).toEqual([0, -Infinity]);
    const e = new ImproperUniform({ low: [0, 1], high: 5, eventShape: [2] });
    expect([e.batchShape, e.eventShape]).toEqual([[], [2]]);
    const both = new ImproperUniform({ batchShape: [4], eventShape: [2, 3] });
    expect(both.logProb(tensor(new Array(24).fill(0)).reshape([4, 2, 3])).shape).toEqual([4]);
    // A value of the event shape only broadcasts against the batch.
    expect(both.logProb(tensor(new Array(6).fill(0)).reshape([2, 3])).shape).toEqual([4]);
  });

  it('sample and the moments throw NotImplementedError, saying why', () => {
    expect(() => new ImproperUniform().sample([2], { seed: 0 })).toThrow(NotImplementedError);
    expect(() => new ImproperUniform().sample([2], { seed: 0 })).toThrow(/ImproperUniform\.sample: an improper prior has no draws/);
    expect(() => new ImproperUniform().mean()).toThrow(NotImplementedError);
  });

  it("default event-space bijector: Stan's transforms and log-Jacobians", () => {
    const us = [-3, -0.5, 0, 0.7, 4];
    for (const u of us) {
      const id = new ImproperUniform().defaultEventSpaceBijector();
      expect(num(id.forward(u))).toBe(u);
      expect(num(id.forwardLogDetJacobian(u, 0))).toBe(0);
      // real<lower=a>: x = a + exp(u), log J = u.
      const lo = new ImproperUniform({ low: 1.5 }).defaultEventSpaceBijector();
      close(num(lo.forward(u)), 1.5 + Math.exp(u));
      close(num(lo.forwardLogDetJacobian(u, 0)), u);
      close(num(lo.inverse(1.5 + Math.exp(u))), u, 1e-13);
      // real<upper=b>: x = b − exp(u), log J = u.
      const hi = new ImproperUniform({ high: -2 }).defaultEventSpaceBijector();
      close(num(hi.forward(u)), -2 - Math.exp(u));
      close(num(hi.forwardLogDetJacobian(u, 0)), u);
      // real<lower=a, upper=b>: x = a + (b − a)·logit⁻¹(u), log J = log(b − a) + log σ(u) + log(1 − σ(u)).
      const iv = new ImproperUniform({ low: -1, high: 3 }).defaultEventSpaceBijector();
      close(num(iv.forward(u)), -1 + 4 * sigmoid(u), 1e-14);
      close(num(iv.forwardLogDetJacobian(u, 0)), Math.log(4) + Math.log(sigmoid(u)) + Math.log(1 - sigmoid(u)), 1e-14);
    }
  });

  it('validateArgs checks values against the support', () => {
    expect(() => new ImproperUniform({ low: 0, validateArgs: true }).logProb(-1)).toThrow(/ImproperUniform\.logProb: `value` must be in \[low, high\]/);
    expect(num(new ImproperUniform({ low: 0, validateArgs: true }).logProb(1))).toBe(0);
  });
});

describe('ImproperUniform: bad input', () => {
  it('names the argument: TypeError for a wrong kind, RangeError for a wrong value', () => {
    expect(() => new ImproperUniform({ low: 'a' as never })).toThrow(TypeError);
    expect(() => new ImproperUniform({ low: 'a' as never })).toThrow(/ImproperUniform: `low`/);
    expect(() => new ImproperUniform({ lower: 0 } as never)).toThrow(/ImproperUniform: unknown parameter `lower`/);
    expect(() => new ImproperUniform({ low: -Infinity })).toThrow(RangeError);
    expect(() => new ImproperUniform({ low: -Infinity })).toThrow(/`low` must be finite \(omit `low` for no lower bound\)/);
    expect(() => new ImproperUniform({ high: NaN })).toThrow(/`high` must be finite/);
    expect(() => new ImproperUniform({ low: 2, high: 1 })).toThrow(/ImproperUniform: `low` must be less than `high`/);
    expect(() => new ImproperUniform({ eventShape: [-1] })).toThrow(RangeError);
    expect(() => new ImproperUniform({ batchShape: 'x' as never })).toThrow(/ImproperUniform: `batchShape`/);
    expect(() => new ImproperUniform({ low: [0, 1, 2], eventShape: [2] })).toThrow(RangeError);
    expect(() => new ImproperUniform({ low: [0, 1, 2], batchShape: [2] })).toThrow(/ImproperUniform: .*`low` \[3\]/);
  });
});

// Stan's `real mu; real<lower=0> sigma; y ~ normal(mu, sigma);`
const y = [2.1, 0.4, 1.7, 3.2, 1.1, 2.6, 0.9, 1.8, 2.4, 1.3];
const flatNormal = () => new JointDistributionNamed({
  mu: new ImproperUniform(),
  sigma: new ImproperUniform({ low: 0 }),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: y.length }),
});

describe('ImproperUniform in joint distributions: nothing is drawn to learn shapes', () => {
  it('shapes, pinning, the joint bijector and compileLogDensity work; sample names the node', () => {
    const jd = flatNormal();
    expect(jd.nodeNames).toEqual(['sigma', 'mu', 'y']);
    expect(jd.eventShape).toEqual({ mu: [], sigma: [], y: [10] });
    const pinned = jd.experimentalPin({ y });
    expect(pinned.eventShape).toEqual({ mu: [], sigma: [] });
    const bij = pinned.defaultEventSpaceBijector();
    expect(bij.inverseEventShape()).toEqual({ mu: [], sigma: [] });
    const u = bij.inverse({ mu: 0.5, sigma: 2 }) as Record<string, Tensor>;
    close(num(u.sigma!), Math.log(2));
    expect(num(pinned.unnormalizedLogProb({ mu: 0.5, sigma: 2 }))).toBe(num(new Sample({ distribution: new Normal({ loc: 0.5, scale: 2 }), sampleShape: 10 }).logProb(y)));
    expect(() => jd.sample([], { seed: 0 })).toThrow(NotImplementedError);
    expect(() => jd.sample([], { seed: 0 })).toThrow(/no draws .*\(in node `model\.sigma` of model "JointDistributionNamed"/);
    // Given values for the improper nodes, the rest is drawn as usual.
    expect(jd.sample([], { seed: 0, value: { mu: 1, sigma: 1 } }).y!.shape).toEqual([10]);
    const ld = compileLogDensity(jd, { pins: { y } });
    expect(ld.paramNames).toEqual(['sigma', 'mu']);
    expectModelMatchesTape(jd, { y });
  });

  it('Sequential and Coroutine models with improper nodes, vector events and bounded intervals', () => {
    const seq = new JointDistributionSequential([
      new ImproperUniform({ eventShape: [2] }),
      new ImproperUniform({ low: 0.1, high: 5 }),
      (s: Tensor, b: Tensor) => new Sample({ distribution: new Normal({ loc: b.sum(), scale: s }), sampleShape: 3, name: 'obs' }),
    ]);
    expect(seq.eventShape).toEqual([[2], [], [3]]);
    expectModelMatchesTape(seq, { obs: [0.5, 1, 1.5] });
    const co = new JointDistributionCoroutine(function* (): CoroutineModel {
      const mu: Tensor = yield Root(new ImproperUniform({ high: 3, name: 'mu' }));
      yield new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3, name: 'obs' });
    });
    expect(co.experimentalPin({ obs: [0, 1, 2] }).eventShape).toEqual([[]]);
    expectModelMatchesTape(co, { obs: [0, 1, 2] });
  });
});

describe('NUTS on models with flat priors: the closed-form posteriors', () => {
  it('normal with flat mu and flat sigma > 0: mu ~ t(n − 2), sigma² ~ InvGamma(n/2 − 1, SS/2)', () => {
    const n = y.length, ybar = y.reduce((a, b) => a + b, 0) / n;
    const ss = y.reduce((a, v) => a + (v - ybar) ** 2, 0);
    // p(mu, sigma | y) ∝ sigma^−n exp(−(SS + n(mu − ȳ)²)/(2 sigma²)).
    const sdMu = Math.sqrt(ss / (n * (n - 4)));                     // the t(n − 2) marginal of mu
    const alpha = n / 2 - 1, beta = ss / 2;                          // sigma² ~ InvGamma(alpha, beta)
    const meanSigma = Math.sqrt(beta) * gammaRatio(alpha);           // E[sigma] = √β Γ(α − ½)/Γ(α)
    const { draws } = windowedAdaptiveNuts(flatNormal(), { pins: { y }, seed: 3, nChains: 2, numAdaptationSteps: 400, nDraws: 1000 });
    const s = summary(draws);
    const mu = s.get('mu')!, sigma = s.get('sigma')!;
    // 2000 draws: |error| < 5 MCSE (sd/√ESS with ESS > 400).
    expect(Math.abs(mu.mean - ybar)).toBeLessThan(5 * sdMu / Math.sqrt(400));
    expect(Math.abs(mu.sd - sdMu) / sdMu).toBeLessThan(0.12);
    expect(Math.abs(sigma.mean - meanSigma) / meanSigma).toBeLessThan(0.05);
    expect(mu.rHat).toBeLessThan(1.02);
    expect(Math.min(mu.essBulk, sigma.essBulk)).toBeGreaterThan(400);
  }, 60_000);

  it('binomial with a flat prior on (0, 1): Beta(k + 1, n − k + 1)', () => {
    const jd = new JointDistributionNamed({
      p: new ImproperUniform({ low: 0, high: 1 }),
      k: (p: Tensor) => new Binomial({ totalCount: 20, probs: p }),
    });
    const { draws } = windowedAdaptiveNuts(jd, { pins: { k: 14 }, seed: 5, nChains: 2, numAdaptationSteps: 300, nDraws: 1000 });
    const s = summary(draws).get('p')!;
    expect(s.essBulk).toBeGreaterThan(400);
    const a = 15, b = 7, mean = a / (a + b), sd = Math.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)));
    expect(Math.abs(s.mean - mean)).toBeLessThan(5 * sd / Math.sqrt(400));
    expect(Math.abs(s.sd - sd) / sd).toBeLessThan(0.12);
  }, 60_000);
});

/** Γ(a − ½)/Γ(a) for a half-integer step above 1 (a = 4: Γ(3.5)/Γ(4)), by the recurrence from Γ(½) = √π. */
function gammaRatio(a: number): number {
  const g = (x: number): number => (x === 0.5 ? Math.sqrt(Math.PI) : x === 1 ? 1 : (x - 1) * g(x - 1));
  return g(a - 0.5) / g(a);
}
