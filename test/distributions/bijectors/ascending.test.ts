// Ascending (Stan's `ordered`): y = cumsum([x₀, e^x₁, …]). Known answers of TFP on JAX
// (test/fixtures/tfp-jax/bijectors-x64.json: TFP's docstring examples, a batch [2, 3] of
// 4-vectors, one-element vectors, steps of e^−40 and e^20; inverse at gaps of 2⁻⁴⁰ and 1e300),
// the image is strictly increasing, round trips, fldj against the numeric Jacobian, ildj = −fldj,
// eventNdims sums, gradients, validateArgs and shape errors.
import { describe, expect, it } from 'vitest';
import { Ascending, PositiveOrdered } from '../../../distributions/bijectors/ascending.js';
import { Chain } from '../../../distributions/bijectors/chain.js';
import { Exp } from '../../../distributions/bijectors/exp.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectLdjMatchesJacobian, expectRoundTrip, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

describe('Ascending', () => {
  const b = new Ascending();
  const x = randn(1, [2, 3, 5], 1.5);

  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians)', () => {
    // 2e-15 relative (observed ≤ 6.4e-16): XLA's cumsum adds in a different order than the
    // running sum here, a few ulp of the partial sums; the rest is exp/log, within an ulp.
    const tol = { rtol: 2e-15 };
    for (const c of tfpCases('Ascending')) expectMatchesTfp(b, c, { forward: tol, fldj: tol, inverse: tol, ildj: tol });
  });

  it('maps onto strictly increasing vectors and round-trips', () => {
    const y = values(b.forward(x));
    for (let r = 0; r < y.length; r += 5) for (let j = 1; j < 5; j++) expect(y[r + j]!).toBeGreaterThan(y[r + j - 1]!);
    expectRoundTrip(b, x, 1e-12);
    expectRoundTrip(b, tensor([[0.3], [-2]]), 0);
    expectClose(b.forward([2, 0, 0]), [2, 3, 4], 0);
    expectClose(b.inverse([-1, -0.5, 10]), [-1, Math.log(0.5), Math.log(10.5)], 1e-15);
  });

  it('fldj = Σₖ₌₁ xₖ matches the numeric Jacobian; ildj = −fldj', () => {
    expectLdjMatchesJacobian(b, randn(2, [6]));
    expectClose(b.forwardLogDetJacobian(x), values(x).reduce<number[]>((acc, v, i) => { if (i % 5 === 0) acc.push(0); else acc[acc.length - 1]! += v; return acc; }, []), 1e-14);
    expectInverseLdj(b, x);
    expectClose(b.forwardLogDetJacobian([7]), 0, 0);
  });

  it('sums over extra event dims; event shapes unchanged', () => {
    expectEventNdimsSum(b, x);
    expect(b.forwardEventShape([4])).toEqual([4]);
    expect([b.forwardMinEventNdims, b.inverseMinEventNdims]).toEqual([1, 1]);
  });

  it('gradients', () => { expectBijectorGradients(b, randn(3, [2, 4])); });

  it('validateArgs, shape errors and unknown options name the argument', () => {
    const v = new Ascending({ validateArgs: true });
    expect(() => v.inverse([1, 2, 2])).toThrow(/Ascending\.inverse: `y\[2\]` must exceed the entry before it \(2\)/);
    expect(() => v.inverseLogDetJacobian([[0, 1], [3, 1]])).toThrow(/Ascending\.inverseLogDetJacobian: `y\[3\]`/);
    expect(Number.isNaN(values(b.inverse([1, 0]))[1]!)).toBe(true);   // without validateArgs: log of a negative step
    expect(() => b.forward(1)).toThrow(/Ascending\.forward: `x` must have at least one dimension/);
    expect(() => b.inverse(tensor([]))).toThrow(/Ascending\.inverse: `y` must have a last dimension of at least 1/);
    expect(() => new Ascending({ ordered: true } as never)).toThrow(/Ascending: `options` has unknown option `ordered`/);
  });
});

// PositiveOrdered (Stan's `positive_ordered`): y = cumsum(e^x). Known values written out, the image
// positive and strictly increasing, round trips, fldj = Σx against the numeric Jacobian, ildj = −fldj,
// eventNdims sums, gradients, and Stan's unconstrained space (not Chain([Exp, Ascending])'s).
describe('PositiveOrdered', () => {
  const b = new PositiveOrdered();
  const x = randn(2, [2, 3, 4], 1.5);

  it('known values; positive and strictly increasing; round-trips', () => {
    expectClose(b.forward([0, 0, Math.log(2)]), [1, 2, 4], 1e-15);
    expectClose(b.inverse([1, 2, 4]), [0, 0, Math.log(2)], 1e-15);
    expectClose(b.forward([-745, 0]), [5e-324, 1], 0);
    const y = values(b.forward(x));
    for (let r = 0; r < y.length; r += 4) {
      expect(y[r]!).toBeGreaterThan(0);
      for (let j = 1; j < 4; j++) expect(y[r + j]!).toBeGreaterThan(y[r + j - 1]!);
    }
    expectRoundTrip(b, x, 1e-12);
  });

  it('fldj = Σ x (numeric Jacobian); ildj = −fldj; event dims; gradients', () => {
    expectClose(b.forwardLogDetJacobian([5, 1, 2]), 8, 0);
    expectLdjMatchesJacobian(b, randn(3, [4]));
    expectInverseLdj(b, x);
    expectEventNdimsSum(b, x);
    expectBijectorGradients(b, randn(5, [2, 3]));
  });

  it('samples another unconstrained space than Chain([Exp, Ascending]) (same image)', () => {
    const chained = new Chain({ bijectors: [new Exp(), new Ascending()] });   // y = exp(ascending(x))
    const yv = [0.5, 2, 2.25];
    expectClose(chained.forward(chained.inverse(yv)), yv, 1e-14);
    expect(values(chained.inverse(yv))).not.toEqual(values(b.inverse(yv)));
    expectClose(b.inverse(yv), [Math.log(0.5), Math.log(1.5), Math.log(0.25)], 1e-15);
  });

  it('validateArgs and shape errors name the argument', () => {
    const v = new PositiveOrdered({ validateArgs: true });
    expect(() => v.inverse([0, 1])).toThrow(/PositiveOrdered\.inverse: `y\[0\]` must be positive/);
    expect(() => v.inverse([1, 1])).toThrow(/`y\[1\]` must exceed the entry before it/);
    expect(() => b.forward(1)).toThrow(/PositiveOrdered\.forward: `x` must have at least one dimension/);
  });
});
