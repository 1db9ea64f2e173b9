// Invariant 3 (ARCHITECTURE.md) for the default sampler: a per-chain run continued from its
// returned state (`previous`: an aborted run's partial, or a finished result) equals the run done
// in one go, bit for bit — draws and every trace field — whether it stops in warm-up, exactly at a
// metric window's end, or after warm-up, in process or on worker threads (`cores: 2`). Warm-up of
// 150 steps has Stan's full windows: 75 (step size only) / 25 (metric, ends after transition 99,
// then the step-size heuristic) / 50. Deterministic: no sample size or false-failure rate.
import { afterEach, describe, expect, it } from 'vitest';
import { HalfNormal } from '../../distributions/half-normal.js';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { Sample } from '../../distributions/sample.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { coresTuning } from '../../mcmc/nuts/stan/cores.js';
import { windowedAdaptiveNuts, type WindowedAdaptiveNutsOptions, type WindowedPartial } from '../../mcmc/windowed-adaptive-nuts.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { Independent } from '../../distributions/independent.js';

const model = () => new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 1 }),
  sigma: new HalfNormal({ scale: 1 }),
  z: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }),
  y: (mu: Tensor, sigma: Tensor, z: Tensor) => new Independent({ distribution: new Normal({ loc: add(mu, mul(0.1, z)), scale: sigma }), reinterpretedBatchNdims: 1 }),
});
const base: WindowedAdaptiveNutsOptions = { nChains: 2, numAdaptationSteps: 150, nDraws: 60, seed: 11, pins: { y: [0.3, -0.2] }, cores: 1 };
const TRACE = ['stepSize', 'tune', 'nSteps', 'treeDepth', 'diverging', 'acceptRatio', 'energy', 'targetLogProb', 'isAccepted', 'rejections'] as const;

/** Every draw and trace field as raw words (so −0 and NaN payloads count). */
function bits(r: { draws: unknown; trace: unknown } | WindowedPartial): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const words = (t: Tensor) => Array.from(new Uint8Array((t.data as Float64Array).buffer, (t.data as Float64Array).byteOffset, (t.data as Float64Array).byteLength));
  if (r.draws !== undefined) for (const [k, v] of Object.entries(r.draws as Record<string, Tensor>)) out[k] = words(v);
  if (r.trace !== undefined) for (const k of TRACE) out[`trace.${k}`] = words((r.trace as Record<string, Tensor>)[k]!);
  return out;
}

