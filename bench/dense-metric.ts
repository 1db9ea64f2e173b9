/**
 * Dense against diagonal metric (`npx tsx bench/dense-metric.ts`, also in `npm run bench`):
 * `windowedAdaptiveNuts` (per-chain) on a 50-dimensional Gaussian whose neighbouring coordinates
 * have correlation 0.99 (Σ_ij = 0.99^|i−j|, a MultivariateNormalTriL with Σ's Cholesky factor),
 * 4 chains × (1000 warm-up + 1000 draws), ESS = min bulk ESS over the 50 coordinates, per second
 * of the whole call. The issue's target: dense ≥ 3× the diagonal metric's ESS/s.
 *
 * Options: BENCH_WARMUP (default 1000), BENCH_DRAWS (default 1000).
 */
import { JointDistributionNamed } from '../distributions/joint/joint-distribution-named.js';
import { MultivariateNormalTriL } from '../distributions/multivariate-normal-tri-l.js';
import { summary } from '../mcmc/diagnostics/index.js';
import { windowedAdaptiveNuts } from '../mcmc/windowed-adaptive-nuts.js';
import { cholesky } from '../src/tensor/ops/linalg.js';
import { tensor } from '../src/tensor/tensor.js';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000), DRAWS = Number(process.env.BENCH_DRAWS ?? 1000);
const D = 50, RHO = 0.99;
const cov = Array.from({ length: D }, (_, i) => Array.from({ length: D }, (_, j) => RHO ** Math.abs(i - j)));
const model = new JointDistributionNamed({ x: new MultivariateNormalTriL({ loc: tensor(new Array<number>(D).fill(0)), scaleTril: cholesky(tensor(cov)) }) });

console.log(`windowedAdaptiveNuts (per-chain), ${D}-d Gaussian with neighbour correlation ${RHO}, 4 chains × (${WARMUP} warm-up + ${DRAWS} draws):`);
const rate: Record<string, number> = {};
for (const metric of ['diagonal', 'dense'] as const) {
  const t0 = performance.now();
  const { draws, trace } = windowedAdaptiveNuts(model, { seed: 0, metric, numAdaptationSteps: WARMUP, nDraws: DRAWS });
  const secs = (performance.now() - t0) / 1000;
  const s = summary(draws, { divergences: trace.diverging });
  const ess = Math.min(...s.rows.map((r) => r.essBulk));
  const steps = Array.from(trace.nSteps.data as Int32Array).reduce((a, b) => a + b, 0) / trace.nSteps.size;
  rate[metric] = ess / secs;
  console.log(`  ${metric.padEnd(8)} ${secs.toFixed(1).padStart(6)} s  min ESS_bulk ${ess.toFixed(0).padStart(5)}  ESS/s ${rate[metric]!.toFixed(0).padStart(5)}  leapfrogs/draw ${steps.toFixed(1).padStart(6)}  divergences ${s.divergences ?? 0}`);
}
console.log(`  dense / diagonal ESS/s: ${(rate.dense! / rate.diagonal!).toFixed(1)}×`);
