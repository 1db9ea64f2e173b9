/**
 * `NoUTurnSampler` (TFP's `tfp.mcmc.NoUTurnSampler`): iterative, chain-batched NUTS with
 * multinomial sampling and the generalized U-turn criterion. The trajectory itself is built in
 * `mcmc/nuts/tfp/nuts-tree.ts` over flat Float64Arrays.
 */
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { checkInteger, checkOptions, checkPositiveInteger, fail } from '../../src/checks.js';
import { getModes, type Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { State, TargetLogProbAndGradFn, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import type { InverseMassDiag, StepSize } from '../internal/kernel-results.js';
import { type BatchMetric, checkInverseMassOption, diagonalMetric, identityMetric } from '../internal/metric.js';
import { nutsTrajectory } from '../nuts/tfp/nuts-tree.js';
import { NutsWorkspaces } from '../nuts/tfp/nuts-workspace.js';
import {
  bootstrapPoint, chainBool, chainInt, chainTensor, checkGradientTarget, checkStateShapes, checkStepSizeOption,
  expandStepSize, f64, StepSetup, withTargetOverrides, wrapParts,
} from '../internal/phase-space.js';
import type { Geometry } from '../internal/geometry.js';
import { type ChainFailure, type KernelTarget, StepRejections, stateParts } from '../internal/target.js';

export interface NoUTurnSamplerOptions {
  /** The target log density (one value per chain); gradients by autodiff. Give this or `targetLogProbAndGradFn`. */
  readonly targetLogProbFn?: TargetLogProbFn | FlatTarget;
  /** A target returning `[logProb, gradients per part]`, for hand-written gradients. */
  readonly targetLogProbAndGradFn?: TargetLogProbAndGradFn;
  /** Leapfrog step size: a positive number or Tensor (broadcasting against each state part), or one per part. */
  readonly stepSize: StepSize;
  /** Maximum number of tree doublings, so at most 2^maxTreeDepth leapfrog steps (an integer ≥ 1, default 10). */
  readonly maxTreeDepth?: number;
  /** A leapfrog step whose energy error exceeds this is a divergence and ends the trajectory (default 1000). */
  readonly maxEnergyDiff?: number;
  /** Leapfrog steps per tree leaf (an integer ≥ 1, default 1). */
  readonly unrolledLeapfrogSteps?: number;
  /** Diagonal inverse mass matrix per state part (default: identity). Adapters replace it in the results. */
  readonly inverseMassDiag?: InverseMassDiag;
}

/** Results of {@link NoUTurnSampler} (TFP's `NUTSKernelResults`, plus `inverseMassDiag`). */
export interface NoUTurnSamplerResults {
  readonly targetLogProb: Tensor;
  readonly gradsTargetLogProb: readonly Tensor[];
  /** The step size used (read at the next step, so adapters can change it). */
  readonly stepSize: StepSize;
  /** Per chain, log of the mean over the trajectory's leapfrog steps of min(1, exp(H₀ − H)). */
  readonly logAcceptRatio: Tensor;
  /** Leapfrog steps per chain (int32). */
  readonly leapfrogsTaken: Tensor;
  /** Per chain: the state moved (some subtree's candidate was taken). */
  readonly isAccepted: Tensor;
  /** Per chain: the trajectory was still going after `maxTreeDepth` doublings. */
  readonly reachMaxDepth: Tensor;
  /** Per chain: some leapfrog step's energy error exceeded `maxEnergyDiff` or was NaN. */
  readonly hasDivergence: Tensor;
  /** The chosen point's negative Hamiltonian, log p(x) − ½ Σ invMass·p² (TFP's sign). */
  readonly energy: Tensor;
  readonly inverseMassDiag: InverseMassDiag;
  /**
   * Per chain (int32, not in TFP): 1 when the target failed at a leaf of this trajectory — threw
   * (other than a programming error: TypeError, ReferenceError, SyntaxError propagate) or gave a
   * non-finite log density or gradient entry (`mcmc/internal/rejections.ts`). That leaf is a
   * divergence (`hasDivergence`), as TFP treats a NaN energy, and the chain keeps a point from
   * before it; other chains are unaffected (for a tensor target that throws, every chain's leaf
   * fails). 0 after `bootstrapResults`.
   */
  readonly rejections: Tensor;
  /** Not in TFP: the first failure of each chain counted in `rejections`, with its error or value (and point, for a flat target); `[]` when none. */
  readonly rejectionCauses: readonly ChainFailure[];
  readonly seed: KeyArray;
}

const FN = 'NoUTurnSampler';

/**
 * The No-U-Turn Sampler (Hoffman & Gelman 2014) as TFP implements it: each step draws a momentum
 * `z / √invMass` and doubles a leapfrog trajectory forwards or backwards (a fair coin per chain
 * per doubling) until the generalized U-turn criterion fires across the whole trajectory or
 * inside the newest subtree, a step diverges, or `maxTreeDepth` doublings are done; the next
 * state is drawn from the trajectory by multinomial sampling (progressive within each subtree,
 * biased towards the newest subtree at each doubling). Chains run vectorized: chains that have
 * stopped are masked while the others continue, and their draws are still made.
 *
 * A failure of the target during a trajectory — it throws (a TypeError, ReferenceError or
 * SyntaxError, a programming error, still propagates), or gives a NaN or infinite log density or
 * gradient — is a divergence (`hasDivergence`), never an error; the chain keeps a state from
 * before it, and `rejections` counts it per chain (one chain's failure does not touch another's
 * trajectory; a tensor target that throws for the whole batch fails every chain's leaf).
 *
 * Seeds, as TFP: `sanitizeSeed(seed)`; `[startSeed, loopSeed] = splitSeed(seed)`; momenta from
 * `splitSeed(startSeed, { n: parts + 1 })` (the last key is unused, TFP's slice-sampling seed);
 * each doubling `[dirSeed, subtreeSeed, acceptSeed, nextSeed] = splitSeed(loopSeed, { n: 4 })`,
 * the direction a per-chain uniform integer in {0, 1} from `dirSeed`; each leaf of the subtree
 * `[leafAcceptSeed, next] = splitSeed(subtreeSeed)`. Acceptance uniforms are `log1p(−u)`.
 *
 * @throws TypeError/RangeError for bad options (naming them); at bootstrap, a RangeError when the
 *   log density is not finite or the state's chain dims do not match it; in `oneStep`, a
 *   RangeError naming the expected shape when the state's shape changed.
 * @example
 * const kernel = new NoUTurnSampler({ targetLogProbFn: (x) => sum(mul(-0.5, square(x)), -1), stepSize: 0.5 });
 * const { allStates, trace } = sampleChain({
 *   numResults: 500, currentState: zeros([4, 10]), kernel, seed: 0,
 *   traceFn: (_, r) => ({ divergent: r.hasDivergence, steps: r.leapfrogsTaken }),
 * });
 * // allStates: Tensor float64 [500, 4, 10]
 */
export class NoUTurnSampler implements TransitionKernel<NoUTurnSamplerResults> {
  readonly isCalibrated = true;
  readonly parameters: Readonly<Required<Omit<NoUTurnSamplerOptions, 'targetLogProbFn' | 'targetLogProbAndGradFn' | 'inverseMassDiag'>>
    & Pick<NoUTurnSamplerOptions, 'targetLogProbFn' | 'targetLogProbAndGradFn' | 'inverseMassDiag'>>;
  /** The target, decided once here (a flat target, or the user's tensor functions). */
  private readonly target: KernelTarget;
  /** The geometry, flat target, step sizes and metric, kept while they stay the same. */
  private readonly setup: StepSetup;
  /** The trajectory's buffers, kept between steps (they never change a draw). */
  private readonly workspaces = new NutsWorkspaces();
  /** The global modes when the kernel was built (TFP fixes dtypes at construction). */
  private readonly modes: Modes = getModes();

  constructor(options: NoUTurnSamplerOptions) {
    const o = checkOptions(FN, options, ['targetLogProbFn', 'targetLogProbAndGradFn', 'stepSize', 'maxTreeDepth', 'maxEnergyDiff', 'unrolledLeapfrogSteps', 'inverseMassDiag']);
    this.target = checkGradientTarget(FN, o);
    this.setup = new StepSetup(this.target, (fn, inv, g) => this.makeMetric(fn, inv, g));
    const depth = checkInteger(FN, 'maxTreeDepth', o.maxTreeDepth ?? 10);
    if (depth < 1 || depth > 30) fail('range', FN, 'maxTreeDepth', 'must be an integer in [1, 30]', depth);
    const unrolled = checkPositiveInteger(FN, 'unrolledLeapfrogSteps', o.unrolledLeapfrogSteps ?? 1);
    const maxEnergyDiff = o.maxEnergyDiff ?? 1000;
    if (typeof maxEnergyDiff !== 'number') fail('type', FN, 'maxEnergyDiff', 'must be a number', maxEnergyDiff);
    if (!(maxEnergyDiff > 0)) fail('range', FN, 'maxEnergyDiff', 'must be positive', maxEnergyDiff);
    this.parameters = Object.freeze({
      ...o,
      stepSize: checkStepSizeOption(FN, o.stepSize),
      maxTreeDepth: depth,
      maxEnergyDiff,
      unrolledLeapfrogSteps: unrolled,
      inverseMassDiag: checkInverseMassOption(FN, o.inverseMassDiag),
    });
  }

  bootstrapResults(state: State): NoUTurnSamplerResults {
    const fn = `${FN}.bootstrapResults`;
    const { parts, lp, grads, g } = bootstrapPoint(fn, this.target, state);
    expandStepSize(fn, this.parameters.stepSize, g);
    const metric = diagonalMetric(fn, this.parameters.inverseMassDiag, g);
    const lpData = Float64Array.from(lp.data as ArrayLike<number>);
    // TFP's placeholder energy: a unit momentum in every element.
    const kin = metric.kineticEnergy(parts.map((t) => new Float64Array(t.size).fill(1)));
    return {
      targetLogProb: chainTensor(lpData, g),
      gradsTargetLogProb: grads,
      stepSize: this.parameters.stepSize,
      logAcceptRatio: chainTensor(new Float64Array(g.numChains), g),
      leapfrogsTaken: new Tensor(new Int32Array(g.numChains), g.chainShape, 'int32'),
      isAccepted: chainBool(new Uint8Array(g.numChains), g),
      reachMaxDepth: chainBool(new Uint8Array(g.numChains), g),
      hasDivergence: chainBool(new Uint8Array(g.numChains), g),
      energy: chainTensor(lpData.map((v, c) => v - kin[c]!), g),
      inverseMassDiag: this.parameters.inverseMassDiag,
      rejections: chainInt(new Int32Array(g.numChains), g),
      rejectionCauses: [],
      seed: zerosSeed(),
    };
  }

  oneStep(state: State, previousResults: NoUTurnSamplerResults, seed: KeyArray): [State, NoUTurnSamplerResults] {
    const fn = `${FN}.oneStep`;
    const [parts, rebuild] = stateParts(fn, state);
    const prev = previousResults;
    checkStateShapes(fn, parts, prev.gradsTargetLogProb);
    const { g, target, eps, metric } = this.setup.at(fn, parts, prev);
    const { modes } = this;
    const key = sanitizeSeed(seed);
    const [startSeed, loopSeed] = splitSeed(key) as [KeyArray, KeyArray];
    const p0 = this.drawMomentum(startSeed, metric, modes);
    const start = { x: parts.map(f64), p: p0, grad: prev.gradsTargetLogProb.map(f64), lp: f64(prev.targetLogProb) };
    const rej = new StepRejections(g.numChains);
    const out = nutsTrajectory(target, g, start, eps, metric, loopSeed, this.parameters, modes, this.workspaces, rej);
    const next = wrapParts(out.x, g);
    return [rebuild(next), {
      ...prev,
      targetLogProb: chainTensor(out.lp, g),
      gradsTargetLogProb: wrapParts(out.grad, g),
      logAcceptRatio: chainTensor(out.logAcceptRatio, g),
      leapfrogsTaken: new Tensor(out.leapfrogs, g.chainShape, 'int32'),
      isAccepted: chainBool(out.isAccepted, g),
      reachMaxDepth: chainBool(out.reachMaxDepth, g),
      hasDivergence: chainBool(out.hasDivergence, g),
      energy: chainTensor(out.energy, g),
      rejections: chainInt(rej.count, g),
      rejectionCauses: rej.causes,
      seed: key,
    }];
  }

  /** The metric of `inverseMassDiag` (undefined: the identity). */
  protected makeMetric(fn: string, inverseMassDiag: InverseMassDiag, g: Geometry): BatchMetric {
    return inverseMassDiag === undefined ? identityMetric(g) : diagonalMetric(fn, inverseMassDiag, g);
  }

  /** The trajectory's momenta: part k standard normals from key k of `splitSeed(startSeed, { n: parts + 1 })`, scaled by the metric. */
  protected drawMomentum(startSeed: KeyArray, metric: BatchMetric, modes: Modes): Float64Array[] {
    return metric.sampleMomentum(splitSeed(startSeed, { n: metric.g.partShapes.length + 1 }), modes);
  }

  copy(overrides: Partial<NoUTurnSamplerOptions> = {}): NoUTurnSampler {
    return new NoUTurnSampler(withTargetOverrides(this.parameters, overrides));
  }
}
