/**
 * Parallel chains (`npm run bench:parallel`: compiles with tsc, then runs
 * `node dist/bench/parallel-chains.js`, the JavaScript a package user runs; also
 * `npx tsx bench/parallel-chains.ts`, where every worker first registers tsx, ~0.4 s more
 * start-up): 4 HMC chains (10 leapfrog steps) of a Bayesian logistic regression with 8
 * coefficients, serially in one thread (`workers: 0`) and on 2 worker threads, for two versions
 * of the model, each with a gradient of ~50 µs at a typical point of the chains:
 *
 * - `hand`: 850 observations, the gradient written out in loops over typed arrays
 *   (`targetLogProbAndGradFn`), so the work is arithmetic;
 * - `autodiff`: 200 observations, the gradient from the autodiff engine, so the work is
 *   dominated by allocating and freeing many small tensors (and the garbage collector).
 *
 * Three measurements:
 * 1. **Fresh processes** (the headline: what a script sees). `node <this file> --child W DRAWS
 *    VARIANT` runs the call as its own process, W = 0 (serial) or 2, timed from process start to
 *    the call's end, so each pays its own module loading and JIT warm-up, and the 2-worker run
 *    also the workers' start-up and their own JIT warm-up. At DRAWS and at 2 × DRAWS (warm-up
 *    steps and draws per chain), since that fixed cost weighs less in longer runs.
 * 2. **In one process**: the serial run (its JIT already warm), 2 fresh workers, and a persistent
 *    pool (`createWorkerPool`) warmed before timing: the steady state of an application that
 *    samples repeatedly. Printed with the cores used (CPU over wall time, all threads).
 * 3. **Worker start-up**: a 1-draw run on 2 fresh workers minus the same run in-thread.
 *
 * Every parallel result is checked bit for bit against the serial one.
 *
 * This file is also the model module the workers import (it exports `setup`); the benchmark
 * runs only when the file is the entry point, or through `benchParallelChains()`.
 *
 * Options: BENCH_DRAWS (default 1500), BENCH_QUICK=1 (200 draws, no fresh-process runs at
 * 2 × DRAWS: a smoke run), BENCH_ROUNDS (interleaved rounds; default 1; with more, medians are
 * printed — use them when other processes share the machine).
 */
import { spawnSync } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HamiltonianMonteCarlo } from '../mcmc/kernels/hamiltonian-monte-carlo.js';
import type { ChainSetup, ChainSetupContext } from '../mcmc/parallel/model-module.js';
import { createWorkerPool, type WorkerPool } from '../mcmc/parallel/pool.js';
import { sampleChains } from '../mcmc/parallel/sample-chains.js';
import { key } from '../src/random/keys.js';
import { normal } from '../src/random/normal.js';
import { valueAndGrad } from '../src/tensor/autodiff.js';
import { zeros } from '../src/tensor/ops/create.js';
import { mul, softplus, square, sub } from '../src/tensor/ops/elementwise.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';

const D = 8;
type Variant = 'hand' | 'autodiff';
const SIZES: Record<Variant, number> = { hand: 850, autodiff: 200 };

/** Design matrix and 0/1 responses for `n` observations (deterministic). */
function data(n: number): { X: Tensor; y: Tensor } {
  const X = normal(key(1), [n, D]);
  const z = matmul(X, normal(key(2), [D])).data as Float64Array;
  return { X, y: new Tensor(Float64Array.from(z, (v, i) => ((i * 0.618) % 1 < 1 / (1 + Math.exp(-v)) ? 1 : 0)), [n], 'float64') };
}

const small = data(SIZES.autodiff);
const large = data(SIZES.hand);

/** log p(β | X, y) by tensor ops (logistic likelihood, N(0, 1) prior); its gradient comes from autodiff. */
export function autodiffLogProb(beta: Tensor): Tensor {
  const z = matmul(small.X, beta);
  return sub(sum(sub(mul(small.y, z), softplus(z))), mul(0.5, sum(square(beta))));
}

