// HiddenMarkovModel: TFP's docstring weather example; logProb, posteriorMarginals and
// posteriorMode against brute-force enumeration of all K^T hidden paths (masks, time-varying
// transitions and observations, broadcast batches, T = 1); priorMarginals/mean/variance against
// the enumerated state marginals; TFP's seed discipline against a draw assembled by hand;
// goodness of fit (chi-square over the 8 observation sequences of a tiny chain, n = 20000; KS on
// two steps' marginals, n = 20000; three tests at ALPHA = 1e-6 each, so a false failure has
// probability ~3e-6 for the file); the fused logProb gradient against finite differences and against the
// plain tensor-op forward pass; bad input.
import { describe, expect, it } from 'vitest';
import { Categorical } from '../../distributions/categorical.js';
import { HiddenMarkovModel } from '../../distributions/hidden-markov-model.js';
import { Independent } from '../../distributions/independent.js';
import { forwardPass, extractLogProbs } from '../../distributions/internal/hmm-passes.js';
import { Normal } from '../../distributions/normal.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { checkGradient, grad } from '../../src/tensor/autodiff.js';
import { mul } from '../../src/tensor/ops/elementwise.js';
import { logsumexp, sum } from '../../src/tensor/ops/reduce.js';
import { gather } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { mulberry32 } from '../helpers.js';
import { ALPHA, chiSquarePValue, ksPValue } from '../stats.js';
import { expectGradients, expectSampleShapeInvariance } from './harness.js';
import { ndtr } from '../../distributions/internal/ndtr.js';

const flat = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

const simplexRow = (r: () => number, k: number) => { const v = Array.from({ length: k }, () => 0.2 + r()); const s = v.reduce((a, b) => a + b); return v.map((x) => x / s); };
const normalLp = (x: number, m: number, s: number) => -0.5 * ((x - m) / s) ** 2 - Math.log(s) - 0.5 * Math.log(2 * Math.PI);

/** One HMM written out: π, A_t (transition out of step t) and log p(x_t | z_t = k). */
interface Plain { K: number; T: number; pi: number[]; A: (t: number) => number[][]; lp: (t: number, k: number) => number; mask?: boolean[] }

/** Every path's joint log-probability with the observations. */
function paths(m: Plain): { z: number[]; lj: number }[] {
  const out: { z: number[]; lj: number }[] = [];
  const total = m.K ** m.T;
  for (let c = 0; c < total; c++) {
    const z: number[] = [];
    for (let t = 0, v = c; t < m.T; t++, v = Math.floor(v / m.K)) z.unshift(v % m.K);
    let lj = Math.log(m.pi[z[0]!]!);
    for (let t = 0; t < m.T; t++) {
      if (t > 0) lj += Math.log(m.A(t - 1)[z[t - 1]!]![z[t]!]!);
      if (!m.mask?.[t]) lj += m.lp(t, z[t]!);
    }
    out.push({ z, lj });
  }
  return out;
}
const bruteLogProb = (m: Plain) => { const ps = paths(m); const mx = Math.max(...ps.map((p) => p.lj)); return mx + Math.log(ps.reduce((a, p) => a + Math.exp(p.lj - mx), 0)); };
function bruteMarginals(m: Plain): number[][] {
  const lz = bruteLogProb(m), out = Array.from({ length: m.T }, () => new Array<number>(m.K).fill(0));
  for (const p of paths(m)) p.z.forEach((k, t) => { out[t]![k]! += Math.exp(p.lj - lz); });
  return out;
}
const bruteMode = (m: Plain) => paths(m).reduce((a, b) => (b.lj > a.lj ? b : a)).z;

function weather(numSteps = 7): HiddenMarkovModel {
  return new HiddenMarkovModel({
    initialDistribution: new Categorical({ probs: [0.8, 0.2] }),
    transitionDistribution: new Categorical({ probs: [[0.7, 0.3], [0.2, 0.8]] }),
    observationDistribution: new Normal({ loc: [0, 15], scale: [5, 10] }),
    numSteps,
  });
}

