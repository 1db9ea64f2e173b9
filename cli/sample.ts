/**
 * `stochax sample <model> [--chains 4] [--draws 1000] [--warmup 1000] [--seed 0] [--workers N]
 * [--chain-index i] [--out dir]`: samples a model module (see `load-model.ts` for the contract),
 * prints the summary table and writes `draws.csv`, `draws.json` and `report.html` (and, for a
 * large run or with `--draws-format netcdf`, every InferenceData group as `idata/<group>.nc`).
 */
import { join, resolve } from 'node:path';
import { Tensor } from '../src/tensor/tensor.js';
import { summary } from '../mcmc/diagnostics/summary.js';
import { checkCoordsDims, type Coords, type Dims } from '../mcmc/diagnostics/coords.js';
import { samplingWarnings, type SamplingWarning } from '../mcmc/diagnostics/warnings.js';
import { mergeChains } from '../mcmc/parallel/merge-chains.js';
import { sampleChainByIndex } from '../mcmc/parallel/sample-chain-by-index.js';
import { sampleChains } from '../mcmc/parallel/sample-chains.js';
import { defaultWarmup, windowedAdaptiveNuts, type WindowedProgress } from '../mcmc/windowed-adaptive-nuts.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { inferenceData, type InferenceData, type ReportDraws, type RunSettings } from './report/index.js';
import { MAX_SUBPLOTS, reportHtmlWith } from './report/report-html.js';
import { AUTO_NETCDF_VALUES, type DrawsFormat, type RunDrawsFiles } from './report/draws-files.js';
import { outputTasks, outputsTuning, startOutputsWorker, type OutputTask } from './outputs.js';
import { inferenceDataStaged, type InferenceDataStage } from './report/inference-data.js';
import type { OutputTaskResult } from './report/output-tasks.js';
import { sortedDrawsScope } from '../mcmc/diagnostics/internal/quantile.js';
import { stackingShared } from '../mcmc/predictive.js';
import { listFlag, parseArgs, type FlagSpec } from './args.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { loadModel, moduleGraph, type LoadedModel } from './load-model.js';
import { checkRunFolder, startRunFolder } from './output.js';
import { printWarnings } from './warnings.js';
import { chainProgress } from '../mcmc/progress.js';
import { stochaxVersion } from './version.js';

