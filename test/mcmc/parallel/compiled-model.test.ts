// sampleChains with a kernel on a compiled log density: the same bits on 0 and 2 workers, and
// as the chains run by hand in this thread.
import { describe, expect, it } from 'vitest';
import { chainKey, sampleChains } from '../../../mcmc/parallel/index.js';
import { sampleChain } from '../../../mcmc/sample-chain.js';
import { sanitizeSeed } from '../../../src/samplers/seeds.js';
import type { Tensor } from '../../../src/tensor/tensor.js';
import { ld, setup } from './fixtures/compiled-model.js';

const model = new URL('./fixtures/compiled-model.ts', import.meta.url);
const CHAINS = 2, DRAWS = 20;
const bits = (t: unknown) => Array.from(new Uint32Array(Float64Array.from((t as Tensor).data as Float64Array).buffer));

describe('sampleChains on a compiled log density', () => {
  it('0 and 2 workers give the serial chains bit for bit', async () => {
    const serial = Array.from({ length: CHAINS }, (_, c) => {
      const key = chainKey(3, CHAINS, c);
      const s = setup({ chainIndex: c, chains: CHAINS, seed: sanitizeSeed(key, { salt: 'sampleChains.setup' }), options: undefined });
      return sampleChain({ numResults: DRAWS, kernel: s.kernel, currentState: s.currentState, seed: key }).allStates as Tensor;
    });
    const want: number[] = [];
    for (let d = 0; d < DRAWS; d++) for (const s of serial) want.push(...Array.from(s.data as Float64Array).slice(d * ld.dim, (d + 1) * ld.dim));
    for (const workers of [0, 2]) {
      const r = await sampleChains({ model, chains: CHAINS, workers, seed: 3, numResults: DRAWS });
      expect((r.allStates as Tensor).shape).toEqual([DRAWS, CHAINS, ld.dim]);
      expect(bits(r.allStates)).toEqual(bits({ data: Float64Array.from(want) }));
    }
  }, 60_000);
});
