/**
 * Where the CLI writes, checked before any work and written so that a result is never lost or
 * half-written: an existing run (or merged file) is replaced only with `--force`; files go to a
 * temporary name first and are renamed at the end; if writing fails after sampling, the draws
 * are saved elsewhere and the error says where.
 */
import { accessSync, constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CliError, oneLine } from './errors.js';

/** The files one `stochax sample` run writes into its output folder (`idata/`: the groups as netCDF, for large runs). */
export const RUN_FILES = ['draws.csv', 'draws.json', 'report.html', 'idata'] as const;

/** A run's files by path relative to its folder (`idata/posterior.nc`): text or bytes. */
export type RunFiles = Readonly<Record<string, string | Uint8Array>>;

/** Writes `files` under `dir`, making subfolders (`idata/`) as needed. */
function writeAll(dir: string, names: readonly string[], files: RunFiles): void {
  for (const name of names) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, files[name]!);
  }
}

/** The top-level entries of a run's files (`idata` for `idata/posterior.nc`). */
function topLevel(names: readonly string[]): string[] {
  return [...new Set(names.map((f) => f.split('/')[0]!))];
}

/** The nearest folder at or above `path` that exists (the one a new folder would be made in). */
function existingAncestor(path: string): string {
  let p = path;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return p;
}

/** Throws a CliError unless `dir` is a folder this process may create entries in. */
function checkWritableFolder(dir: string, what: string): void {
  if (!statSync(dir).isDirectory()) throw new CliError(`${what}: ${dir} is a file, not a folder`);
  try {
    accessSync(dir, constants.W_OK);
    // access() says yes to root and on some network file systems; a real probe is the proof.
    rmSync(mkdtempSync(join(dir, '.stochax-probe-')), { recursive: true, force: true });
  } catch (e) {
    throw new CliError(`${what}: cannot write in ${dir} (${oneLine(e)}); choose another --out`);
  }
}

/**
 * Checks the output folder of `stochax sample` before sampling: not an existing file, not an
 * existing run unless `force`, and writable (or creatable).
 *
 * @throws CliError naming the folder and what to do.
 */
export function checkRunFolder(out: string, force: boolean): void {
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw new CliError(`--out ${out} is an existing file; give a folder (the run writes ${RUN_FILES.join(', ')} into it)`);
    const held = RUN_FILES.filter((f) => existsSync(join(out, f)));
    if (held.length > 0 && !force) {
      throw new CliError(`--out ${out} already holds a run (${held.join(', ')}); pass --force to replace it, or choose another --out`);
    }
    checkWritableFolder(out, `--out ${out}`);
    return;
  }
  checkWritableFolder(existingAncestor(out), `--out ${out}`);
}

/**
 * Checks the output file of `stochax merge` before merging: not a folder, not one of the
 * `inputs` and not an existing file unless `force`, and in a writable (or creatable) folder.
 */
export function checkOutputFile(out: string, inputs: readonly string[], force: boolean): void {
  if (existsSync(out)) {
    if (statSync(out).isDirectory()) throw new CliError(`--out ${out} is a folder; give a file name (e.g. ${join(out, 'draws.json')})`);
    const real = realpathSync(out);
    const input = inputs.find((f) => existsSync(f) && realpathSync(f) === real);
    if (!force) {
      throw new CliError(input !== undefined
        ? `--out ${out} is one of the inputs; pass --force to replace it, or choose another --out`
        : `--out ${out} exists; pass --force to replace it, or choose another --out`);
    }
  }
  checkWritableFolder(existingAncestor(dirname(out)), `--out ${out}`);
}

/** Saves `files` (and `written`, copied from `from`) in a new folder under the system's temporary folder; returns it, or undefined if that fails too. */
function rescue(files: RunFiles, from?: string, written: readonly string[] = []): string | undefined {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'stochax-rescue-'));
    writeAll(dir, Object.keys(files), files);
    for (const name of written) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      copyFileSync(join(from!, name), join(dir, name));
    }
    return dir;
  } catch {
    return undefined;
  }
}

function failed(where: string, e: unknown, saved: string | undefined): CliError {
  return new CliError(`could not write ${where} (${oneLine(e)}); ${saved === undefined ? 'the draws could not be saved anywhere else either' : `the results were saved in ${saved} instead`}`);
}

/**
 * Writes a run's files into the folder `out` through a temporary folder: a new `out` appears
 * whole, by one rename; into an existing folder (`--force`) each file (or the `idata/` folder)
 * is renamed into place, draws.json last, and an `idata/` folder of the replaced run that this
 * run does not write is removed (its groups would no longer match draws.json).
 *
 * @throws CliError when writing fails; the message says where the results were saved instead.
 */
export function writeRunFolder(out: string, files: RunFiles): void {
  const exists = existsSync(out);
  let tmp: string | undefined;
  try {
    tmp = partialFolder(out, exists);
    writeAll(tmp, lastDrawsJson(Object.keys(files)), files);
    moveIntoPlace(out, tmp, exists, Object.keys(files));
  } catch (e) {
    throw writeFailure(out, files, tmp, e);
  }
}

/**
 * {@link writeRunFolder} in two steps, so that the large files can be written by another thread
 * while the rest is still being computed: `dir` is the run's temporary folder, made now, into
 * which that thread writes (e.g. with {@link writeFiles}); `finish(files, written)` writes `files`
 * there, then moves the folder into place as writeRunFolder does; `written` names the files
 * already in `dir` (those of `files` among them are not written again); `discard()` removes the folder of a run that failed before `finish`. The
 * files and the folder are the same as writeRunFolder's.
 *
 * @throws CliError (from `finish`) when writing fails; the message says where the results were saved instead.
 * @example
 * const folder = startRunFolder(out);
 * writeFiles(folder.dir!, { 'idata/posterior.nc': bytes });   // on any thread
 * // … the summary and the report …
 * folder.finish({ 'draws.json': json, 'report.html': html }, ['idata/posterior.nc']);
 */