export const SAMPLE_HELP = `Usage: stochax sample <model.ts|model.js> [flags]

Samples the model module and prints the summary table (mean, MCSE, sd, ArviZ's 94% HDI
hdi_3%/hdi_97%, ESS_bulk, ESS_tail, R_hat, divergences); writes draws.csv, draws.json and report.html to --out.
draws.json is an ArviZ InferenceData (az.from_json reads it): posterior (with the model's
deterministic(...) values), sample_stats, and for a joint model with observed data also
log_likelihood, posterior_predictive, prior, prior_predictive and observed_data (the
predictive draws use --seed; they do not change the posterior draws). A large run (over
1 million values in all groups, see --draws-format) also writes every group as a netCDF file
in idata/ (posterior.nc, sample_stats.nc, log_likelihood.nc, …; xarray and ArviZ read them),
and its draws.json leaves out log_likelihood, posterior_predictive and prior_predictive; a
note says so, with the Python line that loads every group.

Before sampling, the run's size is checked: chains × draws × (parameters + statistics)
values must fit one draws.json (about 24 million values), else the run is refused (with
--draws-format json, the observed values' log_likelihood and posterior_predictive count too).

Flags:
  --chains N       chains (default 4)
  --draws N        draws kept per chain (default 1000)
  --warmup N       warm-up steps per chain (default windowedAdaptiveNuts': 1000, Stan's,
                   with per-chain adaptation; 500, TFP's, pooled; or the model module's
                   options.numAdaptationSteps; 1000 for a setup module)
  --seed S         non-negative integer seed (default 0); same seed, same bits
  --workers N      worker threads (0 = in this thread). A \`setup\` module's default: cores,
                   at most --chains. A \`model\` module's chains run on up to N threads, this
                   one and pooled workers (windowedAdaptiveNuts' \`cores\`; 0 or 1 = this
                   thread; default: one per core, at most --chains) when the run is long enough
                   to pay for the workers' start-up and the compiled model can be sent (a note
                   says why not). The draws are the same either way.
  --chain-index i  run only chain i of --chains, with exactly the draws it has in the
                   all-chains run (key foldIn(seed, i) for a \`model\` module, split(seed,
                   chains)[i] for a \`setup\` module); \`stochax merge\` of the per-chain
                   draws.json files equals the all-chains run bit for bit (default --out
                   stochax-out/chain-i). Not with options.adaptation = 'pooled'. Without the
                   flag, a Slurm job array's SLURM_ARRAY_TASK_ID or a Kubernetes Indexed Job's
                   JOB_COMPLETION_INDEX is used when set (examples/cluster/).
  --metric M       diagonal (default) or dense: the metric a \`model\` module's chains adapt
                   (dense: Stan's dense_e, for strongly correlated posteriors)
  --no-compile     keep a \`model\` module's log density on the autodiff tape instead of compiled
                   JavaScript (the same draws, slower; for models that cannot be traced)
  --out DIR        output directory (default ./stochax-out); checked before sampling. The files
                   are written to a temporary folder and renamed at the end, so an interrupted
                   run leaves no half-written result
  --force          replace the run already in --out (otherwise that is an error)
  --prior N        prior draws in draws.json's prior groups (default 500; 0: none)
  --no-predictive  leave out log_likelihood, posterior_predictive and the prior groups
  --var-names a,b  only these variables in the printed table and report.html (ArviZ's
                   var_names; draws.json and draws.csv keep every variable)
  --max-subplots N report.html's trace, rank, marginal and autocorrelation plots for the
                   first N parameters (default 40, ArviZ's plot.max_subplots); the table
                   and the files keep them all
  --strict         exit with code 2 (after writing the files) when the run has warnings
  --draws-format F auto (default), json or netcdf. json: one draws.json with every group.
                   netcdf: every group as idata/<group>.nc (netCDF-3, written in one pass:
                   ~15× less CPU than JSON text, 2/5 of its size) and a draws.json without
                   the predictive groups (its attrs netcdf_files and netcdf_only_groups say
                   where they are). auto: json up to 1 million values in all groups (~0.5 s
                   of JSON), netcdf above (the environment variable
                   STOCHAX_DRAWS_NETCDF_VALUES changes the threshold)
  --draws-dtype T  float64 (default) or float32: float32 halves idata/log_likelihood.nc,
                   posterior_predictive.nc and prior_predictive.nc (draws.json and the
                   other groups stay float64); not with --draws-format json

After the table, the run's warnings go to stderr, one per line: R-hat above 1.01, bulk or
tail ESS below 100 per chain, divergences after warm-up, transitions at the maximum tree
depth, E-BFMI below 0.3, and chains that disagree with the others beyond Monte Carlo error
(a chain stuck in another mode), each with what to try. They are also in report.html and in
draws.json's attrs (\`warnings\`: the messages, one per line; \`warning_kinds\`: the kinds,
comma-separated). Without --strict they do not change the exit code.

The model module exports either (exporting both is an error)
  export const model = new JointDistributionNamed({ ... });  // sampled with windowedAdaptiveNuts
  export const pins = { y };                                  // optional: observed values
  export const options = { targetAcceptProb: 0.9 };           // optional: windowedAdaptiveNuts options
  export const dims = { theta: ['school'], y: ['school'] };   // optional: ArviZ dims (checked before sampling)
  export const coords = { school: ['A', 'B', …] };           // optional: ArviZ coords; rows theta[A], theta[B], …
                                                              //   in the table, draws.csv, draws.json, report.html
or the sampleChains contract (a custom kernel, one chain per call):
  export function setup({ chainIndex, chains, seed, options }) { return { kernel, currentState, traceFn }; }
  export const names = ['mu', 'tau'];                         // optional: labels of the state parts
  export const dims = …, coords = …;                          // optional, as above (checked against the draws)

Examples:
  stochax sample examples/eight-schools.ts
  stochax sample model.ts --chains 8 --draws 2000 --seed 42 --out runs/seed42
  for i in 0 1 2 3; do stochax sample model.ts --chains 4 --chain-index $i --out run/c$i & done; wait
  stochax merge run/c*/draws.json --out run/draws.json
`;

const FLAGS: Readonly<Record<string, FlagSpec>> = {
  chains: { kind: 'int', min: 1 },
  draws: { kind: 'int', min: 1 },
  warmup: { kind: 'int', min: 0 },
  seed: { kind: 'seed' },
  workers: { kind: 'int', min: 0 },
  'chain-index': { kind: 'int', min: 0 },
  metric: { kind: 'string' },
  out: { kind: 'string' },
  'no-compile': { kind: 'bool' },
  force: { kind: 'bool' },
  prior: { kind: 'int', min: 0 },
  'no-predictive': { kind: 'bool' },
  'var-names': { kind: 'string' },
  'max-subplots': { kind: 'int', min: 1 },
  strict: { kind: 'bool' },
  'draws-format': { kind: 'string' },
  'draws-dtype': { kind: 'string' },
};

interface Run {
  readonly draws: Record<string, Tensor> | object;
  readonly trace: unknown;
  readonly deterministics?: Readonly<Record<string, Tensor>>;
  /** The sampler's warnings (computed from the draws and trace when it returns none). */
  readonly warnings?: readonly SamplingWarning[];
  /** The `coords` and `dims` `windowedAdaptiveNuts` carried (a joint module's). */
  readonly coords?: Coords;
  readonly dims?: Dims;
}

