/**
 * One worker API over Node's `worker_threads` and browsers' Web Workers. Everything
 * host-specific lives in `platform-node.ts` and `platform-browser.ts`, imported lazily, so a
 * browser bundle never loads a Node built-in (and Node never touches `self`).
 */
import { fail } from '../../src/checks.js';
import { isNode } from '../../src/effects/platform.js';
import type { FromWorker, ToWorker } from './messages.js';

/** The main thread's handle on one worker. */
export interface WorkerHandle {
  post(message: ToWorker): void;
  onMessage(listener: (message: FromWorker) => void): void;
  /** Called once if the worker throws outside a chain, fails to load, or exits unasked. */
  onFailure(listener: (error: Error) => void): void;
  /** Stops the worker at once (no failure is reported for it). */
  terminate(): void;
  /** Whether an idle worker may keep the process alive (Node; a no-op in browsers). */
  keepAlive?(on: boolean): void;
}

/** A worker's connection to the main thread. */
export interface ParentPort {
  /** Copies `message` (never transfers: a detached buffer slows the thread's typed arrays). */
  post(message: FromWorker): void;
  onMessage(listener: (message: ToWorker) => void): void;
}

/** What each host implements. */
export interface Platform {
  /** Starts a worker running `worker.ts`, able to import the model at `modelUrl`. */
  spawn(modelUrl: string): WorkerHandle;
  /** The connection to the main thread (inside a worker). */
  parent(): ParentPort;
  /** Logical cores available to this process. */
  cores(): number;
  /** An absolute file path as a `file:` URL (undefined where there are no paths). */
  pathToUrl(path: string): string | undefined;
}

let platform: Promise<Platform> | undefined;

/**
 * The host's platform layer, loaded on first use.
 *
 * @example
 * const worker = (await loadPlatform()).spawn(modelUrl);
 */
export function loadPlatform(): Promise<Platform> {
  // The Node module's specifier is computed so that browser bundlers do not follow it.
  const node = './platform-node.js';
  return platform ??= isNode
    ? (import(/* @vite-ignore */ node) as Promise<typeof import('./platform-node.js')>).then((m) => m.nodePlatform)
    : import('./platform-browser.js').then((m) => m.browserPlatform);
}

/**
 * Resolves after the event loop has had a turn (timers, messages, abort events).
 *
 * @example
 * await yieldToEventLoop();
 */
export function yieldToEventLoop(): Promise<void> {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown };
  if (typeof g.setImmediate === 'function') return new Promise((resolve) => g.setImmediate!(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
      channel.port2.postMessage(0);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The model argument as a module URL string: a `URL`, an absolute URL string (`file:`,
 * `https:`, `data:`, `blob:` …) or, in Node, an absolute file path.
 *
 * @throws TypeError naming `fn` and `model` for anything else (relative paths are ambiguous:
 *   write `new URL('./model.js', import.meta.url)`).
 * @example
 * await moduleUrl('sampleChains', new URL('./model.js', import.meta.url)); // 'file:///…/model.js'
 */
export async function moduleUrl(fn: string, model: unknown): Promise<string> {
  if (model instanceof URL) return model.href;
  if (typeof model !== 'string') fail('type', fn, 'model', 'must be a module URL (a URL or a string)', model);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(model)) {
    try {
      return new URL(model).href;
    } catch { /* not a URL: maybe a path */ }
  }
  const url = (await loadPlatform()).pathToUrl(model);
  if (url === undefined) {
    fail('type', fn, 'model', "must be a module URL or an absolute path (for a module beside yours: new URL('./model.js', import.meta.url))", model);
  }
  return url;
}
