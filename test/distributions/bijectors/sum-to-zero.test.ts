// SumToZero: ℝⁿ⁻¹ → {y ∈ ℝⁿ : Σ y = 0} by the orthonormal Helmert basis. Checked against the basis
// written out as a matrix here (vₖ = (1, …, 1, −k, 0, …)/√(k(k+1))), against a numeric Jacobian
// (its columns orthonormal, so ½·log det(JᵀJ) = 0 = fldj), round trips, eventNdims sums, event
// shapes, gradients, validateArgs and shape errors naming the argument.
import { describe, expect, it } from 'vitest';
import { SumToZero } from '../../../distributions/bijectors/sum-to-zero.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectRoundTrip, fdJacobian, gramLogDet, randn, values } from './helpers.js';

/** The n × (n−1) Helmert matrix, column k−1 = vₖ. */
function helmert(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n - 1 }, (_, c) => {
    const k = c + 1, s = 1 / Math.sqrt(k * (k + 1));
    return i < k ? s : i === k ? -k * s : 0;
  }));
}

describe('SumToZero', () => {
  const b = new SumToZero();
  const x = randn(1, [2, 3, 4], 2);

  it('is the Helmert basis times x (known values for n = 2, 3) and sums to zero', () => {
    expectClose(b.forward([Math.SQRT2]), [1, -1], 1e-15);
    expectClose(b.forward([1, 0]), [Math.SQRT1_2, -Math.SQRT1_2, 0], 1e-15);
    expectClose(b.forward([0, 1]), [1 / Math.sqrt(6), 1 / Math.sqrt(6), -2 / Math.sqrt(6)], 1e-15);
    for (const n of [2, 3, 7, 40]) {
      const v = randn(n, [n - 1], 1.5), H = helmert(n), xv = values(v);
      const want = H.map((row) => row.reduce((s, h, k) => s + h * xv[k]!, 0));
      expectClose(b.forward(v), want, 1e-13, `n=${n}`);
    }
    expect(b.forward(x).shape).toEqual([2, 3, 5]);
    expectClose(sum(b.forward(x), -1), new Array(6).fill(0), 1e-14);
  });

  it('round-trips, preserves the norm, and its Jacobian has orthonormal columns (fldj = 0)', () => {
    expectRoundTrip(b, x);
    expectRoundTrip(b, tensor([[400, -3, 5, 0.25]]), 1e-13);   // accurate relative to the vector's norm (prefix sums)
    const v = randn(9, [5]);
    expectClose(Math.hypot(...values(b.forward(v))), Math.hypot(...values(v)), 1e-14);
    const jac = fdJacobian((t) => b.forward(t), v);
    expectClose(gramLogDet(jac), 0, 1e-8, 'gram');
    expectClose(b.forwardLogDetJacobian(x), new Array(6).fill(0), 0);
    expectInverseLdj(b, x);
  });

  it('sums over extra event dims; event shapes', () => {
    expectEventNdimsSum(b, x);
    expect(b.forwardEventShape([2, 3])).toEqual([2, 4]);
    expect(b.inverseEventShape([4])).toEqual([3]);
    expect([b.forwardMinEventNdims, b.inverseMinEventNdims]).toEqual([1, 1]);
    expect(() => b.forwardEventShape([])).toThrow(/`shape`/);
    expect(() => b.inverseEventShape([0])).toThrow(/nonzero last dimension/);
  });

  it('gradients', () => { expectBijectorGradients(b, randn(5, [2, 3])); });

  it('validateArgs and shape errors name the argument', () => {
    const v = new SumToZero({ validateArgs: true });
    expect(() => v.inverse([0.5, 0.6])).toThrow(/SumToZero\.inverse: `y` must have rows summing to 0 along the last axis \(row 0 sums to 1\.1/);
    expect(() => v.inverseLogDetJacobian([[1, -1], [0.2, 0.7]])).toThrow(/row 1 sums to 0\.8999/);
    expectClose(v.inverse([3e9, -3e9]), [3e9 * Math.SQRT2], 1e-15);
    expect(() => b.forward(1)).toThrow(/SumToZero\.forward: `x` must have at least one dimension/);
    expect(() => b.inverse(0.5)).toThrow(/`y`/);
  });
});
