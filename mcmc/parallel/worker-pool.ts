/**
 * Running a multi-chain task list on worker threads. Each worker imports the model once, then
 * takes the next chain whenever it is free, so the chains are spread over the workers however
 * fast each one runs; since every chain is a pure function of its task, the result cannot depend
 * on that schedule. The promise settles exactly once: with every chain's result, with a
 * `ChainError` for the first chain that fails (its worker throwing or dying), or with an
 * `AbortError` carrying the draws completed so far; the workers are stopped in every case.
 */
import { getModes } from '../../src/config.js';
import { decodeValue } from '../../src/effects/clone.js';
import type { EffectsContext } from '../../src/effects/context.js';
import type { ChainSequencer } from '../../src/effects/sequencer.js';
import type { KeyArray } from '../../src/random/key-array.js';
import type { State } from '../kernel.js';
import type { Trace } from '../internal/stack.js';
import type { ChainProgress, PartialChain, SampleChainResult } from '../sample-chain.js';
import { AbortError } from '../abort-error.js';
import { ChainError, deserializeError } from '../internal/chain-error.js';
import { encodeTask, type ChainTask } from './chain-task.js';
import type { FromWorker } from './messages.js';
import { completedAsPartial, partialChains, type PartialChains } from './partial-chains.js';
import { loadPlatform, type WorkerHandle } from './platform.js';

/** How long an aborted run waits for busy workers to report their partial draws before stopping them (ms). */
const ABORT_GRACE_MS = 2000;

/** One multi-chain run on workers. */
export interface WorkerRun {
  readonly fn: string;
  readonly model: string;
  readonly tasks: readonly ChainTask[];
  readonly workers: number;
  readonly ctx: EffectsContext;
  readonly sequencer: ChainSequencer;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((chain: number, p: ChainProgress) => void) | undefined;
  /** Where the workers come from (default: fresh workers, stopped when the run ends). */
  readonly source?: WorkerSource;
}

/**
 * Where a run gets its workers and where it gives them back: `give(h, reusable)` with
 * `reusable` true when the worker finished its chains normally and may serve another run.
 */
export interface WorkerSource {
  take(): WorkerHandle;
  give(handle: WorkerHandle, reusable: boolean): void;
}

function decodeResult(m: unknown): SampleChainResult<object> {
  const r = decodeValue(m) as { allStates: State; trace: Trace | undefined; finalKernelResults: object; finalSeed: KeyArray };
  return r;
}

/**
 * Runs every task on up to `workers` workers and resolves with the results in chain order.
 *
 * @throws (rejects with) `ChainError` naming the failed chain and its original error;
 *   `AbortError` whose `partial` is a `PartialChains`.
 * @example
 * const results = await runOnWorkers({ fn: 'sampleChains', model: url, tasks, workers: 2, ctx, sequencer, signal: undefined, onProgress: undefined });
 */
export async function runOnWorkers(run: WorkerRun): Promise<SampleChainResult<object>[]> {
  const platform = await loadPlatform();
  const source: WorkerSource = run.source ?? { take: () => platform.spawn(run.model), give: (h) => h.terminate() };
  const { fn, tasks, sequencer, signal } = run;
  const n = tasks.length;
  const results: (SampleChainResult<object> | undefined)[] = new Array(n).fill(undefined);
  const partials: (PartialChain<object> | undefined)[] = new Array(n).fill(undefined);
  const queue = tasks.map((_, c) => c);
  const busy = new Map<WorkerHandle, number>();
  const handles: WorkerHandle[] = [];
  const flag = typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : undefined;
  let finished = 0;
  let aborting = false;
  let settled = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;

  return new Promise<SampleChainResult<object>[]>((resolve, reject) => {
    const settle = (error: unknown, value?: SampleChainResult<object>[]) => {
      if (settled) return;
      settled = true;
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      for (const h of handles) source.give(h, error === undefined);
      if (error === undefined) resolve(value!);
      else { sequencer.close(); reject(error); }
    };
    const settleAborted = () => {
      const chains = tasks.map((t, c) => (results[c] !== undefined ? completedAsPartial(results[c]!, t.numResults) : partials[c]));
      const partial: PartialChains<object> = partialChains(chains);
      settle(new AbortError(`${fn}: aborted (draws completed per chain: ${partial.numResults.join(', ')})`, partial, signal?.reason));
    };
    const dispatch = (h: WorkerHandle) => {
      if (settled || aborting) return;
      const c = queue.shift();
      if (c === undefined) { handles.splice(handles.indexOf(h), 1); source.give(h, true); return; }
      busy.set(h, c);
      h.post({ type: 'run', task: encodeTask(tasks[c]!) });
    };
    function onAbort() {
      if (settled || aborting) return;
      aborting = true;
      if (flag !== undefined) Atomics.store(new Int32Array(flag), 0, 1);
      if (busy.size === 0 || flag === undefined) { settleAborted(); return; }
      graceTimer = setTimeout(settleAborted, ABORT_GRACE_MS);
    }
    const answered = (h: WorkerHandle) => {
      busy.delete(h);
      if (aborting) { if (busy.size === 0) settleAborted(); return; }
      if (finished === n) { settle(undefined, results as SampleChainResult<object>[]); return; }
      dispatch(h);
    };
    const onMessage = (h: WorkerHandle, m: FromWorker) => {
      if (settled) return;
      switch (m.type) {
        case 'effect': sequencer.receive(m.effect); return;
        case 'progress': {
          const report = run.onProgress;
          if (report !== undefined) run.ctx.unordered(() => report(m.chain, m.progress));
          return;
        }
        case 'done':
          results[m.chain] = decodeResult(m.result);
          finished++;
          sequencer.chainDone(m.chain);
          answered(h);
          return;
        case 'aborted':
          partials[m.chain] = decodeValue(m.partial) as PartialChain<object>;
          answered(h);
          return;
        case 'error':
          settle(new ChainError(fn, m.chain, deserializeError(m.error)));
          return;
      }
    };
    const onFailure = (h: WorkerHandle, e: Error) => {
      if (settled) return;
      const c = busy.get(h);
      if (aborting) { busy.delete(h); if (busy.size === 0) settleAborted(); return; }
      settle(new ChainError(fn, c ?? queue[0] ?? 0, e));
    };

    if (signal?.aborted) { onAbort(); return; }
    signal?.addEventListener('abort', onAbort);
    const modes = getModes();
    try {
      for (let w = 0; w < Math.min(run.workers, n); w++) {
        const h = source.take();
        handles.push(h);
        h.onMessage((m) => onMessage(h, m));
        h.onFailure((e) => onFailure(h, e));
        h.post({ type: 'init', model: run.model, modes, abortFlag: flag, progress: run.onProgress !== undefined });
        dispatch(h);
      }
    } catch (e) {
      settle(new ChainError(fn, queue[0] ?? 0, e));
    }
  });
}
