// examples/hmm-step-by-step.ts: an HMM written step by step (T = 100) has the compiled log density
// and gradient of HiddenMarkovModel to 1e-12, and inferDiscrete's Viterbi path is
// HiddenMarkovModel.posteriorMode. Deterministic; ~4 s (tracing 200 nodes).
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/hmm-step-by-step.js';

describe('examples/hmm-step-by-step.ts', () => {
  it('equals HiddenMarkovModel (T = 100) and finds its Viterbi path', async () => {
    const r = await main({ quiet: true });
    expect(r.T).toBe(100);
    expect(r.maxRelDiff).toBeLessThan(1e-12);
    expect(r.viterbi).toEqual(r.posteriorMode);
    expect(new Set(r.viterbi).size).toBe(3);
  });
});
