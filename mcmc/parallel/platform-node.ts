/**
 * The Node side of the platform layer: `worker_threads`. When the worker script or the model
 * module is TypeScript (running from sources, or a `.ts` model under tsx), the worker first
 * registers tsx's ESM loader — Node 20 workers do not inherit the parent's loader hooks — and
 * tsx must be installed.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './messages.js';
import type { ParentPort, Platform, WorkerHandle } from './platform.js';

const TS = /\.[mc]?tsx?$/;

// The worker of a TypeScript run: register tsx, then import the real entry.
const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

let tsxApi: string | undefined;

/** The URL of tsx's ESM registration API (`tsx/esm/api`, its import build). */
function resolveTsx(): string {
  if (tsxApi !== undefined) return tsxApi;
  const meta = import.meta as { resolve?: (s: string) => string };
  try {
    if (typeof meta.resolve === 'function') {
      const r = meta.resolve('tsx/esm/api');
      if (r.endsWith('.mjs')) return (tsxApi = r);
    }
  } catch { /* fall through to require.resolve */ }
  try {
    const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
    return (tsxApi = pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href);
  } catch (e) {
    throw new TypeError('sampleChains: a TypeScript model (or running stochax from its sources) needs tsx in the workers; install it (npm i -D tsx) or use compiled JavaScript', { cause: e });
  }
}

/**
 * A worker thread running the module at `entry`, with tsx's loader registered first when the
 * entry is TypeScript or `tsx` asks for it (a TypeScript module the entry will import).
 *
 * @throws TypeError when tsx is needed and not installed.
 * @example
 * const w = nodeWorker(new URL('./outputs-worker.ts', import.meta.url));
 */
export function nodeWorker(entry: URL, tsx = false): Worker {
  return tsx || TS.test(entry.pathname)
    ? new Worker(BOOT, { eval: true, workerData: { tsx: resolveTsx(), entry: entry.href } })
    : new Worker(entry);
}

/**
 * `worker_threads` behind the {@link Platform} interface.
 *
 * @example
 * const worker = nodePlatform.spawn(new URL('./model.js', import.meta.url).href);
 */
export const nodePlatform: Platform = {
  spawn(modelUrl: string): WorkerHandle {
    const here = import.meta.url;
    const entry = new URL(TS.test(new URL(here).pathname) ? './worker.ts' : './worker.js', here);
    const worker = nodeWorker(entry, modelUrl.startsWith('file:') && TS.test(new URL(modelUrl).pathname));
    let failed: ((e: Error) => void) | undefined;
    let done = false;
    const failure = (e: Error) => { if (!done) { done = true; failed?.(e); } };
    worker.on('error', (e) => failure(e instanceof Error ? e : new Error(String(e))));
    worker.on('messageerror', (e) => failure(e instanceof Error ? e : new Error('a worker message could not be deserialized')));
    worker.on('exit', (code) => failure(new Error(`the worker exited with code ${code}`)));
    return {
      post: (m: ToWorker) => worker.postMessage(m),
      onMessage: (listener) => { worker.on('message', (m: FromWorker) => listener(m)); },
      onFailure: (listener) => { failed = listener; },
      terminate: () => { done = true; void worker.terminate(); },
      keepAlive: (on) => { if (on) worker.ref(); else worker.unref(); },
    };
  },
  parent(): ParentPort {
    const port = parentPort;
    if (port === null) throw new Error('sampleChains: worker.ts must run in a worker thread');
    return {
      post: (m) => port.postMessage(m),
      onMessage: (listener) => { port.on('message', (m: ToWorker) => listener(m)); },
    };
  },
  cores: () => availableParallelism(),
  pathToUrl: (path) => (isAbsolute(path) ? pathToFileURL(path).href : undefined),
};
