/**
 * `stochax optimize | laplace | pathfinder | variational <model>`: CmdStan's other methods on a
 * joint-distribution module (the `model` / `pins` exports `stochax sample` reads). Each writes
 * `draws.json` (an ArviZ InferenceData, one chain), `draws.csv` and a short `report.html`, prints
 * a short summary on stdout and the method's warnings on stderr; `--strict` exits 2 if any.
 *
 * The three approximate methods share one path: their library functions return
 * {@link ApproximateResult} (laplace's shape), and {@link APPROXIMATE_RUNNERS} maps each CLI
 * method to its function.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tensor } from '../src/tensor/tensor.js';
import { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { PartialValues, StructKind } from '../distributions/joint/values.js';
import { summary, type Summary } from '../mcmc/diagnostics/summary.js';
import { laplace } from '../optimize/laplace.js';
import { paretoKThreshold } from '../mcmc/diagnostics/internal/psis.js';
import { pathfinder } from '../optimize/pathfinder.js';
import { advi } from '../optimize/advi.js';
import { optimize, type OptimizeResult } from '../optimize/optimize.js';
import { approximateReportHtml, inferenceData, toDrawsCsv, type InferenceData, type RunSettings } from './report/index.js';
import { runDrawsFiles } from './report/draws-files.js';
import { listFlag, parseArgs, type FlagSpec } from './args.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { loadModel, moduleGraph, type JointModelModule, type LoadedModel } from './load-model.js';
import { checkRunFolder, writeRunFolder } from './output.js';
import { pointTable, readDrawsJson } from './summary.js';
import { stochaxVersion } from './version.js';
import { drawsFileFlags, netcdfNote, writtenList } from './sample.js';
import { printWarnings } from './warnings.js';

/** The CLI's method names (CmdStan's). */
export type MethodName = 'optimize' | 'laplace' | 'pathfinder' | 'variational';
/** The methods that return approximate posterior draws. */
export type ApproximateMethod = Exclude<MethodName, 'optimize'>;

/**
 * What `laplace()`, `pathfinder()` and `advi()` return, as far as the CLI reads it: constrained
 * draws `[draws, 1, ...event]` per node, the log density `logP` and the approximation's `logQ`
 * per draw (`[draws, 1]`), PSIS's Pareto k̂ of logP − logQ, gradient evaluations and warnings.
 */
export interface ApproximateResult {
  readonly draws: Readonly<Record<string, Tensor>> | readonly Tensor[];
  readonly logP: Tensor;
  readonly logQ: Tensor;
  readonly paretoK: number;
  /** The total, or (Pathfinder's, with its per-path counts) a record with the `total`. */
  readonly gradientEvaluations: number | { readonly total: number };
  readonly warnings: readonly string[];
}

/** A joint model as the library functions take it. */
type Model = JointDistribution<StructKind> | JointDistributionPinned<StructKind>;
/** Runs one approximate method: `options` hold the library's option names (pins and seed included). */
type Runner = (model: Model, options: Record<string, unknown>) => ApproximateResult;

/** The library function behind each approximate method. */
export const APPROXIMATE_RUNNERS: Readonly<Record<ApproximateMethod, Runner>> = {
  laplace: (m, o) => laplace(m, o) as ApproximateResult,
  pathfinder: (m, o) => pathfinder(m, o) as ApproximateResult,
  variational: (m, o) => advi(m, o) as ApproximateResult,
};

/** A method's own flag: its parser spec, the library option it sets, and a value converter. */
interface OptionFlag {
  readonly spec: FlagSpec;
  /** The library option name (camelCase); undefined for flags the CLI handles itself. */
  readonly option?: string;
  /** For switches: the option value they set (`--no-jacobian` sets `jacobian: false`). */
  readonly value?: unknown;
  /** For string flags: the allowed values. */
  readonly oneOf?: readonly string[];
}

const int = (min: number): FlagSpec => ({ kind: 'int', min });
const pos: FlagSpec = { kind: 'number', positive: true };
const nonNeg: FlagSpec = { kind: 'number', positive: false };
const bool: FlagSpec = { kind: 'bool' };

