// OrderedLogistic: categorical log probabilities, logProb, cdf, entropy and mode against TFP on
// JAX (fixtures/tfp-jax/log-prob.py → log-prob-x64.json; relative 1e-13, absolute below 1); the
// class probabilities against σ(η − cⱼ₋₁) − σ(η − cⱼ) written out here; draws against the class
// probabilities by chi-square (n = 20000 per batch member, ALPHA = 1e-6); TFP's draws themselves
// are in tfp-parity.test.ts. Also gradients (finite differences), KL, shapes and bad input.
import { describe, expect, it } from 'vitest';
import { Categorical, OrderedLogistic } from '../../distributions/index.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { column, expectChiSquare, expectGradients, expectSampleShapeInvariance } from './harness.js';
import { tfpLogProbFixture } from './tfp-log-prob-fixture.js';

interface Case {
  cutpoints: number[] | number[][]; loc: number | number[]; x: number[]; categoricalLogProbs: number[]; logProb: number[]; cdf: number[]; entropy: number[]; mode: number[];
}
const cases = tfpLogProbFixture<Case[]>('orderedLogistic');

const flat = (t: Tensor) => Array.from(t.data as ArrayLike<number>, Number);
const close = (a: number, b: number, rel: number, what = '') => {
  if (a === b) return;
  expect(Math.abs(a - b), `${what}: ${a} vs ${b}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(b)));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

describe('OrderedLogistic', () => {
  it('matches TFP on JAX: categorical log probabilities, logProb, cdf, entropy, mode', () => {
    for (const c of cases) {
      const d = new OrderedLogistic({ cutpoints: c.cutpoints, loc: c.loc });
      const nb = d.batchShape.length;
      const x = tensor(c.x).reshape([c.x.length, ...Array<number>(nb).fill(1)]);
      flat(d.categoricalLogProbs()).forEach((v, i) => close(v, c.categoricalLogProbs[i]!, 1e-13, `categoricalLogProbs[${i}]`));
      flat(d.logProb(x)).forEach((v, i) => close(v, c.logProb[i]!, 1e-13, `logProb[${i}]`));
      flat(d.cdf(x)).forEach((v, i) => close(v, c.cdf[i]!, 1e-14, `cdf[${i}]`));
      flat(d.entropy()).forEach((v, i) => close(v, c.entropy[i]!, 1e-13, `entropy[${i}]`));
      expect(flat(d.mode())).toEqual(c.mode);
    }
  });

  it('class probabilities are σ(η − cⱼ₋₁) − σ(η − cⱼ), accurate where both sigmoids are near 1', () => {
    const cut = [-1, 0.5, 2], eta = 0.3;
    const p = flat(new OrderedLogistic({ cutpoints: cut, loc: eta }).categoricalProbs());
    const s = [1, ...cut.map((c) => sigmoid(eta - c)), 0];
    p.forEach((v, j) => close(v, s[j]! - s[j + 1]!, 1e-14, `class ${j}`));
    close(p.reduce((a, b) => a + b), 1, 1e-15);
    // η − c = 40 and 39: σ(40) − σ(39) = e⁻³⁹(1 − e⁻¹)/… ≈ e⁻³⁹·(1 − e⁻¹), lost to cancellation in a plain difference.
    const lp = flat(new OrderedLogistic({ cutpoints: [-40, -39], loc: 0 }).categoricalLogProbs());
    close(lp[1]!, -39 + Math.log1p(-Math.exp(-1)) - Math.log1p(Math.exp(-39)) - Math.log1p(Math.exp(-40)), 1e-14, 'middle class');
    // survival P(X > j) = σ(η − cⱼ), computed by Categorical's upper tail sum
    const sf = flat(new OrderedLogistic({ cutpoints: cut, loc: eta }).survivalFunction([0, 1, 2]));
    sf.forEach((v, j) => close(v, sigmoid(eta - cut[j]!), 1e-14, `survival ${j}`));
  });

  it('draws follow the class probabilities (chi-square) and keep the sample-shape invariant', () => {
    const d = new OrderedLogistic({ cutpoints: [[-1, 0.5, 2], [-3, -2.9, 4]], loc: [0.3, 1.5] });
    const x = d.sample(20000, { seed: 11 });
    expect(x.dtype).toBe('int32');
    expect(x.shape).toEqual([20000, 2]);
    const probs = d.categoricalProbs().toArray() as number[][];
    for (let b = 0; b < 2; b++) expectChiSquare(column(x, b, 2), (k) => probs[b]![k]!, 3, `batch ${b}`);
    expectSampleShapeInvariance(d);
    expect(new OrderedLogistic({ cutpoints: [0, 1], loc: 0, dtype: 'float64' }).sample(3, { seed: 0 }).dtype).toBe('float64');
  }, 30_000);

  it('sample is Categorical(logits = categoricalLogProbs).sample with the same seed (TFP)', () => {
    const d = new OrderedLogistic({ cutpoints: [[-1, 0, 1], [0, 0.5, 3]], loc: [0.2, -0.4] });
    const want = new Categorical({ logits: d.categoricalLogProbs() }).sample(7, { seed: 3 });
    expect(flat(d.sample(7, { seed: 3 }))).toEqual(flat(want));
  });

  it('logProb gradients in cutpoints and loc match finite differences', () => {
    const make = (p: Record<string, Tensor>) => new OrderedLogistic({ cutpoints: p.cutpoints!, loc: p.loc! });
    expectGradients(make, { cutpoints: [-1, 0.5, 2], loc: [0.3, -1.2, 2.5, 4] }, [0, 1, 2, 3], { skipValue: true });
    expectGradients(make, { cutpoints: [[-1, 0.5, 2], [-3, 1, 1.5]], loc: [0.3, 0.1] }, [1, 2], { skipValue: true, method: 'cdf' });
  });

  it('KL divergence, shapes, K = 0 and the mode', () => {
    const a = new OrderedLogistic({ cutpoints: [-1, 0.5, 2], loc: [0.3, 1] }), b = new OrderedLogistic({ cutpoints: [0, 1, 1.5], loc: -0.5 });
    const pa = a.categoricalProbs().toArray() as number[][], pb = flat(b.categoricalProbs());
    const kl = flat(a.klDivergence(b));
    pa.forEach((row, r) => close(kl[r]!, row.reduce((s, p, j) => s + p * Math.log(p / pb[j]!), 0), 1e-13, 'KL'));
    expect(a.batchShape).toEqual([2]);
    expect(a.numCategories).toBe(4);
    expect(new OrderedLogistic({ cutpoints: [[0, 1]], loc: [[1], [2], [3]] }).batchShape).toEqual([3, 1]);
    const one = new OrderedLogistic({ cutpoints: tensor([]).reshape([0]), loc: [0, 5] });
    expect(one.categoricalProbs().toArray()).toEqual([[1], [1]]);
    expect(flat(one.logProb([0, 1]))).toEqual([0, -Infinity]);
    expect(flat(new OrderedLogistic({ cutpoints: [-2, 0, 2], loc: [-5, 0.5, 5] }).mode())).toEqual([0, 2, 3]);
    expect(new OrderedLogistic({ cutpoints: tensor([0, 1], 'float32'), loc: tensor(0, 'float32') }).categoricalLogProbs().dtype).toBe('float32');
    // The cutpoints' constraining bijector is TFP's Ascending.
    const c = flat(OrderedLogistic.parameterProperties.cutpoints.constraint.bijector!().forward([0.3, -1, 2]));
    expect(c[0]! < c[1]! && c[1]! < c[2]!).toBe(true);
  });

  it('bad input names the class and the argument', () => {
    expect(() => new OrderedLogistic({ cutpoints: 1, loc: 0 })).toThrow(/OrderedLogistic: `cutpoints` must have at least 1 dimension/);
    expect(() => new OrderedLogistic({ cutpoints: [0, 1], loc: 'a' as never })).toThrow(TypeError);
    expect(() => new OrderedLogistic({ loc: 0 } as never)).toThrow(/OrderedLogistic: `cutpoints` is required/);
    expect(() => new OrderedLogistic({ cutpoints: [0, 1], loc: 0, dtype: 'int8' as never })).toThrow(/OrderedLogistic: `dtype` must be one of/);
    expect(() => new OrderedLogistic({ cutpoints: [0, 1], loc: 0, cutpoint: 1 } as never)).toThrow(/OrderedLogistic: unknown parameter `cutpoint`/);
    expect(() => new OrderedLogistic({ cutpoints: [[0, 1], [1, 2]], loc: [0, 1, 2] })).toThrow(RangeError);
    expect(() => new OrderedLogistic({ cutpoints: [1, 0], loc: 0, validateArgs: true })).toThrow(/OrderedLogistic: `cutpoints` must be non-decreasing/);
    const v = new OrderedLogistic({ cutpoints: [0, 1], loc: 0, validateArgs: true });
    expect(() => v.logProb(3)).toThrow(/OrderedLogistic.logProb: `value` must be an integer in \[0, 2\]/);
    expect(() => v.logProb(0.5)).toThrow(RangeError);
    expect(flat(new OrderedLogistic({ cutpoints: [0, 1], loc: 0 }).logProb([-1, 0.5, 3]))).toEqual([-Infinity, -Infinity, -Infinity]);
    expect(() => new OrderedLogistic({ cutpoints: [0, 1], loc: 0 }).defaultEventSpaceBijector()).toThrow(/not implemented/);
  });
});
