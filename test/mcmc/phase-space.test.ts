// StepSetup (mcmc/internal/phase-space.ts): the gradient kernels keep their per-step set-up
// between steps, and must still follow every change of step size, inverse mass and state shape
// in the results, exactly as a fresh kernel does.
import { describe, expect, it } from 'vitest';
import { setInverseMassDiag, setStepSize } from '../../mcmc/internal/kernel-results.js';
import { MetropolisAdjustedLangevinAlgorithm } from '../../mcmc/kernels/metropolis-adjusted-langevin-algorithm.js';
import { NoUTurnSampler } from '../../mcmc/kernels/no-u-turn-sampler.js';
import { UncalibratedHamiltonianMonteCarlo } from '../../mcmc/kernels/uncalibrated-hamiltonian-monte-carlo.js';
import type { TransitionKernel } from '../../mcmc/kernel.js';
import { random } from '../../src/index.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { stdNormalGrad } from './conjugate.js';

type Make = (stepSize: number | Tensor) => TransitionKernel<object>;
const kernels: Record<string, Make> = {
  HMC: (stepSize) => new UncalibratedHamiltonianMonteCarlo({ targetLogProbAndGradFn: stdNormalGrad, stepSize, numLeapfrogSteps: 3 }),
  NUTS: (stepSize) => new NoUTurnSampler({ targetLogProbAndGradFn: stdNormalGrad, stepSize, maxTreeDepth: 3 }),
  MALA: (stepSize) => new MetropolisAdjustedLangevinAlgorithm({ targetLogProbAndGradFn: stdNormalGrad, stepSize }),
};
const values = (s: unknown): number[] => Array.from((s as Tensor).data as Float64Array);

describe('gradient kernels follow changed settings in their results', () => {
  for (const [name, make] of Object.entries(kernels)) {
    it(`${name}: each step equals a fresh kernel's step with the same results`, () => {
      const x = tensor([[0.3, -0.2], [1.1, 0.4]]);
      const kernel = make(0.1);
      const r0 = kernel.bootstrapResults(x);
      // The same kernel, stepping again and again with the settings changed in between (numbers,
      // a new Tensor with other values, a mass matrix, and back), against a fresh kernel each time.
      const settings: [number | Tensor, Tensor | undefined][] = [
        [0.1, undefined], [0.1, undefined], [0.4, undefined], [tensor([0.05, 0.3]), undefined], [tensor([0.2, 0.3]), undefined],
        [0.4, tensor([2, 0.5])], [0.4, tensor([0.5, 2])], [0.1, undefined],
      ];
      settings.forEach(([stepSize, inv], i) => {
        const seed = random.key(i);
        const prev = setInverseMassDiag(setStepSize(r0, stepSize), inv === undefined ? undefined : [inv]);
        const [got] = kernel.oneStep(x, prev as never, seed);
        const [want] = make(stepSize).oneStep(x, prev as never, seed);
        expect(values(got)).toEqual(values(want));
      });
      // A state with another number of chains gets its own geometry (and a clear error for results of the old shape).
      const y = tensor([[0.3, -0.2]]);
      const [one] = kernel.oneStep(y, kernel.bootstrapResults(y), random.key(9));
      expect(values(one)).toEqual(values(make(0.1).oneStep(y, make(0.1).bootstrapResults(y), random.key(9))[0]));
      expect(() => kernel.oneStep(y, r0, random.key(9))).toThrow(RangeError);
    });
  }
});
