/**
 * Chains in parallel from a plain call (`node dist/bench/cores.js`, or `npx tsx bench/cores.ts`,
 * where each worker also registers tsx): `windowedAdaptiveNuts(model, { cores })` with 4 chains,
 * `cores: 1` (in process) against `cores: 2` (this thread and one pooled worker, when the size
 * rule sends the run there), median wall time of 5 runs each, alternating, and the ratio; the
 * first `cores: 2` run, which starts the worker, is reported apart. Two runs:
 *
 * - a ~10-s run: the logistic regression of bench/models (N = 1000, D = 10), 4 chains ×
 *   (BENCH_CORES_WARMUP = 2000 warm-up + BENCH_CORES_DRAWS = 2000 draws);
 * - a ~0.1-s run: eight schools (non-centered), 4 chains × (200 warm-up + 200 draws), which the
 *   size rule keeps in process (the target: not slower than `cores: 1`).
 *
 * Also printed: the process CPU seconds per run (user + system, all threads), each run's
 * `parallel` field, and whether the draws of `cores: 2` equal `cores: 1`'s bit for bit (they
 * must). On Linux, also the busiest thread's CPU seconds (from /proc/self/task/<tid>/stat) and the
 * speed-up they imply on two otherwise idle cores: the `cores: 1` run's CPU seconds over the
 * `cores: 2` run's busiest thread's. On a machine shared with other sessions (the kernel's
 * autogroup scheduling gives each session one share, however many threads it runs), the
 * wall-time ratio cannot show the second core; that projection still can.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { nonCentered, y } from '../examples/eight-schools.js';
import { windowedAdaptiveNuts, type WindowedAdaptiveNutsOptions } from '../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';
import { model as logReg, pins as logRegPins } from './models/logistic-regression.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = Number(process.env.BENCH_CORES_WARMUP ?? 2000), DRAWS = Number(process.env.BENCH_CORES_DRAWS ?? 2000);

type Case = { name: string; run: (cores: number) => ReturnType<typeof windowedAdaptiveNuts> };
const opts = (o: WindowedAdaptiveNutsOptions): WindowedAdaptiveNutsOptions => ({ nChains: 4, seed: 11, ...o });
const cases: Case[] = [
  { name: `logistic regression, 4 × (${WARMUP} + ${DRAWS})`, run: (cores) => windowedAdaptiveNuts(logReg, opts({ pins: logRegPins, numAdaptationSteps: WARMUP, nDraws: DRAWS, cores })) },
  { name: 'eight schools, 4 × (200 + 200)', run: (cores) => windowedAdaptiveNuts(nonCentered, opts({ pins: { y }, numAdaptationSteps: 200, nDraws: 200, cores })) },
];

/** Every draw's bits, for the equality check. */
const bits = (draws: Record<string, Tensor>) => Object.values(draws).map((t) => Array.from(new Uint32Array(Float64Array.from(t.data as Float64Array).buffer)).join(',')).join(';');

/** CPU seconds of each thread of this process (Linux; empty elsewhere). */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const f = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) / 100);    // utime + stime, in ticks of 1/100 s
    }
  } catch { /* not Linux */ }
  return out;
}

function timed(c: Case, cores: number) {
  const threads0 = threadCpu(), cpu0 = process.cpuUsage(), t0 = performance.now();
  const r = c.run(cores);
  const wall = (performance.now() - t0) / 1000, cpu = process.cpuUsage(cpu0), threads1 = threadCpu();
  let busiest = 0;
  for (const [tid, t] of threads1) busiest = Math.max(busiest, t - (threads0.get(tid) ?? 0));
  return { wall, cpu: (cpu.user + cpu.system) / 1e6, busiest, r };
}

// Warm the JIT on a short in-process run.
windowedAdaptiveNuts(nonCentered, opts({ pins: { y }, numAdaptationSteps: 50, nDraws: 50, cores: 1 }));
console.log(`windowedAdaptiveNuts({ cores }): median wall seconds of ${ROUNDS} runs (CPU seconds in brackets), cores: 1 vs cores: 2`);
const fmt = (x: number) => x.toFixed(3);
for (const c of cases) {
  const first = timed(c, 2);
  const one: ReturnType<typeof timed>[] = [], two: ReturnType<typeof timed>[] = [];
  for (let i = 0; i < ROUNDS; i++) { one.push(timed(c, 1)); two.push(timed(c, 2)); }
  const w1 = median(one.map((t) => t.wall)), w2 = median(two.map((t) => t.wall));
  const c1 = median(one.map((t) => t.cpu)), c2 = median(two.map((t) => t.cpu)), b2 = median(two.map((t) => t.busiest));
  const same = bits(one[0]!.r.draws as Record<string, Tensor>) === bits(two[0]!.r.draws as Record<string, Tensor>);
  console.log(`  ${c.name}`);
  console.log(`    cores 1: ${fmt(w1)} s [${fmt(c1)}]   cores 2: ${fmt(w2)} s [${fmt(c2)}]   speed-up ${(w1 / w2).toFixed(2)}×   first cores-2 run ${fmt(first.wall)} s`);
  if (b2 > 0) console.log(`    busiest thread with cores 2: ${fmt(b2)} CPU s; on two idle cores: ${(c1 / b2).toFixed(2)}× (cores-1 CPU s ÷ that)`);
  console.log(`    parallel: ${JSON.stringify(two[0]!.r.parallel)}; same draws: ${same}`);
  if (!same) process.exitCode = 1;
}
