import { describe, expect, it } from 'vitest';
import { compileLogDensity } from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { nonCenteredBatched as nonCentered, y } from '../../examples/eight-schools.js';
import {
  HamiltonianMonteCarlo, MetropolisAdjustedLangevinAlgorithm, NoUTurnSampler, RandomWalkMetropolis, sampleChain, TransformedTransitionKernel,
} from '../../mcmc/index.js';
import { bijectors } from '../../distributions/index.js';
import { slice, Tensor, type Tensor as T } from '../../src/index.js';

const ld = compileLogDensity(nonCentered, { pins: { y } });
const m = flatModel('test', nonCentered.experimentalPin({ y }));
/** The same density on the tape, over one part [chains, dim] split into the model's flat parts. */
const tapeTarget = (x: T): T => m.target(...ld.params.map((p) => slice(x, [0, p.offset], [-1, p.size])));
const start = new Tensor(Float64Array.from({ length: 3 * ld.dim }, (_, i) => 0.1 * Math.sin(i)), [3, ld.dim], 'float64');

describe('kernels take a compiled log density as targetLogProbFn', () => {
  const kernels = {
    HMC: (t: unknown) => new HamiltonianMonteCarlo({ targetLogProbFn: t as never, stepSize: 0.2, numLeapfrogSteps: 4 }),
    NUTS: (t: unknown) => new NoUTurnSampler({ targetLogProbFn: t as never, stepSize: 0.3 }),
    MALA: (t: unknown) => new MetropolisAdjustedLangevinAlgorithm({ targetLogProbFn: t as never, stepSize: 0.1 }),
    RWM: (t: unknown) => new RandomWalkMetropolis({ targetLogProbFn: t as never }),
  };
  for (const [name, make] of Object.entries(kernels)) {
    it(`${name}: the same chain as the tape's target, one log density per chain`, () => {
      const run = (t: unknown) => sampleChain({ numResults: 15, currentState: start, kernel: make(t) as never, seed: 11, traceFn: () => ({}) }).allStates as T;
      const a = run(ld), b = run(tapeTarget);
      expect(a.shape).toEqual([15, 3, ld.dim]);
      const da = a.data as Float64Array, db = b.data as Float64Array;
      for (let i = 0; i < da.length; i++) expect(da[i]).toBeCloseTo(db[i]!, 10);
    }, 60_000);
  }

  it('rejects a state that is not one [...chains, dim] part, and a transformed kernel', () => {
    const nuts = new NoUTurnSampler({ targetLogProbFn: ld, stepSize: 0.3 });
    expect(() => nuts.bootstrapResults([start, start])).toThrow(/must be one Tensor of shape \[\.\.\.chains, 10\]/);
    expect(() => nuts.bootstrapResults(new Tensor(new Float64Array(9), [9], 'float64'))).toThrow(RangeError);
    expect(() => new TransformedTransitionKernel({ innerKernel: nuts, bijector: new bijectors.Exp() })).toThrow(/already over unconstrained coordinates/);
  });
});
