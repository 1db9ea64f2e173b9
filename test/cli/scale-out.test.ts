// Scale-out (issue 8): `stochax sample <setup module> --chains 4 --chain-index i` for i = 0..3 as
// four real processes (`node --import tsx cli/main.ts …`, as a Slurm job array or a Kubernetes
// Indexed Job would run them), then `stochax merge`, equals the single `--chains 4` run's
// draws.json byte for byte.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAUSS_MODULE, spawnCli } from './cli-support.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repo so the model's relative imports reach the library; .js so tsc skips it.
const dir = join(repo, 'test', 'cli', `.tmp-scale-out-${process.pid}`);

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gauss.js'), GAUSS_MODULE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax scale-out: one chain per process', () => {
  it('4 processes with --chain-index 0..3, merged, equal the --chains 4 run byte for byte', async () => {
    const base = ['sample', 'gauss.js', '--chains', '4', '--draws', '40', '--warmup', '10', '--seed', '21'];
    const runs = await Promise.all([
      ...[0, 1, 2, 3].map((i) => spawnCli(dir, ...base, '--chain-index', String(i), '--out', `c${i}`)),
      spawnCli(dir, ...base, '--out', 'all'),
    ]);
    for (const r of runs) expect(r, r.err).toMatchObject({ code: 0 });
    for (const i of [0, 1, 2, 3]) expect(runs[i]!.err).toContain(`chain ${i} of 4`);

    const m = await spawnCli(dir, 'merge', 'c3/draws.json', 'c1/draws.json', 'c0/draws.json', 'c2/draws.json', '--out', 'merged.json');
    expect(m, m.err).toMatchObject({ code: 0 });
    expect(m.out).toContain('4 chains from 4 files');
    const merged = readFileSync(join(dir, 'merged.json'), 'utf8');
    expect(merged).toBe(readFileSync(join(dir, 'all', 'draws.json'), 'utf8'));
    expect(JSON.parse(merged)).toBeTypeOf('object');
  }, 120_000);
});