/**
 * Runs `stochax sample`.
 *
 * @returns the exit code: 0, or 2 with --strict when the run has warnings.
 * @throws CliError (and library errors) for `run` to print as one line.
 * @example
 * await sampleCommand(['model.ts', '--chains', '2'], io);
 */
export async function sampleCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseArgs(argv, FLAGS, 'sample');
  if (flags.get('help')) { io.stdout(SAMPLE_HELP); return 0; }
  if (positionals.length !== 1) {
    throw new CliError(positionals.length === 0 ? 'give a model file: stochax sample <model.ts|model.js>' : `give one model file; got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const chains = (flags.get('chains') as number | undefined) ?? 4;
  const nDraws = (flags.get('draws') as number | undefined) ?? 1000;
  const warmupFlag = flags.get('warmup') as number | undefined;
  const seed = (flags.get('seed') as number | bigint | undefined) ?? 0;
  const workers = flags.get('workers') as number | undefined;
  const chainIndex = (flags.get('chain-index') as number | undefined) ?? schedulerIndex(io);
  const compile = flags.get('no-compile') !== true;
  const metric = flags.get('metric') as string | undefined;
  if (metric !== undefined && metric !== 'diagonal' && metric !== 'dense') throw new CliError(`--metric must be diagonal or dense; got '${metric}'`);
  const { format: drawsFormat, dtype: drawsDtype, autoValues } = drawsFileFlags(flags, io);
  if (chainIndex !== undefined && chainIndex >= chains) throw new CliError(`--chain-index must be in [0, ${chains}) for --chains ${chains}; got ${chainIndex}`);
  const cwd = io.cwd ?? process.cwd();
  const out = resolve(cwd, (flags.get('out') as string | undefined) ?? (chainIndex === undefined ? 'stochax-out' : join('stochax-out', `chain-${chainIndex}`)));
  const kept = chainIndex === undefined ? chains : 1;
  checkRunSize(kept, nDraws, 1);
  checkRunFolder(out, flags.get('force') === true);

  const model = await guardExit(positionals[0]!, () => loadModel(positionals[0]!, cwd));
  // With netCDF possible, the predictive groups never go into draws.json when they are large.
  if (model.kind === 'joint') checkRunSize(kept, nDraws, jointSize(model, drawsFormat === 'json' && flags.get('no-predictive') !== true));
  // Large outputs get a second thread, which loads while the chains sample (small ones are faster in one; starting it
  // before the model loaded cost more wall time than it saved, as both loads then compete).
  const twoThreads = model.kind === 'joint' && kept * nDraws * jointSize(model, flags.get('no-predictive') !== true) >= outputsTuning.minValues;
  if (twoThreads) startOutputsWorker();
  const started = Date.now();
  // The library's default warm-up (or the module's own), so the same seed gives the same draws from code and from here.
  const warmup = warmupFlag ?? (model.kind === 'joint' ? jointWarmup(model.options) : 1000);
  const o: RunOptions = { chains, nDraws, warmup, seed, workers, chainIndex, compile, metric: metric as RunOptions['metric'] };
  // The warnings' R-hat and ESS sort each quantity's draws: the summary and the report's rank plots and histograms reuse those sorts.
  const sorting = sortedDrawsScope();
  const result = await guardExit(model.name, () => (model.kind === 'joint' ? runJoint(model, o, io, sorting) : runSetup(model, o, io)));
  const sampled = Date.now();
  io.stderr(`sampled in ${((sampled - started) / 1000).toFixed(1)} s\n`);
  const runLabels = labelsOf(result, model);
  const warnings = sorting(() => runWarnings(result, io, runLabels));

  const settings: RunSettings = {
    seed: typeof seed === 'bigint' ? String(seed) : seed,
    chains, draws: nDraws, warmup, model: model.name,
    sampler: model.kind === 'joint' ? 'windowedAdaptiveNuts' : 'setup',
    // The metric changes the draws, so merge can tell runs apart by it.
    ...(model.kind === 'joint' ? { metric: metric ?? (model.options as { metric?: string }).metric ?? 'diagonal' } : {}),
    // A non-default tree depth, so `stochax merge` warns about the merged chains at the right one.
    ...(model.kind === 'joint' && typeof (model.options as { maxTreeDepth?: unknown } | undefined)?.maxTreeDepth === 'number' ? { max_tree_depth: (model.options as { maxTreeDepth: number }).maxTreeDepth } : {}),
    ...(chainIndex === undefined ? {} : { chain_index: chainIndex }),
    versions: { stochax: stochaxVersion(), node: process.version },
  };
  // draws.json first: it is the run; the table, the CSV and the report can be rebuilt from it.
  let idata: InferenceData = { posterior: result.draws as ReportDraws, sampleStats: result.trace, ...runLabels };
  const varNames = listFlag(flags, 'var-names');
  const maxSubplots = flags.get('max-subplots') as number | undefined;
  /** What the report shows: the variables and how many parameters get plots. */
  const shown = { ...(varNames === undefined ? {} : { varNames }), ...(maxSubplots === undefined ? {} : { maxSubplots }) };
  // The outputs that need only some groups go to the outputs worker as soon as those are drawn, beside the next draws here:
  // the report's plots after the posterior, LOO after the log-likelihood, the PPC plot after the posterior predictive.
  let early: Partial<{ [N in (typeof STAGE_TASKS)[InferenceDataStage]]: OutputTask<OutputTaskResult<N>> }> = {};
  const onStage = (stage: InferenceDataStage, partial: InferenceData): void => {
    const name = STAGE_TASKS[stage];
    early = { ...early, [name]: outputTasks({ idata: partial, ...shown }, [name], twoThreads)[name] };
  };
  if (model.kind === 'joint') {
    const predictive = flags.get('no-predictive') !== true;
    const groups = { seed, chainIndex, predictive, logLikelihood: predictive, prior: predictive ? (flags.get('prior') as number | undefined) ?? 500 : 0, twoThreads };
    try {
      idata = await jointInferenceData(model, result, groups, onStage);
    } catch (e) {
      early = {};   // made from groups the run may not keep
      // A model without a pointwise log-likelihood (observations linked by a discrete node) keeps its other groups.
      let kept = false;
      if (predictive) {
        try {
          idata = await jointInferenceData(model, result, { ...groups, logLikelihood: false }, onStage);
          io.stderr(`note: draws.json has no log_likelihood group: ${oneLine(e)}\n`);
          kept = true;
        } catch { early = {}; /* the first error says why */ }
      }
      if (!kept) io.stderr(`note: draws.json holds only the posterior and sample_stats: ${oneLine(e)}\n`);
    }
  }
  const labels = { ...(idata.coords === undefined ? {} : { coords: idata.coords }), ...(idata.dims === undefined ? {} : { dims: idata.dims }) };
  // The run's temporary folder now, so the outputs worker can write the netCDF groups into it.
  const folder = startRunFolder(out);
  let texts: Record<string, string | Uint8Array>, drawsFiles, written: readonly string[];
  /** This thread's background writes (the netCDF files and draws.json when made here), awaited before the folder is finished or discarded. */
  const pending: Promise<unknown>[] = [];
  try {
    // The rest (draws.json with draws.csv, the netCDF groups, and what no stage sent) goes to the worker now, beside the summary
    // here. This thread takes each result when it needs it, running itself what the worker has not started.
    const tasks = outputTasks({
      idata, files: { format: drawsFormat, dtype: drawsDtype, autoValues, settings, ...(warnings === undefined ? {} : { warnings }) }, csv: { trace: result.trace, labels },
      ...(folder.dir === undefined ? {} : { folder: folder.dir }), ...shown, background: true,
    }, ['drawsFiles', 'netcdf', ...(['plots', 'loo', 'ppc'] as const).filter((n) => early[n] === undefined)], twoThreads);
    const plots = early.plots ?? tasks.plots, loo = early.loo ?? tasks.loo, ppc = early.ppc ?? tasks.ppc;
    /** A task's files once written: those written (here in the background, or on the worker), which `finish` skips, and the rest. */
    const settled = async (task: 'netcdf' | 'drawsFiles'): Promise<{ readonly files: Record<string, string | Uint8Array>; readonly written: readonly string[] }> => {
      const r = tasks[task].take();
      if (r.pending !== undefined && !pending.includes(r.pending)) pending.push(r.pending);
      return { written: r.pending === undefined ? r.written : await r.pending, files: r.files };
    };
    /** The draws files alone, when the draws cannot be summarized (the run is kept). */
    const unsummarized = async (e: unknown): Promise<CliError> => {
      const [nc, df] = [await settled('netcdf'), await settled('drawsFiles')];
      folder.finish({ ...nc.files, ...df.files }, [...nc.written, ...df.written]);
      return new CliError(`sampled, but could not summarize the draws (${oneLine(e)}); they were written to ${join(out, 'draws.json')}`);
    };
    let unsummarizable: { readonly error: unknown } | undefined;
    if (!twoThreads) {
      // In one thread, draws.json first (with draws.csv, which prints the same numbers): written in the background while the
      // summary and the report are made. draws.csv waits for the summary (a run it cannot summarize has no draws.csv).
      try {
        const json = tasks.drawsFiles.take().pending;
        if (json !== undefined) pending.push(json);   // settled('drawsFiles') finds it there
      } catch { /* the task throws again where its files are taken below, after the summary */ }
    }
    const report = sorting(() => {
      let s;
      try {
        s = summary({ allStates: idata.posterior as never, trace: result.trace }, { ...(varNames === undefined ? {} : { varNames }), ...labels });
      } catch (e) {
        unsummarizable = { error: e };
        return undefined;
      }
      io.stdout(`${s.format()}\n`);
      printWarnings(io, warnings);
      const plotted = maxSubplots ?? MAX_SUBPLOTS;
      if (s.rows.length > plotted) io.stderr(`note: report.html plots the first ${plotted} of ${s.rows.length} parameters (--max-subplots N plots more; --var-names chooses the variables)\n`);
      try {
        const graph = model.kind === 'joint' ? moduleGraph(model, labels.dims, io) : undefined;
        return reportHtmlWith({ inferenceData: idata, summary: s, settings, ...shown, ...(warnings === undefined ? {} : { warnings }), ...(graph === undefined ? {} : { modelGraph: graph }) },
          { plots: () => plots.take(), ppc: () => ppc.take(), loo: () => loo.take() });
      } catch (e) {
        io.stderr(`note: report.html was not written: ${oneLine(e)}\n`);
        return undefined;
      }
    });
    if (unsummarizable !== undefined) throw await unsummarized(unsummarizable.error);
    // The netCDF files this thread makes are written in the background while it waits for (or makes) draws.json.
    const ncPending = tasks.netcdf.take().pending;
    if (ncPending !== undefined) pending.push(ncPending);   // so an error below still awaits it
    drawsFiles = tasks.drawsFiles.take();
    // draws.csv fails where the summary would (it is made with draws.json, which prints each number once for both).
    if ('error' in drawsFiles.csv) throw await unsummarized(drawsFiles.csv.error);
    const [nc, df] = [await settled('netcdf'), await settled('drawsFiles')];
    texts = { ...nc.files, ...df.files, 'draws.csv': drawsFiles.csv.text, ...(report === undefined ? {} : { 'report.html': report }) };
    written = [...nc.written, ...df.written];
  } catch (e) {
    await Promise.allSettled(pending);
    folder.discard();
    throw e;
  }
  folder.finish(texts, written);
  io.stderr(`outputs (predictive draws, summary, files) in ${((Date.now() - sampled) / 1000).toFixed(1)} s\n`);
  if (drawsFiles.netcdf) io.stderr(`${netcdfNote(out, drawsFiles, drawsFormat)}\n`);
  io.stdout(writtenList(out, [...Object.keys(texts), ...written]));
  return flags.get('strict') === true && warnings !== undefined && warnings.length > 0 ? 2 : 0;
}

/** The closing "wrote …" lines: one per file of the run folder, `idata/` as one line naming its files. */
export function writtenList(out: string, files: readonly string[]): string {
  const names = [...new Set(files)];   // a file written early may be named twice
  const listed = [...new Set(names.map((f) => (f.startsWith('idata/') ? 'idata/' : f)))].sort();
  const [first, ...others] = listed.map((f) => (f === 'idata/' ? `${join(out, 'idata')}/ (${names.filter((n) => n.startsWith('idata/')).map((n) => n.slice(6)).join(', ')})` : join(out, f)));
  return `\nwrote ${first}\n${others.map((f) => `      ${f}\n`).join('')}`;
}

/** The environment variable that overrides `auto`'s threshold (in values; for tests and very large or small machines). */
export const AUTO_VALUES_ENV = 'STOCHAX_DRAWS_NETCDF_VALUES';

/** `--draws-format auto`'s threshold: {@link AUTO_VALUES_ENV} if set, else AUTO_NETCDF_VALUES. */
function autoThreshold(io: CliIo): number {
  const v = (io.env ?? process.env)[AUTO_VALUES_ENV];
  if (v === undefined || v === '') return AUTO_NETCDF_VALUES;
  if (!/^\d+$/.test(v)) throw new CliError(`${AUTO_VALUES_ENV} must be a non-negative integer (values); got '${v}'`);
  return Number(v);
}

/** The flags `--draws-format` and `--draws-dtype` (of `sample` and `merge`), checked, with `auto`'s threshold. */
export function drawsFileFlags(flags: ReadonlyMap<string, unknown>, io: CliIo): { format: DrawsFormat; dtype: 'float64' | 'float32'; autoValues: number } {
  const format = (flags.get('draws-format') as string | undefined) ?? 'auto';
  if (format !== 'json' && format !== 'netcdf' && format !== 'auto') throw new CliError(`--draws-format must be json, netcdf or auto; got '${format}'`);
  const dtype = (flags.get('draws-dtype') as string | undefined) ?? 'float64';
  if (dtype !== 'float64' && dtype !== 'float32') throw new CliError(`--draws-dtype must be float64 or float32; got '${dtype}'`);
  if (dtype === 'float32' && format === 'json') throw new CliError('--draws-dtype float32 applies to the netCDF files; with --draws-format json, draws.json keeps float64');
  return { format, dtype, autoValues: autoThreshold(io) };
}

/**
 * The one line that says the groups went to netCDF, which ones are only there, and the Python
 * that loads every group (checked with arviz 0.23 in test/fixtures/netcdf/check.py).
 */
export function netcdfNote(out: string, d: RunDrawsFiles, format: string): string {
  const why = format === 'auto' ? `${(d.values / 1e6).toFixed(1)} M values` : '--draws-format netcdf';
  const only = d.netcdfOnly.length === 0 ? '' : ` (${d.netcdfOnly.join(', ')} only there; draws.json holds the other groups)`;
  const python = `import arviz as az, xarray as xr, pathlib; idata = az.InferenceData(**{p.stem: xr.open_dataset(p) for p in pathlib.Path(${JSON.stringify(join(out, 'idata'))}).glob('*.nc')})`;
  return `note: ${why}: every group written as netCDF to ${join(out, 'idata')}/${only}; in Python: ${python}`;
}

/**
 * The run's `coords` and `dims`: a joint run carries the module's (checked against the model
 * before sampling); a setup module's are checked here against its draws (a name that is not a
 * state part, or a dimension that does not fit, is an error).
 */
function labelsOf(run: Run, model: LoadedModel): { coords?: Coords; dims?: Dims } {
  if (model.kind === 'joint') return { ...(run.coords === undefined ? {} : { coords: run.coords }), ...(run.dims === undefined ? {} : { dims: run.dims }) };
  if (model.coords === undefined && model.dims === undefined) return {};
  const shapes = new Map(Object.entries(run.draws as Record<string, Tensor>).map(([k, t]) => [k, t.shape.slice(2)]));
  const { coords, dims } = checkCoordsDims(model.name, model.coords, model.dims, shapes);
  return { ...(coords === undefined ? {} : { coords }), ...(dims === undefined ? {} : { dims }) };
}

/**
 * The run's warnings: the sampler's, else computed from the draws and trace, naming parameters by
 * the run's coordinates (undefined, with a note, when they cannot be computed).
 */
function runWarnings(run: Run, io: CliIo, labels: { coords?: Coords; dims?: Dims }): readonly SamplingWarning[] | undefined {
  if (run.warnings !== undefined) return run.warnings;
  try {
    const trace = run.trace !== null && typeof run.trace === 'object' ? run.trace : undefined;
    return samplingWarnings(run.draws as never, trace, labels);
  } catch (e) {
    io.stderr(`note: the run's warnings could not be computed: ${oneLine(e)}\n`);
    return undefined;
  }
}


