/**
 * `windowedAdaptiveNuts` (TFP's `tfp.experimental.mcmc.windowed_adaptive_nuts`): NUTS on a joint
 * distribution's unconstrained space with Stan-style windowed adaptation of the step size and a
 * diagonal mass matrix, returning draws in the model's structure and an ArviZ-style trace.
 */
import { checkBoolean, checkFinite, checkFunction, checkNonNegativeInteger, checkOneOf, checkOptions, fail } from '../src/checks.js';
import { detExp, detLog2, detPow } from '../src/math/index.js';
import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed, splitSeed, type Seed } from '../src/samplers/seeds.js';
import { ones, zeros } from '../src/tensor/ops/create.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { DefaultJointBijector } from '../distributions/joint/default-joint-bijector.js';
import { JointDistribution } from '../distributions/joint/joint-distribution.js';
import { compiledTargetFn, compileTarget, flatConstrain, flatLogDensity, pinModel } from '../distributions/compile-log-density.js';
import { asTensor } from '../src/tensor/core.js';
import { flatModel, type FlatModel } from '../distributions/joint/flat-model.js';
import { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import { isPlainObject, type PartialValues, type Struct, type StructKind } from '../distributions/joint/values.js';
import type { State } from './kernel.js';
import { DiagonalMassMatrixAdaptation } from './kernels/diagonal-mass-matrix-adaptation.js';
import { DualAveragingStepSizeAdaptation, type DualAveragingStepSizeAdaptationOptions } from './kernels/dual-averaging-step-size-adaptation.js';
import type { NoUTurnSamplerResults } from './kernels/no-u-turn-sampler.js';
import { PreconditionedNoUTurnSampler } from './kernels/preconditioned-no-u-turn-sampler.js';
import { reduceLogHarmonicMeanExp } from './internal/log-mean-exp.js';
import { runningVarianceFromStats } from './internal/running-variance.js';
import type { Trace } from './internal/stack.js';
import { WindowedAdaptation, type WindowedAdaptationResults } from './internal/windowed-adaptation.js';
import { fromOrder, initialState, orderedTarget, tfpPartOrder, toOrder } from './internal/windowed-setup.js';
import { transitionsFor, type PerChainRun } from './internal/per-chain.js';
import { runChainsOnCores, type ParallelInfo } from './parallel/chains-on-cores.js';
import { STAN_DUAL_AVERAGING } from './internal/stan-warmup.js';
import { getModes } from '../src/config.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { AbortError } from './parallel/abort-error.js';
import type { ChainsProgress } from './parallel/sample-chains.js';
import { addDivergencesPerChain, sampleChain, sampleChainObserved, type PartialChain } from './sample-chain.js';
import { innermostWith } from './internal/kernel-results.js';
import { computeDeterministics } from './predictive.js';

/**
 * A custom trace function: TFP's `(state, bijector, isAdapting, nutsResults)`; `state` is the
 * unconstrained, flattened parts `[C, n_j]` in the pinned model's order (`unpinnedNames`), whatever
 * order the pooled sampler keeps them in (TFP's, see `adaptation`).
 */
export type WindowedTraceFn = (state: readonly Tensor[], bijector: DefaultJointBijector<StructKind>, isAdapting: boolean, results: NoUTurnSamplerResults) => Trace;

export interface WindowedAdaptiveNutsOptions {
  /** Independent chains (default 4; TFP's default is 64). */
  readonly nChains?: number;
  /**
   * Warm-up steps: default 1000 with per-chain adaptation (Stan's default, in Stan's windows),
   * 500 pooled (TFP's default, in TFP's windows, see `windowSizes`). `stochax sample` uses the
   * same defaults.
   */
  readonly numAdaptationSteps?: number;
  /** Draws kept after warm-up (default 1000). */
  readonly nDraws?: number;
  /**
   * Thinning: transitions skipped between kept draws after warm-up (default 0), as `sampleChain`'s
   * option; warm-up draws are never thinned, so it needs `discardTuning` (the default).
   */
  readonly numStepsBetweenResults?: number;
  /** Any seed `sanitizeSeed` accepts; split into `[setupSeed, sampleSeed]`. */
  readonly seed?: Seed;
  /** Values for observed nodes (passed to `model.experimentalPin`). */
  readonly pins?: PartialValues;
  /** Initial leapfrog step size. Per-chain: one number (default 1, Stan's), refined by Stan's heuristic. Pooled: default `0.5 · D^(−1/4)` (D the unconstrained dimension), a number or one per unpinned node. */
  readonly initStepSize?: number | readonly number[] | Readonly<Record<string, number>>;
  /** Dual averaging's target acceptance probability (default 0.8 per-chain, as Stan; 0.85 pooled, as TFP's windowed sampler). */
  readonly targetAcceptProb?: number;
  /** Further `DualAveragingStepSizeAdaptation` options (`explorationShrinkage`, `stepCountSmoothing`, `decayRate`, `reduceFn`, `shrinkageTarget`). */
  readonly dualAveraging?: Readonly<Record<string, unknown>>;
  /** NUTS's maximum number of doublings (default 10). */
  readonly maxTreeDepth?: number;
  /** Energy error that counts as a divergence (default 1000 per-chain, as Stan; 500 pooled, as TFP's windowed sampler). */
  readonly maxEnergyDiff?: number;
  /** Drop the warm-up draws and trace (default true). */
  readonly discardTuning?: boolean;
  /** Starting values (constrained, structured like the unpinned nodes, each `[nChains, ...event]`) instead of the random initialization. */
  readonly currentState?: PartialValues;
  /** What to record per draw (default: the ArviZ-style statistics of {@link WindowedTrace}). */
  readonly traceFn?: WindowedTraceFn;
  /**
   * Called with one record per chain (`chain` 0 … nChains − 1, that chain's divergences so far)
   * after the first step, the last step, and otherwise at most once every `progressInterval` ms;
   * `phase` is `'warmup'` during the `numAdaptationSteps` adaptation steps. Does not change any draw.
   */
  readonly onProgress?: (progress: WindowedProgress) => void;
  /** Least time between two rounds of `onProgress` calls, in ms (default 100; 0 reports every step). */
  readonly progressInterval?: number;
  /**
   * Run the log density as compiled JavaScript (default true): traced once, then value and
   * gradient without the tape, with the tape's bits. `false` keeps the tape (for models that
   * cannot be traced, and for comparison).
   */
  readonly compile?: boolean;
  /** Stops sampling between steps: the call throws an {@link AbortError} whose `partial` is a {@link WindowedPartial}. */
  readonly signal?: AbortSignal;
  /**
   * `'per-chain'` (the default; Stan's way): every chain is an independent
   * computation with its own key (`foldIn(seed, c)`), its own warm-up (dual averaging to
   * `targetAcceptProb` 0.8 unless given, a diagonal metric from Stan's 75 / 25, 50, 100, … / 50
   * windows, Stan's step-size heuristic after each window) and Stan's NUTS (multinomial
   * sampling, the U-turn criterion also checked across subtree seams, divergence at an energy
   * error of `maxEnergyDiff` = 1000 unless given), so no chain waits for another's tree and
   * chain c's draws do not depend on which or how many chains run. The model is traced for one
   * draw (no chain axis), and each draw is mapped to constrained space on its own. Not with
   * `traceFn`, per-node step sizes, `reduceFn` or `shrinkageTarget`. `'pooled'` (TFP's
   * `windowed_adaptive_nuts`, tested against TFP on JAX's runs; see below): the chains run as one
   * batch in lockstep, sharing one adapted step size; the model sees a chains axis on every latent.
   */
  readonly adaptation?: 'pooled' | 'per-chain';
  /**
   * With `adaptation: 'per-chain'`: `'diagonal'` (default) adapts one variance per coordinate;
   * `'dense'` (Stan's `dense_e`) the full covariance of the warm-up windows (shrunk towards
   * 1e-3·I as Stan does), for posteriors whose coordinates are strongly correlated, at O(D²) per
   * leapfrog step.
   */
  readonly metric?: 'diagonal' | 'dense';
  /** With `adaptation: 'per-chain'`: run only chain `chainIndex` of `nChains` (the result has one chain), with exactly the draws it has among all of them. */
  readonly chainIndex?: number;
  /**
   * With `adaptation: 'per-chain'`: threads to run the chains on (default `min(nChains,
   * availableParallelism())` in Node; 1 in browsers, whose main thread may not block). The call
   * stays synchronous and the draws are the same bits for any value; `cores: 1` runs in process.
   * Runs too short to pay for worker start-up, and models whose compiled density cannot be sent
   * to a worker, run in process: the result's `parallel` says so (see `mcmc/parallel/chains-on-cores.ts`).
   */
  readonly cores?: number;
}

/**
 * One chain's progress, as `windowedAdaptiveNuts`' `onProgress` reports it (the fields of
 * `sampleChains`' reports): `step` counts kernel steps taken so far (1 … total), the same for
 * every chain (they run vectorized); `total` is `numAdaptationSteps + nDraws`; `divergences` are
 * this chain's divergent transitions after warm-up so far (what `summary(draws, { divergences:
 * trace.diverging })` counts), `warmupDivergences` those during warm-up, counted apart.
 */
export interface WindowedProgress extends ChainsProgress {}

/** What an aborted `windowedAdaptiveNuts` completed: the `partial` of its {@link AbortError}. */
export interface WindowedPartial<K extends StructKind = StructKind> {
  /** Draws recorded before the abort (warm-up draws count only with `discardTuning: false`). */
  readonly numResults: number;
  /** Those draws in constrained space, structured like the unpinned nodes (undefined when none). */
  readonly draws: Struct<K, Tensor> | undefined;
  /** Their stacked trace (undefined when none). */
  readonly trace: WindowedTrace | Trace | undefined;
  /** `sampleChain`'s partial (unconstrained, flattened state; kernel results and seed to resume); undefined with `adaptation: 'per-chain'`. */
  readonly chain: PartialChain<object> | undefined;
}

/** The default trace: ArviZ's `sample_stats`, each `[nDraws, nChains]`. */
// A type alias (not an interface) so it is assignable to `Trace`.
export type WindowedTrace = {
  readonly stepSize: Tensor;
  /** True for warm-up draws (only present with `discardTuning: false` in practice). */
  readonly tune: Tensor;
  /** Leapfrog steps taken (ArviZ's `n_steps`). */
  readonly nSteps: Tensor;
  /** Tree depth, ⌈log₂(nSteps + 1)⌉ (ArviZ's `tree_depth`). */
  readonly treeDepth: Tensor;
  readonly diverging: Tensor;
  /** min(1, exp(logAcceptRatio)): the mean acceptance over the trajectory. */
  readonly acceptRatio: Tensor;
  /** The Hamiltonian at the draw (ArviZ's `energy`, −NUTS `energy`), for E-BFMI. */
  readonly energy: Tensor;
  readonly targetLogProb: Tensor;
  readonly isAccepted: Tensor;
};

export interface WindowedAdaptiveNutsResult<K extends StructKind, T = WindowedTrace | Trace> {
  /** Draws in constrained space, structured like the unpinned nodes, each `[nDraws, nChains, ...event]`. */
  readonly draws: Struct<K, Tensor>;
  /** The default {@link WindowedTrace}, or `traceFn`'s records stacked along a leading draws axis. */
  readonly trace: T;
  /**
   * The model's derived values (`deterministic(...)` entries or yields), by name, each
   * `[nDraws, nChains, ...shape]`: computed from each draw and the pins after sampling (they do
   * not change the draws). Present only when the model has derived values.
   */
  readonly deterministics?: Record<string, Tensor>;
  /** Per-chain runs: the threads that ran the chains, and why not more when fewer than asked or than the default. */
  readonly parallel?: ParallelInfo;
}

const FN = 'windowedAdaptiveNuts';

type Results = WindowedAdaptationResults<NoUTurnSamplerResults>;

/**
 * Samples a joint distribution with NUTS after windowed warm-up.
 *
 * By default (`adaptation: 'per-chain'`) each chain runs on its own, as Stan runs it: chain c's
 * key is `foldIn(sanitizeSeed(seed), c)`; it starts at uniform(−2, 2) in unconstrained space
 * (retried up to 50 times until the log density is finite); its step size starts at
 * `initStepSize` (1) and Stan's heuristic; it adapts its own step size (dual averaging to 0.8)
 * and diagonal metric in Stan's windows (75 / 25, 50, 100, … / 50 steps of 1000, proportionally
 * fewer for short warm-ups); its transitions are Stan's NUTS over the compiled log density
 * (`compileLogDensity`: the model is traced for one draw, so callables see no chains axis). The
 * chains take turns one transition at a time; none waits for another's tree, and chain c's draws
 * are the same whichever and however many chains run (`chainIndex` runs one alone).
 *
 * With `adaptation: 'pooled'` it follows TFP's `windowed_adaptive_nuts` (TFP on JAX's runs, warm-up
 * included, are a known-answer test: test/fixtures/tfp-jax/windowed.py), as its code does:
 *
 * 1. `[setupSeed, sampleSeed] = splitSeed(sanitizeSeed(seed))`;
 * 2. pin the observed nodes; map the unpinned nodes to unconstrained space with the model's
 *    default joint bijector and flatten each to `[nChains, n_j]`;
 * 3. start each chain at uniform(−2, 2) in unconstrained space, retrying (up to 50 draws, with
 *    `setupSeed`) until the log density is finite;
 * 4. target `lp(f(u)) + log|det ∂f/∂u|`, initial step size `0.5·D^(−1/4)`;
 * 5. kernel `WindowedAdaptation(DiagonalMassMatrixAdaptation(DualAveragingStepSizeAdaptation(
 *    PreconditionedNoUTurnSampler)))`: NUTS with TFP's momentum distribution (its own momentum
 *    keys, kinetic energy and leapfrog; identity until the first slow window ends); dual averaging
 *    with target 0.85, chains reduced with `reduceLogHarmonicMeanExp`, its numeric parameters
 *    (target, γ = 0.05, t₀ = 10, κ = 0.75, given or not) rounded to float32 as TFP's kernel
 *    converts Python floats; one mass matrix per chain, estimated from an empty running variance;
 *    windows 3s / s, 2s, 4s, 8s / rest with s = ⌊numAdaptationSteps/20⌋: one dual-averaging run
 *    over the first fast and first slow window (3s + s steps), restarted (from the current step
 *    size; shrinkage target 10× it unless given) at the other slow windows and the last fast window; the
 *    variance estimate starts with the first slow window and restarts at each later one, and
 *    becomes the inverse mass matrix at the end of each slow window (kept through the last fast
 *    window);
 * 6. `sampleChain(nDraws, burn-in numAdaptationSteps, seed: sampleSeed)`; draws mapped back to
 *    constrained space and the model's structure.
 *
 * The draws equal TFP's up to the last bits of a few operations (XLA's fused multiply-adds, log
 * and exp, the model's order of summation), which NUTS amplifies over many transitions; every
 * discrete decision is TFP's. One deliberate difference: a slow window in which a chain's
 * coordinate never moved (always for s = 1, i.e. 20 ≤ numAdaptationSteps < 40) gives a zero
 * variance, which stochax replaces by 1, where TFP makes it a zero momentum precision and that
 * chain diverges at every later step.
 *
 * `summary(result.draws, { divergences: result.trace.diverging })` prints the usual table. A
 * model with derived values (`deterministic`) also returns them, per draw, as `deterministics`
 * (`summary({ ...draws, ...deterministics })` summarises both).
 *
 * @throws TypeError/RangeError for bad options (naming them), pins naming unknown nodes, a model
 *   whose unpinned nodes have batch dims, or (naming the model) when some chain's log density is
 *   not finite at any of 50 initial points; an {@link AbortError} (partial: {@link WindowedPartial})
 *   when `signal` is aborted.
 * @example
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 5 }),
 *   tau: new HalfCauchy({ loc: 0, scale: 5 }),
 *   thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
 *   y: (mu, tau, thetaTilde) => new Independent({ distribution: new Normal({
 *     loc: add(mu, mul(tau, thetaTilde)), scale: sigma }), reinterpretedBatchNdims: 1 }),   // one draw: mu, tau scalars
 * });
 * const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * // draws.mu: Tensor [1000, 4]; draws.thetaTilde: Tensor [1000, 4, 8]; trace.diverging: Tensor bool [1000, 4]
 * console.log(String(summary(draws, { divergences: trace.diverging })));
 * windowedAdaptiveNuts(model, { pins: { y }, seed: 0, chainIndex: 2 });   // chain 2 alone: draws [1000, 1]
 */
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options?: WindowedAdaptiveNutsOptions & { readonly traceFn?: undefined },
): WindowedAdaptiveNutsResult<K, WindowedTrace>;
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: WindowedAdaptiveNutsOptions,
): WindowedAdaptiveNutsResult<K>;
export function windowedAdaptiveNuts<K extends StructKind>(
  model: JointDistribution<K> | JointDistributionPinned<K>, options: WindowedAdaptiveNutsOptions = {},
): WindowedAdaptiveNutsResult<K> {
  const o = checkOptions(FN, options, ['nChains', 'numAdaptationSteps', 'nDraws', 'numStepsBetweenResults', 'seed', 'pins', 'initStepSize', 'targetAcceptProb', 'dualAveraging',
    'maxTreeDepth', 'maxEnergyDiff', 'discardTuning', 'currentState', 'traceFn', 'onProgress', 'progressInterval', 'compile', 'signal', 'adaptation', 'metric', 'chainIndex', 'cores']);
  const nChains = checkNonNegativeInteger(FN, 'nChains', o.nChains ?? 4);
  if (nChains < 1) fail('range', FN, 'nChains', 'must be at least 1', nChains);
  const nDraws = checkNonNegativeInteger(FN, 'nDraws', o.nDraws ?? 1000);
  if (nDraws < 1) fail('range', FN, 'nDraws', 'must be at least 1', nDraws);
  const discardTuning = checkBoolean(FN, 'discardTuning', o.discardTuning ?? true);
  const thin = checkNonNegativeInteger(FN, 'numStepsBetweenResults', o.numStepsBetweenResults ?? 0);
  if (thin > 0 && !discardTuning) fail('range', FN, 'numStepsBetweenResults', 'needs discardTuning: true (warm-up draws are not thinned)', thin);
  checkBoolean(FN, 'compile', o.compile ?? true);
  if (o.cores !== undefined && checkNonNegativeInteger(FN, 'cores', o.cores) < 1) fail('range', FN, 'cores', 'must be at least 1', o.cores);
  if (o.traceFn !== undefined) checkFunction(FN, 'traceFn', o.traceFn);
  if (o.onProgress !== undefined) checkFunction(FN, 'onProgress', o.onProgress);

  const adaptation = checkOneOf(FN, 'adaptation', o.adaptation ?? 'per-chain', ['per-chain', 'pooled']);
  const n = checkNonNegativeInteger(FN, 'numAdaptationSteps', o.numAdaptationSteps ?? defaultWarmup(adaptation));
  if (o.chainIndex !== undefined && adaptation !== 'per-chain') fail('range', FN, 'chainIndex', "needs adaptation: 'per-chain' (pooled chains run as one batch)", o.chainIndex);
  if (o.cores !== undefined && o.cores > 1 && adaptation !== 'per-chain') fail('range', FN, 'cores', "above 1 needs adaptation: 'per-chain' (pooled chains run as one batch)", o.cores);
  const metric = checkOneOf(FN, 'metric', o.metric ?? 'diagonal', ['diagonal', 'dense']);
  if (metric === 'dense' && adaptation !== 'per-chain') fail('range', FN, 'metric', "'dense' needs adaptation: 'per-chain' (TFP's pooled pipeline adapts a diagonal mass matrix)", metric);

  const seed = sanitizeSeed(o.seed);
  const pinned = pinModel<K>(FN, model, o.pins);
  const m = flatModel(FN, pinned as JointDistributionPinned<StructKind>);
  if (adaptation === 'per-chain') return withDeterministics(m, perChainNuts<K>(m, o, seed, nChains, n, nDraws, thin, discardTuning));
  const given = o.currentState === undefined ? undefined : m.flatten(m.parts(m.bijector.inverse(o.currentState)), 1);
  given?.forEach((p, j) => {
    if (p.shape[0] !== nChains) fail('range', FN, `currentState.${m.names[j]}`, `must have a leading dim of nChains = ${nChains}`, p.shape);
  });
  const [setupSeed, sampleSeed] = splitSeed(seed, { n: 2 }) as [KeyArray, KeyArray];
  // The chain's state parts are in TFP's flattening order (a record's nodes sorted by name).
  const order = tfpPartOrder(m);
  const init = given === undefined ? initialState(FN, m, nChains, setupSeed, order) : toOrder(order, given);
  const stepSize = stepSizeOption(o.initStepSize, m.names, m.sizes);

  const nuts = new PreconditionedNoUTurnSampler({
    ...(o.compile === false
      ? { targetLogProbFn: (...parts: Tensor[]) => m.target(...fromOrder(order, parts)) }
      : { targetLogProbAndGradFn: orderedTarget(order, compiledTargetFn(FN, m, [nChains])) }),
    stepSize: Array.isArray(stepSize) ? toOrder(order, stepSize) : stepSize,
    maxTreeDepth: o.maxTreeDepth ?? 10,
    maxEnergyDiff: o.maxEnergyDiff ?? 500,
  });
  const da = checkOptions(`${FN}: dualAveraging`, o.dualAveraging, ['explorationShrinkage', 'stepCountSmoothing', 'decayRate', 'reduceFn', 'shrinkageTarget']) as {
    explorationShrinkage?: unknown; stepCountSmoothing?: unknown; decayRate?: unknown; reduceFn?: unknown; shrinkageTarget?: unknown;
  };
  // TFP's DualAveragingStepSizeAdaptation converts its Python-float parameters to float32 (its
  // dtype hint) and widens them at bootstrap: the target 0.85 is 0.8500000238418579, γ = 0.05 is
  // 0.05000000074505806.
  const f32 = <T>(v: T): T => (typeof v === 'number' ? Math.fround(v) as T : v);
  const dassa = new DualAveragingStepSizeAdaptation({
    reduceFn: reduceLogHarmonicMeanExp,
    ...da,
    explorationShrinkage: f32(da.explorationShrinkage ?? 0.05),
    stepCountSmoothing: f32(da.stepCountSmoothing ?? 10),
    decayRate: f32(da.decayRate ?? 0.75),
    ...(da.shrinkageTarget === undefined ? {} : { shrinkageTarget: Array.isArray(da.shrinkageTarget) ? da.shrinkageTarget.map(f32) : f32(da.shrinkageTarget) }),
    innerKernel: nuts,
    numAdaptationSteps: n,
    targetAcceptProb: f32(o.targetAcceptProb ?? 0.85),
  } as unknown as DualAveragingStepSizeAdaptationOptions<NoUTurnSamplerResults>);
  const dmma = new DiagonalMassMatrixAdaptation({
    innerKernel: dassa,
    initialRunningVariance: init.map((p) => runningVarianceFromStats({ numSamples: 0, mean: zeros(p.shape), variance: ones(p.shape) })),
    numEstimationSteps: n,
  });
  const kernel = new WindowedAdaptation({ innerKernel: dmma, numAdaptationSteps: n });

  const nutsResults = (r: Results) => innermostWith(r, 'hasDivergence') as unknown as NoUTurnSamplerResults;
  const traceFn = o.traceFn === undefined
    ? (_: State, r: Results) => defaultTrace(nutsResults(r), r.step <= n, nChains)
    : (s: State, r: Results) => o.traceFn!(fromOrder(order, s as Tensor[]), m.bijector, r.step <= n, nutsResults(r));
  const progress = o.onProgress === undefined ? undefined : perChainProgress(nChains, n, o.onProgress);
  const toDraws = (flat: Tensor[]) => m.bijector.forward(m.struct(m.unflatten(fromOrder(order, flat)))) as Struct<K, Tensor>;
  let run;
  try {
    const chainOptions = {
      numResults: discardTuning ? nDraws : nDraws + n,
      numBurninSteps: discardTuning ? n : 0,
      numStepsBetweenResults: thin,
      currentState: init,
      kernel,
      traceFn,
      seed: sampleSeed,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      ...(progress === undefined ? {} : { onProgress: progress.report, progressInterval: o.progressInterval ?? 100 }),
    };
    run = progress === undefined ? sampleChain(chainOptions) : sampleChainObserved(chainOptions, progress.observe);
  } catch (e) {
    if (!(e instanceof AbortError)) throw e;
    const p = e.partial as PartialChain<object>;
    const partial: WindowedPartial<K> = {
      numResults: p.numResults,
      draws: p.allStates === undefined ? undefined : toDraws(p.allStates as Tensor[]),
      trace: p.trace as WindowedTrace | Trace | undefined,
      chain: p,
    };
    throw new AbortError(`${FN}: aborted after ${p.numResults} draws`, partial, e.cause);
  }
  return withDeterministics(m, { draws: toDraws(run.allStates as Tensor[]), trace: run.trace as WindowedTrace | Trace });
}

