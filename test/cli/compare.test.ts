// stochax compare: az.compare of two runs' draws.json files against ArviZ's own numbers
// (test/fixtures/compare/compare.json from compare.py: the coords fixture's group model and a
// pooled model of the same three observations, 2 chains × 300 draws each, made again here by
// test/fixtures/compare/make.ts, the same bytes as ArviZ read: runs.json's sha256): LOO with
// stacking and pseudo-BMA weights and WAIC, every column. Stacking weights to 1e-5 (ArviZ stops SciPy's SLSQP
// at its default tolerance; see `compare`), the rest to 1e-9 relative. Then the command's table,
// names, warnings and errors.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns } from '../../cli/compare.js';
import { fromArvizJson } from '../../cli/report/index.js';
import { loo } from '../../mcmc/diagnostics/loo.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { runCli } from './cli-support.js';
import { FLAGS, makeRuns, sha256 } from '../fixtures/compare/make.js';
import arviz from '../fixtures/compare/compare.json' with { type: 'json' };
import recorded from '../fixtures/compare/runs.json' with { type: 'json' };

const repo = new URL('../../', import.meta.url).pathname;
const runs = mkdtempSync(join(tmpdir(), 'stochax-compare-'));
let files: string[] = [];
beforeAll(async () => { files = await makeRuns(runs); }, 60_000);
afterAll(() => rmSync(runs, { recursive: true, force: true }));
const close = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

describe('compareRuns: ArviZ\'s az.compare of the two files', () => {
  it('the runs are the bytes ArviZ read', () => {
    expect(files.map(sha256)).toEqual([recorded.Groups, recorded.Pooled]);
  });

  for (const [key, ic, method] of [['loo', 'loo', 'stacking'], ['loo_bma', 'loo', 'pseudo-BMA'], ['waic', 'waic', 'stacking']] as const) {
    it(`${ic}, ${method} weights: every column`, () => {
      const table = compareRuns(files, repo, { names: ['Groups', 'Pooled'], ic, method });
      const want = arviz[key];
      expect(table.rows.map((r) => r.name)).toEqual(want.map((w) => w.name));
      table.rows.forEach((r, i) => {
        const w = want[i]! as Record<string, number | string | boolean>;
        expect(r.rank).toBe(w.rank);
        expect(close(r.elpd, w[`elpd_${ic}`] as number, 1e-9), `${r.name} elpd ${r.elpd} vs ${String(w[`elpd_${ic}`])}`).toBe(true);
        expect(close(r.p, w[`p_${ic}`] as number, 1e-9), `${r.name} p`).toBe(true);
        expect(close(r.elpdDiff, w.elpd_diff as number, 1e-9), `${r.name} elpd_diff`).toBe(true);
        expect(close(r.se, w.se as number, 1e-9), `${r.name} se`).toBe(true);
        expect(close(r.dse, w.dse as number, 1e-9), `${r.name} dse`).toBe(true);
        expect(Math.abs(r.weight - (w.weight as number))).toBeLessThan(method === 'stacking' ? 1e-5 : 1e-9);
        expect(r.warning).toBe(w.warning);
      });
    });
  }
});

