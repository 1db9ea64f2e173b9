/**
 * Long scalar programs (issues 33 and 35): an ARMA(1,1) recursion written step by step (~4
 * traced ops per step; T steps), posteriordb's arma11 and garch11 (bench/models/time-series.ts)
 * and the step-by-step HMM of examples/hmm-step-by-step.ts (each T in a fresh process: bench/hmm-gradient.ts), compiled with repeated steps rolled
 * into loops (src/compile/roll.ts, the default) and as straight-line code split into pieces V8
 * optimizes (src/compile/chunk.ts; `setRolling(false)`). Same bits either way.
 * Prints compile time (CPU) and the CPU time per gradient after warm-up (best of 5 batches), per
 * traced op for the recursion, after 2,000+ calls (pieces start slower than one function: their
 * shared slots cost more until V8 has optimized every piece). CPU time (process.cpuUsage)
 * rather than wall time, as the machine may be shared; it counts V8's background compiler threads too.
 *
 * Run: npx tsx bench/long-programs.ts   (npm run bench runs it too)
 */
import { compileGradient } from '../src/compile/index.js';
import { setRolling } from '../src/compile/roll.js';
import { armaData, armaModel, garchData, garchModel } from './models/time-series.js';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { flatTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';
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

/** Compiles `make()` and returns [compile CPU ms, CPU ms per call of `call` after warm-up]. */
const measure = <C>(make: () => C, call: (c: C) => void, warm: number, n: number): [number, number] => {
  const c0 = cpuNow();
  const c = make();
  const compile = cpuNow() - c0;
  for (let i = 0; i < warm; i++) call(c);
  return [compile, cpuMs(() => call(c), n)];
};

console.log('ARMA(1,1) step by step      ops   rolled: compile (CPU)  gradient     straight-line pieces: compile (CPU)  gradient');
const compiles: number[] = [];
for (const T of [250, 1000, 4000, 12500]) {
  const ops = 4 * T;
  const point = [tensor(0.3), tensor(0.2)];
  const row: string[] = [];
  for (const rolled of [true, false]) {
    setRolling(rolled);
    const [compile, ms] = measure(() => compileGradient('bench', arma(T), point), (c) => c.run(true), Math.max(2000, Math.round(2e7 / ops)), Math.max(20, Math.round(2e5 / ops)));
    if (rolled) compiles.push(compile);
    row.push(`${(compile / 1000).toFixed(2).padStart(7)} s ${((ms * 1e6) / ops).toFixed(1).padStart(7)} ns/op`);
  }
  setRolling(true);
  console.log(`T = ${String(T).padEnd(6)} ${String(ops).padStart(20)} ${row[0]!.padStart(30)} ${row[1]!.padStart(45)}`);
}
// Issue 33's acceptance: 10× the operations within 12× the compile time.
console.log(`compile CPU 4,000 → 50,000 ops (rolled): ${(compiles[3]! / compiles[1]!).toFixed(1)}× for 12.5× the ops`);

// posteriordb's arma11 and garch11 (bench/models/time-series.ts, T = 1000) as the samplers call them.
console.log('\nposteriordb models, T = 1000, CPU µs per gradient (logDensityGradient)   rolled   straight-line');
for (const [name, make] of [['arma11', () => armaModel(armaData())], ['garch11', () => garchModel(garchData())]] as const) {
  const us = [true, false].map((rolled) => {
    setRolling(rolled);
    const { model, pins } = make();
    const t = flatTarget('bench', flatModel('bench', model.experimentalPin(pins) as never), true).value;
    const x = Array.from({ length: t.dim }, (_, i) => 0.1 * (i + 1)), g = new Float64Array(t.dim);
    return measure(() => t, (f) => f.logDensityGradient(x, g), 5000, 500)[1] * 1000;
  });
  setRolling(true);
  console.log(`${name.padEnd(72)} ${us.map((u) => u.toFixed(1).padStart(8)).join(' ')}`);
}

console.log('\nHMM written step by step (enumerated), CPU ms per gradient, a fresh process each   T = 100   T = 300  T = 1000   ratio 1000/100');
// Each T in its own process (bench/hmm-gradient.ts): programs compiled earlier in a process slow later ones.
const child = fileURLToPath(new URL('./hmm-gradient.ts', import.meta.url));
for (const straight of [false, true]) {
  const times = [100, 300, 1000].map((T) => Number(execFileSync(process.execPath, [...process.execArgv, child, String(T), ...(straight ? ['straight'] : [])], { encoding: 'utf8' }).trim()));
  console.log(`${straight ? 'straight-line pieces' : 'rolled'}${' '.repeat(straight ? 56 : 70)}${times.map((t) => t.toFixed(3).padStart(8)).join(' ')} ${(times[2]! / times[0]!).toFixed(1).padStart(9)}`);
}
