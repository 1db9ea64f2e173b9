/**
 * `stochax sample`'s time after sampling (posterior predictive and log-likelihood draws, the
 * summary, draws.json, draws.csv and report.html) beside its sampling time, on three models:
 * eight schools (8 observations), a normal regression with 600 observations and a logistic
 * regression with 1,000. The CLI runs in this process (`run` from cli/main.ts) with its default
 * 4 × (1000 + 1000); both times are the CLI's own lines (`sampled in`, `outputs … in`), so
 * their ratio is what a user waits for after the bars finish. The issue's target: after ≤ sampling.
 * Sizes: draws.json, the netCDF files in idata/ (written when the run has over 1 M values, see
 * --draws-format), report.html. An argument is passed on as --draws-format (`json` measures
 * the single-draws.json output that was the only one before netCDF).
 *
 * Run: npx tsx bench/cli-outputs.ts [json|netcdf|auto]   (npm run bench runs it with the default, auto)
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../cli/main.js';

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
console.log(`--draws-format ${format ?? 'auto'}`);
console.log('model                            sampling  after    after/sampling  draws.json  idata/*.nc  report.html');
for (const [name, file] of MODELS) {
  const dir = mkdtempSync(join(tmpdir(), 'stochax-cli-bench-'));
  let err = '';
  const code = await run(['sample', file, '--seed', '1', '--out', join(dir, 'out'), ...(format === undefined ? [] : ['--draws-format', format])], { stdout: () => {}, stderr: (t) => { err += t; }, isTTY: false });
  if (code !== 0) throw new Error(`stochax sample ${file} exited with ${code}:\n${err}`);
  const sampling = Number(/sampled in ([\d.]+) s/.exec(err)?.[1]);
  const after = Number(/outputs \(.*\) in ([\d.]+) s/.exec(err)?.[1]);
  console.log(`${name.padEnd(32)} ${sampling.toFixed(1).padStart(6)} s ${after.toFixed(1).padStart(6)} s ${(after / sampling).toFixed(2).padStart(10)}×     ${mb(join(dir, 'out', 'draws.json')).padStart(6)} MB  ${ncMb(join(dir, 'out', 'idata')).padStart(6)} MB  ${mb(join(dir, 'out', 'report.html')).padStart(6)} MB`);
  rmSync(dir, { recursive: true, force: true });
}