/** CmdStan's L-BFGS settings (optimize, laplace's mode search, pathfinder). */
const LBFGS: Readonly<Record<string, OptionFlag>> = {
  iter: { spec: int(1), option: 'iter' },
  'init-alpha': { spec: pos, option: 'initAlpha' },
  'tol-obj': { spec: nonNeg, option: 'tolObj' },
  'tol-rel-obj': { spec: nonNeg, option: 'tolRelObj' },
  'tol-grad': { spec: nonNeg, option: 'tolGrad' },
  'tol-rel-grad': { spec: nonNeg, option: 'tolRelGrad' },
  'tol-param': { spec: nonNeg, option: 'tolParam' },
  'history-size': { spec: int(1), option: 'historySize' },
};

const JACOBIAN: Readonly<Record<string, OptionFlag>> = {
  jacobian: { spec: bool, option: 'jacobian', value: true },
  'no-jacobian': { spec: bool, option: 'jacobian', value: false },
};

/** Every method's own flags. */
const METHOD_FLAGS: Readonly<Record<MethodName, Readonly<Record<string, OptionFlag>>>> = {
  optimize: { algorithm: { spec: { kind: 'string' }, option: 'algorithm', oneOf: ['lbfgs', 'bfgs', 'newton'] }, ...JACOBIAN, ...LBFGS },
  laplace: {
    draws: { spec: int(1), option: 'draws' },
    mode: { spec: { kind: 'string' } },
    algorithm: { spec: { kind: 'string' }, option: 'algorithm', oneOf: ['lbfgs', 'bfgs', 'newton'] },
    ...JACOBIAN, ...LBFGS,
  },
  pathfinder: {
    draws: { spec: int(1), option: 'draws' },
    'num-paths': { spec: int(1), option: 'numPaths' },
    'num-elbo-draws': { spec: int(1), option: 'numElboDraws' },
    'no-psis-resample': { spec: bool, option: 'psisResample', value: false },
    ...LBFGS,
    iter: { spec: int(1), option: 'maxLbfgsIters' },   // CmdStan's max_lbfgs_iters
  },
  variational: {
    algorithm: { spec: { kind: 'string' }, option: 'algorithm', oneOf: ['meanfield', 'fullrank'] },
    iter: { spec: int(1), option: 'iter' },
    'grad-samples': { spec: int(1), option: 'gradSamples' },
    'elbo-samples': { spec: int(1), option: 'elboSamples' },
    eta: { spec: pos, option: 'eta' },
    'no-adapt': { spec: bool, option: 'adaptEngaged', value: false },
    'adapt-iter': { spec: int(1), option: 'adaptIter' },
    'tol-rel-obj': { spec: pos, option: 'tolRelObj' },
    'eval-elbo': { spec: int(1), option: 'evalElbo' },
    'output-draws': { spec: int(1), option: 'outputDraws' },
    draws: { spec: int(1), option: 'outputDraws' },
    'sticking-the-landing': { spec: bool, option: 'stickingTheLanding', value: true },
  },
};

/** Flags every method takes, named as `stochax sample` names them. */
const COMMON_FLAGS: Readonly<Record<string, FlagSpec>> = {
  seed: { kind: 'seed' },
  init: { kind: 'string' },
  'init-radius': pos,
  out: { kind: 'string' },
  force: bool,
  strict: bool,
  prior: int(0),
  'no-predictive': bool,
  'var-names': { kind: 'string' },
  'draws-format': { kind: 'string' },
  'draws-dtype': { kind: 'string' },
};

const COMMON_HELP = `  --seed S         non-negative integer seed (default 0); same seed, same bits
  --init I         start: uniform (default: Stan's uniform(−R, R) on the unconstrained space),
                   prior, median, or a JSON file of constrained values by node name
  --init-radius R  R of the uniform start (default 2)
  --out DIR        output directory (default ./stochax-out); an existing run is replaced only
                   with --force
  --force          replace the run already in --out
  --prior N        prior draws in draws.json's prior groups (default 500; 0: none)
  --no-predictive  leave out log_likelihood, posterior_predictive and the prior groups
  --var-names a,b  only these variables in the printed table and report.html
  --strict         exit with code 2 (after writing the files) when the run has warnings
  --draws-format F, --draws-dtype T
                   as for stochax sample: auto (default: netCDF in idata/ above 1 million
                   values), json or netcdf; float32 halves the predictive groups' .nc files`;

