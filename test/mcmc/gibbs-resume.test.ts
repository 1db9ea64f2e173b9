// Invariants 3 and 4 (ARCHITECTURE.md) for runs with Gibbs steps on discrete nodes
// (mcmc/nuts/stan/gibbs.ts): a run continued from its returned state (`previous`) equals the run
// in one go, and chains on worker threads (`cores: 2`) equal the chains in process — bit for bit,
// discrete draws, every trace field, acceptance rates and tuned random-walk steps included.
// Warm-up of 120 transitions tunes the random walk's step after transitions 49 and 99 (every 50),
// so the stops below fall inside a tuning interval, at its end, at warm-up's end and after it.
// Deterministic: no sample size or false-failure rate. ~15 s (workers start under tsx).
// `coresTuning.force` sends these short runs to workers (the size rule would keep them here).
import { afterEach, describe, expect, it } from 'vitest';
import { add, mul, type Tensor } from '../../src/index.js';
import { Bernoulli, Gamma, Independent, JointDistributionNamed, Poisson, Sample } from '../../distributions/index.js';
import { AbortError } from '../../mcmc/abort-error.js';
import { coresTuning } from '../../mcmc/nuts/stan/cores.js';
import { windowedAdaptiveNuts, type WindowedAdaptiveNutsOptions, type WindowedPartial } from '../../mcmc/windowed-adaptive-nuts.js';

// n: a plated latent count (random walk, tuned in warm-up); z: a Bernoulli kept out of enumeration (uniform proposals).
const model = new JointDistributionNamed({
  lam: new Gamma({ concentration: 2, rate: 1 }),
  n: new Sample({ distribution: new Poisson({ rate: 5 }), sampleShape: 2 }),
  z: new Bernoulli({ probs: 0.3, enumerate: false }),
  y: ({ lam, n, z }: { lam: Tensor; n: Tensor; z: Tensor }) => new Independent({ distribution: new Poisson({ rate: add(mul(lam, n), mul(2, z)) }), reinterpretedBatchNdims: 1 }),
});
const base: WindowedAdaptiveNutsOptions = { nChains: 2, numAdaptationSteps: 120, nDraws: 40, seed: 4, pins: { y: [5, 9] }, cores: 1 };
const TRACE = ['stepSize', 'tune', 'nSteps', 'treeDepth', 'diverging', 'acceptRatio', 'energy', 'targetLogProb', 'isAccepted', 'rejections'] as const;

/** Every draw and trace field as raw bytes (so −0 and NaN payloads count). */
function bits(r: { draws?: unknown; trace?: unknown }): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const bytes = (t: Tensor) => { const d = t.data as Float64Array; return Array.from(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)); };
  if (r.draws !== undefined) for (const [k, v] of Object.entries(r.draws as Record<string, Tensor>)) out[k] = bytes(v);
  if (r.trace !== undefined) for (const k of TRACE) out[`trace.${k}`] = bytes((r.trace as Record<string, Tensor>)[k]!);
  return out;
}

