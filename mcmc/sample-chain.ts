/**
 * `sampleChain` (TFP's `tfp.mcmc.sample_chain`) with TFP's exact loop, and the one addition that
 * makes chains resumable: the carried seed is returned as `finalSeed`.
 */
import { checkFinite, checkFunction, checkNonNegativeInteger, checkOptions, fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed, splitSeed, type Seed } from '../src/samplers/seeds.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { State, TransitionKernel } from './kernel.js';
import { PROPOSED_FIRST, resultLevels } from './internal/kernel-results.js';
import { stackTrees, type Stacked, type Trace } from './internal/stack.js';
import { AbortError } from './abort-error.js';

/** Where a chain is, as reported to `onProgress`. */
export interface ChainProgress {
  /** Kernel steps taken so far (1 … total). */
  readonly step: number;
  /** All kernel steps of the run: `numBurninSteps + numResults + (numResults − 1)·numStepsBetweenResults`. */
  readonly total: number;
  /** `'warmup'` during the burn-in steps, `'sampling'` after. */
  readonly phase: 'warmup' | 'sampling';
  /** Divergent transitions after warm-up so far (summed over chains), from the kernel results' `hasDivergence` (0 for kernels without it): what a summary of the draws counts. */
  readonly divergences: number;
  /** Divergent transitions during warm-up (burn-in), counted apart. */
  readonly warmupDivergences: number;
}

/** One chain's progress in a multi-chain run (`sampleChains`, `windowedAdaptiveNuts`): {@link ChainProgress} and which chain. */
export interface ChainsProgress extends ChainProgress {
  /** Which chain. */
  readonly chain: number;
}

/** What an aborted `sampleChain` completed: the `partial` of its {@link AbortError}. */
export interface PartialChain<R extends object> {
  /** Draws recorded before the abort (0 … numResults − 1). */
  readonly numResults: number;
  /** The recorded states, each part `[numResults, ...]` (undefined when none). */
  readonly allStates: State | undefined;
  /** The stacked trace of the recorded draws (undefined when none or without `traceFn`). */
  readonly trace: Trace | undefined;
  /** The state at the last recorded draw (the initial state when none). */
  readonly currentState: State;
  /**
   * Kernel results and carried seed at the last recorded draw: resuming from `currentState` with
   * these (and `numBurninSteps` set to `numStepsBetweenResults`, or to the original burn-in when
   * nothing was recorded) continues the chain exactly.
   */
  readonly finalKernelResults: R;
  readonly finalSeed: KeyArray;
}

/**
 * `sampleChain`'s options. `S`, the state's type (a `Tensor` or an array of them), and `T`, what
 * `traceFn` returns, are inferred from the call, so the result needs no casts.
 */
export interface SampleChainOptions<R extends object, S extends State = State, T extends Trace = Trace> {
  /** Number of states to record (≥ 1). */
  readonly numResults: number;
  /** The state to start from (not recorded). */
  readonly currentState: S;
  readonly kernel: TransitionKernel<R>;
  /** Steps taken before the first recorded state (default 0). */
  readonly numBurninSteps?: number;
  /** Steps taken and discarded between recorded states (default 0). */
  readonly numStepsBetweenResults?: number;
  /** What to record besides the state at each recorded step (default: nothing). */
  readonly traceFn?: (state: S, results: R) => T;
  /** Any seed `samplers.sanitizeSeed` accepts; salted with `'mcmc.sample_chain'` (unless resuming). */
  readonly seed?: Seed;
  /**
   * Results to resume from (a previous run's `finalKernelResults`). When given, `seed` is used as
   * the loop's carried seed without salting, so passing the previous run's `finalSeed` continues
   * the chain exactly.
   */
  readonly previousKernelResults?: R;
  /** Stops sampling between kernel steps: the call throws an {@link AbortError} whose `partial` is a {@link PartialChain}. */
  readonly signal?: AbortSignal;
  /**
   * Called synchronously, on the thread running the chain, after the first step, the last step,
   * and otherwise at most once every `progressInterval` ms.
   */
  readonly onProgress?: (progress: ChainProgress) => void;
  /** Least time between two `onProgress` calls, in ms (default 100; 0 reports every step). */
  readonly progressInterval?: number;
}

/** `sampleChain`'s result: `S` is the state's type, `T` the stacked trace's (`Stacked<traceFn's return type>`). */
export interface SampleChainResult<R extends object, S extends State = State, T = Trace | undefined> {
  /** The recorded states, each part with a leading `[numResults]` dim. */
  readonly allStates: S;
  /** `traceFn`'s outputs stacked along a leading `[numResults]` dim (undefined without `traceFn`). */
  readonly trace: T;
  readonly finalKernelResults: R;
  /** The carried seed after the last step: pass it back with `finalKernelResults` to resume. */
  readonly finalSeed: KeyArray;
}

