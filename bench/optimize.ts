/**
 * `npx tsx bench/optimize.ts`: stochax's `optimize` beside SciPy's L-BFGS-B on the same problems.
 *
 * 1. The logistic regression of test/fixtures/optimize/ (N = 100, D = 3 + intercept), from zero,
 *    both at their default tolerances and with a history of 5: gradient evaluations (SciPy's
 *    counts come from the fixture, made by logistic_scipy.py beside it) and the largest error
 *    against the exact mode.
 * 2. The benchmarks' logistic regression (N = 1000, D = 10; bench/models/), from zero: gradient
 *    evaluations and wall time (median of 15 runs) for each algorithm.
 */
import { performance } from 'node:perf_hooks';
import type { Tensor } from '../src/tensor/tensor.js';
import { optimize } from '../optimize/index.js';
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
