/**
 * How the samplers hand out {@link samplingWarnings}: every result carries `warnings` (`[]` when
 * healthy); `onWarning` gets each one, `warn: true` prints each with `console.warn`. The
 * library prints nothing unless asked.
 */
import { checkBoolean, checkFunction } from '../../src/checks.js';
import type { Coords, Dims } from './coords.js';
import { isPartRecord, type DrawsStructure } from './draws.js';
import { samplingWarnings, type SamplingWarning, type SamplingWarningsOptions } from './warnings.js';

/** The sampler options about warnings. */
export interface WarningOptions {
  /** Called once per warning after the run, before the call returns (see `samplingWarnings`). */
  readonly onWarning?: (warning: SamplingWarning) => void;
  /** Print each warning to stderr with `console.warn` (default false: the library prints nothing unless asked). */
  readonly warn?: boolean;
}

/** The checked hooks of a sampler call. */
export interface WarningHooks {
  readonly fn: string;
  readonly onWarning: ((warning: SamplingWarning) => void) | undefined;
  readonly warn: boolean;
}

/**
 * Checks `onWarning` and `warn` of a sampler's options (before sampling, so a typo does not
 * wait for the run).
 *
 * @throws {TypeError} naming `fn` when `onWarning` is not a function or `warn` not a boolean.
 * @example
 * const hooks = warningHooks('windowedAdaptiveNuts', { warn: true });
 */
export function warningHooks(fn: string, options: WarningOptions): WarningHooks {
  if (options.onWarning !== undefined) checkFunction(fn, 'onWarning', options.onWarning);
  return { fn, onWarning: options.onWarning, warn: checkBoolean(fn, 'warn', options.warn ?? false) };
}

/**
 * `result` with its `warnings` (from its `draws` — or `allStates` — and `trace`), each handed to
 * the hooks: `onWarning(w)`, and `console.warn('<fn>: <message>')` with `warn`. Without hooks the
 * warnings are computed when `warnings` is first read (an enumerable getter, kept once computed):
 * the diagnostics cost about as much as `summary` (~4 ms per scalar at 4 × 1000 draws), more than
 * the sampling itself on small models, so a caller that never looks does not pay for them.
 *
 * @example
 * return withWarnings(hooks, { draws, trace }, { maxTreeDepth: 10 });   // → { draws, trace, warnings: [...] }
 */
export function withWarnings<R extends { readonly trace?: unknown }>(
  hooks: WarningHooks, result: R, settings: SamplingWarningsOptions = {},
): R & { readonly warnings: readonly SamplingWarning[] } {
  const r = result as R & { draws?: unknown; allStates?: unknown; coords?: Coords; dims?: Dims };
  const draws = (r.draws ?? r.allStates) as DrawsStructure;
  // The result's labels (windowedAdaptiveNuts carries its coords and dims) name the parameters as its summary does.
  const labels = { ...(r.coords === undefined ? {} : { coords: r.coords }), ...(r.dims === undefined ? {} : { dims: r.dims }) };
  // A custom trace need not be a record (TFP's traceFn may return one tensor): then only the draws count.
  const compute = () => samplingWarnings(draws, isPartRecord(r.trace) ? r.trace : undefined, { ...labels, ...settings });
  if (!hooks.warn && hooks.onWarning === undefined) {
    let cached: readonly SamplingWarning[] | undefined;
    return Object.defineProperty({ ...result }, 'warnings', { enumerable: true, get: () => (cached ??= compute()) }) as R & { readonly warnings: readonly SamplingWarning[] };
  }
  const warnings = compute();
  for (const w of warnings) {
    if (hooks.warn) console.warn(`${hooks.fn}: ${w.message}`);
    hooks.onWarning?.(w);
  }
  return { ...result, warnings };
}