/**
 * Runs `kernel` for `numBurninSteps + numResults + (numResults − 1)·numStepsBetweenResults` steps
 * and records `numResults` states, exactly as TFP: the seed is sanitized with salt
 * `'mcmc.sample_chain'`, and every kernel step (burn-in and thinned steps included) splits the
 * carried seed into `[stepSeed, carry]`; step counts are `[1 + burnin, 1 + thin, …]`.
 *
 * `onProgress` reports steps, phase and divergences (throttled to `progressInterval`); an
 * aborted `signal` stops the loop before the next step and throws an {@link AbortError} carrying
 * the draws recorded so far (a {@link PartialChain}, resumable exactly).
 *
 * @throws TypeError/RangeError for bad counts, state, kernel, signal or callbacks; whatever the
 *   kernel throws; an {@link AbortError} when `signal` is aborted.
 * @example
 * const kernel = new RandomWalkMetropolis({ targetLogProbFn: (x) => new Normal({ loc: 0, scale: 1 }).logProb(x) });
 * const { allStates, finalKernelResults, finalSeed } = sampleChain({ numResults: 1000, currentState: zeros([4]), kernel, seed: 0 });
 * // allStates: Tensor [1000, 4] (4 chains)
 * const run = sampleChain({ numResults: 10, currentState: zeros([4]), kernel, seed: 0, traceFn: (_, r) => r.isAccepted });
 * run.trace.shape;   // [10, 4]: typed as a Tensor, no cast
 */
export function sampleChain<R extends object, S extends State, T extends Trace>(
  options: SampleChainOptions<R, S, T> & { readonly traceFn: (state: S, results: R) => T },
): SampleChainResult<R, S, Stacked<T>>;
export function sampleChain<R extends object, S extends State = State>(options: SampleChainOptions<R, S>): SampleChainResult<R, S>;
export function sampleChain<R extends object>(options: SampleChainOptions<R>): SampleChainResult<R> {
  const steps = sampleChainSteps(options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `sampleChain` one kernel step at a time: every `next()` takes one step, and the iterator
 * returns the same result `sampleChain` would. For drivers that must give the event loop a turn
 * between steps (the in-process path of `sampleChains`, a UI thread). Options are checked when
 * this is called, not at the first `next()`.
 *
 * @throws as `sampleChain`; `next()` throws what a step throws, or an {@link AbortError}.
 * @example
 * const steps = sampleChainSteps({ numResults: 100, currentState: zeros([2]), kernel, seed: 0 });
 * let r = steps.next();
 * while (!r.done) { r = steps.next(); }           // or await a macrotask every few ms
 * r.value.allStates;                               // → Tensor [100, 2]
 */
export function sampleChainSteps<R extends object>(options: SampleChainOptions<R>): Generator<void, SampleChainResult<R>, void> {
  return stepsOf(options, undefined);
}

/**
 * `sampleChain` with `observe(step, results)` called after every kernel step (step 1 … total):
 * for drivers inside stochax that need more than the progress records (windowedAdaptiveNuts
 * counts each chain's divergences with it). Not exported from stochax/mcmc.
 */
export function sampleChainObserved<R extends object>(options: SampleChainOptions<R>, observe: (step: number, results: R) => void): SampleChainResult<R> {
  const steps = stepsOf(options, observe);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

function stepsOf<R extends object>(options: SampleChainOptions<R>, observe: ((step: number, results: R) => void) | undefined): Generator<void, SampleChainResult<R>, void> {
  const fn = 'sampleChain';
  const opts = checkOptions(fn, options, ['numResults', 'currentState', 'kernel', 'numBurninSteps', 'numStepsBetweenResults', 'traceFn', 'seed', 'previousKernelResults', 'signal', 'onProgress', 'progressInterval']);
  const numResults = checkNonNegativeInteger(fn, 'numResults', opts.numResults);
  if (numResults < 1) fail('range', fn, 'numResults', 'must be at least 1', numResults);
  const burnin = checkNonNegativeInteger(fn, 'numBurninSteps', opts.numBurninSteps ?? 0);
  const thin = checkNonNegativeInteger(fn, 'numStepsBetweenResults', opts.numStepsBetweenResults ?? 0);
  const kernel = opts.kernel;
  if (kernel === null || typeof kernel !== 'object' || typeof kernel.oneStep !== 'function' || typeof kernel.bootstrapResults !== 'function') {
    fail('type', fn, 'kernel', 'must be a TransitionKernel (with oneStep and bootstrapResults)', kernel);
  }
  const state = opts.currentState;
  if (!(state instanceof Tensor) && !(Array.isArray(state) && state.length > 0 && state.every((t) => t instanceof Tensor))) {
    fail('type', fn, 'currentState', 'must be a Tensor or a non-empty array of Tensors', state);
  }
  if (opts.traceFn !== undefined) checkFunction(fn, 'traceFn', opts.traceFn);
  const signal = opts.signal;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean')) {
    fail('type', fn, 'signal', 'must be an AbortSignal', signal);
  }
  if (opts.onProgress !== undefined) checkFunction(fn, 'onProgress', opts.onProgress);
  const interval = checkFinite(fn, 'progressInterval', opts.progressInterval ?? 100);
  if (interval < 0) fail('range', fn, 'progressInterval', 'must be non-negative', interval);
  const resuming = opts.previousKernelResults !== undefined;
  const seed: KeyArray = resuming ? sanitizeSeed(opts.seed) : sanitizeSeed(opts.seed, { salt: 'mcmc.sample_chain' });
  const results = resuming ? opts.previousKernelResults! : kernel.bootstrapResults(state);
  return chainLoop({ numResults, burnin, thin, kernel, traceFn: opts.traceFn, signal, onProgress: opts.onProgress, interval, observe }, state, results, seed);
}

interface LoopPlan<R extends object> {
  readonly numResults: number;
  readonly burnin: number;
  readonly thin: number;
  readonly kernel: TransitionKernel<R>;
  readonly traceFn: ((state: State, results: R) => Trace) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: ChainProgress) => void) | undefined;
  readonly interval: number;
  readonly observe: ((step: number, results: R) => void) | undefined;
}

