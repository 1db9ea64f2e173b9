/**
 * `npm run bench`: stochax beside its peers in one process, printed as ratios.
 *
 * Bulk throughput uses interleaved rounds: every generator fills the same preallocated
 * Float64Array once per round, in rotating order, and the table reports medians and the
 * median same-round ratio to Math.random (the least noise-sensitive figure on a shared VM;
 * see reference/performance.md). Every fill is consumed (summed) so nothing is optimised away.
 * A second table does the same for normals and gamma draws (2M per fill) against @stdlib's
 * ziggurat normal, Box–Muller over Math.random and @stdlib's gamma. Per-call latency of small
 * key operations is measured with mitata.
 *
 * Options: BENCH_N (values per fill, default 10M), BENCH_ROUNDS (default 7), BENCH_QUICK=1
 * (1M values, 3 rounds, no mitata: a smoke run).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bench, run } from 'mitata';
import seedrandom from 'seedrandom';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import mt19937 from '@stdlib/random-base-mt19937';
import stdlibNormal from '@stdlib/random-base-normal';
import stdlibGamma from '@stdlib/random-base-gamma';
import { random } from '../src/index.js';
import { philox4x32Rounds, philoxFill, philoxFillJs, threefryFill, threefryFillJs } from '../src/prng/index.js';
import { wasmAvailable, wasmScratch } from '../src/prng/wasm.js';
import { normalF64Fill } from '../src/random/normal-fill.js';
import { median } from './median.js';

const quick = process.env.BENCH_QUICK === '1';
const N = Number(process.env.BENCH_N ?? (quick ? 1_000_000 : 10_000_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 7));
const out = new Float64Array(N);
const words = new Uint32Array(N);

interface Entry { name: string; fill: () => void; values: number; group: 'f64' | 'u32' }

const alea = seedrandom.alea('stochax');
const xor4096 = seedrandom.xor4096('stochax');
const pure = xoroshiro128plus(42);
const mt = mt19937.factory({ seed: 42 }) as unknown as { normalized: () => number };
const k0 = 0x13198a2e, k1 = 0x03707344;
const key = random.key(42);
const mem = wasmScratch(8 * N);
const scratch = mem ? new Float64Array(mem.buffer, mem.byteOffset, N) : new Float64Array(N);
let last: ArrayLike<number> = out;

const entries: Entry[] = [
  { name: 'Math.random', group: 'f64', values: N, fill: () => { for (let i = 0; i < N; i++) out[i] = Math.random(); } },
  { name: 'seedrandom alea .double()', group: 'f64', values: N, fill: () => { for (let i = 0; i < N; i++) out[i] = alea.double(); } },
  { name: 'seedrandom xor4096 .double()', group: 'f64', values: N, fill: () => { for (let i = 0; i < N; i++) out[i] = xor4096.double(); } },
  { name: 'pure-rand xoroshiro128+ uniformFloat64', group: 'f64', values: N, fill: () => { for (let i = 0; i < N; i++) out[i] = uniformFloat64(pure); } },
  { name: '@stdlib mt19937 .normalized()', group: 'f64', values: N, fill: () => { for (let i = 0; i < N; i++) out[i] = mt.normalized(); } },
  { name: 'stochax threefry f64 fill (wasm)', group: 'f64', values: N, fill: () => threefryFill('f64', k0, k1, 0, 0, 0, N, out) },
  { name: 'stochax threefry f64 fill (pure JS)', group: 'f64', values: N, fill: () => threefryFillJs('f64', k0, k1, 0, 0, 0, N, out) },
  { name: 'stochax threefry f64 fill (wasm, zero-copy view)', group: 'f64', values: N, fill: () => threefryFill('f64', k0, k1, 0, 0, 0, N, scratch) },
  { name: 'stochax random.uniform(key, [N]) (allocates)', group: 'f64', values: N, fill: () => { last = random.uniform(key, [N]).data; } },
  { name: 'philox4x32 naive JS loop (per block)', group: 'u32', values: N, fill: () => philoxNaive() },
  { name: 'philox4x32 fill (pure JS)', group: 'u32', values: N, fill: () => philoxFillJs([k0, k1], [0, 0, 0, 0], N / 4, words) },
  { name: 'philox4x32 fill (wasm)', group: 'u32', values: N, fill: () => philoxFill([k0, k1], [0, 0, 0, 0], N / 4, words) },
  { name: 'stochax threefry u32 xor fill (wasm)', group: 'u32', values: N, fill: () => threefryFill('xor', k0, k1, 0, 0, 0, N, words) },
];

/** The straightforward loop: one generic 10-round block per counter, copied out word by word. */
function philoxNaive(): void {
  const block = new Uint32Array(4);
  const ctr = [0, 0, 0, 0];
  const k = [k0, k1];
  for (let b = 0; b < N / 4; b++) {
    ctr[0] = b;
    philox4x32Rounds(10, ctr, k, block);
    for (let j = 0; j < 4; j++) words[4 * b + j] = block[j]!;
  }
}

