/**
 * One chain of a multi-chain run, as a task any thread can execute: which chain, its key, the
 * loop's counts, and where to resume from. The same function prepares the chain in a worker and
 * in the main thread, so where a chain runs cannot change its draws.
 */
import { getModes } from '../../src/config.js';
import { decodeValue, encodeValue, type Encoded } from '../../src/effects/clone.js';
import { splitKeys, type KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, type Seed } from '../../src/samplers/seeds.js';
import type { State } from '../kernel.js';
import { sampleChainSteps, type ChainProgress, type SampleChainResult } from '../sample-chain.js';
import { checkChainSetup, type ModelModule } from './model-module.js';
import { fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { JointDistribution } from '../../distributions/joint/joint-distribution.js';
import { JointDistributionPinned } from '../../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, StructKind } from '../../distributions/joint/values.js';
import { windowedAdaptiveNuts, type PerChainResume, type WindowedAdaptiveNutsOptions, type WindowedPartial } from '../windowed-adaptive-nuts.js';
import type { Rejection } from '../internal/rejections.js';
import { AbortError } from '../abort-error.js';
import type { PartialChain } from '../sample-chain.js';

/** Where a chain resumes: a previous run's last state, kernel results and carried seed for it. */
export interface ChainResume<R extends object = object> {
  readonly currentState: State;
  readonly kernelResults: R;
  readonly seed: KeyArray;
}

/** Everything a thread needs to run chain `chainIndex` of `chains`. */
export interface ChainTask {
  readonly chainIndex: number;
  readonly chains: number;
  /** `split(sanitizeSeed(seed), chains)[chainIndex]`. */
  readonly key: KeyArray;
  readonly numResults: number;
  readonly numBurninSteps: number;
  readonly numStepsBetweenResults: number;
  readonly setupOptions: unknown;
  readonly resume: ChainResume | undefined;
  readonly progressInterval: number;
  /**
   * Set for a joint-distribution module (exporting `model`, optional `pins` and `options`):
   * the chain is `windowedAdaptiveNuts(model, { ...options, pins, ...joint, chainIndex })`, and
   * `key`, the counts and `resume` are unused.
   */
  readonly joint?: JointChainOptions;
}

/**
 * What a joint chain returns besides its draws (as its `finalKernelResults`): the per-chain
 * engine's own end state — the chain's rejected proposals and its state to continue from.
 */
export interface JointChainFinal {
  readonly rejections: readonly Rejection[];
  readonly resume: PerChainResume | undefined;
}

/** The `windowedAdaptiveNuts` options a joint chain task carries (structured-cloneable ones only). */
export type JointChainOptions = Omit<WindowedAdaptiveNutsOptions, 'chainIndex' | 'onProgress' | 'signal' | 'traceFn' | 'currentState' | 'progressInterval'>;

/**
 * The key chain `chainIndex` of `chains` samples with: `split(sanitizeSeed(seed), chains)[chainIndex]`
 * (no salt; `sampleChain` then salts it with `'mcmc.sample_chain'` as usual). Sanitize an
 * `undefined` seed once and pass the key, or every chain gets a fresh unrelated key.
 *
 * @example
 * const k3 = chainKey(0, 8, 3); // the key of chain 3 of 8 for seed 0
 */
export function chainKey(seed: Seed | KeyArray, chains: number, chainIndex: number): KeyArray {
  return splitKeys(sanitizeSeed(seed), chains, getModes())[chainIndex]!;
}

/**
 * Calls the model's `setup` for the task's chain and returns the chain's step iterator (see
 * `sampleChainSteps`). `onProgress` and `signal` are passed to the loop.
 *
 * @throws what `setup` throws; TypeError naming `fn` if it returns something else than a setup.
 * @example
 * const steps = await prepareChain('sampleChains', model, task, {});
 * let r = steps.next(); while (!r.done) r = steps.next();
 */
export async function prepareChain(
  fn: string, module: object, task: ChainTask,
  hooks: { readonly signal?: AbortSignal; readonly onProgress?: (p: ChainProgress) => void },
): Promise<Generator<void, SampleChainResult<object>, void>> {
  if (task.joint !== undefined) return jointChain(fn, module, task, hooks);
  const model = module as ModelModule;
  const seed = sanitizeSeed(task.key, { salt: 'sampleChains.setup' });
  const s = checkChainSetup(fn, await model.setup({ chainIndex: task.chainIndex, chains: task.chains, seed, options: task.setupOptions }));
  const resume = task.resume;
  return sampleChainSteps<object>({
    numResults: task.numResults,
    numBurninSteps: task.numBurninSteps,
    numStepsBetweenResults: task.numStepsBetweenResults,
    kernel: s.kernel,
    currentState: resume?.currentState ?? s.currentState,
    traceFn: s.traceFn,
    seed: resume?.seed ?? task.key,
    previousKernelResults: resume?.kernelResults,
    signal: hooks.signal,
    onProgress: hooks.onProgress,
    progressInterval: task.progressInterval,
  });
}

/**
 * A joint module's chain as the worker loop runs it: one `windowedAdaptiveNuts` call for the
 * task's chain, its draws and trace without the chains axis (a view: the worker loop's results are
 * per chain), and as final results the engine's own {@link JointChainFinal} (rejections and the
 * state to continue from; an abort's partial carries the state where the chain stopped).
 */
function* jointChain(
  fn: string, module: object, task: ChainTask,
  hooks: { readonly signal?: AbortSignal; readonly onProgress?: (p: ChainProgress) => void },
): Generator<void, SampleChainResult<object>, void> {
  const m = checkJointModule(fn, module);
  const report = hooks.onProgress;
  try {
    const r = windowedAdaptiveNuts(m.model, {
      ...m.options, ...(m.pins === undefined ? {} : { pins: m.pins }), ...task.joint, chainIndex: task.chainIndex, progressInterval: task.progressInterval,
      ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
      ...(report === undefined ? {} : { onProgress: ({ step, total, phase, divergences, warmupDivergences }: ChainProgress) => report({ step, total, phase, divergences, warmupDivergences }) }),
    });
    const final: JointChainFinal = { rejections: r.rejections ?? [], resume: r.resume };
    return { allStates: dropChainAxis(r.draws) as State, trace: dropChainAxis(r.trace), finalKernelResults: final, finalSeed: task.key };
  } catch (e) {
    if (!(e instanceof AbortError)) throw e;
    const p = e.partial as WindowedPartial;
    const allStates = p.draws === undefined ? undefined : dropChainAxis(p.draws) as State;
    const partial: PartialChain<object> = { numResults: p.numResults, allStates, trace: p.trace === undefined ? undefined : dropChainAxis(p.trace), currentState: allStates ?? [], finalKernelResults: { rejections: [], resume: p.resume } satisfies JointChainFinal, finalSeed: task.key };
    throw new AbortError(e.message, partial, e.cause);
  }
}

/** A joint model module's exports, checked: `model`, and optional `pins` and `options`. */
export function checkJointModule(fn: string, module: object): { model: JointDistribution<StructKind> | JointDistributionPinned<StructKind>; pins?: PartialValues; options?: WindowedAdaptiveNutsOptions } {
  const m = module as { model?: unknown; pins?: PartialValues; options?: WindowedAdaptiveNutsOptions };
  if (!(m.model instanceof JointDistribution || m.model instanceof JointDistributionPinned)) fail('type', fn, 'model', 'must be a module exporting `model`, a joint distribution', m.model);
  return m as never;
}

/** `[N, 1, ...]` leaves (one chain of a draws-by-chains tree) → `[N, ...]`. */
function dropChainAxis<T>(tree: T): T {
  if (tree instanceof Tensor) return new Tensor(tree.data, [tree.shape[0]!, ...tree.shape.slice(2)], tree.dtype) as T;
  if (Array.isArray(tree)) return tree.map(dropChainAxis) as T;
  if (tree !== null && typeof tree === 'object') return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, dropChainAxis(v)])) as T;
  return tree;
}

/**
 * A task as a structured-cloneable message (keys and tensors tagged, see `encodeValue`).
 *
 * @example
 * worker.postMessage({ type: 'run', task: encodeTask(task) });
 */
export function encodeTask(task: ChainTask): Encoded {
  return encodeValue('sampleChains', 'task', task);
}

/**
 * The task back from {@link encodeTask}'s message.
 *
 * @example
 * const task = decodeTask(message.task);
 */
export function decodeTask(message: Encoded): ChainTask {
  return decodeValue(message) as ChainTask;
}
