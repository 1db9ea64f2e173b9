/**
 * The draws files a run writes: `draws.csv` (one row per chain and draw) and `draws.json`,
 * ArviZ's `az.from_dict` layout (`az.from_dict(**json.load(f))` loads it), plus the reader for
 * that JSON. TFP/stochax draws are `[draws, chains, ...event]`; ArviZ's are `[chain, draw, ...event]`.
 */
import { checkOptions, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { isPartRecord } from '../../mcmc/diagnostics/draws.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { flattenParameters, namedParts, type ReportDraws } from './parameters.js';
import { sampleStats, statColumns, traceKey } from './sample-stats.js';
import type { RunSettings } from './settings.js';
import type { CoordsDims } from '../../mcmc/diagnostics/coords.js';
import { JSON_MINUS_ZERO, valueTexts } from './number-text.js';
import { checkInferenceData, inferenceDataText, netcdfFiles, readInferenceDataGroups, writeInferenceData, type InferenceData, type InferenceDataGroups } from './inference-data-groups.js';

export { jsonNumber } from './number-text.js';

/** RFC 4180 quoting for a header cell (`L[1, 0]` contains a comma). */
function csvCell(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** All parts and statistics share `[draws, chains]`; returns them. */
function shapeOf(fn: string, draws: unknown): { nDraws: number; nChains: number } {
  const params = flattenParameters(fn, draws);
  if (params.length === 0) fail('range', fn, 'draws', 'must have at least one part', draws);
  return { nDraws: params[0]!.draws, nChains: params[0]!.chains };
}

/**
 * The draws as CSV: a header `chain,draw,<parameters>,<sample stats>`, then one row per (chain,
 * draw), chain-major, both 0-based. Parameters are labelled like ArviZ (`mu`, `theta[0]`,
 * `"L[1, 0]"`; with `dims` and `coords`, by coordinate as `az.summary` labels rows: `theta[Choate]`,
 * the same labels as `summary` and the report), sample stats by their ArviZ names (`step_size`, `tree_depth`, `diverging`,
 * `acceptance_rate`, `energy`, `lp`, …; booleans as 0/1). Numbers are written in their shortest
 * round-trip form, so `Number(cell)` gives back the same double (`NaN`, `Infinity` spelled out).
 *
 * @param draws - draws in TFP layout `[draws, chains, ...event]`: a record of named parts (as
 *   `windowedAdaptiveNuts` returns), an array of parts (`x0`, `x1`, …) or one part (`x`).
 * @param trace - optional per-draw statistics `[draws, chains]` (a `windowedAdaptiveNuts`
 *   trace); fields of other shapes are skipped.
 * @param options - `coords` and `dims` (ArviZ's; a `windowedAdaptiveNuts` result carries them).
 * @returns The file's text, `\n` line ends, with a final newline.
 * @throws {TypeError} when `draws` is not draws.
 * @throws {RangeError} for scalar or empty parts, or parts that disagree on draws or chains.
 *
 * @example
 * const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * writeFileSync('draws.csv', toDrawsCsv(draws, trace));
 * // chain,draw,mu,tau,theta[0],…,step_size,…,diverging,acceptance_rate,energy,lp,…
 * // 0,0,4.21…,2.9…,…
 * toDrawsCsv(draws, trace, { coords: { school: ['Choate', …] }, dims: { theta: ['school'] } });
 * // chain,draw,mu,tau,theta[Choate],…
 */
export function toDrawsCsv(draws: unknown, trace?: unknown, options?: CoordsDims): string {
  const FN = 'toDrawsCsv';
  const o = checkOptions(FN, options, ['coords', 'dims']);
  const params = flattenParameters(FN, draws, o);
  if (params.length === 0) fail('range', FN, 'draws', 'must have at least one part', draws);
  const { draws: nDraws, chains: nChains } = params[0]!;
  // Each column reads its tensor's value texts (printed once, shared with draws.json: number-text.ts)
  // at element e of [draws, chains, ...event]; labels and checks from flattenParameters and statColumns.
  const columns: { label: string; texts: readonly string[]; e: number; eventSize: number }[] = [];
  const parts = new Map(namedParts(FN, draws));
  let e = 0, texts: readonly string[] = [];
  params.forEach((p, k) => {
    const t = parts.get(p.part)!;
    if (k > 0 && params[k - 1]!.part === p.part) e++;
    else { e = 0; texts = valueTexts(t); }
    columns.push({ label: p.name, texts, e, eventSize: t.size / (nDraws * nChains) });
  });
  for (const s of sampleStats(FN, trace, nDraws, nChains)) {
    const texts = valueTexts(s.tensor);
    const eventSize = s.tensor.size / (nDraws * nChains);
    statColumns(s).forEach((col, j) => columns.push({ label: col.label, texts, e: j, eventSize }));
  }
  // One flat string (rows and cells joined from arrays), not a rope of two nodes per cell: the CLI
  // keeps the text while it computes the summary and the report, and a rope that lives that long is
  // promoted by the garbage collector node by node and then flattened when written (draws.csv took
  // 11–24 ms to write that way, 1–3 ms flat).
  const rows = new Array<string>(nChains * nDraws + 2);
  rows[0] = ['chain', 'draw', ...columns.map((c) => c.label)].map(csvCell).join(',');
  const cells = new Array<string>(columns.length + 2);
  for (let c = 0, r = 1; c < nChains; c++) {
    cells[0] = String(c);
    for (let d = 0; d < nDraws; d++, r++) {
      cells[1] = String(d);
      for (let k = 0; k < columns.length; k++) {
        const col = columns[k]!;
        const cell = col.texts[(d * nChains + c) * col.eventSize + col.e]!;
        cells[k + 2] = cell === JSON_MINUS_ZERO ? '-0' : cell;
      }
      rows[r] = cells.join(',');
    }
  }
  rows[rows.length - 1] = '';   // the final newline
  return rows.join('\n');
}

/** Options of {@link toArvizJson}. */
export interface ArvizJsonOptions {
  /** The run's settings, written to `attrs` (flat: versions become `<name>_version`). */
  readonly settings?: RunSettings;
}

/** A part as ArviZ nested arrays `[chain][draw][...event]` in JSON text. @internal */
export function arvizArray(t: Tensor): string {
  const nDraws = t.shape[0]!;
  const nChains = t.ndim === 1 ? 1 : t.shape[1]!;
  const event = t.shape.slice(2);
  const eventSize = sizeOf(event);
  const nest = jsonNester(t);
  // Arrays joined, not strings appended: `+=` builds a rope of two nodes per value, which the
  // file's text then flattens node by node (143 ms for a 300-group model's 28 MB draws.json).
  const chains = new Array<string>(nChains);
  const draws = new Array<string>(nDraws);
  for (let c = 0; c < nChains; c++) {
    for (let d = 0; d < nDraws; d++) draws[d] = nest((d * nChains + c) * eventSize, event, eventSize);
    chains[c] = `[${draws.join(', ')}]`;
  }
  return `[${chains.join(', ')}]`;
}

/**
 * `nest(base, dims, stride)`: the block of t's values at `base` with shape `dims` (`stride`
 * values) as nested JSON arrays — booleans as true/false, 64-bit integers exactly, other numbers
 * by {@link valueTexts}. @internal
 */
export function jsonNester(t: Tensor): (base: number, dims: readonly number[], stride: number) => string {
  const big = t.data instanceof BigInt64Array || t.data instanceof BigUint64Array ? t.data : undefined;
  const bool = t.dtype === 'bool' ? t.data as ArrayLike<number> : undefined;
  const texts = big === undefined && bool === undefined ? valueTexts(t) : undefined;
  const leaf = (i: number): string => (texts !== undefined ? texts[i]! : bool !== undefined ? (bool[i] !== 0 ? 'true' : 'false') : String(big![i]));
  // axis by axis over the same dims, each level one joined array (see arvizArray); the last
  // axis's values are neighbours, so printed numbers are joined straight from their texts
  const block = (base: number, dims: readonly number[], axis: number, stride: number): string => {
    const n = dims[axis]!;
    const inner = stride / n;
    if (axis === dims.length - 1 && texts !== undefined) return `[${texts.slice(base, base + n).join(', ')}]`;
    const items = new Array<string>(n);
    for (let k = 0; k < n; k++) items[k] = axis === dims.length - 1 ? leaf(base + k * inner) : block(base + k * inner, dims, axis + 1, inner);
    return `[${items.join(', ')}]`;
  };
  return (base, dims, stride) => (dims.length === 0 ? leaf(base) : block(base, dims, 0, stride));
}

/** A JSON object of pre-written values, one entry a line. @internal */
export function group(entries: readonly [string, string][]): string {
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `    ${JSON.stringify(k)}: ${v}`).join(',\n')}\n  }`;
}

/**
 * The draws as ArviZ's `az.from_dict` keyword arguments in JSON: `posterior` (one array per
 * part, `[chain, draw, ...event]`), `sample_stats` (ArviZ names: `step_size`, `tree_depth`,
 * `n_steps`, `diverging`, `acceptance_rate`, `energy`, `lp`, …, each `[chain, draw]`) and
 * `attrs` (`inference_library: 'stochax'` and the flattened settings): `inferenceDataJson` with
 * only those two groups, so `az.from_json(path)` reads it too. In Python,
 * `az.from_dict(**json.load(open('draws.json')))` gives an `InferenceData` whose `az.summary`
 * matches stochax's `summary` of the same draws. Numbers are written in their shortest
 * round-trip form; non-finite ones as `NaN`/`Infinity` (which Python's `json` and
 * {@link fromArvizJson} read, though strict JSON parsers do not).
 *
 * @param draws - draws in TFP layout `[draws, chains, ...event]`: a record of named parts, an
 *   array of parts (`x0`, `x1`, …) or one part (`x`).
 * @param trace - optional per-draw statistics `[draws, chains, ...]` (fields of other shapes are skipped).
 * @param options - `settings`: the run's seed, versions, chains, draws, warmup, model.
 * @returns The file's text.
 * @throws {TypeError} when `draws` is not draws or a setting has the wrong type.
 * @throws {RangeError} for scalar or empty parts, or parts that disagree on draws or chains.
 *
 * @example
 * const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * writeFileSync('draws.json', toArvizJson(draws, trace, { settings: { seed: 0, chains: 4, draws: 1000, warmup: 500 } }));
 * // Python: idata = az.from_dict(**json.load(open('draws.json'))); az.summary(idata)
 */
export function toArvizJson(draws: unknown, trace?: unknown, options?: ArvizJsonOptions): string {
  const FN = 'toArvizJson';
  checkOptions(FN, options, ['settings']);
  shapeOf(FN, draws);
  return writeInferenceData(FN, { posterior: draws as ReportDraws, sampleStats: trace }, options?.settings);
}

/** What {@link fromArvizJson} reads back. */
export interface ArvizDraws {
  /** The posterior in TFP layout `[draws, chains, ...event]`, one float64 (or bool) tensor per variable. */
  readonly draws: Record<string, Tensor>;
  /** `sample_stats` in TFP layout under the trace's keys (`acceptance_rate` → `acceptRatio`, `lp` → `targetLogProb`, …). */
  readonly trace: Record<string, Tensor>;
  /** `attrs` as written. */
  readonly attrs: Record<string, unknown>;
  /** The run settings recovered from `attrs` (`<name>_version` attributes become `versions`). */
  readonly settings: RunSettings;
  /** The other InferenceData groups the file holds (see `inferenceDataJson`), in stochax's layout. */
  readonly groups: InferenceDataGroups;
}

const FROM = 'fromArvizJson';
const NONFINITE = '\u0000nonfinite:';

/** JSON.parse that also reads Python's `NaN`, `Infinity` and `-Infinity` tokens. @internal */
export function parseJson(text: string): unknown {
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)/g, (m, token: string | undefined) =>
    token === undefined ? m : JSON.stringify(NONFINITE + token));
  try {
    return JSON.parse(marked, (_, v: unknown) => (typeof v === 'string' && v.startsWith(NONFINITE) ? Number(v.slice(NONFINITE.length)) : v));
  } catch (e) {
    return fail('type', FROM, 'json', `must be JSON text (${(e as Error).message})`, text.length > 40 ? `${text.slice(0, 40)}…` : text);
  }
}

/** A rectangular nested array of numbers or of booleans as a TFP-layout tensor. @internal */
export function fromArviz(where: string, x: unknown): Tensor {
  const shape: number[] = [];
  for (let v: unknown = x; Array.isArray(v); v = v[0]) shape.push(v.length);
  if (shape.length < 2 || shape[0] === 0 || shape[1] === 0) {
    fail('range', FROM, where, 'must be a nested array shaped [chain, draw, ...] with at least one chain and one draw', x);
  }
  const size = sizeOf(shape);
  const flat = new Float64Array(size);
  let pos = 0;
  let kind: 'number' | 'boolean' | undefined;
  const walk = (v: unknown, dim: number): void => {
    if (dim === shape.length) {
      const k = typeof v;
      if ((k !== 'number' && k !== 'boolean') || (kind !== undefined && k !== kind)) {
        fail('type', FROM, where, 'must hold only numbers or only booleans', v);
      }
      kind = k;
      flat[pos++] = Number(v);
      return;
    }
    if (!Array.isArray(v) || v.length !== shape[dim]) fail('range', FROM, where, `must be rectangular (shape [${shape.join(', ')}])`, v);
    for (const item of v) walk(item, dim + 1);
  };
  walk(x, 0);
  const [nChains, nDraws] = shape as [number, number];
  const eventSize = size / (nChains * nDraws);
  const out = new Float64Array(size);
  for (let c = 0; c < nChains; c++) {
    for (let d = 0; d < nDraws; d++) {
      const from = (c * nDraws + d) * eventSize;
      out.set(flat.subarray(from, from + eventSize), (d * nChains + c) * eventSize);
    }
  }
  const tfpShape = [nDraws, nChains, ...shape.slice(2)];
  return kind === 'boolean' ? new Tensor(Uint8Array.from(out), tfpShape, 'bool') : new Tensor(out, tfpShape, 'float64');
}

function readGroup(json: Record<string, unknown>, name: string, required: boolean): Record<string, Tensor> {
  const g = json[name];
  if (g === undefined && !required) return {};
  if (!isPartRecord(g)) fail('type', FROM, `json.${name}`, 'must be an object of variables', g);
  const out: Record<string, Tensor> = {};
  for (const [k, v] of Object.entries(g)) out[k] = fromArviz(`json.${name}.${k}`, v);
  return out;
}

/**
 * Reads the JSON {@link toArvizJson} writes (or any `az.from_dict`-shaped JSON with a
 * `posterior` group of `[chain, draw, ...]` arrays) back into TFP layout, for `summary` and the
 * report; the other InferenceData groups (`log_likelihood`, `posterior_predictive`, `prior`,
 * `prior_predictive`, `observed_data`, `coords`, `dims`) come back as `groups`.
 *
 * @param json - the file's text (Python's `NaN`/`Infinity` tokens allowed) or its parsed object.
 * @returns `draws` and `trace` as tensors `[draws, chains, ...]`, `attrs`, and the `settings` in them.
 * @throws {TypeError} for text that is not JSON, a missing `posterior`, or arrays that hold
 *   anything but numbers (or only booleans).
 * @throws {RangeError} for ragged arrays, arrays with fewer than two dimensions, or variables
 *   that disagree on the numbers of chains and draws.
 *
 * @example
 * const { draws, trace, settings } = fromArvizJson(readFileSync('draws.json', 'utf8'));
 * console.log(String(summary(draws, { divergences: trace.diverging })));
 */
export function fromArvizJson(json: string | object): ArvizDraws {
  const parsed = typeof json === 'string' ? parseJson(json) : json;
  if (!isPartRecord(parsed)) fail('type', FROM, 'json', 'must be an object with a `posterior` group', parsed);
  const draws = readGroup(parsed, 'posterior', true);
  const names = Object.keys(draws);
  if (names.length === 0) fail('range', FROM, 'json.posterior', 'must have at least one variable', parsed.posterior);
  const stats = readGroup(parsed, 'sample_stats', false);
  const [nDraws, nChains] = draws[names[0]!]!.shape as [number, number];
  for (const [where, g] of [['posterior', draws], ['sample_stats', stats]] as const) {
    for (const [k, t] of Object.entries(g)) {
      if (t.shape[0] !== nDraws || t.shape[1] !== nChains) {
        fail('range', FROM, `json.${where}.${k}`, `must have ${nChains} chains and ${nDraws} draws like json.posterior.${names[0]}`, [t.shape[1], t.shape[0]]);
      }
    }
  }
  const trace: Record<string, Tensor> = {};
  for (const [k, t] of Object.entries(stats)) trace[traceKey(k)] = t;
  const attrs = parsed.attrs === undefined ? {} : parsed.attrs;
  if (!isPartRecord(attrs)) fail('type', FROM, 'json.attrs', 'must be an object', attrs);
  return { draws, trace, attrs: { ...attrs }, settings: settingsOf(attrs), groups: readInferenceDataGroups(parsed, nDraws, nChains) };
}

/** The settings in flat attrs: `<name>_version` keys gathered into `versions`; ArviZ's own keys, the run's warnings and where its netCDF files are dropped. */
function settingsOf(attrs: Readonly<Record<string, unknown>>): RunSettings {
  const out: Record<string, unknown> = {};
  const versions: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'inference_library' || k === 'inference_library_version' || k === 'created_at' || k === 'arviz_version' || k === 'warnings' || k === 'warning_kinds' || k === 'netcdf_files' || k === 'netcdf_only_groups') continue;
    const m = /^(.+)_version$/.exec(k);
    if (m !== null && typeof v === 'string') versions[m[1]!] = v;
    else out[k] = v;
  }
  if (Object.keys(versions).length > 0) out.versions = versions;
  return out as RunSettings;
}

/** `draws.json` alone, or every group as netCDF beside a `draws.json` of the small groups; `auto` picks by size. */
export type DrawsFormat = 'json' | 'netcdf' | 'auto';

/**
 * The groups whose size is draws × observations (the predictive groups): with netCDF output
 * they are left out of draws.json and live only in `idata/<group>.nc`.
 */
export const NETCDF_ONLY_GROUPS: readonly string[] = ['log_likelihood', 'posterior_predictive', 'prior_predictive'];

/**
 * `auto` writes netCDF above this many values in all groups. Measured (bench/cli-outputs.ts):
 * draws.json costs about 0.5 µs per value to print and write (2.5 s for the 4.8 M values of a
 * 600-observation regression), netCDF about 0.01 µs; at 1 M values JSON takes about half a
 * second and 22 MB, below that it is fast enough to keep one self-contained file.
 */
export const AUTO_NETCDF_VALUES = 1_000_000;

/** Options of {@link runDrawsFiles}. */
export interface RunDrawsFilesOptions {
  readonly format?: DrawsFormat;
  /** float32 halves the netCDF-only groups (draws.json and the other .nc files keep float64). */
  readonly dtype?: 'float64' | 'float32';
  /** `auto`'s threshold in values (default {@link AUTO_NETCDF_VALUES}). */
  readonly autoValues?: number;
  readonly settings?: RunSettings;
  readonly warnings?: readonly { readonly kind: string; readonly message: string }[];
  /** Which files to make: `all` (default), `netcdf` (only the `idata/` files) or `json` (only draws.json), so two threads can share the work. */
  readonly part?: 'all' | 'netcdf' | 'json';
}

/** What {@link runDrawsFiles} gives: the files by path in the run folder, and what went where. */
export interface RunDrawsFiles {
  /** `draws.json` (text) and, with netCDF, `idata/<group>.nc` (bytes). */
  readonly files: Record<string, string | Uint8Array>;
  /** Values in all groups. */
  readonly values: number;
  /** Whether the groups were written as netCDF. */
  readonly netcdf: boolean;
  /** Groups that are only in `idata/*.nc` (not in draws.json). */
  readonly netcdfOnly: readonly string[];
}

