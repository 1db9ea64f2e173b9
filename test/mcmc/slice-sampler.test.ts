// SliceSampler (hit-and-run, doubling then shrinking):
// - posterior moments on normal–normal, gamma–poisson (log λ) and beta–binomial (logit θ), 4
//   chains: |estimate − truth| < 4 MCSE per mean and variance (~6.3e-5 two-sided per check under
//   normality; 8 checks here, plus per-chain checks below → false-failure rate ≈ 1e-3; seeds
//   fixed). The 10-dim correlated Gaussian is in slice-sampler.slow.test.ts.
// - one step rebuilt by hand for one chain (TFP's seed splits: direction, slice height, doubling,
//   shrinkage with Neal's reversibility test) equals oneStep bit for bit; the direction is unit
//   length over all parts per chain; vectorized chains; reproducibility; bad input.
import { describe, expect, it } from 'vitest';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { Normal } from '../../distributions/normal.js';
import type { State } from '../../mcmc/kernel.js';
import { SliceSampler } from '../../mcmc/kernels/slice-sampler.js';
import { sampleChain } from '../../mcmc/sample-chain.js';
import { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import { detCos, detSin } from '../../src/math/index.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add, logaddexp, mul, square, sub } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { betaBinomial } from './beta-binomial-logit.js';
import { expectMoments, gammaPoisson, normalNormal } from './conjugate.js';

const values = (t: unknown) => Array.from((t as Tensor).data as ArrayLike<number>);
const words = (k: KeyArray) => Array.from(k.data);

describe('SliceSampler: posterior moments within 4 MCSE', () => {
  it('normal–normal', () => {
    const m = normalNormal();
    const kernel = new SliceSampler({ targetLogProbFn: m.targetLogProbFn, stepSize: 0.5, maxDoublings: 5 });
    const { allStates } = sampleChain({ numResults: 1000, numBurninSteps: 50, currentState: zeros([4]), kernel, seed: 1 });
    expectMoments('normal–normal', allStates as Tensor, m.mean, m.variance);
  });

  it('gamma–poisson (log λ)', () => {
    const m = gammaPoisson();
    const kernel = new SliceSampler({ targetLogProbFn: m.targetLogProbFn, stepSize: 0.3, maxDoublings: 5 });
    const { allStates } = sampleChain({ numResults: 1500, numBurninSteps: 50, currentState: zeros([4]), kernel, seed: 2 });
    expectMoments('gamma–poisson', allStates as Tensor, m.mean, m.variance);
  });

  it('beta–binomial (logit θ)', () => {
    const kernel = new SliceSampler({ targetLogProbFn: betaBinomial.logit, stepSize: 0.5, maxDoublings: 5 });
    const { allStates } = sampleChain({ numResults: 1500, numBurninSteps: 50, currentState: zeros([4]), kernel, seed: 3 });
    expectMoments('beta–binomial', betaBinomial.toTheta(allStates as Tensor), betaBinomial.mean, betaBinomial.variance);
  });

  it('a two-part state with per-part step sizes; each of 3 chains samples its own target', () => {
    // Chain c: x ~ N(loc_c, 1) in 2 dims, y ~ N(−loc_c, 0.5).
    const loc = tensor([[-4], [0], [4]]);
    const target = (x: Tensor, y: Tensor) => add(sum(new Normal({ loc, scale: 1 }).logProb(x), -1),
      new Normal({ loc: tensor([4, 0, -4]), scale: 0.5 }).logProb(y));
    const kernel = new SliceSampler({ targetLogProbFn: target, stepSize: [1, 0.5], maxDoublings: 4 });
    const { allStates } = sampleChain({ numResults: 1500, numBurninSteps: 50, currentState: [zeros([3, 2]), zeros([3])], kernel, seed: 4 });
    const [x, y] = allStates as Tensor[];
    const n = x!.shape[0]!, xd = x!.data as Float64Array, yd = y!.data as Float64Array;
    [-4, 0, 4].forEach((m, c) => {
      const xs = new Float64Array(2 * n), ys = new Float64Array(n);
      for (let i = 0; i < n; i++) { xs[2 * i] = xd[i * 6 + 2 * c]!; xs[2 * i + 1] = xd[i * 6 + 2 * c + 1]!; ys[i] = yd[i * 3 + c]!; }
      expectMoments(`x, chain ${c}`, new Tensor(xs, [n, 1, 2]), [m, m], [1, 1]);
      expectMoments(`y, chain ${c}`, new Tensor(ys, [n, 1]), [-m], [0.25]);
    });
  });
});

/**
 * One SliceSampler step for a single chain, written plainly from TFP's code (Neal 2003, Figs. 4-6)
 * with TFP's seed splits; `f` is the log density along the direction.
 */
function sliceStepByHand(f: (a: number) => number, lp0: number, width: number, maxDoublings: number, seed: KeyArray) {
  const [gammaSeed, boundsSeed, sampleSeed] = splitSeed(seed, { n: 3, salt: 'ssu.slice_sampler_one_dim' }) as KeyArray[];
  const height = lp0 - Math.exp(randomLogGamma([1], [1], null, gammaSeed!, 'float64')[0]!);
  const [leftSeed, incSeed] = splitSeed(boundsSeed!, { salt: 'slice_bounds_by_doubling' }) as KeyArray[];
  const u = values(uniform([1], { minval: -1, maxval: 0, seed: leftSeed }))[0]!;
  const coins = values(uniform([maxDoublings + 1], { dtype: 'float32', seed: incSeed }));
  let lower = NaN, upper = NaN, ok = false, inc = 0;
  for (let k = 0; k <= maxDoublings; k++) {
    const w = 2 ** k * width, l = width * u - inc, r = l + w;
    if (f(l) < height && f(r) < height) { lower = l; upper = r; ok = true; break; }
    if (k === maxDoublings) { lower = l; upper = r; }
    if (coins[k]! < Math.fround(1 / (1 + Math.exp(-0.5)))) inc += w;   // TFP's Bernoulli(0.5): 0.5 is the logit
  }
  let key = sampleSeed!, left = lower, right = upper, irreversible = 0;
  for (;;) {
    const [pSeed, next] = splitSeed(key) as KeyArray[];
    key = next!;
    const x = left + values(uniform([1], { seed: pSeed }))[0]! * (right - left);
    // Reversibility: retrace the doubling from x.
    // TFP runs at least one round, and stops once the interval is at most 1.1 widths.
    let acceptable = true, l = left, r = right, d = false;
    do {
      const mid = (l + r) / 2;
      if ((0 < mid && x >= mid) || (x < mid && 0 >= mid)) d = true;
      if (x < mid) r = mid; else l = mid;
      if (d && height >= f(l) && height >= f(r)) { acceptable = false; break; }
    } while (r - l > 1.1 * width);
    if (height < f(x) && !acceptable) irreversible++;
    if (height < f(x) && acceptable) return { alpha: x, lower, upper, ok, irreversible };
    if (x < 0) left = x; else right = x;
  }
}

describe('SliceSampler: seeds', () => {
  const target = (x: Tensor, y: Tensor) => add(sum(mul(-0.5, square(x)), -1), mul(-2, square(sub(y, 1))));
  const x0 = [tensor([[0.3, -0.2]]), tensor([0.7])];

  it('one step by hand (direction, slice height, doubling, shrinkage) equals oneStep, bit for bit', () => {
    const kernel = new SliceSampler({ targetLogProbFn: target, stepSize: [0.1, tensor([0.05])], maxDoublings: 3 });
    const pkr = kernel.bootstrapResults(x0);
    let unbounded = 0;
    for (let s = 0; s < 40; s++) {
      const seed = sanitizeSeed(s);
      const [next, r] = kernel.oneStep(x0, pkr, seed);
      const [directionSeed, sliceSeed] = splitSeed(seed) as KeyArray[];
      // TFP's spherical_uniform per part: (cos u, sin u) for the 2-element part, a Rademacher sign for the scalar one.
      const keys = splitSeed(directionSeed!, { n: 2 });
      const u = values(uniform([1], { minval: 0, maxval: 2 * Math.PI, seed: keys[0] }))[0]!;
      const sign = 2 * Number((uniform([1, 1], { minval: 0, maxval: 2, dtype: 'int64', seed: keys[1] }).data as BigInt64Array)[0]) - 1;
      const dir = [[detCos(u), detSin(u)], [sign]];
      expect((r.direction as Tensor[]).map(values)).toEqual(dir);
      const width = 1 / Math.sqrt((dir[0]![0]! / 0.1) ** 2 + (dir[0]![1]! / 0.1) ** 2 + (dir[1]![0]! / 0.05) ** 2);
      const along = (a: number) => [tensor([[0.3 + a * dir[0]![0]!, -0.2 + a * dir[0]![1]!]]), tensor([0.7 + a * dir[1]![0]!])];
      const f = (a: number) => values(target(...(along(a) as [Tensor, Tensor])))[0]!;
      const h = sliceStepByHand(f, values(pkr.targetLogProb)[0]!, width, 3, sliceSeed!);
      expect(values(r.lowerBounds)).toEqual([h.lower]);
      expect(values(r.upperBounds)).toEqual([h.upper]);
      expect(values(r.boundsSatisfied)).toEqual([h.ok ? 1 : 0]);
      expect((next as Tensor[]).map(values)).toEqual(along(h.alpha).map(values));
      expect(values(r.targetLogProb)).toEqual([f(h.alpha)]);
      expect(words(r.seed)).toEqual(words(seed));
      if (!h.ok) unbounded++;
    }
    expect(unbounded).toBeGreaterThan(0);   // the widest-interval fallback is exercised
  });

  it('one step by hand on a bimodal line, where Neal\'s reversibility test rejects points', () => {
    // A scalar state: the direction is ±1. Modes at ±0.6; wide doublings reach the other mode.
    const bimodal = (x: Tensor) => logaddexp(mul(-8, square(sub(x, 0.6))), mul(-8, square(add(x, 0.6))));
    const kernel = new SliceSampler({ targetLogProbFn: bimodal, stepSize: 0.4, maxDoublings: 4 });
    const x = tensor([0.55]);
    const pkr = kernel.bootstrapResults(x);
    let irreversible = 0;
    for (let s = 0; s < 40; s++) {
      const seed = sanitizeSeed(s);
      const [next, r] = kernel.oneStep(x, pkr, seed);
      const [directionSeed, sliceSeed] = splitSeed(seed) as KeyArray[];
      const bit = (uniform([1, 1], { minval: 0, maxval: 2, dtype: 'int64', seed: splitSeed(directionSeed!, { n: 1 })[0] }).data as BigInt64Array)[0];
      const dir = 2 * Number(bit) - 1;                  // TFP's Rademacher direction for one dimension
      expect(values((r.direction as Tensor[])[0])).toEqual([dir]);
      const f = (a: number) => values(bimodal(tensor([0.55 + a * dir])))[0]!;
      const h = sliceStepByHand(f, values(pkr.targetLogProb)[0]!, 1 / Math.sqrt((dir / 0.4) ** 2), 4, sliceSeed!);
      expect([values(r.lowerBounds), values(r.upperBounds)]).toEqual([[h.lower], [h.upper]]);
      expect(values(next)).toEqual([0.55 + h.alpha * dir]);
      irreversible += h.irreversible;
    }
    expect(irreversible).toBeGreaterThan(0);
  });

  it('the direction has unit length per chain in each part (TFP\'s); the move is along it, inside the bounds', () => {
    const kernel = new SliceSampler({ targetLogProbFn: target, stepSize: 1, maxDoublings: 5 });
    const x: Tensor[] = [tensor([[0, 1], [2, 3], [4, 5]]), tensor([1, 2, 3])];
    const [next, r] = kernel.oneStep(x, kernel.bootstrapResults(x), sanitizeSeed(9));
    const [d0, d1] = (r.direction as Tensor[]).map(values), [n0, n1] = (next as Tensor[]).map(values);
    const [x0v, x1v] = x.map(values);
    for (let c = 0; c < 3; c++) {
      expect(d0![2 * c]! ** 2 + d0![2 * c + 1]! ** 2).toBeCloseTo(1, 14);
      expect(Math.abs(d1![c]!)).toBe(1);
      const a = (n1![c]! - x1v![c]!) / d1![c]!;
      expect((n0![2 * c]! - x0v![2 * c]!) / d0![2 * c]!).toBeCloseTo(a, 9);
      expect(a).toBeGreaterThanOrEqual(values(r.lowerBounds)[c]!);
      expect(a).toBeLessThanOrEqual(values(r.upperBounds)[c]!);
    }
    expect(r.boundsSatisfied.shape).toEqual([3]);
  });

  it('same seed → identical draws; another seed → different draws', () => {
    const kernel = new SliceSampler({ targetLogProbFn: target, stepSize: 1, maxDoublings: 5 });
    const run = (seed: number) => (sampleChain({ numResults: 30, currentState: x0, kernel, seed }).allStates as Tensor[]).map(values);
    expect(run(4)).toEqual(run(4));
    expect(run(4)).not.toEqual(run(5));
  });
});

describe('SliceSampler: bad input', () => {
  const t = (x: Tensor) => sum(mul(-0.5, square(x)), -1);
  it.each([
    [{ stepSize: 0 }, RangeError, /stepSize/],
    [{ stepSize: -1 }, RangeError, /stepSize/],
    [{ stepSize: tensor([1, -1]) }, RangeError, /stepSize/],
    [{ stepSize: 'a' }, TypeError, /stepSize/],
    [{ stepSize: [] }, TypeError, /stepSize/],
    [{ maxDoublings: 0 }, RangeError, /maxDoublings/],
    [{ maxDoublings: 2.5 }, TypeError, /maxDoublings/],
    [{ targetLogProbFn: undefined }, TypeError, /targetLogProbFn/],
  ])('%o', (patch, kind, msg) => {
    const make = () => new SliceSampler({ targetLogProbFn: t, stepSize: 1, maxDoublings: 3, ...patch } as never);
    expect(make).toThrow(kind);
    expect(make).toThrow(msg);
  });

  it('a step size that does not fit the state', () => {
    const x = zeros([4, 3]);
    const k1 = new SliceSampler({ targetLogProbFn: t, stepSize: [1, 2], maxDoublings: 3 });
    expect(() => k1.oneStep(x, k1.bootstrapResults(x), sanitizeSeed(0))).toThrow(/stepSize.*one per state part \(1\)/);
    const k2 = new SliceSampler({ targetLogProbFn: t, stepSize: tensor([1, 2]), maxDoublings: 3 });
    expect(() => k2.oneStep(x, k2.bootstrapResults(x), sanitizeSeed(0))).toThrow(/stepSize.*broadcast.*\[4, 3\]/);
  });

  it('a non-finite initial log density, and chain dims that miss the log density', () => {
    const k = new SliceSampler({ targetLogProbFn: (x: Tensor) => sub(t(x), tensor([0, NaN])), stepSize: 1, maxDoublings: 3 });
    expect(() => k.bootstrapResults(zeros([2, 3]))).toThrow(/SliceSampler.*targetLogProbFn.*NaN.*chain 1/);
    const k2 = new SliceSampler({ targetLogProbFn: () => zeros([5]), stepSize: 1, maxDoublings: 3 });
    expect(() => k2.bootstrapResults(zeros([4, 2]))).toThrow(/leading \(chain\) dims \[5\]/);
  });

  it('copy and parameters', () => {
    const k = new SliceSampler({ targetLogProbFn: t, stepSize: 1, maxDoublings: 3 });
    const k2 = k.copy({ maxDoublings: 7 });
    expect([k2.maxDoublings, k2.stepSize, k2.targetLogProbFn]).toEqual([7, 1, t]);
    expect(k.isCalibrated).toBe(true);
    const s: State = zeros([2]);
    expect(values(k.bootstrapResults(s).lowerBounds)).toEqual([0]);
  });
});
