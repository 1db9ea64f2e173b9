/**
 * `sampleChains`: independent MCMC chains on worker threads, with results that do not depend on
 * how the work was scheduled.
 */
import { checkFinite, checkFunction, checkInteger, checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { encodeValue } from '../../src/effects/clone.js';
import type { EffectsContext } from '../../src/effects/context.js';
import { ChainSequencer } from '../../src/effects/sequencer.js';
import { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, type Seed } from '../../src/samplers/seeds.js';
import type { ChainProgress, ChainsProgress, PartialChain, SampleChainResult } from '../sample-chain.js';
import { AbortError } from '../abort-error.js';
import { ChainError } from '../internal/chain-error.js';
import { chainKey, type ChainTask } from './chain-task.js';
import { chainDraw, mergeChains, type SampleChainsResult } from './merge-chains.js';
import { exportedFunction, importModelModule, type ModelModule } from './model-module.js';
import { completedAsPartial, partialChains } from './partial-chains.js';
import { loadPlatform, moduleUrl } from './platform.js';
import { inRunContext, runChainInProcess } from './run-in-process.js';
import { poolSource, type WorkerPool } from './pool.js';
import { runOnWorkers } from './worker-pool.js';
import { warningHooks, withWarnings, type WarningOptions } from '../diagnostics/warning-hooks.js';
import type { SamplingWarning } from '../diagnostics/warnings.js';

/** One chain's progress, as `sampleChains` reports it. */

export interface SampleChainsOptions<R extends object = object> extends WarningOptions {
  /**
   * The model module: a `URL`, an absolute URL string or (in Node) an absolute path, of a module
   * exporting `setup` (see {@link ChainSetup}); e.g. `new URL('./model.js', import.meta.url)`.
   */
  readonly model: string | URL;
  /** Number of chains (≥ 1). */
  readonly chains: number;
  /**
   * Worker threads (a non-negative integer; default: the available cores, at most `chains`).
   * 0 runs the chains one after another in this thread (yielding to the event loop between
   * slices of steps); more workers than chains start only `chains`.
   */
  readonly workers?: number;
  /**
   * Workers kept from {@link createWorkerPool} for this `model`, started and warmed once for many
   * calls (`workers` then defaults to the pool's size). Ignored when `workers` is 0.
   */
  readonly pool?: WorkerPool;
  /** Any seed `sanitizeSeed` accepts; chain c samples with `split(sanitizeSeed(seed), chains)[c]`. */
  readonly seed?: Seed;
  /** As `sampleChain`'s. */
  readonly numResults: number;
  readonly numBurninSteps?: number;
  readonly numStepsBetweenResults?: number;
  /** A structured-cloneable value passed to `setup` as `options` (data, hyperparameters). */
  readonly setupOptions?: unknown;
  /**
   * Resume a previous run of the same model and chain count: each chain continues from its last
   * draw with its final kernel results and seed (`seed` is then ignored), exactly as if the two
   * runs were one (with `numBurninSteps` set as for `sampleChain` resumption, usually 0).
   */
  readonly previous?: SampleChainsResult<R>;
  /**
   * Progress of each chain: `{ chain, step, total, phase, divergences, warmupDivergences }`, an unordered effect
   * (delivered on this thread as reports arrive), at most every `progressInterval` ms per chain,
   * and always at each chain's first and last step.
   */
  readonly onProgress?: (progress: ChainsProgress) => void;
  /** Least time between two progress reports of a chain, in ms (default 100). */
  readonly progressInterval?: number;
  /**
   * Stops the run: workers stop between kernel steps and the call rejects with an
   * {@link AbortError} whose `partial` ({@link PartialChains}) holds the draws completed so far.
   */
  readonly signal?: AbortSignal;
}

const FN = 'sampleChains';

/** The checked, shared parts of a `sampleChains` or `sampleChainByIndex` call. */
export interface ChainsPlan {
  readonly url: string;
  readonly chains: number;
  readonly task: (chainIndex: number) => ChainTask;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((p: ChainsProgress) => void) | undefined;
}

/**
 * Checks the options common to `sampleChains` and `sampleChainByIndex` and builds the tasks.
 *
 * @throws TypeError/RangeError naming `fn` and the option.
 * @example
 * const plan = await planChains('sampleChains', options, undefined);
 */
export async function planChains<R extends object>(
  fn: string, o: Omit<SampleChainsOptions<R>, 'previous' | 'workers'>, previous: ((c: number) => ChainTask['resume']) | undefined,
): Promise<ChainsPlan> {
  const url = await moduleUrl(fn, o.model);
  const chains = checkInteger(fn, 'chains', o.chains);
  if (chains < 1) fail('range', fn, 'chains', 'must be at least 1', chains);
  const numResults = checkNonNegativeInteger(fn, 'numResults', o.numResults);
  if (numResults < 1) fail('range', fn, 'numResults', 'must be at least 1', numResults);
  const numBurninSteps = checkNonNegativeInteger(fn, 'numBurninSteps', o.numBurninSteps ?? 0);
  const numStepsBetweenResults = checkNonNegativeInteger(fn, 'numStepsBetweenResults', o.numStepsBetweenResults ?? 0);
  const progressInterval = checkFinite(fn, 'progressInterval', o.progressInterval ?? 100);
  if (progressInterval < 0) fail('range', fn, 'progressInterval', 'must be non-negative', progressInterval);
  if (o.onProgress !== undefined) checkFunction(fn, 'onProgress', o.onProgress);
  const signal = o.signal;
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    fail('type', fn, 'signal', 'must be an AbortSignal', signal);
  }
  encodeValue(fn, 'setupOptions', o.setupOptions);
  const root = sanitizeSeed(o.seed); // once: an undefined seed becomes one fresh key for all chains
  const setupOptions = o.setupOptions;
  return {
    url, chains, signal, onProgress: o.onProgress,
    task: (chainIndex) => ({
      chainIndex, chains, key: chainKey(root, chains, chainIndex), numResults, numBurninSteps, numStepsBetweenResults,
      setupOptions, resume: previous?.(chainIndex), progressInterval,
    }),
  };
}

