/**
 * ESS per CPU second beside Stan's (issue 33) on time series and ODE models: posteriordb's
 * arma11 and garch11 over T = 1000 simulated steps (bench/models/time-series.ts), Lotka–Volterra
 * (posteriordb's hudson_lynx_hare, examples/lotka-volterra.ts, `odeRk45` at Stan's settings) and a
 * one-compartment PK model (examples/pk-one-compartment.ts, `odeRk45`). stochax:
 * `windowedAdaptiveNuts` per chain (Stan's way), 4 chains × (1000 warm-up + 1000 draws) run one
 * after another on one core (`cores: 1`, as Stan's `cores = 1`: worker threads would add their
 * start-up and a second compile to the CPU time); ESS = min bulk ESS over parameters; CPU seconds
 * = user + system of the call (process.cpuUsage), the robust figure on a shared machine. With
 * several seeds, each seed's row and the median over seeds of ESS/CPU s. Stan's row is read from
 * bench/stan/ts-ode-ess.json, written by `Rscript bench/stan/ts-ode-ess.R` (the same settings,
 * data from bench/stan/data/): run the two back to back, since the machine's load changes the
 * CPU time too (hyperthreads, caches).
 *
 * Posterior agreement: each parameter's mean difference in units of the two runs' combined MCSE
 * (|Δ| / √(MCSE₁² + MCSE₂²)), and the ratio of sds.
 *
 *   npx tsx bench/ts-ode-ess.ts                   (all four; Lotka–Volterra takes many minutes)
 *   BENCH_MODELS=arma11,garch11 npx tsx bench/ts-ode-ess.ts
 *   BENCH_WARMUP / BENCH_DRAWS (default 1000 each), BENCH_SEED (default 0) or BENCH_SEEDS (e.g. 0,1,2,3)
 *
 * `npm run bench` runs all four at 4 × (500 + 500) (a few minutes); the README's table is the full run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JointDistributionNamed } from '../distributions/index.js';
import { model as lvModel, pins as lvPins, init as lvInit } from '../examples/lotka-volterra.js';
import { model as pkModel, pins as pkPins } from '../examples/pk-one-compartment.js';
import { summary } from '../mcmc/diagnostics/index.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../mcmc/windowed-adaptive-nuts.js';
import { median } from './median.js';
import { armaData, armaModel, garchData, garchModel } from './models/time-series.js';

type Params = Record<string, { mean: number; sd: number; ess_bulk: number; mcse_mean: number }>;
interface StanRow { cpu_seconds: number; min_ess_bulk: number; ess_per_cpu_second: number; leapfrogs_per_draw: number; divergences: number; load?: number; params: Params; seeds?: number[]; runs?: { seed: number; ess_per_cpu_second: number; min_ess_bulk: number }[] }

/** The models by Stan's names; `names` maps stochax's draws to Stan's parameter names (vectors get [1], [2], …). */
const MODELS: Record<string, () => { model: JointDistributionNamed; pins: object; init?: object; names?: Record<string, string> }> = {
  arma11: () => armaModel(armaData()) as never,
  garch11: () => garchModel(garchData()) as never,
  lotka_volterra: () => ({ model: lvModel as never, pins: lvPins, init: lvInit, names: { zInit: 'z_init' } }),
  pk_one_compartment: () => ({ model: pkModel as never, pins: pkPins }),
};

export interface EssRow {
  readonly name: string;
  readonly cpu: number;
  readonly wall: number;
  readonly ess: number;
  readonly leapfrogs: number;
  /** Per chain: leapfrogs per draw and the step size after warm-up. */
  readonly chains: readonly { readonly leapfrogs: number; readonly stepSize: number }[];
  readonly divergences: number;
  readonly params: Params;
}

/** A run whose min bulk ESS is below this left a chain stuck in another mode (ESS ~7 at 4 × 1000 draws). */
const STUCK_ESS = 100;

/** One model's run: 4 chains × (warmup + draws), seed `seed`. */
export function run(name: string, options: { warmup?: number; draws?: number; seed?: number } = {}): EssRow {
  const m = MODELS[name];
  if (m === undefined) throw new RangeError(`ts-ode-ess: unknown model ${name} (one of ${Object.keys(MODELS).join(', ')})`);
  const { model, pins, init, names = {} } = m();
  const t0 = performance.now(), c0 = process.cpuUsage();
  const r = windowedAdaptiveNuts(model, { pins, init, seed: options.seed ?? 0, numAdaptationSteps: options.warmup ?? 1000, nDraws: options.draws ?? 1000, adaptation: 'per-chain', cores: 1 } as never);
  const c = process.cpuUsage(c0), wall = (performance.now() - t0) / 1000;
  const t = r.trace as WindowedTrace;
  const s = summary(r.draws, { divergences: t.diverging });
  const params: Params = {};
  for (const row of s.rows) {
    // summary names vector elements name[i] from 0; Stan's from 1.
    const label = row.name.replace(/^([A-Za-z0-9]+)(?:\[(\d+)\])?$/, (_, base: string, i?: string) => `${names[base] ?? base}${i === undefined ? '' : `[${Number(i) + 1}]`}`);
    params[label] = { mean: row.mean, sd: row.sd, ess_bulk: row.essBulk, mcse_mean: row.mcseMean };
  }
  const steps = t.nSteps.data as ArrayLike<number>, sizes = t.stepSize.data as ArrayLike<number>, [n, nChains] = t.nSteps.shape as [number, number];
  let total = 0;
  for (let i = 0; i < steps.length; i++) total += Number(steps[i]);
  const chains = Array.from({ length: nChains }, (_, k) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += Number(steps[i * nChains + k]);
    return { leapfrogs: sum / n, stepSize: Number(sizes[k]) };
  });
  return { name, cpu: (c.user + c.system) / 1e6, wall, ess: Math.min(...s.rows.map((x) => x.essBulk)), leapfrogs: total / steps.length, chains, divergences: s.divergences ?? 0, params };
}

