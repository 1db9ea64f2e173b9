/**
 * `MetropolisAdjustedLangevinAlgorithm` (TFP's `tfp.mcmc.MetropolisAdjustedLangevinAlgorithm`):
 * MALA, built as `MetropolisHastings(UncalibratedLangevin)`.
 */
import type { KeyArray } from '../../src/random/key-array.js';
import type { State, TransitionKernel } from '../kernel.js';
import { MetropolisHastings, type MetropolisHastingsResults } from './metropolis-hastings.js';
import { type LangevinOptions, UncalibratedLangevin, type UncalibratedLangevinResults } from './uncalibrated-langevin.js';

export type { LangevinOptions, VolatilityFn } from './uncalibrated-langevin.js';

/** Results of {@link MetropolisAdjustedLangevinAlgorithm}: MetropolisHastings results around the Langevin proposal's. */
export type MetropolisAdjustedLangevinAlgorithmResults = MetropolisHastingsResults<UncalibratedLangevinResults>;

/**
 * The Metropolis-adjusted Langevin algorithm (Roberts & Tweedie 1996): propose
 * `x′ = x + ½ε(σ²∇log p(x) + ∇σ²) + σ√ε·z` and accept with the Metropolis–Hastings ratio for this
 * asymmetric normal proposal, per chain. As in TFP, `stepSize` ε is the diffusion's time step
 * (the proposal's variance is ε·σ²), not a leapfrog step: ε = h² for a leapfrog step h.
 *
 * Seeds, as TFP: MetropolisHastings splits `[proposalSeed, acceptSeed]`; the proposal splits
 * `proposalSeed` with `splitSeed(seed, { n: parts, salt: 'langevin.one_step' })`, one normal draw
 * per part; the accept test draws one uniform per chain from `acceptSeed`.
 *
 * `volatilityFn` (default σ = 1) is supported when it acts element-wise (σᵢ depends on xᵢ only):
 * the drift's ∇σ² term is the gradient of Σσ², which is the Jacobian's diagonal only then. The
 * step size and inverse mass diagonal (which multiplies σ²) live in `acceptedResults`, so
 * adapters can wrap this kernel. A failure of the target at a proposal — it throws (a TypeError,
 * ReferenceError or SyntaxError, a programming error, still propagates) or gives a NaN or
 * infinite log density or gradient — is a rejection and the run goes on;
 * `proposedResults.rejections` counts it per chain (one chain's failure rejects only its own
 * proposal; a tensor target that throws for the whole batch rejects every chain's).
 *
 * @param options.targetLogProbFn the target log density (or `targetLogProbAndGradFn`).
 * @param options.stepSize a positive number, a Tensor broadcasting against each state part, or one per part.
 * @param options.volatilityFn optional σ(x), per part or shared.
 * @param options.inverseMassDiag optional, per state part (default identity).
 * @throws TypeError/RangeError naming the option for bad options; at bootstrap, a RangeError when
 *   the log density at the initial state is not finite or the chain dims do not match.
 * @example
 * const kernel = new MetropolisAdjustedLangevinAlgorithm({
 *   targetLogProbFn: (x) => sum(mul(-0.5, square(x)), -1), stepSize: 0.5,
 * });
 * const { allStates } = sampleChain({ numResults: 1000, currentState: zeros([4, 2]), kernel, seed: 7 });
 * // allStates: Tensor float64 [1000, 4, 2]
 */
export class MetropolisAdjustedLangevinAlgorithm implements TransitionKernel<MetropolisAdjustedLangevinAlgorithmResults> {
  readonly isCalibrated = true;
  private readonly impl: MetropolisHastings<UncalibratedLangevinResults>;

  constructor(options: LangevinOptions) {
    this.impl = new MetropolisHastings({ innerKernel: new UncalibratedLangevin(options) });
  }

  /** The constructor options (as checked by the inner kernel). */
  get parameters(): Readonly<LangevinOptions> {
    return this.innerKernel.parameters;
  }

  /** The proposal kernel. */
  get innerKernel(): UncalibratedLangevin {
    return this.impl.innerKernel as UncalibratedLangevin;
  }

  bootstrapResults(state: State): MetropolisAdjustedLangevinAlgorithmResults {
    return this.impl.bootstrapResults(state);
  }

  oneStep(state: State, previousResults: MetropolisAdjustedLangevinAlgorithmResults, seed: KeyArray): [State, MetropolisAdjustedLangevinAlgorithmResults] {
    return this.impl.oneStep(state, previousResults, seed);
  }

  copy(overrides: Partial<LangevinOptions> = {}): MetropolisAdjustedLangevinAlgorithm {
    return new MetropolisAdjustedLangevinAlgorithm(this.innerKernel.copy(overrides).parameters);
  }
}
