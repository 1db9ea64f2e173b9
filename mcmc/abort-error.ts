/** The error an aborted `sampleChain` or `sampleChains` rejects with, carrying the draws made so far. */
import { brand } from '../src/brand.js';

/**
 * Thrown (or rejected with) when an `AbortSignal` stops sampling. `name` is `'AbortError'`, as
 * for `fetch`; `cause` is the signal's `reason`; `partial` holds what was completed before the
 * stop — for `sampleChain` a {@link PartialChain}, for `sampleChains` a `PartialChains` — so a
 * long run can be inspected or resumed instead of lost.
 *
 * @example
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1000);
 * try {
 *   await sampleChains({ model, chains: 4, numResults: 100_000, seed: 0, signal: controller.signal });
 * } catch (e) {
 *   if (e instanceof AbortError) console.log(e.partial.numResults); // draws per chain
 * }
 */
export class AbortError<P = unknown> extends Error {
  /** What was completed before the abort. */
  readonly partial: P;

  constructor(message: string, partial: P, reason?: unknown) {
    super(message, reason === undefined ? undefined : { cause: reason });
    this.name = 'AbortError';
    this.partial = partial;
  }
}
brand(AbortError, 'AbortError');   // recognised across copies of stochax (src/brand.ts)
