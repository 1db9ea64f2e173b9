/**
 * The CLI's after-sampling work that needs no model: pure functions of the run's InferenceData,
 * run either on the main thread or on the outputs worker (`cli/outputs.ts`), by the same code, so
 * the files are the same bytes wherever they were made.
 */
import { runDrawsFiles, toDrawsCsv, type RunDrawsFiles, type RunDrawsFilesOptions } from './draws-files.js';
import { looSection, ppcSection, reportPlots } from './report-html.js';
import type { InferenceData } from './inference-data-groups.js';
import type { CoordsDims } from '../../mcmc/diagnostics/coords.js';
import { writeFiles, writeFilesInBackground } from '../output.js';
import { sharingNumberTexts } from './number-text.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** What one after-sampling task is given: the InferenceData, and its own options. */
export interface OutputTaskInput {
  readonly idata: InferenceData;
  /** `netcdf` and `drawsFiles`: runDrawsFiles's options (each task makes its part). */
  readonly files?: RunDrawsFilesOptions;
  /** `netcdf`: the run's temporary folder (`startRunFolder`), where the `idata/` files are written at once. */
  readonly folder?: string;
  /**
   * `netcdf`: write them in the background (node's I/O threads) and give the promise of the names
   * written as `pending`, which the caller must await (only where the task runs in the caller's
   * thread: `outputTasks` never sends it to the worker).
   */
  readonly background?: boolean;
  /** `drawsFiles`: the trace and labels the CLI's draws.csv uses. */
  readonly csv?: { readonly trace: unknown; readonly labels: CoordsDims };
  /** `plots`: the report's variables (`reportHtml`'s varNames). */
  readonly varNames?: readonly string[];
}

/** The tasks by name. */
export const OUTPUT_TASKS = {
  plots: (t: OutputTaskInput): string[] => reportPlots({ inferenceData: t.idata, ...(t.varNames === undefined ? {} : { varNames: t.varNames }) }),
  ppc: (t: OutputTaskInput): string | undefined => ppcSection('reportHtml', t.idata),
  loo: (t: OutputTaskInput): string | undefined => looSection(t.idata),
  /** The netCDF groups (`idata/*.nc`, when the run writes them), written to the run's folder from this thread: only their names come back. */
  netcdf: (t: OutputTaskInput): RunDrawsFiles & { readonly written: readonly string[]; readonly pending?: Promise<readonly string[]> } => {
    const d = runDrawsFiles(t.idata, { ...t.files, part: 'netcdf' });
    // In the background: `files` keeps every file, `pending` says which were written.
    if (t.folder !== undefined && t.background === true && Object.keys(d.files).length > 0) return { ...d, written: [], pending: writeFilesInBackground(t.folder, d.files) };
    const written = t.folder === undefined ? [] : writeFiles(t.folder, d.files);
    return { ...d, files: Object.fromEntries(Object.entries(d.files).filter(([f]) => !written.includes(f))), written };
  },
  /** draws.json and draws.csv, which print each number once between them. */
  drawsFiles: (t: OutputTaskInput): RunDrawsFiles & { readonly csv: { readonly text: string } | { readonly error: unknown } } => sharingNumberTexts(() => {
    const d = runDrawsFiles(t.idata, { ...t.files, part: 'json' });
    let csv: { text: string } | { error: unknown };
    try {
      csv = { text: toDrawsCsv(t.idata.posterior, t.csv?.trace, t.csv?.labels) };
    } catch (e) {
      csv = { error: e };
    }
    return { ...d, csv };
  }),
} as const;

export type OutputTaskName = keyof typeof OUTPUT_TASKS;
export type OutputTaskResult<K extends OutputTaskName> = ReturnType<(typeof OUTPUT_TASKS)[K]>;

/**
 * A made-up run shaped like a small `stochax sample` run (4 chains × 1000 draws; a scalar, an
 * 8-vector and 24 observations, with the groups, trace fields, dtypes, coords and dims the CLI
 * gives), for {@link warmOutputTasks}. The values are a fixed pseudo-random sequence (no PRNG
 * key: they are never output).
 */
export function warmupInput(): OutputTaskInput {
  const D = 1000, C = 4, K = 8, N = 8, P = 500;
  let u = 0x9e3779b9;
  const uniform = (): number => { u ^= u << 13; u ^= u >>> 17; u ^= u << 5; return (u >>> 0) / 4294967296; };
  const gauss = (): number => uniform() + uniform() + uniform() + uniform() - 2;
  const f64 = (shape: number[], f: () => number): Tensor => {
    const data = new Float64Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = f();
    return new Tensor(data, shape, 'float64');
  };
  const typed = <T extends Int32Array | Uint8Array>(data: T, dtype: 'int32' | 'bool', f: () => number): Tensor => {
    for (let i = 0; i < data.length; i++) data[i] = f();
    return new Tensor(data, [D, C], dtype);
  };
  const idata: InferenceData = {
    posterior: { mu: f64([D, C], gauss), tau: f64([D, C], () => 1 + uniform()), theta: f64([D, C, K], gauss) },
    sampleStats: {
      stepSize: f64([D, C], () => 0.5), tune: typed(new Uint8Array(D * C), 'bool', () => 0), nSteps: typed(new Int32Array(D * C), 'int32', () => 7),
      treeDepth: typed(new Int32Array(D * C), 'int32', () => 3), diverging: typed(new Uint8Array(D * C), 'bool', () => +(uniform() < 0.001)),
      acceptRatio: f64([D, C], uniform), energy: f64([D, C], gauss), targetLogProb: f64([D, C], gauss),
      isAccepted: typed(new Uint8Array(D * C), 'bool', () => 1), rejections: typed(new Int32Array(D * C), 'int32', () => 0),
    },
    logLikelihood: { y: f64([D, C, N], () => -1 - gauss() * gauss()) },
    posteriorPredictive: { y: f64([D, C, N], gauss) },
    prior: { mu: f64([P], gauss), theta: f64([P, K], gauss) },
    priorPredictive: { y: f64([P, N], gauss) },
    observedData: { y: f64([N], gauss) },
    coords: { k: Array.from({ length: K }, (_, i) => `k${i}`) },
    dims: { theta: ['k'] },
  };
  return { idata, files: { format: 'auto', settings: { seed: 0, chains: C, draws: D, warmup: D, model: 'warm-up' } }, csv: { trace: idata.sampleStats, labels: { coords: idata.coords!, dims: idata.dims! } } };
}

/**
 * Runs every task once on {@link warmupInput}, one at a time while `go()` is true, and
 * returns whether all ran: the outputs worker does this while the CLI loads the model, so V8 has
 * compiled the tasks' code before the run's own arrive (a fresh worker otherwise runs them
 * cold, at 2–3× their warm cost). Outputs are discarded; nothing is written.
 */
export function warmOutputTasks(go: () => boolean): boolean {
  const input = warmupInput();
  // netCDF as a large run writes it (the made-up run is below `auto`'s threshold)
  const netcdf = { ...input, files: { ...input.files, format: 'netcdf' as const } };
  for (const name of ['loo', 'plots', 'drawsFiles', 'ppc', 'netcdf'] as const) {
    if (!go()) return false;
    try { OUTPUT_TASKS[name](name === 'netcdf' ? netcdf : input); } catch { /* a warm-up failure changes nothing: the task runs cold */ }
  }
  return true;
}
