// Aborting the per-chain engine. The run of windowedAdaptiveNuts is synchronous, so during it an
// AbortSignal can become aborted only from its onProgress callback (or, on a worker, from the main
// thread through shared memory); either way the next round of transitions does not start and the
// AbortError's partial is the exact prefix of the uninterrupted run. A timer or an event of this
// thread gets its turn only between steps of an asynchronous driver: windowedAdaptiveNutsChains
// with `workers: 0` drives the engine's steps (windowedAdaptiveNutsSteps) in slices with a turn of
// the event loop between them, so a timer's abort stops it within one slice (issue 30: it used to
// run the whole synchronous call, ignoring the signal until the end).
import { describe, expect, it } from 'vitest';
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { windowedAdaptiveNutsChains, type PartialChains } from '../../mcmc/parallel/index.js';
import { windowedAdaptiveNuts, windowedAdaptiveNutsSteps, type WindowedPartial } from '../../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const model = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 1 }),
  y: (mu: Tensor, sigma: Tensor) => new Normal({ loc: mu, scale: sigma }),
});
const opts = { nChains: 2, numAdaptationSteps: 30, nDraws: 40, seed: 5, pins: { y: 0.3 } };
const words = (t: Tensor) => Array.from(new Uint32Array((t.data as Float64Array).slice().buffer));

describe('per-chain engine: abort', () => {
  it('an abort in onProgress during warm-up stops before the next round: no draws, AbortError with the reason', () => {
    const controller = new AbortController();
    const steps: number[] = [];
    let caught: unknown;
    try {
      windowedAdaptiveNuts(model(), { ...opts, signal: controller.signal, progressInterval: 0, onProgress: (p) => { steps.push(p.step); if (p.step === 7) controller.abort('enough'); } });
    } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(AbortError);
    expect((caught as AbortError).cause).toBe('enough');
    expect(Math.max(...steps)).toBe(7);
    const partial = (caught as AbortError<WindowedPartial>).partial;
    expect(partial.numResults).toBe(0);
    expect(partial.draws).toBeUndefined();
  });

  it('the steps generator yields after initialisation and every round; its result equals windowedAdaptiveNuts\'', () => {
    const steps = windowedAdaptiveNutsSteps(model(), opts);
    let n = 0, r = steps.next();
    while (!r.done) { n++; r = steps.next(); }
    expect(n).toBe(1 + 30 + 40);
    const whole = windowedAdaptiveNuts(model(), opts);
    expect(words(r.value.draws.mu as Tensor)).toEqual(words(whole.draws.mu as Tensor));
    // An abort between steps (as a timer would) stops at the next step with the exact prefix.
    const controller = new AbortController();
    const stepped = windowedAdaptiveNutsSteps(model(), { ...opts, signal: controller.signal });
    for (let i = 0; i < 1 + 30 + 12; i++) stepped.next();
    controller.abort();
    let caught: unknown;
    try { stepped.next(); } catch (e) { caught = e; }
    const partial = (caught as AbortError<WindowedPartial>).partial;
    expect(partial.numResults).toBe(12);
    expect(words((partial.draws as Record<string, Tensor>).sigma!)).toEqual(words(whole.draws.sigma as Tensor).slice(0, 12 * 2 * 2));
  });

  it('a signal that is not an AbortSignal is a TypeError, as on the pooled path', () => {
    expect(() => windowedAdaptiveNuts(model(), { ...opts, signal: 'stop' as never })).toThrow(/windowedAdaptiveNuts: `signal` must be an AbortSignal/);
  });

  it('in process (windowedAdaptiveNutsChains, workers: 0), a timer\'s abort stops the run', async () => {
    const url = new URL('./parallel/fixtures/joint-model.ts', import.meta.url);
    const controller = new AbortController();
    let reports = 0, caught: unknown;
    const start = performance.now();
    try {
      await windowedAdaptiveNutsChains({
        model: url, workers: 0, nChains: 2, seed: 1, numAdaptationSteps: 100, nDraws: 2_000_000, progressInterval: 0, signal: controller.signal,
        onProgress: (p) => { if (reports++ === 0) setTimeout(() => controller.abort('timer'), 300); },
      });
    } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(AbortError);
    expect((caught as AbortError).cause).toBe('timer');
    expect(performance.now() - start).toBeLessThan(20_000);   // 2 000 000 draws would take minutes
    const n = (caught as AbortError<WindowedPartial | PartialChains>).partial.numResults;
    expect(Array.isArray(n) ? Math.max(...n) : n).toBeGreaterThan(0);
  }, 60_000);
});