/** TFP's loop: every step splits the carried seed into `[stepSeed, carry]`; step counts `[1 + burnin, 1 + thin, …]`. */
function* chainLoop<R extends object>(plan: LoopPlan<R>, state: State, results: R, seed: KeyArray): Generator<void, SampleChainResult<R>, void> {
  const { numResults, burnin, thin, kernel, traceFn, signal, onProgress, interval, observe } = plan;
  const states: State[] = [], traces: Trace[] = [];
  const total = burnin + numResults + (numResults - 1) * thin;
  let mark = { state, results, seed };
  let step = 0, divergences = 0, warmupDivergences = 0, last = -Infinity;
  for (let r = 0; r < numResults; r++) {
    const steps = 1 + (r === 0 ? burnin : thin);
    for (let s = 0; s < steps; s++) {
      if (signal?.aborted) throw aborted(signal, states, traces, traceFn !== undefined, mark);
      const [stepSeed, carry] = splitSeed(seed) as [KeyArray, KeyArray];
      [state, results] = kernel.oneStep(state, results, stepSeed);
      seed = carry;
      step++;
      observe?.(step, results);
      if (onProgress !== undefined) {
        if (step <= burnin) warmupDivergences += countDivergences(results);
        else divergences += countDivergences(results);
        const now = performance.now();
        if (step === 1 || step === total || now - last >= interval) {
          last = now;
          onProgress({ step, total, phase: step <= burnin ? 'warmup' : 'sampling', divergences, warmupDivergences });
        }
      }
      yield;
    }
    states.push(state);
    if (traceFn) traces.push(traceFn(state, results));
    mark = { state, results, seed };
  }
  return {
    allStates: stackTrees(states) as State,
    trace: traceFn ? stackTrees(traces) : undefined,
    finalKernelResults: results,
    finalSeed: seed,
  };
}

function aborted<R extends object>(
  signal: AbortSignal, states: State[], traces: Trace[], traced: boolean, mark: { state: State; results: R; seed: KeyArray },
): AbortError<PartialChain<R>> {
  const partial: PartialChain<R> = {
    numResults: states.length,
    allStates: states.length > 0 ? stackTrees(states) as State : undefined,
    trace: traced && traces.length > 0 ? stackTrees(traces) : undefined,
    currentState: mark.state,
    finalKernelResults: mark.results,
    finalSeed: mark.seed,
  };
  return new AbortError(`sampleChain: aborted after ${states.length} draws`, partial, signal.reason);
}

/**
 * One step's divergence flags: the outermost `hasDivergence` on the walk that prefers what a
 * Metropolis step proposed (`PROPOSED_FIRST`), or undefined for kernels without it.
 */
function divergenceFlags(results: object): Tensor | undefined {
  for (const level of resultLevels(results, PROPOSED_FIRST)) if (level.hasDivergence instanceof Tensor) return level.hasDivergence;
  return undefined;
}

/** Adds one step's divergences per chain into `counts` (a flag of one element counts for every chain). */
export function addDivergencesPerChain(results: object, counts: number[]): void {
  const flag = divergenceFlags(results);
  if (flag === undefined) return;
  for (let c = 0; c < counts.length; c++) if (flag.data[flag.size === counts.length ? c : 0]) counts[c]!++;
}

/** Divergent transitions in one step's results, summed over chains. */
function countDivergences(results: object): number {
  const flag = divergenceFlags(results);
  let n = 0;
  if (flag !== undefined) for (let i = 0; i < flag.size; i++) if (flag.data[i]) n++;
  return n;
}
