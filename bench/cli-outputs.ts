/**
 * `stochax sample`'s time after sampling (posterior predictive and log-likelihood draws, the
 * summary, draws.json, draws.csv and report.html) beside its sampling time, on three models:
 * eight schools (8 observations), a normal regression with 600 observations and a logistic
 * regression with 1,000. The CLI runs in this process (`run` from cli/main.ts) with its default
 * 4 × (1000 + 1000); both times are the CLI's own lines (`sampled in`, `outputs … in`), so
 * their ratio is what a user waits for after the bars finish. The target: after ≤ sampling.
 * Sizes: draws.json, the netCDF files in idata/ (written when the run has over 1 M values, see
 * --draws-format), report.html. An argument is passed on as --draws-format (`json` measures
 * the single-draws.json output that was the only one before netCDF).
 *
 * Beside the CLI's wall times, the process's CPU time over the same two intervals (process.cpuUsage
 * read when the CLI writes its `windowedAdaptiveNuts: …`, `sampled in` and `outputs … in` lines:
 * every thread of the process, so a sampling run on worker threads counts each thread's time),
 * which a loaded machine disturbs far less than the wall times.
 *
 * Latest (2-core VM at load average 10–16, best of six runs; README, "Performance"): the target is
 * not met. After-sampling CPU 0.93 s against 0.44 s of sampling (eight schools), 0.83 against 0.33
 * (regression), 1.71 against 1.27 (logistic); against the previous code run back to back, 1.06×,
 * 0.86× and 0.79× (medians of the rounds' ratios).
 *
 * Run: npx tsx bench/cli-outputs.ts [json|netcdf|auto]   (npm run bench runs it with the default, auto)
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../cli/main.js';
import { outputsWorkerReady, startOutputsWorker } from '../cli/outputs.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const MODELS: readonly [string, string][] = [
  ['eight schools (8 obs)', here('../examples/eight-schools.ts')],
  ['normal regression (600 obs)', here('./models/regression-600.ts')],
  ['logistic regression (1000 obs)', here('./models/logistic-regression.ts')],
];

// The argument only when run directly (bench/index.ts imports this file with its own argv).
const format = fileURLToPath(import.meta.url) === process.argv[1] ? process.argv[2] : undefined;
if (format !== undefined && !['json', 'netcdf', 'auto'].includes(format)) throw new Error(`usage: npx tsx bench/cli-outputs.ts [json|netcdf|auto]; got '${format}'`);
const mb = (f: string) => (statSync(f).size / 1e6).toFixed(1);
/** The netCDF files' total size (MB), or '-' when the run wrote none. */
const ncMb = (d: string) => (existsSync(d) ? (readdirSync(d).reduce((s, f) => s + statSync(join(d, f)).size, 0) / 1e6).toFixed(1) : '-');
// A CLI process starts its outputs worker before loading the model, and it is ready by the end of
// sampling (checked on eight schools in fresh processes); in this one process it is started once.
startOutputsWorker();
for (let i = 0; i < 600 && !outputsWorkerReady(); i++) await new Promise((r) => setTimeout(r, 50));
console.log(`--draws-format ${format ?? 'auto'}${outputsWorkerReady() ? '' : ' (the outputs worker did not start: one thread)'}`);
console.log('model                            sampling  after    after/sampling  CPU: sampling  after  after/sampling  draws.json  idata/*.nc  report.html');
/** Process CPU seconds (user + system, every thread). */
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e6; };
for (const [name, file] of MODELS) {
  const dir = mkdtempSync(join(tmpdir(), 'stochax-cli-bench-'));
  let err = '';
  // CPU and wall time at the CLI's lines: before sampling (the run's first line), after sampling, after the outputs
  // (the wall times the CLI prints, to the millisecond instead of its tenths of a second)
  const at: Record<'start' | 'sampled' | 'outputs', number> = { start: Number.NaN, sampled: Number.NaN, outputs: Number.NaN };
  const wall: Record<'start' | 'sampled' | 'outputs', number> = { ...at };
  const stderr = (t: string) => {
    const line = t.startsWith('windowedAdaptiveNuts: ') ? 'start' : t.startsWith('sampled in ') ? 'sampled' : t.startsWith('outputs (') ? 'outputs' : undefined;
    if (line !== undefined) { at[line] = cpu(); wall[line] = performance.now() / 1000; }
    err += t;
  };
  const code = await run(['sample', file, '--seed', '1', '--out', join(dir, 'out'), ...(format === undefined ? [] : ['--draws-format', format])], { stdout: () => {}, stderr, isTTY: false });
  if (code !== 0) throw new Error(`stochax sample ${file} exited with ${code}:\n${err}`);
  const sampling = wall.sampled - wall.start, after = wall.outputs - wall.sampled;
  const cs = at.sampled - at.start, ca = at.outputs - at.sampled;
  console.log(`${name.padEnd(32)} ${sampling.toFixed(2).padStart(6)} s ${after.toFixed(2).padStart(6)} s ${(after / sampling).toFixed(2).padStart(10)}×   ${cs.toFixed(2).padStart(8)} s ${ca.toFixed(2).padStart(6)} s ${(ca / cs).toFixed(2).padStart(9)}×     ${mb(join(dir, 'out', 'draws.json')).padStart(6)} MB  ${ncMb(join(dir, 'out', 'idata')).padStart(6)} MB  ${mb(join(dir, 'out', 'report.html')).padStart(6)} MB`);
  rmSync(dir, { recursive: true, force: true });
}