function consume(e: Entry): number {
  let s = 0;
  const src: ArrayLike<number> = e.name.includes('zero-copy') ? scratch : e.name.includes('allocates') ? last : out;
  if (e.group === 'f64') for (let i = 0; i < N; i += 997) s += src[i]!;
  else for (let i = 0; i < N; i += 997) s += words[i]!;
  if (Number.isNaN(s)) throw new Error(`${e.name} produced NaN`);
  return s;
}


/** Interleaved rounds over `list`; prints a table with same-round ratios to `baseline`. */
function measure(list: Entry[], baseline: string, consumeOne: (e: Entry) => number, extra?: (name: string, mps: number, rows: Map<string, number>) => string): number {
  for (const e of list) for (let w = 0; w < 2; w++) { e.fill(); consumeOne(e); }   // no cold (OSR) timed runs
  const times = new Map<string, number[]>(list.map((e) => [e.name, []]));
  const ratios = new Map<string, number[]>(list.map((e) => [e.name, []]));
  let sink = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const round = new Map<string, number>();
    for (let j = 0; j < list.length; j++) {
      const e = list[(j + r) % list.length]!;
      const t0 = process.hrtime.bigint();
      e.fill();
      const dt = Number(process.hrtime.bigint() - t0) / 1e9;
      sink += consumeOne(e);
      round.set(e.name, dt);
      times.get(e.name)!.push(dt);
    }
    for (const e of list) ratios.get(e.name)!.push(round.get(baseline)! / round.get(e.name)!);
  }
  const mps = new Map(list.map((e) => [e.name, e.values / median(times.get(e.name)!) / 1e6]));
  console.log(`\n| generator | M values/s | ns/value | × ${baseline} (same round) |${extra ? ' × philox naive |' : ''}`);
  console.log(`|---|---:|---:|---:|${extra ? '---:|' : ''}`);
  for (const e of list) {
    const m = mps.get(e.name)!;
    console.log(`| ${e.name} | ${m.toFixed(1)} | ${(1000 / m).toFixed(2)} | ${median(ratios.get(e.name)!).toFixed(2)} |${extra ? ` ${extra(e.name, m, mps)} |` : ''}`);
  }
  return sink;
}

console.log(`stochax bench: ${N.toLocaleString()} values per uniform fill, ${ROUNDS} interleaved rounds, node ${process.version}, wasm SIMD ${wasmAvailable() ? 'on' : 'OFF'}`);
let sink = measure(entries, 'Math.random', consume, (name, m, mps) =>
  name.startsWith('philox') ? (m / mps.get('philox4x32 naive JS loop (per block)')!).toFixed(2) : '');

// Normals and gamma: 2M values per fill.
const M = Math.min(N, 2_000_000);
const normals = new Float64Array(M);
const rn = (stdlibNormal as unknown as { factory: (mu: number, s: number, o: object) => () => number }).factory(0, 1, { seed: 7 });
const rg = (stdlibGamma as unknown as { factory: (a: number, b: number, o: object) => () => number }).factory(2.5, 1, { seed: 7 });
let lastNormals: ArrayLike<number> = normals;
const normalEntries: Entry[] = [
  { name: '@stdlib random-base-normal (ziggurat, MT19937)', group: 'f64', values: M, fill: () => { for (let i = 0; i < M; i++) normals[i] = rn(); } },
  { name: 'Box–Muller over Math.random', group: 'f64', values: M, fill: () => {
    for (let i = 0; i < M; i += 2) {
      const r = Math.sqrt(-2 * Math.log(1 - Math.random())), a = 2 * Math.PI * Math.random();
      normals[i] = r * Math.cos(a); normals[i + 1] = r * Math.sin(a);
    }
  } },
  { name: 'stochax random.normal(key, [N]) float64 (allocates)', group: 'f64', values: M, fill: () => { lastNormals = random.normal(key, [M]).data; } },
  { name: 'stochax normal float64 fill (JAX-compatible, wasm)', group: 'f64', values: M, fill: () => normalF64Fill(k0, k1, 0, 0, 0, M, normals) },
  { name: 'stochax random.normal(key, [N]) float32', group: 'f64', values: M, fill: () => { lastNormals = random.normal(key, [M], { dtype: 'float32' }).data; } },
  { name: '@stdlib random-base-gamma factory(2.5, 1)', group: 'f64', values: M, fill: () => { for (let i = 0; i < M; i++) normals[i] = rg(); } },
  { name: 'stochax random.gamma(key, 2.5, [N]) float64', group: 'f64', values: M, fill: () => { lastNormals = random.gamma(key, 2.5, [M]).data; } },
];
const consumeNormals = (e: Entry) => {
  const src = e.name.includes('random.') ? lastNormals : normals;
  let s = 0;
  for (let i = 0; i < M; i += 997) s += src[i]!;
  if (Number.isNaN(s)) throw new Error(`${e.name} produced NaN`);
  return s;
};
console.log(`\nNormals and gamma: ${M.toLocaleString()} values per fill.`);
sink += measure(normalEntries, '@stdlib random-base-normal (ziggurat, MT19937)', consumeNormals);
console.log(`(checksum ${sink.toFixed(3)})`);

