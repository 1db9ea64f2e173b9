/**
 * `npx tsx bench/optimize.ts`: stochax's `optimize` beside SciPy's L-BFGS-B, `advi` beside rstan's `vb`, and `pathfinder`.
 *
 * 1. The logistic regression of test/fixtures/optimize/ (N = 100, D = 3 + intercept), from zero,
 *    both at their default tolerances and with a history of 5: gradient evaluations (SciPy's
 *    counts come from the fixture, made by logistic_scipy.py beside it) and the largest error
 *    against the exact mode.
 * 2. The benchmarks' logistic regression (N = 1000, D = 10; bench/models/), from zero: gradient
 *    evaluations and wall time (median of 15 runs) for each algorithm.
 * 3. ADVI (mean-field and full-rank, Stan's defaults) on the logistic regression of 1., seeds
 *    1–20, beside rstan's `vb` on the same model and data (seeds 1–40; the fixture
 *    test/fixtures/optimize/rstan-vb.json, made by rstan_vb.R beside it): gradient evaluations
 *    (adaptation included) and iterations, mean ± sd over seeds, and wall time per run (median;
 *    rstan's is R's `system.time` of the `vb()` call, the model compiled beforehand; stochax's
 *    includes compiling the model, as each `advi(model, …)` call does).
 * 4. Pathfinder (Stan 2.33's defaults) on the same regression, seeds 1–20: gradient and log
 *    density evaluations and wall time per run (rstan 2.21 has no Pathfinder).
 *
 * Run by `npm run bench` (bench/index.ts) after the other tables.
 */
import { performance } from 'node:perf_hooks';
import type { Tensor } from '../src/tensor/tensor.js';
import { readFileSync } from 'node:fs';
import { advi, optimize, pathfinder } from '../optimize/index.js';
import { scipyLogistic } from '../test/optimize/models.js';
import { model as bigModel, pins as bigPins, D as bigD } from './models/logistic-regression.js';
import { median } from './median.js';

const s = scipyLogistic();
const zeros = { alpha: 0, beta: [0, 0, 0] };
console.log('Logistic regression (N = 100, 4 coefficients), from zero, default tolerances:');
console.log('  method                 gradients  iterations  max |error|');
for (const algorithm of ['lbfgs', 'bfgs', 'newton'] as const) {
  const fit = optimize(s.model, { pins: s.pins, init: zeros, algorithm });
  const err = Math.max(Math.abs((fit.params.alpha as Tensor).item() as number - s.fixture.mode.alpha),
    ...Array.from((fit.params.beta as Tensor).data as Float64Array, (b, i) => Math.abs(b - s.fixture.mode.beta[i]!)));
  console.log(`  stochax ${algorithm.padEnd(14)} ${String(fit.gradientEvaluations).padStart(9)}  ${String(fit.iterations).padStart(10)}  ${err.toExponential(1)}`);
}
const sp = s.fixture.lbfgsbDefault;
console.log(`  SciPy L-BFGS-B (m = 5) ${String(sp.njev).padStart(9)}  ${String(sp.nit).padStart(10)}  ${sp.maxAbsError.toExponential(1)}`);

console.log(`\nLogistic regression (N = 1000, D = ${bigD} + intercept; bench/models/), from zero, median of 15 runs:`);
console.log('  method      gradients  iterations  ms');
const bigZeros = { alpha: 0, beta: new Array<number>(bigD).fill(0) };
for (const algorithm of ['lbfgs', 'bfgs', 'newton'] as const) {
  optimize(bigModel, { pins: bigPins, init: bigZeros, algorithm });   // compile and warm up
  const times: number[] = [];
  let fit = optimize(bigModel, { pins: bigPins, init: bigZeros, algorithm });
  for (let r = 0; r < 15; r++) {
    const t0 = performance.now();
    fit = optimize(bigModel, { pins: bigPins, init: bigZeros, algorithm });
    times.push(performance.now() - t0);
  }
  console.log(`  ${algorithm.padEnd(10)} ${String(fit.gradientEvaluations).padStart(10)}  ${String(fit.iterations).padStart(10)}  ${median(times).toFixed(2)}`);
}

const rstanVb = JSON.parse(readFileSync(new URL('../test/fixtures/optimize/rstan-vb.json', import.meta.url), 'utf8')) as Record<'meanfield' | 'fullrank', { gradientEvaluations: number; iterations: number; seconds: number }[]>;
const meanSd = (a: readonly number[]) => {
  const m = a.reduce((t, v) => t + v, 0) / a.length;
  return `${m.toFixed(0)} ± ${Math.sqrt(a.reduce((t, v) => t + (v - m) ** 2, 0) / (a.length - 1)).toFixed(0)}`;
};
console.log('\nADVI on the logistic regression (N = 100, 4 coefficients), Stan\'s defaults; mean ± sd over seeds, median ms per run:');
console.log('  method                      gradients    iterations   ms');
for (const algorithm of ['meanfield', 'fullrank'] as const) {
  advi(s.model, { pins: s.pins, seed: 0, algorithm });   // warm up
  const grads: number[] = [], iters: number[] = [], times: number[] = [];
  for (let seed = 1; seed <= 20; seed++) {
    const t0 = performance.now();
    const fit = advi(s.model, { pins: s.pins, seed, algorithm });
    times.push(performance.now() - t0);
    grads.push(fit.gradientEvaluations); iters.push(fit.iterations);
  }
  const ref = rstanVb[algorithm];
  console.log(`  stochax advi ${algorithm.padEnd(10)}   ${meanSd(grads).padStart(10)}  ${meanSd(iters).padStart(12)}  ${median(times).toFixed(0).padStart(4)}`);
  console.log(`  rstan vb ${algorithm.padEnd(10)}       ${meanSd(ref.map((r) => r.gradientEvaluations)).padStart(10)}  ${meanSd(ref.map((r) => r.iterations)).padStart(12)}  ${median(ref.map((r) => r.seconds * 1000)).toFixed(0).padStart(4)}`);
}

// Pathfinder: rstan 2.21 has none (CmdStan's came in Stan 2.33), so its row stands alone; the
// README compares its gradient evaluations with a NUTS run's on four posteriordb posteriors.
console.log('\nPathfinder on the logistic regression (N = 100, 4 coefficients), Stan 2.33\'s defaults (4 paths, 1000 draws); mean ± sd over seeds 1–20, median ms per run:');
console.log('  method                      gradients    log densities   ms');
pathfinder(s.model, { pins: s.pins, seed: 0 });   // warm up
{
  const grads: number[] = [], lds: number[] = [], times: number[] = [];
  for (let seed = 1; seed <= 20; seed++) {
    const t0 = performance.now();
    const fit = pathfinder(s.model, { pins: s.pins, seed });
    times.push(performance.now() - t0);
    grads.push(fit.gradientEvaluations); lds.push(fit.logDensityEvaluations);
  }
  console.log(`  stochax pathfinder            ${meanSd(grads).padStart(10)}  ${meanSd(lds).padStart(14)}  ${median(times).toFixed(0).padStart(4)}`);
}
