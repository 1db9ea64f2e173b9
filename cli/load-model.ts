/**
 * Loading a model module for `stochax sample`, and the contract it must meet.
 *
 * A model module exports ONE of (both is an error):
 *
 * 1. `model` (or a default export): a `JointDistribution` (e.g. `JointDistributionNamed`) or a
 *    `JointDistributionPinned`, sampled with `windowedAdaptiveNuts`; optionally
 *    - `pins`: values of the observed nodes (`model.experimentalPin(pins)`),
 *    - `options`: further `windowedAdaptiveNuts` options (`targetAcceptProb`, `maxTreeDepth`,
 *      `initStepSize`, …). The flags `--chains`, `--draws`, `--warmup` and `--seed` set
 *      `nChains`, `nDraws`, `numAdaptationSteps` and `seed`, overriding `options`.
 *    - `coords` and `dims` (ArviZ's and PyMC's names, beside `model` like `pins`):
 *      `coords = { school: ['Choate', …] }` labels a dimension's positions, `dims = { theta:
 *      ['school'], y: ['school'] }` names each variable's event axes; the summary, draws.csv,
 *      draws.json and report.html label elements by them (`theta[Choate]`). They are checked
 *      against the model before sampling. (`options.coords`/`options.dims` work too; not both.)
 *    The chains run vectorized in this process (their warm-up shares one step size, so they
 *    cannot be split across workers or processes).
 * 2. `setup(context)`: the `sampleChains` model-module contract (mcmc/parallel): a custom kernel,
 *    one chain per call, `{ kernel, currentState, traceFn? }`; optionally `names` (labels of
 *    the state parts) and `coords`/`dims` for them (checked against the draws). These chains are independent: `--workers` runs them on worker threads and
 *    `--chain-index` runs one chain of N in this process; merged, the results are bit-identical.
 *
 * `.ts` modules are loaded through tsx (already active under `tsx cli/main.ts` and vitest;
 * otherwise tsx's ESM loader is registered on demand), `.js`/`.mjs` with plain `import()`. A CLI
 * compiled in `dist/` loads a model's imports of the package's sources from `dist/` too
 * (`source-hooks.ts`), so the model and the CLI share one copy of the library.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { JointDistribution } from '../distributions/joint/joint-distribution.js';
import { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, StructKind } from '../distributions/joint/values.js';
import type { WindowedAdaptiveNutsOptions } from '../mcmc/windowed-adaptive-nuts.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { modelGraph, type ModelGraph } from '../distributions/joint/model-graph.js';
import { checkCoordsDims, type CoordsDims, type Dims } from '../mcmc/diagnostics/coords.js';

/** A module exporting a joint distribution (sampled with `windowedAdaptiveNuts`). */
export interface JointModelModule {
  readonly kind: 'joint';
  readonly model: JointDistribution<StructKind> | JointDistributionPinned<StructKind>;
  readonly pins: PartialValues | undefined;
  /** `options` without `coords` and `dims` (those are below). */
  readonly options: WindowedAdaptiveNutsOptions;
}

/** A module exporting `setup` (the `sampleChains` contract). */
export interface SetupModelModule {
  readonly kind: 'setup';
  readonly names: readonly string[] | undefined;
}

export type LoadedModel = (JointModelModule | SetupModelModule) & CoordsDims & {
  /** The module's absolute path and `file:` URL, and its file name for the settings. */
  readonly path: string;
  readonly url: string;
  readonly name: string;
};

const TS = /\.[mc]?tsx?$/;
let tsxRegistered = false;

/**
 * `import()`, registering tsx's ESM loader first when a `.ts` model meets a CLI compiled to
 * JavaScript (running from sources, tsx or vitest already loads TypeScript). Registering before
 * the first import matters: Node caches a failed import of a URL.
 */
async function importModule(path: string, url: string): Promise<Record<string, unknown>> {
  const fromSources = TS.test(new URL(import.meta.url).pathname);
  if (TS.test(path) && !fromSources && !tsxRegistered) {
    let api: { register: () => unknown };
    try {
      api = await import('tsx/esm/api') as unknown as { register: () => unknown };
    } catch {
      throw new CliError(`${basename(path)} is TypeScript and tsx is not installed: install it (npm i -D tsx) or compile the model to .js`);
    }
    api.register();
    tsxRegistered = true;
  }
  if (!fromSources) await registerSourceHooks();   // after tsx's: the hook registered last runs first
  return await import(/* @vite-ignore */ url) as Record<string, unknown>;
}

let sourceHooks = false;

/**
 * When this CLI runs compiled from the package's `dist/`, imports of the package's own sources
 * load their compiled modules (`source-hooks.ts`): one copy of the library. Needs `module.register`
 * (Node ≥ 20.6); without it the model keeps its own copy, as before.
 */
async function registerSourceHooks(): Promise<void> {
  if (sourceHooks) return;
  sourceHooks = true;
  const here = new URL(import.meta.url);
  if (!/\/dist\/cli\/load-model\.js$/.test(here.pathname)) return;
  const { register } = await import('node:module') as { register?: (specifier: URL, options: { data: unknown }) => void };
  register?.(new URL('./source-hooks.js', here), { data: { root: new URL('../../', here).href } });
}