/** A random K-state Normal-emission HMM and its plain form for observations x. */
function randomModel(seed: number, K: number, T: number, opts: { tvT?: boolean; tvO?: boolean; mask?: boolean[] } = {}) {
  const r = mulberry32(seed);
  const pi = simplexRow(r, K);
  const A = Array.from({ length: opts.tvT ? T - 1 : 1 }, () => Array.from({ length: K }, () => simplexRow(r, K)));
  const loc = Array.from({ length: opts.tvO ? T : 1 }, () => Array.from({ length: K }, () => 4 * r() - 2));
  const scale = Array.from({ length: opts.tvO ? T : 1 }, () => Array.from({ length: K }, () => 0.5 + r()));
  const hmm = new HiddenMarkovModel({
    initialDistribution: new Categorical({ probs: pi }),
    transitionDistribution: new Categorical({ probs: opts.tvT ? A : A[0]! }),
    observationDistribution: new Normal({ loc: opts.tvO ? loc : loc[0]!, scale: opts.tvO ? scale : scale[0]! }),
    numSteps: T,
    timeVaryingTransitionDistribution: opts.tvT ?? false,
    timeVaryingObservationDistribution: opts.tvO ?? false,
    ...(opts.mask ? { mask: opts.mask } : {}),
  });
  const x = Array.from({ length: T }, () => 4 * r() - 2);
  const plain: Plain = {
    K, T, pi, A: (t) => A[opts.tvT ? t : 0]!, mask: opts.mask,
    lp: (t, k) => normalLp(x[t]!, loc[opts.tvO ? t : 0]![k]!, scale[opts.tvO ? t : 0]![k]!),
  };
  return { hmm, x, plain, pi, A, loc, scale };
}

