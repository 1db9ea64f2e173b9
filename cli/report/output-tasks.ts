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
  /** `plots`: `reportHtml`'s maxSubplots. */
  readonly maxSubplots?: number;
}

/** The tasks by name. */
export const OUTPUT_TASKS = {
  plots: (t: OutputTaskInput): string[] => reportPlots({ inferenceData: t.idata, ...(t.varNames === undefined ? {} : { varNames: t.varNames }), ...(t.maxSubplots === undefined ? {} : { maxSubplots: t.maxSubplots }) }),
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