const LBFGS_HELP = `  --iter N         maximum L-BFGS iterations (default 2000)
  --init-alpha A   first line-search step (default 1e-3)
  --tol-obj, --tol-rel-obj, --tol-grad, --tol-rel-grad, --tol-param
                   CmdStan's convergence tolerances (defaults 1e-12, 1e4, 1e-8, 1e7, 1e-8)
  --history-size N L-BFGS history (default 5)`;

const FILES_NOTE = `Writes draws.json (an ArviZ InferenceData: az.from_json reads it; one chain), draws.csv and a
short report.html to --out. The model module is the one \`stochax sample\` reads: it exports
\`model\` (a joint distribution) and optionally \`pins\`, \`dims\` and \`coords\` (its \`options\`,
windowedAdaptiveNuts' settings, do not apply here).`;

export const METHOD_HELP: Readonly<Record<MethodName, string>> = {
  optimize: `Usage: stochax optimize <model.ts|model.js> [flags]

The posterior mode (CmdStan's optimize: L-BFGS, BFGS or Newton on the unconstrained space,
reported constrained). Prints the point, the log density and why the run stopped;
non-convergence is a warning. draws.json holds the point as one draw (sample_stats.lp: the log
density) and the convergence information in attrs (converged, reason, iterations,
gradient_evaluations, log_density).
${FILES_NOTE}

Flags:
  --algorithm A    lbfgs (default), bfgs or newton
  --jacobian       the mode of the unconstrained density (Stan's jacobian=1); default: the MAP
                   estimate without the Jacobian (--no-jacobian)
${LBFGS_HELP}
${COMMON_HELP}

Example:
  stochax optimize examples/eight-schools.ts --algorithm bfgs --out map
`,
  laplace: `Usage: stochax laplace <model.ts|model.js> [flags]

Stan's laplace_sample: a normal approximation at the mode (unconstrained space), its draws
mapped to constrained space, with logP and logQ per draw (sample_stats.log_p, log_q) and PSIS's
Pareto k̂ of their ratio (k̂ above 0.7 is a warning: do not trust the approximation). The mode
is found first with optimize's flags (with the same --jacobian), or read with --mode from the
draws.json of \`stochax optimize\`.
${FILES_NOTE}

Flags:
  --draws N        draws (default 1000)
  --jacobian       (default) approximate the unconstrained density with its log-Jacobian;
                   --no-jacobian without it (Stan's jacobian=0)
  --mode FILE      the mode: a draws.json written by \`stochax optimize\` (one draw)
  --algorithm A    the mode search: lbfgs (default), bfgs or newton
${LBFGS_HELP}
${COMMON_HELP}

Example:
  stochax laplace examples/eight-schools.ts --draws 2000 --out laplace
`,
  pathfinder: `Usage: stochax pathfinder <model.ts|model.js> [flags]

Multi-path Pathfinder (Zhang et al. 2022, Stan's defaults): normal approximations along L-BFGS
paths, the best by ELBO per path, combined by PSIS resampling. draws.json holds the draws with
logP and logQ per draw (sample_stats.log_p, log_q); Pareto k̂ is reported.
${FILES_NOTE}

Flags:
  --draws N        draws (default 1000)
  --num-paths N    paths (default 4)
  --num-elbo-draws N  draws per ELBO estimate (default 25)
  --no-psis-resample  keep every path's draws instead of resampling them
  (--iter is each path's max_lbfgs_iters here: default 1000)
${LBFGS_HELP}
${COMMON_HELP}
`,
  variational: `Usage: stochax variational <model.ts|model.js> [flags]

ADVI (Kucukelbir et al. 2017, Stan's defaults): a mean-field or full-rank normal approximation in
the unconstrained space fitted by stochastic gradient ascent on the ELBO. draws.json holds the
draws with logP and logQ per draw (sample_stats.log_p, log_q); Pareto k̂ is reported.
${FILES_NOTE}

Flags:
  --algorithm A    meanfield (default) or fullrank
  --iter N         maximum iterations (default 10000)
  --grad-samples N draws per gradient (default 1)
  --elbo-samples N draws per ELBO estimate (default 100)
  --eta E          step size (default: adapted)
  --no-adapt       do not adapt eta
  --adapt-iter N   iterations per eta tried in adaptation (default 50)
  --tol-rel-obj T  relative ELBO change to stop at (default 0.01)
  --eval-elbo N    iterations between ELBO evaluations (default 100)
  --output-draws N draws of the fitted approximation (default 1000; --draws is the same)
  --sticking-the-landing  the sticking-the-landing gradient (Roeder et al. 2017)
${COMMON_HELP}
`,
};

