// Shared by the CLI tests: the CLI run as a real process, and a model module's text.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { run, type CliIo } from '../../cli/main.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** What a CLI run gave: its exit code and its two streams. */
export interface Ran { code: number; out: string; err: string }

/** The CLI in this process (`run` from cli/main.ts) in the folder `cwd`, its streams collected. */
export async function runCli(cwd: string, ...argv: string[]): Promise<Ran> {
  let out = '', err = '';
  const io: CliIo = { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, isTTY: false, cwd };
  const code = await run(argv, io);
  return { code, out, err };
}

/** The CLI as a real process (`node --import tsx cli/main.ts …`) in the folder `cwd`. */
export async function spawnCli(cwd: string, ...argv: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(repo, 'cli', 'main.ts'), ...argv], { cwd });
    return { code: 0, out: stdout, err: stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: x.stdout ?? '', err: x.stderr ?? '' };
  }
}

/**
 * The text of a `setup` model module for the CLI tests (written into a temporary folder two
 * levels below the repository, hence the relative imports): HMC on a 2-d Gaussian with mean 1
 * and standard deviation 2, started at a random draw of the setup key.
 */
export const GAUSS_MODULE = `import { HamiltonianMonteCarlo } from '../../../mcmc/kernels/hamiltonian-monte-carlo.js';
import { normal } from '../../../src/random/normal.js';
import { add, mul, square } from '../../../src/tensor/ops/elementwise.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
const target = (x) => sum(mul(-0.125, square(add(x, -1))));
export const names = ['x'];
export function setup({ seed }) {
  const kernel = new HamiltonianMonteCarlo({ targetLogProbFn: target, stepSize: 0.6, numLeapfrogSteps: 4 });
  return { kernel, currentState: normal(seed, [2]), traceFn: (s, r) => ({ isAccepted: r.isAccepted, targetLogProb: target(s) }) };
}
`;