/** The result with the model's derived values (`deterministic`) added, per draw, when it has any. */
function withDeterministics<R extends WindowedAdaptiveNutsResult<StructKind, WindowedTrace | Trace>>(m: FlatModel, result: R): R {
  if (m.pinned.distribution.deterministicNames.length === 0) return result;
  return { ...result, deterministics: computeDeterministics(m.pinned, result.draws) };
}

/**
 * Each chain's divergences, counted after every kernel step (the `observe` of
 * `sampleChainObserved`), and the `sampleChain` progress callback that fans one report out to one
 * record per chain. Neither touches a seed or a state.
 */
function perChainProgress(
  nChains: number, n: number, onProgress: (p: WindowedProgress) => void,
): { observe: (step: number, results: Results) => void; report: (p: { step: number; total: number }) => void } {
  const counts = new Array<number>(nChains).fill(0), warmupCounts = new Array<number>(nChains).fill(0);
  const observe = (step: number, results: Results) => addDivergencesPerChain(results, step <= n ? warmupCounts : counts);
  const report = ({ step, total }: { step: number; total: number }) => {
    const phase = step <= n ? 'warmup' as const : 'sampling' as const;
    for (let c = 0; c < nChains; c++) onProgress({ chain: c, step, total, phase, divergences: counts[c]!, warmupDivergences: warmupCounts[c]! });
  };
  return { observe, report };
}

