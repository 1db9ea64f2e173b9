import { describe, expect, it } from 'vitest';
import { compileLogDensity } from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { nonCentered, y } from '../../examples/eight-schools.js';
import {
  HamiltonianMonteCarlo, MetropolisAdjustedLangevinAlgorithm, NoUTurnSampler, RandomWalkMetropolis, sampleChain, TransformedTransitionKernel,
} from '../../mcmc/index.js';
import { bijectors } from '../../distributions/index.js';
import { reshape, slice, stack, Tensor, type Tensor as T } from '../../src/index.js';
import { batchTarget, checkGradientTarget } from '../../mcmc/internal/phase-space.js';
import { geometryOf } from '../../mcmc/internal/geometry.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';

const ld = compileLogDensity(nonCentered, { pins: { y } });
const m = flatModel('test', nonCentered.experimentalPin({ y }));
/** The same density on the tape, over one part [chains, dim]: each chain's row split into the model's flat parts (the model is written for one draw). */
const tapeTarget = (x: T): T => stack(Array.from({ length: x.shape[0]! }, (_, c) => m.target(...ld.params.map((p) => reshape(slice(x, [c, p.offset], [1, p.size]), [p.size])))));
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

  it('the kernels call the compiled code chain by chain on their own arrays, with the same bits, for any chain shape, part split and dtype', () => {
    const kt = checkGradientTarget('test', { targetLogProbFn: ld });
    expect(kt.flat).toBe(ld);
    const want = new Float64Array(ld.dim);
    for (const chains of [[], [1], [3], [2, 2]]) {
      const n = chains.reduce((a, b) => a * b, 1);
      const x = Float64Array.from({ length: n * ld.dim }, (_, i) => 0.3 * Math.cos(1.7 * i));
      const lpShape = new Tensor(new Float64Array(n), chains, 'float64');
      // One part [...chains, dim], or the coordinates split over two parts [...chains, 3] and [...chains, dim − 3].
      const split = (k: number) => Float64Array.from({ length: n * k }, (_, i) => 0);
      const a = split(3), b = split(ld.dim - 3);
      for (let c = 0; c < n; c++) for (let i = 0; i < ld.dim; i++) (i < 3 ? a : b)[i < 3 ? c * 3 + i : c * (ld.dim - 3) + i - 3] = x[c * ld.dim + i]!;
      for (const dtype of ['float64', 'float32'] as const) {
        const arr = (v: Float64Array) => (dtype === 'float64' ? v : Float32Array.from(v));
        const one = batchTarget('test', kt, geometryOf('test', [new Tensor(arr(x), [...chains, ld.dim], dtype)], lpShape));
        const two = batchTarget('test', kt, geometryOf('test', [new Tensor(arr(a), [...chains, 3], dtype), new Tensor(arr(b), [...chains, ld.dim - 3], dtype)], lpShape));
        const r1 = one([x]), r2 = two([a, b]);
        for (let c = 0; c < n; c++) {
          const lp = ld.logDensityGradient(x.subarray(c * ld.dim, (c + 1) * ld.dim), want);
          expect(Object.is(r1.lp[c], lp) && Object.is(r2.lp[c], lp)).toBe(true);
          expect(Array.from(r1.grad[0]!.subarray(c * ld.dim, (c + 1) * ld.dim))).toEqual(Array.from(want));
          expect([...r2.grad[0]!.subarray(c * 3, (c + 1) * 3), ...r2.grad[1]!.subarray(c * (ld.dim - 3), (c + 1) * (ld.dim - 3))]).toEqual(Array.from(want));
        }
        expect(r1.grad[0]).not.toBe(x);
      }
    }
  });

  it('takes any object with the flat-target interface (a user\'s own, as BridgeStan\'s)', () => {
    // A standard normal in 2 dimensions, written by hand.
    const mine: FlatTarget = {
      dim: 2, paramNames: ['a', 'b'],
      logDensity: (x) => -0.5 * (x[0]! * x[0]! + x[1]! * x[1]!),
      logDensityGradient: (x, g) => { g[0] = -x[0]!; g[1] = -x[1]!; return -0.5 * (x[0]! * x[0]! + x[1]! * x[1]!); },
    };
    const tape = (x: T) => new Tensor(Float64Array.from({ length: x.size / 2 }, (_, c) => -0.5 * ((x.data[2 * c] as number) ** 2 + (x.data[2 * c + 1] as number) ** 2)), x.shape.slice(0, -1), 'float64');
    const hand = (x: T) => [tape(x), [new Tensor(Float64Array.from(x.data as Float64Array, (v) => -v), x.shape, 'float64')]] as const;
    const s0 = new Tensor(Float64Array.from([0.5, -1, 2, 0.1]), [2, 2], 'float64');
    const run = (k: NoUTurnSampler) => sampleChain({ numResults: 20, currentState: s0, kernel: k, seed: 5, traceFn: () => ({}) }).allStates as T;
    const a = run(new NoUTurnSampler({ targetLogProbFn: mine, stepSize: 0.4 }));
    const b = run(new NoUTurnSampler({ targetLogProbAndGradFn: hand, stepSize: 0.4 }));
    expect(Array.from(a.data as Float64Array)).toEqual(Array.from(b.data as Float64Array));
  });

  it('rejects a state that is not one [...chains, dim] part, and a transformed kernel', () => {
    const nuts = new NoUTurnSampler({ targetLogProbFn: ld, stepSize: 0.3 });
    expect(() => nuts.bootstrapResults([start, start])).toThrow(/must be parts of shape \[\.\.\.chains, n_k\] with the same chain dims and Σ n_k = dim = 10/);
    expect(() => nuts.bootstrapResults(new Tensor(new Float64Array(9), [9], 'float64'))).toThrow(RangeError);
    expect(() => new TransformedTransitionKernel({ innerKernel: nuts, bijector: new bijectors.Exp() })).toThrow(/a flat target \(a compiled log density\).*already over unconstrained coordinates/);
  });
});
