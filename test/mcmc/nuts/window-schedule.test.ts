// The warm-up window schedule (mcmc/nuts/window-schedule.ts): Stan's known schedules for 1000,
// 150, 100, 20 and 19 warm-up steps, TFP's proportional ones, every n up to 3000 against a
// transcription of Stan's windowed_adaptation counter (adaptation_window / end_adaptation_window /
// compute_next_window) and of TFP's window sizes, the tiling of [0, n), and bad input.
// Deterministic: no randomness.
import { describe, expect, it } from 'vitest';
import { STAN_WINDOW_BUFFERS, windowSchedule, windowSizes, type Window, type WindowBuffers } from '../../../mcmc/nuts/window-schedule.js';

const sizes = (ws: Window[]) => ws.map((w) => [w.kind, w.end - w.start]);

/**
 * Stan's windowed_adaptation, step by step: which steps feed the estimator and at which steps a
 * window ends. Returns the slow windows as [start, end).
 */
function stanCounter(n: number, b: WindowBuffers): [number, number][] {
  let init = b.initBuffer, term = b.termBuffer, size = b.baseWindow;
  if (n < 20) return [];
  if (init + size + term > n) { init = Math.trunc(0.15 * n); term = Math.trunc(0.1 * n); size = n - (init + term); }
  let next = init + size - 1, start = -1;
  const out: [number, number][] = [];
  for (let c = 0; c < n; c++) {
    const inWindow = c >= init && c < n - term && c !== n;
    if (inWindow && start < 0) start = c;
    if (c === next && c !== n) {
      out.push([start, c + 1]);
      start = -1;
      // compute_next_window
      if (next === n - term - 1) continue;
      size *= 2;
      next = c + size;
      if (next === n - term - 1) continue;
      if (next + 2 * size >= n - term) next = n - term - 1;
    }
  }
  return out;
}

/** TFP's windows from `_get_window_sizes`: 3s / s, 2s, 4s, 8s / n − 18s, or one fast window. */
function tfpWindows(n: number): [string, number][] {
  const s = Math.floor(n / 20);
  if (n === 0) return [];
  if (s === 0) return [['fast', n]];
  return [['fast', 3 * s], ['slow', s], ['slow', 2 * s], ['slow', 4 * s], ['slow', 8 * s], ['fast', n - 18 * s]];
}

describe('windowSchedule', () => {
  it("Stan's known schedules: 1000 → 75 / 25, 50, 100, 200, 500 / 50; 150 → 75 / 25 / 50; 100 → 15 / 75 / 10; 20 → 3 / 15 / 2; 19 → one fast window", () => {
    expect(sizes(windowSchedule(1000, 'stan'))).toEqual([
      ['fast', 75], ['slow', 25], ['slow', 50], ['slow', 100], ['slow', 200], ['slow', 500], ['fast', 50]]);
    expect(sizes(windowSchedule(150, 'stan'))).toEqual([['fast', 75], ['slow', 25], ['fast', 50]]);
    expect(sizes(windowSchedule(100, 'stan'))).toEqual([['fast', 15], ['slow', 75], ['fast', 10]]);
    expect(sizes(windowSchedule(20, 'stan'))).toEqual([['fast', 3], ['slow', 15], ['fast', 2]]);
    expect(windowSchedule(19, 'stan')).toEqual([{ kind: 'fast', start: 0, end: 19 }]);
    expect(windowSchedule(0, 'stan')).toEqual([]);
    expect(windowSchedule(2000, 'stan').map((w) => w.end)).toEqual([75, 100, 150, 250, 450, 850, 1950, 2000]);
  });

  it("TFP's known schedules: 500 → 75 / 25, 50, 100, 200 / 50; 1000 → 150 / 50, 100, 200, 400 / 100; 39 → 3 / 1, 2, 4, 8 / 21", () => {
    expect(sizes(windowSchedule(500, 'tfp'))).toEqual([
      ['fast', 75], ['slow', 25], ['slow', 50], ['slow', 100], ['slow', 200], ['fast', 50]]);
    expect(windowSchedule(1000, 'tfp').map((w) => w.end - w.start)).toEqual([150, 50, 100, 200, 400, 100]);
    expect(windowSchedule(39, 'tfp').map((w) => w.end - w.start)).toEqual([3, 1, 2, 4, 8, 21]);
    expect(windowSchedule(19, 'tfp')).toEqual([{ kind: 'fast', start: 0, end: 19 }]);
    expect(windowSizes(500)).toEqual({ first: 75, slow: 25, last: 50 });
  });

  it("every n ≤ 3000: Stan's convention equals Stan's counter, TFP's equals TFP's sizes, and the windows tile [0, n)", () => {
    for (let n = 0; n <= 3000; n++) {
      const stan = windowSchedule(n, 'stan'), tfp = windowSchedule(n, 'tfp');
      expect(stan.filter((w) => w.kind === 'slow').map((w) => [w.start, w.end]), `stan ${n}`).toEqual(stanCounter(n, STAN_WINDOW_BUFFERS));
      expect(sizes(tfp), `tfp ${n}`).toEqual(tfpWindows(n));
      for (const ws of [stan, tfp]) {
        let at = 0;
        for (const w of ws) { expect(w.start).toBe(at); expect(w.end).toBeGreaterThan(w.start); at = w.end; }
        expect(at).toBe(n);
      }
    }
  });

  it('explicit buffers follow the same rules (the Stan engine passes its own)', () => {
    const b = { initBuffer: 10, termBuffer: 5, baseWindow: 4 };
    for (const n of [20, 31, 64, 200]) {
      expect(windowSchedule(n, b).filter((w) => w.kind === 'slow').map((w) => [w.start, w.end]), String(n)).toEqual(stanCounter(n, b));
    }
    expect(sizes(windowSchedule(40, { initBuffer: 0, termBuffer: 0, baseWindow: 5 }))).toEqual([['slow', 5], ['slow', 10], ['slow', 25]]);
  });

  it('bad input: names the function and the argument', () => {
    expect(() => windowSchedule(-1, 'stan')).toThrow(RangeError);
    expect(() => windowSchedule(1.5, 'stan')).toThrow(/windowSchedule.*\bn\b/);
    expect(() => windowSchedule(100, 'pymc' as never)).toThrow(TypeError);
    expect(() => windowSchedule(10, 'pymc' as never)).toThrow(/windowSchedule.*convention/);
    expect(() => windowSchedule(100, { initBuffer: 10, termBuffer: 5, baseWindow: 0 })).toThrow(/windowSchedule.*baseWindow/);
    expect(() => windowSchedule(100, { initBuffer: -1, termBuffer: 5, baseWindow: 3 })).toThrow(/windowSchedule.*initBuffer/);
    expect(() => windowSchedule(100, { initBuffer: 1, termBuffer: 5, baseWindow: 3, window: 4 } as never)).toThrow(/windowSchedule.*`window`/);
  });
});