/** Warm-up steps when none are given: Stan's 1000 for per-chain adaptation, TFP's 500 pooled. */
export function defaultWarmup(adaptation: 'per-chain' | 'pooled'): number {
  return adaptation === 'per-chain' ? 1000 : 500;
}

/** `v` as a number in (0, max) (max ∞: positive and finite), or a TypeError/RangeError naming `arg`. */
function positiveNumber(arg: string, v: unknown, max = Infinity): number {
  if (typeof v !== 'number') fail('type', FN, arg, 'must be a number', v);
  if (!(v > 0 && v < max)) fail('range', FN, arg, max === Infinity ? 'must be positive and finite' : `must be in (0, ${max})`, v);
  return v;
}

/** The initial step size: `0.5·D^(−1/4)` by default, or the user's (a number, or one per unpinned node). */
function stepSizeOption(s: WindowedAdaptiveNutsOptions['initStepSize'], names: readonly string[], sizes: readonly number[]): number | number[] {
  if (s === undefined) return 0.5 * detPow(sizes.reduce((a, b) => a + b, 0), -0.25);  // not `**` (engines differ)
  if (typeof s === 'number') return positiveNumber('initStepSize', s);
  if (Array.isArray(s)) {
    if (s.length !== names.length) fail('range', FN, 'initStepSize', `must give one step size per unpinned node (${names.join(', ')})`, s);
    return s.map((v, i) => positiveNumber(`initStepSize[${i}]`, v));
  }
  if (isPlainObject(s)) return names.map((n) => positiveNumber(`initStepSize.${n}`, (s as Record<string, unknown>)[n]));
  return fail('type', FN, 'initStepSize', 'must be a number, an array, or a record by node name', s);
}