/**
 * A joint model's InferenceData: the posterior with its derived values, and unless
 * `predictive` is false the log-likelihood, posterior predictive and prior groups of the
 * observed nodes, seeded with the run's seed (the posterior predictive of a --chain-index run
 * uses that chain's key, so merged files equal the all-chains run). `dims` and `coords` come
 * from the module (its exports of those names, which the run carries).
 */
async function jointInferenceData(model: LoadedModel & { kind: 'joint' }, run: Run, o: { seed: number | bigint; chainIndex: number | undefined; predictive: boolean; logLikelihood: boolean; prior: number; twoThreads: boolean },
  onStage?: Parameters<typeof inferenceDataStaged>[3]): Promise<InferenceData> {
  // With the outputs worker, large groups are drawn into shared memory: the worker reads them without a copy.
  return stackingShared(o.twoThreads ? outputsTuning.shareValues : Infinity, () => inferenceDataStaged(model.model, run as Parameters<typeof inferenceData>[1], {
    ...(model.pins === undefined ? {} : { pins: model.pins }),
    seed: o.seed, logLikelihood: o.logLikelihood, posteriorPredictive: o.predictive, prior: o.prior,
    ...(o.chainIndex === undefined ? {} : { chains: [o.chainIndex] }),
  }, onStage));
}

