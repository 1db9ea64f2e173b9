// Missing values in pinned data (NaN → a latent node `y_missing`, distributions/joint/impute-missing.ts):
// the log density equals the original model's at the merged data (to 1e-12), split between
// y_missing (the missing entries) and y (the observed ones); the bijector maps onto the support at
// the missing entries; the compiled log density agrees; the errors for discrete, event-shaped and
// name-clashing nodes. No statistical tests (false-failure rate 0): the sampling side is
// test/mcmc/impute-missing.test.ts.
import { describe, expect, it } from 'vitest';
import { HalfNormal, Independent, JointDistributionNamed, JointDistributionSequential, LogNormal, MultivariateNormalTriL, Normal, Poisson, Sample, StudentT, compileLogDensity } from '../../../distributions/index.js';
import { logLikelihood } from '../../../mcmc/index.js';
import { add, tensor, zeros, type Tensor } from '../../../src/index.js';

const y = [1.2, Number.NaN, 0.7, 2.1, Number.NaN];
const merged = (fill: readonly number[]) => { let k = 0; return y.map((v) => (Number.isNaN(v) ? fill[k++]! : v)); };

const studentT = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 10 }),
  sigma: new HalfNormal({ scale: 2 }),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Independent({ distribution: new StudentT({ df: 4, loc: add(mu, zeros([5])), scale: sigma }), reinterpretedBatchNdims: 1 }),
});
const normal = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 10 }),
  sigma: new HalfNormal({ scale: 2 }),
  y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 5 }),
});