function resumeFrom<R extends object>(previous: SampleChainsResult<R> | undefined, chains: unknown): ((c: number) => ChainTask['resume']) | undefined {
  if (previous === undefined) return undefined;
  const p = previous as Partial<SampleChainsResult<R>>;
  if (p === null || typeof p !== 'object' || p.allStates === undefined || !Array.isArray(p.finalKernelResults) || !Array.isArray(p.finalSeed)) {
    fail('type', FN, 'previous', 'must be a sampleChains result (allStates, finalKernelResults, finalSeed)', previous);
  }
  if (p.finalKernelResults.length !== chains || p.finalSeed.length !== chains) {
    fail('range', FN, 'previous', `must come from a run with chains = ${String(chains)}`, `${p.finalSeed.length} chains`);
  }
  p.finalSeed.forEach((k, c) => { if (!(k instanceof KeyArray)) fail('type', FN, `previous.finalSeed[${c}]`, 'must be a key', k); });
  return (c) => ({ currentState: chainDraw(p.allStates!, c, -1), kernelResults: p.finalKernelResults![c]!, seed: p.finalSeed![c]! });
}

/**
 * Runs `chains` independent MCMC chains of the model module `model`, on `workers` worker
 * threads (Node `worker_threads` or browser Web Workers, behind one API) or, with `workers: 0`,
 * one after another in this thread.
 *
 * Chain c calls the module's `setup({ chainIndex: c, chains, seed, options })` and then runs
 * `sampleChain` with the returned kernel, state and trace function and the key
 * `split(sanitizeSeed(seed), chains)[c]`. Each chain is a pure function of its key, so the result
 * is bit-identical for any worker count — equal to running the chains serially in one thread —
 * and is shaped like the vectorized multi-chain `sampleChain` result (`[draws, chains, ...]` per
 * state part and trace leaf), so `summary` takes either.
 *
 * Effects (`effects.callback`, `effects.debugPrint`) issued by the chains are delivered on this
 * thread; ordered ones in serial program order — chain 0's, then chain 1's, … — whichever worker
 * finishes first. Each call runs in its own effects context, so concurrent calls do not sequence
 * each other, and the caller's `effectsBarrier()` waits for this run's effects. Errors thrown by
 * callbacks on delivery are reported by `effectsBarrier()`, not by this call.
 *
 * @returns a promise of the merged result ({@link SampleChainsResult}) with its `warnings`
 *   (`samplingWarnings` of `allStates` and of the trace fields the module's `traceFn` records
 *   under their `windowedAdaptiveNuts` names: `targetLogProb`, `diverging` or `hasDivergence`,
 *   `energy`, `treeDepth` — taken to hit the maximum at 10; R-hat, ESS and chains that disagree
 *   from the draws alone), handed to `onWarning` and printed with `warn: true`.
 * @throws (rejects with) TypeError/RangeError naming the option for bad options (a worker count
 *   that is not a non-negative integer, a model that is not a module URL or lacks `setup`);
 *   {@link ChainError} naming the chain and carrying the original error when a chain's setup or
 *   step throws or its worker dies — never a partial result; {@link AbortError} when `signal`
 *   aborts, carrying the draws completed so far.
 * @example
 * import { sampleChains, summary } from 'stochax/mcmc';
 * const result = await sampleChains({
 *   model: new URL('./model.js', import.meta.url), chains: 4, workers: 2, seed: 0,
 *   numResults: 1000, numBurninSteps: 500,
 *   onProgress: ({ chain, step, total }) => bars[chain].update(step / total),
 * });
 * // result.allStates: Tensor [1000, 4, ...event]
 * console.log(String(summary(result)));
 */
