// Scale-out (issue 8): `stochax sample <setup module> --chains 4 --chain-index i` for i = 0..3 as
// four real processes (`node --import tsx cli/main.ts …`, as a Slurm job array or a Kubernetes
// Indexed Job would run them), then `stochax merge`, equals the single `--chains 4` run's
// draws.json byte for byte.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAUSS_MODULE } from './gauss-module.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repo so the model's relative imports reach the library; .js so tsc skips it.
const dir = join(repo, 'test', 'cli', `.tmp-scale-out-${process.pid}`);

interface Ran { code: number; out: string; err: string }

/** The CLI as a real process. */
async function spawnCli(...argv: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repo, 'cli', 'main.ts'), ...argv], { cwd: dir });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gauss.js'), GAUSS_MODULE);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stochax scale-out: one chain per process', () => {
  it('4 processes with --chain-index 0..3, merged, equal the --chains 4 run byte for byte', async () => {
    const base = ['sample', 'gauss.js', '--chains', '4', '--draws', '40', '--warmup', '10', '--seed', '21'];
    const runs = await Promise.all([
      ...[0, 1, 2, 3].map((i) => spawnCli(...base, '--chain-index', String(i), '--out', `c${i}`)),
      spawnCli(...base, '--out', 'all'),
    ]);
    for (const r of runs) expect(r, r.err).toMatchObject({ code: 0 });
    for (const i of [0, 1, 2, 3]) expect(runs[i]!.err).toContain(`chain ${i} of 4`);

    const m = await spawnCli('merge', 'c3/draws.json', 'c1/draws.json', 'c0/draws.json', 'c2/draws.json', '--out', 'merged.json');
    expect(m, m.err).toMatchObject({ code: 0 });
    expect(m.out).toContain('4 chains from 4 files');
    const merged = readFileSync(join(dir, 'merged.json'), 'utf8');
    expect(merged).toBe(readFileSync(join(dir, 'all', 'draws.json'), 'utf8'));
    expect(JSON.parse(merged)).toBeTypeOf('object');
  }, 120_000);
});
