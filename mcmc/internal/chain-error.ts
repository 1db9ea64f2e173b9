/** The error a multi-chain run rejects with when one chain fails: which chain, and the original error. */
import { brand } from '../../src/brand.js';

/**
 * Chain `chain` of a `sampleChains` run failed: its `setup` or a kernel step threw, or its worker
 * died. `cause` is the original error — the thrown object itself for chains run in the main
 * thread; for chains run in a worker, an error of the same class (`TypeError`, `RangeError`, …)
 * with the same message and stack, rebuilt on the main thread.
 *
 * @example
 * try { await sampleChains({ model, chains: 4, workers: 2, numResults: 100, seed: 0 }); }
 * catch (e) { if (e instanceof ChainError) console.log(e.chain, e.cause); }
 */
export class ChainError extends Error {
  /** The index of the chain that failed. */
  readonly chain: number;

  constructor(fn: string, chain: number, cause: unknown) {
    super(`${fn}: chain ${chain} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`, { cause });
    this.name = 'ChainError';
    this.chain = chain;
  }
}
brand(ChainError, 'ChainError');   // recognised across copies of stochax (src/brand.ts)

/** An error as a structured-cloneable record. */
export interface SerializedError {
  readonly name: string;
  readonly className: string;
  readonly message: string;
  readonly stack: string | undefined;
}

const CLASSES: Record<string, new (message: string) => Error> = {
  Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
};

/**
 * Writes an error (or any thrown value) as a {@link SerializedError}.
 *
 * @example
 * port.postMessage({ type: 'error', error: serializeError(e) });
 */
export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) {
    let className = 'Error';
    for (let p = Object.getPrototypeOf(e); p !== null; p = Object.getPrototypeOf(p)) {
      const name = (p as { constructor?: { name?: string } }).constructor?.name;
      if (name !== undefined && name in CLASSES) { className = name; break; }
    }
    return { name: e.name, className, message: e.message, stack: e.stack };
  }
  return { name: 'Error', className: 'Error', message: String(e), stack: undefined };
}

/**
 * Rebuilds an error from {@link serializeError}'s record: the nearest built-in class, the same
 * name, message and stack.
 *
 * @example
 * const original = deserializeError(message.error); // e.g. a RangeError
 */
export function deserializeError(s: SerializedError): Error {
  const Ctor = CLASSES[s.className] ?? Error;
  const e = new Ctor(s.message);
  if (e.name !== s.name) Object.defineProperty(e, 'name', { value: s.name, configurable: true, writable: true });
  if (s.stack !== undefined) e.stack = s.stack;
  return e;
}