/** TFP's `default_nuts_trace_fn` in ArviZ's terms, every field per chain. */
function defaultTrace(r: NoUTurnSamplerResults, tune: boolean, nChains: number): WindowedTrace {
  const lar = r.logAcceptRatio.data as Float64Array;
  const steps = r.leapfrogsTaken.data as Int32Array;
  const energy = r.energy.data as Float64Array;
  const chain = (f: (c: number) => number) => new Tensor(Float64Array.from({ length: nChains }, (_, c) => f(c)), [nChains], 'float64');
  return {
    stepSize: chain(chainStepSize(r.stepSize, nChains)),
    tune: new Tensor(new Uint8Array(nChains).fill(tune ? 1 : 0), [nChains], 'bool'),
    nSteps: new Tensor(Int32Array.from(steps), [nChains], 'int32'),
    treeDepth: new Tensor(Int32Array.from(steps, (s) => Math.ceil(detLog2(s + 1))), [nChains], 'int32'),
    diverging: r.hasDivergence,
    acceptRatio: chain((c) => Math.min(1, detExp(lar[c]!))),
    energy: chain((c) => -energy[c]!),
    targetLogProb: r.targetLogProb,
    isAccepted: r.isAccepted,
  };
}

/** The step size each chain used (the first part's, when there is one per part). */
function chainStepSize(s: NoUTurnSamplerResults['stepSize'], nChains: number): (c: number) => number {
  const first = Array.isArray(s) ? s[0]! : s as number | Tensor;
  if (typeof first === 'number') return () => first;
  const d = first.data as ArrayLike<number>;
  return (c) => Number(d.length === nChains ? d[c] : d[0]);
}

