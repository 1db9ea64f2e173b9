// mcmc/infer-discrete.ts: discrete nodes drawn back from their conditional posterior given
// continuous draws. Statistical checks use fixed seeds; each χ² test rejects at p < 1e-4, so the
// file's false-failure rate is below 1e-3 (5 observations + 1 path test, each 1e-4). ~10 s.
import { describe, expect, it } from 'vitest';
import { Categorical, Dirichlet, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import { inferDiscrete } from '../../mcmc/index.js';
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
