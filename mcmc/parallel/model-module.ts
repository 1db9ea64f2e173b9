/**
 * The model-module contract of `sampleChains`. Workers cannot receive functions, so the model is
 * a module, named by URL, that every worker (and the main thread) imports:
 *
 * ```ts
 * // model.ts
 * import { HamiltonianMonteCarlo } from 'stochax/mcmc';
 * import { zeros } from 'stochax';
 * export function setup({ chainIndex, chains, seed, options }: ChainSetupContext): ChainSetup {
 *   const kernel = new HamiltonianMonteCarlo({ targetLogProbFn, stepSize: 0.1, numLeapfrogSteps: 8 });
 *   return { kernel, currentState: zeros([3]), traceFn: (_, r) => r.isAccepted };
 * }
 * export function logStep(step: number) { ... }   // usable with effects.callback in the worker
 * ```
 *
 * `setup` describes ONE chain: `currentState` has no chain dims (the target's log density is a
 * scalar), and the results come back stacked as `[draws, chains, ...]`. It may be async, runs in
 * the thread that runs the chain, and is called once per chain; cache expensive work (data, a
 * compiled target) at module level. Module top-level code runs once per worker, and once in the
 * main thread (which imports the module to resolve callbacks and for `workers: 0`); a script that
 * is its own model module must not `await sampleChains(...)` at top level, since the import
 * would wait for the script itself.
 */
import { checkFunction, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import type { State, TransitionKernel } from '../kernel.js';
import type { Trace } from '../internal/stack.js';

/** What `setup` is told about the chain it sets up. */
export interface ChainSetupContext {
  /** Which chain (0 … chains − 1). */
  readonly chainIndex: number;
  /** How many chains the run has. */
  readonly chains: number;
  /**
   * A key for the setup's own randomness (e.g. a random initial state): chain c's key
   * `split(sanitizeSeed(seed), chains)[c]` salted with `'sampleChains.setup'`, so it differs from
   * the key the chain samples with.
   */
  readonly seed: KeyArray;
  /** `sampleChains`' `setupOptions` (a structured-cloneable value), copied. */
  readonly options: unknown;
}

/** What `setup` returns: one chain's kernel, starting state and trace function. */
export interface ChainSetup<R extends object = object> {
  readonly kernel: TransitionKernel<R>;
  /** The chain's starting state, without chain dims. */
  readonly currentState: State;
  /** What to record per draw besides the state (default: nothing). */
  readonly traceFn?: (state: State, results: R) => Trace;
}

/** A model module: exports `setup`, and any functions its effects call back by name. */
export interface ModelModule {
  setup(context: ChainSetupContext): ChainSetup | Promise<ChainSetup>;
  readonly [name: string]: unknown;
}

/**
 * Checks that an imported module meets the contract.
 *
 * @throws TypeError naming `fn` and `model` when the module does not export a `setup` function.
 * @example
 * const model = checkModelModule('sampleChains', url, await import(url));
 */
export function checkModelModule(fn: string, url: string, module: unknown): ModelModule {
  if (module === null || typeof module !== 'object' || typeof (module as { setup?: unknown }).setup !== 'function') {
    fail('type', fn, 'model', `must be a module exporting \`setup({ chainIndex, chains, seed, options })\`; ${url} does not export a setup function`, url);
  }
  return module as ModelModule;
}

/**
 * Imports the model module at `url` (a module URL string) and checks it.
 *
 * @throws TypeError naming `fn` and `model` if the import fails or the module lacks `setup`.
 * @example
 * const model = await importModelModule('sampleChains', new URL('./model.js', import.meta.url).href);
 */
export async function importModelModule(fn: string, url: string): Promise<ModelModule> {
  return checkModelModule(fn, url, await importModule(fn, url));
}

/**
 * Imports the module at `url`, unchecked (a `setup` module or a joint model's).
 *
 * @throws TypeError naming `fn` and `model` if the import fails.
 * @example
 * const module = await importModule('windowedAdaptiveNutsChains', url);
 */
export async function importModule(fn: string, url: string): Promise<object> {
  try {
    return await import(/* @vite-ignore */ url) as object;
  } catch (e) {
    throw new TypeError(`${fn}: \`model\` could not be imported from ${url}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/**
 * The function `module` exports as `name`: where the main thread delivers an effects callback a
 * worker posted by name.
 *
 * @throws TypeError when there is no such function export.
 * @example
 * const f = exportedFunction(model, 'logStep');
 */
export function exportedFunction(module: object, name: string): Function {
  const f = (module as Record<string, unknown>)[name];
  if (typeof f !== 'function') throw new TypeError(`effects.callback: the model module has no function export "${name}" on the main thread`);
  return f;
}

/**
 * The name under which `module` exports `f` (for posting callbacks by name), if any.
 *
 * @example
 * exportNameOf(model, model.logStep as Function); // 'logStep'
 */
export function exportNameOf(module: ModelModule, f: Function): string | undefined {
  for (const [name, value] of Object.entries(module)) if (value === f) return name;
  return undefined;
}

/**
 * Checks what `setup` returned.
 *
 * @throws TypeError naming `fn` and `setup` for a missing kernel or state, or a non-function traceFn.
 * @example
 * const { kernel, currentState } = checkChainSetup('sampleChains', await model.setup(ctx));
 */
export function checkChainSetup(fn: string, s: unknown): ChainSetup {
  if (s === null || typeof s !== 'object') fail('type', fn, 'setup', 'must return { kernel, currentState, traceFn? }', s);
  const r = s as Partial<ChainSetup>;
  if (r.kernel === null || typeof r.kernel !== 'object' || typeof r.kernel.oneStep !== 'function') {
    fail('type', fn, 'setup().kernel', 'must be a TransitionKernel', r.kernel);
  }
  if (r.currentState === undefined) fail('type', fn, 'setup().currentState', 'must be a Tensor or an array of Tensors', r.currentState);
  if (r.traceFn !== undefined) checkFunction(fn, 'setup().traceFn', r.traceFn);
  return r as ChainSetup;
}