/** `adaptation: 'per-chain'`: independent Stan-style chains over the flat log density (see the option). */
function perChainNuts<K extends StructKind>(
  m: FlatModel, o: WindowedAdaptiveNutsOptions, seed: KeyArray,
  nChains: number, numWarmup: number, nDraws: number, thin: number, discardTuning: boolean,
): WindowedAdaptiveNutsResult<K, WindowedTrace> {
  const perChain = "with adaptation: 'per-chain'";
  if (o.traceFn !== undefined) fail('range', FN, 'traceFn', `is not available ${perChain} (it reads the batched kernel's results); use adaptation: 'pooled'`, 'traceFn');
  const positive = (arg: string, v: unknown, dflt: number, max = Infinity): number => (v === undefined ? dflt : positiveNumber(arg, v, max));
  const da = checkOptions(FN, o.dualAveraging as { explorationShrinkage?: number; stepCountSmoothing?: number; decayRate?: number } | undefined,
    ['explorationShrinkage', 'stepCountSmoothing', 'decayRate']);
  const dualAveraging = {
    targetAcceptProb: positive('targetAcceptProb', o.targetAcceptProb, STAN_DUAL_AVERAGING.targetAcceptProb, 1),
    explorationShrinkage: positive('dualAveraging.explorationShrinkage', da.explorationShrinkage, STAN_DUAL_AVERAGING.explorationShrinkage),
    stepCountSmoothing: positive('dualAveraging.stepCountSmoothing', da.stepCountSmoothing, STAN_DUAL_AVERAGING.stepCountSmoothing),
    decayRate: positive('dualAveraging.decayRate', da.decayRate, STAN_DUAL_AVERAGING.decayRate),
  };
  if (o.initStepSize !== undefined && typeof o.initStepSize !== 'number') fail('range', FN, 'initStepSize', `must be one number ${perChain} (a chain has one step size)`, o.initStepSize);
  const maxTreeDepth = checkNonNegativeInteger(FN, 'maxTreeDepth', o.maxTreeDepth ?? 10);
  if (maxTreeDepth < 1) fail('range', FN, 'maxTreeDepth', 'must be at least 1', maxTreeDepth);
  let chains = Array.from({ length: nChains }, (_, c) => c);
  if (o.chainIndex !== undefined) {
    const c = checkNonNegativeInteger(FN, 'chainIndex', o.chainIndex);
    if (c >= nChains) fail('range', FN, 'chainIndex', `must be below nChains = ${nChains}`, c);
    chains = [c];
  }
  const dim = m.sizes.reduce((a, b) => a + b, 0);
  const init = o.currentState === undefined ? undefined : chainStart(m, o.currentState, nChains);
  const total = numWarmup + transitionsFor(nDraws, thin);
  let onRound: ((round: number, divergences: readonly number[], warmupDivergences: readonly number[]) => void) | undefined;
  if (o.onProgress !== undefined) {
    const report = o.onProgress, interval = checkFinite(FN, 'progressInterval', o.progressInterval ?? 100);
    if (interval < 0) fail('range', FN, 'progressInterval', 'must be non-negative', interval);
    let last = -Infinity;
    onRound = (round, divergences, warmupDivergences) => {
      const now = performance.now();
      if (round !== 1 && round !== total && now - last < interval) return;
      last = now;
      chains.forEach((c, j) => report({ chain: c, step: round, total, phase: round <= numWarmup ? 'warmup' : 'sampling', divergences: divergences[j]!, warmupDivergences: warmupDivergences[j]! }));
    };
  }
  const f = flatLogDensity(FN, m, o.compile !== false);
  const { run, parallel } = runChainsOnCores(f, o.compile === false ? undefined : compileTarget(FN, m, []), seed, {
    fn: FN, modelName: m.pinned.distribution.name, dim, chains, numWarmup, nDraws, thin, discardTuning,
    maxTreeDepth, maxEnergyDiff: positive('maxEnergyDiff', o.maxEnergyDiff, 1000), metric: o.metric ?? 'diagonal',
    initStepSize: positive('initStepSize', o.initStepSize, 1), dualAveraging, modes: getModes(),
    ...(init === undefined ? {} : { init }), ...(onRound === undefined ? {} : { onRound }), ...(o.signal === undefined ? {} : { signal: o.signal }),
  }, o.cores);
  const { draws, trace } = perChainResult<K>(m, run, numWarmup, discardTuning, o.compile !== false);
  if (run.aborted) {
    const partial: WindowedPartial<K> = { numResults: run.numResults, draws: run.numResults > 0 ? draws : undefined, trace: run.numResults > 0 ? trace : undefined, chain: undefined };
    throw new AbortError(`${FN}: aborted after ${run.numResults} draws`, partial, o.signal?.reason);
  }
  return { draws, trace, parallel };
}

