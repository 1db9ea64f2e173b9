// The hand-written distribution kernels (one tape node each) compiled: for each, a scalar function
// of parameters and/or value is traced at one point with `compileGradient`, run at two other
// points (in turn, so the kernels' scratch is reused), and its value and gradients must have the
// tape's bits (`valueAndGrad`) at those points. Batches and broadcasting are covered where the
// distribution has them; a value baked in at trace time would differ from the tape's.
import { describe, expect, it } from 'vitest';
import { Beta } from '../../distributions/beta.js';
import { Categorical } from '../../distributions/categorical.js';
import { DirichletMultinomial } from '../../distributions/dirichlet-multinomial.js';
import { Gamma } from '../../distributions/gamma.js';
import { HiddenMarkovModel } from '../../distributions/hidden-markov-model.js';
import { LKJ } from '../../distributions/lkj.js';
import { Multinomial } from '../../distributions/multinomial.js';
import { Normal } from '../../distributions/normal.js';
import { OneHotCategorical } from '../../distributions/one-hot-categorical.js';
import { TruncatedNormal } from '../../distributions/truncated-normal.js';
import { compileGradient } from '../../src/compile/index.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { mul } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { transpose } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';

type Fn = (...xs: Tensor[]) => Tensor;
type Point = readonly (number | readonly unknown[])[];

const bits = (a: ArrayLike<number>) => Array.from(a);

/**
 * `f` compiled at `at`, then run at each of `points` in turn: its value and gradients (with
 * respect to every argument) must equal the tape's, bit for bit.
 */
function expectTapeBits(f: Fn, at: Point, ...points: Point[]): void {
  const c = compileGradient('test', f, at.map((x) => tensor(x as number[])));
  const argnums = at.map((_, i) => i);
  for (const point of [...points, points[0]!]) {
    const xs = point.map((x) => tensor(x as number[]));
    xs.forEach((x, i) => c.inputs[i]!.set(x.data as Float64Array));
    c.run(true);
    const [value, grads] = valueAndGrad(f, argnums)(...xs) as [Tensor, Tensor[]];
    expect(bits(c.outputs[0]!)).toEqual(bits(value.data as Float64Array));
    grads.forEach((g, i) => expect(bits(c.grads[i]!), `gradient ${i}`).toEqual(bits(g.data as Float64Array)));
  }
  // The first point is far enough from the trace point that a value baked in at trace time shows.
  const tape = (point: Point) => {
    const [value, grads] = valueAndGrad(f, argnums)(...point.map((x) => tensor(x as number[]))) as [Tensor, Tensor[]];
    return [value, ...grads].map((t) => bits(t.data as Float64Array));
  };
  expect(tape(at)).not.toEqual(tape(points[0]!));
}

