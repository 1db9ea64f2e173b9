/**
 * What both engines behind `windowedAdaptiveNuts` share: its public option, trace and result types
 * (re-exported by `mcmc/windowed-adaptive-nuts.ts`, the front end), and the small pieces both
 * engines use to build a result — draws mapped to constrained space one draw at a time, the
 * model's derived values, the `compiled` field.
 */
import { fail } from '../../src/checks.js';
import type { CompileOutcome } from '../../src/compile/flat-target.js';
import type { Seed } from '../../src/samplers/seeds.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { FlatConstrain } from '../../distributions/compile-log-density.js';
import type { DefaultJointBijector } from '../../distributions/joint/default-joint-bijector.js';
import type { FlatModel } from '../../distributions/joint/flat-model.js';
import type { PartialValues, Struct, StructKind } from '../../distributions/joint/values.js';
import type { NoUTurnSamplerResults } from '../kernels/no-u-turn-sampler.js';
import type { Trace } from '../internal/stack.js';
import type { InitOption } from '../internal/init.js';
import { computeDeterministics } from '../predictive.js';
import { inferDiscrete } from '../infer-discrete.js';
import type { WarningOptions } from '../diagnostics/warning-hooks.js';
import type { Coords, Dims } from '../diagnostics/coords.js';
import type { SamplingWarning } from '../diagnostics/warnings.js';
import type { ImputedNode } from '../../distributions/joint/impute-missing.js';
import type { Rejection } from '../internal/rejections.js';
import type { ParallelInfo } from './stan/cores.js';
import type { ChainState } from './stan/per-chain.js';
import type { Modes } from '../../src/config.js';
import type { ChainsProgress, PartialChain } from '../sample-chain.js';

/** The front end's name, for errors. */
export const FN = 'windowedAdaptiveNuts';

/**
 * A custom trace function: TFP's `(state, bijector, isAdapting, nutsResults)`; `state` is the
 * unconstrained, flattened parts `[C, n_j]` in the pinned model's order (`unpinnedNames`), whatever
 * order the pooled sampler keeps them in (TFP's, see `adaptation`).
 */
export type WindowedTraceFn = (state: readonly Tensor[], bijector: DefaultJointBijector<StructKind>, isAdapting: boolean, results: NoUTurnSamplerResults) => Trace;

export interface WindowedAdaptiveNutsOptions extends WarningOptions {
  /**
   * Labels per named dimension (ArviZ's and PyMC's `coords`), e.g. `{ school: ['Choate', …] }`:
   * unique strings or finite numbers. Carried on the result (they never change the draws).
   */
  readonly coords?: Coords;
  /**
   * Dimension names per variable, one per event axis (ArviZ's `dims`), e.g. `{ theta: ['school'] }`:
   * a node (sampled or pinned) or derived value of the model; a dimension with `coords` has as
   * many labels as the axis. Carried on the result: `summary(result)` labels rows `theta[Choate]`.
   */
  readonly dims?: Dims;
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
  /** Starting values (constrained, structured like the unpinned nodes, each `[nChains, ...event]`) instead of the random initialization (TFP's name; see `init`). */
  readonly currentState?: PartialValues;
  /**
   * Where the chains start (not with `currentState`): `'uniform'` (default, Stan's): uniform(−R, R)
   * in every unconstrained coordinate (R = `initRadius`), up to 100 attempts per chain (50, TFP's,
   * pooled) until the log density and gradient are finite; `'prior'`: a draw from the prior (up
   * to 100 attempts); `'median'`: the median of 15 prior draws (NumPyro's `init_to_median`);
   * `'pathfinder'`: chain c starts at draw c of one multi-path Pathfinder run (`stochax/optimize`
   * must be imported; a pure function of `seed`); an
   * object of constrained values of every unpinned node, each of one draw's shape (shared by the
   * chains) or `[nChains, ...]`; or a function of the chain index returning one draw's values.
   * Chain c's start depends only on chain c's key. When no start is finite, the error names the
   * node whose log density is not finite there, and why.
   */
  readonly init?: InitOption;
  /** Half-width R of `init: 'uniform'` (default 2, Stan's). */
  readonly initRadius?: number;
  /**
   * With `adaptation: 'per-chain'`: the inverse metric warm-up starts from (as `initStepSize` is
   * the step size it starts from; CmdStan's `inv_metric`). `'identity'` (default, Stan's), or
   * `'pathfinder'`: the diagonal of the covariance of the multi-path Pathfinder approximation
   * (`stochax/optimize` must be imported; the same run as `init: 'pathfinder'`'s when both are
   * given), as nutpie seeds its metric. Stan's windows then adapt it as usual.
   */
  readonly initInvMetric?: 'identity' | 'pathfinder';
  /** What to record per draw (default: the ArviZ-style statistics of {@link WindowedTrace}). */
  readonly traceFn?: WindowedTraceFn;
  /**
   * Called with one record per chain (`chain` 0 … nChains − 1, that chain's divergences so far)
   * after the first step, the last step, and otherwise at most once every `progressInterval` ms;
   * `phase` is `'warmup'` during the `numAdaptationSteps` adaptation steps. Does not change any draw.
   */
  readonly onProgress?: (progress: WindowedProgress) => void;
  /**
   * Show one progress bar per chain on stderr (redrawn in place on a terminal, plain lines
   * otherwise; the console in a browser). Default: on when stderr is a terminal, off under a test
   * runner or CI (`VITEST`, `CI`, `NODE_ENV=test`), in pipes and in browsers. Does not change any draw.
   */
  readonly progress?: boolean;
  /** Least time between two rounds of `onProgress` calls (and progress redraws), in ms (default 100; 0 reports every step). */
  readonly progressInterval?: number;
  /**
   * Run the log density as compiled JavaScript (default true): traced once, then value and
   * gradient without the tape, with the tape's bits. `false` keeps the tape (for models that
   * cannot be traced, and for comparison).
   */
  readonly compile?: boolean;
  /**
   * Stops sampling between steps (per-chain: before the next round of transitions, so within one
   * transition per chain): the call throws an {@link AbortError} whose `partial` is a
   * {@link WindowedPartial}, the exact prefix of the uninterrupted run. The call is synchronous, so
   * during it the signal can be aborted only from `onProgress` (or from another thread); for a
   * timer or an event of this thread, drive `windowedAdaptiveNutsSteps` (or use
   * `windowedAdaptiveNutsChains`), which give the event loop turns.
   */
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
   * batch in lockstep, sharing one adapted step size; the model is written for one draw here too
   * (the kernel evaluates it chain by chain).
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
   * to a worker, run in process: the result's `parallel` says so (see `mcmc/nuts/stan/cores.ts`).
   */
  readonly cores?: number;
  /**
   * Continue a per-chain run: a previous result, or the `partial` of an aborted run's
   * {@link AbortError} (both carry {@link WindowedAdaptiveNutsResult.resume}). Each chain goes on
   * from its returned state exactly: the pieces' draws and traces, joined along the draws axis,
   * are the bits of the run done in one go — the rest of warm-up if it had not ended, then
   * `nDraws` more draws (default: the rest of the previous run's `nDraws` when it was aborted,
   * else 1000). Give the same model and pins; the seed, chains and every setting come from
   * `previous` (any given must agree; `init`, `currentState`, `initStepSize`, `initRadius` and `initInvMetric`,
   * which only say how a run starts, must not be given). The result's `rejections` and warnings
   * are this call's.
   */
  readonly previous?: { readonly resume?: PerChainResume };
}