export async function sampleChains<R extends object = object>(options: SampleChainsOptions<R>): Promise<SampleChainsResult<R> & { readonly warnings: readonly SamplingWarning[] }> {
  const o = checkOptions(FN, options, ['model', 'chains', 'workers', 'pool', 'seed', 'numResults', 'numBurninSteps', 'numStepsBetweenResults', 'setupOptions', 'previous', 'onProgress', 'progressInterval', 'signal', 'onWarning', 'warn']);
  const hooks = warningHooks(FN, o);
  const plan = await planChains(FN, o, resumeFrom(o.previous, o.chains));
  const platform = await loadPlatform();
  const source = o.pool === undefined ? undefined : poolSource(FN, o.pool, plan.url);
  const workers = o.workers === undefined
    ? Math.min(plan.chains, Math.max(1, o.pool?.size ?? platform.cores()))
    : checkNonNegativeInteger(FN, 'workers', o.workers);
  const tasks = Array.from({ length: plan.chains }, (_, c) => plan.task(c));
  const report = plan.onProgress;
  const onProgress = report === undefined ? undefined : (chain: number, p: ChainProgress) => report({ chain, ...p });
  let model: Promise<ModelModule> | undefined;
  const loadModel = () => (model ??= importModelModule(FN, plan.url));
  // Imported here for every worker count: contract errors name `model` the same way, and worker
  // callbacks resolve against this instance.
  await loadModel();
  const results = await inRunContext(async (ctx) => {
    if (workers === 0) return runSerially(await loadModel(), tasks, ctx, plan.signal, onProgress);
    const sequencer = new ChainSequencer(ctx, plan.chains, (name) => loadModel().then((m) => exportedFunction(m, name)));
    return runOnWorkers({ fn: FN, model: plan.url, tasks, workers, ctx, sequencer, signal: plan.signal, onProgress, source });
  });
  // The trace is the module's: its fields are read by name (see samplingWarnings); burn-in is not recorded.
  return withWarnings(hooks, mergeChains(results) as SampleChainsResult<R>);
}

/** The `workers: 0` path: chain after chain in this thread. */
async function runSerially(
  model: ModelModule, tasks: readonly ChainTask[], ctx: EffectsContext, signal: AbortSignal | undefined,
  onProgress: ((chain: number, p: ChainProgress) => void) | undefined,
): Promise<SampleChainResult<object>[]> {
  const results: SampleChainResult<object>[] = [];
  for (const task of tasks) {
    const c = task.chainIndex;
    try {
      results.push(await runChainInProcess(FN, model, task, ctx, {
        signal, onProgress: onProgress === undefined ? undefined : (p) => onProgress(c, p),
      }));
    } catch (e) {
      if (!(e instanceof AbortError)) throw new ChainError(FN, c, e);
      const chains: (PartialChain<object> | undefined)[] = tasks.map((t, i) => (i < c ? completedAsPartial(results[i]!, t.numResults) : undefined));
      chains[c] = e.partial as PartialChain<object>;
      const partial = partialChains(chains);
      throw new AbortError(`${FN}: aborted (draws completed per chain: ${partial.numResults.join(', ')})`, partial, signal?.reason);
    }
  }
  return results;
}
