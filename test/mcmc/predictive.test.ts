import { describe, expect, it, vi } from 'vitest';
import { foldIn, sanitizeSeed } from '../../src/samplers/seeds.js';
import { key } from '../../src/random/keys.js';
import { normal } from '../../src/random/normal.js';
import { uniform } from '../../src/random/uniform.js';
import { add, exp, greater, mul, neg, sub } from '../../src/tensor/ops/elementwise.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { cholesky, eye, expandDims, matmul, sum } from '../../src/tensor/index.js';
import {
  deterministic, HalfCauchy, HalfNormal, Independent, JointDistributionCoroutine, JointDistributionNamed, JointDistributionSequential, MultivariateNormalDiag, Normal, Root, Sample,
  type CoroutineModel,
} from '../../distributions/index.js';
import { centered, nonCentered, sigma, y } from '../../examples/eight-schools.js';
import { stackingShared } from '../../mcmc/predictive.js';
import {
  compare, computeDeterministics, logLikelihood, loo, pointwiseLogProb, samplePosteriorPredictive, samplePriorPredictive, waic, type PredictiveModel,
} from '../../mcmc/index.js';

/** Eight schools written for one draw, both forms (examples/eight-schools.ts). */
const model = nonCentered;
const SIGMA = Array.from(sigma.data as Float64Array);
const Y = Array.from(y.data as Float64Array);

/** Stand-in posterior draws [N, C, ...] (the functions under test never look at where draws come from). */
function fakeDraws(N: number, C: number, seed = 0) {
  return {
    mu: add(mul(normal(key(seed), [N, C]), 3), 4),
    tau: mul(uniform(key(seed + 1), [N, C]), 5),
    thetaTilde: normal(key(seed + 2), [N, C, 8]),
  };
}

const at = (t: Tensor, i: number) => Number(t.data[i]);
const slice = (t: Tensor, n: number, c: number, C: number) => {
  const size = t.shape.slice(2).reduce((a, b) => a * b, 1);
  return new Tensor((t.data as Float64Array).slice((n * C + c) * size, (n * C + c + 1) * size), t.shape.slice(2), 'float64');
};

describe('samplePriorPredictive', () => {
  it('draws every node, leading axis `samples`', () => {
    const prior = samplePriorPredictive(model, { seed: 3, samples: 50 });
    expect(Object.keys(prior).sort()).toEqual(['mu', 'tau', 'theta', 'thetaTilde', 'y']);   // theta: the derived value
    expect(prior.mu!.shape).toEqual([50]);
    expect(prior.thetaTilde!.shape).toEqual([50, 8]);
    expect(prior.y!.shape).toEqual([50, 8]);
    expect(samplePriorPredictive(model, { seed: 3 }).mu!.shape).toEqual([500]);
  });

  it('draw s is model.sample([], { seed: foldIn(sanitizeSeed(seed, { salt }), s) }), whatever `samples` is', () => {
    const prior = samplePriorPredictive(model, { seed: 3, samples: 20 });
    const base = sanitizeSeed(3, { salt: 'samplePriorPredictive' });
    for (const s of [0, 7, 19]) {
      const d = model.sample([], { seed: foldIn(base, s) });
      expect(at(prior.mu!, s)).toBe(d.mu!.item());
      expect(Array.from(prior.y!.data.slice(s * 8, s * 8 + 8) as Float64Array)).toEqual(Array.from(d.y!.data as Float64Array));
    }
    const fewer = samplePriorPredictive(model, { seed: 3, samples: 5 });
    expect(Array.from(fewer.y!.data as Float64Array)).toEqual(Array.from(prior.y!.data.slice(0, 40) as Float64Array));
    expect(Array.from(samplePriorPredictive(model, { seed: 3, samples: 20 }).y!.data as Float64Array)).toEqual(Array.from(prior.y!.data as Float64Array));
    expect(at(samplePriorPredictive(model, { seed: 4, samples: 1 }).mu!, 0)).not.toBe(at(prior.mu!, 0));
  });

  it('mu follows its Normal(0, 5) prior (a 6-sigma check on the mean of 2000 draws: false-failure rate < 2e-9 for a random seed)', () => {
    const mu = samplePriorPredictive(model, { seed: 11, samples: 2000 }).mu!.data as Float64Array;
    let s = 0;
    for (const v of mu) s += v;
    expect(Math.abs(s / mu.length)).toBeLessThan((6 * 5) / Math.sqrt(2000));
  });

  it('ignores the pins of a pinned model (the prior predictive includes the data nodes)', () => {
    const a = samplePriorPredictive(model.experimentalPin({ y }), { seed: 2, samples: 4 });
    expect(Array.from(a.y!.data as Float64Array)).toEqual(Array.from(samplePriorPredictive(model, { seed: 2, samples: 4 }).y!.data as Float64Array));
  });
});

