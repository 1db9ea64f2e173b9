// sampleChain's onProgress and signal (used by sampleChains, available on their own): progress
// reports steps, phase and divergences, throttled; an abort throws an AbortError whose partial
// draws resume exactly; sampleChainSteps is sampleChain one step at a time.
import { describe, expect, it } from 'vitest';
import { HamiltonianMonteCarlo } from '../../mcmc/kernels/hamiltonian-monte-carlo.js';
import { RandomWalkMetropolis } from '../../mcmc/kernels/random-walk-metropolis.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { sampleChain, sampleChainSteps, type ChainProgress, type PartialChain } from '../../mcmc/sample-chain.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { mul, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import type { Tensor } from '../../src/tensor/tensor.js';

const target = (x: Tensor) => sum(mul(-0.5, square(x)), -1);
const rwm = () => new RandomWalkMetropolis({ targetLogProbFn: target });
const values = (t: unknown) => Array.from((t as Tensor).data as Float64Array);

describe('sampleChain: onProgress', () => {
  it('reports every step with progressInterval 0: step, total, phase', () => {
    const reports: ChainProgress[] = [];
    sampleChain({ numResults: 3, numBurninSteps: 2, numStepsBetweenResults: 1, currentState: zeros([2, 3]), kernel: rwm(), seed: 0, progressInterval: 0, onProgress: (p) => reports.push(p) });
    expect(reports.map((r) => [r.step, r.total, r.phase])).toEqual([
      [1, 7, 'warmup'], [2, 7, 'warmup'], [3, 7, 'sampling'], [4, 7, 'sampling'], [5, 7, 'sampling'], [6, 7, 'sampling'], [7, 7, 'sampling'],
    ]);
  });

  it('is throttled to the first and last step with a long interval', () => {
    const steps: number[] = [];
    sampleChain({ numResults: 50, currentState: zeros([2]), kernel: rwm(), seed: 0, progressInterval: 1e9, onProgress: (p) => steps.push(p.step) });
    expect(steps).toEqual([1, 50]);
  });

  it('counts divergences summed over chains (HMC with a huge step)', () => {
    const kernel = new HamiltonianMonteCarlo({ targetLogProbFn: (x: Tensor) => sum(mul(-0.5, square(square(x))), -1), stepSize: 50, numLeapfrogSteps: 3 });
    const last: ChainProgress[] = [];
    const { trace } = sampleChain({
      numResults: 10, currentState: zeros([4, 2]), kernel, seed: 1, progressInterval: 0,
      traceFn: (_, r) => (r as { proposedResults: { hasDivergence: Tensor } }).proposedResults.hasDivergence,
      onProgress: (p) => last.push(p),
    });
    const flags = Array.from((trace as Tensor).data as Uint8Array).filter((f) => f).length;
    expect(flags).toBeGreaterThan(0);
    expect(last.at(-1)!.divergences).toBe(flags);
    expect(last.at(-1)!.warmupDivergences).toBe(0);
    // With burn-in, its divergences are counted apart: the same steps as the first 5 of a run without burn-in.
    const withBurnin: ChainProgress[] = [];
    sampleChain({ numResults: 5, numBurninSteps: 5, currentState: zeros([4, 2]), kernel, seed: 1, progressInterval: 0, onProgress: (p) => withBurnin.push(p) });
    const perStep = Array.from({ length: 10 }, (_, i) => Array.from(((trace as Tensor).data as Uint8Array).slice(i * 4, i * 4 + 4)).filter((f) => f).length);
    expect(withBurnin.at(-1)).toMatchObject({ warmupDivergences: perStep.slice(0, 5).reduce((a, b) => a + b, 0), divergences: perStep.slice(5).reduce((a, b) => a + b, 0) });
  });

  it('does not change the draws', () => {
    const a = sampleChain({ numResults: 20, currentState: zeros([3]), kernel: rwm(), seed: 4 });
    const b = sampleChain({ numResults: 20, currentState: zeros([3]), kernel: rwm(), seed: 4, onProgress: () => {}, signal: new AbortController().signal });
    expect(values(b.allStates)).toEqual(values(a.allStates));
  });
});

describe('sampleChain: signal', () => {
  it('aborts between steps; the partial draws resume exactly', () => {
    const whole = sampleChain({ numResults: 12, numStepsBetweenResults: 2, numBurninSteps: 3, currentState: zeros([2]), kernel: rwm(), seed: 9 });
    const controller = new AbortController();
    let error: unknown;
    try {
      sampleChain({
        numResults: 12, numStepsBetweenResults: 2, numBurninSteps: 3, currentState: zeros([2]), kernel: rwm(), seed: 9, progressInterval: 0,
        signal: controller.signal, onProgress: (p) => { if (p.step === 14) controller.abort('stop'); },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AbortError);
    const e = error as AbortError<PartialChain<object>>;
    expect(e.name).toBe('AbortError');
    expect(e.cause).toBe('stop');
    expect(e.message).toBe('sampleChain: aborted after 4 draws');
    const p = e.partial;
    expect(p.numResults).toBe(4); // steps 4, 7, 10, 13 recorded; abort before step 15
    expect(values(p.allStates)).toEqual(values(whole.allStates).slice(0, 8));
    const rest = sampleChain({ numResults: 8, numBurninSteps: 2, numStepsBetweenResults: 2, currentState: p.currentState, kernel: rwm(), seed: p.finalSeed, previousKernelResults: p.finalKernelResults });
    expect([...values(p.allStates), ...values(rest.allStates)]).toEqual(values(whole.allStates));
  });

  it('an already-aborted signal throws before the first step with no draws', () => {
    expect(() => sampleChain({ numResults: 2, currentState: zeros([2]), kernel: rwm(), seed: 0, signal: AbortSignal.abort() })).toThrow(AbortError);
  });

  it('checks signal, onProgress and progressInterval by name', () => {
    const base = { numResults: 2, currentState: zeros([2]), kernel: rwm(), seed: 0 };
    expect(() => sampleChain({ ...base, signal: {} as AbortSignal })).toThrow(/sampleChain: `signal` must be an AbortSignal/);
    expect(() => sampleChain({ ...base, onProgress: 1 as never })).toThrow(/sampleChain: `onProgress` must be a function/);
    expect(() => sampleChain({ ...base, progressInterval: -1 })).toThrow(RangeError);
  });
});

describe('sampleChainSteps', () => {
  it('takes one kernel step per next() and returns sampleChain\'s result', () => {
    const steps = sampleChainSteps({ numResults: 5, numBurninSteps: 2, currentState: zeros([2]), kernel: rwm(), seed: 3 });
    let n = 0;
    let r = steps.next();
    while (!r.done) { n++; r = steps.next(); }
    expect(n).toBe(7);
    expect(values(r.value.allStates)).toEqual(values(sampleChain({ numResults: 5, numBurninSteps: 2, currentState: zeros([2]), kernel: rwm(), seed: 3 }).allStates));
  });

  it('checks options when called', () => {
    expect(() => sampleChainSteps({ numResults: 0, currentState: zeros([2]), kernel: rwm() })).toThrow(/sampleChain: `numResults`/);
  });
});
