/**
 * `stochax sample`'s time after sampling (posterior predictive and log-likelihood draws, LOO,
 * the summary, draws.json, draws.csv, the netCDF groups and report.html) beside its sampling
 * time, on the three models — eight schools (8 observations), a normal regression with
 * 600 observations and a logistic regression with 1,000 — and a hierarchical model with 300
 * groups (302 parameters: the report's plot limit and the draws files' number printing). Each run is a fresh process with the CLI's
 * default 4 × (1000 + 1000), run both ways a user runs it:
 *
 * - built: `node dist/cli/main.js sample model.ts`, as `npx stochax` runs it, the model
 *   importing the package (`'stochax'`; a copy of the model with its imports rewritten, in
 *   bench/.built-models/), dist/ rebuilt first if stale (scripts/prepare.mjs);
 * - source: `tsx cli/main.ts sample model.ts`, as `npm run demo` runs it.
 *
 * The clock is read here as the CLI's own lines arrive on its stderr (`windowedAdaptiveNuts: …`
 * as sampling starts, `sampled in`, `outputs … in`), to the millisecond instead of the printed
 * tenths: start (process start to sampling), sampling, after, and the process's whole wall time.
 * The target: after ≤ sampling, which is what a user waits for after the bars finish.
 *
 * Each model runs BENCH_CLI_ROUNDS times (default 3) each way, interleaved; the table gives
 * medians. Sizes: draws.json, the netCDF files in idata/ (written when the run has over 1 M
 * values, see --draws-format), report.html. An argument is passed on as --draws-format (`json`
 * measures the single-draws.json output that was the only one before netCDF).
 *
 * Latest: README, "Performance".
 *
 * Run: npx tsx bench/cli-outputs.ts [json|netcdf|auto]   (npm run bench runs it with the default, auto)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.js';

const self = fileURLToPath(import.meta.url);
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const MODELS: readonly [string, string][] = [
  ['eight schools (8 obs)', here('../examples/eight-schools.ts')],
  ['normal regression (600 obs)', here('./models/regression-600.ts')],
  ['logistic regression (1000 obs)', here('./models/logistic-regression.ts')],
  ['hierarchical, 300 groups', here('./models/hierarchical-300.ts')],
];
/** The helper modules the models import by a relative path (copied beside them for the built runs). */
const MODEL_HELPERS = [here('./models/logistic-regression.ts')];

/** One run's measurements (seconds, MB). */
interface Measured { start: number; sampling: number; after: number; wall: number; json: number; nc: number | undefined; html: number }

/**
 * `model` with its library imports rewritten to the package's entry points (`../src/…` →
 * `stochax`, `../distributions/index.js` → `stochax/distributions`, …), written into
 * bench/.built-models/, inside the package, so `'stochax'` resolves to dist/ (the package's
 * `exports`) as in a user's project.
 */
function builtCopy(model: string): string {
  const dir = here('./.built-models');
  mkdirSync(dir, { recursive: true });
  for (const f of [model, ...MODEL_HELPERS]) {
    const text = readFileSync(f, 'utf8').replace(/'(?:\.\.\/)+(src|distributions|mcmc)\/[\w/.-]*\.js'/g, (_, top: string) => (top === 'src' ? "'stochax'" : `'stochax/${top}'`));
    writeFileSync(join(dir, basename(f)), text);
  }
  return join(dir, basename(model));
}

/** Runs `stochax sample` once in a fresh process (built or source) and times its stderr lines. */
function once(model: string, built: boolean, format: string | undefined): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'stochax-cli-bench-'));
  const out = join(dir, 'out');
  const cli = built ? [here('../dist/cli/main.js')] : ['--import', 'tsx', here('../cli/main.ts')];
  const t0 = performance.now();
  const at: Partial<Record<'start' | 'sampled' | 'outputs', number>> = {};
  let err = '';
  return new Promise<Measured>((resolve, reject) => {
    const child = spawn(process.execPath, [...cli, 'sample', model, '--seed', '1', '--out', out, ...(format === undefined ? [] : ['--draws-format', format])], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      const t = (performance.now() - t0) / 1000;
      err += chunk;
      if (at.start === undefined && err.includes('windowedAdaptiveNuts: ')) at.start = t;
      if (at.sampled === undefined && err.includes('sampled in ')) at.sampled = t;
      if (at.outputs === undefined && err.includes('outputs (')) at.outputs = t;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = (performance.now() - t0) / 1000;
      try {
        if (code !== 0 || at.start === undefined || at.sampled === undefined || at.outputs === undefined) throw new Error(`stochax sample ${model} exited with ${code}:\n${err}`);
        const mb = (f: string) => statSync(f).size / 1e6;
        const idata = join(out, 'idata');
        resolve({
          start: at.start, sampling: at.sampled - at.start, after: at.outputs - at.sampled, wall,
          json: mb(join(out, 'draws.json')), nc: existsSync(idata) ? readdirSync(idata).reduce((n, f) => n + mb(join(idata, f)), 0) : undefined, html: mb(join(out, 'report.html')),
        });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

// The argument only when run directly (bench/index.ts imports this file with its own argv).
const format = self === process.argv[1] ? process.argv[2] : undefined;
if (format !== undefined && !['json', 'netcdf', 'auto'].includes(format)) throw new Error(`usage: npx tsx bench/cli-outputs.ts [json|netcdf|auto]; got '${format}'`);
execFileSync(process.execPath, [here('../scripts/prepare.mjs')], { stdio: 'inherit' });   // dist/ as `npx stochax` would run it
const rounds = Number(process.env.BENCH_CLI_ROUNDS ?? 3);
const ways = [['built', true], ['source', false]] as const;
const got = MODELS.map(() => ways.map((): Measured[] => []));
const built = MODELS.map(([, file]) => builtCopy(file));
for (let r = 0; r < rounds; r++) {
  for (const [i, [, file]] of MODELS.entries()) {
    for (const [w, [, isBuilt]] of ways.entries()) got[i]![w]!.push(await once(isBuilt ? built[i]! : file, isBuilt, format));
  }
}
console.log(`--draws-format ${format ?? 'auto'}; ${rounds} rounds, each run a fresh process; load average ${loadavg().map((x) => x.toFixed(1)).join(', ')}; medians, seconds`);
console.log('model                            CLI      after/sampling   start  sampling   after    wall   draws.json  idata/*.nc  report.html');
MODELS.forEach(([name], i) => ways.forEach(([way], w) => {
  const ms = got[i]![w]!, last = ms[ms.length - 1]!, med = (f: (m: Measured) => number) => median(ms.map(f)).toFixed(2).padStart(7);
  console.log(`${(w === 0 ? name : '').padEnd(32)} ${way.padEnd(8)} ${median(ms.map((m) => m.after / m.sampling)).toFixed(2).padStart(9)}×    ${med((m) => m.start)} ${med((m) => m.sampling)} ${med((m) => m.after)} ${med((m) => m.wall)}   ${last.json.toFixed(1).padStart(6)} MB  ${last.nc === undefined ? '     -' : last.nc.toFixed(1).padStart(6)} MB  ${last.html.toFixed(1).padStart(6)} MB`);
}));
