/**
 * The compiled paths of `samplePosteriorPredictive`, `logLikelihood` and `computeDeterministics`
 * (mcmc/internal/compile-predictive.ts, compile-derived.ts): which models take them, and that
 * they give the per-draw tape path's results (`withFastPaths(false, …)`) bit for bit. No
 * statistics here: every check is an exact comparison on fixed seeds.
 */
import { describe, expect, it } from 'vitest';
import { key } from '../../src/random/keys.js';
import { configure } from '../../src/config.js';
import { normal } from '../../src/random/normal.js';
import { add, exp, mul, sigmoid } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import {
  Bernoulli, Binomial, Cauchy, HalfCauchy, HalfNormal, Independent, JointDistributionCoroutine, JointDistributionNamed, Normal, Poisson, Root, Sample,
  type CoroutineModel,
} from '../../distributions/index.js';
import { nonCentered, y as schoolsY } from '../../examples/eight-schools.js';
import { computeDeterministics, logLikelihood, samplePosteriorPredictive, samplePriorPredictive } from '../../mcmc/index.js';
import { lastDirectLeaves, lastPredictivePath, withFastPaths } from '../../mcmc/predictive.js';
import { key as philoxKey } from '../../src/random/keys.js';
import * as logisticBench from '../../bench/models/logistic-regression.js';

/** Stand-in posterior draws `[N, C, ...shape]` per node (the functions never look at where draws come from). */
function draws(N: number, C: number, shapes: Record<string, readonly number[]>, seed = 0): Record<string, Tensor> {
  return Object.fromEntries(Object.entries(shapes).map(([n, s], k) => [n, n.startsWith('sigma') || n === 'tau'
    ? exp(mul(normal(key(seed + k), [N, C, ...s]), 0.3))
    : normal(key(seed + k), [N, C, ...s])]));
}

/** Same keys, shapes, dtypes and bits. */
function expectSameBits(a: Record<string, Tensor>, b: Record<string, Tensor>): void {
  expect(Object.keys(a)).toEqual(Object.keys(b));
  for (const k of Object.keys(a)) {
    expect(a[k]!.shape, k).toEqual(b[k]!.shape);
    expect(a[k]!.dtype, k).toBe(b[k]!.dtype);
    expect(Array.from(a[k]!.data as ArrayLike<number>), k).toEqual(Array.from(b[k]!.data as ArrayLike<number>));
  }
}

/** The call with the fast paths on (asserting the path it took) and off, compared bit for bit. */
function both<T extends Record<string, Tensor>>(f: () => T, path: 'compiled' | 'tape'): T {
  const fast = f();
  expect(lastPredictivePath()).toBe(path);
  const slow = withFastPaths(false, f);
  expect(lastPredictivePath()).toBe('tape');
  expectSameBits(fast, slow);
  return fast;
}

// A 40-observation normal regression, the shape of bench/models/regression-600.ts.
const X = normal(key(99), [40, 3]);
const regression = new JointDistributionNamed({
  alpha: new Normal({ loc: 0, scale: 5 }),
  beta: new Sample({ distribution: new Normal({ loc: 0, scale: 2 }), sampleShape: 3 }),
  sigma: new HalfNormal({ scale: 2 }),
  y: (alpha: Tensor, beta: Tensor, sigma: Tensor) => new Independent({ distribution: new Normal({ loc: add(alpha, matmul(X, beta)), scale: sigma }), reinterpretedBatchNdims: 1 }),
});
const regressionDraws = draws(50, 3, { alpha: [], beta: [3], sigma: [] });
const Y = regression.sample([], { seed: 5 }).y!;