function join(...parts: Record<string, number[]>[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

function differ(a: Record<string, number[]>, b: Record<string, number[]>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => {
    const x = a[k], y = b[k];
    return x === undefined || y === undefined || x.length !== y.length || x.some((v, i) => v !== y[i]);
  });
}

function abortedAt(o: WindowedAdaptiveNutsOptions, k: number): WindowedPartial {
  const controller = new AbortController();
  try {
    windowedAdaptiveNuts(model, { ...o, signal: controller.signal, progressInterval: 0, onProgress: (p) => { if (p.step >= k) controller.abort(); } });
  } catch (e) {
    if (e instanceof AbortError) return e.partial as WindowedPartial;
    throw e;
  }
  throw new Error(`not aborted at ${k}`);
}

afterEach(() => { coresTuning.force = false; });

describe('Gibbs steps: a run continued from its returned state equals the run in one go', () => {
  const whole = windowedAdaptiveNuts(model, base);

  it('the run has both kinds of Gibbs site, and the random walk was tuned', () => {
    const nodes = whole.gibbs!.nodes.map((g) => [g.name, g.proposal]), walk = nodes.findIndex(([name]) => name === 'n');
    expect(nodes).toContainEqual(['n', 'random-walk']);
    expect(nodes).toContainEqual(['z', 'uniform']);
    expect(whole.resume!.chains[0]!.gibbs!.scale[walk]).not.toBe(2);   // tuned away from its start (RW_STEP)
  });

  it.each([
    ['inside the first tuning interval', 37],
    ['inside the second tuning interval', 75],
    ['at a tuning interval\'s end', 100],
    ['at the end of warm-up', 120],
    ['after warm-up', 141],
  ])('aborted %s (k = %i) and resumed: the same bits, acceptance rates and tuned steps', (_, k) => {
    const partial = abortedAt(base, k);
    const rest = windowedAdaptiveNuts(model, { pins: base.pins, previous: partial, cores: 1 });
    expect(differ(join(bits(partial), bits(rest)), bits(whole))).toEqual([]);
    expect(rest.gibbs).toEqual(whole.gibbs);
    expect(rest.resume!.chains.map((st) => Array.from(st.gibbs!.values))).toEqual(whole.resume!.chains.map((st) => Array.from(st.gibbs!.values)));
  });

  it("stopped twice inside a tuning interval: each chain's discrete block (the interval's counts too) equals the one-go run's", () => {
    const block = (p: WindowedPartial) => p.resume!.chains.map((st) => Object.entries(st.gibbs!).map(([k, v]) => [k, Array.from(v as Float64Array)]));
    const twice = abortedAt({ pins: base.pins, previous: abortedAt(base, 37), cores: 1 }, 45);
    expect(block(twice)).toEqual(block(abortedAt(base, 45)));
  });

  it('a finished run continued with more draws equals one longer run', () => {
    const first = windowedAdaptiveNuts(model, { ...base, nDraws: 15 });
    const more = windowedAdaptiveNuts(model, { pins: base.pins, previous: first, nDraws: 25, cores: 1 });
    expect(differ(join(bits(first), bits(more)), bits(whole))).toEqual([]);
  });

  it('a state without its discrete block is refused by name', () => {
    const partial = abortedAt(base, 37);
    const broken = { resume: { ...partial.resume!, chains: partial.resume!.chains.map(({ gibbs: _, ...st }) => st) } };
    expect(() => windowedAdaptiveNuts(model, { pins: base.pins, previous: broken })).toThrow(/windowedAdaptiveNuts: `previous` must hold each chain's discrete block for the Gibbs steps on `z`, `n` \(3 values over 2 node\(s\)\)/);
  });
});

describe('Gibbs steps on worker threads (cores: 2, 3) equal the chains in process', () => {
  // Every NaN alike (V8 may give a NaN another payload in optimised code); everything else bit for bit.
  const same = (r: { draws?: unknown; trace?: unknown }) => Object.fromEntries(Object.entries(bits(r)).map(([k, b]) => {
    const f = new Float64Array(Uint8Array.from(b).buffer.slice(0, b.length - (b.length % 8)));
    return [k, k.startsWith('trace.') || k === 'lam' ? Array.from(f, (v) => (v !== v ? 'NaN' : v)) : b];
  }));
  const o = { ...base, nChains: 4 };
  const one = windowedAdaptiveNuts(model, o);

  it('the same draws (discrete ones included), trace, acceptance rates and tuned steps', () => {
    coresTuning.force = true;
    for (const cores of [2, 3]) {
      const r = windowedAdaptiveNuts(model, { ...o, cores });
      expect(r.parallel).toEqual({ cores });
      expect(same(r)).toEqual(same(one));
      expect(r.gibbs).toEqual(one.gibbs);
      expect(r.rejections).toEqual(one.rejections);
    }
  }, 120_000);

  it('an abort on workers returns a resumable partial; continued on workers, the same bits', () => {
    coresTuning.force = true;
    const partial = abortedAt({ ...o, cores: 2 }, 90);
    if (partial.numResults === o.nDraws) {
      // On a loaded machine the workers can finish every step before the abort reaches them (seen in CI
      // with 160 short steps): the partial is then the whole run, which must equal it.
      expect(same({ draws: partial.draws, trace: partial.trace })).toEqual(same(one));
      return;
    }
    const rest = windowedAdaptiveNuts(model, { pins: base.pins, previous: partial, cores: 2 });
    expect(rest.parallel).toEqual({ cores: 2 });
    expect(same({ draws: joinDraws(partial, rest, 'draws'), trace: joinDraws(partial, rest, 'trace') })).toEqual(same(one));
    expect(rest.gibbs).toEqual(one.gibbs);
  }, 60_000);
});

/** The draws (or trace) of two pieces joined along the draws axis, as tensors. */
function joinDraws(a: { draws?: unknown; trace?: unknown }, b: { draws?: unknown; trace?: unknown }, part: 'draws' | 'trace'): Record<string, Tensor> {
  const x = (a[part] ?? {}) as Record<string, Tensor>, y = b[part] as Record<string, Tensor>;
  return Object.fromEntries(Object.entries(y).map(([k, t]) => {
    const u = x[k];
    if (u === undefined) return [k, t];
    const D = t.data.constructor as new (n: number) => Float64Array;
    const d = new D(u.size + t.size);
    d.set(u.data as Float64Array); d.set(t.data as Float64Array, u.size);
    return [k, new (t.constructor as new (d: unknown, s: number[], dt: string) => Tensor)(d, [u.shape[0]! + t.shape[0]!, ...t.shape.slice(1)], t.dtype)];
  }));
}