/** The output each stage of the InferenceData lets start (see `inferenceDataStaged`). */
const STAGE_TASKS = { posterior: 'plots', logLikelihood: 'loo', posteriorPredictive: 'ppc' } as const;

/** Sample statistics a run keeps per draw besides the parameters (an upper estimate). */
const STATS_PER_DRAW = 10;
/** Bytes of draws.json text per value (`-1.2345678901234567, `), and V8's longest string (2^29 − 24). */
const JSON_BYTES_PER_VALUE = 22;
const MAX_TEXT = 2 ** 29 - 24;

/**
 * Refuses, before sampling, a run whose draws could not be written: chains × draws ×
 * (parameters + statistics) values become one draws.json text, which V8 caps at 2^29 − 24
 * characters (about 24 million values); the draws themselves take 8 bytes per value.
 */
function checkRunSize(chains: number, draws: number, parameters: number): void {
  const values = chains * draws * (parameters + STATS_PER_DRAW);
  if (values * JSON_BYTES_PER_VALUE <= MAX_TEXT) return;
  const gb = (values * JSON_BYTES_PER_VALUE / 1e9).toFixed(values * JSON_BYTES_PER_VALUE < 1e10 ? 1 : 0);
  throw new CliError(`${chains} chain${chains === 1 ? '' : 's'} × ${draws} draws × (${parameters > 1 ? `${parameters} parameters` : 'at least 1 parameter'} + ${STATS_PER_DRAW} statistics) = ${values} values, about ${gb} GB of draws.json: more than one run can write (${Math.floor(MAX_TEXT / JSON_BYTES_PER_VALUE)} values); use fewer --draws, or split the chains with --chain-index and \`stochax merge\` fewer at a time`);
}

