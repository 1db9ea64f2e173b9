/**
 * The CLI's outputs worker: runs named after-sampling tasks (`cli/report/output-tasks.ts`) on a
 * second thread while the main thread draws the predictive and builds the summary and report.
 * A message is one batch: the InferenceData once, and per task its name, a port for the result
 * and a shared word set to 1 (and notified) when the result is on the port, because the main
 * thread may wait for it synchronously. Tasks run in the order given.
 */
import { parentPort } from 'node:worker_threads';
import { decodeValue, encodeValue } from '../src/effects/clone.js';
import { OUTPUT_TASKS, type OutputTaskInput, type OutputTaskName } from './report/output-tasks.js';
import type { OutputsBatch } from './outputs.js';

const port = parentPort!;
port.on('message', (m: OutputsBatch | { ready: Int32Array }) => {
  if ('ready' in m) { Atomics.store(m.ready, 0, 1); return; }
  const input = decodeValue(m.input) as OutputTaskInput;
  for (const t of m.tasks) {
    try {
      t.port.postMessage({ value: encodeValue('outputs', t.name, OUTPUT_TASKS[t.name as OutputTaskName](input)) });
    } catch {
      // The main thread runs the task itself, so the error it reports is the in-process one.
      t.port.postMessage({ failed: true });
    } finally {
      t.port.close();
      Atomics.store(t.done, 0, 1);
      Atomics.notify(t.done, 0);
    }
  }
});