/**
 * Where a per-chain run stopped, as plain data (typed arrays, numbers, strings: structured-clone
 * and JSON-with-typed-arrays safe): the run's key and settings, and each chain's state between two
 * transitions. Pass the result or partial that holds it as `previous` to continue the chains.
 */
export interface PerChainResume {
  /** The run's key, `sanitizeSeed(seed)` (chain c's is `foldIn(key, c)`): its PRNG and words. */
  readonly seed: { readonly impl: string; readonly data: Uint32Array };
  /** The PRNG modes the run used (`configure`); a continuation needs the same. */
  readonly modes: Modes;
  readonly nChains: number;
  /** The unconstrained dimension of the model. */
  readonly dim: number;
  readonly numAdaptationSteps: number;
  readonly numStepsBetweenResults: number;
  readonly discardTuning: boolean;
  readonly metric: 'diagonal' | 'dense';
  readonly maxTreeDepth: number;
  readonly maxEnergyDiff: number;
  readonly targetAcceptProb: number;
  readonly dualAveraging: { readonly explorationShrinkage: number; readonly stepCountSmoothing: number; readonly decayRate: number };
  /** Draws after warm-up asked for so far, over all the pieces (a continuation's default is the rest of them). */
  readonly nDraws: number;
  /** The chains' states (chain `chain` of `nChains`), in the run's order. */
  readonly chains: readonly ChainState[];
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
  /** Per-chain runs: each chain's state where it stopped; pass this partial as `previous` to continue the run exactly. */
  readonly resume?: PerChainResume;
  /** The rejected proposals before the abort, as the result's `rejections` would have them so far. */
  readonly rejections: readonly Rejection[];
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
  /**
   * Proposals rejected because the log density threw or was not finite (value or gradient) in
   * the draw's transition (int32; Stan's "the current Metropolis proposal is about to be
   * rejected"): per-chain adaptation counts the step-size heuristic just before it too; pooled
   * adaptation counts at most one per chain per transition, and a thinned draw the transitions
   * since the draw before. Each such proposal is also a divergent leaf. With Gibbs steps, the
   * transition's Gibbs proposals at which the model threw or gave NaN or +∞ count too.
   */
  readonly rejections?: Tensor;
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
  /**
   * True when the log density ran as generated code (`compileLogDensity`'s); false when it ran on
   * the autodiff tape — with `compile: false`, or when the model cannot be traced (it reads a
   * value in JavaScript, uses an op without a lowering), which `compileReason` names. Never silent.
   */
  readonly compiled: boolean;
  /** Why the log density ran on the tape (absent when `compiled`). */
  readonly compileReason?: string;
  /**
   * Per-chain adaptation only: the run's rejected proposals (the log density threw, or its value
   * or gradient was not finite), one record per kind, with its first message, how many times and
   * in which chains it happened, and the model node it came from (see {@link Rejection}); empty
   * when there were none. A Gibbs step's failed proposals are recorded apart, by discrete node,
   * with the element proposed (`gibbs`). The rule (what is a rejection and what still throws) is in
   * `mcmc/internal/rejections.ts`.
   */
  readonly rejections?: readonly Rejection[];
  /** Per-chain runs: the threads that ran the chains, and why not more when fewer than asked or than the default. */
  readonly parallel?: ParallelInfo;
  /** Per-chain runs: each chain's state after its last transition; pass the result as `previous` for more draws of the same chains. */
  readonly resume?: PerChainResume;
  /**
   * Present when a pinned value held NaN: each node whose missing entries were imputed, the
   * latent node holding them in `draws` (`y_missing`), how many and where (row-major); a note,
   * not a warning (see `distributions/joint/impute-missing.ts`).
   */
  readonly imputed?: readonly ImputedNode[];
  /**
   * Present when some discrete nodes could not be summed out and took Gibbs steps (per-chain
   * runs): each node, its proposal and its acceptance rate after warm-up per chain (see
   * `mcmc/nuts/stan/gibbs.ts`). Their draws are in `draws`.
   */
  readonly gibbs?: import('./stan/gibbs.js').GibbsInfo;
  /** What the run should warn about (`samplingWarnings`: R-hat, ESS, divergences, tree depth, E-BFMI, chains that disagree); `[]` when healthy. */
  readonly warnings: readonly SamplingWarning[];
  /** The `coords` option, checked (present only when given). */
  readonly coords?: Coords;
  /** The `dims` option, checked against the variables' shapes (present only when given). */
  readonly dims?: Dims;
}

