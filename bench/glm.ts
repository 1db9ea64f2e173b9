/**
 * Data-heavy GLMs (issue 33 item 1; `npx tsx bench/glm.ts`, also run by `npm run bench`): µs per
 * value-and-gradient call of the unconstrained log density, for the logistic regression N = 5000,
 * D = 25 and posteriordb's diamonds (N = 5000, 24 predictors) of bench/models/glm.ts, columns:
 *
 * - fused, wasm: `compileLogDensity` as users get it (the compiler's GLM rewrite, WebAssembly
 *   SIMD passes over X);
 * - fused, JS: the same with the passes in JavaScript (`setGlmWasmEnabled(false)`: same bits);
 * - unfused compiled: the compiler without the rewrite (`setGlmFusionEnabled(false)`: the path
 *   before this work);
 * - hand-written JS: bench/hand-written.ts (checked against the compiled gradient at start-up);
 * - Stan: rstan's `grad_log_prob` on the same data and model, less R's call overhead (the
 *   fixture bench/stan/glm-gradient.json, written by bench/stan/glm-gradient.R, see there).
 *
 * GFLOP/s counts the passes over X, 4·N·D flops per gradient (η = X·β and Xᵀ(∂ℓ/∂η), a multiply
 * and an add per element each), beside the machine's measured peak for the same arithmetic (the
 * f64x2 mul + add loop `peak` of wasm/glm.wat: ten independent chains, no FMA). A second table
 * splits the fused kernel alone by family on the logistic X (normal_id has no transcendentals;
 * the difference, given per row, is detExp and detLog1p: in WebAssembly f64x2 (wasm/detmath.wat)
 * on the wasm path, in JavaScript on the other), and with the rows in one block (η for all rows,
 * then ℓ for all, then Xᵀg: X read twice from memory) against the default blocks.
 *
 * Timings are the process's CPU time (user + system: a shared, loaded machine disturbs it far
 * less than wall time), medians over interleaved rounds of ~30 ms batches per column.
 *
 * Options: BENCH_ROUNDS (default 9), BENCH_QUICK=1 (3 short rounds);
 * `npx tsx bench/glm.ts --write-data DIR` writes the logistic regression's data as DIR/logistic-regression.json
 * for bench/stan/glm-gradient.R (diamonds' data the R script reads from posteriordb itself).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { compileLogDensity, type CompiledLogDensity } from '../distributions/index.js';
import { BLOCK_PAIRS, glmKernel, glmPeakLoop, PEAK_FLOPS_PER_ITERATION, setGlmWasmEnabled, type GlmFamily } from '../src/compile/glm.js';
import { setGlmFusionEnabled } from '../src/compile/glm-fuse.js';
import { diamonds, logisticRegression, type ValueAndGrad } from './hand-written.js';
import { median } from './median.js';
import { diamondsData, diamondsModel, logisticData, logisticModel } from './models/glm.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 9));
const BATCH_MS = quick ? 10 : 30;

const logistic = logisticData();

if (process.argv[2] === '--write-data') {
  const dir = process.argv[3] ?? 'scratch/glm-data';
  mkdirSync(dir, { recursive: true });
  const X = Array.from({ length: logistic.N }, (_, i) => Array.from(logistic.X.subarray(i * logistic.D, (i + 1) * logistic.D)));
  writeFileSync(`${dir}/logistic-regression.json`, JSON.stringify({ N: logistic.N, D: logistic.D, X, y: Array.from(logistic.y) }));
  console.log(`wrote ${dir}/logistic-regression.json`);
  process.exit(0);
}

/** CPU µs per call of f over `points` (cycling), for about BATCH_MS of wall time. */
function batch(f: ValueAndGrad, points: readonly Float64Array[], grad: Float64Array, calls: number): number {
  let sink = 0;
  const c0 = process.cpuUsage();
  for (let k = 0; k < calls; k++) sink += f(points[k & 3]!, grad);
  const c = process.cpuUsage(c0);
  if (sink === 0.123) console.log('');   // keep the values alive
  return (c.user + c.system) / calls;
}

