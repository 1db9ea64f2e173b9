/**
 * Long scalar programs (issue 33 item 2): a GARCH-like ARMA(1,1) recursion written step by step
 * (~4 traced ops per step; T steps) and the step-by-step HMM of examples/hmm-step-by-step.ts,
 * compiled with and without the splitting into pieces V8 optimizes (src/compile/chunk.ts).
 * Prints compile time (wall and CPU) and the CPU time per gradient after warm-up (best of 5
 * batches), per traced op for the recursion, after 2,000+ calls (pieces start slower than one
 * function: their shared slots cost more until V8 has optimized every piece, which takes longer
 * the more pieces there are). The HMM rows warm up for at least 4 s of CPU per program, as V8
 * optimizes its pieces on a background thread. CPU time (process.cpuUsage) rather than wall
 * time, as the machine may be shared; it counts V8's background compiler threads too.
 *
 * Run: npx tsx bench/long-programs.ts   (npm run bench runs it too)
 */
import { compileGradient } from '../src/compile/index.js';
import { setChunking } from '../src/compile/chunk.js';
import { flatTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import { observations, pinsOf, stepByStepHmm } from '../examples/hmm-step-by-step.js';
import { add, mul, stack, sub, sum, tensor, type Tensor } from '../src/index.js';

const cpuNow = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const cpuMs = (f: () => void, n: number): number => {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000 / n);
  }
  return best;
};

/** ARMA(1,1) residuals written step by step: err_t = y_t − φ·y_{t−1} − θ·err_{t−1}; Σ err². */
const arma = (T: number) => {
  const y = Array.from({ length: T }, (_, i) => Math.sin(0.3 * i) + 0.1 * Math.cos(1.7 * i));
  return (phi: Tensor, theta: Tensor) => {
    let err = sub(tensor(y[0]!), phi);
    const errs: Tensor[] = [err];
    for (let t = 1; t < T; t++) { err = sub(tensor(y[t]!), add(mul(phi, tensor(y[t - 1]!)), mul(theta, err))); errs.push(err); }
    return sum(mul(stack(errs), stack(errs)));
  };
};

console.log('ARMA(1,1) step by step      ops   compile (CPU)  µs/op(compile)  gradient (one function)  gradient (pieces)');
const compileCpuAt = new Map<number, number>();
for (const T of [250, 1000, 4000, 12500]) {
  const ops = 4 * T;
  const point = [tensor(0.3), tensor(0.2)];
  const row: string[] = [];
  let compileMs = 0, compileCpu = 0;
  for (const chunked of [false, true]) {
    setChunking(chunked);
    const t0 = performance.now(), c0 = cpuNow();
    const c = compileGradient('bench', arma(T), point);
    if (chunked) { compileMs = performance.now() - t0; compileCpu = cpuNow() - c0; }
    const warm = Math.max(2000, Math.round(2e7 / ops));
    for (let i = 0; i < warm; i++) c.run(true);
    row.push(`${((cpuMs(() => c.run(true), Math.max(20, Math.round(2e5 / ops))) * 1e6) / ops).toFixed(0).padStart(5)} ns/op`);
  }
  setChunking(true);
  compileCpuAt.set(4 * T, compileCpu);
  console.log(`T = ${String(T).padEnd(6)} ${String(ops).padStart(20)} ${(compileMs / 1000).toFixed(2).padStart(7)} s (${(compileCpu / 1000).toFixed(2)} s) ${(compileMs / ops * 1000).toFixed(0).padStart(9)} µs ${row[0]!.padStart(22)} ${row[1]!.padStart(18)}`);
}
// Issue 33's acceptance: 10× the operations within 12× the compile time.
console.log(`compile CPU 50,000 ops / 4,000 ops: ${(compileCpuAt.get(50_000)! / compileCpuAt.get(4000)!).toFixed(1)}× for 12.5× the ops`);

console.log('\nHMM written step by step (enumerated), CPU ms per gradient   T = 100   T = 300  T = 1000   ratio 1000/100');
for (const chunked of [false, true]) {
  setChunking(chunked);
  const target = (T: number) => flatTarget('bench', flatModel('bench', stepByStepHmm(T).experimentalPin(pinsOf(observations(T))) as never), true).value;
  const g = new Float64Array(3), x = [-1.5, 0.3, 2.5];
  const times = [100, 300, 1000].map((T) => {
    const t = target(T);
    // Warm up: at least 2,000 calls and 4 s of CPU (V8 optimizes each piece on a background thread).
    const c0 = cpuNow();
    for (let i = 0; i < 2000 || cpuNow() - c0 < 4000; i++) t.logDensityGradient(x, g);
    return cpuMs(() => t.logDensityGradient(x, g), Math.max(10, Math.round(20_000 / T)));
  });
  console.log(`${chunked ? 'pieces' : 'one function'}${' '.repeat(chunked ? 50 : 44)}${times.map((t) => t.toFixed(3).padStart(8)).join(' ')} ${(times[2]! / times[0]!).toFixed(1).padStart(9)}`);
}
setChunking(true);