/** The result's `compiled` field, and `compileReason` when the log density runs on the tape. */
export function compiledField(t: CompileOutcome<unknown>): { compiled: boolean; compileReason?: string } {
  return t.compiled ? { compiled: true } : { compiled: false, compileReason: t.reason! };
}

/**
 * Draws `[N, C, ...]` in the model's structure from flat unconstrained points (`point(t, c)`, in
 * the model's node order), each mapped to constrained space on its own, so the model never sees a
 * draws or chains axis.
 */
export function constrainDraws<K extends StructKind>(m: FlatModel, constrain: FlatConstrain, N: number, C: number, point: (t: number, c: number) => ArrayLike<number>): Struct<K, Tensor> {
  const sizes = constrain.shapes.map((s) => sizeOf(s));
  const values = sizes.map((n) => new Float64Array(N * C * n));
  for (let t = 0; t < N; t++) {
    for (let c = 0; c < C; c++) {
      constrain.run(point(t, c));
      constrain.outputs.forEach((o, j) => { const n = sizes[j]!, v = values[j]!, at = (t * C + c) * n; for (let k = 0; k < n; k++) v[at + k] = o[k]!; });
    }
  }
  return m.struct(values.map((v, j) => new Tensor(v, [N, C, ...constrain.shapes[j]!], 'float64'))) as Struct<K, Tensor>;
}

/**
 * The result with the model's derived values (`deterministic`) added, per draw, when it has any.
 * A model whose discrete nodes were summed out computes them with those nodes drawn back by
 * `inferDiscrete` from `seed` (chain c's keys `chains[c]`'s), not with the placeholders the
 * sampler's target pinned them to (not yet beside Gibbs nodes).
 */
export function withDeterministics<R extends Omit<WindowedAdaptiveNutsResult<StructKind, WindowedTrace | Trace>, 'warnings'>>(
  m: FlatModel, result: R, discrete?: { readonly seed: Seed; readonly chains?: readonly number[] },
): R {
  if (m.pinned.distribution.deterministicNames.length === 0) return result;
  if (m.enumeration === undefined) return { ...result, deterministics: computeDeterministics(m.pinned, result.draws) };
  // With Gibbs nodes too, their draws are in `draws`: the enumerated nodes are drawn back given them.
  const model = m.gibbs?.given ?? m.enumeration.original;
  const all = inferDiscrete(model, result.draws as never, { seed: discrete?.seed, ...(discrete?.chains === undefined ? {} : { chains: discrete.chains }) });
  return { ...result, deterministics: computeDeterministics(model, all) };
}

/** `v` as a number in (0, max) (max ∞: positive and finite), or a TypeError/RangeError naming `arg`. */
export function positiveNumber(arg: string, v: unknown, max = Infinity): number {
  if (typeof v !== 'number') fail('type', FN, arg, 'must be a number', v);
  if (!(v > 0 && v < max)) fail('range', FN, arg, max === Infinity ? 'must be positive and finite' : `must be in (0, ${max})`, v);
  return v;
}
