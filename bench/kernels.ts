/**
 * Quick throughput check of the wasm SIMD128 kernels against the pure-JS kernels and
 * Math.random (run: `npm run build:wasm && npx tsx bench/kernels.ts [rounds] [millions]`).
 *
 * Every generator fills the same preallocated arrays (10M float64 values; philox 10M uint32
 * words = 2.5M blocks). After a warm-up, R interleaved rounds run every generator once per round
 * in a rotated order; the table shows the median over rounds and the median same-round ratio
 * to Math.random.
 */
import { philoxFillJs } from '../src/prng/philox.js';
import { threefryFillJs } from '../src/prng/threefry.js';
import { philoxFill, threefryFill, wasmAvailable, wasmScratch } from '../src/prng/wasm.js';
import { median } from './median.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const N = Math.round(Number(process.argv[3] ?? 10) * 1e6);

const f64 = new Float64Array(N).fill(1);
const u32 = new Uint32Array(N).fill(1);
const K0 = 0x13198a2e, K1 = 0x03707344;

interface Gen {
  name: string;
  unit: string;
  /** Fill `count` values starting at counter `start`. */
  run: (count: number, start: number) => void;
  times: number[];
}

function mathRandomFill(out: Float64Array, count: number): void {
  for (let i = 0; i < count; i++) out[i] = Math.random();
}

const gens: Gen[] = [
  { name: 'threefryFill f64 (wasm, copy)', unit: 'values', run: (c, s) => threefryFill('f64', K0, K1, 0, s, 0, c, f64), times: [] },
  { name: 'threefryFillJs f64 (JS)', unit: 'values', run: (c, s) => threefryFillJs('f64', K0, K1, 0, s, 0, c, f64), times: [] },
  { name: 'Math.random loop', unit: 'values', run: (c) => mathRandomFill(f64, c), times: [] },
  { name: 'philoxFill (wasm, copy)', unit: 'words', run: (c, s) => philoxFill([K0, K1], [s, 0, 0, 0], c >> 2, u32), times: [] },
  { name: 'philoxFillJs (JS)', unit: 'words', run: (c, s) => philoxFillJs([K0, K1], [s, 0, 0, 0], c >> 2, u32), times: [] },
];

// Zero-copy variants: the destination is a view on wasm memory (threefryFill/philoxFill write
// straight into it). Only when wasm loaded.
const scratch = wasmScratch(8 * N);
if (scratch !== null) {
  const zf64 = new Float64Array(scratch.buffer, scratch.byteOffset, N);
  gens.splice(1, 0, { name: 'threefryFill f64 (wasm, zero-copy view)', unit: 'values', run: (c, s) => threefryFill('f64', K0, K1, 0, s, 0, c, zf64), times: [] });
  const zu32 = new Uint32Array(scratch.buffer, scratch.byteOffset, N);
  gens.push({ name: 'philoxFill (wasm, zero-copy view)', unit: 'words', run: (c, s) => philoxFill([K0, K1], [s, 0, 0, 0], c >> 2, zu32), times: [] });
}

console.log(`node ${process.version}, wasm SIMD kernels ${wasmAvailable() ? 'loaded' : 'NOT available (JS fallback)'}`);
console.log(`N = ${N} values per fill, ${ROUNDS} interleaved rounds, median\n`);

// Warm-up: many small calls, then two full fills per generator.
for (const g of gens) for (let i = 0; i < 300; i++) g.run(4096, i * 4096);
for (const g of gens) { g.run(N, 0); g.run(N, 1); }

const mathIdx = gens.findIndex((g) => g.name === 'Math.random loop');
const ratios: number[][] = gens.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  const t: number[] = new Array(gens.length).fill(0);
  for (let j = 0; j < gens.length; j++) {
    const idx = (j + r) % gens.length;
    const g = gens[idx]!;
    const t0 = performance.now();
    g.run(N, r * N);
    t[idx] = performance.now() - t0;
    g.times.push(t[idx]!);
  }
  for (let j = 0; j < gens.length; j++) ratios[j]!.push(t[j]! / t[mathIdx]!);
}


const rows = gens.map((g, j) => {
  const ms = median(g.times);
  const best = Math.min(...g.times);
  return {
    generator: g.name,
    'median ms': ms.toFixed(1),
    [`M/s (median)`]: (N / ms / 1e3).toFixed(0),
    'M/s (best)': (N / best / 1e3).toFixed(0),
    unit: g.unit,
    'speed vs Math.random (same round)': (1 / median(ratios[j]!)).toFixed(2) + 'x',
  };
});
console.table(rows);

const byName = (name: string): number => median(gens.find((g) => g.name === name)!.times);
const pxWasm = byName('philoxFill (wasm, copy)'), pxJs = byName('philoxFillJs (JS)');
const tfWasm = byName('threefryFill f64 (wasm, copy)'), tfJs = byName('threefryFillJs f64 (JS)');
console.log(`\nthreefry f64: wasm (copy) / JS speed-up ${(tfJs / tfWasm).toFixed(2)}x; philox: wasm (copy) / JS speed-up ${(pxJs / pxWasm).toFixed(2)}x`);
