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
  /** `netcdf` and `drawsFiles`: the run's temporary folder (`startRunFolder`), where the `idata/` files and draws.json are written at once. */
  readonly folder?: string;
  /**
   * `netcdf` and `drawsFiles`: write their files in the background (node's I/O threads) and give
   * the promise of the names written as `pending`, which the caller must await (only where the
   * task runs in the caller's thread: `outputTasks` never sends it to the worker).
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
  netcdf: (t: OutputTaskInput): RunDrawsFiles & FilesWritten => {
    const d = runDrawsFiles(t.idata, { ...t.files, part: 'netcdf' });
    return { ...d, ...writtenNow(t, d.files) };
  },
  /** draws.json, written to the run's folder as soon as made (as the netCDF groups), and the text of draws.csv, which prints the same numbers. */
  drawsFiles: (t: OutputTaskInput): RunDrawsFiles & FilesWritten & { readonly csv: { readonly text: string } | { readonly error: unknown } } => sharingNumberTexts(() => {
    const d = runDrawsFiles(t.idata, { ...t.files, part: 'json' });
    const w = writtenNow(t, d.files);
    let csv: { text: string } | { error: unknown };
    try {
      csv = { text: toDrawsCsv(t.idata.posterior, t.csv?.trace, t.csv?.labels) };
    } catch (e) {
      csv = { error: e };
    }
    return { ...d, ...w, csv };
  }),
} as const;

/** A task's files after it wrote them: those `written`, or with `pending` those being written (each still in `files`), and the rest in `files`. */
export interface FilesWritten {
  readonly files: Record<string, string | Uint8Array>;
  readonly written: readonly string[];
  readonly pending?: Promise<readonly string[]>;
}

/** `files` written to the task's folder now: in the background when the task runs in the thread that awaits `pending`, else here. */
function writtenNow(t: OutputTaskInput, files: Record<string, string | Uint8Array>): FilesWritten {
  if (t.folder !== undefined && t.background === true && Object.keys(files).length > 0) return { files, written: [], pending: writeFilesInBackground(t.folder, files) };
  const written = t.folder === undefined ? [] : writeFiles(t.folder, files);
  return { files: Object.fromEntries(Object.entries(files).filter(([f]) => !written.includes(f))), written };
}

export type OutputTaskName = keyof typeof OUTPUT_TASKS;
export type OutputTaskResult<K extends OutputTaskName> = ReturnType<(typeof OUTPUT_TASKS)[K]>;
