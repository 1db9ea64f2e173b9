/**
 * The CLI's outputs worker: runs named after-sampling tasks (`cli/report/output-tasks.ts`) on a
 * second thread while the main thread draws the predictive and builds the summary and report.
 * A message is one batch: the InferenceData once, and per task its name, a port for the result
 * and a shared state word (queued, taken by this worker, done, or taken by the main thread),
 * set to done and notified when the result is on the port, because the main thread may wait for
 * it synchronously. Tasks run in the order given; a task the main thread took is skipped.
 *
 * Until its first batch arrives (the chains are still sampling), the worker runs every task once
 * on a small made-up InferenceData and throws the results away: V8 then compiles the tasks'
 * code while a core is idle, instead of running it cold on the run's draws. One step per event
 * loop turn, so a batch that arrives is taken at the next step; the rest of the warm-up is
 * dropped. Nothing it computes reaches an output.
 */
import { parentPort } from 'node:worker_threads';
import { decodeValue, encodeValue } from '../src/effects/clone.js';
import { OUTPUT_TASKS, type OutputTaskInput, type OutputTaskName } from './report/output-tasks.js';
import { DONE, QUEUED, WORKER, type OutputsBatch } from './outputs.js';
import { Tensor } from '../src/tensor/tensor.js';

/** A made-up run (4 chains × 250 draws, two variables, 12 observations) with every group the tasks read. */
function warmUpInput(): OutputTaskInput {
  const D = 250, C = 4, N = 12;
  const f = (shape: number[], g: (i: number) => number) => new Tensor(Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => g(i)), shape, 'float64');
  const wave = (i: number) => (Math.imul(i + 1, 2654435761) >>> 0) / 2 ** 31 - 1;   // fixed numbers in [−1, 1), no generator needed
  const idata = {
    posterior: { mu: f([D, C], wave), theta: f([D, C, 3], (i) => 2 * wave(i + 1)) },
    sampleStats: {
      diverging: new Tensor(Uint8Array.from({ length: D * C }, (_, i) => (i % 97 === 0 ? 1 : 0)), [D, C], 'bool'),
      energy: f([D, C], (i) => 5 + wave(i + 2)), stepSize: f([D, C], () => 0.5), treeDepth: new Tensor(Int32Array.from({ length: D * C }, (_, i) => 2 + (i % 3)), [D, C], 'int32'),
    },
    logLikelihood: { y: f([D, C, N], (i) => -1 - Math.abs(wave(i + 3))) },
    posteriorPredictive: { y: f([D, C, N], (i) => 3 * wave(i + 4)) },
    observedData: { y: f([N], (i) => 3 * wave(i + 5)) },
  };
  return { idata, files: { format: 'netcdf' }, csv: { trace: idata.sampleStats, labels: {} } };
}

let warmUp: OutputTaskName[] | undefined = ['plots', 'drawsFiles', 'netcdf', 'loo', 'ppc'];
/** One warm-up task, then the next at the following turn of the event loop. */
function warmUpStep(input: OutputTaskInput): void {
  const name = warmUp?.shift();
  if (name === undefined) return;
  try { OUTPUT_TASKS[name](input); } catch { /* warm-up only */ }
  setImmediate(() => warmUpStep(input));
}

const port = parentPort!;
port.on('message', (m: OutputsBatch | { ready: Int32Array }) => {
  if ('ready' in m) {
    Atomics.store(m.ready, 0, 1);
    setImmediate(() => warmUpStep(warmUpInput()));
    return;
  }
  warmUp = undefined;   // the run's work has come: no more warm-up
  const input = decodeValue(m.input) as OutputTaskInput;
  for (const t of m.tasks) {
    // The main thread may have taken the task itself, having nothing else to do.
    if (Atomics.compareExchange(t.state, 0, QUEUED, WORKER) !== QUEUED) { t.port.close(); continue; }
    try {
      t.port.postMessage({ value: encodeValue('outputs', t.name, OUTPUT_TASKS[t.name as OutputTaskName](input)) });
    } catch {
      // The main thread runs the task itself, so the error it reports is the in-process one.
      t.port.postMessage({ failed: true });
    } finally {
      t.port.close();
      Atomics.store(t.state, 0, DONE);
      Atomics.notify(t.state, 0);
    }
  }
});