/**
 * Imports the model module at `file` (resolved against `cwd`) and checks the contract.
 *
 * @throws CliError when the file is missing, cannot be imported, or exports neither a joint
 *   distribution `model` nor `setup`.
 * @example
 * const m = await loadModel('examples/eight-schools.ts', process.cwd());
 */
export async function loadModel(file: string, cwd: string): Promise<LoadedModel> {
  const path = resolve(cwd, file);
  const name = basename(path);
  if (!existsSync(path)) throw new CliError(`model file not found: ${path} (give the path of a .ts or .js model module)`);
  if (!statSync(path).isFile()) throw new CliError(`${path} is not a file (give the path of a .ts or .js model module)`);
  if (!/\.(?:[mc]?[jt]sx?)$/.test(path)) throw new CliError(`${name} is not a .ts or .js module`);
  const url = pathToFileURL(path).href;
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path, url);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`could not import ${name}: ${oneLine(e)}`);
  }
  const base = { path, url, name };
  if (mod.setup !== undefined && (mod.model !== undefined || mod.default !== undefined)) {
    // Guessing which one was meant would sample the wrong thing without a word.
    throw new CliError(`${name} exports both \`setup\` and \`${mod.model !== undefined ? 'model' : 'default'}\`: export one (\`model\` for windowedAdaptiveNuts, \`setup\` for a custom kernel)`);
  }
  if (mod.setup !== undefined && typeof mod.setup !== 'function') throw new CliError(`${name}: \`setup\` must be a function (the sampleChains contract); got ${typeof mod.setup}`);
  if (typeof mod.setup === 'function') {
    const names = mod.names;
    if (names !== undefined && (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))) {
      throw new CliError(`${name}: \`names\` must be an array of strings (labels of the state parts)`);
    }
    return { ...base, ...labelsOf(name, mod, undefined), kind: 'setup', names: names as string[] | undefined };
  }
  const model = mod.model ?? mod.default;
  if (model === undefined) {
    throw new CliError(`${name} exports no model: add \`export const model = new JointDistributionNamed({ … })\` (and \`export const pins = { … }\` for observed data), or \`export function setup(ctx)\` for a custom kernel`);
  }
  let joint: boolean;
  try {   // by brand: a model built with another copy of stochax (e.g. the installed package) passes
    joint = model instanceof JointDistribution || model instanceof JointDistributionPinned;
  } catch (e) {   // the brand of an incompatible stochax version
    throw new CliError(`${name}: \`model\`: ${oneLine(e)}`);
  }
  if (!joint) {
    const what = model === null ? 'null' : typeof model === 'object' ? (model.constructor?.name ?? 'an object') : typeof model;
    const hint = typeof model === 'object' && model !== null && 'nodeNames' in model
      ? ' from a copy of stochax without cross-copy brands (an older build: install or build one version of stochax)' : '';
    throw new CliError(`${name}: \`model\` must be a JointDistribution (e.g. JointDistributionNamed) or a pinned one; got ${what}${hint}`);
  }
  const pins = mod.pins;
  if (pins !== undefined && (pins === null || typeof pins !== 'object' || Array.isArray(pins))) {
    throw new CliError(`${name}: \`pins\` must be a record of observed values by node name`);
  }
  const options = mod.options ?? {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new CliError(`${name}: \`options\` must be an object of windowedAdaptiveNuts options`);
  }
  const { coords: _c, dims: _d, ...rest } = options as WindowedAdaptiveNutsOptions;
  return { ...base, ...labelsOf(name, mod, options as WindowedAdaptiveNutsOptions), kind: 'joint', model: model as JointModelModule['model'], pins: pins as PartialValues | undefined, options: rest };
}

/**
 * The module's `coords` and `dims` (exports, or its `options`' — not both), checked in form
 * (unique labels, dimension names); their fit with the variables is checked where the shapes are known.
 */
function labelsOf(name: string, mod: Record<string, unknown>, options: WindowedAdaptiveNutsOptions | undefined): CoordsDims {
  const out: { coords?: unknown; dims?: unknown } = {};
  for (const k of ['coords', 'dims'] as const) {
    if (mod[k] !== undefined && options?.[k] !== undefined) throw new CliError(`${name} gives \`${k}\` twice (exported and in \`options\`): keep one`);
    const v = mod[k] ?? options?.[k];
    if (v !== undefined) out[k] = v;
  }
  const checked = checkCoordsDims(name, out.coords, out.dims);
  return { ...(checked.coords === undefined ? {} : { coords: checked.coords }), ...(checked.dims === undefined ? {} : { dims: checked.dims }) };
}

/**
 * A joint module's graph (`modelGraph` with its pins and `dims`, e.g. the run's, which add the
 * derived values' dims) for report.html; undefined, with a note, for a model without one (a
 * coroutine does not declare its parents).
 *
 * @example
 * const graph = moduleGraph(model, model.dims, io);
 */
export function moduleGraph(model: JointModelModule, dims: Dims | undefined, io: CliIo): ModelGraph | undefined {
  try {
    return modelGraph(model.model, { ...(model.pins === undefined ? {} : { pins: model.pins }), ...(dims === undefined ? {} : { dims }) });
  } catch (e) {
    io.stderr(`note: report.html has no model graph: ${oneLine(e)}\n`);
    return undefined;
  }
}