/** The same density on the large data set, with its gradient written out. */
export function handLogProbAndGrad(beta: Tensor): [Tensor, Tensor[]] {
  const X = large.X.data as Float64Array, y = large.y.data as Float64Array, b = beta.data as Float64Array;
  const g = new Float64Array(D);
  let lp = 0;
  for (let i = 0; i < SIZES.hand; i++) {
    const row = i * D;
    let z = 0;
    for (let j = 0; j < D; j++) z += X[row + j]! * b[j]!;
    lp += y[i]! * z - (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
    const r = y[i]! - 1 / (1 + Math.exp(-z));
    for (let j = 0; j < D; j++) g[j] += r * X[row + j]!;
  }
  for (let j = 0; j < D; j++) { lp -= 0.5 * b[j]! * b[j]!; g[j] -= b[j]!; }
  return [new Tensor(Float64Array.of(lp), [], 'float64'), [new Tensor(g, [D], 'float64')]];
}

/** One chain of the model named by `options` (`'hand'` or `'autodiff'`): HMC from the origin. */
export function setup({ options }: ChainSetupContext): ChainSetup {
  const kernel = options === 'hand'
    ? new HamiltonianMonteCarlo({ targetLogProbAndGradFn: handLogProbAndGrad, stepSize: 0.01, numLeapfrogSteps: 10 })
    : new HamiltonianMonteCarlo({ targetLogProbFn: autodiffLogProb, stepSize: 0.03, numLeapfrogSteps: 10 });
  return { kernel, currentState: zeros([D]) };
}

/**
 * The gradient's cost at a typical point of the chains (not at the origin: there every z is 0,
 * and exp(0) and log1p(1) take fast paths that halve the cost of the hand-written gradient).
 */
function gradientMicros(variant: Variant): number {
  const vg = variant === 'hand' ? handLogProbAndGrad : valueAndGrad(autodiffLogProb);
  const b = mul(0.5, normal(key(3), [D]));
  for (let i = 0; i < 500; i++) vg(b);
  const n = 3000, t0 = performance.now();
  for (let i = 0; i < n; i++) vg(b);
  return ((performance.now() - t0) / n) * 1000;
}

/** Wall seconds and CPU seconds (all threads of this process) of `f`, and its result. */
async function timed<T>(f: () => Promise<T>): Promise<[T, number, number]> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await f();
  const c = process.cpuUsage(c0);
  return [r, (performance.now() - t0) / 1000, (c.user + c.system) / 1e6];
}

/** A 32-bit FNV-1a digest of the draws' bits, to compare runs made in other processes. */
function digest(draws: Float64Array): string {
  const bytes = new Uint8Array(draws.buffer, draws.byteOffset, draws.byteLength);
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const run = (variant: Variant, workers: number, numResults: number, numBurninSteps: number, pool?: WorkerPool) =>
  sampleChains({ model: new URL(import.meta.url), chains: 4, workers, seed: 0, numResults, numBurninSteps, setupOptions: variant, pool });

/** Child mode: one call, then `{ seconds since process start, digest }` as JSON on stdout. */
async function child(workers: number, draws: number, variant: Variant): Promise<void> {
  const r = await run(variant, workers, draws, draws);
  const seconds = performance.now() / 1000; // performance's time origin is the process start
  console.log(JSON.stringify({ seconds, digest: digest((r.allStates as Tensor).data as Float64Array) }));
}

/** Runs the call in a fresh process (same runtime and loader flags as this one). */
function fresh(workers: number, draws: number, variant: Variant): { seconds: number; digest: string } {
  const file = fileURLToPath(import.meta.url);
  const p = spawnSync(process.execPath, [...process.execArgv, file, '--child', String(workers), String(draws), variant], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`child run failed (${p.status}): ${p.stderr}`);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as { seconds: number; digest: string };
}

const fmt = (x: number) => `${x.toFixed(2)}×`;

function table(rows: [string, string][]): void {
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) console.log(`  ${k.padEnd(w)}  ${v}`);
}

export interface ParallelChainsFigures {
  readonly variant: Variant;
  readonly gradientMicros: number;
  /** Fresh processes: serial wall seconds over 2-worker wall seconds, per draws count. */
  readonly fresh: { readonly draws: number; readonly serial: number; readonly parallel: number; readonly ratio: number }[];
  /** In one process: the warm serial run over fresh workers, and over a warm pool. */
  readonly ratioCold: number;
  readonly ratioPool: number;
  readonly identical: boolean;
}

