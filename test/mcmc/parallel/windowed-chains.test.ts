// windowedAdaptiveNutsChains: a joint model module's per-chain windowedAdaptiveNuts chains on
// worker threads give the in-process call's draws and trace bit for bit (0, 1 and 2 workers);
// progress per chain; a module without a joint `model` and pooled adaptation are refused.
import { describe, expect, it } from 'vitest';
import { AbortError, createWorkerPool, windowedAdaptiveNutsChains, type PartialChains } from '../../../mcmc/parallel/index.js';
import { windowedAdaptiveNuts } from '../../../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import { model, options, pins } from './fixtures/joint-model.js';
import * as latentCount from './fixtures/latent-count-model.js';

const url = new URL('./fixtures/joint-model.ts', import.meta.url);
const bits = (t: Tensor) => Array.from(new Uint32Array(Float64Array.from(t.data as ArrayLike<number>).buffer));

describe('windowedAdaptiveNutsChains', () => {
  it('0, 1 and 2 workers give windowedAdaptiveNuts in this thread, bit for bit', async () => {
    const want = windowedAdaptiveNuts(model, { ...options, pins, nChains: 3, seed: 9 });
    for (const workers of [0, 1, 2]) {
      const seen = new Set<number>();
      const r = await windowedAdaptiveNutsChains({ model: url, nChains: 3, seed: 9, workers, onProgress: (p) => { if (p.step === p.total) seen.add(p.chain); } });
      const d = r.draws as Record<string, Tensor>, w = want.draws as Record<string, Tensor>;
      expect(Object.keys(d)).toEqual(['a', 'b', 'sigma']);
      for (const k of ['a', 'b', 'sigma']) {
        expect(d[k]!.shape, `${k}, ${workers} workers`).toEqual([25, 3]);
        expect(bits(d[k]!), `${k}, ${workers} workers`).toEqual(bits(w[k]!));
      }
      for (const k of ['energy', 'nSteps', 'stepSize', 'diverging'] as const) expect(bits(r.trace[k]), k).toEqual(bits(want.trace[k]));
      expect([...seen].sort()).toEqual([0, 1, 2]);
    }
  }, 120_000);

  it('the chains\' own end states come back: rejections as in this thread, and a resume state that continues them exactly', async () => {
    const r = await windowedAdaptiveNutsChains({ model: url, nChains: 2, seed: 4, workers: 2 });
    const want = windowedAdaptiveNuts(model, { ...options, pins, nChains: 2, seed: 4 });
    expect(r.rejections).toEqual(want.rejections);
    expect(r.resume!.chains.map((st) => [st.chain, st.transition])).toEqual([[0, 85], [1, 85]]);
    // 10 more draws from the workers' states equal draws 25..34 of a 35-draw run in this thread.
    const more = windowedAdaptiveNuts(model, { pins, previous: r, nDraws: 10 });
    const longer = windowedAdaptiveNuts(model, { ...options, pins, nChains: 2, seed: 4, nDraws: 35 });
    expect(bits((more.draws as Record<string, Tensor>).b!)).toEqual(bits((longer.draws as Record<string, Tensor>).b!).slice(2 * 2 * 25));
  }, 120_000);

  it('a warm pool from createWorkerPool serves several calls with the same bits', async () => {
    const pool = await createWorkerPool({ model: url, workers: 2 });
    try {
      const want = windowedAdaptiveNuts(model, { ...options, pins, nChains: 2, seed: 5 });
      for (const seed of [5, 5]) {
        const r = await windowedAdaptiveNutsChains({ model: url, nChains: 2, seed, pool });
        expect(bits((r.draws as Record<string, Tensor>).b!)).toEqual(bits((want.draws as Record<string, Tensor>).b!));
      }
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('an abort stops the workers between transitions; the AbortError carries the draws completed so far', async () => {
    const controller = new AbortController();
    let caught: unknown;
    try {
      await windowedAdaptiveNutsChains({
        model: url, nChains: 2, workers: 2, seed: 1, numAdaptationSteps: 200, nDraws: 100_000, signal: controller.signal, progressInterval: 0,
        onProgress: (p) => { if (p.phase === 'sampling' && p.step > 300) controller.abort('enough'); },
      });
    } catch (e) { caught = e; }
    expect(caught).toBeInstanceOf(AbortError);
    const partial = (caught as AbortError<PartialChains>).partial;
    // Per chain, the draws it had kept (a worker that started late may have kept none yet).
    expect(partial.numResults).toHaveLength(2);
    expect(Math.max(...partial.numResults)).toBeGreaterThan(0);
    partial.numResults.forEach((n) => expect(n).toBeLessThan(100_000));
    const k = Math.min(...partial.numResults);
    if (k > 0) expect((partial.allStates as unknown as Record<string, Tensor>).b!.shape).toEqual([k, 2]);
    else expect(partial.allStates).toBeUndefined();
    const done = partial.chains.find((c) => c !== undefined && c.numResults > 0)!;
    expect((done.allStates as unknown as Record<string, Tensor>).b!.shape).toEqual([done.numResults]);
  }, 120_000);

  it('a model with Gibbs steps on a latent count: 2 workers give windowedAdaptiveNuts in this thread, bit for bit (discrete draws, acceptance rates, resume state)', async () => {
    const o = { nChains: 3, seed: 5, nDraws: 40, numAdaptationSteps: 60 };
    const want = windowedAdaptiveNuts(latentCount.model, { ...o, pins: latentCount.pins });
    const r = await windowedAdaptiveNutsChains({ model: new URL('./fixtures/latent-count-model.ts', import.meta.url), ...o, workers: 2 });
    const d = r.draws as Record<string, Tensor>, w = want.draws as Record<string, Tensor>;
    expect(Object.keys(d)).toEqual(['lam', 'n']);
    expect(d.n!.dtype).toBe(w.n!.dtype);
    for (const k of ['lam', 'n']) expect(bits(d[k]!), k).toEqual(bits(w[k]!));
    for (const k of ['energy', 'nSteps', 'stepSize', 'rejections'] as const) expect(bits(r.trace[k]!), k).toEqual(bits(want.trace[k]!));
    expect(r.gibbs).toEqual(want.gibbs);
    expect(r.compiled).toBe(true);
    expect(r.resume!.chains.map((st) => Array.from(st.gibbs!.values))).toEqual(want.resume!.chains.map((st) => Array.from(st.gibbs!.values)));
  }, 120_000);

  it('refuses pooled adaptation and a module without a joint model', async () => {
    await expect(windowedAdaptiveNutsChains({ model: url, adaptation: 'pooled', workers: 1 })).rejects.toThrow(/adaptation.*per-chain/);
    await expect(windowedAdaptiveNutsChains({ model: new URL('./fixtures/no-setup.ts', import.meta.url), workers: 1 })).rejects.toThrow(/windowedAdaptiveNutsChains: `model`.*joint distribution/);
    await expect(windowedAdaptiveNutsChains({ model: url, workers: -1 })).rejects.toThrow(/workers/);
  }, 60_000);
});
