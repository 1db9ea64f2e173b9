/**
 * `npx tsx bench/gamma.ts`: stochax's `random.gamma(key, 2.5, [N])` (float64, the default x64
 * partitionable mode; it allocates its result) beside @stdlib's `random-base-gamma`
 * (Marsaglia–Tsang on MT19937) filling a preallocated array with N values, both as the plain
 * call `gamma(2.5, 1)` and through the pre-bound `factory(2.5, 1)`, in interleaved rounds
 * (rotating order). Reports medians and the median same-round speed ratios. Every result is
 * consumed so nothing is optimised away.
 *
 * Options: BENCH_N (values per round, default 1e6), BENCH_ROUNDS (default 9).
 */
import stdlibGamma from '@stdlib/random-base-gamma';
import { random } from '../src/index.js';
import { gamma } from '../src/random/gamma.js';
import { median } from './median.js';

const N = Number(process.env.BENCH_N ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const key = random.key(42);
const bound = stdlibGamma.factory(2.5, 1, { seed: 42 });
const stdlibOut = new Float64Array(N);
let last: ArrayLike<number> = stdlibOut;

interface Entry { name: string; run: () => ArrayLike<number> }
const entries: Entry[] = [
  { name: `stochax random.gamma(key, 2.5, [${N}]) float64`, run: () => gamma(key, 2.5, [N]).data },
  { name: '@stdlib random-base-gamma gamma(2.5, 1)', run: () => { for (let i = 0; i < N; i++) stdlibOut[i] = stdlibGamma(2.5, 1); return stdlibOut; } },
  { name: '@stdlib random-base-gamma factory(2.5, 1)()', run: () => { for (let i = 0; i < N; i++) stdlibOut[i] = bound(); return stdlibOut; } },
];

function consume(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i += 997) s += xs[i]!;
  if (Number.isNaN(s)) throw new Error('NaN in a benchmark result');
  return s;
}


console.log(`gamma bench: ${N.toLocaleString()} values per round, ${ROUNDS} interleaved rounds, node ${process.version}`);
for (const e of entries) for (let w = 0; w < 2; w++) consume(e.run());   // warm-up

const times = entries.map(() => [] as number[]);
const ratios = entries.map(() => [] as number[]);
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  const round: number[] = [];
  for (let j = 0; j < entries.length; j++) {
    const i = (j + r) % entries.length;
    const t0 = process.hrtime.bigint();
    last = entries[i]!.run();
    const dt = Number(process.hrtime.bigint() - t0) / 1e9;
    sink += consume(last);
    times[i]!.push(dt);
    round[i] = dt;
  }
  entries.forEach((_, i) => ratios[i]!.push(round[i]! / round[0]!));
}

console.log('\n| sampler | M samples/s (median) | ns/sample |');
console.log('|---|---:|---:|');
entries.forEach((e, i) => {
  const t = median(times[i]!);
  console.log(`| ${e.name} | ${(N / t / 1e6).toFixed(2)} | ${((t / N) * 1e9).toFixed(1)} |`);
});
for (let i = 1; i < entries.length; i++) {
  console.log(`stochax speed / ${entries[i]!.name}: ${median(ratios[i]!).toFixed(2)}× (median of same-round ratios)`);
}
console.log(`(checksum ${sink.toFixed(3)})`);
