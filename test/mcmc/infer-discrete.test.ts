// mcmc/infer-discrete.ts: discrete nodes drawn back from their conditional posterior given
// continuous draws. Statistical checks use fixed seeds; each χ² test rejects at p < 1e-4, so the
// file's false-failure rate is below 1e-3 (5 observations + 1 path test, each 1e-4). ~10 s.
import { describe, expect, it } from 'vitest';
import { Categorical, deterministic, Dirichlet, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import { inferDiscrete, logLikelihood, marginalLogLikelihood, windowedAdaptiveNuts } from '../../mcmc/index.js';
import { gather, Tensor, type Tensor as T } from '../../src/index.js';
import { stepByStepHmm, pinsOf } from '../../examples/hmm-step-by-step.js';
import { mulberry32 } from '../helpers.js';
import { chiSquareMergedPValue as chiSquareMerged } from '../stats.js';

const logNormal = (x: number, m: number) => -0.5 * (x - m) ** 2 - 0.5 * Math.log(2 * Math.PI);
const repeat = (row: number[], n: number) => new Tensor(Float64Array.from({ length: n * row.length }, (_, i) => row[i % row.length]!), [n, row.length], 'float64');

const y = [-1.5, 0.1, 1.4, 2.9, -0.6];
const mixture = new JointDistributionNamed({
  w: new Dirichlet({ concentration: [1, 1, 1] }),
  mu: new Independent({ distribution: new Normal({ loc: [-2, 0, 2], scale: 3 }), reinterpretedBatchNdims: 1 }),
  z: ({ w }: { w: T }) => new Sample({ distribution: new Categorical({ probs: w }), sampleShape: y.length }),
  y: ({ mu, z }: { mu: T; z: T }) => new Independent({ distribution: new Normal({ loc: gather(mu, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
});

describe('inferDiscrete: a mixture\'s labels', () => {
  const w = [0.3, 0.3, 0.4], mu = [-2, 0, 2], D = 3000;
  it(`label frequencies match p(z_i = k | w, mu, y) (χ², ${D} draws, p > 1e-4 per observation)`, () => {
    const r = inferDiscrete(mixture, { w: repeat(w, D), mu: repeat(mu, D) }, { pins: { y }, seed: 11 });
    expect(r.z!.shape).toEqual([D, y.length]);
    expect(r.z!.dtype).toBe('int32');
    const z = r.z!.data as Int32Array;
    y.forEach((yi, i) => {
      const logp = mu.map((m, k) => Math.log(w[k]!) + logNormal(yi, m));
      const top = Math.max(...logp), p = logp.map((v) => Math.exp(v - top)), total = p.reduce((a, b) => a + b, 0);
      const counts = [0, 0, 0];
      for (let d = 0; d < D; d++) counts[z[d * y.length + i]!]! += 1;
      expect(chiSquareMerged(counts, p.map((v) => v / total))).toBeGreaterThan(1e-4);
    });
  });

  it('temperature 0 gives each label\'s argmax; a draw depends only on the seed and its index', () => {
    const map = inferDiscrete(mixture, { w: repeat(w, 1), mu: repeat(mu, 1) }, { pins: { y }, temperature: 0 });
    const want = y.map((yi) => { const lp = mu.map((m, k) => Math.log(w[k]!) + logNormal(yi, m)); return lp.indexOf(Math.max(...lp)); });
    expect(Array.from(map.z!.data as Int32Array)).toEqual(want);
    const a = inferDiscrete(mixture, { w: repeat(w, 20), mu: repeat(mu, 20) }, { pins: { y }, seed: 3 });
    const b = inferDiscrete(mixture, { w: repeat(w, 8), mu: repeat(mu, 8) }, { pins: { y }, seed: 3 });
    expect(Array.from(a.z!.data as Int32Array).slice(0, 8 * y.length)).toEqual(Array.from(b.z!.data as Int32Array));
    const c = inferDiscrete(mixture, { w: repeat(w, 20), mu: repeat(mu, 20) }, { pins: { y }, seed: 4 });
    expect(Array.from(c.z!.data as Int32Array)).not.toEqual(Array.from(a.z!.data as Int32Array));
    // The tape computes the same tables: the same draws.
    const tape = inferDiscrete(mixture, { w: repeat(w, 20), mu: repeat(mu, 20) }, { pins: { y }, seed: 3, compile: false });
    expect(Array.from(tape.z!.data as Int32Array)).toEqual(Array.from(a.z!.data as Int32Array));
  });

  it('keeps [draws, chains] lead dims and returns the continuous draws as given', () => {
    const wd = new Tensor(Float64Array.from({ length: 2 * 3 * 3 }, (_, i) => w[i % 3]!), [2, 3, 3], 'float64');
    const md = new Tensor(Float64Array.from({ length: 2 * 3 * 3 }, (_, i) => mu[i % 3]!), [2, 3, 3], 'float64');
    const r = inferDiscrete(mixture, { w: wd, mu: md }, { pins: { y }, seed: 0 });
    expect(r.z!.shape).toEqual([2, 3, y.length]);
    expect(r.w).toBe(wd);
  });

  it('rejects bad input', () => {
    const draws = { w: repeat(w, 2), mu: repeat(mu, 2) };
    expect(() => inferDiscrete(mixture, draws, { pins: { y }, temperature: 2 as never })).toThrow(RangeError);
    expect(() => inferDiscrete(mixture, draws, { pins: { y }, tempreature: 0 } as never)).toThrow(/unknown option/);
    expect(() => inferDiscrete(mixture, { w: repeat(w, 2) }, { pins: { y } })).toThrow(/`draws.mu` must be a Tensor/);
    expect(() => inferDiscrete(mixture, { w: repeat(w, 2), mu: repeat(mu, 3) }, { pins: { y } })).toThrow(/`draws.mu` must have shape \[2, 3\]/);
    const continuous = new JointDistributionNamed({ m: new Normal({ loc: 0, scale: 1 }), x: (m: T) => new Normal({ loc: m, scale: 1 }) });
    expect(() => inferDiscrete(continuous, { m: repeat([0], 2) }, { pins: { x: 1 } })).toThrow(/no unpinned discrete node/);
  });
});

describe('inferDiscrete: chains', () => {
  it('`chains` gives a one-chain run the keys of its chain in the all-chains run', () => {
    const w = [0.3, 0.3, 0.4], mu = [-2, 0, 2];
    const lead = (c: number, row: number[]) => new Tensor(Float64Array.from({ length: 4 * c * 3 }, (_, i) => row[i % 3]!), [4, c, 3], 'float64');
    const all = inferDiscrete(mixture, { w: lead(3, w), mu: lead(3, mu) }, { pins: { y }, seed: 5 });
    const one = inferDiscrete(mixture, { w: lead(1, w), mu: lead(1, mu) }, { pins: { y }, seed: 5, chains: [2] });
    const z = all.z!.data as Int32Array, n = y.length;
    const chain2 = Array.from({ length: 4 }, (_, t) => Array.from(z.slice((t * 3 + 2) * n, (t * 3 + 3) * n))).flat();
    expect(Array.from(one.z!.data as Int32Array)).toEqual(chain2);
    expect(() => inferDiscrete(mixture, { w: lead(1, w), mu: lead(1, mu) }, { pins: { y }, chains: [0, 1] })).toThrow(/one index per chain/);
    expect(() => inferDiscrete(mixture, { w: repeat(w, 4), mu: repeat(mu, 4) }, { pins: { y }, chains: [0] })).toThrow(/\[draws, chains\]/);
  });
});

describe('marginalLogLikelihood', () => {
  const w = [0.2, 0.3, 0.5], mu = [-2, 0.5, 2];
  it('a mixture\'s observation i: log Σ_k w_k N(y_i; mu_k, 1), per draw (closed form, 1e-13)', () => {
    const D = 3;
    const ws = [w, [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]], mus = [mu, [-1, 0, 1], [0, 0.1, 3]];
    const ll = marginalLogLikelihood(mixture, { w: new Tensor(Float64Array.from(ws.flat()), [D, 3], 'float64'), mu: new Tensor(Float64Array.from(mus.flat()), [D, 3], 'float64') }, { pins: { y } });
    expect(Object.keys(ll)).toEqual(['y']);
    expect(ll.y!.shape).toEqual([D, y.length]);
    const got = ll.y!.data as Float64Array;
    for (let d = 0; d < D; d++) {
      y.forEach((yi, i) => {
        const want = Math.log(ws[d]!.reduce((a, wk, k) => a + wk * Math.exp(logNormal(yi, mus[d]![k]!)), 0));
        expect(Math.abs(got[d * y.length + i]! - want)).toBeLessThan(1e-13 * Math.abs(want) + 1e-15);
      });
    }
    // The tape gives the same tables.
    const tape = marginalLogLikelihood(mixture, { w: repeat(w, 2), mu: repeat(mu, 2) }, { pins: { y }, compile: false });
    const comp = marginalLogLikelihood(mixture, { w: repeat(w, 2), mu: repeat(mu, 2) }, { pins: { y } });
    expect(Array.from(tape.y!.data as Float64Array)).toEqual(Array.from(comp.y!.data as Float64Array));
  });

  it('observed nodes that depend on no enumerated node get their ordinary pointwise log density', () => {
    const withExtra = new JointDistributionNamed({
      w: new Dirichlet({ concentration: [1, 1, 1] }),
      mu: new Independent({ distribution: new Normal({ loc: [-2, 0, 2], scale: 3 }), reinterpretedBatchNdims: 1 }),
      z: ({ w: ww }: { w: T }) => new Sample({ distribution: new Categorical({ probs: ww }), sampleShape: y.length }),
      y: ({ mu: m, z }: { mu: T; z: T }) => new Independent({ distribution: new Normal({ loc: gather(m, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
      x: ({ mu: m }: { mu: T }) => new Independent({ distribution: new Normal({ loc: m, scale: 2 }), reinterpretedBatchNdims: 1 }),
    });
    const x = [0.5, -1, 3];
    const ll = marginalLogLikelihood(withExtra, { w: repeat(w, 1), mu: repeat(mu, 1) }, { pins: { y, x } });
    expect(Object.keys(ll).sort()).toEqual(['x', 'y']);
    const got = Array.from(ll.x!.data as Float64Array);
    x.forEach((xi, i) => expect(got[i]).toBeCloseTo(logNormal(xi / 2, mu[i]! / 2) - Math.log(2), 12));
  });

  it('refuses observations that are not independent given the continuous values', () => {
    const shared = new JointDistributionNamed({
      p: new Dirichlet({ concentration: [1, 1] }),
      s: ({ p }: { p: T }) => new Categorical({ probs: p }),
      d: ({ s }: { s: T }) => new Independent({ distribution: new Normal({ loc: gather(new Tensor(Float64Array.from([-1, 1]), [2], 'float64'), s), scale: 1 }), reinterpretedBatchNdims: 0 }),
    });
    expect(() => marginalLogLikelihood(shared, { p: repeat([0.5, 0.5], 2) }, { pins: { d: 0.3 } })).toThrow(/all depend on the one enumerated node `s`.*no pointwise log-likelihood/);
    const { model, obs } = randomHmm(3, 1);
    const draws = { mu: repeat([0, 0, 0], 1) };
    expect(() => marginalLogLikelihood(model, draws as never, { pins: pinsOf(obs) })).toThrow(RangeError);
    expect(() => marginalLogLikelihood(mixture, { w: repeat(w, 1), mu: repeat(mu, 1) }, { pins: { y }, seed: 1 } as never)).toThrow(/unknown option/);
  });
});

/** A random K = 3 HMM written step by step, its observations, and log p(z, y | mu) for a path z. */
function randomHmm(T: number, seed: number) {
  const rnd = mulberry32(seed);
  const simplex = () => { const v = [rnd() + 0.1, rnd() + 0.1, rnd() + 0.1]; const s = v[0]! + v[1]! + v[2]!; return v.map((x) => x / s); };
  const init = simplex(), trans = [simplex(), simplex(), simplex()];
  const mu = [-1, 0.2, 1.3].map((m) => m + 0.3 * rnd());
  const obs = Array.from({ length: T }, () => 4 * rnd() - 2);
  const logJoint = (z: number[]) => z.reduce((a, k, t) => a + Math.log(t === 0 ? init[k]! : trans[z[t - 1]!]![k]!) + logNormal(obs[t]!, mu[k]!), 0);
  return { model: stepByStepHmm(T, init, trans), obs, mu, logJoint };
}
const paths = (T: number): number[][] => (T === 0 ? [[]] : paths(T - 1).flatMap((p) => [0, 1, 2].map((k) => [...p, k])));

describe('inferDiscrete: an HMM written step by step', () => {
  it('temperature 0 gives the brute-force most probable path (T ≤ 8, K = 3, 8 random models)', () => {
    for (const [T, seed] of [[1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7], [8, 8]] as const) {
      const { model, obs, mu, logJoint } = randomHmm(T, seed);
      const all = paths(T);
      const lps = all.map(logJoint);
      const best = all[lps.indexOf(Math.max(...lps))]!;
      const map = inferDiscrete(model, { mu: repeat(mu, 1) }, { pins: pinsOf(obs), temperature: 0 });
      expect(best.map((_, t) => (map[`z${t}`]!.data as Int32Array)[0])).toEqual(best);
    }
  });

  it('temperature 1 draws whole paths from p(z | mu, y) (T = 4: χ² over the 81 paths, 4000 draws, p > 1e-4)', () => {
    const T = 4, D = 4000;
    const { model, obs, mu, logJoint } = randomHmm(T, 21);
    const all = paths(T), lps = all.map(logJoint), top = Math.max(...lps);
    const p = lps.map((v) => Math.exp(v - top)), total = p.reduce((a, b) => a + b, 0);
    const r = inferDiscrete(model, { mu: repeat(mu, D) }, { pins: pinsOf(obs), seed: 5 });
    const counts = new Array<number>(all.length).fill(0);
    for (let d = 0; d < D; d++) {
      let code = 0;
      for (let t = 0; t < T; t++) code = code * 3 + (r[`z${t}`]!.data as Int32Array)[d]!;
      counts[code]! += 1;
    }
    expect(chiSquareMerged(counts, p.map((v) => v / total))).toBeGreaterThan(1e-4);
  });
});

describe('windowedAdaptiveNuts: derived values of an enumerated model', () => {
  it('read the discrete nodes drawn back (inferDiscrete from the run\'s seed), not the placeholder', () => {
    const ys = [-2.1, -1.7, 2.2, 1.9, 2.4];
    const model = new JointDistributionNamed({
      w: new Dirichlet({ concentration: [2, 2] }),
      mu: new Independent({ distribution: new Normal({ loc: [-2, 2], scale: 1 }), reinterpretedBatchNdims: 1 }),
      z: ({ w }: { w: T }) => new Sample({ distribution: new Categorical({ probs: w }), sampleShape: ys.length }),
      muZ: deterministic(({ mu, z }: { mu: T; z: T }) => gather(mu, z)),
      y: ({ mu, z }: { mu: T; z: T }) => new Independent({ distribution: new Normal({ loc: gather(mu, z), scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const fit = windowedAdaptiveNuts(model, { pins: { y: ys }, seed: 2, nChains: 2, nDraws: 100, numAdaptationSteps: 100, warn: false });
    const muZ = fit.deterministics!.muZ!, mu = fit.draws.mu!.data as Float64Array, v = muZ.data as Float64Array;
    expect(muZ.shape).toEqual([100, 2, ys.length]);
    // Each value is the draw's mu of the label; observations near +2 take component 1 almost always (the placeholder is 0).
    let right = 0;
    for (let d = 0; d < 200; d++) {
      for (let i = 0; i < ys.length; i++) {
        const k = v[d * ys.length + i] === mu[d * 2 + 1] ? 1 : 0;
        expect(v[d * ys.length + i]).toBe(mu[d * 2 + k]);
        if (k === (ys[i]! > 0 ? 1 : 0)) right++;
      }
    }
    expect(right / (200 * ys.length)).toBeGreaterThan(0.9);
  });
});

describe('logLikelihood of an enumerated model', () => {
  it('points to marginalLogLikelihood', () => {
    expect(() => logLikelihood(mixture, { w: repeat([0.3, 0.3, 0.4], 1).reshape([1, 1, 3]), mu: repeat([-2, 0, 2], 1).reshape([1, 1, 3]) }, { y })).toThrow(/no draws of `z`; they are summed out \(enumerated\): marginalLogLikelihood/);
  });
});