describe('samplePosteriorPredictive', () => {
  const draws = fakeDraws(30, 3);

  it('replicates the unobserved nodes for every draw and chain: y [draws, chains, 8]', () => {
    const rep = samplePosteriorPredictive(model, draws, { seed: 1 });
    expect(Object.keys(rep)).toEqual(['y']);
    expect(rep.y!.shape).toEqual([30, 3, 8]);
    const pinnedRep = samplePosteriorPredictive(model.experimentalPin({ y }), draws, { seed: 1 });
    expect(Array.from(pinnedRep.y!.data as Float64Array)).toEqual(Array.from(rep.y!.data as Float64Array));
  });

  it('replicate (t, c) is model.sample([], { seed: foldIn(foldIn(P, c), t), value: draw (t, c) })', () => {
    const rep = samplePosteriorPredictive(model, draws, { seed: 1 });
    const base = sanitizeSeed(1, { salt: 'samplePosteriorPredictive' });
    for (const [t, c] of [[0, 0], [29, 2], [4, 1]] as const) {
      const value = { mu: slice(draws.mu, t, c, 3), tau: slice(draws.tau, t, c, 3), thetaTilde: slice(draws.thetaTilde, t, c, 3) };
      const want = model.sample([], { seed: foldIn(foldIn(base, c), t), value }).y!;
      expect(Array.from(slice(rep.y!, t, c, 3).data as Float64Array)).toEqual(Array.from(want.data as Float64Array));
    }
  });

  it('the same seed gives the same bits; fewer draws give a prefix; another seed other data', () => {
    const a = samplePosteriorPredictive(model, draws, { seed: 5 }).y!;
    expect(Array.from(samplePosteriorPredictive(model, draws, { seed: 5 }).y!.data as Float64Array)).toEqual(Array.from(a.data as Float64Array));
    const first10 = { mu: tensor((draws.mu.toArray() as number[][]).slice(0, 10)), tau: tensor((draws.tau.toArray() as number[][]).slice(0, 10)),
      thetaTilde: tensor((draws.thetaTilde.toArray() as number[][][]).slice(0, 10)) };
    expect(Array.from(samplePosteriorPredictive(model, first10, { seed: 5 }).y!.data as Float64Array)).toEqual(Array.from(a.data.slice(0, 10 * 3 * 8) as Float64Array));
    expect(at(samplePosteriorPredictive(model, draws, { seed: 6 }).y!, 0)).not.toBe(at(a, 0));
  });

  it('y | mu = 1, tau = 0 ~ Normal(1, sigma_j): the mean standardized replicate is within 6 standard errors of 0 (false-failure rate < 2e-9 for a random seed)', () => {
    const N = 500, C = 2;
    const fixed = { mu: new Tensor(new Float64Array(N * C).fill(1), [N, C]), tau: new Tensor(new Float64Array(N * C), [N, C]), thetaTilde: normal(key(9), [N, C, 8]) };
    const rep = samplePosteriorPredictive(model, fixed, { seed: 2 }).y!.data as Float64Array;
    let s = 0;
    for (let i = 0; i < rep.length; i++) s += (rep[i]! - 1) / SIGMA[i % 8]!;
    expect(Math.abs(s / rep.length)).toBeLessThan(6 / Math.sqrt(rep.length));
  });

  it('works for array-structured models with array draws (the unpinned nodes in order for a pinned model)', () => {
    const seq = new JointDistributionSequential([
      new Normal({ loc: 0, scale: 1 }),
      new HalfNormal({ scale: 1 }),
      (s: Tensor, m: Tensor) => new Sample({ distribution: new Normal({ loc: m, scale: s }), sampleShape: 4 }),
    ]);
    const d = [normal(key(1), [6, 2]), uniform(key(2), [6, 2])];
    const rep = samplePosteriorPredictive(seq, d, { seed: 0 });
    expect(Object.keys(rep)).toHaveLength(1);
    const [name] = Object.keys(rep);
    expect(rep[name!]!.shape).toEqual([6, 2, 4]);
    const pinned = seq.experimentalPin([undefined, undefined, tensor([0.1, 0.2, 0.3, 0.4])]);
    expect(Array.from(samplePosteriorPredictive(pinned, d, { seed: 0 })[name!]!.data as Float64Array)).toEqual(Array.from(rep[name!]!.data as Float64Array));
    const ll = logLikelihood(pinned, d);
    expect(ll[name!]!.shape).toEqual([6, 2, 4]);
  });

  it('bad input: TypeError/RangeError naming the function and argument', () => {
    expect(() => samplePosteriorPredictive({} as never, draws)).toThrow(/samplePosteriorPredictive: `model` must be a joint distribution/);
    expect(() => samplePosteriorPredictive(model, 3 as never)).toThrow(TypeError);
    expect(() => samplePosteriorPredictive(model, { nu: draws.mu })).toThrow(/names unknown nodes .*: nu/);
    expect(() => samplePosteriorPredictive(model, { mu: normal(key(0), [5]) })).toThrow(/`draws.mu` must have shape \[draws, chains, ...event\]/);
    expect(() => samplePosteriorPredictive(model, { mu: draws.mu, tau: normal(key(0), [5, 3]) })).toThrow(/`draws.tau` has \[draws, chains\] = \[5, 3\]/);
    expect(() => samplePosteriorPredictive(model, draws, { seeds: 1 } as never)).toThrow(TypeError);
    expect(() => samplePosteriorPredictive(model, draws, { seeds: 1 } as never)).toThrow(/unknown option `seeds`/);
    expect(() => samplePosteriorPredictive(model, draws, { seed: 1.5 })).toThrow(TypeError);
    expect(() => samplePriorPredictive(model, { samples: 0 })).toThrow(/samplePriorPredictive: `samples` must be at least 1/);
    expect(() => samplePriorPredictive(model, { samples: 2.5 })).toThrow(TypeError);
    expect(() => samplePriorPredictive(model, { sample: 5 } as never)).toThrow(TypeError);
  });
});