/**
 * A run's InferenceData files: `draws.json` with every group (`format: 'json'`), or every group
 * as `idata/<group>.nc` (netCDF-3, see `inferenceDataNetcdf`) and a `draws.json` without the
 * predictive groups (`log_likelihood`, `posterior_predictive`, `prior_predictive`), whose attrs
 * `netcdf_files` and `netcdf_only_groups` say where they are (`format: 'netcdf'`). `auto`
 * (the default) is `json` up to `autoValues` values in all groups, else `netcdf`.
 *
 * @param idata - the run's InferenceData in stochax's layout.
 * @param options - `format`, `dtype`, `autoValues`, `settings`, `warnings`.
 * @returns The files by path relative to the run folder, and what went where.
 * @throws {TypeError} / {RangeError} as `inferenceDataJson`, and for an unknown option or a bad value.
 * @example
 * const { files, netcdf } = runDrawsFiles(idata, { format: 'auto', settings: { seed: 0 } });
 * for (const [path, data] of Object.entries(files)) writeFileSync(join('out', path), data);
 */
export function runDrawsFiles(idata: InferenceData, options?: RunDrawsFilesOptions): RunDrawsFiles {
  const FN = 'runDrawsFiles';
  const o = checkOptions(FN, options, ['format', 'dtype', 'autoValues', 'settings', 'warnings', 'part']);
  const part = o.part ?? 'all';
  if (part !== 'all' && part !== 'netcdf' && part !== 'json') fail('range', FN, 'options.part', "must be 'all', 'netcdf' or 'json'", part);
  const format = o.format ?? 'auto';
  if (format !== 'json' && format !== 'netcdf' && format !== 'auto') fail('range', FN, 'options.format', "must be 'json', 'netcdf' or 'auto'", format);
  const dtype = o.dtype ?? 'float64';
  if (dtype !== 'float64' && dtype !== 'float32') fail('range', FN, 'options.dtype', "must be 'float64' or 'float32'", dtype);
  const limit = o.autoValues ?? AUTO_NETCDF_VALUES;
  if (typeof limit !== 'number' || !(limit >= 0)) fail('range', FN, 'options.autoValues', 'must be a non-negative number', limit);
  const checked = checkInferenceData('inferenceDataJson', idata, o.settings, o.warnings);
  const values = checked.groups.reduce((s, g) => s + g.vars.reduce((n, [, t]) => n + t.size, 0), 0);
  const netcdf = format === 'netcdf' || (format === 'auto' && values > limit);
  if (!netcdf) return { files: part === 'netcdf' ? {} : { 'draws.json': inferenceDataText(checked) }, values, netcdf, netcdfOnly: [] };
  const names = checked.groups.map((g) => g.name);
  const only = names.filter((g) => NETCDF_ONLY_GROUPS.includes(g));
  const files: Record<string, string | Uint8Array> = {};
  if (part !== 'json') {
    for (const [g, bytes] of Object.entries(netcdfFiles(checked, new Set(dtype === 'float32' ? only : [])))) files[`idata/${g}.nc`] = bytes;
  }
  if (part !== 'netcdf') {
    files['draws.json'] = inferenceDataText(checked, {
      omit: new Set(only),
      extraAttrs: [['netcdf_files', names.map((g) => `idata/${g}.nc`).join(',')], ['netcdf_only_groups', only.join(',')]],
    });
  }
  return { files, values, netcdf, netcdfOnly: only };
}
