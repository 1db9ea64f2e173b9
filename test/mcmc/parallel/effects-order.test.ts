// Effects from sampleChains workers: with chains forced to finish in reverse order on 4 workers,
// the draws and the ordered output equal the serial (workers: 0) run's exactly; unordered effects all arrive (and show the
// reverse finishing order); effectsBarrier waits for slow callbacks; two concurrent runs do not
// sequence each other.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sampleChains } from '../../../mcmc/parallel/index.js';
import { effectsBarrier } from '../../../src/effects/index.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import { arrivals, reset, seen, slowDone, type GaussianOptions } from './fixtures/gaussian-model.js';

const model = new URL('./fixtures/gaussian-model.ts', import.meta.url);
const CHAINS = 4, DRAWS = 6;

let printed: string[] = [];
beforeEach(() => {
  reset();
  printed = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { printed.push(a.join(' ')); });
});
afterEach(() => { vi.restoreAllMocks(); });

async function runWith(workers: number, setupOptions: GaussianOptions) {
  const r = await sampleChains({ model, chains: CHAINS, workers, seed: 11, numResults: DRAWS, setupOptions });
  await effectsBarrier();
  const draws = Array.from((r.allStates as Tensor).data as Float64Array);
  return { printed: [...printed], seen: [...seen], arrivals: [...arrivals], draws };
}

describe('sampleChains effects', () => {
  it('4 workers finishing in reverse: draws and ordered output equal the serial run; unordered all arrive', async () => {
    const serial = await runWith(0, { effects: true });
    expect(serial.seen).toEqual(Array.from({ length: CHAINS * DRAWS }, (_, i) => `c${Math.floor(i / DRAWS)}d${(i % DRAWS) + 1}`));
    expect(serial.printed).toHaveLength(CHAINS * DRAWS);
    expect(serial.printed[0]).toMatch(/^chain 0 draw 1: \[-?\d/);
    reset();
    printed = [];
    const parallel = await runWith(4, { effects: true, reverseMs: 500 });
    // The chains really finished in reverse: chain 3 (started 1.5 s before chain 0) sent all its
    // unordered effects before chain 0 sent any. (Neighbours, 0.5 s apart, may interleave when
    // the machine is busy: 4 workers on 2 cores.)
    expect(parallel.arrivals).toHaveLength(CHAINS * DRAWS);
    expect(parallel.arrivals.lastIndexOf(3)).toBeLessThan(parallel.arrivals.indexOf(0));
    expect(Object.is(parallel.draws.length, CHAINS * DRAWS * 3)).toBe(true);
    parallel.draws.forEach((x, i) => expect(Object.is(x, serial.draws[i])).toBe(true));
    expect(parallel.seen).toEqual(serial.seen);
    expect(parallel.printed).toEqual(serial.printed);
  }, 20_000);

  it('effectsBarrier waits for slow ordered callbacks, delivered in chain order', async () => {
    await sampleChains({ model, chains: 2, workers: 2, seed: 1, numResults: 3, setupOptions: { slow: 'last', draws: 3 } });
    expect(slowDone.length).toBeLessThan(2);
    await effectsBarrier();
    expect(slowDone).toEqual(['c0d3', 'c1d3']);
  }, 20_000);

  it('two concurrent runs do not sequence each other', async () => {
    const a = sampleChains({ model, chains: 2, workers: 0, seed: 1, numResults: 6, setupOptions: { slow: 'every', tag: 'A' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const b = sampleChains({ model, chains: 1, workers: 0, seed: 2, numResults: 1, setupOptions: { slow: 'every', tag: 'B' } });
    await Promise.all([a, b]);
    await effectsBarrier();
    expect(slowDone.filter((t) => t.startsWith('A'))).toEqual([0, 1].flatMap((c) => [1, 2, 3, 4, 5, 6].map((d) => `Ac${c}d${d}`)));
    // B's one slow callback did not queue behind A's twelve (≈ 1.8 s of 150 ms calls).
    expect(slowDone.indexOf('Bc0d1')).toBeLessThan(3);
  }, 20_000);
});