/**
 * Runs `stochax <method>` for optimize, laplace, pathfinder or variational.
 *
 * @returns the exit code: 0, or 2 with --strict when the run has warnings.
 * @throws CliError (and library errors) for `run` to print as one line.
 * @example
 * await methodCommand('laplace', ['model.ts', '--draws', '2000'], io);
 */
export async function methodCommand(method: MethodName, argv: readonly string[], io: CliIo): Promise<number> {
  const own = METHOD_FLAGS[method];
  const specs: Record<string, FlagSpec> = { ...COMMON_FLAGS, ...Object.fromEntries(Object.entries(own).map(([k, f]) => [k, f.spec])) };
  const { positionals, flags } = parseArgs(argv, specs, method);
  if (flags.get('help')) { io.stdout(METHOD_HELP[method]); return 0; }
  if (positionals.length !== 1) {
    throw new CliError(positionals.length === 0 ? `give a model file: stochax ${method} <model.ts|model.js>` : `give one model file; got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const options = libraryOptions(method, own, flags);
  const seed = (flags.get('seed') as number | bigint | undefined) ?? 0;
  const cwd = io.cwd ?? process.cwd();
  const out = resolve(cwd, (flags.get('out') as string | undefined) ?? 'stochax-out');
  checkRunFolder(out, flags.get('force') === true);
  const drawsFlags = drawsFileFlags(flags, io);
  const init = flags.get('init') as string | undefined;
  if (init !== undefined) options.init = initOption(init, cwd);
  const radius = flags.get('init-radius');
  if (radius !== undefined) options.initRadius = radius;

  const loaded = await loadModel(positionals[0]!, cwd);
  if (loaded.kind !== 'joint') {
    throw new CliError(`stochax ${method} needs a module exporting \`model\` (a joint distribution); ${loaded.name} exports \`setup\` (a custom kernel), which has no log density to ${method === 'optimize' ? 'optimize' : 'approximate'}`);
  }
  const model = loaded as LoadedModel & JointModelModule;
  const base = { ...(model.pins === undefined ? {} : { pins: model.pins }), seed };
  const started = Date.now();
  const run = method === 'optimize' ? runOptimize(model, { ...base, ...options }, io) : runApproximate(method, model, { ...base, ...options }, flags, cwd, io);
  io.stderr(`${method}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // The library prefixes its warnings with the function's name ("optimize: did not converge …"): that is the kind.
  const warnings = run.warnings.map((w) => { const m = /^(\w+): /.exec(w); return m === null ? { kind: method, message: w } : { kind: m[1]!, message: w.slice(m[0].length) }; });

  const settings: RunSettings = {
    seed: typeof seed === 'bigint' ? String(seed) : seed,
    ...(run.nDraws === undefined ? {} : { draws: run.nDraws }),
    chains: 1,
    model: model.name,
    method,
    ...settingsOf(options),
    ...run.info,
    versions: { stochax: stochaxVersion(), node: process.version },
  };
  const predictive = flags.get('no-predictive') !== true;
  let idata: InferenceData = { posterior: run.draws as InferenceData['posterior'], sampleStats: run.trace };
  try {
    idata = await withGroups(model, run.result, { seed, predictive, prior: predictive ? (flags.get('prior') as number | undefined) ?? 500 : 0 });
  } catch (e) {
    io.stderr(`note: draws.json holds only the posterior and sample_stats: ${oneLine(e)}\n`);
  }
  const drawsFiles = runDrawsFiles(idata, { ...drawsFlags, settings, warnings });
  const texts: Record<string, string | Uint8Array> = { ...drawsFiles.files };
  const labels = { ...(idata.coords === undefined ? {} : { coords: idata.coords }), ...(idata.dims === undefined ? {} : { dims: idata.dims }) };
  texts['draws.csv'] = toDrawsCsv(idata.posterior, idata.sampleStats, labels);
  const varNames = listFlag(flags, 'var-names');
  let s: Summary | undefined, table: string;
  try {
    s = method === 'optimize' ? undefined : summary(idata.posterior as never, { ...(varNames === undefined ? {} : { varNames }), ...labels });
    table = s === undefined ? pointTable(idata.posterior, varNames) : s.format();
  } catch (e) {
    writeRunFolder(out, texts);   // the run is kept whatever the table's trouble
    throw new CliError(`ran ${method}, but could not summarize the result (${oneLine(e)}); it was written to ${join(out, 'draws.json')}`);
  }
  io.stdout(`${run.headline}\n\n${table}\n`);
  printWarnings(io, warnings);
  const graph = moduleGraph(model, labels.dims, io);
  try {
    texts['report.html'] = approximateReportHtml({
      method, posterior: idata.posterior, settings, warnings, ...(varNames === undefined ? {} : { varNames }), ...(s === undefined ? {} : { summary: s }),
      ...(graph === undefined ? {} : { modelGraph: graph }),
    });
  } catch (e) {
    io.stderr(`note: report.html was not written: ${oneLine(e)}\n`);
  }
  writeRunFolder(out, texts);
  if (drawsFiles.netcdf) io.stderr(`${netcdfNote(out, drawsFiles, drawsFlags.format)}\n`);
  io.stdout(writtenList(out, Object.keys(texts)));
  return flags.get('strict') === true && warnings.length > 0 ? 2 : 0;
}

/** The library options the method's own flags set (string flags checked against their values; a switch and its negation not both). */
function libraryOptions(method: MethodName, own: Readonly<Record<string, OptionFlag>>, flags: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const setBy: Record<string, string> = {};
  for (const [name, f] of Object.entries(own)) {
    const v = flags.get(name);
    if (v === undefined || f.option === undefined) continue;
    if (f.oneOf !== undefined && !f.oneOf.includes(v as string)) throw new CliError(`--${name} must be ${f.oneOf.slice(0, -1).join(', ')} or ${f.oneOf.at(-1)}; got '${String(v)}'`);
    const before = setBy[f.option];
    if (before !== undefined) throw new CliError(`--${before} and --${name} both set ${method}'s ${f.option}; give one`);
    setBy[f.option] = name;
    options[f.option] = f.value ?? v;
  }
  return options;
}