/**
 * The number of sampled (unpinned) values in one draw of a joint model (batch × event sizes),
 * plus twice the observed ones with `predictive` (their log-likelihood and replicates), or 1 if
 * it cannot tell.
 */
function jointSize(model: LoadedModel & { kind: 'joint' }, predictive = false): number {
  try {
    const m = model.model as unknown as { distribution?: unknown; pins?: object };
    const jd = (m.distribution ?? m) as { batchShape: Record<string, number[]>; eventShape: Record<string, number[]> };
    const pinned = new Set([...Object.keys(model.pins ?? {}), ...Object.keys(m.distribution === undefined ? {} : m.pins ?? {})]);
    const batch = jd.batchShape, event = jd.eventShape;
    let n = 0;
    for (const k of Object.keys(event)) {
      const size = sizeOf([...(batch[k] ?? []), ...(event[k] ?? [])]);
      if (!pinned.has(k)) n += size;
      else if (predictive) n += 2 * size;
    }
    return Math.max(n, 1);
  } catch {
    return 1; // the sampler reports a broken model better than an estimate can
  }
}

/** How many `guardExit` calls are running (they may overlap when `run` is called concurrently). */
let exitGuards = 0;
let realExit: typeof process.exit | undefined;
/** The module named in the error (the latest guarded one, when calls overlap). */
let exitFile = '';