/** Runs the benchmark and prints its tables; returns the medians per model. */
export async function benchParallelChains(): Promise<ParallelChainsFigures[]> {
  const quick = process.env.BENCH_QUICK === '1';
  const draws = Number(process.env.BENCH_DRAWS ?? (quick ? 200 : 1500));
  const lengths = quick ? [draws] : [draws, 2 * draws];
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
  console.log(`parallel chains: 4 HMC chains, 10 leapfrog steps, logistic regression (D=${D}); ` +
    `serial (workers: 0) vs 2 workers on ${rounds} round(s), ${process.execArgv.length > 0 ? 'under a loader (tsx)' : 'compiled JavaScript'}`);
  await run('autodiff', 0, 20, 0); // warm the JIT in this thread
  const [, inThread] = await timed(() => run('hand', 0, 1, 0));
  const [, tiny] = await timed(() => run('hand', 2, 1, 0));
  console.log(`worker start-up (2 workers: a 1-draw run minus the same run in-thread): ${((tiny - inThread) * 1000).toFixed(0)} ms`);
  const figures: ParallelChainsFigures[] = [];
  const pool = await createWorkerPool({ model: new URL(import.meta.url), workers: 2 });
  try {
    for (const variant of ['hand', 'autodiff'] as const) {
      await run(variant, 0, 20, 0);
      await run(variant, 2, 20, 0, pool); // warm the pool's JIT, as the line above warms this thread's
      const grad = gradientMicros(variant);
      console.log(`\n${variant}: N=${SIZES[variant]}, gradient ${grad.toFixed(1)} µs`);
      let identical = true;
      const rows: [string, string][] = [];
      const freshRatios = new Map<number, { serial: number[]; parallel: number[]; ratio: number[] }>();
      const cold: number[] = [], pooled: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const tag = rounds > 1 ? ` (round ${round + 1})` : '';
        for (const n of lengths) {
          const s = fresh(0, n, variant), p = fresh(2, n, variant);
          identical &&= s.digest === p.digest;
          const f = freshRatios.get(n) ?? { serial: [], parallel: [], ratio: [] };
          f.serial.push(s.seconds); f.parallel.push(p.seconds); f.ratio.push(s.seconds / p.seconds);
          freshRatios.set(n, f);
          rows.push([`fresh processes, ${n} + ${n} draws${tag}`, `serial ${s.seconds.toFixed(2)} s, 2 workers ${p.seconds.toFixed(2)} s: ${fmt(s.seconds / p.seconds)}`]);
        }
        const [serialResult, serial, serialCpu] = await timed(() => run(variant, 0, draws, draws));
        const [coldResult, parallel, parallelCpu] = await timed(() => run(variant, 2, draws, draws));
        const [pooledResult, pooledTime, pooledCpu] = await timed(() => run(variant, 2, draws, draws, pool));
        const a = (serialResult.allStates as Tensor).data as Float64Array;
        const same = (r: typeof serialResult) => { const b = (r.allStates as Tensor).data as Float64Array; return a.length === b.length && a.every((v, i) => Object.is(v, b[i])); };
        identical &&= same(coldResult) && same(pooledResult);
        cold.push(serial / parallel);
        pooled.push(serial / pooledTime);
        const cores = (cpu: number, wall: number) => `${wall.toFixed(2)} s (cores used ${(cpu / wall).toFixed(2)}, CPU ${cpu.toFixed(2)} s)`;
        rows.push(
          [`one process, ${draws} + ${draws} draws${tag}: serial, JIT warm`, cores(serialCpu, serial)],
          ['  2 fresh workers', `${cores(parallelCpu, parallel)}: ${fmt(serial / parallel)}`],
          ['  2 workers, warm pool', `${cores(pooledCpu, pooledTime)}: ${fmt(serial / pooledTime)}`],
        );
      }
      const f = [...freshRatios].map(([n, r]) => ({ draws: n, serial: median(r.serial), parallel: median(r.parallel), ratio: median(r.ratio) }));
      if (rounds > 1) {
        rows.push([`medians over ${rounds} rounds`, [...f.map((x) => `fresh ${x.draws}: ${fmt(x.ratio)}`), `fresh workers: ${fmt(median(cold))}`, `warm pool: ${fmt(median(pooled))}`].join(', ')]);
      }
      rows.push(['draws bit-identical (every run)', identical ? 'yes' : 'NO']);
      table(rows);
      if (!identical) process.exitCode = 1;
      figures.push({ variant, gradientMicros: grad, fresh: f, ratioCold: median(cold), ratioPool: median(pooled), identical });
    }
  } finally {
    await pool.close();
  }
  return figures;
}

// Not awaited at top level: sampleChains imports this very module, which must finish evaluating first.
if (isMainThread && process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const main = process.argv[2] === '--child'
    ? child(Number(process.argv[3]), Number(process.argv[4]), process.argv[5] as Variant)
    : benchParallelChains();
  main.catch((e: unknown) => { console.error(e); process.exitCode = 1; });
}