describe('NaN in a pinned value becomes the latent node y_missing', () => {
  it('adds y_missing before y; a pin without NaN pins the model itself', () => {
    const model = normal();
    const pinned = model.experimentalPin({ y });
    expect(pinned.distribution).not.toBe(model);
    expect(pinned.distribution.nodeNames).toEqual(['sigma', 'mu', 'y_missing', 'y']);
    expect(pinned.unpinnedNames).toEqual(['sigma', 'mu', 'y_missing']);
    expect(pinned.eventShape).toEqual({ mu: [], sigma: [], y_missing: [2] });
    expect(pinned.distribution.resolveGraph()).toEqual([['sigma', []], ['mu', []], ['y_missing', ['mu', 'sigma']], ['y', ['mu', 'sigma', 'y_missing']]]);
    expect(model.experimentalPin({ y: [1, 2, 3, 4, 5] }).distribution).toBe(model);
  });

  it('the log density is the model\'s at the merged data, split into y_missing\'s and y\'s parts', () => {
    for (const make of [normal, studentT]) {
      const model = make();
      const pinned = model.experimentalPin({ y });
      const v = { mu: 0.4, sigma: 1.3, y_missing: [0.2, -1.5] };
      const want = model.logProb({ mu: 0.4, sigma: 1.3, y: merged(v.y_missing) }).item() as number;
      expect(pinned.unnormalizedLogProb(v).item()).toBeCloseTo(want, 12);
      const parts = pinned.logProbParts(v);
      const yPart = model.logProbParts({ mu: 0.4, sigma: 1.3, y: merged(v.y_missing) }).y!.item() as number;
      const split = (parts.unpinned.y_missing!.item() as number) + (parts.pinned.y!.item() as number);
      expect(split).toBeCloseTo(yPart, 12);
      // the observed part alone: the density of the three observed entries
      const observed = new Normal({ loc: 0.4, scale: 1.3 }).logProb([1.2, 0.7, 2.1]).data as Float64Array;
      if (make === normal) expect(parts.pinned.y!.item()).toBeCloseTo(observed.reduce((s, x) => s + x, 0), 12);
    }
  });

  it('a positive node: y_missing is unconstrained with the node\'s bijector (exp), the compiled log density agrees', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      y: ({ mu }: { mu: Tensor }) => new Sample({ distribution: new LogNormal({ loc: mu, scale: 0.5 }), sampleShape: [2, 3] }),
    });
    const data = [[1.1, Number.NaN, 0.4], [Number.NaN, 2.2, 0.9]];
    const ld = compileLogDensity(model, { pins: { y: data } });
    expect(ld.paramNames).toEqual(['mu', 'y_missing[0]', 'y_missing[1]']);
    const x = Float64Array.from([0.3, -0.2, 0.5]);
    const c = ld.constrain(x) as Record<string, Tensor>;
    expect(Array.from(c.y_missing!.data as Float64Array)).toEqual([Math.exp(-0.2), Math.exp(0.5)]);
    // log p(mu, y at the merged data) + the log-Jacobian of exp at the two missing entries
    const full = [[1.1, Math.exp(-0.2), 0.4], [Math.exp(0.5), 2.2, 0.9]];
    const want = (model.logProb({ mu: 0.3, y: full }).item() as number) - 0.2 + 0.5;
    expect(ld.logDensity(x)).toBeCloseTo(want, 12);
    const grad = new Float64Array(3);
    expect(ld.logDensityGradient(x, grad)).toBeCloseTo(want, 12);
    expect(grad.every(Number.isFinite)).toBe(true);
    expect(Array.from(ld.unconstrain(c))).toEqual(Array.from(x).map((v) => expect.closeTo(v, 12)));
  });

  it('array-structured models: y_missing comes before y in the node order', () => {
    const model = new JointDistributionSequential([
      new Normal({ loc: 0, scale: 10 }),
      (mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 5 }),
    ]);
    const pinned = model.experimentalPin([undefined, y]);
    expect(pinned.distribution.nodeNames.length).toBe(3);
    expect(pinned.unnormalizedLogProb([0.5, [3, 4]]).item()).toBeCloseTo(model.logProb([0.5, merged([3, 4])]).item() as number, 12);
  });

  it('logLikelihood gives the observed entries only', () => {
    const model = normal();
    const draws = { mu: tensor([[0.4]]), sigma: tensor([[1.3]]), y_missing: tensor([[[0.2, -1.5]]]) };
    const ll = logLikelihood(model, draws, { y });
    expect(ll.y!.shape).toEqual([1, 1, 3]);
    expect(Array.from(ll.y!.data as Float64Array)).toEqual(Array.from(new Normal({ loc: 0.4, scale: 1.3 }).logProb([1.2, 0.7, 2.1]).data as Float64Array).map((v) => expect.closeTo(v, 12)));
  });

  it('errors: a discrete node, an event-shaped node, a name taken, each naming the caller and the pin', () => {
    const counts = new JointDistributionNamed({
      rate: new LogNormal({ loc: 0, scale: 1 }),
      n: ({ rate }: { rate: Tensor }) => new Sample({ distribution: new Poisson({ rate }), sampleShape: 3 }),
    });
    expect(() => counts.experimentalPin({ n: [1, Number.NaN, 4] })).toThrow(/JointDistributionNamed\.experimentalPin: `pins\.n` has missing values \(NaN\), but node `n` is Poisson.*discrete latents, which NUTS cannot sample \(see the discrete-latents work, issue 35\)/);
    expect(() => compileLogDensity(counts, { pins: { n: [1, Number.NaN, 4] } })).toThrow(/^compileLogDensity: `pins\.n` has missing values/);
    const mvn = new JointDistributionNamed({
      mu: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }),
      y: ({ mu }: { mu: Tensor }) => new MultivariateNormalTriL({ loc: mu, scaleTril: [[1, 0], [0.5, 1]] }),
    });
    expect(() => mvn.experimentalPin({ y: [0.3, Number.NaN] })).toThrow(/`pins\.y` has missing values \(NaN\), but node `y` is MultivariateNormalTriL, whose values are whole events \(event shape \[2\]\); only elementwise distributions can impute/);
    const taken = new JointDistributionNamed({
      y_missing: new Normal({ loc: 0, scale: 1 }),
      y: ({ y_missing }: { y_missing: Tensor }) => new Sample({ distribution: new Normal({ loc: y_missing, scale: 1 }), sampleShape: 5 }),
    });
    expect(() => taken.experimentalPin({ y })).toThrow(/`pins\.y` has missing values \(NaN\), which would become the node `y_missing`, but the model already has a node of that name/);
  });
});
