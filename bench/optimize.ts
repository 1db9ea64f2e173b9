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
 * 5. windowedAdaptiveNuts started from Pathfinder (`init`, `initInvMetric`) beside Stan's default
 *    start on eight schools, kidiq_momiq and a 100-d Gaussian with scales 0.01…100: warm-up and
 *    Pathfinder gradient evaluations, smallest bulk ESS, ESS per 1000 gradients and per second
 *    (`--nuts-metric` prints only this table).
 *
 * Run by `npm run bench` (bench/index.ts) after the other tables.
 */
import { performance } from 'node:perf_hooks';
import type { Tensor } from '../src/tensor/tensor.js';
import { readFileSync } from 'node:fs';
import { advi, optimize, pathfinder } from '../optimize/index.js';
import { Independent, JointDistributionNamed, Normal } from '../distributions/index.js';
import { essBulk, windowedAdaptiveNuts, type WindowedTrace } from '../mcmc/index.js';
import { Tensor as TensorClass } from '../src/tensor/tensor.js';
import { foldIn, sanitizeSeed } from '../src/samplers/seeds.js';
import { eightSchoolsNoncentered, kidiqMomiq } from '../test/optimize/posteriordb-models.js';
import { scipyLogistic } from '../test/optimize/models.js';
import { model as bigModel, pins as bigPins, D as bigD } from './models/logistic-regression.js';
import { median } from './median.js';

// `npx tsx bench/optimize.ts --nuts-metric` prints only the last table (NUTS from Pathfinder).
const metricOnly = process.argv.includes('--nuts-metric');
if (!metricOnly) {
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
}

/**
 * windowedAdaptiveNuts from Pathfinder (issue 31): Stan's default start (uniform, identity metric)
 * beside `init: 'pathfinder'` with the identity metric, with `initInvMetric: 'pathfinder'`, and
 * with that and a 300-step warm-up; 4 chains × (warm-up + 1000 draws), one thread (`cores: 1`),
 * seeds 0–2. Gradient evaluations are leapfrog steps (warm-up, sampling) plus Pathfinder's own
 * (counted by running the same Pathfinder call the sampler makes); ESS is the smallest bulk ESS over
 * the parameters; ms includes Pathfinder and compiling the model.
 */
function nutsFromPathfinder(): void {
  const D = 100;
  const scales = Float64Array.from({ length: D }, (_, i) => 10 ** (-2 + 4 * i / (D - 1)));
  const gauss = {
    name: `${D}-d Gaussian, scales 0.01…100`,
    model: new JointDistributionNamed({ x: new Independent({ distribution: new Normal({ loc: new TensorClass(new Float64Array(D), [D], 'float64'), scale: new TensorClass(scales, [D], 'float64') }), reinterpretedBatchNdims: 1 }) }),
    pins: {},
  };
  const configs: [string, number, Record<string, unknown>][] = [
    ['uniform, identity (Stan)', 1000, {}],
    ['pathfinder, identity', 1000, { init: 'pathfinder' }],
    ['pathfinder, pathfinder', 1000, { init: 'pathfinder', initInvMetric: 'pathfinder' }],
    ['pathfinder, pathfinder', 300, { init: 'pathfinder', initInvMetric: 'pathfinder' }],
  ];
  console.log('\nwindowedAdaptiveNuts from Pathfinder (init, initInvMetric): 4 chains, 1000 draws, cores 1; mean over seeds 0–2 (ESS: smallest bulk ESS):');
  console.log('  model                               init, initInvMetric       warm-up  warm-up grads  Pathfinder grads + lp  sampling grads   ESS  ESS/1000 grads   ms  ESS/s');
  for (const c of [eightSchoolsNoncentered(), kidiqMomiq(), gauss]) {
    for (const [label, warm, extra] of configs) {
      const rows: number[][] = [];
      for (const seed of [0, 1, 2]) {
        let pg = 0, pl = 0;
        if (extra.init === 'pathfinder') {
          const pf = pathfinder(c.model as never, { pins: c.pins, seed: foldIn(sanitizeSeed(seed), 'pathfinder'), draws: 100 } as never);
          pg = pf.gradientEvaluations; pl = pf.logDensityEvaluations;
        }
        const t0 = performance.now();
        const r = windowedAdaptiveNuts(c.model as never, { pins: c.pins, seed, numAdaptationSteps: warm, discardTuning: false, cores: 1, ...extra } as never);
        const ms = performance.now() - t0;
        const steps = (r.trace as WindowedTrace).nSteps.data as Int32Array;
        let wg = 0, sg = 0;
        for (let i = 0; i < steps.length; i++) if (i < warm * 4) wg += steps[i]!; else sg += steps[i]!;
        const post: Record<string, Tensor> = {};
        for (const [k, v] of Object.entries(r.draws as Record<string, Tensor>)) {
          const per = v.size / v.shape[0]!;
          post[k] = new TensorClass((v.data as Float64Array).slice(warm * per), [v.shape[0]! - warm, ...v.shape.slice(1)], 'float64');
        }
        const ess = Math.min(...Object.values(essBulk(post as never) as Record<string, Tensor>).flatMap((t) => Array.from(t.data as Float64Array)));
        rows.push([wg, pg, pl, sg, ess, (1000 * ess) / (wg + pg + sg), ms, (1000 * ess) / ms]);
      }
      const m = rows[0]!.map((_, j) => rows.reduce((t, r) => t + r[j]!, 0) / rows.length);
      console.log(`  ${c.name.slice(0, 34).padEnd(34)}  ${label.padEnd(24)}  ${String(warm).padStart(7)}  ${m[0]!.toFixed(0).padStart(13)}  ${`${m[1]!.toFixed(0)} + ${m[2]!.toFixed(0)}`.padStart(21)}  ${m[3]!.toFixed(0).padStart(14)}  ${m[4]!.toFixed(0).padStart(4)}  ${m[5]!.toFixed(1).padStart(14)}  ${m[6]!.toFixed(0).padStart(5)}  ${m[7]!.toFixed(0).padStart(5)}`);
    }
  }
}
nutsFromPathfinder();
