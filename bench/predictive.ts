/**
 * The CLI's per-draw calls after sampling (`samplePosteriorPredictive`, `logLikelihood`,
 * `samplePriorPredictive` with PyMC's 500 draws, `computeDeterministics`) on eight schools
 * (8 observations) and the 600-observation normal regression, over the posterior draws of a
 * default `windowedAdaptiveNuts` run (4 chains × 1000 draws, seed 1). Each call is timed as the
 * median of 5 runs, beside the same call with the fast paths off (the per-draw tape path every
 * call had before, kept internally for tests), and beside the sampling time.
 *
 * Run: npx tsx bench/predictive.ts   (npm run bench runs it too)
 */
import { performance } from 'node:perf_hooks';
import { computeDeterministics, logLikelihood, samplePosteriorPredictive, samplePriorPredictive, windowedAdaptiveNuts } from '../mcmc/index.js';
import { withFastPaths } from '../mcmc/predictive.js';
import * as eight from '../examples/eight-schools.js';
import * as regression from './models/regression-600.js';
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
