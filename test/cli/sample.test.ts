// `stochax sample` does not lose or corrupt a run (issue 18): an existing run is replaced only
// with --force; an --out that cannot be written, and a run too large to write, are refused
// before sampling; if writing fails after sampling, the draws are saved elsewhere and the error
// says where; a model module that exits or exports both `setup` and `model` is an error.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromArvizJson } from '../../cli/report/index.js';
import { GAUSS_MODULE, runCli } from './cli-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repo so the models' relative imports reach the library; .js so tsc skips them.
const dir = join(repo, 'test', 'cli', `.tmp-sample-${process.pid}`);

const MODELS: Record<string, string> = {
  'gauss.js': GAUSS_MODULE,
  'exits.js': `export function setup() { process.exit(0); }\n`,
  'exits-on-import.js': `process.exit(0);\nexport function setup() {}\n`,
  'both.js': `${GAUSS_MODULE}\nexport const model = {};\n`,
  // After the output check passed, something else takes the output's place.
  'race.js': `import { writeFileSync } from 'node:fs';
${GAUSS_MODULE.replace('export function setup({ seed }) {', "export function setup({ seed }) {\n  writeFileSync(new URL('./race-out', import.meta.url), 'taken');")}`,
  'wide.js': `import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
import { zeros } from '../../../src/index.js';
export const model = new JointDistributionNamed({ x: new Normal({ loc: zeros([1000000]), scale: 1 }) });
`,
  'groups.js': `import { JointDistributionNamed, Normal, Sample } from '../../../distributions/index.js';
export const model = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 50 }) });
`,
};

const cli = (...argv: string[]) => runCli(dir, ...argv);

/** A one-line error, given before any sampling started. */
function expectEarlyError(r: { code: number; err: string }, pattern: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.err).not.toMatch(/sampleChains|windowedAdaptiveNuts:|sampled in/);
  expect(r.err).toMatch(/^stochax sample: /);
  expect(r.err).toMatch(pattern);
}

const quick = ['--chains', '2', '--draws', '10', '--warmup', '5', '--workers', '0'];

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(MODELS)) writeFileSync(join(dir, name), text);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax sample --out', () => {
  it('refuses to overwrite a run without --force; with it, replaces the run and keeps other files', async () => {
    const first = await cli('sample', 'gauss.js', ...quick, '--seed', '1', '--out', 'run');
    expect(first.code, first.err).toBe(0);
    expect(first.err).toMatch(/sampled in [\d.]+ s\n[^]*outputs \(predictive draws, summary, files\) in [\d.]+ s\n/);
    expect(readdirSync(dir).filter((f) => f.startsWith('run'))).toEqual(['run']); // no temporary folder left
    const before = readFileSync(join(dir, 'run', 'draws.json'), 'utf8');
    expectEarlyError(await cli('sample', 'gauss.js', ...quick, '--seed', '2', '--out', 'run'), /--out .*run already holds a run \(draws\.csv, draws\.json, report\.html\); pass --force/);
    expect(readFileSync(join(dir, 'run', 'draws.json'), 'utf8')).toBe(before);
    writeFileSync(join(dir, 'run', 'notes.txt'), 'mine');
    const forced = await cli('sample', 'gauss.js', ...quick, '--seed', '2', '--out', 'run', '--force');
    expect(forced.code, forced.err).toBe(0);
    expect(fromArvizJson(readFileSync(join(dir, 'run', 'draws.json'), 'utf8')).settings.seed).toBe(2);
    expect(readdirSync(join(dir, 'run')).sort()).toEqual(['draws.csv', 'draws.json', 'notes.txt', 'report.html']);
  }, 60_000);

  it('refuses an --out that is a file, or lies below one, before sampling', async () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    expectEarlyError(await cli('sample', 'gauss.js', ...quick, '--out', 'a-file'), /--out .*a-file is an existing file; give a folder/);
    expectEarlyError(await cli('sample', 'gauss.js', ...quick, '--out', 'a-file/run'), /a-file is a file, not a folder/);
  });

  it('when writing fails after sampling, saves the draws elsewhere and says where', async () => {
    const r = await cli('sample', 'race.js', ...quick, '--out', 'race-out');
    expect(r.code).toBe(1);
    expect(r.err).toContain('sampled in');
    const saved = /could not write .*race-out .*saved in (\S+) instead/.exec(r.err)?.[1];
    expect(saved, r.err).toBeDefined();
    expect(fromArvizJson(readFileSync(join(saved!, 'draws.json'), 'utf8')).draws.x!.shape).toEqual([10, 2, 2]);
    expect(existsSync(join(saved!, 'draws.csv'))).toBe(true);
    rmSync(saved!, { recursive: true, force: true });
  }, 60_000);
});