/** `--init`: a strategy, or a JSON file of constrained values by node name. */
function initOption(init: string, cwd: string): unknown {
  if (init === 'uniform' || init === 'prior' || init === 'median') return init;
  const path = resolve(cwd, init);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`--init must be uniform, prior, median or a JSON file of values by node name; could not read ${path}: ${oneLine(e)}`);
  }
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--init ${path} is not JSON: ${oneLine(e)}`);
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) throw new CliError(`--init ${path} must hold an object of constrained values by node name, e.g. {"mu": 0.5, "theta": [1, 2]}`);
  return values;
}

/** The options as flat attrs (snake_case names; `init` only as its strategy or "file"). */
function settingsOf(options: Readonly<Record<string, unknown>>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(options)) {
    const name = k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[name] = v;
    else if (k === 'init') out.init = 'values';
  }
  return out;
}

/** A finite number, or its name as a string (attrs hold finite numbers only). */
function attrNumber(x: number): number | string {
  return Number.isFinite(x) ? x : String(x);
}

interface MethodRun {
  /** The draws-shaped posterior (the optimum as one draw for optimize). */
  readonly draws: unknown;
  /** sample_stats: `targetLogProb` (lp) for optimize; `logP`, `logQ` for the others. */
  readonly trace: Readonly<Record<string, Tensor>>;
  /** What `inferenceData` reads: `{ draws, trace }` or the approximate result itself. */
  readonly result: { readonly draws: unknown; readonly trace?: unknown };
  readonly nDraws: number | undefined;
  /** Results for the attrs and the report. */
  readonly info: Readonly<Record<string, string | number | boolean>>;
  readonly headline: string;
  readonly warnings: readonly string[];
}

function runOptimize(model: JointModelModule, options: Record<string, unknown>, io: CliIo): MethodRun {
  io.stderr(`optimize (${(options.algorithm as string | undefined) ?? 'lbfgs'}), seed ${String(options.seed)} …\n`);
  const r = optimize(model.model, options) as OptimizeResult;
  const trace = { targetLogProb: new Tensor(Float64Array.of(r.logDensity), [1, 1], 'float64') };
  return {
    draws: r.params, trace, result: { draws: r.params, trace }, nDraws: 1,
    info: {
      algorithm: r.algorithm, jacobian: r.jacobian, converged: r.converged, reason: r.reason,
      iterations: r.iterations, gradient_evaluations: r.gradientEvaluations, log_density: attrNumber(r.logDensity),
    },
    headline: `optimize (${r.algorithm}, jacobian: ${r.jacobian}): ${r.converged ? 'converged' : 'did NOT converge'} after ${r.iterations} iterations, ${r.gradientEvaluations} gradient evaluations: ${r.reason}\nlog density at the ${r.jacobian ? 'mode' : 'optimum'}: ${r.logDensity}`,
    warnings: r.warnings,
  };
}

/** The optimize settings a laplace run passes to its mode search (not laplace's own). */
const MODE_SEARCH = ['algorithm', 'init', 'initRadius', ...Object.values(LBFGS).map((f) => f.option!)];

function runApproximate(method: ApproximateMethod, model: JointModelModule & { readonly name: string }, options: Record<string, unknown>, flags: ReadonlyMap<string, unknown>, cwd: string, io: CliIo): MethodRun {
  const info: Record<string, string | number | boolean> = {};
  let evals = 0;
  let warnings: string[] = [];
  let libraryOptions = options;
  if (method === 'laplace') {
    // The mode: from --mode, or optimize with the mode-search flags and laplace's Jacobian (laplace's own default search takes no settings).
    const search = Object.fromEntries(Object.entries(options).filter(([k]) => MODE_SEARCH.includes(k)));
    const rest = Object.fromEntries(Object.entries(options).filter(([k]) => !MODE_SEARCH.includes(k)));
    const jacobian = (options.jacobian as boolean | undefined) ?? true;
    const modeFile = flags.get('mode') as string | undefined;
    let mode: OptimizeResult | PartialValues;
    if (modeFile !== undefined) {
      const given = Object.keys(search).map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
      if (given.length > 0) throw new CliError(`--mode gives the mode, so the mode-search flags ${given.join(', ')} do not apply; give one or the other`);
      mode = modeFromFile(modeFile, cwd, model, jacobian, warnings);
      info.mode = modeFile;
    } else {
      const opt = optimize(model.model, { ...(options.pins === undefined ? {} : { pins: options.pins }), seed: options.seed, jacobian, ...search } as never) as OptimizeResult;
      mode = opt;
      evals += opt.gradientEvaluations;
      warnings.push(...opt.warnings);
      Object.assign(info, { mode_converged: opt.converged, mode_iterations: opt.iterations, mode_gradient_evaluations: opt.gradientEvaluations, mode_log_density: attrNumber(opt.logDensity) });
      if (search.algorithm !== undefined) info.mode_algorithm = search.algorithm as string;
    }
    libraryOptions = { ...rest, mode };
  }
  io.stderr(`${method}: seed ${String(options.seed)} …\n`);
  const r = APPROXIMATE_RUNNERS[method](model.model, libraryOptions);
  checkApproximate(method, r);
  evals += typeof r.gradientEvaluations === 'number' ? r.gradientEvaluations : r.gradientEvaluations.total;
  warnings = [...warnings, ...r.warnings];
  const nDraws = r.logP.shape[0]!;
  Object.assign(info, { pareto_k: attrNumber(r.paretoK), gradient_evaluations: evals });
  const k = Number.isFinite(r.paretoK) ? r.paretoK.toFixed(2) : String(r.paretoK);
  // PSIS's threshold for S draws (Vehtari et al. 2024), as laplace's warning uses it.
  const goodK = paretoKThreshold(nDraws);
  return {
    draws: r.draws, trace: { logP: r.logP, logQ: r.logQ }, result: r, nDraws, info, warnings,
    headline: `${method}: ${nDraws} draws, Pareto k̂ ${k} (good below ${goodK.toFixed(2)}), ${evals} gradient evaluations`,
  };
}

/** A result that does not have laplace's shape is a wiring mistake: say what is missing. */
function checkApproximate(method: ApproximateMethod, r: unknown): asserts r is ApproximateResult {
  const x = r as Partial<ApproximateResult> | null;
  const missing = x === null || typeof x !== 'object' ? ['draws', 'logP', 'logQ', 'paretoK', 'gradientEvaluations', 'warnings']
    : [
      ...(x.draws !== null && typeof x.draws === 'object' ? [] : ['draws']),
      ...(x.logP instanceof Tensor ? [] : ['logP']),
      ...(x.logQ instanceof Tensor ? [] : ['logQ']),
      ...(typeof x.paretoK === 'number' ? [] : ['paretoK']),
      ...(typeof x.gradientEvaluations === 'number' || typeof (x.gradientEvaluations as { total?: unknown } | undefined)?.total === 'number' ? [] : ['gradientEvaluations']),
      ...(Array.isArray(x.warnings) ? [] : ['warnings']),
    ];
  if (missing.length > 0) throw new CliError(`${method}: the library's result lacks ${missing.join(', ')} (the CLI reads laplace()'s shape: draws, logP, logQ, paretoK, gradientEvaluations, warnings)`);
}

/** The mode from a `stochax optimize` draws.json: its one draw of the model's nodes. */
function modeFromFile(file: string, cwd: string, model: JointModelModule & { readonly name: string }, jacobian: boolean, warnings: string[]): PartialValues {
  const { draws, attrs } = readDrawsJson(file, cwd);
  const jd = (model.model instanceof JointDistributionPinned ? model.model.distribution : model.model) as JointDistribution<StructKind>;
  const names = Object.keys(draws).filter((k) => jd.nodeNames.includes(k));
  if (names.length === 0) throw new CliError(`--mode ${file} holds no node of ${model.name}'s model (it holds ${Object.keys(draws).join(', ')})`);
  const n = draws[names[0]!]!.shape;
  if (n[0] !== 1 || n[1] !== 1) throw new CliError(`--mode ${file} must hold one draw (the point \`stochax optimize\` writes); it holds ${n[1]} chain(s) × ${n[0]} draws`);
  if (typeof attrs.jacobian === 'boolean' && attrs.jacobian !== jacobian) {
    warnings.push(`laplace: the mode in ${file} was found with jacobian: ${attrs.jacobian} but the approximation uses jacobian: ${jacobian}; it is centred away from the mode of the density it approximates (run stochax optimize ${jacobian ? '--jacobian' : '--no-jacobian'})`);
  }
  return Object.fromEntries(names.map((k) => { const t = draws[k]!; return [k, t.reshape(t.shape.slice(2))]; })) as PartialValues;
}

/** The InferenceData of a method's run: its draws and stats, plus the log-likelihood, predictive and prior groups (as `stochax sample` writes them). */
async function withGroups(model: LoadedModel & JointModelModule, result: { readonly draws: unknown; readonly trace?: unknown }, o: { seed: number | bigint; predictive: boolean; prior: number }): Promise<InferenceData> {
  return inferenceData(model.model, result as Parameters<typeof inferenceData>[1], {
    ...(model.pins === undefined ? {} : { pins: model.pins }),
    seed: o.seed, logLikelihood: o.predictive, posteriorPredictive: o.predictive, prior: o.prior,
    ...(model.dims === undefined ? {} : { dims: model.dims }),
    ...(model.coords === undefined ? {} : { coords: model.coords }),
  });
}