describe('samplePosteriorPredictive: the compiled path', () => {
  it('a regression and eight schools take it, with the tape path\'s bits', () => {
    const rep = both(() => samplePosteriorPredictive(regression.experimentalPin({ y: Y }), regressionDraws, { seed: 1 }), 'compiled');
    expect(rep.y!.shape).toEqual([50, 3, 40]);
    const schools = draws(30, 4, { mu: [], tau: [], thetaTilde: [8] });
    both(() => samplePosteriorPredictive(nonCentered.experimentalPin({ y: schoolsY }), schools, { seed: 7 }), 'compiled');
    both(() => samplePosteriorPredictive(nonCentered, schools, { seed: 7, deterministics: true, chains: [4, 5, 6, 7] }), 'compiled');
  });

  it('a Normal leaf of more than 64 values (its normals drawn on wasm memory, then scaled on the way out) and of 64', () => {
    for (const n of [64, 65, 600]) {
      const Xn = normal(key(n), [n, 3]);
      const wide = new JointDistributionNamed({
        alpha: new Normal({ loc: 0, scale: 5 }),
        beta: new Sample({ distribution: new Normal({ loc: 0, scale: 2 }), sampleShape: 3 }),
        sigma: new HalfNormal({ scale: 2 }),
        y: (alpha: Tensor, beta: Tensor, sigma: Tensor) => new Independent({ distribution: new Normal({ loc: add(alpha, matmul(Xn, beta)), scale: sigma }), reinterpretedBatchNdims: 1 }),
      });
      both(() => samplePosteriorPredictive(wide, draws(7, 2, { alpha: [], beta: [3], sigma: [] }, n), { seed: 11 }), 'compiled');
      expect(lastDirectLeaves()).toBe(1);
      // Every node straight, each one's normals on wasm memory before the next is drawn.
      const iid = new JointDistributionNamed({ a: new Sample({ distribution: new Normal({ loc: 1, scale: 2 }), sampleShape: n }),
        b: (a: Tensor) => new Independent({ distribution: new Normal({ loc: a, scale: 0.5 }), reinterpretedBatchNdims: 1 }) });
      both(() => samplePriorPredictive(iid, { seed: 12, samples: 5 }), 'compiled');
      expect(lastDirectLeaves()).toBe(2);
    }
  });

  it('edge shapes: scalar, Sample (with and without a batch), a 2-D node, one draw, one chain', () => {
    const scalar = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: mu, scale: 0.5 }) });
    both(() => samplePosteriorPredictive(scalar, draws(20, 2, { mu: [] }), { seed: 2 }), 'compiled');
    both(() => samplePosteriorPredictive(scalar, draws(1, 1, { mu: [] }), { seed: 2 }), 'compiled');
    const iid = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: [2, 3] }) });
    expect(both(() => samplePosteriorPredictive(iid, draws(7, 1, { mu: [] }), { seed: 3 }), 'compiled').y!.shape).toEqual([7, 1, 2, 3]);
    // Sample over a batch transposes its draw: rebuilt and sampled, not drawn straight.
    const batched = new JointDistributionNamed({ mu: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
      y: (mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 2 }) });
    expect(both(() => samplePosteriorPredictive(batched, draws(5, 2, { mu: [3] }), { seed: 4 }), 'compiled').y!.shape).toEqual([5, 2, 3, 2]);
    const grid = new JointDistributionNamed({ m: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: [4, 3] }), sigma: new HalfNormal({ scale: 1 }),
      y: (m: Tensor, sigma: Tensor) => new Independent({ distribution: new Normal({ loc: m, scale: sigma }), reinterpretedBatchNdims: 2 }) });
    expect(both(() => samplePosteriorPredictive(grid, draws(1, 3, { m: [4, 3], sigma: [] }), { seed: 5 }), 'compiled').y!.shape).toEqual([1, 3, 4, 3]);
  });

  it('a discrete leaf (Poisson, Bernoulli, Binomial) is drawn straight from its compiled parameters', () => {
    const counts = new JointDistributionNamed({
      b: new Normal({ loc: 0, scale: 1 }),
      n: (b: Tensor) => new Independent({ distribution: new Poisson({ logRate: add(b, tensor([0, 0.5, 1])) }), reinterpretedBatchNdims: 1 }),
      z: (b: Tensor) => new Bernoulli({ logits: b }),
    });
    both(() => samplePosteriorPredictive(counts, draws(6, 2, { b: [] }), { seed: 6 }), 'compiled');
    expect(lastDirectLeaves()).toBe(2);
    // Rates (logged as the `log` op does) from 0 to above TFP's high-rate switch (log λ ≥ log 10),
    // and a Sample of iid counts over one rate.
    const rates = new JointDistributionNamed({
      sigma: new HalfNormal({ scale: 1 }),
      n: (sigma: Tensor) => new Independent({ distribution: new Poisson({ rate: mul(sigma, tensor([0, 0.3, 4, 30, 2e3])) }), reinterpretedBatchNdims: 1 }),
      m: (sigma: Tensor) => new Sample({ distribution: new Poisson({ logRate: sigma }), sampleShape: 3 }),
    });
    both(() => samplePosteriorPredictive(rates, draws(5, 2, { sigma: [] }, 3), { seed: 7 }), 'compiled');
    expect(lastDirectLeaves()).toBe(2);
    // Binomial: logits and probs (0 and 1 among them), counts per element (0 to above the
    // inversion/BTRS switch) or one for all.
    const trials = new JointDistributionNamed({
      b: new Normal({ loc: 0, scale: 1 }),
      k: (b: Tensor) => new Independent({ distribution: new Binomial({ totalCount: tensor([0, 1, 7, 40, 500]), logits: add(b, tensor([-3, 0, 1, 2, -900])) }), reinterpretedBatchNdims: 1 }),
      j: (b: Tensor) => new Sample({ distribution: new Binomial({ totalCount: 12, probs: sigmoid(mul(b, 2)) }), sampleShape: 4 }),
      z: (b: Tensor) => new Independent({ distribution: new Binomial({ totalCount: 30, probs: sigmoid(mul(b, tensor([1e4, -1e4, 0.5]))) }), reinterpretedBatchNdims: 1 }),
    });
    both(() => samplePosteriorPredictive(trials, draws(5, 2, { b: [] }, 5), { seed: 8 }), 'compiled');
    expect(lastDirectLeaves()).toBe(3);
  });

  it('HalfCauchy, Cauchy and HalfNormal leaves are drawn straight: their base draw through their scalar map', () => {
    const heavy = new JointDistributionNamed({
      b: new Normal({ loc: 0, scale: 1 }),
      sigma: new HalfNormal({ scale: 1 }),
      t: (b: Tensor, sigma: Tensor) => new HalfCauchy({ loc: b, scale: sigma }),
      c: (b: Tensor, sigma: Tensor) => new Independent({ distribution: new Cauchy({ loc: add(b, tensor([0, -1, 1e3])), scale: sigma }), reinterpretedBatchNdims: 1 }),
      h: (sigma: Tensor) => new Independent({ distribution: new HalfNormal({ scale: mul(sigma, tensor([1, 1e-3])) }), reinterpretedBatchNdims: 1 }),
      s: new Sample({ distribution: new HalfCauchy({ loc: 0, scale: 5 }), sampleShape: 3 }),
    });
    both(() => samplePosteriorPredictive(heavy, draws(6, 2, { b: [], sigma: [] }, 2), { seed: 9 }), 'compiled');
    expect(lastDirectLeaves()).toBe(4);
    both(() => samplePriorPredictive(heavy, { seed: 10, samples: 30 }), 'compiled');
    expect(lastDirectLeaves()).toBe(6);
  });

  it('falls back to the model run per draw for a coroutine or a discrete given node; a node drawn from a replicated one is compiled', () => {
    const co = new JointDistributionCoroutine(function* (): CoroutineModel {
      const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 1 }));
      yield new Independent({ distribution: new Normal({ loc: add(mu, tensor([0, 1])), scale: 1 }), reinterpretedBatchNdims: 1 });
    });
    both(() => samplePosteriorPredictive(co, [normal(key(1), [4, 2])], { seed: 1 }), 'tape');
    const chain = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: mu, scale: 1 }), z: (y: Tensor) => new Normal({ loc: y, scale: 1 }) });
    // z is drawn from the replicated y: y is fed back into the program (as in a prior draw).
    both(() => samplePosteriorPredictive(chain, draws(5, 2, { mu: [] }), { seed: 1 }), 'compiled');
    both(() => samplePosteriorPredictive(chain, draws(5, 2, { mu: [], y: [] }), { seed: 1 }), 'compiled');
    const discrete = new JointDistributionNamed({ k: new Bernoulli({ probs: 0.3 }), y: (k: Tensor) => new Normal({ loc: k, scale: 1 }) });
    const ks = new Tensor(Int32Array.from([0, 1, 1, 0, 1, 0]), [3, 2], 'int32');
    both(() => samplePosteriorPredictive(discrete, { k: ks }, { seed: 1 }), 'tape');
  });

  it('missing values: a model pinned with NaN (a y_missing node) falls back; every row is replicated', () => {
    const yNaN = Y.data.slice() as Float64Array;
    yNaN[3] = NaN; yNaN[17] = NaN;
    const pinned = regression.experimentalPin({ y: new Tensor(yNaN, [40], 'float64') });
    const d = { ...regressionDraws, y_missing: normal(key(8), [50, 3, 2]) };
    expect(both(() => samplePosteriorPredictive(pinned, d, { seed: 1 }), 'tape').y!.shape).toEqual([50, 3, 40]);
  });

  it('an error at a draw is the model run\'s error', () => {
    const checked = new JointDistributionNamed({ s: new Normal({ loc: 0, scale: 1 }), y: (s: Tensor) => new Normal({ loc: 0, scale: s, validateArgs: true }) });
    const s = new Tensor(Float64Array.from([1, 2, -1, 3]), [2, 2], 'float64');   // draw (1, 0) has scale −1
    const slow = (() => { try { withFastPaths(false, () => samplePosteriorPredictive(checked, { s }, { seed: 1 })); } catch (e) { return e as Error; } return undefined; })();
    expect(slow).toBeInstanceOf(RangeError);
    expect(() => samplePosteriorPredictive(checked, { s }, { seed: 1 })).toThrow(slow!.message);
  });
});

