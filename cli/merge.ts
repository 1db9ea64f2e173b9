/**
 * `stochax merge <draws.json...> --out file`: concatenates the chains of several draws files
 * (e.g. one per `stochax sample --chain-index i` process) into one draws.json.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Tensor } from '../src/tensor/tensor.js';
import { summary } from '../mcmc/diagnostics/summary.js';
import { samplingWarnings } from '../mcmc/diagnostics/warnings.js';
import { sizeOf } from '../src/tensor/shapes.js';
import type { ArvizDraws, InferenceDataGroups, RunSettings } from './report/index.js';
import { runDrawsFiles } from './report/draws-files.js';
import { GROUPS } from './report/inference-data-groups.js';
import { readNetcdfGroup } from './report/netcdf-read.js';
import { parseArgs } from './args.js';
import { CliError, oneLine, type CliIo } from './errors.js';
import { checkOutputFile, writeFileAtomic } from './output.js';
import { drawsFileFlags } from './sample.js';
import { readDrawsJson } from './summary.js';
import { printWarnings } from './warnings.js';

export const MERGE_HELP = `Usage: stochax merge <draws.json> <draws.json>... [--out merged.json]

Concatenates the chains of several draws.json files (same variables, draws and shapes) into
one file (log_likelihood and posterior_predictive too; prior, prior_predictive and
observed_data from the first file), in the order given — or, when every file comes from \`stochax sample --chain-index\`,
in chain-index order. Merging the N files of a --chains N run equals the single run's
draws.json bit for bit. Prints the merged summary table, and the merged chains' warnings
(R-hat, ESS, divergences, tree depth, E-BFMI, chains that disagree) to stderr; they replace
the files' own warnings in the merged file's attrs.

The files must be different runs, or different chains of one run: the same file twice, or
the same chain in two files (duplicated chains inflate ESS and hide R-hat problems), is an
error. So are files sampled with different settings (model, sampler, metric, warm-up;
and, for --chain-index files, seed and chains); --force merges those anyway and records
each differing setting per file. Whole runs with different seeds merge without --force.

A run that wrote its groups as netCDF (a large run, or --draws-format netcdf) keeps
log_likelihood, posterior_predictive and prior_predictive only in the idata/*.nc files beside
its draws.json: merge reads them from there. The merged file follows --draws-format as
\`stochax sample\` does (auto: netCDF above 1 million values, to idata/ beside --out).

Flags:
  --out FILE   where to write the merged draws.json (default ./merged.json); written through
               a temporary file and a rename. An existing file, or one of the inputs, is
               replaced only with --force
  --force      replace an existing --out (and its idata/*.nc); merge files whose settings differ
  --draws-format F, --draws-dtype T
               as for \`stochax sample\`: json, netcdf or auto (default); float32 halves the
               predictive groups' netCDF files

Example:
  stochax merge run/c0/draws.json run/c1/draws.json run/c2/draws.json run/c3/draws.json --out run/draws.json
`;

/** Stacks `[draws, chains_i, ...event]` tensors along the chains axis. */
function concatChains(parts: readonly Tensor[], where: string): Tensor {
  const first = parts[0]!;
  const [draws, , ...event] = first.shape as [number, number, ...number[]];
  const inner = sizeOf(event);
  parts.forEach((t, i) => {
    const [d, , ...e] = t.shape;
    if (d !== draws || e.length !== event.length || e.some((x, k) => x !== event[k]) || t.dtype !== first.dtype) {
      throw new CliError(`${where} of file ${i + 1} is ${t.dtype} [draws ${d}, event ${e.join('×') || 'scalar'}], unlike file 1's ${first.dtype} [draws ${draws}, event ${event.join('×') || 'scalar'}]`);
    }
  });
  const chains = parts.map((t) => t.shape[1]!);
  const total = chains.reduce((a, b) => a + b, 0);
  const out = first.dtype === 'bool' ? new Uint8Array(draws * total * inner) : new Float64Array(draws * total * inner);
  for (let d = 0; d < draws; d++) {
    let c0 = 0;
    parts.forEach((t, i) => {
      const n = chains[i]! * inner;
      out.set((t.data as Float64Array).subarray(d * n, (d + 1) * n), (d * total + c0) * inner);
      c0 += chains[i]!;
    });
  }
  return new Tensor(out as never, [draws, total, ...event], first.dtype);
}

