/**
 * Starting the CLI's outputs worker (`outputs.ts` runs the tasks): a module with no dependency
 * on the report, so `stochax sample` can start the worker before it loads the rest of the CLI
 * and the worker loads beside it.
 */
import type { Worker } from 'node:worker_threads';
import { nodeWorker } from '../mcmc/parallel/platform-node.js';

/**
 * `minValues`: the run size (values in all groups of its InferenceData) from which `stochax
 * sample` uses the outputs worker. Below, one thread is faster: the worker's isolate pays V8's
 * warm-up again for all it runs (eight schools, ~0.15 M values: 0.39–0.48 s after sampling with
 * it, 0.30–0.36 s without; fresh processes, 2 cores); above, it pays (8 M values: 0.68–0.86 s
 * against 0.75–0.88 s; 24 M values: 2.2–2.6 s against 2.8–3.3 s).
 *
 * For tests: `worker: false` runs every task in this thread; `steal: false` leaves every task
 * sent to the worker there; `sent` counts the batches sent, `fromWorker` the results received.
 * `shareValues`: tensors from this size (values) cross to the worker in shared memory (the
 * predictive groups are drawn there, others copied once into it; `copiedValues` counts them).
 */
export const outputsTuning: { minValues: number; worker: boolean; steal: boolean; sent: number; fromWorker: number; shareValues: number; copiedValues: number } = { minValues: 1_000_000, worker: true, steal: true, sent: 0, fromWorker: 0, shareValues: 1 << 16, copiedValues: 0 };

let shared: { worker: Worker; ready: Int32Array } | null | undefined;

/**
 * Starts the outputs worker if there is none (a no-op after the first call, or where worker
 * threads cannot start): call it before sampling so the worker loads while the chains run.
 *
 * @example
 * startOutputsWorker();
 */
export function startOutputsWorker(): void {
  if (shared !== undefined || !outputsTuning.worker) return;
  try {
    const worker = nodeWorker(new URL(/\.[mc]?tsx?$/.test(new URL(import.meta.url).pathname) ? './outputs-worker.ts' : './outputs-worker.js', import.meta.url));
    worker.unref();
    const ready = new Int32Array(new SharedArrayBuffer(4));
    worker.postMessage({ ready });
    worker.on('error', () => { shared = null; });
    worker.on('exit', () => { shared = null; });
    shared = { worker, ready };
  } catch {
    shared = null;
  }
}

/** The outputs worker, or undefined when none was started or it failed. @internal */
export function outputsWorker(): Worker | undefined {
  return shared?.worker;
}

/** Whether the outputs worker has started and is taking tasks (for tests and the bench). */
export function outputsWorkerReady(): boolean {
  return shared != null && Atomics.load(shared.ready, 0) === 1;
}
