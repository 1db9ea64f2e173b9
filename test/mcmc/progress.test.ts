// The chains' progress display (`windowedAdaptiveNuts`' `progress`, `stochax sample`): plain lines (not a terminal) — one when a chain starts,
// one when it moves to sampling, one when it is done, nothing for the reports in between — and,
// on a terminal, one bar per chain redrawn in place.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../cli/errors.js';
import { chainProgress, progressByDefault, type ChainReport } from '../../mcmc/progress.js';

function capture(isTTY: boolean): { io: CliIo; text: () => string } {
  let err = '';
  return { io: { stdout: () => {}, stderr: (t) => { err += t; }, isTTY }, text: () => err };
}

const report = (chain: number, step: number, divergences = 0, warmupDivergences = 0): ChainReport =>
  ({ chain, step, total: 10, phase: step <= 4 ? 'warmup' : 'sampling', divergences, warmupDivergences });

describe('chainProgress', () => {
  it('plain lines: start, sampling and done per chain, in the order the reports arrive', () => {
    const { io, text } = capture(false);
    const p = chainProgress(io, [0, 1]);
    for (let step = 1; step <= 10; step++) for (const c of [0, 1]) p.update(report(c, step, step > 6 ? c : 0, step > 2 ? 3 * c : 0));
    p.end();
    expect(text().split('\n')).toEqual([
      'chain 0: warm-up started (10 steps)',
      'chain 1: warm-up started (10 steps)',
      'chain 0: sampling (step 5/10; 0 divergences in warm-up)',
      'chain 1: sampling (step 5/10; 3 divergences in warm-up)',
      'chain 0: done, 0 divergences after warm-up (0 during it)',
      'chain 1: done, 1 divergences after warm-up (3 during it)',
      '',
    ]);
  });

  it('terminal: one bar per chain, redrawn in place', () => {
    const { io, text } = capture(true);
    const p = chainProgress(io, [2, 3]);
    p.update(report(2, 1));
    p.update(report(3, 10, 2, 5));
    p.end();
    const t = text();
    expect(t).toContain('\x1b[2A');
    expect(t).toMatch(/chain 2 \[[#-]{24}\]\s+\d+% warmup\s+1\/10/);
    expect(t).toMatch(/chain 3 \[#{24}\] 100% done 10\/10  divergences 2 \(warm-up 5\)/);
  });
});

describe('progressByDefault', () => {
  afterEach(() => { vi.unstubAllEnvs(); Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true }); });
  const tty = process.stderr.isTTY;
  const setTTY = (v: boolean) => Object.defineProperty(process.stderr, 'isTTY', { value: v, configurable: true });

  it('is on in a terminal outside tests and CI, off otherwise', () => {
    setTTY(true);
    expect(progressByDefault()).toBe(false);   // VITEST is set here
    vi.stubEnv('VITEST', undefined);
    vi.stubEnv('CI', undefined);
    vi.stubEnv('NODE_ENV', 'development');
    expect(progressByDefault()).toBe(true);
    vi.stubEnv('CI', '1');
    expect(progressByDefault()).toBe(false);
    vi.stubEnv('CI', undefined);
    setTTY(false);
    expect(progressByDefault()).toBe(false);
  });
});