/**
 * Runs `f` with `process.exit` turned into an error: a model module that calls it while the
 * CLI samples in this thread would otherwise end the process with its code and no output.
 * Overlapping calls share one replacement, and the real `process.exit` comes back when the
 * last one ends.
 */
async function guardExit<T>(file: string, f: () => Promise<T>): Promise<T> {
  exitFile = file;
  if (exitGuards++ === 0) {
    realExit = process.exit;
    process.exit = ((code?: number | string | null) => {
      throw new CliError(`${exitFile} called process.exit(${code ?? ''}) while sampling; a model module must return or throw, not exit`);
    }) as typeof process.exit;
  }
  try {
    return await f();
  } finally {
    if (--exitGuards === 0) process.exit = realExit!;
  }
}

/**
 * The chain index a cluster scheduler gives this process when --chain-index is absent: a Slurm
 * job array's `SLURM_ARRAY_TASK_ID` or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`.
 */
function schedulerIndex(io: CliIo): number | undefined {
  const env = io.env ?? process.env;
  for (const name of ['SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX']) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^\d+$/.test(v)) throw new CliError(`${name} must be a non-negative integer to be used as the chain index; got '${v}'`);
    io.stderr(`chain index ${v} from ${name}\n`);
    return Number(v);
  }
  return undefined;
}

interface RunOptions {
  readonly chains: number;
  readonly nDraws: number;
  readonly warmup: number;
  readonly seed: number | bigint;
  readonly workers: number | undefined;
  readonly chainIndex: number | undefined;
  /** windowedAdaptiveNuts' `compile` and `metric` (a joint module only). */
  readonly compile: boolean;
  readonly metric: 'diagonal' | 'dense' | undefined;
}

/**
 * A joint-distribution module: `windowedAdaptiveNuts` in this process (one chain of it with
 * --chain-index), or its chains on worker threads with --workers N ≥ 1 (the same draws).
 */
