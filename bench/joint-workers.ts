/**
 * Joint-model chains on worker threads (`npm run bench` runs it compiled, as
 * `node dist/bench/joint-workers.js`, the JavaScript package users run; under
 * `npx tsx bench/joint-workers.ts` every worker first registers tsx and compiles the library's
 * TypeScript, ~2 s more start-up): `windowedAdaptiveNutsChains` on the simulated logistic regression of
 * bench/models/logistic-regression.ts (N = 1000, D = 10, compiled log density), 4 chains ×
 * (BENCH_WARMUP warm-up + BENCH_DRAWS draws), with `workers: 0` (the chains one after another in
 * this thread, as `windowedAdaptiveNuts` runs them) and `workers: 2`, wall time of the whole
 * call (the workers' start-up, module loading and compiling included). The issue's target is
 * ≥ 1.8× on 2 cores for a run of ~10 s. The draws are checked bit for bit.
 *
 * Options: BENCH_WARMUP (default 500), BENCH_DRAWS (default 500), BENCH_ROUNDS (default 1; the
 * median ratio over rounds is printed).
 */
import { windowedAdaptiveNutsChains } from '../mcmc/parallel/windowed-chains.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 500);
const DRAWS = Number(process.env.BENCH_DRAWS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
// The model module next to this file: .ts under tsx, .js when run compiled from dist/.
const model = new URL(`./models/logistic-regression${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

async function timed(workers: number): Promise<{ secs: number; beta: Tensor }> {
  const t0 = performance.now();
  const { draws } = await windowedAdaptiveNutsChains({ model, workers, nChains: 4, seed: 0, numAdaptationSteps: WARMUP, nDraws: DRAWS });
  return { secs: (performance.now() - t0) / 1000, beta: (draws as Record<string, Tensor>).beta! };
}

const ratios: number[] = [];
let serial = 0, parallel = 0;
for (let r = 0; r < ROUNDS; r++) {
  const a = await timed(0), b = await timed(2);
  const same = a.beta.data.length === b.beta.data.length && (a.beta.data as Float64Array).every((v, i) => Object.is(v, b.beta.data[i]));
  if (!same) throw new Error('joint-workers bench: the 2-worker draws differ from the serial ones');
  serial = a.secs; parallel = b.secs;
  ratios.push(a.secs / b.secs);
}
console.log(`windowedAdaptiveNutsChains, logistic regression (N = 1000, D = 10), 4 chains × (${WARMUP} warm-up + ${DRAWS} draws):`);
console.log(`  workers: 0 ${serial.toFixed(2)} s, workers: 2 ${parallel.toFixed(2)} s → ${median(ratios).toFixed(2)}× (draws bit-identical${ROUNDS > 1 ? `; median of ${ROUNDS} rounds` : ''})`);
