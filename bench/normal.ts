/**
 * Standard normals: the deterministic wasm/JS paths (src/random/normal-fill.ts) against today's
 * `random.normal`, @stdlib's random-base-normal and Box–Muller over Math.random (float64), plus
 * the float32 paths
 * (run: `npm run build:wasm && npx tsx bench/normal.ts [rounds] [millions]`).
 *
 * Every generator fills (or, for random.normal, returns) N float64 normals. After a warm-up, R
 * interleaved rounds run every generator once per round in a rotated order. The table shows
 * medians over rounds of wall-clock and of process CPU time (user + system; less sensitive to
 * other processes on a shared machine) and the median same-round wall-time ratio to @stdlib.
 */
import normalStd from '@stdlib/random-base-normal';
import { threefryFill, wasmAvailable, wasmScratch } from '../src/prng/wasm.js';
import { erfinv64 } from '../src/random/erfinv.js';
import { random } from '../src/index.js';
import { normalF32Fill, normalF32FillJs, normalF64Fill, normalF64FillJs, normalWasmActive } from '../src/random/normal-fill.js';
import { cpus, loadavg } from 'node:os';
import { median } from './median.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const N = Math.round(Number(process.argv[3] ?? 4) * 1e6);
const K0 = 0x13198a2e, K1 = 0x03707344;

const out = new Float64Array(N);
const out32 = new Float32Array(N);
const stdNormal = normalStd.factory(0, 1, { seed: 12345 }) as unknown as () => number;
const key = random.key(7);
const LO = -(1 - 2 ** -53);

interface Gen { name: string; run: (round: number) => void; wall: number[]; cpu: number[]; ratio: number[] }

function boxMuller(a: Float64Array): void {
  const n = a.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - Math.random()));
    const t = 2 * Math.PI * Math.random();
    a[i] = r * Math.cos(t);
    a[i + 1] = r * Math.sin(t);
  }
  if (i < n) a[i] = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
}

const gens: Gen[] = [
  { name: 'normalF64Fill (new; wasm, into a JS Float64Array)', run: (r) => normalF64Fill(K0, K1, 0, r * N, 0, N, out), wall: [], cpu: [], ratio: [] },
  { name: 'normalF64FillJs (new; pure-JS fallback)', run: (r) => normalF64FillJs(K0, K1, 0, r * N, 0, N, out), wall: [], cpu: [], ratio: [] },
  { name: 'random.normal float64 (today: wasm uniforms + JS erfinv64, new array)', run: () => { random.normal(key, [N]); }, wall: [], cpu: [], ratio: [] },
  {
    name: 'old transform in place (threefryFill + Math.SQRT2*erfinv64)',
    run: (r) => {
      threefryFill('f64', K0, K1, 0, r * N, 0, N, out);
      for (let i = 0; i < N; i++) out[i] = Math.SQRT2 * erfinv64(2 * out[i]! + LO);
    },
    wall: [], cpu: [], ratio: [],
  },
  { name: '@stdlib/random-base-normal factory(0, 1)', run: () => { for (let i = 0; i < N; i++) out[i] = stdNormal(); }, wall: [], cpu: [], ratio: [] },
  { name: 'Box-Muller over Math.random', run: () => boxMuller(out), wall: [], cpu: [], ratio: [] },
  { name: 'float32: normalF32Fill (new; wasm, into a JS Float32Array)', run: (r) => normalF32Fill(K0, K1, 0, r * N, 0, N, out32), wall: [], cpu: [], ratio: [] },
  { name: 'float32: normalF32FillJs (new; pure-JS fallback)', run: (r) => normalF32FillJs(K0, K1, 0, r * N, 0, N, out32), wall: [], cpu: [], ratio: [] },
  { name: 'float32: random.normal (today)', run: () => { random.normal(key, [N], { dtype: 'float32' }); }, wall: [], cpu: [], ratio: [] },
];

const scratch = wasmScratch(8 * N);
if (scratch !== null) {
  const z = new Float64Array(scratch.buffer, scratch.byteOffset, N);
  gens.splice(1, 0, { name: 'normalF64Fill (new; wasm, zero-copy wasmScratch view)', run: (r) => normalF64Fill(K0, K1, 0, r * N, 0, N, z), wall: [], cpu: [], ratio: [] });
}


const cpu = `${cpus()[0]?.model ?? '?'} x${cpus().length}`;
console.log(`node ${process.version}; ${cpu}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; wasm ${wasmAvailable() ? 'loaded' : 'NOT available'}, wasm normals ${normalWasmActive() ? 'on' : 'off'}`);
console.log(`N = ${N} float64 normals per fill, ${ROUNDS} interleaved rounds, medians\n`);

for (const g of gens) for (let i = 0; i < 3; i++) g.run(100 + i);

const stdIdx = gens.findIndex((g) => g.name.startsWith('@stdlib'));
for (let r = 0; r < ROUNDS; r++) {
  const wall: number[] = [];
  for (let j = 0; j < gens.length; j++) {
    const gi = (j + r) % gens.length;
    const g = gens[gi]!;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    g.run(r);
    const t = Number(process.hrtime.bigint() - t0) / 1e6;
    const c = process.cpuUsage(c0);
    g.wall.push(t);
    g.cpu.push((c.user + c.system) / 1e3);
    wall[gi] = t;
  }
  for (let j = 0; j < gens.length; j++) gens[j]!.ratio.push(wall[j]! / wall[stdIdx]!);
}

const rows = gens.map((g) => [
  g.name,
  (N / median(g.wall) / 1e3).toFixed(1),
  (median(g.wall) * 1e6 / N).toFixed(1),
  (N / median(g.cpu) / 1e3).toFixed(1),
  median(g.ratio).toFixed(2),
]);
const head = ['generator', 'M/s (wall)', 'ns/value', 'M/s (cpu time)', 'time / @stdlib (same round)'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ') + ' |';
console.log(line(head));
console.log('|' + w.map((x, i) => (i === 0 ? '-'.repeat(x + 2) : '-'.repeat(x + 1) + ':')).join('|') + '|');
for (const r of rows) console.log(line(r));
console.log(`\nload average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