describe('samplePriorPredictive: the compiled path', () => {
  it('every node drawn in model order, each fed back to the nodes after it: the tape path\'s bits', () => {
    const prior = both(() => samplePriorPredictive(nonCentered, { seed: 3, samples: 40 }), 'compiled');
    expect(Object.keys(prior).sort()).toEqual(['mu', 'tau', 'theta', 'thetaTilde', 'y']);
    expect(lastDirectLeaves()).toBe(4);   // τ's HalfCauchy too
    both(() => samplePriorPredictive(regression, { seed: 3, samples: 25 }), 'compiled');
    both(() => samplePriorPredictive(regression.experimentalPin({ y: Y }), { seed: 4, samples: 1 }), 'compiled');
  });

  it('a coroutine model runs per draw', () => {
    const co = new JointDistributionCoroutine(function* (): CoroutineModel {
      const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 1 }));
      yield new Normal({ loc: mu, scale: 1 });
    });
    both(() => samplePriorPredictive(co, { seed: 1, samples: 5 }), 'tape');
  });
});

describe('logLikelihood and computeDeterministics: the compiled path', () => {
  it('a regression and eight schools take it, with the tape path\'s values', () => {
    both(() => logLikelihood(regression, regressionDraws, { y: Y }), 'compiled');
    const schools = draws(30, 4, { mu: [], tau: [], thetaTilde: [8] });
    both(() => logLikelihood(nonCentered, schools, { y: schoolsY }), 'compiled');
    both(() => computeDeterministics(nonCentered, schools, { y: schoolsY }), 'compiled');
  });

  it('a model that reads values in JavaScript falls back', () => {
    const m = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: Number(mu.item()) > 0 ? 1 : -1, scale: 1 }) });
    both(() => logLikelihood(m, draws(4, 2, { mu: [] }), { y: 0.5 }), 'tape');
  });
});

