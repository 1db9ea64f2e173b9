/**
 * The CLI's outputs worker: runs named after-sampling tasks (`cli/report/output-tasks.ts`) on a
 * second thread while the main thread draws the predictive and builds the summary and report.
 * A message is one batch: the InferenceData once, and per task its name, a port for the result
 * and a shared state word (queued, taken by this worker, done, or taken by the main thread),
 * set to done and notified when the result is on the port, because the main thread may wait for
 * it synchronously. Tasks run in the order given; a task the main thread took is skipped.
 */
import { parentPort } from 'node:worker_threads';
import { decodeValue, encodeValue } from '../src/effects/clone.js';
import { OUTPUT_TASKS, type OutputTaskInput, type OutputTaskName } from './report/output-tasks.js';
import { DONE, QUEUED, WORKER, type OutputsBatch } from './outputs.js';

const port = parentPort!;
port.on('message', (m: OutputsBatch | { ready: Int32Array }) => {
  if ('ready' in m) { Atomics.store(m.ready, 0, 1); return; }
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
