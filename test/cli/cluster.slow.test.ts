// examples/cluster/: the Slurm job-array script and the Kubernetes Indexed Job run `stochax sample`
// without --chain-index and take the chain index from SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX.
// Their command lines, read from the files and run here in-process with those variables set (and
// the output folder moved to a temporary one), merged, equal the single `--chains 4` run byte for
// byte.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../../cli/main.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'stochax-cluster-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The `stochax …` command of a scheduler file, as argv, with `$VAR`/`${VAR}` from `env` and /runs or runs/ moved under the temporary folder. */
function commandOf(file: string, verb: 'sample' | 'merge', env: Record<string, string>): string[] {
  const text = readFileSync(join(repo, 'examples', 'cluster', file), 'utf8');
  const m = new RegExp(`npx stochax (${verb} [^\\n]+)`).exec(text);
  if (m === null) throw new Error(`${file}: no \`npx stochax ${verb}\` command`);
  return m[1]!.replace(/"\].*$/, '').replace(/["']/g, '').replace(/\$\{?(\w+)\}?/g, (_, v: string) => env[v] ?? `$${v}`).replace(/(^|\s)\/?runs\//g, `$1${tmp}/`).trim().split(/\s+/);
}

async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; err: string }> {
  let err = '';
  const io: CliIo = { stdout: () => {}, stderr: (t) => { err += t; }, isTTY: false, cwd: repo, env };
  return { code: await run(argv, io), err };
}

describe('examples/cluster: one chain per scheduler task, merged', () => {
  for (const [file, variable] of [['slurm-array.sh', 'SLURM_ARRAY_TASK_ID'], ['k8s-indexed-job.yaml', 'JOB_COMPLETION_INDEX']] as const) {
    it(`${file}: tasks 0–3 via ${variable}, merged, equal the --chains 4 run`, async () => {
      // A fresh job: both scheduler files write to runs/eight-schools, and the CLI refuses to overwrite a run.
      rmSync(join(tmp, 'eight-schools'), { recursive: true, force: true });
      for (const i of [3, 1, 0, 2]) {
        const argv = commandOf(file, 'sample', { [variable]: String(i) });
        const r = await cli(argv, { [variable]: String(i) });
        expect(r.code, r.err).toBe(0);
        expect(r.err).toContain(`chain index ${i} from ${variable}`);
        expect(r.err).toContain(`chain ${i} of 4`);
      }
      const merge = commandOf(file, 'merge', {});
      const files = [0, 1, 2, 3].map((i) => join(tmp, 'eight-schools', `c${i}`, 'draws.json'));
      const m = await cli(['merge', ...files, ...merge.slice(merge.indexOf('--out'))]);
      expect(m.code, m.err).toBe(0);
      const all = commandOf(file, 'sample', {}).map((a) => (a.includes('$') ? join(tmp, `all-${variable}`) : a));
      expect((await cli(all)).code).toBe(0);
      expect(readFileSync(join(tmp, 'eight-schools', 'draws.json'), 'utf8')).toBe(readFileSync(join(tmp, `all-${variable}`, 'draws.json'), 'utf8'));
    }, 120_000);
  }

  it('a scheduler index that is not an integer is an error; --chain-index wins over the variable', async () => {
    const r = await cli(['sample', 'examples/eight-schools.ts', '--chains', '2', '--out', join(tmp, 'bad')], { SLURM_ARRAY_TASK_ID: '1-3' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SLURM_ARRAY_TASK_ID must be a non-negative integer.*'1-3'/);
    const ok = await cli(['sample', 'examples/eight-schools.ts', '--chains', '2', '--draws', '20', '--warmup', '20', '--chain-index', '0', '--out', join(tmp, 'flag')], { SLURM_ARRAY_TASK_ID: '1' });
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).toContain('chain 0 of 2');
  }, 60_000);
});
