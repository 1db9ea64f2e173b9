/**
 * One step-by-step HMM's gradient time (examples/hmm-step-by-step.ts, enumerated), for
 * bench/long-programs.ts, which runs this file in a fresh process per T: a user's model is
 * compiled alone in its process, and programs compiled earlier in the same process slowed later
 * ones by 10–50% (the T = 1000 gradient measured 0.36–0.63 ms after a T = 100 program, 0.36–0.44
 * alone), which made a T = 1000 / T = 100 ratio depend on the order of measurement.
 * Warm-up: the same number of HMM steps at every T (4 million) and at least 4 s of CPU (V8
 * optimizes on a background thread); then the best of 5 batches, CPU time.
 *
 * Run: npx tsx bench/hmm-gradient.ts T [straight]   (prints CPU ms per gradient)
 */
import { fileURLToPath } from 'node:url';
import { setRolling } from '../src/compile/roll.js';
import { flatTarget } from '../distributions/compile-log-density.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import { observations, pinsOf, stepByStepHmm } from '../examples/hmm-step-by-step.js';

/** CPU ms per value and gradient of the step-by-step HMM over T steps (rolled unless `straight`). */
export function hmmGradientMs(T: number, straight = false): number {
  setRolling(!straight);
  const t = flatTarget('bench', flatModel('bench', stepByStepHmm(T).experimentalPin(pinsOf(observations(T))) as never), true).value;
  setRolling(true);
  const g = new Float64Array(3), x = [-1.5, 0.3, 2.5];
  const cpu = (): number => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
  const calls = Math.round(4e6 / T), c0 = cpu();
  for (let i = 0; i < calls || cpu() - c0 < 4000; i++) t.logDensityGradient(x, g);
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const b0 = cpu(), n = Math.ceil(calls / 10);
    for (let i = 0; i < n; i++) t.logDensityGradient(x, g);
    best = Math.min(best, (cpu() - b0) / n);
  }
  return best;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const T = Number(process.argv[2]);
  if (!Number.isInteger(T) || T < 2) throw new RangeError(`usage: npx tsx bench/hmm-gradient.ts T [straight]; got T = ${process.argv[2]}`);
  console.log(String(hmmGradientMs(T, process.argv[3] === 'straight')));
}