// A 60-row logistic regression, the shape of bench/models/logistic-regression.ts.
const XL = normal(key(98), [60, 3]);
const logistic = (scale = 1) => new JointDistributionNamed({
  alpha: new Normal({ loc: 0, scale: 1 }),
  beta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
  y: (alpha: Tensor, beta: Tensor) => new Independent({ distribution: new Bernoulli({ logits: mul(scale, add(alpha, matmul(XL, beta))) }), reinterpretedBatchNdims: 1 }),
});
const YL = logistic().sample([], { seed: 2 }).y!;

/** `both`, and how many nodes the compiled call drew or scored straight from their leaf's parameters. */
function direct<T extends Record<string, Tensor>>(f: () => T, leaves: number): T {
  const fast = f();
  expect(lastPredictivePath()).toBe('compiled');
  expect(lastDirectLeaves()).toBe(leaves);
  expectSameBits(fast, withFastPaths(false, f));
  return fast;
}

describe('Bernoulli leaves drawn and scored straight from the compiled parameters (leaf-kernels.ts)', () => {
  it('a logistic regression: replicates and pointwise log-likelihood with the tape path\'s bits', () => {
    const d = draws(40, 3, { alpha: [], beta: [3] });
    const rep = direct(() => samplePosteriorPredictive(logistic(), d, { seed: 1 }), 1);
    expect(rep.y!.dtype).toBe('int32');
    const ll = direct(() => logLikelihood(logistic(), d, { y: YL }), 1);
    expect(ll.y!.shape).toEqual([40, 3, 60]);
    direct(() => samplePriorPredictive(logistic(), { seed: 5, samples: 30 }), 3);
    // Philox keys (four words) through the raw-word key schedule, and Threefry's other split mode.
    direct(() => samplePosteriorPredictive(logistic(), d, { seed: philoxKey(3, { impl: 'philox4x32' }) }), 1);
    const was = configure({ threefryPartitionable: false });
    try { direct(() => samplePosteriorPredictive(logistic(), d, { seed: 4 }), 1); } finally { configure(was); }
  });

  it('a Poisson regression\'s log-likelihood runs as generated code (its log mass inline), with the tape path\'s values', () => {
    const model = new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      beta: new Sample({ distribution: new Normal({ loc: 0, scale: 0.3 }), sampleShape: 3 }),
      n: (a: Tensor, beta: Tensor) => new Independent({ distribution: new Poisson({ logRate: add(a, matmul(XL, beta)) }), reinterpretedBatchNdims: 1 }),
    });
    const d = draws(20, 2, { a: [], beta: [3] });
    const n = model.sample([], { seed: 3 }).n!;
    expect(both(() => logLikelihood(model, d, { n }), 'compiled').n!.shape).toEqual([20, 2, 60]);
    expect(lastDirectLeaves()).toBe(0);
    direct(() => samplePosteriorPredictive(model, d, { seed: 3 }), 1);
  });

  it('the bench model (1000 rows) over 8 draws', () => {
    const d = draws(4, 2, { alpha: [], beta: [10] }, 7);
    const pinned = logisticBench.model.experimentalPin(logisticBench.pins);
    direct(() => samplePosteriorPredictive(pinned, d, { seed: 1 }), 1);
    direct(() => logLikelihood(pinned, d), 1);
  });

  it('logits ±large, ±∞ and NaN at draws between the checked first and last; values off {0, 1}', () => {
    // alpha scales the logits: draws of ±1e3, ±1e308 (×60 rows overflows to ±∞), 0 and NaN in the middle draws.
    const alpha = new Tensor(Float64Array.from([0.3, 1e3, -1e3, 1e308, -1e308, Number.NaN, 0, -0, 40, -0.2]), [5, 2], 'float64');
    const beta = normal(key(4), [5, 2, 3]);
    const model = new JointDistributionNamed({
      alpha: new Normal({ loc: 0, scale: 1 }),
      beta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
      y: (alpha: Tensor, beta: Tensor) => new Independent({ distribution: new Bernoulli({ logits: add(mul(alpha, 1000), matmul(XL, beta)) }), reinterpretedBatchNdims: 1 }),
    });
    direct(() => samplePosteriorPredictive(model, { alpha, beta }, { seed: 2 }), 1);
    const y = Float64Array.from(YL.data as Int32Array);
    y[1] = 2; y[2] = 0.5; y[3] = -0; y[4] = -1;   // (NaN would pin a y_missing node)
    const ll = direct(() => logLikelihood(model, { alpha, beta }, { y: new Tensor(y, [60], 'float64') }), 1);
    expect(ll.y!.data[1]).toBe(-Infinity);
    expect(ll.y!.data[4]).toBe(-Infinity);
    expect(Number.isNaN(ll.y!.data[5 * 60])).toBe(true);   // draw (2, 1): alpha NaN
  });

  it('probs, including 0 and 1 exactly, and float sample dtypes', () => {
    // p = sigmoid(a·x) rounds to exactly 0 and 1 at the large draws.
    const x = tensor([-800, -40, -1, 0, 1, 40, 800]);
    const model = (dtype: 'int32' | 'float32' | 'float64') => new JointDistributionNamed({
      a: new Normal({ loc: 0, scale: 1 }),
      y: (a: Tensor) => new Independent({ distribution: new Bernoulli({ probs: sigmoid(mul(a, x)), dtype }), reinterpretedBatchNdims: 1 }),
    });
    const a = new Tensor(Float64Array.from([1, -1, 2, 0.5, -3, 1e-3]), [3, 2], 'float64');
    expect(sigmoid(mul(2, x)).data[0]).toBe(0);
    expect(sigmoid(mul(2, x)).data[6]).toBe(1);
    for (const dtype of ['int32', 'float32', 'float64'] as const) {
      expect(direct(() => samplePosteriorPredictive(model(dtype), { a }, { seed: 3 }), 1).y!.dtype).toBe(dtype === 'int32' ? 'int32' : 'float64');
    }
    const yv = tensor([0, 0, 1, 0, 1, 1, 1]);
    const ll = direct(() => logLikelihood(model('int32'), { a }, { y: yv }), 1);
    expect(ll.y!.data[0] === 0).toBe(true);   // log(1 − 0), as detLog1p(−0) = −0
  });

  it('plates: Sample over a scalar leaf and a 2-D batch are direct; Sample over a batch (transposed) is refused and falls back', () => {
    const iid = new JointDistributionNamed({
      t: new Normal({ loc: 0, scale: 1 }),
      y: (t: Tensor) => new Sample({ distribution: new Bernoulli({ logits: t }), sampleShape: [3, 4] }),
    });
    const dt = draws(6, 2, { t: [] });
    direct(() => samplePosteriorPredictive(iid, dt, { seed: 4 }), 1);
    direct(() => logLikelihood(iid, dt, { y: tensor([[1, 0, 0, 1], [1, 1, 1, 0], [0, 0, 0, 1]]) }), 1);
    const grid = new JointDistributionNamed({
      m: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: [2, 3] }),
      y: (m: Tensor) => new Independent({ distribution: new Bernoulli({ logits: m }), reinterpretedBatchNdims: 2 }),
    });
    const dm = draws(5, 2, { m: [2, 3] });
    direct(() => samplePosteriorPredictive(grid, dm, { seed: 5 }), 1);
    direct(() => logLikelihood(grid, dm, { y: tensor([[1, 0, 1], [0, 0, 1]]) }), 1);
    const plate = new JointDistributionNamed({
      m: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 4 }),
      y: (m: Tensor) => new Sample({ distribution: new Bernoulli({ logits: m }), sampleShape: 3 }),
    });
    const dp = draws(5, 2, { m: [4] });
    direct(() => samplePosteriorPredictive(plate, dp, { seed: 6 }), 0);
    direct(() => logLikelihood(plate, dp, { y: tensor([[1, 0, 1], [0, 0, 1], [1, 1, 1], [0, 0, 0]]) }), 0);
  });

  it('validateArgs leaves are rebuilt and checked per draw; float32 logits decline the compiled path', () => {
    const checked = new JointDistributionNamed({
      t: new Normal({ loc: 0, scale: 1 }),
      y: (t: Tensor) => new Independent({ distribution: new Bernoulli({ logits: add(t, tensor([0, 1])), validateArgs: true }), reinterpretedBatchNdims: 1 }),
    });
    const dt = draws(4, 2, { t: [] });
    direct(() => samplePosteriorPredictive(checked, dt, { seed: 1 }), 0);
    direct(() => logLikelihood(checked, dt, { y: tensor([1, 0]) }), 0);
    const f32 = new JointDistributionNamed({
      t: new Normal({ loc: 0, scale: 1 }),
      y: (t: Tensor) => new Bernoulli({ logits: t.astype('float32') }),
    });
    both(() => samplePosteriorPredictive(f32, dt, { seed: 1 }), 'tape');
  });
});