/** The pieces' bits joined along the draws axis (leading, so the data concatenate). */
function join(...parts: Record<string, number[]>[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

/** Runs with `o`, aborted from onProgress once step `k` (k transitions) is done (in process every step is reported); returns the partial. */
function abortedAt(o: WindowedAdaptiveNutsOptions, k: number): WindowedPartial {
  const controller = new AbortController();
  try {
    windowedAdaptiveNuts(model(), { ...o, signal: controller.signal, progressInterval: 0, onProgress: (p) => { if (p.step >= k) controller.abort(); } });
  } catch (e) {
    if (e instanceof AbortError) return e.partial as WindowedPartial;
    throw e;
  }
  throw new Error(`not aborted at ${k}`);
}

/** Where two sets of bits differ: `[]` when equal (a short failure message; a diff of the arrays would take minutes). */
function differ(a: Record<string, number[]>, b: Record<string, number[]>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => {
    const x = a[k], y = b[k];
    return x === undefined || y === undefined || x.length !== y.length || x.some((v, i) => v !== y[i]);
  }).map((k) => `${k} (${a[k]?.length} vs ${b[k]?.length} bytes)`);
}

afterEach(() => { coresTuning.force = false; });

describe('per-chain engine: a run continued from its returned state equals the run in one go', () => {
  const whole = windowedAdaptiveNuts(model(), base);
  const wholeBits = bits(whole);

  it.each([
    ['in the initial buffer', 37],
    ['in the metric window', 80],
    ['at the metric window\'s end (after its heuristic)', 100],
    ['at the end of warm-up', 150],
    ['after warm-up', 171],
  ])('aborted %s (k = %i) and resumed: the same bits', (_, k) => {
    const partial = abortedAt(base, k);
    expect(partial.resume!.chains.map((st) => st.transition)).toEqual([k, k]);
    const rest = windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial });   // seed, settings and the rest of nDraws from previous
    expect(rest.draws.mu.shape).toEqual([60 - partial.numResults, 2]);
    expect(differ(join(bits(partial), bits(rest)), wholeBits)).toEqual([]);
    expect(rest.resume!.chains.map((st) => st.transition)).toEqual([210, 210]);
    expect(rest.resume!.chains.map((st) => Array.from(st.q))).toEqual(whole.resume!.chains.map((st) => Array.from(st.q)));
  });

  it('in three pieces, the state passed through structuredClone (plain data), with the same options spread in', () => {
    const a = abortedAt(base, 60);
    const b = (() => {
      const controller = new AbortController();
      try { windowedAdaptiveNuts(model(), { ...base, seed: 11, previous: structuredClone(a), signal: controller.signal, progressInterval: 0, onProgress: (p) => { if (p.step === 180) controller.abort(); } }); } catch (e) { return (e as AbortError<WindowedPartial>).partial; }
      throw new Error('not aborted');
    })();
    expect(b.numResults).toBe(30);
    const c = windowedAdaptiveNuts(model(), { ...base, previous: structuredClone(b), nDraws: 30 });
    expect(differ(join(bits(a), bits(b), bits(c)), wholeBits)).toEqual([]);
  });

  it('warm-up draws kept (discardTuning: false) and a dense metric: the same bits, tune flags included', () => {
    const o = { ...base, discardTuning: false, metric: 'dense' as const };
    const one = windowedAdaptiveNuts(model(), o);
    const partial = abortedAt(o, 120);
    expect(partial.numResults).toBe(120);
    const rest = windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial });
    expect(differ(join(bits(partial), bits(rest)), bits(one))).toEqual([]);
  });

  it('thinning: pieces keep the draws of the longer run, also when the abort falls between kept draws', () => {
    const o = { ...base, numStepsBetweenResults: 2, nDraws: 20 };
    const one = windowedAdaptiveNuts(model(), o);
    const partial = abortedAt(o, 150 + 3 * 5 + 1);   // 6 draws kept, then one thinned transition
    expect(partial.numResults).toBe(6);
    const rest = windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial });
    expect(differ(join(bits(partial), bits(rest)), bits(one))).toEqual([]);
  });

  it('more draws after a finished run equal a longer run (nothing in the engine depends on nDraws after warm-up)', () => {
    const more = windowedAdaptiveNuts(model(), { pins: base.pins, previous: whole, nDraws: 25 });
    expect(differ(join(wholeBits, bits(more)), bits(windowedAdaptiveNuts(model(), { ...base, nDraws: 85 })))).toEqual([]);
  });

  it('cores: 2 (on worker threads) resumes the same bits; an abort there returns a resumable partial', () => {
    coresTuning.force = true;
    const partial = abortedAt(base, 90);
    const rest = windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, cores: 2 });
    expect(rest.parallel).toEqual({ cores: 2 });
    expect(differ(join(bits(partial), bits(rest)), wholeBits)).toEqual([]);
    // Aborted on workers: each share stops where it sees the flag; the partial is the prefix all chains reached, and a
    // chain that ran further carries its extra draws in its state (pending), returned first when continued.
    const o = { ...base, nDraws: 3000, cores: 2 };
    const long = bits(windowedAdaptiveNuts(model(), o));
    const late = abortedAt(o, 400);
    expect(late.numResults).toBeLessThan(3000);
    const after = windowedAdaptiveNuts(model(), { pins: base.pins, previous: late, cores: 2 });
    expect(differ(join(bits(late), bits(after)), long)).toEqual([]);
  });

  it('chainIndex picks one chain of previous; its draws are that chain\'s', () => {
    const partial = abortedAt(base, 155);
    const one = windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, chainIndex: 1 });
    const mu = whole.draws.mu.data as Float64Array;
    expect(Array.from(one.draws.mu.data as Float64Array)).toEqual(Array.from({ length: 55 }, (_, i) => mu[(5 + i) * 2 + 1]));
  });

  it('bad uses of previous are errors naming the option', () => {
    const partial = abortedAt(base, 20);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: {} })).toThrow(/windowedAdaptiveNuts: `previous` must be a per-chain windowedAdaptiveNuts result/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, seed: 12 })).toThrow(/`seed` must be previous's seed/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, numAdaptationSteps: 100 })).toThrow(/`numAdaptationSteps` must be 150, as in previous/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, metric: 'dense' })).toThrow(/`metric` must be diagonal, as in previous/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, init: 'prior' })).toThrow(/`init` must not be given with `previous`/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, adaptation: 'pooled' })).toThrow(/`adaptation` must be 'per-chain' with `previous`/);
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: partial, chainIndex: 1, nChains: 3 })).toThrow(/`nChains` must be 2/);
    const other = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: mu, scale: 1 }) });
    expect(() => windowedAdaptiveNuts(other, { pins: { y: 0.3 }, previous: partial })).toThrow(/`previous` comes from a model of 4 unconstrained coordinates, and this one has 1/);
    const broken = { resume: { ...partial.resume!, chains: [{ ...partial.resume!.chains[0]!, q: new Float64Array(3) }] } };
    expect(() => windowedAdaptiveNuts(model(), { pins: base.pins, previous: broken })).toThrow(/malformed state for resume.chains\[0\]/);
  });
});

describe('README: continuing a finished run', () => {
  it('first 500 draws then 500 more equal one run of 1000', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }), sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const first = windowedAdaptiveNuts(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, nDraws: 500 });
    const more = windowedAdaptiveNuts(model, { pins: { y: [1.2, 0.7, 2.1] }, previous: first, nDraws: 500 });
    const whole = windowedAdaptiveNuts(model, { pins: { y: [1.2, 0.7, 2.1] }, seed: 0, nDraws: 1000 });
    for (const v of ['mu', 'sigma']) {
      const a = [...first.draws[v]!.toNumbers(), ...more.draws[v]!.toNumbers()], b = whole.draws[v]!.toNumbers();
      expect(a.every((x, i) => Object.is(x, b[i]))).toBe(true);
    }
  });
});
