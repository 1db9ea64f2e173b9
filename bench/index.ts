/**
 * `npm run bench`: stochax beside its peers in one process, printed as ratios.
 *
 * Bulk throughput uses interleaved rounds: every generator fills the same preallocated
 * Float64Array once per round, in rotating order, and the table reports medians and the
 * median same-round ratio to Math.random (the least noise-sensitive figure on a shared VM;
 * see reference/performance.md). Every fill is consumed (summed) so nothing is optimised away.
 * Per-call latency of small key operations is measured with mitata.
 *
 * Options: BENCH_N (values per fill, default 10M), BENCH_ROUNDS (default 7), BENCH_QUICK=1
 * (1M values, 3 rounds, no mitata: a smoke run).
 */
import { bench, run } from 'mitata';
import seedrandom from 'seedrandom';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import mt19937 from '@stdlib/random-base-mt19937';
import { random } from '../src/index.js';
import { philox4x32Rounds, philoxFill, philoxFillJs, threefryFill, threefryFillJs } from '../src/prng/index.js';
import { wasmAvailable, wasmScratch } from '../src/prng/wasm.js';

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

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

console.log(`stochax bench: ${N.toLocaleString()} values per fill, ${ROUNDS} interleaved rounds, node ${process.version}, wasm SIMD ${wasmAvailable() ? 'on' : 'OFF'}`);
// Warm-up: every entry a few times on its own, so no timed run is cold (OSR) code.
for (const e of entries) for (let w = 0; w < 2; w++) { e.fill(); consume(e); }

const times = new Map<string, number[]>(entries.map((e) => [e.name, []]));
const ratios = new Map<string, number[]>(entries.map((e) => [e.name, []]));
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  const round = new Map<string, number>();
  for (let j = 0; j < entries.length; j++) {
    const e = entries[(j + r) % entries.length]!;
    const t0 = process.hrtime.bigint();
    e.fill();
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    sink += consume(e);
    round.set(e.name, dt);
    times.get(e.name)!.push(dt);
  }
  for (const e of entries) ratios.get(e.name)!.push(round.get('Math.random')! / round.get(e.name)!);
}

const rows = entries.map((e) => {
  const t = median(times.get(e.name)!);
  return { name: e.name, mps: e.values / t / 1e6, ns: (t / e.values) * 1e9, vsMath: median(ratios.get(e.name)!) };
});
const naive = rows.find((r) => r.name.startsWith('philox4x32 naive'))!;
console.log('\n| generator | M values/s | ns/value | × Math.random (same round) | × philox naive |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) {
  const vsNaive = r.name.startsWith('philox') ? (r.mps / naive.mps).toFixed(2) : '';
  console.log(`| ${r.name} | ${r.mps.toFixed(1)} | ${r.ns.toFixed(2)} | ${r.vsMath.toFixed(2)} | ${vsNaive} |`);
}
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