describe('logLikelihood', () => {
  const N = 20, C = 2;
  const draws = fakeDraws(N, C, 4);

  it('gives log p(y_j | draw) per draw, chain and school: the Normal log density by hand, to 1e-12', () => {
    const ll = logLikelihood(model, draws, { y });
    expect(Object.keys(ll)).toEqual(['y']);
    expect(ll.y!.shape).toEqual([N, C, 8]);
    const v = ll.y!.data as Float64Array;
    for (const [t, c] of [[0, 0], [19, 1], [7, 0]] as const) {
      const mu = at(draws.mu, t * C + c), tau = at(draws.tau, t * C + c);
      for (let j = 0; j < 8; j++) {
        const loc = mu + tau * at(draws.thetaTilde, (t * C + c) * 8 + j);
        const z = (Y[j]! - loc) / SIGMA[j]!;
        const want = -0.5 * z * z - Math.log(SIGMA[j]!) - 0.5 * Math.log(2 * Math.PI);
        expect(Math.abs(v[(t * C + c) * 8 + j]! - want)).toBeLessThan(1e-12 * Math.max(1, Math.abs(want)));
      }
    }
  });

  it('the compiled path gives the bits of the model run per draw (it runs the model a few times, not per draw)', () => {
    const spy = vi.spyOn(model, 'sampleDistributions');
    let ll: Tensor;
    try {
      ll = logLikelihood(model, draws, { y }).y!;
      expect(spy.mock.calls.length).toBeLessThan(5);
    } finally {
      spy.mockRestore();
    }
    for (let t = 0; t < N; t++) {
      for (let c = 0; c < C; c++) {
        const value = { mu: slice(draws.mu, t, c, C), tau: slice(draws.tau, t, c, C), thetaTilde: slice(draws.thetaTilde, t, c, C), y };
        const [dists] = model.sampleDistributions([], { seed: 0, value });
        const want = pointwiseLogProb((dists as Record<string, never>).y, y).data as Float64Array;
        for (let j = 0; j < 8; j++) if (!Object.is(at(ll, (t * C + c) * 8 + j), want[j])) expect.fail(`draw ${t}, chain ${c}, school ${j}`);
      }
    }
  });

  it('sums to the pinned node\'s log-prob part; a pinned model needs no pins argument', () => {
    const ll = logLikelihood(model, draws, { y }).y!;
    const value = { mu: slice(draws.mu, 3, 1, C), tau: slice(draws.tau, 3, 1, C), thetaTilde: slice(draws.thetaTilde, 3, 1, C), y };
    const part = model.logProbParts(value).y!.item();
    let s = 0;
    for (let j = 0; j < 8; j++) s += at(ll, (3 * C + 1) * 8 + j);
    expect(s).toBeCloseTo(Number(part), 10);
    expect(Array.from(logLikelihood(model.experimentalPin({ y }), draws).y!.data as Float64Array)).toEqual(Array.from(ll.data as Float64Array));
  });

  it('opens Sample over a batch (value [batch, sample], kept in that order) and keeps a multivariate observation whole', () => {
    const x = new Tensor(Float64Array.of(0.1, 0.2, 0.3, 1.1, 1.2, 1.3), [2, 3], 'float64');
    // batch [2] (loc), sample [3]: the value is [2, 3]; one number per entry, in the value's order
    const batched = pointwiseLogProb(new Sample({ distribution: new Normal({ loc: [0, 1], scale: 1 }), sampleShape: 3 }), x);
    const want = new Normal({ loc: [[0], [1]], scale: 1 }).logProb(x);
    expect(batched.shape).toEqual([2, 3]);
    expect(Array.from(batched.data as Float64Array)).toEqual(Array.from(want.data as Float64Array));
    // a [2, 3] sample of scalars, wrapped in Independent
    const nested = pointwiseLogProb(new Independent({ distribution: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: [2, 3] }) }), x);
    expect(nested.shape).toEqual([2, 3]);
    expect(Array.from(nested.data as Float64Array)).toEqual(Array.from(new Normal({ loc: 0, scale: 1 }).logProb(x).data as Float64Array));
    const mvn = pointwiseLogProb(new MultivariateNormalDiag({ loc: [0, 0], scaleDiag: [1, 1] }), tensor([0.5, -0.5]));
    expect(mvn.shape).toEqual([]);
  });

  it('bad input: missing data, missing draws, observed nodes in draws, unknown nodes', () => {
    expect(() => logLikelihood(model, draws)).toThrow(/logLikelihood: `pins` must give the observed data/);
    expect(() => logLikelihood(model, { mu: draws.mu, tau: draws.tau }, { y })).toThrow(/has no draws of `thetaTilde`/);
    expect(() => logLikelihood(model, { ...draws, y: normal(key(0), [N, C, 8]) }, { y })).toThrow(/`draws.y` is an observed \(pinned\) node/);
    expect(() => logLikelihood(model, draws, { z: y })).toThrow(/logLikelihood: `pins` names unknown nodes/);
    expect(() => logLikelihood('m' as never, draws, { y })).toThrow(TypeError);
  });
});

