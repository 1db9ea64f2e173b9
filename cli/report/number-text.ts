/**
 * Numbers as draws-file text, printed once. The engine's shortest round-trip printing
 * (`String(x)`) is most of the cost of draws.json and draws.csv, and a run's posterior and
 * sample statistics go into both: inside {@link sharingNumberTexts} the texts of a tensor's
 * values are kept (by its data array, which nothing changes meanwhile) and the second file
 * reuses them. Outside it nothing is kept, so a caller that changes its draws between calls
 * never sees stale text.
 */
import type { Tensor } from '../../src/tensor/tensor.js';
import { float64Values } from '../../mcmc/diagnostics/draws.js';

/** A number as JSON that Python's `json` reads back bit for bit (`NaN`, `Infinity` as Python writes them). @internal */
export function jsonNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Object.is(x, -0)) return '-0.0';
  return String(x);
}

/** {@link jsonNumber}'s text of −0; a CSV cell writes it `-0` (the only number the two files spell differently). @internal */
export const JSON_MINUS_ZERO = '-0.0';

let shared: WeakMap<object, string[]> | undefined;

/**
 * Runs `f` with the texts of every tensor's values kept for reuse (see the module's comment);
 * the draws must not change while `f` runs. Nested calls share the outer scope.
 *
 * @example
 * const [json, csv] = sharingNumberTexts(() => [runDrawsFiles(idata), toDrawsCsv(idata.posterior, trace)]);
 */
export function sharingNumberTexts<T>(f: () => T): T {
  if (shared !== undefined) return f();
  shared = new WeakMap();
  try {
    return f();
  } finally {
    shared = undefined;
  }
}

/**
 * {@link jsonNumber} of each of `t`'s values as a number (data order; booleans 0/1, 64-bit
 * integers through `Number`): kept inside {@link sharingNumberTexts}. @internal
 */
export function valueTexts(t: Tensor): readonly string[] {
  const kept = shared?.get(t.data);
  if (kept !== undefined) return kept;
  const values = float64Values(t);
  const out = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = jsonNumber(values[i]!);
  shared?.set(t.data, out);
  return out;
}
