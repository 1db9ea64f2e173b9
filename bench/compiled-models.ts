/**
 * Compiled log densities against the tape and against hand-written JavaScript
 * (`npx tsx bench/compiled-models.ts`): µs per value-and-gradient call of one draw's
 * unconstrained log density, for
 *
 * - eight schools, non-centered (examples/eight-schools.ts, y pinned; 10 coordinates);
 * - logistic regression, N = 1000 rows, D = 10 covariates simulated from a fixed-seed LCG:
 *   β ~ Normal(0, 1) [D], α ~ Normal(0, 5), y ~ Bernoulli(logits = α + X·β) (y pinned; 11
 *   coordinates).
 *
 * Three columns per model, all over the same Float64Array point:
 * - compiled: `compileLogDensity(model, { pins }).logDensityGradient(x, grad)`;
 * - tape: `valueAndGrad` of the flat model's target (`flatModel(...).target`, the path
 *   `windowedAdaptiveNuts(..., { compile: false })` and every sampler used before the
 *   compiler), with x copied into one tensor per node and the gradients copied back;
 * - hand: the same density written out in plain JavaScript (bench/hand-written.ts), checked at
 *   start-up to agree with the compiled value and gradient to 1e-10 relative at a few points.
 *
 * Timings are medians over interleaved rounds (each round times a batch of ~30 ms of calls of
 * every column, in rotating order, each batch after a full GC so one column's garbage is not
 * collected in another's time), and the ratios are medians of same-round ratios. Calls cycle
 * over four points and every value is consumed. Two tables: the process's CPU time (which a
 * shared, loaded machine disturbs far less; it includes GC helper threads) and wall time.
 *
 * Then an allocation check of the compiled path: 100,000 `logDensityGradient` calls per model,
 * counting garbage collections (a PerformanceObserver on 'gc' entries) and the change of V8's
 * used heap size. The heap is collected first (`gc` exposed through v8.setFlagsFromString), so
 * with no GC during the calls the heap change is the bytes they allocated (Node 20's
 * getHeapStatistics has no allocation counter); the hand-written (allocation-free) and tape
 * columns are run beside it as controls, with fewer calls. A model whose 100,000 calls would
 * take longer than BENCH_ALLOC_SECONDS at the measured speed gets fewer (the line says so).
 *
 * Options: BENCH_ROUNDS (default 15), BENCH_ALLOC_CALLS (default 100000), BENCH_ALLOC_SECONDS
 * (default 5), BENCH_QUICK=1 (3 short rounds, at most 10,000 calls and 0.5 s per model in the
 * allocation check: a smoke run).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { nonCentered, sigma, y as schoolsY } from '../examples/eight-schools.js';
import { compileLogDensity, JointDistributionNamed, type CompiledLogDensity } from '../distributions/index.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, StructKind } from '../distributions/joint/values.js';
import { valueAndGrad } from '../src/tensor/autodiff.js';
import { Tensor } from '../src/tensor/tensor.js';
import { eightSchoolsNonCentered, logisticRegression, type ValueAndGrad } from './hand-written.js';
import { median } from './median.js';
import { D, lcg, model as logReg, N, normal, pins as regressionPins, X, yReg } from './models/logistic-regression.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 15));
const BATCH_MS = quick ? 5 : 30;              // wall time of one timed batch of calls
const WARM_MS = quick ? 150 : 600;            // warm-up per column before timing
const ALLOC_CALLS = Number(process.env.BENCH_ALLOC_CALLS ?? (quick ? 10_000 : 100_000));
const ALLOC_SECONDS = Number(process.env.BENCH_ALLOC_SECONDS ?? (quick ? 0.5 : 5));   // per model: fewer calls if slower

// `gc()` for a clean heap before every timed batch (so one column's garbage is not collected in
// another's time) and before the allocation check.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (() => void) | undefined;

const started = performance.now();

/** The tape's value and gradient of the flat model's target, over the same flat x. */
function tape(ld: CompiledLogDensity): ValueAndGrad {
  const m = flatModel('bench', ld.model as JointDistributionPinned<StructKind>);
  const vg = valueAndGrad((...xs: Tensor[]) => m.target(...xs), m.names.map((_, j) => j));
  const params = ld.params;
  return (x, grad) => {
    const parts = params.map((p) => new Tensor(x.slice(p.offset, p.offset + p.size), [p.size], 'float64'));
    const [v, g] = vg(...parts) as [Tensor, Tensor[]];
    g.forEach((t, j) => grad.set(t.data as Float64Array, params[j]!.offset));
    return (v.data as Float64Array)[0]!;
  };
}

interface Model {
  name: string;
  ld: CompiledLogDensity;
  compileMs: number;
  columns: { compiled: ValueAndGrad; tape: ValueAndGrad; hand: ValueAndGrad };
  points: Float64Array[];
}

