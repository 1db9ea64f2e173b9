// distributions/enumerate/enumerate.ts: unpinned discrete nodes summed out of the compiled log
// density. Deterministic checks (no sampling): equality with hand-marginalised models
// (MixtureSameFamily, HiddenMarkovModel, sums written out), the enumerateSupport hook, and the
// errors. ~10 s (tracing the 200-node HMM).
import { describe, expect, it } from 'vitest';
import {
  Bernoulli, Binomial, Categorical, compileLogDensity, Dirichlet, Distribution, Exponential, Independent, JointDistributionCoroutine,
  JointDistributionNamed, Normal, NotImplementedError, OneHotCategorical, Poisson, Root, Sample,
} from '../../../distributions/index.js';
import { MAX_SUPPORT, MAX_TABLE } from '../../../distributions/enumerate/enumerate.js';
import { add, gather, mul, sum, tensor, type Tensor } from '../../../src/index.js';
import { explicitMixture, mixtureSameFamily, y as mixtureY } from '../../../examples/mixture-enumerated.js';
import { hmmModel, observations, pinsOf, stepByStepHmm } from '../../../examples/hmm-step-by-step.js';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);
const logNormal = (x: number, m: number, s = 1) => -0.5 * ((x - m) / s) ** 2 - Math.log(s) - 0.5 * Math.log(2 * Math.PI);
const lse = (xs: number[]) => { const m = Math.max(...xs); return m + Math.log(xs.reduce((a, v) => a + Math.exp(v - m), 0)); };

/** Largest relative difference of value and gradient of two compiled densities over the points. */
function maxDiff(a: ReturnType<typeof compileLogDensity>, b: ReturnType<typeof compileLogDensity>, points: number[][]): number {
  let worst = 0;
  for (const x of points) {
    const ga = new Float64Array(a.dim), gb = new Float64Array(b.dim);
    worst = Math.max(worst, rel(a.logDensityGradient(x, ga), b.logDensityGradient(x, gb)), ...Array.from(ga, (g, i) => rel(g, gb[i]!)));
  }
  return worst;
}

describe('enumerateSupport', () => {
  it('lists the finite supports', () => {
    expect(new Categorical({ probs: [0.2, 0.3, 0.5] }).enumerateSupport().toArray()).toEqual([0, 1, 2]);
    expect(new Bernoulli({ probs: 0.4 }).enumerateSupport().toArray()).toEqual([0, 1]);
    expect(new OneHotCategorical({ probs: [0.5, 0.5] }).enumerateSupport().toArray()).toEqual([[1, 0], [0, 1]]);
    expect(new Binomial({ totalCount: 3, probs: [0.1, 0.2] }).enumerateSupport().toArray()).toEqual([0, 1, 2, 3]);
  });
  it('is not implemented for infinite or uneven supports', () => {
    expect(() => new Normal({ loc: 0, scale: 1 }).enumerateSupport()).toThrow(NotImplementedError);
    expect(() => new Poisson({ rate: 1 }).enumerateSupport()).toThrow(NotImplementedError);
    expect(() => new Binomial({ totalCount: [2, 3], probs: 0.5 }).enumerateSupport()).toThrow(/differs across the batch/);
  });
  it('the enumerate option must be a boolean', () => {
    expect(() => new Categorical({ probs: [0.5, 0.5], enumerate: 'no' as never })).toThrow(TypeError);
    expect(new Categorical({ probs: [0.5, 0.5], enumerate: false }).parameters.enumerate).toBe(false);
  });
});

