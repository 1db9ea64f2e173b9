// Where the CLI writes (issue 18): existing results are replaced only with --force, an output
// that cannot be written is refused before any work, files appear whole (temporary name, then
// a rename), and when writing fails the results are saved elsewhere and the error says where.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../cli/errors.js';
import { checkOutputFile, checkRunFolder, startRunFolder, writeFileAtomic, writeFiles, writeFilesInBackground, writeRunFolder } from '../../cli/output.js';

const dir = join(tmpdir(), `stochax-output-test-${process.pid}`);
const files = { 'draws.csv': 'csv\n', 'draws.json': '{}\n', 'report.html': '<!DOCTYPE html>\n' };

beforeAll(() => mkdirSync(dir, { recursive: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CliError `f` throws (failing the test if it throws nothing or something else). */
function cliError(f: () => void): CliError {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(CliError); return e as CliError; }
  throw new Error('expected a CliError');
}

describe('checkRunFolder', () => {
  it('accepts a new folder (parents included) and an existing folder without a run', () => {
    expect(() => checkRunFolder(join(dir, 'new', 'deeper'), false)).not.toThrow();
    expect(existsSync(join(dir, 'new'))).toBe(false); // checking creates nothing
    mkdirSync(join(dir, 'empty'));
    expect(() => checkRunFolder(join(dir, 'empty'), false)).not.toThrow();
    expect(readdirSync(join(dir, 'empty'))).toEqual([]); // the write probe is gone
  });

  it('refuses an existing run without --force, and an existing file always', () => {
    mkdirSync(join(dir, 'run'));
    writeFileSync(join(dir, 'run', 'draws.json'), '{}');
    expect(cliError(() => checkRunFolder(join(dir, 'run'), false)).message).toMatch(/already holds a run \(draws\.json\); pass --force/);
    expect(() => checkRunFolder(join(dir, 'run'), true)).not.toThrow();
    writeFileSync(join(dir, 'a-file'), 'x');
    expect(cliError(() => checkRunFolder(join(dir, 'a-file'), true)).message).toMatch(/is an existing file; give a folder/);
    expect(cliError(() => checkRunFolder(join(dir, 'a-file', 'below'), false)).message).toMatch(/is a file, not a folder/);
  });
});

describe('checkOutputFile', () => {
  it('refuses an input or an existing file without --force, and a folder always', () => {
    const input = join(dir, 'in.json');
    writeFileSync(input, '{}');
    expect(cliError(() => checkOutputFile(input, [input], false)).message).toMatch(/is one of the inputs; pass --force/);
    expect(() => checkOutputFile(input, [input], true)).not.toThrow();
    expect(cliError(() => checkOutputFile(input, [], false)).message).toMatch(/exists; pass --force/);
    expect(cliError(() => checkOutputFile(dir, [], true)).message).toMatch(/is a folder; give a file name/);
    expect(() => checkOutputFile(join(dir, 'new-folder', 'merged.json'), [input], false)).not.toThrow();
  });
});

describe('writeRunFolder', () => {
  it('writes a new folder whole, and replaces the run files of an existing one, leaving nothing temporary', () => {
    const out = join(dir, 'w', 'run');
    writeRunFolder(out, files);
    expect(readdirSync(out).sort()).toEqual(['draws.csv', 'draws.json', 'report.html']);
    expect(readdirSync(join(dir, 'w'))).toEqual(['run']);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    writeRunFolder(out, { ...files, 'draws.json': '{"again": 1}\n' });
    expect(readFileSync(join(out, 'draws.json'), 'utf8')).toBe('{"again": 1}\n');
    expect(readdirSync(out).sort()).toEqual(['draws.csv', 'draws.json', 'notes.txt', 'report.html']);
  });

  it('when the output became a file after the check, saves the results elsewhere and says where', () => {
    const out = join(dir, 'taken');
    writeFileSync(out, 'x');
    const e = cliError(() => writeRunFolder(join(out), files));
    const saved = /saved in (.+) instead/.exec(e.message)?.[1];
    expect(e.message).toMatch(/^could not write .*taken/);
    expect(saved).toBeDefined();
    expect(readFileSync(join(saved!, 'draws.json'), 'utf8')).toBe('{}\n');
    rmSync(saved!, { recursive: true, force: true });
  });

  it('when the folder cannot be made at all, saves the results under the temporary folder', () => {
    writeFileSync(join(dir, 'blocker'), 'x');
    const e = cliError(() => writeRunFolder(join(dir, 'blocker', 'run'), files));
    const saved = /saved in (.+) instead/.exec(e.message)?.[1];
    expect(saved?.startsWith(join(tmpdir(), 'stochax-rescue-'))).toBe(true);
    expect(readdirSync(saved!).sort()).toEqual(['draws.csv', 'draws.json', 'report.html']);
    rmSync(saved!, { recursive: true, force: true });
  });
});

describe('startRunFolder (the netCDF files written by the outputs worker while the report is computed)', () => {
  const nc = { 'idata/posterior.nc': Uint8Array.from({ length: 3_000_000 }, (_, i) => (i * 7) & 255), 'idata/log_likelihood.nc': Uint8Array.of(1, 2, 3) };
  const run = { ...files, ...nc };
  /** Every file under `d` (relative path → bytes), hidden ones included. */
  const tree = (d: string): Record<string, string> => Object.fromEntries(readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile()).map((e) => { const p = join(e.parentPath, e.name); return [p.slice(d.length + 1), readFileSync(p).toString('base64')]; }));
  /** `next` through startRunFolder: its idata/ files written first by writeFiles, the rest by finish. */
  const twoSteps = (out: string, next: Record<string, string | Uint8Array>) => {
    const folder = startRunFolder(out);
    const early = Object.fromEntries(Object.entries(next).filter(([f]) => f.startsWith('idata/')));
    const written = writeFiles(folder.dir!, early);
    expect(written).toEqual(Object.keys(early));
    folder.finish(Object.fromEntries(Object.entries(next).filter(([f]) => !written.includes(f))), written);
  };

  it('leaves the same folder as writeRunFolder: new, then replacing a run (with and without idata/), nothing temporary left', () => {
    const a = join(dir, 's', 'one'), b = join(dir, 's', 'two');
    writeRunFolder(a, run);
    twoSteps(b, run);
    expect(tree(b)).toEqual(tree(a));
    expect(readdirSync(join(dir, 's')).sort()).toEqual(['one', 'two']);
    for (const next of [{ ...files, 'draws.json': '{"again": 1}\n' }, { ...run, 'report.html': 'again' }]) {
      writeRunFolder(a, next);
      twoSteps(b, next);
      expect(tree(b)).toEqual(tree(a));
    }
    expect(readdirSync(b).sort()).toEqual(['draws.csv', 'draws.json', 'idata', 'report.html']);
  });

  it('finish leaves the files named in `written` as they were written, even when given again', () => {
    const out = join(dir, 's', 'given-again');
    const folder = startRunFolder(out);
    expect(writeFiles(folder.dir!, { 'draws.json': '{"early": 1}\n' })).toEqual(['draws.json']);
    folder.finish({ ...files, 'draws.json': '{"late": 1}\n' }, ['draws.json']);
    expect(readFileSync(join(out, 'draws.json'), 'utf8')).toBe('{"early": 1}\n');
    expect(readdirSync(out).sort()).toEqual(Object.keys(files).sort());
  });

  it('writeFilesInBackground leaves the same folder as writeFiles, and stops at the first failure without rejecting', async () => {
    const a = join(dir, 'bg', 'one'), b = join(dir, 'bg', 'two');
    writeRunFolder(a, run);
    const folder = startRunFolder(b);
    const early = Object.fromEntries(Object.entries(run).filter(([f]) => f.startsWith('idata/')));
    const written = await writeFilesInBackground(folder.dir!, early);
    expect(written).toEqual(Object.keys(early));
    folder.finish(Object.fromEntries(Object.entries(run).filter(([f]) => !written.includes(f))), written);
    expect(tree(b)).toEqual(tree(a));
    const failing = startRunFolder(join(dir, 'bg', 'three'));
    writeFileSync(join(failing.dir!, 'idata'), 'x');   // a file where the idata/ folder must go
    expect(await writeFilesInBackground(failing.dir!, { 'first.txt': 'a', 'idata/posterior.nc': nc['idata/log_likelihood.nc'], 'last.txt': 'b' })).toEqual(['first.txt']);
    failing.discard();
  });

  it('when finishing fails half-way, saves every file elsewhere (those written early copied from the temporary folder) and says where', () => {
    const out = join(dir, 'taken-two-steps');
    const folder = startRunFolder(out);
    const written = writeFiles(folder.dir!, nc);
    writeFileSync(join(folder.dir!, 'sub'), 'x');   // a file where finish needs a folder: its write fails, the folder is incomplete
    let e: unknown;
    try { folder.finish({ ...files, 'sub/extra.txt': 'extra' }, written); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(CliError);
    const saved = /saved in (.+) instead/.exec((e as CliError).message)?.[1];
    expect(saved).toBeDefined();
    expect(saved!.includes('stochax-rescue-')).toBe(true);
    expect(readFileSync(join(saved!, 'idata', 'log_likelihood.nc'))).toEqual(Buffer.from([1, 2, 3]));
    expect(readFileSync(join(saved!, 'idata', 'posterior.nc')).equals(nc['idata/posterior.nc'])).toBe(true);   // (toEqual on 3 MB takes seconds)
    expect(readFileSync(join(saved!, 'sub', 'extra.txt'), 'utf8')).toBe('extra');
    expect(existsSync(folder.dir!)).toBe(false);
    rmSync(saved!, { recursive: true, force: true });
  });

  it('discard removes the temporary folder of a run that failed before finishing, and nothing after finish', () => {
    const parent = join(dir, 'discard');
    mkdirSync(parent);
    const folder = startRunFolder(join(parent, 'run'));
    writeFiles(folder.dir!, nc);
    folder.discard();
    expect(readdirSync(parent)).toEqual([]);
    const kept = startRunFolder(join(parent, 'run'));
    kept.finish(files);
    kept.discard();
    expect(readdirSync(join(parent, 'run')).sort()).toEqual(['draws.csv', 'draws.json', 'report.html']);
  });
});

describe('writeFileAtomic', () => {
  it('replaces a file through a temporary one, and rescues the text when the folder is unusable', () => {
    const path = join(dir, 'atomic', 'merged.json');
    writeFileAtomic(path, 'one');
    writeFileAtomic(path, 'two');
    expect(readFileSync(path, 'utf8')).toBe('two');
    expect(readdirSync(join(dir, 'atomic'))).toEqual(['merged.json']);
    writeFileSync(join(dir, 'plain'), 'x');
    const e = cliError(() => writeFileAtomic(join(dir, 'plain', 'merged.json'), 'three'));
    const saved = /saved in (.+) instead/.exec(e.message)?.[1];
    expect(readFileSync(join(saved!, 'merged.json'), 'utf8')).toBe('three');
    rmSync(saved!, { recursive: true, force: true });
  });
});
