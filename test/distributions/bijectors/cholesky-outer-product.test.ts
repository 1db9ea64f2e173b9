// CholeskyOuterProduct: y = L·Lᵀ for lower-triangular L with a positive diagonal. Known answers
// of TFP on JAX (test/fixtures/tfp-jax/bijectors-x64.json: TFP's docstring example, 3×3 factors
// with junk above the diagonal, a batch [2, 2] of 4×4, 1×1; inverse (Cholesky) and ildj at SPD
// matrices incl. a batch [3] and diag(1e−6, 1e6)), the upper triangle ignored, round trips, the
// log-det-Jacobian as log|det| of the numeric Jacobian of L's lower entries onto y's lower
// entries (TFP's convention) and as n·log 2 + Σ (n − j)·log Lⱼⱼ, ildj = −fldj, eventNdims sums,
// gradients, errors for non-square and non-positive-definite input.
import { describe, expect, it } from 'vitest';
import { CholeskyOuterProduct } from '../../../distributions/bijectors/cholesky-outer-product.js';
import { tensor, type Tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectRoundTrip, fdJacobian, logAbsDet, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

/** Random lower-triangular n×n factors with diagonals in (0.5, 2.2) (batch `shape`). */
function factors(seed: number, shape: number[], n: number): Tensor {
  const v = values(randn(seed, [...shape, n, n]));
  for (let o = 0; o < v.length; o += n * n) {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) v[o + i * n + j] = 0;
      v[o + i * (n + 1)] = Math.exp(0.5 * Math.tanh(v[o + i * (n + 1)]!) + 0.3);
    }
  }
  return tensor(v).reshape([...shape, n, n]);
}

describe('CholeskyOuterProduct', () => {
  const b = new CholeskyOuterProduct();

  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians)', () => {
    // rtol 2e-15 (observed ≤ 7e-16), atol 1e-15 for entries summed with cancellation: the
    // products and the Cholesky factorization add in XLA's order, which differs in the last bits.
    const tol = { rtol: 2e-15, atol: 1e-15 };
    for (const c of tfpCases('CholeskyOuterProduct')) expectMatchesTfp(b, c, { forward: tol, fldj: tol, inverse: tol, ildj: tol });
  });

  it('ignores the upper triangle; round-trips factors of size 1…5 with batches', () => {
    expectClose(b.forward([[1, 7], [2, 1]]), [1, 2, 2, 5], 0);
    for (let n = 1; n <= 5; n++) expectRoundTrip(b, factors(n, [2, 3], n), 1e-12);
    expectRoundTrip(b, factors(9, [], 3), 1e-13);
  });

  it('fldj = log|det| of the Jacobian of the lower entries = n·log 2 + Σ (n − j)·log Lⱼⱼ; ildj = −fldj', () => {
    for (let n = 1; n <= 4; n++) {
      const x = factors(10 + n, [], n);
      const lower: number[] = [];
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) lower.push(i * n + j);
      const jac = fdJacobian((t) => b.forward(t), x);
      const sub = lower.map((r) => lower.map((c) => jac[r]![c]!));
      const fldj = b.forwardLogDetJacobian(x).item() as number;
      expectClose(fldj, logAbsDet(sub), 1e-7, `n=${n}`);
      const xv = values(x);
      expectClose(fldj, n * Math.LN2 + Array.from({ length: n }, (_, j) => (n - j) * Math.log(xv[j * (n + 1)]!)).reduce((s, v) => s + v, 0), 1e-14);
    }
    expectInverseLdj(b, factors(20, [3], 3));
  });

  it('sums over extra event dims; event shapes', () => {
    expectEventNdimsSum(b, factors(21, [2, 3], 3));
    expect(b.forwardEventShape([4, 3, 3])).toEqual([4, 3, 3]);
    expect([b.forwardMinEventNdims, b.inverseMinEventNdims]).toEqual([2, 2]);
    expect(() => b.inverseEventShape([2, 3])).toThrow(/CholeskyOuterProduct\.inverseEventShape: `shape` must end in a square/);
  });

  it('gradients', () => {
    expectBijectorGradients(b, factors(22, [2], 3));
    expectBijectorGradients(b, factors(23, [], 4));
  });

  it('bad input, validateArgs and unknown options name the argument', () => {
    expect(() => b.forward([1, 2])).toThrow(/CholeskyOuterProduct\.forward: `x` must be a \(batch of\) square matrices/);
    expect(() => b.inverse([[1, 2, 3], [4, 5, 6]])).toThrow(/CholeskyOuterProduct\.inverse: `y` must be a \(batch of\) square matrices/);
    expect(() => b.inverse([[1, 2], [2, 1]])).toThrow(/CholeskyOuterProduct\.inverse: `y` must be symmetric positive definite \(cholesky: `a` is not positive definite/);
    expect(() => b.inverseLogDetJacobian([[1, 2], [2, 1]])).toThrow(/CholeskyOuterProduct\.inverseLogDetJacobian: `y`/);
    const v = new CholeskyOuterProduct({ validateArgs: true });
    expect(() => v.forward([[1, 0], [2, -1]])).toThrow(/CholeskyOuterProduct\.forward: `diag\(x\)\[1\]` must be positive/);
    expect(() => v.forwardLogDetJacobian([[0, 0], [2, 1]])).toThrow(/CholeskyOuterProduct\.forwardLogDetJacobian: `diag\(x\)\[0\]`/);
    expect(() => new CholeskyOuterProduct({ choleskyFn: () => 0 } as never)).toThrow(/CholeskyOuterProduct: `options` has unknown option `choleskyFn`/);
  });
});