export function startRunFolder(out: string): { readonly dir: string | undefined; finish(files: RunFiles, written?: readonly string[]): void; discard(): void } {
  const exists = existsSync(out);
  let tmp: string | undefined;
  let error: unknown;
  let finished = false;
  try {
    tmp = partialFolder(out, exists);
  } catch (e) {
    error = e;
  }
  return {
    dir: tmp,
    finish(given: RunFiles, written: readonly string[] = []): void {
      finished = true;
      const files = written.length === 0 ? given : Object.fromEntries(Object.entries(given).filter(([f]) => !written.includes(f)));
      try {
        if (error !== undefined) throw error;
        writeAll(tmp!, lastDrawsJson(Object.keys(files)), files);
        moveIntoPlace(out, tmp!, exists, [...Object.keys(files), ...written]);
      } catch (e) {
        throw writeFailure(out, files, tmp, e, written);
      }
    },
    /** Removes the temporary folder of a run that failed before `finish` (a no-op after it). */
    discard(): void {
      if (!finished && tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/**
 * Writes `files` into the folder `dir` (see {@link startRunFolder}) until one fails; returns the
 * names written. The rest are left to `finish`, which meets the same error and reports it.
 *
 * @example
 * writeFiles(dir, { 'idata/posterior.nc': bytes });   // ['idata/posterior.nc']
 */
export function writeFiles(dir: string, files: RunFiles): string[] {
  const written: string[] = [];
  try {
    for (const name of Object.keys(files)) {
      writeAll(dir, [name], files);
      written.push(name);
    }
  } catch { /* `finish` writes the rest and reports the error */ }
  return written;
}

/**
 * {@link writeFiles} on node's I/O threads: the calling thread goes on while the files are
 * written (opening, writing and closing a 20 MB netCDF file blocked the main thread 15–100 ms on
 * a busy disk). Resolves, never rejects, to the names written, in order, until one fails; the
 * caller awaits it before `finish` or `discard`, and hands `finish` the files not written.
 *
 * @example
 * const written = await writeFilesInBackground(dir, { 'idata/posterior.nc': bytes });   // ['idata/posterior.nc']
 */
export async function writeFilesInBackground(dir: string, files: RunFiles): Promise<string[]> {
  const written: string[] = [];
  try {
    for (const name of Object.keys(files)) {
      const path = join(dir, name);
      await mkdir(dirname(path), { recursive: true });
      await writeWhole(path, files[name]!);
      written.push(name);
    }
  } catch { /* `finish` writes the rest and reports the error */ }
  return written;
}

/** A file's bytes in as few I/O-thread writes as the system takes (`fs.promises.writeFile` makes one per 512 KiB: 80 round trips for a 40 MB file). */
async function writeWhole(path: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const file = await open(path, 'w');
  try {
    for (let at = 0; at < bytes.length;) at += (await file.write(bytes, at, bytes.length - at, at)).bytesWritten;
  } finally {
    await file.close();
  }
}

/** `names` with draws.json last: its presence marks a complete run. */
function lastDrawsJson(names: readonly string[]): string[] {
  return [...names].sort((a, b) => Number(a === 'draws.json') - Number(b === 'draws.json'));
}

/** A new hidden temporary folder for a run going to `out`: inside it when it `exists`, else beside it. */
function partialFolder(out: string, exists: boolean): string {
  if (!exists) mkdirSync(dirname(out), { recursive: true });
  // Hidden names, so a glob like `run/c*/draws.json` never picks up a partial run.
  return mkdtempSync(exists ? join(out, '.stochax-partial-') : join(dirname(out), `.${basename(out)}.partial-`));
}

/** Moves the complete temporary folder `tmp` into place as `out` (see {@link writeRunFolder}). */
function moveIntoPlace(out: string, tmp: string, exists: boolean, names: readonly string[]): void {
  if (!exists) {
    renameSync(tmp, out);
    return;
  }
  const entries = lastDrawsJson(topLevel(names));
  for (const name of entries) {
    if (name === 'idata') rmSync(join(out, name), { recursive: true, force: true });   // a folder is not replaced by rename
    renameSync(join(tmp, name), join(out, name));
  }
  if (!entries.includes('idata')) rmSync(join(out, 'idata'), { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
}

/** The error of a failed write: a complete temporary folder keeps the results where they are; otherwise they are saved afresh. */
function writeFailure(out: string, files: RunFiles, tmp: string | undefined, e: unknown, written: readonly string[] = []): CliError {
  const complete = tmp !== undefined && [...Object.keys(files), ...written].every((f) => existsSync(join(tmp, f)));
  if (complete) return failed(out, e, tmp);
  const saved = rescue(files, tmp, written);
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
  return failed(out, e, saved);
}

/**
 * Writes one file through a temporary file beside it and a rename, so the file is either the
 * old one or the new one, never half of either.
 *
 * @throws CliError when writing fails; the message says where the text was saved instead.
 */
export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  let tmp: string | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    tmp = join(dirname(path), `.${basename(path)}.partial-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    if (tmp !== undefined) rmSync(tmp, { force: true });
    throw failed(path, e, rescue({ [basename(path)]: text }));
  }
}