describe('stackingShared', () => {
  it('stores results from its size in SharedArrayBuffers, smaller ones not, with the same values; none outside it', () => {
    const draws = fakeDraws(20, 2, 9);
    const plain = { ll: logLikelihood(model, draws, { y }).y!, rep: samplePosteriorPredictive(model, draws, { seed: 3 }).y!, prior: samplePriorPredictive(model, { seed: 3, samples: 10 }) };
    const shared = stackingShared(20 * 2 * 8, () => ({ ll: logLikelihood(model, draws, { y }).y!, rep: samplePosteriorPredictive(model, draws, { seed: 3 }).y!, prior: samplePriorPredictive(model, { seed: 3, samples: 10 }) }));
    for (const k of ['ll', 'rep'] as const) {
      expect(shared[k].data.buffer, k).toBeInstanceOf(SharedArrayBuffer);
      expect(plain[k].data.buffer, k).not.toBeInstanceOf(SharedArrayBuffer);
      expect(Array.from(shared[k].data as Float64Array), k).toEqual(Array.from(plain[k].data as Float64Array));
    }
    expect(shared.prior.mu!.data.buffer).not.toBeInstanceOf(SharedArrayBuffer);   // 10 values: below the size
    expect(Array.from(shared.prior.y!.data as Float64Array)).toEqual(Array.from(plain.prior.y!.data as Float64Array));
    expect(logLikelihood(model, draws, { y }).y!.data.buffer).not.toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('the workflow: NUTS → posterior predictive → log-likelihood → LOO, WAIC and compare', () => {
  it('eight schools, centered vs non-centered (a short run)', async () => {
    const { windowedAdaptiveNuts } = await import('../../mcmc/index.js');
    const opts = { pins: { y }, seed: 0, nChains: 2, numAdaptationSteps: 200, nDraws: 200 };
    const fitN = windowedAdaptiveNuts(model, opts).draws;
    const fitC = windowedAdaptiveNuts(centered, opts).draws;
    const yRep = samplePosteriorPredictive(model, fitN, { seed: 1 }).y!;
    expect(yRep.shape).toEqual([200, 2, 8]);
    const looN = loo(logLikelihood(model, fitN, { y }), { posterior: fitN });
    const looC = loo(logLikelihood(centered, fitC, { y }), { posterior: fitC });
    expect(looN.paretoK.shape).toEqual([8]);
    expect(Number.isFinite(looN.elpdLoo)).toBe(true);
    // both models have the same likelihood given theta: elpd ≈ −31 for eight schools (posteriordb / ArviZ's example)
    expect(looN.elpdLoo).toBeGreaterThan(-35);
    expect(looN.elpdLoo).toBeLessThan(-28);
    const table = compare({ nonCentered: looN, centered: looC });
    expect(table.rows.map((r) => r.name).sort()).toEqual(['centered', 'nonCentered']);
    expect(table.rows[0]!.weight + table.rows[1]!.weight).toBeCloseTo(1, 12);
    expect(Number.isFinite(waic(logLikelihood(model, fitN, { y })).elpdWaic)).toBe(true);
  }, 60_000);
});

describe('README tour snippet (the Bayesian workflow), run as written', () => {
  it('prior and posterior predictive, log-likelihood, LOO, HDI, compare', async () => {
    const { hdi, summary, windowedAdaptiveNuts } = await import('../../mcmc/index.js');
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      sigma: new HalfNormal({ scale: 1 }),
      y: ({ mu, sigma }: { mu: Tensor; sigma: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: [3] }),
    });
    const yObs = [1.2, 0.7, 2.1];
    const { draws } = windowedAdaptiveNuts(model, { pins: { y: yObs }, nDraws: 500, seed: 0 });
    const prior = samplePriorPredictive(model, { seed: 1, samples: 500 });
    expect(prior.y!.shape).toEqual([500, 3]);
    const { y: yRep } = samplePosteriorPredictive(model, draws, { seed: 2 });
    expect(yRep!.shape).toEqual([500, 4, 3]);
    const ll = logLikelihood(model, draws, { y: yObs });
    expect(ll.y!.shape).toEqual([500, 4, 3]);
    const result = loo(ll, { posterior: draws });
    expect(result.paretoK.shape).toEqual([3]);
    expect(String(result)).toMatch(/elpd_loo/);
    const [lo, hi] = hdi(draws.mu!).toArray() as number[];
    expect(lo).toBeLessThan(1.33);
    expect(hi).toBeGreaterThan(1.33);
    expect(summary(draws).format()).toMatch(/hdi_3%\s+hdi_97%/);

    const fixedSigma = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 10 }),
      y: ({ mu }: { mu: Tensor }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: [3] }),
    });
    const fit2 = windowedAdaptiveNuts(fixedSigma, { pins: { y: yObs }, nDraws: 500, seed: 0 }).draws;
    const table = compare({ free: result, fixedSigma: loo(logLikelihood(fixedSigma, fit2, { y: yObs }), { posterior: fit2 }) });
    expect(table.format().split('\n')[0]).toMatch(/rank\s+elpd_loo\s+p_loo\s+elpd_diff\s+weight\s+se\s+dse\s+warning\s+scale/);
    expect(table.rows.reduce((s, r) => s + r.weight, 0)).toBeCloseTo(1, 12);
  }, 60_000);
});