function setup(name: string, model: JointDistributionNamed, pins: PartialValues, hand: (ld: CompiledLogDensity) => ValueAndGrad, scale: number, seed: number): Model {
  const t0 = performance.now();
  const ld = compileLogDensity(model, { pins });
  const compileMs = performance.now() - t0;
  const r = lcg(seed);
  const points = Array.from({ length: 4 }, () => Float64Array.from({ length: ld.dim }, () => scale * normal(r)));
  return { name, ld, compileMs, columns: { compiled: (x, g) => ld.logDensityGradient(x, g), tape: tape(ld), hand: hand(ld) }, points };
}

const models: Model[] = [
  setup('eight schools nc (10-d)', nonCentered, { y: schoolsY }, (ld) => eightSchoolsNonCentered(ld.params, schoolsY.data as ArrayLike<number>, sigma.data as ArrayLike<number>), 1, 1),
  setup(`logistic regression N=${N} D=${D} (${D + 1}-d)`, logReg, regressionPins, (ld) => logisticRegression(ld.params, X, yReg, D), 0.3, 2),
];

/** Throws unless the hand-written (and the tape's) value and gradient match the compiled ones to 1e-10 relative. */
function check(m: Model): number {
  let worst = 0;
  for (const x of m.points) {
    const ref = new Float64Array(m.ld.dim);
    const v = m.columns.compiled(x, ref);
    for (const col of ['hand', 'tape'] as const) {
      const g = new Float64Array(m.ld.dim);
      const w = m.columns[col](x, g);
      const rel = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));
      const errs = [rel(v, w), ...Array.from(ref, (a, k) => rel(a, g[k]!))];
      const e = Math.max(...errs);
      if (!(e <= 1e-10)) {
        const k = errs.indexOf(e);
        const what = k === 0 ? `value ${w} vs compiled ${v}` : `gradient[${k - 1}] (${m.ld.paramNames[k - 1]}) ${g[k - 1]} vs compiled ${ref[k - 1]}`;
        throw new Error(`compiled-models: ${col} ${m.name} disagrees with the compiled density at x = [${Array.from(x, (c) => c.toFixed(3)).join(', ')}]: ${what} (relative error ${e.toExponential(2)})`);
      }
      if (col === 'hand') worst = Math.max(worst, e);
    }
  }
  return worst;
}

const COLUMNS = ['compiled', 'tape', 'hand'] as const;
type Column = typeof COLUMNS[number];
let sink = 0;

/**
 * Runs `calls` calls of `f`, cycling over the model's points (after a full GC unless `collect`
 * is false); returns seconds of wall time and of the process's CPU time (user + system).
 */
function time(m: Model, f: ValueAndGrad, calls: number, grad: Float64Array, collect = true): { wall: number; cpu: number } {
  const pts = m.points;
  let s = 0;
  if (collect) gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) s += f(pts[i & 3]!, grad);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  sink += s;
  return { wall, cpu: (c.user + c.system) / 1e6 };
}

console.log(`compiled log densities: µs per value-and-gradient call (one draw), medians of ${ROUNDS} interleaved rounds, node ${process.version}`);
for (const m of models) {
  const worst = check(m);
  console.log(`  ${m.name}: compiled in ${m.compileMs.toFixed(0)} ms; hand-written agrees with it (max relative error ${worst.toExponential(1)}); params ${m.ld.params.map((p) => `${p.name}@${p.offset}`).join(', ')}`);
}