describe('HiddenMarkovModel', () => {
  it("TFP's weather example: posteriorMode [0,0,0,0,0,1,1], shapes, mean approaching 9", () => {
    const hmm = weather();
    expect(hmm.batchShape).toEqual([]);
    expect(hmm.eventShape).toEqual([7]);
    expect(hmm.posteriorMode([-2, 0, 2, 4, 6, 8, 10]).toArray()).toEqual([0, 0, 0, 0, 0, 1, 1]);
    const mean = flat(hmm.mean());
    // P(hot) follows p' = 0.3 + 0.5 p from 0.2, so the mean 15 p_t → 15 · 0.6 = 9.
    let p = 0.2;
    mean.forEach((m) => { close(m, 15 * p, 1e-14); p = 0.3 + 0.5 * p; });
    const lp = hmm.logProb([0, 0, 0, 0, 0, 0, 0]).item() as number;
    const plain: Plain = { K: 2, T: 7, pi: [0.8, 0.2], A: () => [[0.7, 0.3], [0.2, 0.8]], lp: (_t, k) => normalLp(0, [0, 15][k]!, [5, 10][k]!) };
    close(lp, bruteLogProb(plain), 1e-13);
  });

  it('logProb, posteriorMarginals and posteriorMode match brute force over all K^T paths', () => {
    for (const [seed, K, T] of [[1, 3, 4], [2, 2, 6], [3, 4, 3], [4, 3, 1]] as const) {
      const { hmm, x, plain } = randomModel(seed, K, T);
      close(hmm.logProb(x).item() as number, bruteLogProb(plain), 1e-12);
      const pm = hmm.posteriorMarginals(x);
      expect(pm.batchShape).toEqual([T]);
      const q = flat(pm.probsParameter()), want = bruteMarginals(plain);
      want.forEach((row, t) => row.forEach((w, k) => close(q[t * K + k]!, w, 1e-12)));
      expect(flat(hmm.posteriorMode(x))).toEqual(bruteMode(plain));
    }
  });

  it('masks: masked steps are not conditioned on (constructor mask, and a mask passed to the posteriors)', () => {
    const mask = [false, true, false, true, true];
    const { hmm, x, plain } = randomModel(5, 3, 5, { mask });
    close(hmm.logProb(x).item() as number, bruteLogProb(plain), 1e-12);
    const q = flat(hmm.posteriorMarginals(x).probsParameter());
    bruteMarginals(plain).forEach((row, t) => row.forEach((w, k) => close(q[t * 3 + k]!, w, 1e-12)));
    expect(flat(hmm.posteriorMode(x))).toEqual(bruteMode(plain));
    // A NaN at a masked step does not matter.
    const xn = x.map((v, t) => (mask[t] ? NaN : v));
    close(hmm.logProb(xn).item() as number, bruteLogProb(plain), 1e-12);
    // An unmasked model with a mask given to the posteriors, and a batch of masks [2, T].
    const { hmm: free, x: x2, plain: p2 } = randomModel(6, 2, 4);
    const masks = [[false, false, true, false], [true, false, false, false]];
    const qs = flat(free.posteriorMarginals(x2, masks).probsParameter());
    masks.forEach((m, b) => bruteMarginals({ ...p2, mask: m.map(Boolean) }).forEach((row, t) => row.forEach((w, k) => close(qs[(b * 4 + t) * 2 + k]!, w, 1e-12))));
    const modes = free.posteriorMode(x2, masks);
    expect(modes.shape).toEqual([2, 4]);
    masks.forEach((m, b) => expect(flat(modes).slice(b * 4, b * 4 + 4)).toEqual(bruteMode({ ...p2, mask: m })));
  });

  it('time-varying transitions and observations match brute force', () => {
    for (const opts of [{ tvT: true }, { tvO: true }, { tvT: true, tvO: true, mask: [false, false, true, false] }]) {
      const { hmm, x, plain } = randomModel(7, 3, 4, opts);
      expect(hmm.batchShape).toEqual([]);
      close(hmm.logProb(x).item() as number, bruteLogProb(plain), 1e-12);
      const q = flat(hmm.posteriorMarginals(x).probsParameter());
      bruteMarginals(plain).forEach((row, t) => row.forEach((w, k) => close(q[t * 3 + k]!, w, 1e-12)));
      expect(flat(hmm.posteriorMode(x))).toEqual(bruteMode(plain));
      // Prior marginals: the same enumeration with no observations.
      const prior = flat(hmm.priorMarginals().probsParameter());
      bruteMarginals({ ...plain, lp: () => 0 }).forEach((row, t) => row.forEach((w, k) => close(prior[t * 3 + k]!, w, 1e-12)));
    }
  });

  it('broadcast batch shapes: each member matches its own brute force', () => {
    const r = mulberry32(11), K = 2, T = 3;
    const pis = [simplexRow(r, K), simplexRow(r, K)];                       // initial batch [2]
    const A = [simplexRow(r, K), simplexRow(r, K)];                         // shared transition
    const locs = [0, 1, 2].map(() => [[4 * r() - 2, 4 * r() - 2]]);         // observation batch [3, 1, K]
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: pis }),
      transitionDistribution: new Categorical({ logits: A.map((row) => row.map(Math.log)) }),
      observationDistribution: new Normal({ loc: locs, scale: 1.5 }),
      numSteps: T,
    });
    expect(hmm.batchShape).toEqual([3, 2]);
    const xs = [0, 1, 2].map(() => [0, 1].map(() => [0, 1, 2].map(() => 3 * r() - 1.5)));
    const lp = flat(hmm.logProb(xs)), pm = flat(hmm.posteriorMarginals(xs).probsParameter()), mode = flat(hmm.posteriorMode(xs));
    const mean = flat(hmm.mean()), variance = flat(hmm.variance());
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 2; j++) {
        const b = i * 2 + j, x = xs[i]![j]!;
        const plain: Plain = { K, T, pi: pis[j]!, A: () => A, lp: (t, k) => normalLp(x[t]!, locs[i]![0]![k]!, 1.5) };
        close(lp[b]!, bruteLogProb(plain), 1e-12);
        bruteMarginals(plain).forEach((row, t) => row.forEach((w, k) => close(pm[(b * T + t) * K + k]!, w, 1e-12)));
        expect(mode.slice(b * T, b * T + T)).toEqual(bruteMode(plain));
        const prior = bruteMarginals({ ...plain, lp: () => 0 });
        prior.forEach((row, t) => {
          const mu = row.reduce((a, p, k) => a + p * locs[i]![0]![k]!, 0);
          close(mean[b * T + t]!, mu, 1e-12);
          close(variance[b * T + t]!, row.reduce((a, p, k) => a + p * ((locs[i]![0]![k]! - mu) ** 2 + 1.5 ** 2), 0), 1e-12);
        });
      }
    }
    // One observation sequence broadcasts against the whole batch; sample-shaped values too.
    expect(hmm.logProb([0, 0, 0]).shape).toEqual([3, 2]);
    expect(hmm.logProb(tensor([[[[0, 1, 2]]], [[[1, 1, 1]]]])).shape).toEqual([2, 3, 2]);
    // Batch slicing picks the member.
    const s = hmm.slice(2, 1);
    expect(s.batchShape).toEqual([]);
    close(s.logProb(xs[2]![1]!).item() as number, lp[5]!, 1e-14);
    expect(hmm.slice({ start: 1 }, 0).batchShape).toEqual([2]);
  });

  it('variance and mean with time-varying observations and vector events follow the mixture formula', () => {
    const { hmm, plain, loc, scale } = randomModel(12, 3, 4, { tvO: true, tvT: true });
    const prior = bruteMarginals({ ...plain, lp: () => 0 });
    const mean = flat(hmm.mean()), v = flat(hmm.variance());
    prior.forEach((row, t) => {
      const mu = row.reduce((a, p, k) => a + p * loc[t]![k]!, 0);
      close(mean[t]!, mu, 1e-12);
      close(v[t]!, row.reduce((a, p, k) => a + p * ((loc[t]![k]! - mu) ** 2 + scale[t]![k]! ** 2), 0), 1e-12);
    });
  });

  it('discrete observations: the probabilities of all M^T sequences sum to 1', () => {
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [0.6, 0.4] }),
      transitionDistribution: new Categorical({ probs: [[0.9, 0.1], [0.3, 0.7]] }),
      observationDistribution: new Categorical({ probs: [[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]] }),
      numSteps: 4,
    });
    const seqs: number[][] = [];
    for (let c = 0; c < 81; c++) seqs.push([0, 1, 2, 3].map((t) => Math.floor(c / 3 ** t) % 3));
    close(flat(hmm.prob(seqs)).reduce((a, b) => a + b), 1, 1e-13);
  });

  it('seed discipline: the draw equals one assembled by hand from TFP\'s splits, candidates-then-select and one observation call', () => {
    const { hmm } = randomModel(13, 3, 5);
    const n = 4, seed = 42;
    const [initSeed, scanSeed, obsSeed] = splitSeed(seed, { n: 3, salt: 'HiddenMarkovModel' });
    const z: number[][] = [flat(hmm.initialDistribution.sample(n, { seed: initSeed }))];
    let s = scanSeed!;
    for (let t = 0; t < 4; t++) {
      const [sample, next] = splitSeed(s);
      const cand = flat(hmm.transitionDistribution.sample(n, { seed: sample })); // [n, K]: a next state for every current state
      z.push(z[t]!.map((cur, i) => cand[i * 3 + cur]!));
      s = next!;
    }
    const possible = flat(hmm.observationDistribution.sample([5, n], { seed: obsSeed })); // [T, n, K]
    const want = Array.from({ length: n }, (_, i) => [0, 1, 2, 3, 4].map((t) => possible[(t * n + i) * 3 + z[t]![i]!]!));
    expect(hmm.sample(n, { seed }).toArray()).toEqual(want);
  });

  it('seed discipline with a broadcast batch and time-varying components (TFP\'s repeats and [..., t, :] slices)', () => {
    const r = mulberry32(14), K = 2, T = 3, n = 3;
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: simplexRow(r, K) }),                                        // batch []: repeat 2
      transitionDistribution: new Categorical({ probs: [0, 1].map(() => [0, 1].map(() => simplexRow(r, K))) }), // [T−1, K] time-varying
      observationDistribution: new Normal({ loc: [0, 1].map(() => [0, 1, 2].map(() => [r(), 5 + r()])), scale: 1 }), // [2, T, K] time-varying
      numSteps: T, timeVaryingTransitionDistribution: true, timeVaryingObservationDistribution: true,
    });
    expect(hmm.batchShape).toEqual([2]);
    const [initSeed, scanSeed, obsSeed] = splitSeed([7, 9], { n: 3, salt: 'HiddenMarkovModel' });
    const z: number[][] = [flat(hmm.initialDistribution.sample(n * 2, { seed: initSeed }))]; // [n · 2] read as [n, B]
    let s = scanSeed!;
    for (let t = 0; t < T - 1; t++) {
      const [sample, next] = splitSeed(s);
      const cand = flat(hmm.transitionDistribution.slice('...', t, {}).sample(n * 2, { seed: sample })); // [n · 2, K]
      z.push(z[t]!.map((cur, ib) => cand[ib * K + cur]!));
      s = next!;
    }
    const possible = flat(hmm.observationDistribution.sample([n], { seed: obsSeed })); // [n, 2, T, K]
    const got = flat(hmm.sample(n, { seed: [7, 9] }));
    for (let i = 0; i < n; i++) for (let b = 0; b < 2; b++) for (let t = 0; t < T; t++) {
      expect(got[(i * 2 + b) * T + t]).toBe(possible[((i * 2 + b) * T + t) * K + z[t]![i * 2 + b]!]);
    }
    expectSampleShapeInvariance(hmm);
  });

  it("seed discipline with leading broadcast: TFP's reshape of [n · repeat, ...component batch] to [n, batch]", () => {
    const r = mulberry32(16), K = 2, T = 3, n = 3;
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [simplexRow(r, K), simplexRow(r, K)] }),  // batch [2]
      transitionDistribution: new Categorical({ probs: [simplexRow(r, K), simplexRow(r, K)] }), // shared: repeat 2
      observationDistribution: new Normal({ loc: [-3, 3], scale: 1 }),                          // shared: repeat 2
      numSteps: T,
    });
    const [initSeed, scanSeed, obsSeed] = splitSeed(5, { n: 3, salt: 'HiddenMarkovModel' });
    const z: number[][] = [flat(hmm.initialDistribution.sample(n, { seed: initSeed }))]; // [n, 2]
    let s = scanSeed!;
    for (let t = 0; t < T - 1; t++) {
      const [sample, next] = splitSeed(s);
      const cand = flat(hmm.transitionDistribution.sample(n * 2, { seed: sample })); // [n · 2, K] read as [n, 2, K]
      z.push(z[t]!.map((cur, ib) => cand[ib * K + cur]!));
      s = next!;
    }
    const possible = flat(hmm.observationDistribution.sample([T, 2 * n], { seed: obsSeed })); // [T, n · 2, K]
    const got = flat(hmm.sample(n, { seed: 5 }));
    for (let ib = 0; ib < 2 * n; ib++) for (let t = 0; t < T; t++) expect(got[ib * T + t]).toBe(possible[(t * 2 * n + ib) * K + z[t]![ib]!]);
  });

  it('a component broadcasting along a non-leading batch axis gets its own draws (initial batch [2, 1] in batch [2, 3])', () => {
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [[[1, 0]], [[0, 1]]] }),   // member (i, ·) starts in state i
      transitionDistribution: new Categorical({ probs: [[1, 0], [0, 1]] }),
      observationDistribution: new Normal({ loc: [[0, 100], [0, 100], [0, 100]], scale: 1e-3 }), // batch [3, K]
      numSteps: 2,
    });
    expect(hmm.batchShape).toEqual([2, 3]);
    const x = flat(hmm.sample(4, { seed: 1 }));
    for (let i = 0; i < 4; i++) for (let a = 0; a < 2; a++) for (let b = 0; b < 3; b++) {
      for (let t = 0; t < 2; t++) close(x[((i * 2 + a) * 3 + b) * 2 + t]!, 100 * a, 0.01);
    }
  });

  it('vector observation events (Independent Normal): logProb, draws, mean and variance', () => {
    const loc = [[0, 1], [5, -5]], sc = [[1, 0.5], [2, 1]];
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [0.3, 0.7] }),
      transitionDistribution: new Categorical({ probs: [[0.6, 0.4], [0.25, 0.75]] }),
      observationDistribution: new Independent({ distribution: new Normal({ loc, scale: sc }), reinterpretedBatchNdims: 1 }),
      numSteps: 3,
    });
    expect(hmm.eventShape).toEqual([3, 2]);
    const x = [[0.5, 0.2], [4, -3], [1, 1]];
    const plain: Plain = { K: 2, T: 3, pi: [0.3, 0.7], A: () => [[0.6, 0.4], [0.25, 0.75]], lp: (t, k) => normalLp(x[t]![0]!, loc[k]![0]!, sc[k]![0]!) + normalLp(x[t]![1]!, loc[k]![1]!, sc[k]![1]!) };
    close(hmm.logProb(x).item() as number, bruteLogProb(plain), 1e-12);
    expect(flat(hmm.posteriorMode(x))).toEqual(bruteMode(plain));
    const prior = bruteMarginals({ ...plain, lp: () => 0 }), mean = flat(hmm.mean()), v = flat(hmm.variance());
    prior.forEach((row, t) => [0, 1].forEach((e) => {
      const mu = row[0]! * loc[0]![e]! + row[1]! * loc[1]![e]!;
      close(mean[t * 2 + e]!, mu, 1e-12);
      close(v[t * 2 + e]!, row.reduce((a, p, k) => a + p * ((loc[k]![e]! - mu) ** 2 + sc[k]![e]! ** 2), 0), 1e-12);
    }));
    // Draws: the whole event vector of the selected state.
    const [initSeed, scanSeed, obsSeed] = splitSeed(8, { n: 3, salt: 'HiddenMarkovModel' });
    const z = [flat(hmm.initialDistribution.sample(2, { seed: initSeed }))];
    let s = scanSeed!;
    for (let t = 0; t < 2; t++) {
      const [sample, next] = splitSeed(s);
      const cand = flat(hmm.transitionDistribution.sample(2, { seed: sample }));
      z.push(z[t]!.map((cur, i) => cand[i * 2 + cur]!));
      s = next!;
    }
    const possible = flat(hmm.observationDistribution.sample([3, 2], { seed: obsSeed })); // [T, n, K, 2]
    const got = hmm.sample(2, { seed: 8 });
    expect(got.shape).toEqual([2, 3, 2]);
    const g = flat(got);
    for (let i = 0; i < 2; i++) for (let t = 0; t < 3; t++) for (let e = 0; e < 2; e++) {
      expect(g[(i * 3 + t) * 2 + e]).toBe(possible[((t * 2 + i) * 2 + z[t]![i]!) * 2 + e]);
    }
  });

  it('numSteps = 1: the initial state is used for the single observation', () => {
    const hmm = weather(1);
    const [initSeed, , obsSeed] = splitSeed(3, { n: 3, salt: 'HiddenMarkovModel' });
    const z = flat(hmm.initialDistribution.sample(5, { seed: initSeed }));
    const possible = flat(hmm.observationDistribution.sample([1, 5], { seed: obsSeed }));
    expect(flat(hmm.sample(5, { seed: 3 }))).toEqual(z.map((k, i) => possible[i * 2 + k]!));
    close(hmm.logProb([3]).item() as number, Math.log(0.8 * Math.exp(normalLp(3, 0, 5)) + 0.2 * Math.exp(normalLp(3, 15, 10))), 1e-14);
    expect(flat(hmm.posteriorMode([30]))).toEqual([1]);
  });

  it('goodness of fit: chi-square over the 8 sequences of a 2-state chain with binary observations (n = 20000)', () => {
    const hmm = new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [0.3, 0.7] }),
      transitionDistribution: new Categorical({ probs: [[0.8, 0.2], [0.35, 0.65]] }),
      observationDistribution: new Categorical({ probs: [[0.9, 0.1], [0.25, 0.75]] }),
      numSteps: 3,
    });
    const x = flat(hmm.sample(20000, { seed: 2024 }));
    const counts = new Float64Array(8);
    for (let i = 0; i < 20000; i++) counts[x[3 * i]! * 4 + x[3 * i + 1]! * 2 + x[3 * i + 2]!]! += 1;
    const seqs = Array.from({ length: 8 }, (_, c) => [(c >> 2) & 1, (c >> 1) & 1, c & 1]);
    const probs = flat(hmm.prob(seqs));
    const p = chiSquarePValue(counts, probs);
    expect(p, `p-value ${p}`).toBeGreaterThan(ALPHA);
  });

  it('goodness of fit: KS of x[t] against the mixture Σ P(z_t = k) N(μ_k, σ_k) (n = 20000)', () => {
    const hmm = weather(4);
    const x = flat(hmm.sample(20000, { seed: 99 }));
    const pri = flat(hmm.priorMarginals().probsParameter());
    for (const t of [0, 3]) {
      const col = Array.from({ length: 20000 }, (_, i) => x[i * 4 + t]!);
      const p = ksPValue(col, (v) => pri[t * 2]! * ndtr(v / 5) + pri[t * 2 + 1]! * ndtr((v - 15) / 10));
      expect(p, `t = ${t}: p-value ${p}`).toBeGreaterThan(ALPHA);
    }
  });

  it('gradients of logProb w.r.t. the observations, observation parameters and initial/transition logits', () => {
    const make = (p: Record<string, Tensor>) => new HiddenMarkovModel({
      initialDistribution: new Categorical({ logits: p.initLogits! }),
      transitionDistribution: new Categorical({ logits: p.transLogits! }),
      observationDistribution: new Normal({ loc: p.loc!, scale: p.scale! }),
      numSteps: 5,
    });
    expectGradients(make, { initLogits: [0.3, -0.2, 0.5], transLogits: [[0.1, 1, -1], [0.4, 0, 0.2], [-0.5, 0.3, 0.9]], loc: [-1, 0.5, 2], scale: [0.7, 1.2, 0.9] },
      [0.2, -0.8, 1.9, 2.5, 0.1], { tol: 1e-6 });
    // Time-varying, masked and batched, with probs parameters.
    const makeTv = (p: Record<string, Tensor>) => new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: p.initProbs! }),
      transitionDistribution: new Categorical({ probs: p.transProbs! }),
      observationDistribution: new Normal({ loc: p.loc!, scale: 1.1 }),
      numSteps: 3, timeVaryingTransitionDistribution: true, timeVaryingObservationDistribution: true, mask: [false, true, false],
    });
    expectGradients(makeTv, {
      initProbs: [[0.4, 0.6], [0.7, 0.3]],
      transProbs: [[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.4], [0.3, 0.7]]],
      loc: [[0, 2], [1, -1], [0.5, 3]],
    } as never, [[0.3, 1, 2.2], [-0.4, 0, 1]], { tol: 1e-6 });
  });

  it('the fused logProb node has the gradient of the plain tensor-op forward pass', () => {
    const { hmm, x } = randomModel(15, 3, 6, { tvT: true });
    const base = { loc: hmm.observationDistribution.mean(), logits: (hmm.transitionDistribution as Categorical).logitsParameter() };
    const build = (loc: Tensor, logits: Tensor) => new HiddenMarkovModel({
      initialDistribution: hmm.initialDistribution, transitionDistribution: new Categorical({ logits }),
      observationDistribution: new Normal({ loc, scale: (hmm.observationDistribution as Normal).scale }), numSteps: 6, timeVaryingTransitionDistribution: true,
    });
    const fused = grad((loc: Tensor, logits: Tensor) => build(loc, logits).logProb(x), [0, 1])(base.loc, base.logits) as Tensor[];
    const plain = grad((loc: Tensor, logits: Tensor) => {
      const h = build(loc, logits);
      const obsLp = h.observationDistribution.logProb(tensor(x.map((v) => [v])));  // [T, K]
      const lt = extractLogProbs(3, h.transitionDistribution);
      const alpha = forwardPass(extractLogProbs(3, h.initialDistribution), (t) => gather(lt, t), obsLp);
      return logsumexp(gather(alpha, 5));
    }, [0, 1])(base.loc, base.logits) as Tensor[];
    fused.forEach((g, i) => flat(g).forEach((v, j) => close(v, flat(plain[i]!)[j]!, 1e-10)));
  });

  it('posteriorMarginals and variance are differentiable (finite differences)', () => {
    const r = checkGradient((loc) => {
      const h = new HiddenMarkovModel({
        initialDistribution: new Categorical({ probs: [0.5, 0.5] }),
        transitionDistribution: new Categorical({ probs: [[0.8, 0.2], [0.1, 0.9]] }),
        observationDistribution: new Normal({ loc, scale: 1 }), numSteps: 4,
      });
      return sum(mul([[1, -2], [0.5, 3], [0, 1], [-1, 2]], h.posteriorMarginals([0.1, 0.9, 1.4, -0.3]).probsParameter()));
    }, [0, 1.5]);
    expect(r.maxRelativeError).toBeLessThan(1e-6);
    const rm = checkGradient((logits) => sum(mul([1, -1, 2, 0.5], new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: [0.5, 0.5] }), transitionDistribution: new Categorical({ logits }),
      observationDistribution: new Normal({ loc: [-1, 4], scale: [1, 2] }), numSteps: 4,
    }).variance())), [[0.2, -0.4], [1, 0.3]]);
    expect(rm.maxRelativeError).toBeLessThan(1e-6);
  });

  it('marginals: the tensor-op path (tracked parameters) gives the kernel path\'s values', () => {
    const { hmm, x, loc, scale } = randomModel(17, 3, 5, { tvT: true, tvO: true, mask: [false, true, false, false, false] });
    const logits = (hmm.transitionDistribution as Categorical).logitsParameter();
    const build = (l: Tensor) => hmm.copy({ transitionDistribution: new Categorical({ logits: l }), observationDistribution: new Normal({ loc, scale }) });
    for (const which of ['posterior', 'prior'] as const) {
      const get = (h: HiddenMarkovModel) => (which === 'posterior' ? h.posteriorMarginals(x) : h.priorMarginals()).logits!;
      const untracked = flat(get(build(logits)));
      let tracked: number[] = [];
      grad((l: Tensor) => { const t = get(build(l)); tracked = flat(t); return sum(t); })(logits);
      expect(tracked.length).toBe(15);
      tracked.forEach((v, i) => close(v, untracked[i]!, 1e-13));
    }
  });

  it('bad input names the argument and the shapes', () => {
    const init = new Categorical({ probs: [0.5, 0.5] }), trans = new Categorical({ probs: [[0.5, 0.5], [0.5, 0.5]] });
    const obs = new Normal({ loc: [0, 1], scale: 1 });
    const mk = (o: Record<string, unknown>) => () => new HiddenMarkovModel({ initialDistribution: init, transitionDistribution: trans, observationDistribution: obs, numSteps: 3, ...o } as never);
    expect(mk({ numSteps: 0 })).toThrow(RangeError);
    expect(mk({ numSteps: 0 })).toThrow(/numSteps.*at least 1/);
    expect(mk({ numSteps: 1.5 })).toThrow(TypeError);
    expect(mk({ observationDistribution: new Normal({ loc: [0, 1, 2], scale: 1 }) })).toThrow(/observationDistribution.*\[3\].*K = 2.*transitionDistribution.*\[2\]/);
    expect(mk({ initialDistribution: new Categorical({ probs: [0.2, 0.3, 0.5] }) })).toThrow(/initialDistribution.*3 categories.*K = 2/);
    expect(mk({ transitionDistribution: new Categorical({ probs: [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]] }) })).toThrow(/observationDistribution.*\[2\].*K = 3.*transitionDistribution.*\[3\]/);
    expect(mk({ transitionDistribution: new Categorical({ probs: [0.5, 0.5] }) })).toThrow(/transitionDistribution.*non-scalar.*batch shape is \[\]/);
    expect(mk({ observationDistribution: new Normal({ loc: 0, scale: 1 }) })).toThrow(/observationDistribution.*non-scalar/);
    expect(mk({ initialDistribution: obs })).toThrow(TypeError);
    expect(mk({ initialDistribution: {} })).toThrow(/initialDistribution.*must be a Distribution/);
    expect(mk({ timeVaryingTransitionDistribution: true, transitionDistribution: new Categorical({ probs: [[[0.5, 0.5], [0.5, 0.5]]] }) })).toThrow(/numSteps − 1 = 2/);
    expect(mk({ timeVaryingObservationDistribution: true, observationDistribution: new Normal({ loc: [[0, 1]], scale: 1 }) })).toThrow(/numSteps = 3/);
    expect(mk({ mask: [true, false] })).toThrow(/mask.*\[\.\.\., numSteps = 3\].*\[2\]/);
    expect(mk({ mask: [2, 0, 0] })).toThrow(TypeError);
    expect(mk({ initialDistribution: new Categorical({ probs: [[0.5, 0.5], [0.5, 0.5]] }), observationDistribution: new Normal({ loc: [[0, 1], [0, 1], [0, 1]], scale: 1 }) }))
      .toThrow(/\[2\].*\[3\]/);
    const hmm = mk({})();
    expect(() => hmm.logProb([0, 0])).toThrow(RangeError);
    expect(() => hmm.posteriorMarginals([0, 0, 0], [true])).toThrow(/mask/);
    expect(() => hmm.posteriorMode(tensor([[0, 0, 0], [0, 0, 0]]), [[true, false, false], [true, false, false], [true, false, false]])).toThrow(/\[2\].*\[3\]|\[3\].*\[2\]/);
  });
});