/** Stan's rows from bench/stan/ts-ode-ess.json (empty when the R script has not been run). */
export function stanRows(): Record<string, StanRow> {
  const file = new URL('./stan/ts-ode-ess.json', import.meta.url);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Record<string, StanRow> : {};
}

/** Prints a row beside Stan's, and the posterior agreement. */
export function print(row: EssRow, stan: StanRow | undefined): void {
  const mine = row.ess / row.cpu;
  console.log(`  ${row.name.padEnd(20)} stochax ${row.cpu.toFixed(1).padStart(7)} CPU s  ESS ${row.ess.toFixed(0).padStart(5)}  ${mine.toFixed(1).padStart(7)} ESS/CPU s  ${row.leapfrogs.toFixed(1).padStart(5)} leapfrogs/draw  ${row.divergences} divergences  per chain: ${row.chains.map((ch) => `${ch.leapfrogs.toFixed(1)} at ε ${ch.stepSize.toFixed(3)}`).join(', ')}`);
  if (stan === undefined) { console.log('  (no Stan row: run Rscript bench/stan/ts-ode-ess.R)'); return; }
  const seeds = stan.runs === undefined ? '' : ` (median of seeds ${stan.runs.map((r) => `${r.seed}: ${r.ess_per_cpu_second.toFixed(1)}`).join(', ')})`;
  console.log(`  ${''.padEnd(20)} Stan    ${stan.cpu_seconds.toFixed(1).padStart(7)} CPU s  ESS ${stan.min_ess_bulk.toFixed(0).padStart(5)}  ${stan.ess_per_cpu_second.toFixed(1).padStart(7)} ESS/CPU s  ${stan.leapfrogs_per_draw.toFixed(1).padStart(5)} leapfrogs/draw  ${stan.divergences} divergences   ratio ${(mine / stan.ess_per_cpu_second).toFixed(2)}×${seeds}`);
  const agree = Object.entries(stan.params).map(([k, q]) => {
    const p = row.params[k];
    if (p === undefined) return `${k} missing`;
    return `${k} ${((p.mean - q.mean) / Math.hypot(p.mcse_mean, q.mcse_mean)).toFixed(1)} MCSE, sd ×${(p.sd / q.sd).toFixed(2)}`;
  });
  console.log(`  ${''.padEnd(20)} posterior vs Stan: ${agree.join('; ')}`);
}

/** Runs the `models` (each at every seed of `seeds`) and prints them beside Stan's, with the median over seeds (npm run bench calls this with 500 + 500). */
export function main(options: { models?: readonly string[]; warmup?: number; draws?: number; seeds?: readonly number[] } = {}): void {
  const { models = Object.keys(MODELS), warmup = 1000, draws = 1000, seeds = [0] } = options;
  console.log(`windowedAdaptiveNuts per chain, 4 chains × (${warmup} warm-up + ${draws} draws), one core; Stan (4 × (1000 + 1000)): bench/stan/ts-ode-ess.json`);
  const stan = stanRows();
  for (const name of models) {
    const rows: { ess: number; rate: number }[] = [];
    for (const seed of seeds) {
      if (seeds.length > 1) console.log(`  seed ${seed}:`);
      const row = run(name, { warmup, draws, seed });
      rows.push({ ess: row.ess, rate: row.ess / row.cpu });
      print(row, stan[name]);
    }
    if (seeds.length > 1) {
      const m = median(rows.map((r) => r.rate)), s = stan[name];
      console.log(`  ${name.padEnd(20)} median over seeds ${seeds.join(', ')}: stochax ${m.toFixed(1)} ESS/CPU s${s === undefined ? '' : `, Stan ${s.ess_per_cpu_second.toFixed(1)}: ${(m / s.ess_per_cpu_second).toFixed(2)}×`}`);
      // A run with a chain stuck in another mode (ARMA(1,1)'s, on both sides) measures the sticking, not the speed: the medians without them.
      const ok = rows.filter((r) => r.ess >= STUCK_ESS), stanOk = s?.runs?.filter((r) => r.min_ess_bulk >= STUCK_ESS);
      if (ok.length < rows.length || (stanOk !== undefined && stanOk.length < s!.runs!.length)) {
        const mine = ok.length === 0 ? Number.NaN : median(ok.map((r) => r.rate)), theirs = stanOk === undefined || stanOk.length === 0 ? Number.NaN : median(stanOk.map((r) => r.ess_per_cpu_second));
        console.log(`  ${''.padEnd(20)} without runs whose min ESS < ${STUCK_ESS} (a chain stuck): stochax ${mine.toFixed(1)} (${rows.length - ok.length} of ${rows.length} runs left out), Stan ${theirs.toFixed(1)} (${s?.runs === undefined ? '?' : s.runs.length - stanOk!.length} of ${s?.runs?.length ?? '?'} left out): ${(mine / theirs).toFixed(2)}×`);
      }
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = process.env;
  const seeds = (env.BENCH_SEEDS ?? env.BENCH_SEED ?? '0').split(',').map(Number);
  main({ models: env.BENCH_MODELS?.split(','), warmup: Number(env.BENCH_WARMUP ?? 1000), draws: Number(env.BENCH_DRAWS ?? 1000), seeds });
}