type Clock = 'cpu' | 'wall';
interface Timings { us: Record<Column, number[]>; compiledOverHand: number[]; tapeOverCompiled: number[] }
const results = models.map((m) => {
  const grad = new Float64Array(m.ld.dim);
  // Warm up for WARM_MS (V8 takes a few thousand calls to optimize the compiled program and its
  // kernels: the first 250 calls of eight schools average ~15× the steady state), then size each
  // column's batch to BATCH_MS from the last warm-up chunk's speed.
  const calls = {} as Record<Column, number>;
  for (const c of COLUMNS) {
    let n = 1, total = 0, dt = 0;
    for (;;) {
      dt = time(m, m.columns[c], n, grad, false).wall;
      total += dt;
      if (total * 1000 >= WARM_MS && dt * 1000 >= BATCH_MS / 4) break;
      if (dt * 1000 < BATCH_MS / 4) n *= 2;
    }
    calls[c] = Math.max(1, Math.round(n * BATCH_MS / 1000 / dt));
  }
  const clocks: Record<Clock, Timings> = {
    cpu: { us: { compiled: [], tape: [], hand: [] }, compiledOverHand: [], tapeOverCompiled: [] },
    wall: { us: { compiled: [], tape: [], hand: [] }, compiledOverHand: [], tapeOverCompiled: [] },
  };
  for (let r = 0; r < ROUNDS; r++) {
    const round = { cpu: {}, wall: {} } as Record<Clock, Record<Column, number>>;
    for (let j = 0; j < COLUMNS.length; j++) {
      const c = COLUMNS[(j + r) % COLUMNS.length]!;
      const t = time(m, m.columns[c], calls[c], grad);
      for (const k of ['cpu', 'wall'] as const) { round[k][c] = t[k] / calls[c] * 1e6; clocks[k].us[c].push(round[k][c]); }
    }
    for (const k of ['cpu', 'wall'] as const) {
      clocks[k].compiledOverHand.push(round[k].compiled / round[k].hand);
      clocks[k].tapeOverCompiled.push(round[k].tape / round[k].compiled);
    }
  }
  return { m, clocks };
});

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
for (const [k, title] of [['cpu', 'CPU time (process user + system: robust to a shared machine)'], ['wall', 'wall time']] as const) {
  console.log(`\n${title}:`);
  console.log('| model | compiled µs | tape µs | hand µs | compiled/hand | tape/compiled |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { m, clocks } of results) {
    const t = clocks[k];
    console.log(`| ${m.name} | ${fmt(median(t.us.compiled))} | ${fmt(median(t.us.tape))} | ${fmt(median(t.us.hand))} | ${median(t.compiledOverHand).toFixed(2)} | ${median(t.tapeOverCompiled).toFixed(1)} |`);
  }
}

// Allocation check.
let gcs = 0;
const observer = new PerformanceObserver((list) => { gcs += list.getEntries().length; });
observer.observe({ entryTypes: ['gc'] });
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));   // gc entries arrive asynchronously

/** `calls` calls of column `c` from a collected heap: GCs during them and the heap's change. */
async function heapRun(m: Model, c: Column, calls: number): Promise<{ gcs: number; delta: number; secs: number }> {
  const grad = new Float64Array(m.ld.dim);
  gc?.();
  await flush();
  gcs = 0;
  const before = getHeapStatistics().used_heap_size;
  const secs = time(m, m.columns[c], calls, grad, false).wall;
  const after = getHeapStatistics().used_heap_size;
  await flush();
  return { gcs, delta: after - before, secs };
}

async function allocations(m: Model, c: Column, calls: number): Promise<string> {
  time(m, m.columns[c], Math.min(calls, 1000), new Float64Array(m.ld.dim));   // warm
  const { gcs: n, delta, secs } = await heapRun(m, c, calls);
  const kb = (b: number) => (Math.abs(b) >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : `${(b / 1024).toFixed(0)} KB`);
  let perCall = n === 0 ? `, ${(delta / calls).toFixed(0)} B/call` : '';
  if (n > 0) {   // the heap change spans collections: size the allocation on a run short enough to need none
    for (const k of [1000, 100, 10]) {
      const r = k < calls ? await heapRun(m, c, k) : undefined;
      if (r !== undefined && r.gcs === 0) { perCall = ` (≈ ${(r.delta / k).toFixed(0)} B/call, from ${k} calls without a GC)`; break; }
    }
  }
  return `${calls} calls: ${n} GCs, heap ${delta >= 0 ? '+' : ''}${kb(delta)}${perCall}, ${secs.toFixed(2)} s`;
}

/** ALLOC_CALLS, or fewer if they would take longer than `seconds` at the measured µs per call. */
const callsWithin = (us: number, max: number, seconds: number) => Math.max(100, Math.min(max, Math.floor(seconds * 1e6 / us)));

console.log(`\nAllocation check: GCs during the calls and the used heap's change from a collected heap${gc ? '' : ' (gc not exposed: GC counts only)'}.`);
console.log('The hand-written column is the floor of this harness: ~16 B/call is the boxed double each call returns.');
for (const { m, clocks: { wall: { us } } } of results) {
  const calls = callsWithin(median(us.compiled), ALLOC_CALLS, ALLOC_SECONDS);
  const capped = calls < ALLOC_CALLS ? ` [capped from ${ALLOC_CALLS} by BENCH_ALLOC_SECONDS=${ALLOC_SECONDS}]` : '';
  console.log(`  ${m.name}, compiled: ${await allocations(m, 'compiled', calls)}${capped}`);
  console.log(`  ${m.name}, hand (control): ${await allocations(m, 'hand', callsWithin(median(us.hand), ALLOC_CALLS, ALLOC_SECONDS / 4))}`);
  console.log(`  ${m.name}, tape (control): ${await allocations(m, 'tape', callsWithin(median(us.tape), ALLOC_CALLS, ALLOC_SECONDS / 8))}`);
}
observer.disconnect();
console.log(`(checksum ${sink.toFixed(3)}; ${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
