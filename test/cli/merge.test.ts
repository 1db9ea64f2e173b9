// `stochax merge` refuses what would silently corrupt a result (issue 18): the same file or the
// same chain twice, files sampled with different settings (unless --force, which records each
// file's setting), and an --out that is an input or an existing file (unless --force).
// The draws files are made with toArvizJson directly, so no sampling is needed.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-support.js';
import { fromArvizJson, toArvizJson, type RunSettings } from '../../cli/report/index.js';
import { Tensor } from '../../src/tensor/tensor.js';

const dir = join(tmpdir(), `stochax-merge-test-${process.pid}`);

/** A draws.json of `chains` chains × 4 draws whose values start at `base` (distinct bases, distinct chains). */
function drawsFile(name: string, base: number, settings: RunSettings, chains = 1): void {
  const values = Float64Array.from({ length: 4 * chains }, (_, i) => base + i);
  const draws = { mu: new Tensor(values, [4, chains], 'float64') };
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), toArvizJson(draws, undefined, { settings }));
}

const cli = (...argv: string[]) => runCli(dir, ...argv);

const run0 = { seed: 3, chains: 2, draws: 4, warmup: 10, model: 'm.js', sampler: 'setup' };

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  drawsFile('c0.json', 0, { ...run0, chain_index: 0 });
  drawsFile('c1.json', 100, { ...run0, chain_index: 1 });
  drawsFile('c1-warm.json', 200, { ...run0, warmup: 20, chain_index: 1 });
  drawsFile('c1-seed.json', 300, { ...run0, seed: 4, chain_index: 1 });
  drawsFile('copy/c0.json', 0, { ...run0, chain_index: 0 });
  drawsFile('whole-a.json', 400, { ...run0, seed: 1 }, 2);
  drawsFile('whole-b.json', 500, { ...run0, seed: 2 }, 2);
  drawsFile('whole-same-as-a.json', 400, { ...run0, seed: 1 }, 2);
  drawsFile('old-format.json', 600, { seed: 9, chains: 1, draws: 4, warmup: 10, model: 'm.js' });
  symlinkSync(join(dir, 'c0.json'), join(dir, 'link-to-c0.json'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectError(r: { code: number; err: string }, pattern: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/^stochax merge: /);
  expect(r.err).toMatch(pattern);
}

describe('stochax merge refuses duplicates', () => {
  it('the same file twice, by name or through a link', async () => {
    expectError(await cli('merge', 'c0.json', 'c0.json', '--out', 'm1.json'), /c0\.json is given twice: the same chains twice would inflate ESS/);
    expectError(await cli('merge', 'c0.json', 'link-to-c0.json', '--force', '--out', 'm1.json'), /c0\.json and link-to-c0\.json are the same file/);
  });

  it('the same chain in two files, even under another name or with --force', async () => {
    expectError(await cli('merge', 'c0.json', 'copy/c0.json', '--out', 'm2.json'), /same chain/);
    expectError(await cli('merge', 'whole-a.json', 'whole-same-as-a.json', '--force', '--out', 'm2.json'), /whole-same-as-a\.json chain 0 has exactly the draws of whole-a\.json chain 0/);
  });
});

describe('stochax merge and settings', () => {
  it('refuses chains sampled with different settings; --force merges them and records each file\'s', async () => {
    expectError(await cli('merge', 'c0.json', 'c1-warm.json', '--out', 'm3.json'), /c1-warm\.json was sampled with warmup 20, c0\.json with warmup 10.*--force/);
    expectError(await cli('merge', 'c0.json', 'c1-seed.json', '--out', 'm3.json'), /sampled with seed 4, c0\.json with seed 3/);
    const forced = await cli('merge', 'c0.json', 'c1-warm.json', '--force', '--out', 'm3.json');
    expect(forced.code, forced.err).toBe(0);
    expect(fromArvizJson(readFileSync(join(dir, 'm3.json'), 'utf8')).settings).toMatchObject({ warmup: '10,20', seed: 3, chains: 2 });
  });

  it('merges whole runs with different seeds, recording each seed', async () => {
    const r = await cli('merge', 'whole-a.json', 'whole-b.json', '--out', 'm4.json');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('4 chains from 2 files');
    expect(fromArvizJson(readFileSync(join(dir, 'm4.json'), 'utf8')).settings).toMatchObject({ seed: '1,2', chains: 4, warmup: 10 });
  });

  it('reads files of the earlier format (no sampler recorded)', async () => {
    const r = await cli('merge', 'whole-a.json', 'old-format.json', '--out', 'm5.json');
    expect(r.code, r.err).toBe(0);
    expect(fromArvizJson(readFileSync(join(dir, 'm5.json'), 'utf8')).settings).toMatchObject({ sampler: 'setup', chains: 3 });
  });
});

describe('stochax merge --out', () => {
  it('refuses to replace an input or an existing file without --force; with it, writes whole', async () => {
    drawsFile('in-a.json', 700, { ...run0, seed: 5 });
    drawsFile('in-b.json', 800, { ...run0, seed: 6 });
    const before = readFileSync(join(dir, 'in-a.json'), 'utf8');
    expectError(await cli('merge', 'in-a.json', 'in-b.json', '--out', 'in-a.json'), /--out .*in-a\.json is one of the inputs; pass --force/);
    expect(readFileSync(join(dir, 'in-a.json'), 'utf8')).toBe(before);
    expectError(await cli('merge', 'in-a.json', 'in-b.json', '--out', 'm4.json'), /m4\.json exists; pass --force/);
    const r = await cli('merge', 'in-a.json', 'in-b.json', '--out', 'in-a.json', '--force');
    expect(r.code, r.err).toBe(0);
    expect(fromArvizJson(readFileSync(join(dir, 'in-a.json'), 'utf8')).draws.mu!.shape).toEqual([4, 2]);
  });

  it('refuses a folder as --out before reading the inputs', async () => {
    mkdirSync(join(dir, 'a-folder'));
    expectError(await cli('merge', 'whole-a.json', 'missing.json', '--out', 'a-folder'), /a-folder is a folder; give a file name/);
  });
});