describe('compiled distribution kernels have the tape\'s bits', () => {
  it('Beta and Gamma log densities (fused maps); their reparameterized draws are not traceable', () => {
    expectTapeBits((a, x) => sum(new Beta({ concentration1: a, concentration0: 2 }).logProb(x)),
      [[1.5, 3], [[0.2], [0.7]]], [[2.5, 0.7], [[0.4], [0.9]]], [[0.9, 4], [[0.1], [0.3]]]);
    expectTapeBits((a, r, x) => sum(new Gamma({ concentration: a, rate: r }).logProb(x)),
      [[1.5, 3], 2, [[0.2], [1.7]]], [[2.5, 0.7], 0.5, [[0.4], [3.9]]]);
    expect(() => compileGradient('test', (a) => sum(new Beta({ concentration1: a, concentration0: 2 }).sample(3, { seed: 0 })), [tensor([1.5])]))
      .toThrow(/Beta\.sample.*no lowering rule/);
    expect(() => compileGradient('test', (a) => sum(new Gamma({ concentration: a, rate: 1 }).sample(3, { seed: 0 })), [tensor([1.5])]))
      .toThrow(/Gamma\.sample.*no lowering rule/);
  });

  it('TruncatedNormal: log density, tails and quantile over broadcast parameters', () => {
    const tn = (m: Tensor, s: Tensor, l: Tensor, h: Tensor) => new TruncatedNormal({ loc: m, scale: s, low: l, high: h });
    const at: Point = [[0.1, -0.3, 0.5], 1.2, [[-1], [0.2]], [2, 3, 2.5], [[0.3, 0.4, 0.8], [1, 1.5, 0.6]]];
    const p1: Point = [[0.4, 0.2, -0.1], 0.8, [[-2], [-0.5]], [1.5, 3.5, 1], [[0.9, -0.4, 0.1], [1.2, 0.3, 0.7]]];
    const p2: Point = [[-0.2, 0.6, 0.3], 2.1, [[-0.7], [0.1]], [4, 2, 3], [[0.2, 1.1, 2.9], [0.5, 1.9, 0.15]]];
    for (const method of ['logProb', 'logCdf', 'cdf', 'logSurvivalFunction', 'survivalFunction'] as const) {
      expectTapeBits((m, s, l, h, x) => sum(tn(m, s, l, h)[method](x)), at, p1, p2);
    }
    expectTapeBits((m, s, l, h, q) => sum(tn(m, s, l, h).quantile(q)),
      [...at.slice(0, 4), [[0.3, 0.6, 0.8], [0.1, 0.5, 0.95]]], [...p1.slice(0, 4), [[0.2, 0.7, 0.4], [0.9, 0.05, 0.5]]]);
    // Scalar parameters against a vector value (stride-0 operands), and a single element.
    expectTapeBits((m, s, x) => sum(tn(m, s, tensor(-1), tensor(2)).logProb(x)), [0.1, 1, [0.5, 1.5, -0.5]], [-0.3, 0.7, [0.2, 1.9, -0.9]]);
    expectTapeBits((m, x) => sum(tn(m, tensor(1), tensor(-1), tensor(2)).logCdf(x)), [0.1, 0.5], [0.4, -0.2]);
  });

  it('Categorical: logProb, cdf and survival function in logits/probs and the value, batched and broadcast', () => {
    const logits: Point = [[[0.1, -1, 0.5], [2, 0.3, -0.4]]];
    expectTapeBits((l, x) => sum(new Categorical({ logits: l }).logProb(x)),
      [...logits, [[0, 2], [1, 1], [2, 0]]], [[[1.1, 0.2, -0.5], [0.4, 0.3, 1.4]], [[2, 0], [0, 1], [1, 2]]]);
    expectTapeBits((p, x) => sum(new Categorical({ probs: p }).logProb(x)),
      [[[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], [2, 1]], [[[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]], [0, 2]]);
    // Values off the support (−∞, NaN-free) get no gradient from their element.
    expectTapeBits((l) => sum(mul(new Categorical({ logits: l }).logProb([0, 1]), 2)), [[[0.1, -1, 0.5], [2, 0.3, -0.4]]], [[[0.5, 0.1, -0.2], [1, 1.5, 0.3]]]);
    for (const method of ['cdf', 'survivalFunction'] as const) {
      expectTapeBits((l, x) => sum(new Categorical({ logits: l })[method](x)),
        [...logits, [[0.5, 2], [-1, 1], [3, 0]]], [[[1.1, 0.2, -0.5], [0.4, 0.3, 1.4]], [[1, 0], [0, 1.7], [1, 2]]]);
      expectTapeBits((p, x) => sum(new Categorical({ probs: p })[method](x)),
        [[[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], [1, 0]], [[[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]], [0, 2]]);
    }
  });

  it('Categorical: mean, variance, entropy and the KL divergence over broadcast batches', () => {
    const at: Point = [[[0.1, -1, 0.5], [2, 0.3, -0.4]]], p: Point = [[[1.1, 0.2, -0.5], [0.4, 0.3, 1.4]]];
    for (const method of ['mean', 'variance', 'entropy'] as const) {
      expectTapeBits((l) => sum(new Categorical({ logits: l })[method]()), at, p);
      expectTapeBits((q) => sum(new Categorical({ probs: q })[method]()), [[[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]]], [[[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]]]);
    }
    expectTapeBits((a, b) => sum(new Categorical({ logits: a }).klDivergence(new Categorical({ probs: b }))),
      [...at, [0.2, 0.5, 0.3]], [...p, [0.1, 0.6, 0.3]]);
    expectTapeBits((a, b) => sum(new Categorical({ probs: a }).klDivergence(new Categorical({ logits: b }))),
      [[[0.2, 0.5, 0.3]], [[[0.1, -1, 0.5]], [[2, 0.3, -0.4]]]], [[[0.3, 0.3, 0.4]], [[[1.1, 0.2, -0.5]], [[0.4, 0.3, 1.4]]]]);
    // One side constant: only the traced parameter gets a part.
    expectTapeBits((a) => sum(new Categorical({ logits: a }).klDivergence(new Categorical({ probs: [0.2, 0.5, 0.3] }))), at, p);
  });

  it('OneHotCategorical: logProb in logits/probs and the value, batched and broadcast', () => {
    expectTapeBits((l, x) => sum(new OneHotCategorical({ logits: l }).logProb(x)),
      [[[0.1, -1, 0.5], [2, 0.3, -0.4]], [[[1, 0, 0], [0, 0, 1]], [[0, 1, 0], [0, 1, 0]]]],
      [[[1.1, 0.2, -0.5], [0.4, 0.3, 1.4]], [[[0, 0, 1], [1, 0, 0]], [[0, 1, 0], [0, 0.5, 0]]]]);
    expectTapeBits((p, x) => sum(new OneHotCategorical({ probs: p }).logProb(x)),
      [[[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], [0, 1, 0]], [[[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]], [0, 0, 1]]);
  });

  it('Multinomial: logProb in logits/probs, a broadcast totalCount and the counts', () => {
    expectTapeBits((l, n, x) => sum(new Multinomial({ totalCount: n, logits: l }).logProb(x)),
      [[[0.1, -1, 0.5], [2, 0.3, -0.4]], [[4], [6]], [[[2, 1, 1]], [[3, 3, 0]]]],
      [[[1.1, 0.2, -0.5], [0.4, 0.3, 1.4]], [[6], [4]], [[[1, 4, 1]], [[0, 1, 3]]]],
      [[[0.3, 0.2, -0.5], [0.1, 0.3, 0.2]], [[5], [5]], [[[1, 4, 1]], [[0, 1, 3]]]]);   // the last: sums ≠ n, −∞
    expectTapeBits((p, n, x) => sum(new Multinomial({ totalCount: n, probs: p }).logProb(x)),
      [[0.2, 0.5, 0.3], 5, [[2, 1, 2], [0, 5, 0]]], [[0.3, 0.3, 0.4], 4, [[1, 1, 2], [4, 0, 0]]]);
    expectTapeBits((n) => sum(new Multinomial({ totalCount: n, probs: [0.2, 0.5, 0.3] }).logProb([[2, 1, 2], [1, 1, 1]])), [[5, 3]], [[3, 5]]);
  });

  it('DirichletMultinomial: logProb in the concentration, a broadcast totalCount and the counts', () => {
    expectTapeBits((a, n, x) => sum(new DirichletMultinomial({ totalCount: n, concentration: a }).logProb(x)),
      [[[0.5, 1.5, 2], [3, 0.7, 1.2]], [[4], [6]], [[[2, 1, 1]], [[3, 3, 0]]]],
      [[[1.5, 0.5, 4], [0.3, 2.7, 1]], [[6], [4]], [[[1, 4, 1]], [[0, 1, 3]]]]);
    expectTapeBits((a, n, x) => sum(new DirichletMultinomial({ totalCount: n, concentration: a }).logProb(x)),
      [[0.5, 1.5, 2], 5, [2, 1, 2]], [[20, 30, 40], 3, [1, 1, 1]]);   // n ≥ α₀, then n < α₀
  });

  it('LKJ: logProb in the matrix and the concentration, batched; and its Cholesky form', () => {
    const corr = (r: number) => [[1, r], [r, 1]];
    const corr3 = (a: number, b: number, c: number) => [[1, a, b], [a, 1, c], [b, c, 1]];
    expectTapeBits((x, eta) => sum(new LKJ({ dimension: 2, concentration: eta }).logProb(x)),
      [[corr(0.3), corr(-0.5)], [1.5, 3]], [[corr(-0.2), corr(0.7)], [0.7, 2]]);
    expectTapeBits((x, eta) => sum(new LKJ({ dimension: 3, concentration: eta }).logProb(x)),
      [corr3(0.3, 0.1, -0.2), 2.5], [corr3(-0.4, 0.5, 0.2), 1.2], [corr3(0.9, -0.9, 0.9), 1.2]);   // the last is not positive definite
    // Cholesky factors (the matrix through tensor ops, so the compiled program takes L as input).
    const chol = (a: number, b: number) => [[1, 0], [a, b]];
    expectTapeBits((l, eta) => sum(new LKJ({ dimension: 2, concentration: eta, inputOutputCholesky: true }).logProb(l)),
      [[chol(0.6, 0.8), chol(-0.28, 0.96)], [1.5, 3]], [[chol(0.8, 0.6), chol(0, 1)], [2, 0.5]], [[chol(0.8, -0.6), chol(0, 1)], [2, 0.5]]);
    // X = L·Lᵀ built from a traced factor: the log det flows back into L.
    expectTapeBits((l) => sum(new LKJ({ dimension: 2, concentration: 2 }).logProb(matmul(l, transpose(l)))),
      [chol(0.6, 0.8)], [chol(-0.28, 0.96)]);
  });

  it('HiddenMarkovModel: the fused forward algorithm in every table, batched', () => {
    const hmm = (init: Tensor, trans: Tensor, loc: Tensor) => new HiddenMarkovModel({
      initialDistribution: new Categorical({ logits: init }),
      transitionDistribution: new Categorical({ logits: trans }),
      observationDistribution: new Normal({ loc, scale: [1, 2, 1.5] }),
      numSteps: 4,
    });
    expectTapeBits((i, t, m, x) => sum(hmm(i, t, m).logProb(x)),
      [[0.1, -0.4, 0.3], [[0.5, 0.1, -1], [0, 0.2, 0.3], [-0.5, 1, 0.4]], [[-1, 0, 2]], [[0.3, -1.2, 2.5, 0.1], [1, 1, 0.5, -2]]],
      [[0.6, 0.4, -0.3], [[1.5, -0.1, -1], [0.3, 0.2, 0.8], [-0.2, 0.1, 0.4]], [[-2, 0.5, 1]], [[1.3, -0.2, 0.5, 2.1], [-1, 0.3, 0.5, -1]]]);
    // Only the observations traced (the tables enter as constants).
    expectTapeBits((x) => sum(hmm(tensor([0.1, -0.4, 0.3]), tensor([[0.5, 0.1, -1], [0, 0.2, 0.3], [-0.5, 1, 0.4]]), tensor([-1, 0, 2])).logProb(x)),
      [[0.3, -1.2, 2.5, 0.1]], [[1.3, -0.2, 0.5, 2.1]]);
  });
});
