// The continuous target of a compound (NUTS + Gibbs) run (mcmc/nuts/stan/gibbs.ts): compiled once
// with the discrete values as an input, it must equal the model with those values pinned, for
// every value written into the input (no retrace), with and without enumerated nodes beside them.
// Exact checks only (1e-12 relative). ~3 s.
import { describe, expect, it } from 'vitest';
import { add, mul, type Tensor } from '../../src/index.js';
import { Bernoulli, Binomial, Gamma, Independent, JointDistributionNamed, Normal, Poisson, Sample, compileLogDensity } from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../../distributions/joint/values.js';
import { gibbsFlatTarget } from '../../mcmc/nuts/stan/gibbs.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

// n: a plated latent count (3 elements, Poisson: not enumerable); z: a Bernoulli summed out.
const model = new JointDistributionNamed({
  lam: new Gamma({ concentration: 2, rate: 1 }),
  n: new Sample({ distribution: new Poisson({ rate: 4 }), sampleShape: 3 }),
  z: new Bernoulli({ probs: 0.3 }),
  y: ({ lam, n, z }: { lam: Tensor; n: Tensor; z: Tensor }) => new Independent({ distribution: new Poisson({ rate: add(mul(lam, n), mul(2, z)) }), reinterpretedBatchNdims: 1 }),
});
const y = [5, 9, 2];

describe('the compound run\'s continuous target', () => {
  const pinned = model.experimentalPin({ y }) as unknown as JointDistributionPinned<StructKind>;
  const m = flatModel('test', pinned, { gibbs: true });

  it('has the count as a Gibbs site and the Bernoulli enumerated', () => {
    expect(m.gibbs!.sites.map((s) => [s.name, s.proposal, s.units])).toEqual([['n', 'random-walk', 3]]);
    expect(m.enumeration!.sites.map((s) => s.name)).toEqual(['z']);
    expect(m.names).toEqual(['lam']);
  });

  for (const compile of [true, false]) {
    it(`equals the model with n pinned, for each n written into its input (${compile ? 'compiled' : 'tape'})`, () => {
      const { value, compiled } = gibbsFlatTarget('test', m, compile);
      expect(compiled).toBe(compile);
      const grad = new Float64Array(1), refGrad = new Float64Array(1);
      for (const n of [[1, 2, 3], [4, 0, 7], [2, 2, 2], [10, 1, 5]]) {
        value.discrete.set(n);
        const ref = compileLogDensity(model, { pins: { y, n } });    // z still summed out
        for (const x of [-1.2, 0.3, 2]) {
          const lp = value.target.logDensityGradient(Float64Array.of(x), grad);
          const refLp = ref.logDensityGradient(Float64Array.of(x), refGrad);
          expect(close(lp, refLp)).toBe(true);
          expect(close(grad[0]!, refGrad[0]!)).toBe(true);
          expect(close(value.target.logDensity(Float64Array.of(x)), refLp)).toBe(true);
        }
      }
    });
  }

  it('a count off the support has log density −∞ or NaN (either is a rejected proposal)', () => {
    const { value } = gibbsFlatTarget('test', m, true);
    value.discrete.set([0, 0, 0]);   // rate 2z: y = 9 needs z = 1, still finite
    expect(Number.isFinite(value.target.logDensity(Float64Array.of(0)))).toBe(true);
    value.discrete.set([-1, 2, 3]);   // Poisson(−1): −∞; y's rate goes negative: NaN
    expect(value.target.logDensity(Float64Array.of(0)) > -Infinity).toBe(false);
  });

  it('windowedAdaptiveNuts samples it: n by Gibbs steps, z summed out', () => {
    const r = windowedAdaptiveNuts(model, { pins: { y }, seed: 1, nChains: 2, nDraws: 100, numAdaptationSteps: 100 });
    expect(Object.keys(r.draws)).toEqual(['lam', 'n']);
    expect(r.draws.n!.shape).toEqual([100, 2, 3]);
    expect(r.gibbs!.nodes.map((g) => g.name)).toEqual(['n']);
  });
});

describe('a Binomial whose totalCount is a latent count', () => {
  it('its count is a Gibbs site and the target compiles with it as an input', () => {
    const jd = new JointDistributionNamed({
      N: new Poisson({ rate: 20 }),
      p: new Normal({ loc: 0, scale: 1 }),
      y: ({ N, p }: { N: Tensor; p: Tensor }) => new Sample({ distribution: new Binomial({ totalCount: N, logits: p }), sampleShape: 2 }),
    });
    const m = flatModel('test', jd.experimentalPin({ y: [7, 9] }) as unknown as JointDistributionPinned<StructKind>, { gibbs: true });
    expect(m.gibbs!.sites.map((s) => s.name)).toEqual(['N']);
    const { value, compiled } = gibbsFlatTarget('test', m, true);
    expect(compiled).toBe(true);
    for (const N of [9, 15, 30]) {
      value.discrete.set([N]);
      const ref = compileLogDensity(jd, { pins: { y: [7, 9], N } });
      expect(close(value.target.logDensity(Float64Array.of(0.4)), ref.logDensity(Float64Array.of(0.4)))).toBe(true);
    }
    value.discrete.set([8]);   // below y = 9
    expect(value.target.logDensity(Float64Array.of(0.4))).toBe(-Infinity);
  });
});