if (!quick) {
  console.log('\nPer-call latency (mitata):');
  bench('random.key(42)', () => random.key(42));
  bench('random.split(key)', () => random.split(key));
  bench('random.foldIn(key, 7)', () => random.foldIn(key, 7));
  bench('random.uniform(key) scalar', () => random.uniform(key));
  bench('random.uniform(key, [1000])', () => random.uniform(key, [1000]));
  bench('random.randint(key, [1000], 0, 10, int32)', () => random.randint(key, [1000], 0, 10, { dtype: 'int32' }));
  bench('random.permutation(key, 1000)', () => random.permutation(key, 1000));
  await run();
}

// The stateful Generator beside random.uniform and seedrandom's alea (its own tables).
if (!quick) {
  console.log('\nStateful Generator (bench/generator.ts):');
  await import('./generator.js');
}

// Tensor engine and reverse-mode autodiff, beside tfjs and jax-js (its own table).
if (!quick) {
  console.log('\nAutodiff (bench/autodiff.ts):');
  await import('./autodiff.js');
}

// Distributions: Normal.logProb beside jStat, Gamma.sample beside random.gamma (its own table).
if (!quick) {
  console.log('\nDistributions (bench/distributions.ts):');
  await import('./distributions.js');
}

// Compiled log densities: compileLogDensity beside the tape and hand-written JavaScript, and an
// allocation check (bench/compiled-models.ts, its own table).
if (!quick) {
  console.log('\nCompiled log densities (bench/compiled-models.ts):');
  await import('./compiled-models.js');
}

// Data-heavy GLMs: the fused GLM kernels (wasm and JS) beside the unfused compiled path,
// hand-written JavaScript and Stan, GFLOP/s beside the machine's peak (bench/glm.ts).
if (!quick) {
  console.log('\nData-heavy GLMs (bench/glm.ts):');
  await import('./glm.js');
}

// MCMC: per-leapfrog overhead (bench/mcmc.ts) and NUTS ESS per second (bench/windowed-nuts.ts).
if (!quick) {
  console.log('\nMCMC (bench/mcmc.ts, bench/windowed-nuts.ts):');
  await import('./mcmc.js');
  await import('./windowed-nuts.js');
  console.log('\nDense metric (bench/dense-metric.ts):');
  await import('./dense-metric.js');
}

if (!quick) { console.log('\nDeterministic math beside Math.* (bench/detmath.ts):'); await import('./detmath.js'); }
if (!quick) { console.log('\nODE models: odeRk45 beside a hand-written RK4 (bench/ode.ts):'); await import('./ode.js'); }
if (!quick) {
  console.log('\nESS per CPU second beside Stan: ARMA, GARCH, Lotka–Volterra, PK, 4 × (500 + 500) (bench/ts-ode-ess.ts; full run in the README):');
  (await import('./ts-ode-ess.js')).main({ warmup: 500, draws: 500 });
}
if (!quick) { console.log('\nMode finding, ADVI and Pathfinder beside SciPy and rstan (bench/optimize.ts):'); await import('./optimize.js'); }
if (!quick) { console.log('\nLong scalar programs, one generated function vs pieces (bench/long-programs.ts):'); await import('./long-programs.js'); }
if (!quick) { console.log('\nPredictive draws and log-likelihood, compiled vs per-draw tape path (bench/predictive.ts):'); await import('./predictive.js'); }
if (!quick) { console.log('\nstochax sample: time after sampling beside sampling time (bench/cli-outputs.ts):'); await import('./cli-outputs.js'); }
// Parallel chains: 4 chains on 2 workers vs serial, worker start-up (bench/parallel-chains.ts),
// and windowedAdaptiveNuts' own cores (bench/cores.ts),
// run as compiled JavaScript (`npm run bench` compiles it first): under tsx every worker would
// register tsx before loading the library, a start-up cost package users never pay.
if (!quick) {
  console.log('\nParallel chains (node dist/bench/parallel-chains.js):');
  const compiled = fileURLToPath(new URL('../dist/bench/parallel-chains.js', import.meta.url));
  const r = spawnSync(process.execPath, [compiled], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
  console.log('\nJoint-model chains on workers (node dist/bench/joint-workers.js):');
  const joint = spawnSync(process.execPath, [fileURLToPath(new URL('../dist/bench/joint-workers.js', import.meta.url))], { stdio: 'inherit' });
  if (joint.status !== 0) process.exitCode = 1;
  console.log('\nwindowedAdaptiveNuts({ cores }): cores 1 vs 2 (node dist/bench/cores.js):');
  const cores = spawnSync(process.execPath, [fileURLToPath(new URL('../dist/bench/cores.js', import.meta.url))], { stdio: 'inherit' });
  if (cores.status !== 0) process.exitCode = 1;
}