describe('stochax compare', () => {
  const dir = join(repo, 'test', 'cli', `.tmp-compare-${process.pid}`);
  beforeAll(() => {
    mkdirSync(dir, { recursive: true });
    const j = JSON.parse(readFileSync(files[1]!, 'utf8')) as Record<string, unknown>;
    delete j.log_likelihood;
    writeFileSync(join(dir, 'no-ll.json'), JSON.stringify(j));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints az.compare\'s table (models named by their model files, else folders), and the Pareto k warning on stderr', async () => {
    const r = await runCli(repo, 'compare', ...files);
    expect(r.code, r.err).toBe(0);
    const [head, first, second] = r.out.trim().split('\n');
    expect(head!.trim().split(/\s+/)).toEqual(['rank', 'elpd_loo', 'p_loo', 'elpd_diff', 'weight', 'se', 'dse', 'warning', 'scale']);
    expect(first).toMatch(new RegExp(`^model\\.ts\\s+0\\s+${arviz.loo[0]!.elpd_loo.toFixed(2)}\\s+${arviz.loo[0]!.p_loo.toFixed(2)}`));
    expect(second).toMatch(new RegExp(`^pooled\\.ts\\s+1\\s+${arviz.loo[1]!.elpd_loo.toFixed(2)}`));
    expect(r.err).toMatch(/^warning: model\.ts, pooled\.ts: Pareto k above 0\.7/m);
    // two runs of one model file: their folders name them
    mkdirSync(join(dir, 'Again'), { recursive: true });
    writeFileSync(join(dir, 'Again', 'draws.json'), readFileSync(files[0]!));
    const twice = await runCli(repo, 'compare', files[0]!, join(dir, 'Again', 'draws.json'));
    expect(twice.out.split('\n').slice(1, 3).map((l) => l.split(/\s+/)[0]).sort()).toEqual(['Again', 'Groups']);
    const named = await runCli(repo, 'compare', ...files, '--names', 'G,P', '--ic', 'waic', '--method', 'pseudo-BMA');
    expect(named.out).toMatch(/elpd_waic/);
    expect(named.out).toMatch(new RegExp(`^P\\s+1\\s+${arviz.waic[1]!.elpd_waic.toFixed(2)}`, 'm'));
  });

  it('an approximate run (laplace): LOO of the approximate posterior, from its log_p and log_q', async () => {
    const r = await runCli(join(repo, 'test/fixtures/compare'), 'laplace', 'pooled.ts', '--draws', '400', '--seed', '2', '--out', join(dir, 'laplace'));
    expect(r.code, r.err).toBe(0);
    const path = join(dir, 'laplace', 'draws.json');
    const row = compareRuns([files[1]!, path], repo, { names: ['nuts', 'laplace'] }).rows.find((x) => x.name === 'laplace')!;
    const { trace, groups } = fromArvizJson(readFileSync(path, 'utf8'));
    const t = trace as Record<string, Tensor>;
    expect(row.elpd).toBe(loo(groups.logLikelihood!.y!, { logP: t.logP!, logQ: t.logQ! }).elpdLoo);
    expect(row.elpd).not.toBe(loo(groups.logLikelihood!.y!).elpdLoo);
  }, 30_000);

  it('a run written as netCDF: its log-likelihood read from idata/log_likelihood.nc, and nothing else there', async () => {
    const r = await runCli(join(repo, 'test/fixtures/compare'), 'sample', 'pooled.ts', ...FLAGS, '--draws-format', 'netcdf', '--out', join(dir, 'nc'));
    expect(r.code, r.err).toBe(0);
    const path = join(dir, 'nc', 'draws.json');
    expect(fromArvizJson(readFileSync(path, 'utf8')).groups.logLikelihood).toBeUndefined();   // only in the .nc file
    const fromJson = compareRuns(files, repo, { names: ['Groups', 'Pooled'] });
    expect(compareRuns([files[0]!, path], repo, { names: ['Groups', 'Pooled'] }).rows).toEqual(fromJson.rows);
    // the predictive groups are not read: a broken posterior_predictive.nc does not matter
    writeFileSync(join(dir, 'nc', 'idata', 'posterior_predictive.nc'), 'not netCDF');
    expect(compareRuns([files[0]!, path], repo, { names: ['Groups', 'Pooled'] }).rows).toEqual(fromJson.rows);
  }, 30_000);

  it('errors are one line: too few files, bad flags, a run without a log-likelihood, repeated names', async () => {
    const err = async (args: string[], pattern: RegExp) => {
      const r = await runCli(repo, 'compare', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(pattern);
    };
    await err([files[0]!], /at least two runs/);
    await err([...files, '--ic', 'aic'], /--ic must be loo or waic; got 'aic'/);
    await err([...files, '--method', 'bb'], /--method must be stacking or pseudo-BMA/);
    await err([...files, '--names', 'a'], /--names gives 1 names for 2 files/);
    await err([...files, '--names', 'a,a'], /names must differ/);
    await err([files[0]!, join(dir, 'no-ll.json')], /no-ll\.json has no log_likelihood group/);
    await err([...files, '--var-name', 'z'], /has no log-likelihood of `z`/);
  });
});
