/**
 * `HamiltonianMonteCarlo` (TFP's `tfp.mcmc.HamiltonianMonteCarlo`): fixed-length HMC, built as
 * `MetropolisHastings(UncalibratedHamiltonianMonteCarlo)`.
 */
import type { KeyArray } from '../../src/random/key-array.js';
import type { State, TransitionKernel } from '../kernel.js';
import { MetropolisHastings, type MetropolisHastingsResults } from './metropolis-hastings.js';
import {
  type HamiltonianMonteCarloOptions, UncalibratedHamiltonianMonteCarlo, type UncalibratedHamiltonianMonteCarloResults,
} from './uncalibrated-hamiltonian-monte-carlo.js';

export type { HamiltonianMonteCarloOptions } from './uncalibrated-hamiltonian-monte-carlo.js';

/** Results of {@link HamiltonianMonteCarlo}: MetropolisHastings results around the HMC proposal's. */
export type HamiltonianMonteCarloResults = MetropolisHastingsResults<UncalibratedHamiltonianMonteCarloResults>;

/**
 * Hamiltonian Monte Carlo (Neal 2011): each step draws a momentum `p = z / √invMass` (`z`
 * standard normal), runs `numLeapfrogSteps` leapfrog steps of size `stepSize`, and accepts the
 * end point with probability `min(1, exp(ΔlogProb + ½Σ invMass·p0² − ½Σ invMass·p1²))`, per
 * chain. Leading state dims that match the log density's shape are independent chains.
 *
 * Seeds, as TFP: MetropolisHastings sanitizes and splits `[proposalSeed, acceptSeed]`; the
 * proposal splits `proposalSeed` into one key per state part for the momenta; the accept test
 * draws one uniform per chain from `acceptSeed`.
 *
 * The step size and inverse mass diagonal live in `acceptedResults` (see `getStepSize`,
 * `setStepSize`, `setInverseMassDiag`), so step-size and mass-matrix adapters can wrap this
 * kernel. A failure of the target in a proposal — it throws (a TypeError, ReferenceError or
 * SyntaxError, a programming error, still propagates) or gives a NaN or infinite log density or
 * gradient — is a rejection, and the run goes on: `proposedResults.hasDivergence` flags it and
 * `proposedResults.rejections` counts it, per chain (one chain's failure rejects only its own
 * proposal; a tensor target that throws for the whole batch rejects every chain's).
 *
 * @param options.targetLogProbFn the target log density (or `targetLogProbAndGradFn` with your own gradients).
 * @param options.stepSize a positive number, a Tensor broadcasting against each state part, or one per part.
 * @param options.numLeapfrogSteps a positive integer.
 * @param options.stateGradientsAreStopped TFP's flag (default false); states are never on a tape here.
 * @param options.inverseMassDiag per state part (default: identity).
 * @throws TypeError/RangeError naming the option for bad options; at bootstrap, a RangeError when
 *   the log density at the initial state is not finite or the chain dims do not match.
 * @example
 * const kernel = new HamiltonianMonteCarlo({
 *   targetLogProbFn: (x) => sum(mul(-0.5, square(x)), -1), stepSize: 0.3, numLeapfrogSteps: 8,
 * });
 * const { allStates, trace } = sampleChain({
 *   numResults: 1000, currentState: zeros([4, 10]), kernel, seed: 42, traceFn: (_, r) => r.isAccepted,
 * });
 * // allStates: Tensor float64 [1000, 4, 10]; trace: Tensor bool [1000, 4]
 */
export class HamiltonianMonteCarlo implements TransitionKernel<HamiltonianMonteCarloResults> {
  readonly isCalibrated = true;
  private readonly impl: MetropolisHastings<UncalibratedHamiltonianMonteCarloResults>;

  constructor(options: HamiltonianMonteCarloOptions) {
    const inner = new UncalibratedHamiltonianMonteCarlo(options);
    this.impl = new MetropolisHastings({ innerKernel: inner });
  }

  /** The constructor options (as checked by the inner kernel). */
  get parameters(): Readonly<HamiltonianMonteCarloOptions> {
    return (this.impl.innerKernel as UncalibratedHamiltonianMonteCarlo).parameters;
  }

  /** The proposal kernel. */
  get innerKernel(): UncalibratedHamiltonianMonteCarlo {
    return this.impl.innerKernel as UncalibratedHamiltonianMonteCarlo;
  }

  bootstrapResults(state: State): HamiltonianMonteCarloResults {
    return this.impl.bootstrapResults(state);
  }

  oneStep(state: State, previousResults: HamiltonianMonteCarloResults, seed: KeyArray): [State, HamiltonianMonteCarloResults] {
    return this.impl.oneStep(state, previousResults, seed);
  }

  copy(overrides: Partial<HamiltonianMonteCarloOptions> = {}): HamiltonianMonteCarlo {
    const inner = this.innerKernel.copy(overrides);
    return new HamiltonianMonteCarlo(inner.parameters);
  }
}
