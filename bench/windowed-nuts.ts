/**
 * NUTS with windowed adaptation, ESS per second (`npx tsx bench/windowed-nuts.ts`): for a
 * 100-dimensional standard Gaussian and for eight schools (non-centered), `windowedAdaptiveNuts`
 * at its defaults — 4 chains, 500 warm-up steps, 1000 draws — and the minimum over parameters of
 * the bulk ESS (rank-normalized, ArviZ's) divided by the wall time of the whole call (warm-up,
 * sampling and the map back to constrained space). Gradients come from the autodiff engine
 * through the joint distribution, so this measures the whole modelling stack, not just the
 * sampler. Also printed: mean leapfrog steps per draw, the adapted step size, divergences.
 *
 * Options: BENCH_ROUNDS (runs per model with seeds 0, 1, …; the median ESS/s is reported; default 1).
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

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const mean = (t: Tensor) => Array.from(t.data as ArrayLike<number>).reduce((a, b) => a + Number(b), 0) / t.size;

const models: { name: string; model: JointDistributionNamed; pins?: PartialValues }[] = [
  {
    name: 'standard Gaussian, 100-d',
    model: new JointDistributionNamed({ x: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 100 }) }),
  },
  {
    name: 'eight schools, non-centered',
    model: nonCentered,
    pins: { y },
  },
];

// Warm the JIT on a short run so the first timed model is not penalized.
windowedAdaptiveNuts(models[0]!.model, { seed: 99, nDraws: 20, numAdaptationSteps: 40 });

console.log('windowedAdaptiveNuts: 4 chains × (500 warm-up + 1000 draws), defaults; ESS = min bulk ESS over parameters');
const header = ['model', 'seconds', 'min ESS_bulk', 'ESS/s', 'leapfrogs/draw', 'step size', 'divergences'];
const rows: string[][] = [];
for (const { name, model, pins } of models) {
  const runs: { secs: number; ess: number; steps: number; eps: number; div: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    const { draws, trace } = windowedAdaptiveNuts(model, { pins, seed: r });
    const secs = (performance.now() - t0) / 1000;
    const t = trace as WindowedTrace;
    const s = summary(draws, { divergences: t.diverging });
    runs.push({ secs, ess: Math.min(...s.rows.map((row) => row.essBulk)), steps: mean(t.nSteps), eps: mean(t.stepSize), div: s.divergences ?? 0 });
  }
  const essPerSec = median(runs.map((x) => x.ess / x.secs));
  const m = runs.find((x) => x.ess / x.secs === essPerSec)!;
  rows.push([name, m.secs.toFixed(2), m.ess.toFixed(0), essPerSec.toFixed(0), m.steps.toFixed(1), m.eps.toFixed(3), String(m.div)]);
}
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));