/** A digest of each chain's draws (all variables), to find the same chain in two files. */
function chainDigests(f: ArvizDraws): string[] {
  const parts = Object.keys(f.draws).sort().map((k) => f.draws[k]!);
  const nChains = parts[0]!.shape[1]!;
  return Array.from({ length: nChains }, (_, c) => {
    const h = createHash('sha256');
    for (const t of parts) {
      const [draws, chains] = t.shape as [number, number];
      const inner = t.size / (draws * chains);
      const data = t.data as Float64Array | Uint8Array;
      for (let d = 0; d < draws; d++) {
        const row = data.subarray((d * chains + c) * inner, (d * chains + c + 1) * inner);
        h.update(new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
      }
    }
    return h.digest('hex');
  });
}

/** Settings every merged file must share; for --chain-index files (parts of one run) also seed and chains. */
const SHARED = ['model', 'sampler', 'metric', 'warmup'];
const SHARED_BY_INDEX = [...SHARED, 'seed', 'chains'];

/**
 * The merged settings: a setting all files agree on (where recorded) is kept; one that differs
 * is recorded per file as a comma-separated list. A difference in one of `shared` is an error
 * unless `force` (a whole run's seed is not shared: that is how independent runs differ).
 */
function mergeSettings(settings: readonly RunSettings[], names: readonly string[], shared: readonly string[], force: boolean): Record<string, unknown> {
  const keys = [...new Set(settings.flatMap((s) => Object.keys(s)))].filter((k) => k !== 'chain_index' && k !== 'versions');
  const out: Record<string, unknown> = { ...settings[0] };
  for (const k of keys) {
    const values = settings.map((s) => s[k]);
    const known = values.filter((v) => v !== undefined).map(String);
    if (new Set(known).size <= 1) { if (out[k] === undefined) out[k] = values.find((v) => v !== undefined); continue; }
    if (shared.includes(k) && !force) {
      const i = values.findIndex((v) => v !== undefined && String(v) !== known[0]);
      const j = values.findIndex((v) => v !== undefined);
      throw new CliError(`${names[i]} was sampled with ${k} ${String(values[i])}, ${names[j]} with ${k} ${String(values[j])}: merged, their chains would be recorded under one setting; pass --force to merge them anyway (each file's ${k} is then recorded)`);
    }
    out[k] = values.map((v) => (v === undefined ? '?' : String(v))).join(',');
  }
  return out;
}

/**
 * Merges draws files: chains concatenated, settings shared by the files (with `chains` the
 * total and `chain_index` dropped when the files are one chain index each).
 *
 * @param force - merge files whose settings differ (each differing setting recorded per file).
 * @throws CliError when the files disagree on variables, draws or shapes, hold the same chain
 *   twice, or (without `force`) were sampled with different settings.
 * @example
 * const merged = mergeDraws([a, b], ['a/draws.json', 'b/draws.json']);
 */
export function mergeDraws(files: readonly ArvizDraws[], names: readonly string[], force = false): { draws: Record<string, Tensor>; trace: Record<string, Tensor>; settings: RunSettings; groups: InferenceDataGroups } {
  files.forEach((f, i) => {
    const method = f.settings.method;
    // Their draws are independent draws of an approximation (or one point), not MCMC chains: pooling them as chains would be wrong.
    if (method !== undefined && method !== 'sample') throw new CliError(`${names[i]} holds a \`stochax ${String(method)}\` run, not MCMC chains; merge concatenates the chains of \`stochax sample\` runs`);
  });
  let order = files.map((_, i) => i);
  const idx = files.map((f) => f.settings.chain_index);
  const byIndex = idx.every((i) => typeof i === 'number');
  if (byIndex) {
    const seen = new Set(idx);
    if (seen.size !== idx.length) throw new CliError(`two files hold the same chain (chain_index ${idx.find((v, i) => idx.indexOf(v) !== i)}): ${names.join(', ')}`);
    order = order.sort((a, b) => (idx[a] as number) - (idx[b] as number));
  }
  const merged = mergeSettings(files.map((f) => f.settings), names, byIndex ? SHARED_BY_INDEX : SHARED, force);
  // Bit-identical chains are the same chain, whatever the files say.
  const owner = new Map<string, string>();
  files.forEach((f, i) => chainDigests(f).forEach((digest, c) => {
    const where = `${names[i]} chain ${c}`;
    const before = owner.get(digest);
    if (before !== undefined) throw new CliError(`${where} has exactly the draws of ${before}: the same chain twice would inflate ESS and hide R-hat problems; merge each chain once`);
    owner.set(digest, where);
  }));
  const sorted = order.map((i) => files[i]!);
  const vars = Object.keys(sorted[0]!.draws);
  const stats = Object.keys(sorted[0]!.trace);
  sorted.forEach((f, i) => {
    const v = Object.keys(f.draws), s = Object.keys(f.trace);
    if (v.join() !== vars.join()) throw new CliError(`${names[order[i]!]} has variables ${v.join(', ')}, unlike ${names[order[0]!]}'s ${vars.join(', ')}`);
    if (s.join() !== stats.join()) throw new CliError(`${names[order[i]!]} has sample stats ${s.join(', ')}, unlike ${names[order[0]!]}'s ${stats.join(', ')}`);
  });
  const draws = Object.fromEntries(vars.map((k) => [k, concatChains(sorted.map((f) => f.draws[k]!), `posterior.${k}`)]));
  const trace = Object.fromEntries(stats.map((k) => [k, concatChains(sorted.map((f) => f.trace[k]!), `sample_stats.${k}`)]));
  const total = draws[vars[0]!]!.shape[1]!;
  const { chain_index: _drop, ...rest } = merged;
  if (byIndex) {
    const declared = sorted[0]!.settings.chains;
    if (typeof declared === 'number' && declared !== total) {
      throw new CliError(`the files hold ${total} of the ${declared} chains of the run (chain indices ${[...idx].sort((a, b) => (a as number) - (b as number)).join(', ')})`);
    }
  }
  const settings: RunSettings = byIndex ? rest : { ...rest, chains: total };
  return { draws, trace, settings, groups: mergeGroups(sorted, order.map((i) => names[i]!)) };
}

/**
 * The other InferenceData groups of the merged file: `log_likelihood` and
 * `posterior_predictive` concatenated along the chains like the posterior (every file must
 * hold them, or none: else they are left out); `prior`, `prior_predictive`, `observed_data`,
 * `coords` and `dims` taken from the first file (the --chain-index files of one run hold the
 * same ones; observed data that differ between files are an error).
 */
function mergeGroups(files: readonly ArvizDraws[], names: readonly string[]): InferenceDataGroups {
  const first = files[0]!.groups;
  const out: Record<string, unknown> = {};
  for (const key of ['logLikelihood', 'posteriorPredictive'] as const) {
    const gs = files.map((f) => f.groups[key]);
    if (gs.some((g) => g === undefined)) continue;
    const vars = Object.keys(gs[0]!);
    gs.forEach((g, i) => {
      if (Object.keys(g!).join() !== vars.join()) throw new CliError(`${names[i]} has ${key} variables ${Object.keys(g!).join(', ')}, unlike ${names[0]}'s ${vars.join(', ')}`);
    });
    out[key] = Object.fromEntries(vars.map((k) => [k, concatChains(gs.map((g) => g![k]!), `${key}.${k}`)]));
  }
  const obs = first.observedData;
  files.forEach((f, i) => {
    const o = f.groups.observedData;
    if (obs === undefined || o === undefined) return;
    for (const [k, t] of Object.entries(obs)) {
      const u = o[k];
      if (u !== undefined && (u.shape.join() !== t.shape.join() || Array.from(u.data as ArrayLike<number>).some((v, j) => !Object.is(v, Number(t.data[j]))))) {
        throw new CliError(`${names[i]} has other observed data \`${k}\` than ${names[0]}: these are not draws of one model's posterior`);
      }
    }
  });
  for (const key of ['prior', 'priorPredictive', 'observedData', 'coords', 'dims'] as const) if (first[key] !== undefined) out[key] = first[key];
  return out as InferenceDataGroups;
}

/**
 * Puts back into each file's groups those it keeps only in netCDF (`netcdf_only_groups`: a large
 * run, or --draws-format netcdf), read from the `idata/<group>.nc` beside its draws.json. A file
 * whose .nc files are gone is left as it is; the groups lost so (`name (path is missing)`) are
 * returned (for merge's note: mergeGroups merges a group only when every file has it). With
 * `wanted` (ArviZ group names), only those groups are read.
 *
 * @example
 * const lost = readNetcdfOnlyGroups(files, paths, positionals);   // [] when every .nc file is there
 */
export function readNetcdfOnlyGroups(files: ArvizDraws[], paths: readonly string[], names: readonly string[], wanted?: readonly string[]): string[] {
  const lost: string[] = [];
  files.forEach((f, i) => {
    const only = f.attrs.netcdf_only_groups;
    if (typeof only !== 'string' || only === '') return;
    const groups: Record<string, unknown> = { ...f.groups };
    for (const name of only.split(',')) {
      if (wanted !== undefined && !wanted.includes(name)) continue;
      const entry = GROUPS.find(([, n]) => n === name);
      if (entry === undefined) throw new CliError(`${names[i]} says its group ${name} is in netCDF, which is not an InferenceData group stochax writes`);
      const [key, , kind] = entry;
      if (kind === 'data') continue;
      const file = join(dirname(paths[i]!), 'idata', `${name}.nc`);
      if (!existsSync(file)) { lost.push(`${name} (${file} is missing)`); continue; }
      try {
        groups[key] = readNetcdfGroup(readFileSync(file), kind, file);
      } catch (e) {
        throw new CliError(`could not read ${file}: ${oneLine(e)}`);
      }
    }
    files[i] = { ...f, groups: groups as InferenceDataGroups };
  });
  return [...new Set(lost)];
}

/**
 * Runs `stochax merge`.
 *
 * @example
 * await mergeCommand(['a/draws.json', 'b/draws.json', '--out', 'all.json'], io);
 */
export async function mergeCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { positionals, flags } = parseArgs(argv, { out: { kind: 'string' }, force: { kind: 'bool' }, 'draws-format': { kind: 'string' }, 'draws-dtype': { kind: 'string' } }, 'merge');
  if (flags.get('help')) { io.stdout(MERGE_HELP); return 0; }
  if (positionals.length < 1) throw new CliError('give the draws files to merge: stochax merge <draws.json>... --out merged.json');
  const cwd = io.cwd ?? process.cwd();
  const force = flags.get('force') === true;
  const { format, dtype, autoValues } = drawsFileFlags(flags, io);
  const paths = positionals.map((f) => resolve(cwd, f));
  const real = paths.map((p) => (existsSync(p) ? realpathSync(p) : p));
  const twice = real.findIndex((p, i) => real.indexOf(p) !== i);
  if (twice >= 0) {
    const first = positionals[real.indexOf(real[twice]!)]!;
    const what = first === positionals[twice] ? `${first} is given twice` : `${first} and ${positionals[twice]} are the same file`;
    throw new CliError(`${what}: the same chains twice would inflate ESS and hide R-hat problems; merge each file once`);
  }
  const out = resolve(cwd, (flags.get('out') as string | undefined) ?? 'merged.json');
  checkOutputFile(out, paths, force);
  const files = positionals.map((f) => readDrawsJson(f, cwd));
  const lost = readNetcdfOnlyGroups(files, paths, positionals);
  const { draws, trace, settings, groups } = mergeDraws(files, positionals, force);
  if (lost.length > 0) io.stderr(`note: the merged file has no ${lost.join(', ')}: merge puts a group in only when every file has it\n`);
  const depth = settings.max_tree_depth;
  const labels = { ...(groups.coords === undefined ? {} : { coords: groups.coords }), ...(groups.dims === undefined ? {} : { dims: groups.dims }) };
  const warnings = samplingWarnings(draws, trace, { ...labels, ...(typeof depth === 'number' ? { maxTreeDepth: depth } : {}) });
  const written = runDrawsFiles({ posterior: draws, sampleStats: trace, ...groups }, { format, dtype, autoValues, settings, warnings });
  // The .nc files go to idata/ beside --out (draws.json's netcdf_files names them relative to it), draws.json last.
  const target = (f: string): string => (f === 'draws.json' ? out : join(dirname(out), f));
  const ncFiles = Object.keys(written.files).filter((f) => f !== 'draws.json');
  for (const f of ncFiles) checkOutputFile(target(f), [...paths, ...paths.map((p) => join(dirname(p), f))], force);
  for (const f of [...ncFiles, 'draws.json']) writeFileAtomic(target(f), written.files[f]!);
  io.stdout(`${summary({ allStates: draws, trace }, labels).format()}\n`);
  printWarnings(io, warnings);
  const nc = ncFiles.length === 0 ? '' : ` and ${join(dirname(out), 'idata')}/ (${ncFiles.map((f) => f.slice(6)).join(', ')})`;
  io.stdout(`\nwrote ${out}${nc} (${draws[Object.keys(draws)[0]!]!.shape[1]} chains from ${files.length} files)\n`);
  return 0;
}