describe('stochax sample sizes', () => {
  it('refuses runs too large to write before loading the model', async () => {
    expectEarlyError(await cli('sample', 'no-such-model.js', '--chains', '99999999'), /99999999 chains × 1000 draws × \(at least 1 parameter \+ 10 statistics\) = \d+ values.*more than one run can write/);
    expectEarlyError(await cli('sample', 'no-such-model.js', '--draws', '1000000000000'), /4 chains × 1000000000000 draws/);
    // One chain of many is one chain's worth of draws.
    expectEarlyError(await cli('sample', 'no-such-model.js', '--chains', '99999999', '--chain-index', '0'), /model file not found/);
  });

  it('counts a joint model\'s parameters before sampling', async () => {
    expectEarlyError(await cli('sample', 'wide.js', '--chains', '4', '--draws', '100'), /4 chains × 100 draws × \(1000000 parameters \+ 10 statistics\)/);
  });
});

describe('stochax sample report size', () => {
  const titles = (html: string) => [...html.matchAll(/<title>Trace plot of ([^<]*)<\/title>/g)].map((m) => m[1]);

  it('report.html plots the first 40 parameters (ArviZ\'s plot.max_subplots) with a note; --max-subplots changes it; the table and files keep all', async () => {
    const r = await cli('sample', 'groups.js', ...quick, '--out', 'groups');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('note: report.html plots the first 40 of 51 parameters (--max-subplots N plots more; --var-names chooses the variables)');
    expect(r.out).toContain('z[49]');
    const html = readFileSync(join(dir, 'groups', 'report.html'), 'utf8');
    expect(titles(html)).toEqual(['mu', ...Array.from({ length: 39 }, (_, j) => `z[${j}]`)]);
    expect(html).toContain('Plots of the first 40 of 51 parameters');
    expect(Object.keys(fromArvizJson(readFileSync(join(dir, 'groups', 'draws.json'), 'utf8')).draws)).toEqual(['mu', 'z']);
    const all = await cli('sample', 'groups.js', ...quick, '--max-subplots', '51', '--out', 'groups-all');
    expect(all.err).not.toContain('report.html plots the first');
    expect(titles(readFileSync(join(dir, 'groups-all', 'report.html'), 'utf8'))).toHaveLength(51);
    expectEarlyError(await cli('sample', 'groups.js', ...quick, '--max-subplots', '0'), /--max-subplots/);
  }, 60_000);
});

describe('stochax sample model modules', () => {
  it('a setup that calls process.exit is an error exit with a message', async () => {
    const exit = process.exit;
    const r = await cli('sample', 'exits.js', ...quick, '--out', 'exits');
    expect(process.exit).toBe(exit); // put back after the run
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/exits\.js called process\.exit\(0\) while sampling/);
    expect(existsSync(join(dir, 'exits'))).toBe(false);
    const onImport = await cli('sample', 'exits-on-import.js', ...quick, '--out', 'exits');
    expect(onImport.code).toBe(1);
    expect(onImport.err).toMatch(/called process\.exit\(0\)/);
  });

  it('a setup on worker threads that exits is an error too', async () => {
    const r = await cli('sample', 'exits.js', '--chains', '2', '--draws', '10', '--warmup', '5', '--workers', '1', '--out', 'exits');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^stochax sample: .*exit/m);
  }, 60_000);

  it('a module exporting both setup and model is an error', async () => {
    expectEarlyError(await cli('sample', 'both.js', ...quick), /both\.js exports both `setup` and `model`: export one/);
  });
});
