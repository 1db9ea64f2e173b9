/**
 * ESS per second of the logistic regression N = 5000, D = 25 (bench/models/glm.ts), the run of
 * bench/stan/ess-per-second.R: `windowedAdaptiveNuts` per-chain (Stan's way), 4 chains ×
 * (1000 warm-up + 1000 draws), ESS = min bulk ESS over parameters, time = wall time of the whole
 * call, and its CPU time (user + system: on a shared, loaded machine the
 * robust figure; ESS per CPU second is printed beside ESS/s). Two rows: the compiled log density as users get it (the fused GLM kernel) and the
 * compiler without the GLM rewrite (`setGlmFusionEnabled(false)`, the path before it).
 *
 * BENCH_MODEL=diamonds runs posteriordb's diamonds instead (the other acceptance run;
 * long: Stan needs ~1,000 leapfrog steps per draw) and prints posterior means to set beside the reference.
 *
 *   npx tsx bench/glm-ess.ts        (BENCH_WARMUP, default 1000; BENCH_SEED, default 0; BENCH_UNFUSED=0 skips the unfused row)
 */
import { summary } from '../mcmc/diagnostics/index.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../mcmc/windowed-adaptive-nuts.js';
import { setGlmFusionEnabled } from '../src/compile/glm-fuse.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { diamondsData, diamondsModel, logisticData, logisticModel } from './models/glm.js';

const WARMUP = Number(process.env.BENCH_WARMUP ?? 1000);
const SEED = Number(process.env.BENCH_SEED ?? 0);
const mean = (t: Tensor) => Array.from(t.data as ArrayLike<number>).reduce((a, b) => a + Number(b), 0) / t.size;
const which = process.env.BENCH_MODEL === 'diamonds' ? 'diamonds' : 'logistic';
const data = which === 'diamonds' ? diamondsData() : logisticData();
const make = () => (which === 'diamonds' ? diamondsModel(data as ReturnType<typeof diamondsData>) : logisticModel(data as ReturnType<typeof logisticData>));

console.log(`${which === 'diamonds' ? 'diamonds' : 'logistic regression'} N=${data.N} D=${data.D}: windowedAdaptiveNuts per-chain, 4 chains × (${WARMUP} warm-up + 1000 draws), seed ${SEED}`);
console.log(['path', 'seconds', 'CPU seconds', 'min ESS_bulk', 'ESS/s', 'ESS/CPU s', 'leapfrogs/draw', 'divergences'].join('\t'));
for (const fused of process.env.BENCH_UNFUSED === '0' ? [true] : [true, false]) {
  const was = setGlmFusionEnabled(fused);
  const { model, pins } = make();
  const t0 = performance.now(), c0 = process.cpuUsage();
  const { draws, trace } = windowedAdaptiveNuts(model, { pins, seed: SEED, numAdaptationSteps: WARMUP, adaptation: 'per-chain' });
  const secs = (performance.now() - t0) / 1000, c = process.cpuUsage(c0), cpu = (c.user + c.system) / 1e6;
  setGlmFusionEnabled(was);
  const t = trace as WindowedTrace;
  const s = summary(draws, { divergences: t.diverging });
  const ess = Math.min(...s.rows.map((r) => r.essBulk));
  const means = Object.entries(draws).map(([k, v]) => { const d = v!.data as Float64Array, w = v!.size / (v!.shape[0]! * v!.shape[1]!); return `${k}: ${Array.from({ length: Math.min(w, 3) }, (_, j) => (d.filter((_, i) => i % w === j).reduce((a, b) => a + b, 0) / (d.length / w)).toFixed(4)).join(', ')}`; });
  console.log([fused ? 'fused GLM (default)' : 'unfused compiled', secs.toFixed(2), cpu.toFixed(2), ess.toFixed(0), (ess / secs).toFixed(1), (ess / cpu).toFixed(1), mean(t.nSteps).toFixed(1), String(s.divergences ?? 0)].join('\t'));
  console.log(`  posterior means (first 3 coordinates per node): ${means.join('; ')}`);
}
