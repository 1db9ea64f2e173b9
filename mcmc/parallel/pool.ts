/**
 * A persistent pool of `sampleChains` workers for one model module, reusable across calls: the
 * workers start (and import the library and the model) once, when the pool is created, instead
 * of at every call, and keep their JIT-compiled code between calls.
 */
import { getModes } from '../../src/config.js';
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import type { FromWorker } from './messages.js';
import { loadPlatform, moduleUrl, type WorkerHandle } from './platform.js';
import type { WorkerSource } from './worker-pool.js';

const FN = 'createWorkerPool';

/** Options of {@link createWorkerPool}. */
export interface WorkerPoolOptions {
  /** The model module the workers import (as `sampleChains`' or `windowedAdaptiveNutsChains`' `model`). */
  readonly model: string | URL;
  /** How many workers to start and keep (a positive integer; default: the available cores). */
  readonly workers?: number;
}

/** A pool made by {@link createWorkerPool}; pass it to `sampleChains` (or `windowedAdaptiveNutsChains`) as `pool`. */
export interface WorkerPool {
  /** The model module's URL. */
  readonly model: string;
  /** How many workers the pool keeps. */
  readonly size: number;
  /** Whether {@link WorkerPool.close} was called. */
  readonly closed: boolean;
  /** Stops the pool's workers (those serving a run stop when it ends); later runs cannot use it. */
  close(): Promise<void>;
}

/** A worker of the pool: one real worker, its messages routed to the run that holds it. */
interface Member {
  readonly worker: WorkerHandle;
  readonly handle: WorkerHandle;
  message: ((m: FromWorker) => void) | undefined;
  failure: ((e: Error) => void) | undefined;
  dead: boolean;
}

/** The pool's internals, as `sampleChains` uses them. */
export interface PoolInternals extends WorkerPool {
  readonly source: WorkerSource;
}

/**
 * Starts `workers` workers for the model module `model` and keeps them for any number of
 * `sampleChains({ model, pool, ... })` calls, which then skip the workers' start-up (under tsx
 * about 0.4–0.8 s and ~1 s of CPU per worker; compiled JavaScript well under 0.1 s) and run on
 * already-compiled code. The workers begin importing the library and the model at once, while
 * the caller goes on. Results are the same bits as without a pool. A worker whose run failed or
 * was aborted is stopped and replaced by a fresh one at the next call; runs sharing a pool at
 * the same time start extra workers as needed. In Node, idle pool workers do not keep the
 * process alive; call `close()` when done.
 *
 * @throws TypeError/RangeError naming `createWorkerPool` and the option.
 * @example
 * const pool = await createWorkerPool({ model: new URL('./model.js', import.meta.url), workers: 2 });
 * try {
 *   for (const seed of [0, 1, 2]) results.push(await sampleChains({ model: pool.model, pool, chains: 4, seed, numResults: 1000 }));
 * } finally {
 *   await pool.close();
 * }
 */
export async function createWorkerPool(options: WorkerPoolOptions): Promise<WorkerPool> {
  const o = checkOptions(FN, options, ['model', 'workers']);
  const model = await moduleUrl(FN, o.model);
  const platform = await loadPlatform();
  const size = o.workers === undefined ? Math.max(1, platform.cores()) : checkNonNegativeInteger(FN, 'workers', o.workers);
  if (size < 1) fail('range', FN, 'workers', 'must be at least 1', size);
  const idle: Member[] = [];
  let closed = false;

  const spawn = (): Member => {
    const worker = platform.spawn(model);
    const m: Member = {
      worker, message: undefined, failure: undefined, dead: false,
      handle: {
        post: (msg) => worker.post(msg),
        onMessage: (l) => { m.message = l; },
        onFailure: (l) => { m.failure = l; },
        terminate: () => { m.dead = true; worker.terminate(); },
      },
    };
    worker.onMessage((msg) => m.message?.(msg));
    worker.onFailure((e) => {
      m.dead = true;
      const i = idle.indexOf(m);
      if (i >= 0) idle.splice(i, 1);
      m.failure?.(e);
    });
    // Warm: import the library and the model now (each run sends its own init again).
    worker.post({ type: 'init', model, modes: getModes(), abortFlag: undefined, progress: false });
    return m;
  };
  const members = new Map<WorkerHandle, Member>();
  const park = (m: Member) => {
    m.message = undefined;
    m.failure = undefined;
    m.worker.keepAlive?.(false);
    idle.push(m);
  };
  for (let i = 0; i < size; i++) { const m = spawn(); members.set(m.handle, m); park(m); }

  const source: WorkerSource = {
    take() {
      if (closed) throw new Error(`${FN}: the pool is closed`);
      const m = idle.shift() ?? spawn();
      members.set(m.handle, m);
      m.worker.keepAlive?.(true);
      return m.handle;
    },
    give(h, reusable) {
      const m = members.get(h);
      if (m === undefined) return;
      if (!reusable || m.dead || closed || idle.length >= size) {
        members.delete(h);
        m.dead = true;
        m.worker.terminate();
        return;
      }
      park(m);
    },
  };
  const pool: PoolInternals = {
    model, size, source,
    get closed() { return closed; },
    close: async () => {
      closed = true;
      for (const m of idle.splice(0)) { members.delete(m.handle); m.dead = true; m.worker.terminate(); }
    },
  };
  return pool;
}

/**
 * The pool's worker source, after checking it fits the run.
 *
 * @throws TypeError naming `fn` and `pool` for something else than an open pool of `model`.
 * @example
 * const source = poolSource('sampleChains', o.pool, url);
 */
export function poolSource(fn: string, pool: unknown, model: string): WorkerSource {
  const p = pool as Partial<PoolInternals> | null;
  if (p === null || typeof p !== 'object' || p.source === undefined || typeof p.model !== 'string') {
    fail('type', fn, 'pool', 'must be a pool from createWorkerPool', pool);
  }
  if (p.closed) fail('type', fn, 'pool', 'is closed', pool);
  if (p.model !== model) fail('type', fn, 'pool', `was made for the model ${p.model}, not ${model}`, pool);
  return p.source;
}