/** Median CPU µs per call per column over interleaved rounds (rotating order). */
function timeColumns(cols: readonly { name: string; f: ValueAndGrad }[], dim: number): number[] {
  const points = [0, 1, 2, 3].map((s) => Float64Array.from({ length: dim }, (_, i) => 0.05 * Math.sin(1 + i + 7 * s)));
  const grad = new Float64Array(dim);
  // Calls per batch from a warm-up of each column.
  const calls = cols.map((c) => {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 200) { c.f(points[n & 3]!, grad); n++; }
    return Math.max(4, Math.round(n * BATCH_MS / 200));
  });
  const per: number[][] = cols.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let q = 0; q < cols.length; q++) {
      const j = (q + r) % cols.length;
      per[j]!.push(batch(cols[j]!.f, points, grad, calls[j]!));
    }
  }
  return per.map((p) => median(p));
}

/** The model compiled three ways (fresh model objects: the compiler caches per model). */
function compiledColumns<M>(make: () => { model: M; pins: Record<string, unknown> }): { fusedWasm: CompiledLogDensity<never>; fusedJs: CompiledLogDensity<never>; unfused: CompiledLogDensity<never> } {
  const c = (m: { model: M; pins: Record<string, unknown> }) => compileLogDensity(m.model as never, { pins: m.pins as never }) as CompiledLogDensity<never>;
  const fusedWasm = c(make());
  const was = setGlmWasmEnabled(false);
  const fusedJs = c(make());
  setGlmWasmEnabled(was);
  const fusion = setGlmFusionEnabled(false);
  const unfused = c(make());
  setGlmFusionEnabled(fusion);
  return { fusedWasm, fusedJs, unfused };
}

/** Largest relative gradient difference between two value-and-gradient functions at a few points. */
function gradientAgreement(a: ValueAndGrad, b: ValueAndGrad, dim: number): number {
  let worst = 0;
  for (let s = 0; s < 3; s++) {
    const x = Float64Array.from({ length: dim }, (_, i) => 0.1 * Math.cos(i + 3 * s));
    const ga = new Float64Array(dim), gb = new Float64Array(dim);
    a(x, ga); b(x, gb);
    const scale = Math.max(1, ...Array.from(gb, Math.abs));
    for (let k = 0; k < dim; k++) worst = Math.max(worst, Math.abs(ga[k]! - gb[k]!) / scale);
  }
  return worst;
}

// Machine peak for the passes' arithmetic: f64x2 mul + add, no FMA.
const peakLoop = glmPeakLoop();
let peakGflops = NaN;
if (peakLoop !== null) {
  const iters = 20_000_000;
  peakLoop(1_000_000);
  const runs: number[] = [];
  for (let r = 0; r < (quick ? 3 : 7); r++) {
    const c0 = process.cpuUsage();
    peakLoop(iters);
    const c = process.cpuUsage(c0);
    runs.push(iters * PEAK_FLOPS_PER_ITERATION / ((c.user + c.system) * 1e3));
  }
  peakGflops = Math.max(...runs);
}

interface StanFixture { readonly [model: string]: { readonly us_per_gradient: number } | string }
let stan: StanFixture = {};
try { stan = JSON.parse(readFileSync(new URL('./stan/glm-gradient.json', import.meta.url), 'utf8')) as StanFixture; } catch { /* no fixture: the column says so */ }
const stanUs = (key: string): number => { const e = stan[key]; return typeof e === 'object' ? e.us_per_gradient : NaN; };

let dia: ReturnType<typeof diamondsData> | undefined;
try { dia = diamondsData(); } catch (e) { console.log(`  (diamonds skipped: posteriordb's data could not be read: ${(e as Error).message.split('\n')[0]})`); }
const models = [
  { name: `logistic regression N=${logistic.N} D=${logistic.D}`, key: 'logistic_regression', N: logistic.N, D: logistic.D,
    cols: compiledColumns(() => logisticModel(logistic)), hand: (ld: CompiledLogDensity<never>) => logisticRegression(ld.params, logistic.X, logistic.y, logistic.D) },
  ...(dia === undefined ? [] : [{ name: `diamonds N=${dia.N} D=${dia.D}`, key: 'diamonds', N: dia.N, D: dia.D,
    cols: compiledColumns(() => diamondsModel(dia!)), hand: (ld: CompiledLogDensity<never>) => diamonds(ld.params, dia!.Xc, dia!.Y, dia!.D) }]),
];

