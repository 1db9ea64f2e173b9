/**
 * The CLI's after-sampling work that needs no model: pure functions of the run's InferenceData,
 * run either on the main thread or on the outputs worker (`cli/outputs.ts`), by the same code, so
 * the files are the same bytes wherever they were made.
 */
import { runDrawsFiles, toDrawsCsv, type RunDrawsFiles, type RunDrawsFilesOptions } from './draws-files.js';
import { looSection, ppcSection } from './report-html.js';
import type { InferenceData } from './inference-data-groups.js';
import type { CoordsDims } from '../../mcmc/diagnostics/coords.js';
import { writeFiles } from '../output.js';
import { sharingNumberTexts } from './number-text.js';

/** What one after-sampling task is given: the InferenceData, and its own options. */
export interface OutputTaskInput {
  readonly idata: InferenceData;
  /** `drawsFiles`: runDrawsFiles's options. */
  readonly files?: RunDrawsFilesOptions;
  /** `drawsFiles`: the run's temporary folder (`startRunFolder`), where the `idata/` files are written at once. */
  readonly folder?: string;
  /** `drawsFiles`: the trace and labels the CLI's draws.csv uses. */
  readonly csv?: { readonly trace: unknown; readonly labels: CoordsDims };
}

/** The tasks by name. */
export const OUTPUT_TASKS = {
  ppc: (t: OutputTaskInput): string | undefined => ppcSection('reportHtml', t.idata),
  loo: (t: OutputTaskInput): string | undefined => looSection(t.idata),
  /** draws.json, the netCDF groups and draws.csv, which print each number once between them. */
  drawsFiles: (t: OutputTaskInput): RunDrawsFiles & { readonly written: readonly string[]; readonly csv: { readonly text: string } | { readonly error: unknown } } => sharingNumberTexts(() => {
    const d = runDrawsFiles(t.idata, t.files);
    let csv: { text: string } | { error: unknown };
    try {
      csv = { text: toDrawsCsv(t.idata.posterior, t.csv?.trace, t.csv?.labels) };
    } catch (e) {
      csv = { error: e };
    }
    // The netCDF groups (the bulk of the bytes) go to disk from this thread, and only their names come back.
    const written = t.folder === undefined ? [] : writeFiles(t.folder, Object.fromEntries(Object.entries(d.files).filter(([f]) => f.startsWith('idata/'))));
    return { ...d, files: Object.fromEntries(Object.entries(d.files).filter(([f]) => !written.includes(f))), written, csv };
  }),
} as const;

export type OutputTaskName = keyof typeof OUTPUT_TASKS;
export type OutputTaskResult<K extends OutputTaskName> = ReturnType<(typeof OUTPUT_TASKS)[K]>;
