import { flatTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import { observations, pinsOf, stepByStepHmm } from '../examples/hmm-step-by-step.js';
const target = (T: number) => flatTarget('test', flatModel('test', stepByStepHmm(T).experimentalPin(pinsOf(observations(T))) as never), true).value;
const per = (t: ReturnType<typeof target>, warm: number, n: number) => {
  const g = new Float64Array(3), x = [-1.5, 0.3, 2.5];
  for (let i = 0; i < warm; i++) t.logDensityGradient(x, g);
  let best = Infinity;
  for (let r = 0; r < 5; r++) { const c0 = process.cpuUsage(); for (let i = 0; i < n; i++) t.logDensityGradient(x, g); const c = process.cpuUsage(c0); best = Math.min(best, (c.user + c.system) / 1000 / n); }
  return best;
};
const t0 = performance.now(); const a = target(100); const t1 = performance.now(); const b = target(1000); const t2 = performance.now();
const c100 = per(a, 3000, 200), c1000 = per(b, 1000, 50);
console.log(`compile ${(t1 - t0).toFixed(0)} ms / ${(t2 - t1).toFixed(0)} ms; compiled gradient T=100 ${c100.toFixed(3)} ms, T=1000 ${c1000.toFixed(3)} ms, ratio ${(c1000 / c100).toFixed(1)}`);