/**
 * The per-chain run as the pooled path returns it: draws `[N, C, ...]` in the model's structure
 * (each draw mapped to constrained space on its own, by the compiled joint bijector, so the model
 * never sees a draws or chains axis), the trace `[N, C]`.
 */
function perChainResult<K extends StructKind>(m: FlatModel, run: PerChainRun, numWarmup: number, discardTuning: boolean, compile: boolean): WindowedAdaptiveNutsResult<K, WindowedTrace> {
  const N = run.numResults, C = run.chains.length, dim = m.sizes.reduce((a, b) => a + b, 0);
  const constrain = flatConstrain(FN, m, compile);
  const sizes = constrain.shapes.map((s) => sizeOf(s));
  const values = sizes.map((n) => new Float64Array(N * C * n));
  for (let t = 0; t < N; t++) {
    for (let c = 0; c < C; c++) {
      constrain.run(run.chains[c]!.q.subarray(t * dim, (t + 1) * dim));
      constrain.outputs.forEach((o, j) => { const n = sizes[j]!, v = values[j]!, at = (t * C + c) * n; for (let k = 0; k < n; k++) v[at + k] = o[k]!; });
    }
  }
  const stat = <A extends Float64Array | Int32Array | Uint8Array>(pick: (d: PerChainRun['chains'][number]) => A, make: (n: number) => A, dtype: 'float64' | 'int32' | 'bool', map = (v: number) => v) => {
    const out = make(N * C);
    for (let t = 0; t < N; t++) for (let c = 0; c < C; c++) out[t * C + c] = map(pick(run.chains[c]!)[t]!);
    return new Tensor(out, [N, C], dtype);
  };
  const f64 = (n: number) => new Float64Array(n), i32 = (n: number) => new Int32Array(n), u8 = (n: number) => new Uint8Array(n);
  const tune = new Uint8Array(N * C);
  if (!discardTuning) tune.fill(1, 0, Math.min(N, numWarmup) * C);
  return {
    draws: m.struct(values.map((v, j) => new Tensor(v, [N, C, ...constrain.shapes[j]!], 'float64'))) as Struct<K, Tensor>,
    trace: {
      stepSize: stat((d) => d.stepSize, f64, 'float64'),
      tune: new Tensor(tune, [N, C], 'bool'),
      nSteps: stat((d) => d.nSteps, i32, 'int32'),
      treeDepth: stat((d) => d.treeDepth, i32, 'int32'),
      diverging: stat((d) => d.diverging, u8, 'bool'),
      acceptRatio: stat((d) => d.acceptStat, f64, 'float64', (a) => Math.min(1, a)),
      energy: stat((d) => d.energy, f64, 'float64'),
      targetLogProb: stat((d) => d.lp, f64, 'float64'),
      isAccepted: stat((d) => d.moved, u8, 'bool'),
    },
  };
}

/** Chain c's starting point from `currentState` (each node `[nChains, ...event]`), mapped to flat unconstrained coordinates one chain at a time. */
function chainStart(m: FlatModel, state: PartialValues, nChains: number): (c: number) => Float64Array {
  const nodes = m.parts(state).map((v, j) => {
    const t = asTensor(FN, `currentState.${m.names[j]}`, v);
    if (t.shape[0] !== nChains) fail('range', FN, `currentState.${m.names[j]}`, `must have a leading dim of nChains = ${nChains}`, t.shape);
    return t;
  });
  return (c) => {
    const rows = nodes.map((t) => { const per = t.size / nChains; return new Tensor(Float64Array.from({ length: per }, (_, k) => Number(t.data[c * per + k])), t.shape.slice(1), 'float64'); });
    const flat = m.flatten(m.parts(m.bijector.inverse(m.struct(rows))), 0);
    return Float64Array.from(flat.flatMap((p) => Array.from(p.data as ArrayLike<number>)));
  };
}
