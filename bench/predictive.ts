/**
 * The CLI's per-draw calls after sampling (`samplePosteriorPredictive`, `logLikelihood`,
 * `samplePriorPredictive` with PyMC's 500 draws, `computeDeterministics`) on eight schools
 * (8 observations), the 600-observation normal regression and the 1000-observation logistic
 * regression (Bernoulli leaves: drawn and scored straight from the compiled logits), over the
 * posterior draws of a default `windowedAdaptiveNuts` run (4 chains × 1000 draws, seed 1). Each
 * call is timed in process CPU time, the first run (what the CLI, which calls each once, pays)
 * and the best of 5, beside the same call with the fast paths off (the per-draw tape path every
 * call had before, kept internally for tests; best of 5), and beside the sampling time. The
 * load average is printed with each model: on a shared machine, compare numbers taken at
 * similar loads.
 *
 * Last, `loo` as the CLI's report calls it (r_eff from the posterior) on the log-likelihood of
 * each model and of the 1000-observation logistic regression: process CPU time, best of 7.
 *
 * Run: npx tsx bench/predictive.ts   (npm run bench runs it too)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { computeDeterministics, logLikelihood, loo, samplePosteriorPredictive, samplePriorPredictive, windowedAdaptiveNuts } from '../mcmc/index.js';
import { withFastPaths } from '../mcmc/predictive.js';
import * as eight from '../examples/eight-schools.js';
import * as regression from './models/regression-600.js';
import * as logistic from './models/logistic-regression.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Process CPU milliseconds (user + system). */
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1e3; };
const ms = (f: () => unknown) => { const t0 = cpu(); f(); return cpu() - t0; };
/** [first run, best of ROUNDS] in CPU ms. */
const timeOf = (f: () => unknown): [number, number] => { const ts = Array.from({ length: ROUNDS }, () => ms(f)); return [ts[0]!, Math.min(...ts)]; };

console.log('model                           call                       fast: first   best   tape path (best)  speed-up (best)');
for (const [name, m] of [['eight schools', eight], ['regression (600 obs)', regression], ['logistic regression (1000 obs)', logistic]] as const) {
  const t0 = performance.now();
  const fit = windowedAdaptiveNuts(m.model, { pins: m.pins, seed: 1 });
  const sampling = performance.now() - t0;
  console.log(`${name}: load average ${loadavg().map((x) => x.toFixed(1)).join(', ')}`);
  const pinned = m.model.experimentalPin(m.pins);
  const calls: [string, () => unknown][] = [
    ['samplePosteriorPredictive', () => samplePosteriorPredictive(pinned, fit.draws, { seed: 1 })],
    ['logLikelihood', () => logLikelihood(pinned, fit.draws)],
    ['samplePriorPredictive 500', () => samplePriorPredictive(m.model, { seed: 1, samples: 500 })],
    ['computeDeterministics', () => computeDeterministics(pinned, fit.draws)],
  ];
  let firstTotal = 0, fastTotal = 0, slowTotal = 0;
  for (const [call, f] of calls) {
    const [first, fast] = timeOf(f);
    const [, slow] = withFastPaths(false, () => timeOf(f));
    firstTotal += first; fastTotal += fast; slowTotal += slow;
    console.log(`${name.padEnd(31)} ${call.padEnd(26)} ${first.toFixed(0).padStart(6)} ms ${fast.toFixed(0).padStart(6)} ms ${slow.toFixed(0).padStart(10)} ms ${(slow / fast).toFixed(1).padStart(12)}×`);
  }
  console.log(`${name.padEnd(31)} ${'all four'.padEnd(26)} ${firstTotal.toFixed(0).padStart(6)} ms ${fastTotal.toFixed(0).padStart(6)} ms ${slowTotal.toFixed(0).padStart(10)} ms ${(slowTotal / fastTotal).toFixed(1).padStart(12)}×   (sampling: ${sampling.toFixed(0)} ms wall)`);
}

// LOO (PSIS) over S = 4000 draws: CPU ms per call, best of 7 (the machine's load disturbs CPU time less than wall time)
console.log('\nmodel                  loo (r_eff from the posterior)   CPU best of 7   per observation');
for (const [name, m] of [['eight schools', eight], ['regression (600 obs)', regression], ['logistic (1000 obs)', logistic]] as const) {
  const fit = windowedAdaptiveNuts(m.model, { pins: m.pins, seed: 1 });
  const ll = logLikelihood(m.model.experimentalPin(m.pins), fit.draws);
  let best = Infinity, n = 0;
  for (let r = 0; r < 7; r++) {
    const t0 = cpu();
    n = loo(ll, { posterior: fit.draws }).nDataPoints;
    best = Math.min(best, cpu() - t0);
  }
  console.log(`${name.padEnd(22)} ${'loo'.padEnd(32)} ${best.toFixed(1).padStart(9)} ms ${((1000 * best) / n).toFixed(0).padStart(12)} µs`);
}

