/**
 * `windowedAdaptiveNutsChains`: the chains of `windowedAdaptiveNuts` (per-chain adaptation) for
 * a joint model module, on worker threads.
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { ChainSequencer } from '../../src/effects/sequencer.js';
import { sanitizeSeed, type Seed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { StructKind } from '../../distributions/joint/values.js';
import type { ChainProgress } from '../sample-chain.js';
import { windowedAdaptiveNutsSteps, withoutGibbsPins, type WindowedAdaptiveNutsResult, type WindowedProgress, type WindowedTrace } from '../windowed-adaptive-nuts.js';
import { gibbsFlatTarget, gibbsInfo } from '../nuts/stan/gibbs.js';
import { compiledField, withDeterministics } from '../nuts/windowed-common.js';
import { flatTarget, pinModel } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { checkJointModule, type ChainTask, type JointChainFinal, type JointChainOptions } from './chain-task.js';
import type { Rejection } from '../internal/rejections.js';
import type { PerChainResume } from '../nuts/windowed-common.js';
import { mergeChains } from './merge-chains.js';
import { exportedFunction, importModule } from './model-module.js';
import { poolSource, type WorkerPool } from './pool.js';
import { loadPlatform, moduleUrl, yieldToEventLoop } from './platform.js';
import { inRunContext } from './run-in-process.js';
import { runOnWorkers } from './worker-pool.js';
import { warningHooks, withWarnings, type WarningOptions } from '../diagnostics/warning-hooks.js';

export interface WindowedChainsOptions extends Omit<JointChainOptions, 'onWarning' | 'warn'>, WarningOptions {
  /**
   * The model module: a `URL`, an absolute URL string or (in Node) an absolute path, of a module
   * exporting `model` (a joint distribution), and optionally `pins` and `options` (defaults for
   * `windowedAdaptiveNuts`, overridden by the ones given here), as `stochax sample` reads it.
   */
  readonly model: string | URL;
  /** Worker threads (default: the pool's size, else the available cores, at most `nChains`); 0 runs the chains in this thread. */
  readonly workers?: number;
  /** Warm workers from `createWorkerPool({ model })` for this module, kept across calls. */
  readonly pool?: WorkerPool;
  /** Each chain's progress, as `windowedAdaptiveNuts` reports it (an unordered effect, delivered on this thread). */
  readonly onProgress?: (progress: WindowedProgress) => void;
  readonly progressInterval?: number;
  /** Stops the run; the call rejects with an `AbortError` whose `partial` holds the draws completed so far per chain. */
  readonly signal?: AbortSignal;
}

const FN = 'windowedAdaptiveNutsChains';

/**
 * Runs `windowedAdaptiveNuts(model, { ...options, adaptation: 'per-chain' })` with its chains
 * spread over worker threads: worker w runs `windowedAdaptiveNuts(model, { ..., chainIndex: c })`
 * for the chains it is given, and the chains are joined in order. Each chain is a pure function
 * of the seed and its index, so the draws and trace are bit-identical to the in-process call for
 * any worker count.
 *
 * @returns a promise of `{ draws, trace, warnings }` as `windowedAdaptiveNuts` returns them (`[nDraws, nChains, ...]`;
 *   the warnings are those of all chains together, handed to `onWarning` and printed with `warn` as there).
 * @throws (rejects with) TypeError/RangeError naming the option (a module without a joint
 *   `model`, `adaptation: 'pooled'`, whose chains cannot be split); `ChainError` naming the chain
 *   when one fails; `AbortError` when `signal` aborts.
 * @example
 * import { windowedAdaptiveNutsChains, summary } from 'stochax/mcmc';
 * const { draws, trace } = await windowedAdaptiveNutsChains({ model: new URL('./eight-schools.js', import.meta.url), nChains: 4, workers: 2, seed: 0 });
 * console.log(String(summary(draws, { divergences: trace.diverging })));
 */