describe('computeDeterministics: the compiled path gives the bits of the model run per draw', () => {
  const N = 25, C = 3;
  /** The derived values by running the model on each draw (what computeDeterministics did for every draw before it compiled). */
  function perDraw(jd: PredictiveModel, draws: Record<string, Tensor>, pins: Record<string, unknown>): Record<string, Tensor> {
    const joint = 'distribution' in jd ? jd.distribution : jd;
    const out: Record<string, { data: number[]; shape: readonly number[]; dtype: Tensor['dtype'] }> = {};
    for (let t = 0; t < N; t++) {
      for (let c = 0; c < C; c++) {
        const values = Object.fromEntries(Object.entries(draws).map(([k, v]) => [k, slice(v, t, c, C)]));
        for (const [k, v] of Object.entries(joint.deterministicValues({ ...pins, ...values } as never))) {
          out[k] ??= { data: [], shape: v.shape, dtype: v.dtype };
          out[k]!.data.push(...Array.from(v.data as ArrayLike<number>, Number));
        }
      }
    }
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, new Tensor(v.dtype === 'bool' ? Uint8Array.from(v.data) : Float64Array.from(v.data), [N, C, ...v.shape], v.dtype === 'bool' ? 'bool' : 'float64')]));
  }
  /** Each value's bit pattern (so -0 and NaN payloads count). */
  const bitsOf = (t: Tensor) => (t.data instanceof Float64Array ? Array.from(new BigUint64Array(t.data.buffer, t.data.byteOffset, t.data.length)) : Array.from(t.data as ArrayLike<number>));
  function expectSame(got: Record<string, Tensor>, want: Record<string, Tensor>) {
    expect(Object.keys(got)).toEqual(Object.keys(want));
    for (const k of Object.keys(want)) {
      expect(got[k]!.shape, k).toEqual(want[k]!.shape);
      expect(got[k]!.dtype, k).toBe(want[k]!.dtype);
      expect(bitsOf(got[k]!), k).toEqual(bitsOf(want[k]!));
    }
  }
  /** How many times the model runs while `run` runs: a few times on the compiled path (trace, check; pinning may run it), at least N·C per draw. */
  function calls(counter: { n: number }, run: () => void): number {
    counter.n = 0;
    run();
    return counter.n;
  }

  it('eight schools (JointDistributionNamed): theta [draws, chains, 8], the model run twice, not per draw', () => {
    const draws = fakeDraws(N, C, 5);
    // Signed zeros and non-finite values keep their bits too: theta[0, 0, 0] = -0 + 0·(-0) = -0.
    (draws.mu.data as Float64Array)[0] = -0;
    (draws.tau.data as Float64Array)[0] = 0;
    (draws.thetaTilde.data as Float64Array).set([-0, NaN, Infinity], 0);
    (draws.thetaTilde.data as Float64Array)[9] = -Infinity;
    const spy = vi.spyOn(nonCentered, 'deterministicValues');
    try {
      const got = computeDeterministics(nonCentered, draws, { y });
      expect(spy.mock.calls.length).toBe(2);
      expect(Object.is((got.theta!.data as Float64Array)[0], -0)).toBe(true);
      expectSame(got, perDraw(nonCentered, draws, { y }));
      expectSame(computeDeterministics(nonCentered.experimentalPin({ y }), draws), perDraw(nonCentered, draws, { y }));
    } finally {
      spy.mockRestore();
    }
  });

  it('JointDistributionCoroutine: yielded derived values, the data among the inputs', () => {
    const counter = { n: 0 };
    const jd = new JointDistributionCoroutine(function* (): CoroutineModel {
      counter.n++;
      const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 5, name: 'mu' }));
      const tau: Tensor = yield Root(new HalfCauchy({ loc: 0, scale: 5, name: 'tau' }));
      const tt: Tensor = yield Root(new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8, name: 'thetaTilde' }));
      const theta: Tensor = yield deterministic('theta', add(mu, mul(tau, tt)));
      const obs: Tensor = yield new Independent({ distribution: new Normal({ loc: theta, scale: sigma }), reinterpretedBatchNdims: 1, name: 'y' });
      yield deterministic('resid', sub(obs, theta));
      yield deterministic('scaleSum', sum(exp(neg(tau))));
    });
    const draws = fakeDraws(N, C, 6);
    const want = perDraw(jd, draws, { y });
    let got: Record<string, Tensor> = {};
    expect(calls(counter, () => { got = computeDeterministics(jd, draws, { y }); })).toBeLessThan(5);
    expect(got.resid!.shape).toEqual([N, C, 8]);
    expect(got.scaleSum!.shape).toEqual([N, C]);
    expectSame(got, want);
  });

  it('matrix-valued derived values (matmul, cholesky), derived values of derived values, constant ones, a node as it is', () => {
    const counter = { n: 0 };
    const jd = new JointDistributionNamed({
      a: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
      s: new HalfNormal({ scale: 1 }),
      cov: deterministic((a: Tensor, s: Tensor) => { counter.n++; return add(matmul(expandDims(a, -1), expandDims(a, 0)), mul(add(s, 1), eye(3))); }),
      chol: deterministic((cov: Tensor) => cholesky(cov)),
      trace: deterministic((chol: Tensor) => sum(mul(chol, chol))),
      one: deterministic(() => 1),
      copy: deterministic((a: Tensor) => a),
      ySum: deterministic((y: Tensor) => sum(y)),   // the data only
      y: (a: Tensor, s: Tensor) => new Independent({ distribution: new Normal({ loc: a, scale: s }), reinterpretedBatchNdims: 1 }),
    });
    const draws = { a: normal(key(7), [N, C, 3]), s: uniform(key(8), [N, C]) };
    const want = perDraw(jd, draws, { y: [0, 1, 2] });
    let got: Record<string, Tensor> = {};
    expect(calls(counter, () => { got = computeDeterministics(jd, draws, { y: [0, 1, 2] }); })).toBeLessThan(5);
    expect(got.chol!.shape).toEqual([N, C, 3, 3]);
    expect(got.one!.shape).toEqual([N, C]);
    expect(bitsOf(got.copy!)).toEqual(bitsOf(draws.a));
    expectSame(got, want);
  });

  it('untraceable derived values (item(), Tensor.data, a bool value) still work: the model then runs per draw', () => {
    const counter = { n: 0 };
    const jd = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      twice: deterministic((a: Tensor) => { counter.n++; return (a.item() as number) > 0 ? mul(a, 2) : neg(a); }),
      y: (a: Tensor) => new Normal({ loc: a, scale: 1 }),
    });
    const draws = { a: normal(key(9), [N, C]) };
    let got: Record<string, Tensor> = {};
    expect(calls(counter, () => { got = computeDeterministics(jd, draws, { y: 0 }); })).toBeGreaterThanOrEqual(N * C);
    expectSame(got, perDraw(jd, draws, { y: 0 }));
    // Reading .data escapes the tracer (its program would keep the first draw's sign): the check at the last draw catches it.
    const signs = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      sign: deterministic((a: Tensor) => { counter.n++; return tensor((a.data[0] as number) > 0 ? 1 : -1); }),
      y: (a: Tensor) => new Normal({ loc: a, scale: 1 }),
    });
    const a = new Tensor(Float64Array.from({ length: N * C }, (_, i) => (i === 0 ? 1 : -1) * (i + 1)), [N, C], 'float64');
    expect(calls(counter, () => { got = computeDeterministics(signs, { a }, { y: 0 }); })).toBeGreaterThanOrEqual(N * C);
    expectSame(got, perDraw(signs, { a }, { y: 0 }));
    expect(Array.from(got.sign!.data as Float64Array).filter((v) => v > 0)).toEqual([1]);
    // A bool value keeps its dtype (the compiled path stores float64 only).
    const bools = new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), pos: deterministic((a: Tensor) => greater(a, 0)), y: (a: Tensor) => new Normal({ loc: a, scale: 1 }) });
    got = computeDeterministics(bools, draws, { y: 0 });
    expect(got.pos!.dtype).toBe('bool');
    expectSame(got, perDraw(bools, draws, { y: 0 }));
  });

  it('bad input gives the same errors as before', () => {
    const draws = fakeDraws(N, C, 5);
    expect(() => computeDeterministics(nonCentered, { mu: draws.mu, tau: draws.tau }, { y })).toThrow(/^computeDeterministics: `draws` has no draws of `thetaTilde`/);
    expect(() => computeDeterministics(nonCentered, { ...draws, thetaTilde: normal(key(1), [N, C + 1, 8]) }, { y })).toThrow(/^computeDeterministics: `draws.thetaTilde` has \[draws, chains\] = \[25, 4\] but draws.mu has \[25, 3\]/);
    const throws = new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), bad: deterministic(() => { throw new RangeError('from the model'); }), y: (a: Tensor) => new Normal({ loc: a, scale: 1 }) });
    expect(() => computeDeterministics(throws, { a: draws.mu }, { y: 0 })).toThrow(/^from the model$/);
  });
});
