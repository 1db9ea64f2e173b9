/**
 * NUTS with windowed adaptation, ESS per second (`npx tsx bench/windowed-nuts.ts`): for a
 * 100-dimensional standard Gaussian and for eight schools (non-centered), `windowedAdaptiveNuts`
 * at its defaults — 4 chains, 500 warm-up steps, 1000 draws — and the minimum over parameters of
 * the bulk ESS (rank-normalized, ArviZ's) divided by the wall time of the whole call (warm-up,
 * sampling and the map back to constrained space). Gradients come from the joint distribution,
 * so this measures the whole modelling stack, not just the sampler. Each model is run twice:
 * with the compiled log density (the default, `compile: true`) and with the tape
 * (`compile: false`: autodiff through the distributions at every gradient, the path before
 * compileLogDensity); the last column is the compiled run's ESS/s over the tape run's. Also
 * printed: mean leapfrog steps per draw, the adapted step size, divergences. Three paths per model:
 * `adaptation: 'per-chain'` (independent Stan-style chains over the compiled log density),
 * the pooled default (TFP's lockstep batch) compiled, and pooled on the tape; the last column is
 * each path's ESS/s over the pooled tape's. Then the sampler's own cost per leapfrog step.
 *
 * Options: BENCH_ROUNDS (runs per model and path with seeds 0, 1, …; the median ESS/s is
 * reported; default 1); BENCH_WARMUP (numAdaptationSteps for every path; default 1000,
 * windowedAdaptiveNuts' per-chain default: 4 chains × (1000 warm-up + 1000 draws), the run of
 * bench/stan/ess-per-second.R and the issue's target).
 */
import { nonCentered, y } from '../examples/eight-schools.js';
import { JointDistributionNamed } from '../distributions/joint/joint-distribution-named.js';
import { Normal } from '../distributions/normal.js';
import { Sample } from '../distributions/sample.js';
import { summary } from '../mcmc/diagnostics/index.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../mcmc/windowed-adaptive-nuts.js';
import type { PartialValues } from '../distributions/joint/values.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { median } from './median.js';
import { flatTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const mean = (t: Tensor) => Array.from(t.data as ArrayLike<number>).reduce((a, b) => a + Number(b), 0) / t.size;

const gaussian = new JointDistributionNamed({ x: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 100 }) });
const models: { name: string; model: JointDistributionNamed; pins?: PartialValues }[] = [
  { name: 'standard Gaussian, 100-d', model: gaussian },
  { name: 'eight schools, non-centered', model: nonCentered, pins: { y } },
];

const paths: { label: string; options: { adaptation: 'per-chain' | 'pooled'; compile?: false } }[] = [
  { label: 'per-chain, compiled', options: { adaptation: 'per-chain' } },
  { label: 'pooled, compiled', options: { adaptation: 'pooled' } },
  { label: 'pooled, tape', options: { adaptation: 'pooled', compile: false } },
];

// Warm the JIT on a short run of each path so the first timed model is not penalized.
for (const { options } of paths) windowedAdaptiveNuts(models[0]!.model, { seed: 99, nDraws: 20, numAdaptationSteps: 40, ...options });

console.log(`windowedAdaptiveNuts: 4 chains × (${WARMUP} warm-up + 1000 draws)${WARMUP === 500 ? ', defaults' : ''}; ESS = min bulk ESS over parameters`);
const header = ['model', 'path', 'seconds', 'min ESS_bulk', 'ESS/s', 'leapfrogs/draw', 'step size', 'divergences', 'ESS/s ÷ pooled tape'];
const rows: string[][] = [];
for (const { name, model, pins } of models) {
  const perPath: number[] = [];
  for (const { label, options } of paths) {
    const runs: { secs: number; ess: number; steps: number; eps: number; div: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      const { draws, trace } = windowedAdaptiveNuts(model, { pins, seed: r, numAdaptationSteps: WARMUP, ...options });
      const secs = (performance.now() - t0) / 1000;
      const t = trace as WindowedTrace;
      const s = summary(draws, { divergences: t.diverging });
      runs.push({ secs, ess: Math.min(...s.rows.map((row) => row.essBulk)), steps: mean(t.nSteps), eps: mean(t.stepSize), div: s.divergences ?? 0 });
    }
    const essPerSec = median(runs.map((x) => x.ess / x.secs));
    perPath.push(essPerSec);
    const m = runs.reduce((a, b) => (Math.abs(b.ess / b.secs - essPerSec) < Math.abs(a.ess / a.secs - essPerSec) ? b : a));
    rows.push([perPath.length === 1 ? name : '', label, m.secs.toFixed(2), m.ess.toFixed(0), essPerSec.toFixed(0), m.steps.toFixed(1), m.eps.toFixed(3), String(m.div), '']);
  }
  rows.slice(-paths.length).forEach((row, i) => { row[8] = `${(perPath[i]! / perPath[paths.length - 1]!).toFixed(2)}×`; });
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => r.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));

// The sampler's own cost per leapfrog step (issue target: < 0.3 µs per leaf per chain): a per-chain
// run's wall time per leapfrog (warm-up included) minus the time of one gradient alone.
{
  const m = flatModel('bench', nonCentered.experimentalPin({ y }) as never);
  const t = flatTarget('bench', m, true).value, f = t.logDensityGradient.bind(t);
  const dim = m.sizes.reduce((a, b) => a + b, 0), x = new Float64Array(dim).fill(0.1), g = new Float64Array(dim);
  const gradUs = median(Array.from({ length: 7 }, () => {
    const n = 200_000, t0 = performance.now();
    let acc = 0;
    for (let i = 0; i < n; i++) { x[i % dim] = (i % 7) * 0.1; acc += f(x, g); }
    if (acc === 42) console.log('');
    return ((performance.now() - t0) * 1000) / n;
  }));
  const leaf = median(Array.from({ length: 3 }, (_, r) => {
    const t0 = performance.now();
    const { trace } = windowedAdaptiveNuts(nonCentered, { pins: { y }, seed: r, numAdaptationSteps: WARMUP, discardTuning: false, adaptation: 'per-chain' });
    const secs = performance.now() - t0;
    return (secs * 1000) / (trace.nSteps.data as Int32Array).reduce((a, b) => a + b, 0);
  }));
  console.log(`\nper-chain NUTS on eight schools: ${leaf.toFixed(2)} µs per leapfrog per chain (setup included), gradient alone ${gradUs.toFixed(2)} µs → sampler ${(leaf - gradUs).toFixed(2)} µs per leaf per chain`);
}
