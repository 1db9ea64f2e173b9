// windowedAdaptiveNuts' onProgress and signal: draws are bit-identical with and without progress,
// one record per chain in both phases with per-chain divergence counts that add up to the trace's,
// and an abort stops early with an AbortError carrying the draws made so far.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { windowedAdaptiveNuts, type WindowedPartial, type WindowedProgress } from '../../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const model = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 1 }),
  y: (mu: Tensor, sigma: Tensor) => new Normal({ loc: mu, scale: sigma }),
});
const bits = (t: Tensor) => Array.from(new Uint8Array((t.data as Float64Array).slice().buffer));
const opts = { nChains: 3, numAdaptationSteps: 40, nDraws: 30, seed: 7, pins: { y: 0.3 } };

describe('windowedAdaptiveNuts: onProgress', () => {
  it('reports every chain in both phases and leaves the draws bit-identical', () => {
    const plain = windowedAdaptiveNuts(model(), opts);
    const reports: WindowedProgress[] = [];
    const watched = windowedAdaptiveNuts(model(), { ...opts, progressInterval: 0, onProgress: (p) => reports.push(p) });
    for (const k of ['mu', 'sigma'] as const) expect(bits(watched.draws[k] as Tensor)).toEqual(bits(plain.draws[k] as Tensor));
    expect(bits(watched.trace.energy)).toEqual(bits(plain.trace.energy));

    expect(reports).toHaveLength(3 * 70);
    for (let c = 0; c < 3; c++) {
      const mine = reports.filter((r) => r.chain === c);
      expect(mine.map((r) => r.step)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1));
      expect(mine.every((r) => r.total === 70)).toBe(true);
      expect(mine.filter((r) => r.phase === 'warmup').map((r) => r.step).at(-1)).toBe(40);
      expect(mine.filter((r) => r.phase === 'sampling')[0]!.step).toBe(41);
    }
  });

  it('counts divergences per chain (kept draws agree with the trace)', () => {
    const reports: WindowedProgress[] = [];
    const r = windowedAdaptiveNuts(model(), { ...opts, numAdaptationSteps: 0, initStepSize: 40, progressInterval: 0, onProgress: (p) => reports.push(p) });
    const flags = r.trace.diverging.data as Uint8Array;
    for (let c = 0; c < 3; c++) {
      let n = 0;
      for (let d = 0; d < 30; d++) if (flags[d * 3 + c]) n++;
      expect(reports.filter((p) => p.chain === c).at(-1)!.divergences).toBe(n);
    }
    expect(Array.from(flags).some((f) => f)).toBe(true);
  });

  it('is throttled: a long interval gives only the first and last step', () => {
    const steps: number[] = [];
    windowedAdaptiveNuts(model(), { ...opts, progressInterval: 1e9, onProgress: (p) => steps.push(p.step) });
    expect(steps).toEqual([1, 1, 1, 70, 70, 70]);
  });
});

describe('windowedAdaptiveNuts: signal', () => {
  it('an abort stops early with an AbortError carrying the draws so far', () => {
    const controller = new AbortController();
    let last = 0;
    let error: unknown;
    try {
      windowedAdaptiveNuts(model(), {
        ...opts, signal: controller.signal, progressInterval: 0,
        onProgress: (p) => { last = p.step; if (p.step === 50) controller.abort(new Error('stop')); },
      });
    } catch (e) { error = e; }
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).name).toBe('AbortError');
    expect(last).toBe(50);
    const partial = (error as AbortError<WindowedPartial>).partial;
    expect(partial.numResults).toBe(10);
    const whole = windowedAdaptiveNuts(model(), opts);
    const mu = partial.draws!['mu' as never] as Tensor;
    expect(mu.shape).toEqual([10, 3]);
    expect(bits(mu)).toEqual(bits(whole.draws.mu as Tensor).slice(0, 10 * 3 * 8));
  });

  it('an already-aborted signal takes no step', () => {
    const controller = new AbortController();
    controller.abort();
    const steps: number[] = [];
    expect(() => windowedAdaptiveNuts(model(), { ...opts, signal: controller.signal, onProgress: (p) => steps.push(p.step) })).toThrow(AbortError);
    expect(steps).toEqual([]);
  });
});

describe('windowedAdaptiveNuts: progress', () => {
  afterEach(() => { vi.restoreAllMocks(); });
  const captureStderr = () => {
    let text = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => { text += String(t); return true; });
    return () => text;
  };

  it('progress: true writes plain lines per chain to stderr (not a terminal) and leaves the draws bit-identical', () => {
    const plain = windowedAdaptiveNuts(model(), opts);
    const seen: WindowedProgress[] = [];
    const text = captureStderr();
    const shown = windowedAdaptiveNuts(model(), { ...opts, progress: true, onProgress: (p) => seen.push(p) });
    vi.restoreAllMocks();
    for (const k of ['mu', 'sigma'] as const) expect(bits(shown.draws[k] as Tensor)).toEqual(bits(plain.draws[k] as Tensor));
    expect(seen.length).toBeGreaterThanOrEqual(6);   // the user's callback still runs
    const lines = text().trimEnd().split('\n');
    for (let c = 0; c < 3; c++) {
      expect(lines).toContain(`chain ${c}: warm-up started (70 steps)`);
      expect(lines.some((l) => l.startsWith(`chain ${c}: done,`))).toBe(true);
    }
  });

  it('is off by default under a test runner, and pooled adaptation shows it too', () => {
    const text = captureStderr();
    windowedAdaptiveNuts(model(), opts);
    expect(text()).toBe('');
    windowedAdaptiveNuts(model(), { ...opts, adaptation: 'pooled', progress: true });
    expect(text()).toMatch(/chain 2: done/);
  });

  it('rejects a non-boolean', () => {
    expect(() => windowedAdaptiveNuts(model(), { ...opts, progress: 'yes' as unknown as boolean })).toThrow(/windowedAdaptiveNuts: `progress` must be/);
  });
});
