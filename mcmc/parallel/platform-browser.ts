/**
 * The browser side of the platform layer: module Web Workers. The worker script is referenced
 * as `new URL('./worker.js', import.meta.url)` inside `new Worker(...)`, the pattern bundlers
 * (Vite, webpack 5, esbuild) recognise and bundle. Abort needs `SharedArrayBuffer`, which
 * browsers provide on cross-origin-isolated pages; elsewhere an abort terminates the workers.
 */
import type { FromWorker, ToWorker } from './messages.js';
import type { ParentPort, Platform, WorkerHandle } from './platform.js';

interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
}

/**
 * Web Workers behind the {@link Platform} interface.
 *
 * @example
 * const worker = browserPlatform.spawn('https://example.org/model.js');
 */
export const browserPlatform: Platform = {
  spawn(): WorkerHandle {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    let failed: ((e: Error) => void) | undefined;
    let done = false;
    const failure = (e: Error) => { if (!done) { done = true; failed?.(e); } };
    worker.addEventListener('error', (e) => { e.preventDefault(); failure(new Error(e.message || 'worker failed to load or threw')); });
    worker.addEventListener('messageerror', () => failure(new Error('a worker message could not be deserialized')));
    return {
      post: (m: ToWorker) => worker.postMessage(m),
      onMessage: (listener) => worker.addEventListener('message', (e: MessageEvent) => listener(e.data as FromWorker)),
      onFailure: (listener) => { failed = listener; },
      terminate: () => { done = true; worker.terminate(); },
    };
  },
  parent(): ParentPort {
    const scope = globalThis as unknown as WorkerScope;
    return {
      post: (m) => scope.postMessage(m),
      onMessage: (listener) => scope.addEventListener('message', (e) => listener(e.data as ToWorker)),
    };
  },
  cores: () => (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 4,
  pathToUrl: () => undefined,
};
