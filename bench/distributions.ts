/**
 * Distributions speed (`npx tsx bench/distributions.ts`, also run by `npm run bench`):
 * - `Normal.logProb` over 1e6 float64 values beside jStat's `normal.pdf` followed by `Math.log`
 *   (issue 6 target: at least 5× jStat), and beside @stdlib's `normal-logpdf`;
 * - `Gamma.sample(1e6)` (TFP's log-space rejection structure) beside `random.gamma` directly
 *   (issue 6 target: within 1.5×) and `samplers.gamma`.
 * Interleaved rounds in rotating order; medians and median same-round ratios.
 *
 * Options: BENCH_N (default 1e6), BENCH_ROUNDS (default 7).
 */
import jStat from 'jstat';
import stdlibNormalLogpdf from '@stdlib/stats-base-dists-normal-logpdf';
import { Normal } from '../distributions/normal.js';
import { Gamma } from '../distributions/gamma.js';
import { random, samplers } from '../src/index.js';
import { median } from './median.js';

const N = Number(process.env.BENCH_N ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const xs = new Float64Array(N);
for (let i = 0; i < N; i++) xs[i] = -4 + (8 * i) / N;
const out = new Float64Array(N);
const normal = new Normal({ loc: 0.5, scale: 1.5 });
const gammaDist = new Gamma({ concentration: 2.5, rate: 1 });
const key = random.key(42);

interface Entry { name: string; group: string; run: () => ArrayLike<number> }
const entries: Entry[] = [
  { group: 'logpdf', name: 'stochax Normal.logProb(1e6 values)', run: () => normal.logProb(xs).data as Float64Array },
  { group: 'logpdf', name: 'jStat.normal.pdf then Math.log', run: () => { for (let i = 0; i < N; i++) out[i] = Math.log(jStat.normal.pdf(xs[i]!, 0.5, 1.5)); return out; } },
  { group: 'logpdf', name: '@stdlib normal-logpdf', run: () => { for (let i = 0; i < N; i++) out[i] = stdlibNormalLogpdf(xs[i]!, 0.5, 1.5); return out; } },
  { group: 'gamma', name: 'stochax Gamma({2.5, 1}).sample(1e6)', run: () => gammaDist.sample(N, { seed: 1 }).data as Float64Array },
  { group: 'gamma', name: 'stochax random.gamma(key, 2.5, [1e6])', run: () => random.gamma(key, 2.5, [N]).data as Float64Array },
  { group: 'gamma', name: 'stochax samplers.gamma([1e6], {alpha: 2.5})', run: () => samplers.gamma([N], { alpha: 2.5, seed: 1 }).data as Float64Array },
];

let sink = 0;
const consume = (v: ArrayLike<number>) => { let s = 0; for (let i = 0; i < v.length; i += 997) s += v[i]!; sink += s; };

for (const e of entries) for (let w = 0; w < 2; w++) consume(e.run());
const times = new Map<string, number[]>(entries.map((e) => [e.name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < entries.length; j++) {
    const e = entries[(j + r) % entries.length]!;
    const t0 = performance.now();
    consume(e.run());
    times.get(e.name)!.push(performance.now() - t0);
  }
}
console.log(`distributions bench: ${N.toLocaleString()} values, ${ROUNDS} interleaved rounds, node ${process.version}`);
for (const group of ['logpdf', 'gamma']) {
  const es = entries.filter((e) => e.group === group);
  const base = es[0]!;
  console.log(`\n| ${group} | median ms | stochax first row speed ratio |\n|---|---:|---:|`);
  for (const e of es) {
    const ratios = times.get(e.name)!.map((t, r) => t / times.get(base.name)![r]!);
    console.log(`| ${e.name} | ${median(times.get(e.name)!).toFixed(2)} | ${e === base ? '1' : `${median(ratios).toFixed(2)}×`} |`);
  }
}
console.log(`(checksum ${sink.toFixed(3)})`);