async function runJoint(model: LoadedModel & { kind: 'joint' }, o: RunOptions, io: CliIo, sorting: ReturnType<typeof sortedDrawsScope>): Promise<Run> {
  const pooled = (model.options as { adaptation?: unknown } | undefined)?.adaptation === 'pooled';
  if (o.chainIndex !== undefined && pooled) {
    throw new CliError(`--chain-index needs per-chain adaptation: ${model.name} sets options.adaptation = 'pooled', whose chains share their warm-up and cannot run one per process`);
  }
  const onWorkers = o.chainIndex === undefined && o.workers !== undefined && o.workers > 1;
  if (onWorkers && pooled) io.stderr(`note: --workers ${o.workers} ignored: ${model.name} sets options.adaptation = 'pooled', whose chains run as one batch\n`);
  const shown = o.chainIndex === undefined ? Array.from({ length: o.chains }, (_, c) => c) : [o.chainIndex];
  const where = o.chainIndex !== undefined ? `chain ${o.chainIndex} of ${o.chains}` : onWorkers && !pooled ? `${o.chains} chains on up to ${o.workers} threads` : `${o.chains} chains`;
  io.stderr(`windowedAdaptiveNuts: ${where} × (${o.warmup} warm-up + ${o.nDraws} draws), seed ${o.seed} …\n`);
  const progress = chainProgress(io, shown);
  const settings = {
    nChains: o.chains, nDraws: o.nDraws, numAdaptationSteps: o.warmup, seed: o.seed,
    ...(o.compile ? {} : { compile: false }),
    ...(o.metric === undefined ? {} : { metric: o.metric }),
    onProgress: (p: WindowedProgress) => progress.update(p),
    progress: false,   // the CLI draws its own display, above
    warn: false,   // the CLI prints the warnings itself, after the table
  };
  let run;
  try {
    const r = windowedAdaptiveNuts(model.model, {
      ...model.options,
      ...(model.pins === undefined ? {} : { pins: model.pins }),
      ...(model.coords === undefined ? {} : { coords: model.coords }),   // checked against the model before sampling
      ...(model.dims === undefined ? {} : { dims: model.dims }),
      ...settings,
      ...(o.chainIndex === undefined ? {} : { chainIndex: o.chainIndex }),
      ...(o.workers === undefined || pooled ? {} : { cores: Math.max(1, o.workers) }),   // --workers N: up to N threads (the cores path: the same draws)
    });
    // Say why the chains stayed in this thread when it is the model's doing (not a short run, one chain or one core).
    // Copying the result reads its warnings (a getter that computes them): inside `sorting`.
    const { parallel, ...rest } = sorting(() => ({ ...r }));
    const why = parallel?.reason;
    if (why !== undefined && (onWorkers || !/^(the run is estimated|one chain|one core)/.test(why))) io.stderr(`note: chains ran in this thread: ${why}\n`);
    // The library's note on NaN in the data (it is silent with warn: false): sampled as `y_missing`.
    for (const m of r.imputed ?? []) io.stderr(`note: ${m.count} missing value${m.count === 1 ? '' : 's'} (NaN) of \`${m.node}\` sampled as \`${m.name}\`\n`);
    run = rest;
  } finally {
    progress.end();
  }
  if (!run.compiled && o.compile) io.stderr(`note: ${model.name}'s log density ran on the autodiff tape (slower), as it cannot be compiled: ${oneLine(run.compileReason)}\n`);
  return run;
}

/** A joint module's warm-up when --warmup is not given: its options' `numAdaptationSteps`, else windowedAdaptiveNuts' default. */
function jointWarmup(options: unknown): number {
  const o = options as { numAdaptationSteps?: unknown; adaptation?: unknown } | undefined;
  if (typeof o?.numAdaptationSteps === 'number') return o.numAdaptationSteps;
  return defaultWarmup(o?.adaptation === 'pooled' ? 'pooled' : 'per-chain');
}

/** A `setup` module: `sampleChains` (or one chain with `sampleChainByIndex`). */
async function runSetup(model: LoadedModel & { kind: 'setup' }, o: RunOptions, io: CliIo): Promise<Run> {
  if (o.metric !== undefined) io.stderr(`note: --metric ignored: ${model.name}'s setup chooses its own kernel\n`);
  const common = { model: model.url, chains: o.chains, seed: o.seed, numResults: o.nDraws, numBurninSteps: o.warmup };
  const shown = o.chainIndex === undefined ? Array.from({ length: o.chains }, (_, c) => c) : [o.chainIndex];
  const where = o.chainIndex !== undefined ? `chain ${o.chainIndex} of ${o.chains}`
    : o.workers === 0 ? `${o.chains} chains in this thread` : `${o.chains} chains on ${o.workers ?? 'up to one per core'} worker${o.workers === 1 ? '' : 's'}`;
  io.stderr(`sampleChains (${model.name}'s setup): ${where}, ${o.warmup} warm-up + ${o.nDraws} draws, seed ${o.seed}\n`);
  const progress = chainProgress(io, shown);
  let merged;
  try {
    if (o.chainIndex === undefined) {
      merged = await sampleChains({ ...common, ...(o.workers === undefined ? {} : { workers: o.workers }), onProgress: (p) => progress.update(p) });
    } else {
      const one = await sampleChainByIndex({ ...common, chainIndex: o.chainIndex, onProgress: (p) => progress.update(p) });
      merged = mergeChains([one]);
    }
  } finally {
    progress.end();
  }
  return { draws: named(merged.allStates, model.names, model.name), trace: merged.trace };
}

/** The state parts as a record by name (`names`, else `x` or `x0`, `x1`, …). */
function named(states: unknown, names: readonly string[] | undefined, file: string): Record<string, Tensor> {
  const parts = states instanceof Tensor ? [states] : states as Tensor[];
  const labels = names ?? (states instanceof Tensor ? ['x'] : parts.map((_, i) => `x${i}`));
  if (labels.length !== parts.length) throw new CliError(`${file}: \`names\` has ${labels.length} labels for ${parts.length} state parts`);
  return Object.fromEntries(parts.map((t, i) => [labels[i]!, t]));
}
