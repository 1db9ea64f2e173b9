import { describe, expect, it } from 'vitest';
import { compileLogDensity } from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { nonCenteredBatched as nonCentered, y } from '../../examples/eight-schools.js';
import {
  HamiltonianMonteCarlo, MetropolisAdjustedLangevinAlgorithm, NoUTurnSampler, RandomWalkMetropolis, sampleChain, TransformedTransitionKernel,
} from '../../mcmc/index.js';
import { bijectors } from '../../distributions/index.js';
import { slice, Tensor, type Tensor as T } from '../../src/index.js';
import { FLAT, type WithFlat } from '../../distributions/compile-log-density.js';
import { checkGradientTarget, flatTarget, geometryOf } from '../../mcmc/internal/phase-space.js';
import type { TargetLogProbAndGradFn } from '../../mcmc/kernel.js';

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

  it('the kernels call the compiled code on their own float64 arrays, with the same bits', () => {
    const targetAndGrad = checkGradientTarget('test', { targetLogProbFn: ld }).targetAndGrad as WithFlat<TargetLogProbAndGradFn>;
    for (const chains of [[], [1], [3], [2, 2]]) {
      const shape = [...chains, ld.dim], n = chains.reduce((a, b) => a * b, 1);
      const x = Float64Array.from({ length: n * ld.dim }, (_, i) => 0.3 * Math.cos(1.7 * i));
      const lpShape = new Tensor(new Float64Array(n), chains, 'float64');
      const flat = flatTarget('test', undefined, targetAndGrad, geometryOf('test', [new Tensor(x, shape, 'float64')], lpShape));
      expect(flat).toBe(targetAndGrad[FLAT]!([shape]));
      const { lp, grad } = flat([x]);
      const want = new Float64Array(ld.dim);
      for (let c = 0; c < n; c++) {
        expect(Object.is(lp[c], ld.logDensityGradient(x.subarray(c * ld.dim, (c + 1) * ld.dim), want))).toBe(true);
        expect(Array.from(grad[0]!.subarray(c * ld.dim, (c + 1) * ld.dim))).toEqual(Array.from(want));
      }
      expect(grad[0]).not.toBe(x);
    }
    // float32 states keep the tensor wrapper (the compiled code is float64); other shapes have no flat form
    const g32 = geometryOf('test', [new Tensor(new Float32Array(2 * ld.dim), [2, ld.dim], 'float32')], new Tensor(new Float32Array(2), [2], 'float32'));
    expect(flatTarget('test', undefined, targetAndGrad, g32)).not.toBe(targetAndGrad[FLAT]!([[2, ld.dim]]));
    expect(targetAndGrad[FLAT]!([[2, ld.dim + 1]])).toBeUndefined();
    expect(targetAndGrad[FLAT]!([[2, ld.dim], [2, ld.dim]])).toBeUndefined();
  });

  it('rejects a state that is not one [...chains, dim] part, and a transformed kernel', () => {
    const nuts = new NoUTurnSampler({ targetLogProbFn: ld, stepSize: 0.3 });
    expect(() => nuts.bootstrapResults([start, start])).toThrow(/must be one Tensor of shape \[\.\.\.chains, 10\]/);
    expect(() => nuts.bootstrapResults(new Tensor(new Float64Array(9), [9], 'float64'))).toThrow(RangeError);
    expect(() => new TransformedTransitionKernel({ innerKernel: nuts, bijector: new bijectors.Exp() })).toThrow(/already over unconstrained coordinates/);
  });
});