export async function windowedAdaptiveNutsChains(options: WindowedChainsOptions): Promise<WindowedAdaptiveNutsResult<StructKind, WindowedTrace>> {
  const o = checkOptions(FN, options, ['model', 'workers', 'pool', 'onProgress', 'progressInterval', 'signal', 'nChains', 'numAdaptationSteps', 'nDraws', 'numStepsBetweenResults',
    'seed', 'pins', 'initStepSize', 'targetAcceptProb', 'dualAveraging', 'maxTreeDepth', 'maxEnergyDiff', 'discardTuning', 'compile', 'adaptation', 'metric', 'onWarning', 'warn']);
  const url = await moduleUrl(FN, o.model);
  const m = checkJointModule(FN, await importModule(FN, url));
  // The module's options are defaults here too; the chains on workers never warn alone.
  const warnHooks = warningHooks(FN, { onWarning: o.onWarning ?? m.options?.onWarning, warn: o.warn ?? m.options?.warn });
  const { model: _url, workers: w, pool, onProgress, progressInterval, signal, onWarning: _onWarning, warn: _warn, ...given } = o;
  const settings: JointChainOptions = { ...given, seed: sanitizeSeed(given.seed ?? m.options?.seed) };   // one key for every chain
  const merged = { ...m.options, ...settings };
  if (merged.adaptation === 'pooled') fail('range', FN, 'adaptation', "must be 'per-chain': pooled chains share their warm-up and cannot run apart", merged.adaptation);
  const nChains = checkNonNegativeInteger(FN, 'nChains', merged.nChains ?? 4);
  const workers = w === undefined ? Math.min(nChains, Math.max(1, pool?.size ?? (await loadPlatform()).cores())) : checkNonNegativeInteger(FN, 'workers', w);
  const source = pool === undefined ? undefined : poolSource(FN, pool, url);
  const hooks = { ...(onProgress === undefined ? {} : { onProgress }), ...(progressInterval === undefined ? {} : { progressInterval }), ...(signal === undefined ? {} : { signal }) };
  if (workers === 0 || nChains < 1) {
    // In slices of steps with a turn of the event loop between them, so a timer's or an event's abort is seen (one synchronous call would see it only at the end).
    // workers: 0 is this thread only (cores: 1), so the steps can give the event loop its turns.
    const steps = windowedAdaptiveNutsSteps(m.model, { ...merged, ...(m.pins === undefined ? {} : { pins: m.pins }), ...hooks, onWarning: warnHooks.onWarning, warn: warnHooks.warn, cores: 1 });
    for (;;) {
      const end = performance.now() + 15;
      let r = steps.next();
      while (!r.done && performance.now() < end) r = steps.next();
      if (r.done) return r.value as WindowedAdaptiveNutsResult<StructKind, WindowedTrace>;
      await yieldToEventLoop();
    }
  }
  // The flat model before any worker starts: a model this path cannot take fails now, not after the run. Discrete nodes that cannot be summed out take Gibbs steps on the workers, as in windowedAdaptiveNuts.
  const flat = flatModel(FN, pinModel(FN, m.model, m.pins), { gibbs: true });
  const tasks: ChainTask[] = Array.from({ length: nChains }, (_, c) => ({
    chainIndex: c, chains: nChains, key: settings.seed as never, numResults: merged.nDraws ?? 1000, numBurninSteps: 0, numStepsBetweenResults: 0,
    setupOptions: undefined, resume: undefined, progressInterval: progressInterval ?? 100,
    joint: { ...settings, warn: false, onWarning: undefined },   // a chain alone does not warn: the warnings come from all chains, below
  }));
  const report = onProgress === undefined ? undefined : (chain: number, p: ChainProgress) => onProgress({ chain, ...p });
  const results = await inRunContext(async (ctx) => {
    const sequencer = new ChainSequencer(ctx, nChains, async (name) => exportedFunction(m, name));
    return runOnWorkers({ fn: FN, model: url, tasks, workers, ctx, sequencer, signal, onProgress: report, ...(source === undefined ? {} : { source }) });
  });
  const { allStates, trace } = mergeChains(results);
  // The model's derived values, per draw, as windowedAdaptiveNuts returns them (computed here, from the merged draws).
  // (Enumerated discrete nodes drawn back from the run's key, as in windowedAdaptiveNuts.)
  const derived = (withDeterministics(withoutGibbsPins(flat), { draws: allStates } as never, { seed: settings.seed as Seed }) as { deterministics?: Record<string, Tensor> }).deterministics ?? {};
  // Whether the workers' log density compiled: the same rule, here (the compiler's cache keeps it cheap; a Gibbs target is traced again).
  const compiled = compiledField(flat.gibbs === undefined ? flatTarget(FN, flat, merged.compile !== false) : gibbsFlatTarget(FN, flat, merged.compile !== false));
  // The chains' own end states (the per-chain engine's): their rejections as one record, their states as one resume.
  const finals = results.map((r) => r.finalKernelResults as JointChainFinal);
  const resume = joinResumes(finals.map((f) => f.resume));
  // The Gibbs steps' report from the chains' own final states (as windowedAdaptiveNuts makes it).
  const gibbs = flat.gibbs === undefined || resume === undefined ? undefined : gibbsInfo(flat.gibbs, resume.chains.map((st) => st.gibbs!));
  const done = {
    draws: allStates as never, trace: trace as WindowedTrace, ...(Object.keys(derived).length === 0 ? {} : { deterministics: derived }), ...compiled,
    rejections: joinRejections(finals.map((f) => f.rejections)), ...(resume === undefined ? {} : { resume }), ...(gibbs === undefined ? {} : { gibbs }),
  };
  return withWarnings(warnHooks, done, { maxTreeDepth: merged.maxTreeDepth ?? 10, warmupDraws: merged.discardTuning === false ? merged.numAdaptationSteps ?? 1000 : 0 });
}

/**
 * One rejection record from the chains' own (disjoint chains), as the in-process run makes it:
 * per kind the counts add up, the chains join, and the first rejection (message and node) is the
 * earliest transition's (ties: the lower chain, as the engine takes its chains in order); kinds
 * come in the order of their first rejections.
 */
function joinRejections(lists: readonly (readonly Rejection[])[]): Rejection[] {
  const byKind = new Map<string, Rejection>();
  for (const list of lists) {
    for (const r of list) {
      const key = r.gibbs === undefined ? r.kind : `${r.kind}\u0000gibbs:${r.gibbs.node}`;   // a Gibbs step's rejections apart, by node (as RejectionLog keeps them)
      const have = byKind.get(key);
      if (have === undefined) { byKind.set(key, r); continue; }
      const earlier = r.first.transition < have.first.transition || (r.first.transition === have.first.transition && r.first.chain < have.first.chain);
      const first = earlier ? r : have;
      byKind.set(key, {
        ...first, count: have.count + r.count, warmupCount: have.warmupCount + r.warmupCount,
        chains: [...new Set([...have.chains, ...r.chains])].sort((a, b) => a - b),
      });
    }
  }
  return [...byKind.values()].sort((a, b) => a.first.transition - b.first.transition || a.first.chain - b.first.chain);
}

/** The chains' resume states as one (each chain ran alone, with the same key and settings), or undefined when one is missing. */
function joinResumes(parts: readonly (PerChainResume | undefined)[]): PerChainResume | undefined {
  if (parts.some((p) => p === undefined) || parts.length === 0) return undefined;
  return { ...parts[0]!, chains: parts.flatMap((p) => p!.chains) };
}
