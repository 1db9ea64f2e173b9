/** `effects.callback`: call a host function for its side effects, ordered or not (JAX's `io_callback`). */
import { checkFunction, fail } from '../checks.js';
import { copyValue, encodeValue } from './clone.js';
import { currentContext } from './context.js';
import { splitEffectArgs, type EffectOptions } from './options.js';
import { remoteSink } from './remote.js';

/**
 * The runtime-token kind of a callback: `callback:<function name>` (`callback:anonymous` for an
 * unnamed function). Ordered calls are sequenced per kind.
 *
 * @example
 * callbackKind(function record() {}); // 'callback:record'
 */
export function callbackKind(fn: Function): string {
  return `callback:${fn.name || 'anonymous'}`;
}

/**
 * Calls `fn(...args)` for its side effects — logging, collecting values, updating a progress
 * display — from a kernel, a trace function or model code, with the arguments copied at call time
 * (tensors and keys stay tensors and keys; later changes to the originals are not seen).
 *
 * With `{ ordered: true }` the call is an ordered effect: it is delivered after every earlier
 * ordered call of the same function (one runtime token per function name, `callback:<name>`),
 * in the order a single-threaded run would make them — for `sampleChains`, chain 0's calls, then
 * chain 1's, …, whichever worker finishes first. Unordered calls (the default) are delivered as
 * soon as they reach the main thread. In the main thread a call is delivered synchronously when
 * nothing of its kind is pending; if `fn` returns a promise, later ordered calls of the same kind
 * wait for it, and `effectsBarrier()` waits for all of them.
 *
 * In a worker started by `sampleChains`, `fn` must be exported by the model module: functions
 * cannot be posted, so the worker posts the export's name and the copied arguments, and the main
 * thread calls that export of the same module (imported there), with the main thread's state.
 * The return value of `fn` is not passed back.
 *
 * @param fn - the function to call; its `name` names the token (`callback:<name>`).
 * @param args - its arguments, optionally followed by `{ ordered }` (default false).
 * @throws TypeError if `fn` is not a function, an argument cannot be cloned (functions,
 *   symbols, class instances other than tensors and keys), `ordered` is not a boolean, or (in a
 *   worker) `fn` is not exported by the model module. Outside `sampleChains`, an error thrown by a
 *   synchronous delivery propagates to the caller; errors of later deliveries are reported by
 *   `effectsBarrier()`.
 * @example
 * import { effects } from 'stochax';
 * export const seen: number[] = [];
 * export function record(step: number) { seen.push(step); }
 * effects.callback(record, 3, { ordered: true }); // seen → [3]
 */
export function callback<A extends unknown[]>(fn: (...args: A) => unknown, ...args: [...A, EffectOptions] | A): void {
  const name = 'effects.callback';
  checkFunction(name, 'fn', fn);
  const split = splitEffectArgs(name, args);
  const kind = callbackKind(fn);
  const sink = remoteSink();
  if (sink !== undefined) {
    const exported = sink.exportName(fn);
    if (exported === undefined) {
      fail('type', name, 'fn', `must be a function exported by the model module when called in a worker (functions cannot be posted; the main thread calls the same export) — "${fn.name || 'anonymous'}" is not exported`, fn);
    }
    sink.post(kind, split.ordered, { type: 'callback', name: exported, args: encodeValue(name, 'args', split.args) });
    return;
  }
  const copied = copyValue(name, 'args', split.args) as A;
  const ctx = currentContext();
  const deliver = () => fn(...copied);
  if (split.ordered) ctx.ordered(kind, deliver);
  else ctx.unordered(deliver);
}
