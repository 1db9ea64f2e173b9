/**
 * The CLI's after-sampling work on two threads, for large runs (from `outputsTuning.minValues`
 * values; smaller ones are faster in one thread). `stochax sample` starts one outputs worker
 * (`outputs-worker.ts`) once it has loaded a large run's model, so it loads while the chains
 * sample. After sampling a large run hands the worker the tasks
 * that need no model (`report/output-tasks.ts`: LOO as soon as the log-likelihood is drawn, then
 * the report's plots, draws.json with draws.csv, the netCDF groups, the PPC plot) while this
 * thread draws the predictive and prints the summary. When this thread asks for a result the
 * worker has not started, it runs that task itself rather than wait (each task's state is one
 * shared word both threads claim with compare-and-swap), so the two balance their work whatever
 * each part costs. Both threads run the same functions on the same values, so every output is
 * the same bytes as in one thread; a task the worker cannot take (no worker, no worker threads,
 * a failure there) runs here, when its result is first asked for.
 *
 * One worker per process, reused by later runs and unref'd so it never keeps the process alive.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { decodeValue, encodeValue } from '../src/effects/clone.js';
import { Tensor } from '../src/tensor/tensor.js';
import { nodeWorker } from '../mcmc/parallel/platform-node.js';
import { OUTPUT_TASKS, type OutputTaskInput, type OutputTaskName, type OutputTaskResult } from './report/output-tasks.js';

/** One batch posted to the worker (see outputs-worker.ts). @internal */
export interface OutputsBatch {
  readonly input: unknown;
  readonly tasks: readonly { readonly name: OutputTaskName; readonly port: MessagePort; readonly state: Int32Array }[];
}

/** A task's shared state: queued, taken by the worker, done there (its result on the port), taken by the main thread. @internal */
export const QUEUED = 0, WORKER = 1, DONE = 2, HERE = 3;

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

/** Seconds to wait for a task on the worker before running it here (a worker that died never answers). */
const TAKE_TIMEOUT_S = 300;

/** Each large tensor's shared copy, so that a tensor sent in two batches is copied once. */
const sharedCopies = new WeakMap<Tensor, Tensor>();

/**
 * `value` with every large tensor replaced by one with the same values in a SharedArrayBuffer:
 * posting it then costs nothing on either side (one copy here instead of a serialization here
 * and a deserialization on the worker, which held LOO back by ~60 ms for 41 MB). Both threads
 * only read the draws.
 */
function shareLarge(value: unknown): unknown {
  if (value instanceof Tensor) {
    if (value.size < outputsTuning.shareValues || value.data.buffer instanceof SharedArrayBuffer) return value;
    let copy = sharedCopies.get(value);
    if (copy === undefined) {
      const data = value.data as Exclude<Tensor['data'], readonly unknown[]>;
      const Ctor = data.constructor as new (b: SharedArrayBuffer) => typeof data;
      const shared = new Ctor(new SharedArrayBuffer(data.byteLength));
      (shared as unknown as { set(a: ArrayLike<unknown>): void }).set(data as ArrayLike<unknown>);
      sharedCopies.set(value, copy = new Tensor(shared as Tensor['data'], value.shape, value.dtype));
      outputsTuning.copiedValues += value.size;
    }
    return copy;
  }
  if (Array.isArray(value)) return value.map(shareLarge);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shareLarge(v)]));
  }
  return value;
}

/**
 * The tasks sent to the worker that this thread may still take over (`steal` is a no-op once a
 * task started anywhere). Pruned of started ones at each batch: an entry holds its run's
 * InferenceData, which must not outlive the run in a long-lived process.
 */
let queued: { readonly state: Int32Array; readonly steal: () => boolean }[] = [];

/** A task run in this thread: its result, or its error (kept, so a second take throws it again without running the task again). */
type Settled = { readonly value: unknown } | { readonly error: unknown };

function settle(name: OutputTaskName, input: OutputTaskInput): Settled {
  try {
    return { value: OUTPUT_TASKS[name](input) };
  } catch (e) {
    return { error: e };
  }
}

function taken(got: Settled): unknown {
  if ('error' in got) throw got.error;
  return got.value;
}

/** A task's result, taken synchronously where it is needed. */
export interface OutputTask<T> {
  /** The result (waiting for the worker if it runs there); the task's own error if it throws. */
  take(): T;
}

/**
 * Runs the named tasks on the worker (if there is one and `useWorker`), in the order given; a
 * task not sent, or not yet started there when it is taken, runs in this thread then.
 *
 * @example
 * const t = outputTasks({ idata }, ['loo', 'drawsFiles']);
 * const files = t.drawsFiles.take();
 */
export function outputTasks<K extends OutputTaskName>(input: OutputTaskInput, names: readonly K[], useWorker = true): { [N in K]: OutputTask<OutputTaskResult<N>> } {
  const here = <N extends OutputTaskName>(name: N): OutputTask<OutputTaskResult<N>> => {
    let got: Settled | undefined;
    return { take: () => taken(got ??= settle(name, input)) as OutputTaskResult<N> };
  };
  const out = {} as { [N in K]: OutputTask<OutputTaskResult<N>> };
  // Sent even before the worker is ready (it reads its messages once loaded): this thread takes back what it has not started.
  const w = outputsTuning.worker && useWorker ? outputsWorker() : undefined;
  if (w === undefined) {
    for (const n of names) out[n] = here(n) as never;
    return out;
  }
  const tasks = names.map((name) => {
    const { port1, port2 } = new MessageChannel();
    return { name, port: port2, mine: port1, state: new Int32Array(new SharedArrayBuffer(4)) };
  });
  // `background` is for this thread only: the worker writes at once.
  const { background: _, ...posted } = input;
  w.postMessage({ input: encodeValue('outputs', 'input', shareLarge(posted)), tasks: tasks.map(({ name, port, state }) => ({ name, port, state })) } satisfies OutputsBatch, tasks.map((t) => t.port));
  outputsTuning.sent++;
  queued = queued.filter((q) => Atomics.load(q.state, 0) === QUEUED);
  for (const t of tasks) {
    let got: Settled | undefined;
    const runHere = (): void => { got = settle(t.name, input); };
    // Not started on the worker: this thread, which would only wait, runs it (the threads balance their work).
    const steal = (): boolean => {
      if (!outputsTuning.steal || Atomics.compareExchange(t.state, 0, QUEUED, HERE) !== QUEUED) return false;
      t.mine.close();
      runHere();
      return true;
    };
    queued.push({ state: t.state, steal });
    out[t.name] = {
      take: () => {
        if (got === undefined && !steal()) {
          // Running on the worker: first the tasks still queued (the last sent first, as the worker takes the first), then wait.
          for (let i = queued.length - 1; i >= 0; i--) queued[i]!.steal();
          queued = [];
          let m: { value?: unknown; failed?: true } | undefined;
          try {
            const deadline = performance.now() + TAKE_TIMEOUT_S * 1000;
            while (Atomics.load(t.state, 0) !== DONE && performance.now() < deadline) Atomics.wait(t.state, 0, Atomics.load(t.state, 0), 1000);
            m = receiveMessageOnPort(t.mine)?.message as typeof m;
            t.mine.close();
          } catch { /* a runtime without these: the task runs here */ }
          if (m !== undefined && m.failed !== true) {
            outputsTuning.fromWorker++;
            got = { value: decodeValue(m.value) };
          } else {
            runHere();
          }
        }
        return taken(got!);
      },
    } as never;
  }
  return out;
}