console.log(`\nData-heavy GLMs: CPU µs per value-and-gradient call (median of ${ROUNDS} interleaved rounds); GFLOP/s over 4·N·D flops; machine peak (wasm f64x2 mul+add, no FMA) ${peakGflops.toFixed(2)} GFLOP/s`);
const header = ['model', 'fused wasm', 'fused JS', 'unfused compiled', 'hand-written JS', 'Stan (rstan)', 'fused wasm / Stan', 'GFLOP/s fused wasm', '% of peak'];
const rows: string[][] = [];
for (const m of models) {
  const { fusedWasm, fusedJs, unfused } = m.cols;
  const hand = m.hand(fusedWasm);
  const dim = fusedWasm.dim;
  const agree = gradientAgreement(hand, (x, g) => fusedWasm.logDensityGradient(x, g), dim);
  const agreeUnfused = gradientAgreement((x, g) => unfused.logDensityGradient(x, g), (x, g) => fusedWasm.logDensityGradient(x, g), dim);
  console.log(`  ${m.name}: gradients agree, hand-written vs fused ${agree.toExponential(1)}, unfused vs fused ${agreeUnfused.toExponential(1)} (max relative)`);
  const t = timeColumns([
    { name: 'fused wasm', f: (x, g) => fusedWasm.logDensityGradient(x, g) },
    { name: 'fused JS', f: (x, g) => fusedJs.logDensityGradient(x, g) },
    { name: 'unfused', f: (x, g) => unfused.logDensityGradient(x, g) },
    { name: 'hand', f: hand },
  ], dim);
  const s = stanUs(m.key);
  const gflops = 4 * m.N * m.D / (t[0]! * 1e3);
  rows.push([m.name, ...t.map((v) => v.toFixed(1)), Number.isNaN(s) ? 'no fixture' : s.toFixed(1), Number.isNaN(s) ? '-' : (t[0]! / s).toFixed(2) + '×',
    gflops.toFixed(2), (100 * gflops / peakGflops).toFixed(0) + '%']);
}
printTable(header, rows);

// The fused kernel alone, by family, on the logistic X (wasm and JS passes).
console.log('\nThe fused kernel alone on the logistic X (N=5000, D=25): CPU µs per value and gradient');
const kRows: string[][] = [];
const kernelUs: number[][] = [];
for (const family of ['normal_id', 'bernoulli_logit', 'poisson_log'] as GlmFamily[]) {
  const y = family === 'normal_id' ? logistic.y.map((v) => v - 0.5) : logistic.y;
  const kw = glmKernel(family, logistic.X, y, logistic.N, logistic.D, { wasm: true });
  const kj = glmKernel(family, logistic.X, y, logistic.N, logistic.D, { wasm: false });
  const kw1 = glmKernel(family, logistic.X, y, logistic.N, logistic.D, { wasm: true, blockPairs: logistic.N });
  const gb = new Float64Array(logistic.D), gs = new Float64Array(2);
  const f = (k: typeof kw): ValueAndGrad => (x) => k.valueAndGradient(x, 0.1, 1.3, gb, gs);
  const t = timeColumns([{ name: 'wasm', f: f(kw) }, { name: 'js', f: f(kj) }, { name: 'wasm unblocked', f: f(kw1) }], logistic.D);
  kernelUs.push(t);
  const perRow = (c: number) => (family === 'normal_id' ? '-' : (1e3 * (t[c]! - kernelUs[0]![c]!) / logistic.N).toFixed(1));
  kRows.push([family, t[0]!.toFixed(1), t[1]!.toFixed(1), t[2]!.toFixed(1), (4 * logistic.N * logistic.D / (t[0]! * 1e3)).toFixed(2), perRow(0), perRow(1)]);
}
printTable(['family', `wasm, ${2 * BLOCK_PAIRS}-row blocks`, 'JS passes', 'wasm, one block (3 whole passes)', 'GFLOP/s (wasm)',
  'ns/row over normal_id (wasm)', '(JS)'], kRows);
if (typeof stan.note === 'string') console.log(`\nStan column: ${stan.note}`);

function printTable(head: readonly string[], body: readonly (readonly string[])[]): void {
  const w = head.map((h, j) => Math.max(h.length, ...body.map((r) => r[j]!.length)));
  const line = (r: readonly string[]) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]!) : c.padStart(w[j]!))).join('  ');
  console.log(line(head));
  for (const r of body) console.log(line(r));
}
