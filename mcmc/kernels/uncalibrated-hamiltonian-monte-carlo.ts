/**
 * `UncalibratedHamiltonianMonteCarlo` (TFP's `tfp.mcmc.UncalibratedHamiltonianMonteCarlo`): the
 * HMC proposal alone, a fixed number of leapfrog steps from a fresh momentum, without the
 * Metropolis correction. `HamiltonianMonteCarlo` wraps it in `MetropolisHastings`.
 */
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { checkBoolean, checkOptions, checkPositiveInteger } from '../../src/checks.js';
import { getModes, type Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { State, TargetLogProbAndGradFn, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import type { InverseMassDiag, StepSize } from '../internal/kernel-results.js';
import { FreshArrays, inOneBuffer, leapfrog } from '../internal/leapfrog.js';
import { checkInverseMassOption, diagonalMetric } from '../internal/metric.js';
import {
  bootstrapPoint, chainBool, chainInt, chainTensor, checkGradientTarget, checkStateShapes, checkStepSizeOption,
  expandStepSize, f64, StepSetup, withTargetOverrides, wrap, wrapParts,
} from '../internal/phase-space.js';
import { type KernelTarget, StepRejections, stateParts } from '../internal/target.js';

export interface HamiltonianMonteCarloOptions {
  /** The target log density (one value per chain); its gradient comes from autodiff. Give this or `targetLogProbAndGradFn`. */
  readonly targetLogProbFn?: TargetLogProbFn | FlatTarget;
  /** A target returning `[logProb, gradients per part]`, for hand-written gradients. */
  readonly targetLogProbAndGradFn?: TargetLogProbAndGradFn;
  /** Leapfrog step size: a positive number or Tensor (broadcasting against each state part), or one per part. */
  readonly stepSize: StepSize;
  /** Leapfrog steps per proposal (a positive integer). */
  readonly numLeapfrogSteps: number;
  /** TFP's flag to stop gradients through the proposed state (default false). States here are never on a tape, so it changes nothing. */
  readonly stateGradientsAreStopped?: boolean;
  /** Diagonal inverse mass matrix per state part (default: identity). Adapters replace it in the results. */
  readonly inverseMassDiag?: InverseMassDiag;
}

/** Results of {@link UncalibratedHamiltonianMonteCarlo} (TFP's `UncalibratedHamiltonianMonteCarloKernelResults`). */
export interface UncalibratedHamiltonianMonteCarloResults {
  /** `½ Σ invMass·p0² − ½ Σ invMass·p1²` per chain (the kinetic-energy change, with sign as TFP). */
  readonly logAcceptanceCorrection: Tensor;
  /** Log density at the proposed state, per chain. */
  readonly targetLogProb: Tensor;
  /** Its gradient per state part. */
  readonly gradsTargetLogProb: readonly Tensor[];
  readonly initialMomentum: readonly Tensor[];
  readonly finalMomentum: readonly Tensor[];
  /** The step size used (read at the next step, so adapters can change it). */
  readonly stepSize: StepSize;
  readonly numLeapfrogSteps: number;
  readonly inverseMassDiag: InverseMassDiag;
  /**
   * Per chain: the proposal's energy change is not finite (a NaN or infinite log density or
   * gradient) or exceeds 1000 (NUTS's default `maxEnergyDiff`). Read it from
   * `proposedResults` under MetropolisHastings.
   */
  readonly hasDivergence: Tensor;
  /**
   * Per chain (int32, not in TFP): 1 when the target failed during this proposal's trajectory —
   * threw (other than a programming error: TypeError, ReferenceError, SyntaxError propagate) or
   * gave a non-finite log density or gradient entry at one of its points (`mcmc/internal/rejections.ts`).
   * The proposal then has log density −∞ (rejected under MetropolisHastings) and `hasDivergence`;
   * other chains are unaffected (for a tensor target that throws, every chain's proposal fails).
   * Read it from `proposedResults` under MetropolisHastings; 0 after `bootstrapResults`.
   */
  readonly rejections: Tensor;
  readonly seed: KeyArray;
}

/** The divergence threshold on the energy error (NUTS's default `maxEnergyDiff`). */
const MAX_ENERGY_DIFF = 1000;

const FN = 'UncalibratedHamiltonianMonteCarlo';

/**
 * Proposes a state by `numLeapfrogSteps` leapfrog steps of size `stepSize` from the current
 * state and a momentum `p = z / √invMass`, `z` standard normal. Not calibrated on its own: wrap it
 * in `MetropolisHastings` (which `HamiltonianMonteCarlo` does).
 *
 * Seeds, as TFP: `sanitizeSeed(seed)`, then `splitSeed(seed, { n: number of parts })`, one
 * standard-normal momentum draw of each part's shape and dtype per key.
 *
 * Leading state dims that match the log density's shape are independent chains; kinetic
 * energies are summed over the other dims. The step size and inverse mass diagonal are read
 * from the previous results (`bootstrapResults` takes them from the options).
 *
 * @throws TypeError/RangeError for bad options (naming them); at bootstrap, a RangeError when the
 *   log density is not finite or the state's chain dims do not match it; in `oneStep`, a
 *   RangeError naming the expected shape when the state's shape changed.
 * @example
 * const kernel = new MetropolisHastings({ innerKernel: new UncalibratedHamiltonianMonteCarlo({
 *   targetLogProbFn: (x) => sum(mul(-0.5, square(x)), -1), stepSize: 0.3, numLeapfrogSteps: 5 }) });
 * const { allStates } = sampleChain({ numResults: 100, currentState: zeros([4, 2]), kernel, seed: 0 });
 * // allStates: Tensor float64 [100, 4, 2]
 */
export class UncalibratedHamiltonianMonteCarlo implements TransitionKernel<UncalibratedHamiltonianMonteCarloResults> {
  readonly isCalibrated = false;
  readonly parameters: Readonly<HamiltonianMonteCarloOptions>;
  /** The target, decided once here (a flat target, or the user's tensor functions). */
  private readonly target: KernelTarget;
  /** The global modes when the kernel was built (TFP fixes dtypes at construction). */
  private readonly modes: Modes = getModes();
  /** The leapfrog steps' position (and compiled gradient) arrays, carved from shared chunks (the results get copies). */
  private readonly fresh = new FreshArrays();
  /** The geometry, flat target, step sizes and metric, kept while they stay the same. */
  private readonly setup: StepSetup;

  constructor(options: HamiltonianMonteCarloOptions) {
    const o = checkOptions(FN, options, ['targetLogProbFn', 'targetLogProbAndGradFn', 'stepSize', 'numLeapfrogSteps', 'stateGradientsAreStopped', 'inverseMassDiag']);
    this.target = checkGradientTarget(FN, o);
    this.setup = new StepSetup(this.target, diagonalMetric);
    const n = checkPositiveInteger(FN, 'numLeapfrogSteps', o.numLeapfrogSteps);
    this.parameters = Object.freeze({
      ...o,
      stepSize: checkStepSizeOption(FN, o.stepSize),
      numLeapfrogSteps: n,
      stateGradientsAreStopped: checkBoolean(FN, 'stateGradientsAreStopped', o.stateGradientsAreStopped ?? false),
      inverseMassDiag: checkInverseMassOption(FN, o.inverseMassDiag),
    });
  }

  bootstrapResults(state: State): UncalibratedHamiltonianMonteCarloResults {
    const fn = `${FN}.bootstrapResults`;
    const { parts, lp, grads, g } = bootstrapPoint(fn, this.target, state);
    expandStepSize(fn, this.parameters.stepSize, g);
    diagonalMetric(fn, this.parameters.inverseMassDiag, g);   // checks inverseMassDiag against the state
    const zeros = parts.map((t) => wrap(new Float64Array(t.size), t.shape, t.dtype as 'float64'));
    return {
      logAcceptanceCorrection: chainTensor(new Float64Array(g.numChains), g),
      targetLogProb: chainTensor(Float64Array.from(lp.data as ArrayLike<number>), g),
      gradsTargetLogProb: grads,
      initialMomentum: zeros,
      finalMomentum: zeros,
      stepSize: this.parameters.stepSize,
      numLeapfrogSteps: this.parameters.numLeapfrogSteps,
      inverseMassDiag: this.parameters.inverseMassDiag,
      hasDivergence: chainBool(new Uint8Array(g.numChains), g),
      rejections: chainInt(new Int32Array(g.numChains), g),
      seed: zerosSeed(),
    };
  }

  oneStep(state: State, previousResults: UncalibratedHamiltonianMonteCarloResults, seed: KeyArray): [State, UncalibratedHamiltonianMonteCarloResults] {
    const fn = `${FN}.oneStep`;
    const [parts, rebuild] = stateParts(fn, state);
    const prev = previousResults;
    checkStateShapes(fn, parts, prev.gradsTargetLogProb);
    const { g, target, eps, metric } = this.setup.at(fn, parts, prev);
    const { modes } = this;
    const key = sanitizeSeed(seed);
    const keys = splitSeed(key, { n: parts.length });
    const numSteps = prev.numLeapfrogSteps;
    const p0 = metric.sampleMomentum(keys, modes);
    const lp0 = f64(prev.targetLogProb);
    const start = { x: parts.map(f64), p: p0, grad: prev.gradsTargetLogProb.map(f64), lp: lp0 };
    // A chain whose target fails at any point of the trajectory has its proposal rejected: the
    // integration goes on (its failing points read −∞ with a zero gradient) and its end reads −∞.
    const rej = new StepRejections(g.numChains);
    const end = leapfrog(rej.track(target), start, eps, metric, numSteps, g, undefined, this.fresh.take);
    const n = end.x.length, kept = inOneBuffer([...end.x, ...end.grad, end.lp]);
    const lp1 = kept[2 * n]!;
    const k0 = metric.kineticEnergy(p0), k1 = metric.kineticEnergy(end.p);
    const correction = new Float64Array(g.numChains);
    const divergent = new Uint8Array(g.numChains);
    for (let c = 0; c < g.numChains; c++) {
      if (rej.count[c]) lp1[c] = -Infinity;
      correction[c] = k0[c]! - k1[c]!;
      const energyError = (lp0[c]! - k0[c]!) - (lp1[c]! - k1[c]!);
      divergent[c] = Number.isFinite(energyError) && energyError <= MAX_ENERGY_DIFF ? 0 : 1;
    }
    const next = wrapParts(kept.slice(0, n), g);
    return [rebuild(next), {
      ...prev,
      logAcceptanceCorrection: chainTensor(correction, g),
      targetLogProb: chainTensor(lp1, g),
      gradsTargetLogProb: wrapParts(kept.slice(n, 2 * n), g),
      initialMomentum: wrapParts(p0, g),
      finalMomentum: wrapParts(end.p, g),
      hasDivergence: chainBool(divergent, g),
      rejections: chainInt(rej.count, g),
      seed: key,
    }];
  }

  copy(overrides: Partial<HamiltonianMonteCarloOptions> = {}): UncalibratedHamiltonianMonteCarlo {
    return new UncalibratedHamiltonianMonteCarlo(withTargetOverrides(this.parameters, overrides));
  }
}
