/**
 * The stateful Generator's speed targets (issue 4), standalone:
 * `npm run build:wasm && npx tsx bench/generator.ts`.
 *
 * 1. Bulk: `rng.random(1e6)` against `random.uniform(key, [1e6])` (target: within 10%; the
 *    counter should add no per-value cost).
 * 2. Scalar: `rng.random()` calls against seedrandom's alea `prng()` calls (target: at least as
 *    fast), plus Math.random and the scalar `uniform(lo, hi)` / `normal()` for reference.
 *
 * Interleaved rounds: every case runs once per round in rotating order, and the tables give the
 * median time and the median same-round ratio to the reference case (the least noise-sensitive
 * figure on a shared VM; the bulk table runs 3x the rounds, as each call allocates 8 MB and GC
 * adds noise). Every result is consumed (summed, checked for NaN).
 *
 * Options: BENCH_ROUNDS (default 9), BENCH_CALLS (scalar calls per round, default 5M),
 * BENCH_QUICK=1 (3 rounds, 1M calls).
 */
import seedrandom from 'seedrandom';
import { statefulRng } from '../src/generator.js';
import { wasmAvailable } from '../src/prng/wasm.js';
import * as random from '../src/random/index.js';
import { median } from './median.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 9));
const CALLS = Number(process.env.BENCH_CALLS ?? (quick ? 1_000_000 : 5_000_000));
const BULK = 1_000_000;

interface Case { name: string; run: () => number; times: number[]; ratios: number[] }


function measure(title: string, cases: Case[], reference: string, perCall: number, unit: string, rounds = ROUNDS): Case[] {
  for (const c of cases) for (let i = 0; i < 3; i++) consume(c.name, c.run()); // warm-up
  for (let r = 0; r < rounds; r++) {
    const order = cases.map((_, i) => cases[(i + r) % cases.length]!);
    const t: Record<string, number> = {};
    for (const c of order) {
      const t0 = performance.now();
      consume(c.name, c.run());
      t[c.name] = performance.now() - t0;
      c.times.push(t[c.name]!);
    }
    for (const c of cases) c.ratios.push(t[c.name]! / t[reference]!);
  }
  console.log(`\n${title}`);
  console.table(cases.map((c) => ({
    case: c.name,
    'median ms': median(c.times).toFixed(2),
    [unit]: ((median(c.times) * 1e6) / perCall).toFixed(2),
    [`time / ${reference} (same round)`]: median(c.ratios).toFixed(3),
  })));
  return cases;
}

function consume(name: string, s: number): void {
  if (Number.isNaN(s)) throw new Error(`${name} produced NaN`);
  sink += s;
}
let sink = 0;

console.log(`node ${process.version}, wasm SIMD kernels ${wasmAvailable() ? 'loaded' : 'NOT available (JS fallback)'}; ${ROUNDS} interleaved rounds, medians`);

// 1. Bulk.
const key = random.key(42);
const rngBulk = statefulRng(42);
const sum = (a: ArrayLike<number>) => { let s = 0; for (let i = 0; i < a.length; i += 997) s += a[i]!; return s; };
const bulk = measure(`Bulk: ${BULK} float64 uniforms per call`, [
  { name: 'random.uniform(key, [1e6])', run: () => sum(random.uniform(key, [BULK]).data as Float64Array), times: [], ratios: [] },
  { name: 'rng.random(1e6)', run: () => sum(rngBulk.random(BULK).data as Float64Array), times: [], ratios: [] },
], 'random.uniform(key, [1e6])', BULK, 'ns/value', 3 * ROUNDS); // 3x the rounds: each call allocates 8 MB, so GC adds noise

// 2. Scalar calls.
const alea = seedrandom.alea('stochax');
const rng = statefulRng(42);
const rngU = statefulRng(43);
const rngN = statefulRng(44);
const NORMAL_CALLS = Math.max(1, Math.floor(CALLS / 50));
const scalar = measure(`Scalar: ${CALLS} calls per round`, [
  { name: 'alea prng()', run: () => { let s = 0; for (let i = 0; i < CALLS; i++) s += alea(); return s; }, times: [], ratios: [] },
  { name: 'rng.random()', run: () => { let s = 0; for (let i = 0; i < CALLS; i++) s += rng.random(); return s; }, times: [], ratios: [] },
  { name: 'Math.random()', run: () => { let s = 0; for (let i = 0; i < CALLS; i++) s += Math.random(); return s; }, times: [], ratios: [] },
  { name: 'rng.uniform(-1, 1)', run: () => { let s = 0; for (let i = 0; i < CALLS; i++) s += rngU.uniform(-1, 1); return s; }, times: [], ratios: [] },
], 'alea prng()', CALLS, 'ns/call');
const normals = measure(`Scalar normals (unbuffered: one key, one random.normal per call), ${NORMAL_CALLS} calls`, [
  { name: 'rng.normal()', run: () => { let s = 0; for (let i = 0; i < NORMAL_CALLS; i++) s += rngN.normal(); return s; }, times: [], ratios: [] },
], 'rng.normal()', NORMAL_CALLS, 'ns/call');

const bulkRatio = median(bulk[1]!.ratios);
const scalarRatio = median(scalar[1]!.ratios);
console.log(`\nrng.random(1e6) / random.uniform(key, [1e6]): ${bulkRatio.toFixed(3)} (target <= 1.10: ${bulkRatio <= 1.1 ? 'met' : 'NOT met'})`);
console.log(`rng.random() / alea prng() per call: ${scalarRatio.toFixed(3)} (target <= 1.00: ${scalarRatio <= 1 ? 'met' : 'NOT met'})`);
void normals;
if (sink === 0) console.log('(sink)');
