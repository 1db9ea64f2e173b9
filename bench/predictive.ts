/**
 * The CLI's per-draw calls after sampling (`samplePosteriorPredictive`, `logLikelihood`,
 * `samplePriorPredictive` with PyMC's 500 draws, `computeDeterministics`) on eight schools
 * (8 observations) and the 600-observation normal regression, over the posterior draws of a
 * default `windowedAdaptiveNuts` run (4 chains × 1000 draws, seed 1). Each call is timed as the
 * median of 5 runs, beside the same call with the fast paths off (the per-draw tape path every
 * call had before, kept internally for tests), and beside the sampling time.
 *
 * Last, `loo` as the CLI's report calls it (r_eff from the posterior) on the log-likelihood of
 * each model and of the 1000-observation logistic regression: process CPU time, best of 7.
 *
 * Run: npx tsx bench/predictive.ts   (npm run bench runs it too)
 */
import { performance } from 'node:perf_hooks';
import { computeDeterministics, logLikelihood, loo, samplePosteriorPredictive, samplePriorPredictive, windowedAdaptiveNuts } from '../mcmc/index.js';
import { withFastPaths } from '../mcmc/predictive.js';
import * as eight from '../examples/eight-schools.js';
import * as regression from './models/regression-600.js';
import * as logistic from './models/logistic-regression.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ms = (f: () => unknown) => { const t0 = performance.now(); f(); return performance.now() - t0; };
const timeOf = (f: () => unknown) => median(Array.from({ length: ROUNDS }, () => ms(f)));

console.log('model                  call                        fast      tape path  speed-up');
for (const [name, m] of [['eight schools', eight], ['regression (600 obs)', regression]] as const) {
  const t0 = performance.now();
  const fit = windowedAdaptiveNuts(m.model, { pins: m.pins, seed: 1 });
  const sampling = performance.now() - t0;
  const pinned = m.model.experimentalPin(m.pins);
  const calls: [string, () => unknown][] = [
    ['samplePosteriorPredictive', () => samplePosteriorPredictive(pinned, fit.draws, { seed: 1 })],
    ['logLikelihood', () => logLikelihood(pinned, fit.draws)],
    ['samplePriorPredictive 500', () => samplePriorPredictive(m.model, { seed: 1, samples: 500 })],
    ['computeDeterministics', () => computeDeterministics(pinned, fit.draws)],
  ];
  let fastTotal = 0, slowTotal = 0;
  for (const [call, f] of calls) {
    const fast = timeOf(f);
    const slow = withFastPaths(false, () => timeOf(f));
    fastTotal += fast; slowTotal += slow;
    console.log(`${name.padEnd(22)} ${call.padEnd(26)} ${fast.toFixed(0).padStart(6)} ms ${slow.toFixed(0).padStart(8)} ms ${(slow / fast).toFixed(1).padStart(8)}×`);
  }
  console.log(`${name.padEnd(22)} ${'all four'.padEnd(26)} ${fastTotal.toFixed(0).padStart(6)} ms ${slowTotal.toFixed(0).padStart(8)} ms ${(slowTotal / fastTotal).toFixed(1).padStart(8)}×   (sampling: ${sampling.toFixed(0)} ms)`);
}

// LOO (PSIS) over S = 4000 draws: CPU ms per call, best of 7 (the machine's load disturbs CPU time less than wall time)
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e3; };
console.log('\nmodel                  loo (r_eff from the posterior)   CPU best of 7   per observation');
for (const [name, m] of [['eight schools', eight], ['regression (600 obs)', regression], ['logistic (1000 obs)', logistic]] as const) {
  const fit = windowedAdaptiveNuts(m.model, { pins: m.pins, seed: 1 });
  const ll = logLikelihood(m.model.experimentalPin(m.pins), fit.draws);
  let best = Infinity, n = 0;
  for (let r = 0; r < 7; r++) {
    const t0 = cpuMs();
    n = loo(ll, { posterior: fit.draws }).nDataPoints;
    best = Math.min(best, cpuMs() - t0);
  }
  console.log(`${name.padEnd(22)} ${'loo'.padEnd(32)} ${best.toFixed(1).padStart(9)} ms ${((1000 * best) / n).toFixed(0).padStart(12)} µs`);
}