describe('parallel enumeration (a plate of independent labels)', () => {
  it('K = 3 mixture with explicit z: compiled value and gradient equal MixtureSameFamily to 1e-12', () => {
    const a = compileLogDensity(explicitMixture, { pins: { y: mixtureY } }), b = compileLogDensity(mixtureSameFamily, { pins: { y: mixtureY } });
    expect(a.paramNames).toEqual(b.paramNames);
    expect(a.dim).toBe(5);
    expect(maxDiff(a, b, [[0, 0, -3, 0, 3], [0.4, -0.7, -2.5, 0.2, 3.3], [-1, 1, 0, 1, 2], [2, -2, 1, -1, 0.5]])).toBeLessThan(1e-12);
  });

  it('a Bernoulli plate and a OneHotCategorical label equal their sums written out', () => {
    const y = [0.3, -1.2, 2.2];
    const bern = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 2 }),
      b: new Sample({ distribution: new Bernoulli({ probs: 0.3 }), sampleShape: 3 }),
      y: ({ m, b }: { m: Tensor; b: Tensor }) => new Independent({ distribution: new Normal({ loc: mul(m, b), scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const ld = compileLogDensity(bern, { pins: { y } });
    for (const m of [0.7, -1.3]) {
      const want = logNormal(m, 0, 2) + y.reduce((acc, v) => acc + lse([Math.log(0.7) + logNormal(v, 0), Math.log(0.3) + logNormal(v, m)]), 0);
      expect(rel(ld.logDensity([m]), want)).toBeLessThan(1e-13);
    }
    const onehot = new JointDistributionNamed({
      mu: new Independent({ distribution: new Normal({ loc: [-1, 0, 1], scale: 1 }), reinterpretedBatchNdims: 1 }),
      c: new OneHotCategorical({ probs: [0.2, 0.3, 0.5] }),
      y: ({ mu, c }: { mu: Tensor; c: Tensor }) => new Normal({ loc: sum(mul(mu, c), -1), scale: 1 }),
    });
    const lo = compileLogDensity(onehot, { pins: { y: 0.4 } });
    const mu = [-0.5, 0.2, 1.5];
    const want = mu.reduce((a, v, k) => a + logNormal(v, k - 1), 0) + lse(mu.map((v, k) => Math.log([0.2, 0.3, 0.5][k]!) + logNormal(0.4, v)));
    expect(rel(lo.logDensity(mu), want)).toBeLessThan(1e-13);
  });

  it('a small Binomial latent count is summed over 0..n', () => {
    const jd = new JointDistributionNamed({
      p: new Dirichlet({ concentration: [1, 1] }),
      k: ({ p }: { p: Tensor }) => new Binomial({ totalCount: 4, probs: gather(p, tensor(0, 'int32')) }),
      y: ({ k }: { k: Tensor }) => new Normal({ loc: k, scale: 0.5 }),
    });
    const ld = compileLogDensity(jd, { pins: { y: 2.3 } });
    const u = 0.4, q = 1 / (1 + Math.exp(-u));   // stick-breaking: p0 = sigmoid(u) for 2 categories
    const choose = [1, 4, 6, 4, 1];
    const byHand = lse(choose.map((c, k) => Math.log(c) + k * Math.log(q) + (4 - k) * Math.log(1 - q) + logNormal(2.3, k, 0.5)));
    // The same model with k pinned, at every k: the enumerated density is their logsumexp.
    const pinnedK = choose.map((_, k) => compileLogDensity(jd, { pins: { y: 2.3, k } }).logDensity([u]));
    expect(rel(ld.logDensity([u]), lse(pinnedK))).toBeLessThan(1e-13);
    // And the likelihood part matches the sum written out (the prior and Jacobian terms cancel).
    expect(rel(ld.logDensity([u]) - pinnedK[0]!, byHand - (Math.log(choose[0]!) + 4 * Math.log(1 - q) + logNormal(2.3, 0, 0.5)))).toBeLessThan(1e-12);
  });
});

describe('sequential elimination (a Markov chain written step by step)', () => {
  it('T = 100: equals HiddenMarkovModel.logProb, value and gradient, to 1e-12', () => {
    const T = 100, y = observations(T);
    const stepwise = compileLogDensity(stepByStepHmm(T), { pins: pinsOf(y) });
    const reference = compileLogDensity(hmmModel(T), { pins: { y } });
    expect(stepwise.dim).toBe(3);
    expect(maxDiff(stepwise, reference, [[-2, 0, 2], [-1.5, 0.3, 2.5], [0.5, -1, 1]])).toBeLessThan(1e-12);
    // Against HiddenMarkovModel.logProb directly, plus the prior of mu.
    const mu = [-1.5, 0.3, 2.5];
    const prior = mu.reduce((a, v, k) => a + logNormal(v, [-2, 0, 2][k]!), 0);
    const hmm = (hmmModel(T).sampleDistributions([], { seed: 0, value: { mu } })[0] as Record<string, Distribution>).y!;
    expect(rel(stepwise.logDensity(mu), prior + hmm.logProb(y).toNumber())).toBeLessThan(1e-12);
  });

  it('uses two enumeration dims for a first-order chain, whatever its length', async () => {
    const { enumerationPlan } = await import('../../../distributions/enumerate/enumerate.js');
    const plan = enumerationPlan('test', stepByStepHmm(12).experimentalPin(pinsOf(observations(12))) as never)!;
    expect(plan.sites.map((s) => s.name)).toEqual(Array.from({ length: 12 }, (_, t) => `z${t}`));
    expect(plan.rank).toBe(2);
  });
});

describe('errors and opt-out', () => {
  it('enumerate: false keeps the node out (a compiled density cannot take it; windowedAdaptiveNuts gives it Gibbs steps)', () => {
    const jd = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      z: new Bernoulli({ probs: 0.5, enumerate: false }),
      y: ({ m, z }: { m: Tensor; z: Tensor }) => new Normal({ loc: add(m, z), scale: 1 }),
    });
    expect(() => compileLogDensity(jd, { pins: { y: 0 } })).toThrow(/`z` \(enumerate: false\); sample it with windowedAdaptiveNuts/);
  });

  it('a support too large to sum says its size', () => {
    const jd = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      k: new Binomial({ totalCount: MAX_SUPPORT + 10, probs: 0.5 }),
      y: ({ m, k }: { m: Tensor; k: Tensor }) => new Normal({ loc: add(m, k), scale: 1 }),
    });
    expect(() => compileLogDensity(jd, { pins: { y: 0 } })).toThrow(RangeError);
    expect(() => compileLogDensity(jd, { pins: { y: 0 } })).toThrow(new RegExp(`\`k\` \\(its support has ${MAX_SUPPORT + 11} values, more than the ${MAX_SUPPORT}`));
  });

  it('a coroutine chain (no graph: every node kept to the end) says the table size it would need', () => {
    const T = 20;
    const model = new JointDistributionCoroutine(function* () {
      const m = yield Root(new Normal({ loc: 0, scale: 1, name: 'm' }));
      let z = yield new Categorical({ probs: [0.5, 0.3, 0.2], name: 'z0' });
      for (let t = 1; t < T; t++) {
        yield new Normal({ loc: add(m, z), scale: 1, name: `y${t - 1}` });
        z = yield new Categorical({ probs: gather(tensor([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]]), z), name: `z${t}` });
      }
    });
    const pins = Object.fromEntries(Array.from({ length: T - 1 }, (_, t) => [`y${t}`, 0.1 * t]));
    expect(() => compileLogDensity(model, { pins })).toThrow(RangeError);
    expect(() => compileLogDensity(model, { pins })).toThrow(new RegExp(`needs a table of ${3 ** 14} entries .*more than ${MAX_TABLE}.*coroutine`));
  });

  it('a continuous node sampled downstream of an enumerated one is refused, naming both', () => {
    const jd = new JointDistributionNamed({
      z: new Bernoulli({ probs: 0.5 }),
      x: ({ z }: { z: Tensor }) => new Normal({ loc: z, scale: 1 }),
      y: ({ x }: { x: Tensor }) => new Normal({ loc: x, scale: 1 }),
    });
    expect(() => compileLogDensity(jd, { pins: { y: 0 } })).toThrow(/node `x` .* depends on the enumerated node\(s\) `z`/);
  });

  it('a node that depends on every element of a plate jointly is refused with the size the sum would need', () => {
    const jd = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      z: new Sample({ distribution: new Bernoulli({ probs: 0.5 }), sampleShape: 6 }),
      y: ({ m, z }: { m: Tensor; z: Tensor }) => new Normal({ loc: add(m, sum(z, -1)), scale: 1 }),
    });
    expect(() => compileLogDensity(jd, { pins: { y: 0 } })).toThrow(/cannot be split over those elements.*2\^6 terms/);
  });

  it('an Exponential stays a continuous node (no support to enumerate)', () => {
    const jd = new JointDistributionNamed({ r: new Exponential({ rate: 1 }), y: ({ r }: { r: Tensor }) => new Poisson({ rate: r }) });
    expect(compileLogDensity(jd, { pins: { y: 3 } }).paramNames).toEqual(['r']);
  });
});
