/**
 * The warm-up window schedule: the one home of the windows both NUTS engines adapt in.
 * References: Stan's `windowed_adaptation.hpp` (the Stan engine, `mcmc/nuts/stan/warmup.ts`)
 * and TFP's `_get_window_sizes` in `experimental/mcmc/windowed_sampling.py` (the TFP engine,
 * `mcmc/nuts/tfp/windowed-adaptation.ts`).
 *
 * A warm-up of n steps is a fast window (step size only: the initial buffer), slow windows (the
 * metric too), each twice the one before, and a fast window (the terminal buffer). Both engines
 * place the slow windows by Stan's rule: the first is `baseWindow` long; each next one doubles,
 * and is stretched to the terminal buffer when the one after it would not fit. They differ only
 * in the buffers, which {@link windowSchedule} takes as its convention:
 *
 * - `'stan'`: 75 / 25 / 50 steps; when they do not fit, 15% / 75% / 10% of n. For 1000 steps the
 *   slow windows are 25, 50, 100, 200, 500.
 * - `'tfp'`: proportional, s = ⌊n/20⌋: 3s / s / n − 18s, so the slow windows are exactly s, 2s,
 *   4s, 8s (the stretch rule never fires) and the terminal buffer takes the remainder.
 *
 * Under 20 steps neither adapts a metric (Stan skips it; TFP's s is 0): one fast window.
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';

/** One warm-up window: the steps `[start, end)`, fast (step size only) or slow (also the metric). */
export interface Window { kind: 'fast' | 'slow'; start: number; end: number }

/** The buffers of a schedule (Stan's `init_buffer`, `term_buffer`, `window`). */
export interface WindowBuffers {
  /** Steps of the first fast window. */
  readonly initBuffer: number;
  /** Steps of the last fast window. */
  readonly termBuffer: number;
  /** Steps of the first slow window (the others double it). */
  readonly baseWindow: number;
}

/** Stan's default buffers: 75 / 25 / 50. */
export const STAN_WINDOW_BUFFERS: WindowBuffers = { initBuffer: 75, termBuffer: 50, baseWindow: 25 };

/** The window sizes for `n` adaptation steps (TFP's `_get_window_sizes`). */
export interface WindowSizes {
  /** The first fast window, 3s. */
  readonly first: number;
  /** s = ⌊n / 20⌋, the first slow window (the others are 2s, 4s, 8s). */
  readonly slow: number;
  /** The last fast window, n − 18s. */
  readonly last: number;
}

/** Number of TFP's slow windows (of sizes s, 2s, 4s, 8s). */
const NUM_SLOW_WINDOWS = 4;

/**
 * TFP's proportional warm-up scheme for `n` adaptation steps, with s = ⌊n/20⌋: a fast window of
 * 3s, slow windows of s, 2s, 4s and 8s, and a last fast window of n − 18s (for n = 500: 75 / 25,
 * 50, 100, 200 / 50). For n < 20 (s = 0) the whole warm-up is one fast window (in which TFP's
 * kernel also estimates the mass matrix: see `WindowedAdaptation`).
 *
 * @throws TypeError/RangeError unless `n` is a non-negative integer.
 * @example
 * windowSizes(500); // { first: 75, slow: 25, last: 50 }
 */
export function windowSizes(n: number): WindowSizes {
  checkNonNegativeInteger('windowSizes', 'n', n);
  const slow = Math.floor(n / 20);
  const first = 3 * slow;
  return { first, slow, last: n - ((2 ** NUM_SLOW_WINDOWS - 1) * slow) - first };
}

/**
 * The windows of `n` warm-up steps as `[start, end)` ranges with their kind, in order, tiling
 * `[0, n)`: fast, slow…, fast (an empty buffer is left out); a single fast window for n < 20;
 * none for n = 0. `convention` is `'stan'`, `'tfp'` or explicit buffers (Stan's rule: when
 * `initBuffer + baseWindow + termBuffer` exceeds n they become 15% / 75% / 10% of n).
 *
 * @throws TypeError/RangeError unless `n` is a non-negative integer and the buffers are
 *   non-negative integers with `baseWindow` ≥ 1 (and no other keys).
 * @example
 * windowSchedule(1000, 'stan').map((w) => w.end - w.start); // [75, 25, 50, 100, 200, 500, 50]
 * windowSchedule(1000, 'tfp').map((w) => w.end - w.start);  // [150, 50, 100, 200, 400, 100]
 */
export function windowSchedule(n: number, convention: 'stan' | 'tfp' | WindowBuffers): Window[] {
  const fn = 'windowSchedule';
  checkNonNegativeInteger(fn, 'n', n);
  let b: WindowBuffers;
  if (convention === 'stan') b = STAN_WINDOW_BUFFERS;
  else if (convention === 'tfp') {
    const s = windowSizes(n);
    b = { initBuffer: s.first, termBuffer: s.last, baseWindow: s.slow };
  } else if (typeof convention === 'object' && convention !== null) {
    b = checkOptions(fn, convention, ['initBuffer', 'termBuffer', 'baseWindow']);
    checkNonNegativeInteger(fn, 'initBuffer', b.initBuffer);
    checkNonNegativeInteger(fn, 'termBuffer', b.termBuffer);
    if (checkNonNegativeInteger(fn, 'baseWindow', b.baseWindow) < 1) fail('range', fn, 'baseWindow', 'must be at least 1', b.baseWindow);
  } else return fail('type', fn, 'convention', "must be 'stan', 'tfp' or { initBuffer, termBuffer, baseWindow }", convention);
  if (n === 0) return [];
  if (n < 20) return [{ kind: 'fast', start: 0, end: n }];
  let init = b.initBuffer, term = b.termBuffer, base = b.baseWindow;
  if (init + base + term > n) {
    init = Math.trunc(0.15 * n);
    term = Math.trunc(0.1 * n);
    base = n - (init + term);
  }
  const out: Window[] = init > 0 ? [{ kind: 'fast', start: 0, end: init }] : [];
  const slowEnd = n - term;
  let size = base, end = init + base;
  out.push({ kind: 'slow', start: init, end });
  while (end !== slowEnd) {
    const start = end;
    size *= 2;
    end = start + size;
    // Stan's compute_next_window: stretch this window to the buffer when the next would not fit.
    if (end !== slowEnd && end + 2 * size > slowEnd) end = slowEnd;
    out.push({ kind: 'slow', start, end });
  }
  if (term > 0) out.push({ kind: 'fast', start: slowEnd, end: n });
  return out;
}
