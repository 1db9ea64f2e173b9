/**
 * The worker script of `sampleChains` (Node worker thread or module Web Worker). It applies the
 * main thread's `configure()` modes, imports the model module, then runs the chains it is sent,
 * one at a time: effects issued while a chain runs are posted to the main thread tagged with the
 * chain and a sequence number; progress is posted as the loop reports it; the chain ends with
 * `done` (its result), `error` (the original error, serialized) or `aborted` (its partial draws).
 * An abort is a flag in shared memory that the loop reads between kernel steps. Effects issued
 * outside a chain (at the model module's top level, while it is imported) are not posted: they
 * are delivered in the worker itself.
 */
import { configure, type Modes } from '../../src/config.js';
import { encodeValue } from '../../src/effects/clone.js';
import { isNode } from '../../src/effects/platform.js';
import { setRemoteSink } from '../../src/effects/remote.js';
import { AbortError } from '../abort-error.js';
import { decodeTask, prepareChain } from './chain-task.js';
import { serializeError } from '../internal/chain-error.js';
import type { ToWorker } from './messages.js';
import { checkModelModule, exportNameOf, importModule, type ModelModule } from './model-module.js';
import { loadPlatform, type ParentPort } from './platform.js';

const FN = 'sampleChains';

let module: object | undefined;
let moduleUrl = '';
let initError: unknown;
let abortFlag: Int32Array | undefined;
let wantProgress = true;
let port!: ParentPort;
// Messages are handled one at a time, in order, once the platform layer has loaded.
const platformReady = loadPlatform().then((p) => { port = p.parent(); });
let queue: Promise<void> = platformReady;

function handle(m: ToWorker): void {
  queue = queue.then(() => (m.type === 'init' ? init(m.model, m.modes, m.abortFlag, m.progress) : run(m.task)));
}

// A Web Worker's messages are dispatched as soon as its module starts evaluating, while the
// platform layer is still being imported (a top-level await): listen now, or the first
// messages are lost. Node queues a port's messages until a listener is attached.
if (!isNode) {
  (globalThis as unknown as { addEventListener(t: 'message', l: (e: MessageEvent) => void): void })
    .addEventListener('message', (e) => handle(e.data as ToWorker));
}

async function init(url: string, modes: Modes, flag: SharedArrayBuffer | undefined, progress: boolean | undefined): Promise<void> {
  wantProgress = progress !== false;
  configure({ x64: modes.x64, threefryPartitionable: modes.partitionable });
  abortFlag = flag === undefined ? undefined : new Int32Array(flag);
  moduleUrl = url;
  try {
    module = await importModule(FN, url);
  } catch (e) {
    initError = e;
  }
}

async function run(message: unknown): Promise<void> {
  const task = decodeTask(message);
  const chain = task.chainIndex;
  let seq = 0;
  setRemoteSink({
    post: (kind, ordered, payload) => port.post({ type: 'effect', effect: { chain, seq: seq++, kind, ordered, payload } }),
    exportName: (f) => (module === undefined ? undefined : exportNameOf(module as ModelModule, f)),
  });
  const controller = new AbortController();
  try {
    if (module === undefined) throw initError;
    if (task.joint === undefined) checkModelModule(FN, moduleUrl, module);
    const steps = await prepareChain(FN, module, task, {
      // A joint chain is one synchronous call: it reads the shared abort flag itself (a setup
      // chain's steps are checked by the loop below).
      signal: task.joint !== undefined && abortFlag !== undefined ? flagSignal(abortFlag, controller.signal) : controller.signal,
      onProgress: wantProgress ? (progress) => port.post({ type: 'progress', chain, progress }) : undefined,
    });
    for (;;) {
      if (abortFlag !== undefined && Atomics.load(abortFlag, 0) !== 0 && !controller.signal.aborted) controller.abort();
      const r = steps.next();
      if (!r.done) continue;
      // Copied, not transferred: a transfer would detach this thread's buffers, and after one
      // detach V8 runs every typed-array access in the thread ~15% slower (the next chains too).
      const result = {
        allStates: encodeValue(FN, 'result', r.value.allStates),
        trace: encodeValue(FN, 'result', r.value.trace),
        finalKernelResults: encodeValue(FN, 'finalKernelResults', r.value.finalKernelResults),
        finalSeed: encodeValue(FN, 'finalSeed', r.value.finalSeed),
      };
      port.post({ type: 'done', chain, result });
      return;
    }
  } catch (e) {
    if (e instanceof AbortError) {
      port.post({ type: 'aborted', chain, partial: encodeValue(FN, 'partial', e.partial) });
    } else {
      port.post({ type: 'error', chain, error: serializeError(e) });
    }
  } finally {
    setRemoteSink(undefined);
  }
}

/** An AbortSignal that is also aborted once the main thread sets the shared flag (read on every `aborted` check). */
function flagSignal(flag: Int32Array, signal: AbortSignal): AbortSignal {
  return new Proxy(signal, {
    get(target, prop) {
      if (prop === 'aborted') return target.aborted || Atomics.load(flag, 0) !== 0;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as Function).bind(target) : v;
    },
  });
}

await platformReady;
if (isNode) port.onMessage(handle);
