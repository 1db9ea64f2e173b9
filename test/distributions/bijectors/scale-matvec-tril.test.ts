// ScaleMatvecTriL: y = L·x (or Lᵀ·x with `adjoint`). Known answers of TFP on JAX
// (test/fixtures/tfp-jax/bijectors-x64.json: a 3×3 scale with junk above the diagonal and a
// negative diagonal entry, and a batch [2] of scales against x of batch [4, 1] and [] and y of
// batch [4, 2] and [2], each with and without `adjoint`), the upper triangle ignored, round
// trips, fldj = Σ log|Lᵢᵢ| against the numeric Jacobian, ildj = −fldj, eventNdims sums (the
// constant log-det broadcast to the batch), gradients in x and in scaleTril, errors.
import { describe, expect, it } from 'vitest';
import { ScaleMatvecTriL } from '../../../distributions/bijectors/scale-matvec-tril.js';
import { checkGradient } from '../../../src/tensor/autodiff.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectLdjMatchesJacobian, expectRoundTrip, randn } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

const L = [[1.5, 9, 9], [0.4, -0.8, 9], [-0.3, 0.7, 2]];   // 9s above the diagonal are ignored

describe('ScaleMatvecTriL', () => {
  const b = new ScaleMatvecTriL({ scaleTril: L }), bt = new ScaleMatvecTriL({ scaleTril: L, adjoint: true });
  const x = randn(1, [4, 3]);

  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians; adjoint; broadcast batches)', () => {
    // rtol 2e-15 (observed ≤ 1.2e-15), atol 1e-15 for entries summed with cancellation: the
    // products and triangular solves add in XLA's order, which differs in the last bits.
    const tol = { rtol: 2e-15, atol: 1e-15 };
    for (const c of tfpCases('ScaleMatvecTriL')) expectMatchesTfp(new ScaleMatvecTriL(c.params as never), c, { forward: tol, fldj: tol, inverse: tol, ildj: tol }, `ScaleMatvecTriL(adjoint ${String(c.params.adjoint)})`);
  });

  it('ignores the upper triangle; adjoint uses Lᵀ; round-trips', () => {
    expectClose(b.forward([1, 1, 1]), [1.5, -0.4, 2.4], 1e-15);
    expectClose(bt.forward([1, 1, 1]), [1.6, -0.1, 2], 1e-15);
    for (const c of [b, bt]) expectRoundTrip(c, x, 1e-13);
    const batch = new ScaleMatvecTriL({ scaleTril: [L, [[2, 0, 0], [1, 1, 0], [0, 1, 3]]] });
    expectRoundTrip(batch, randn(2, [5, 2, 3]), 1e-13);
    expect(batch.forward(randn(3, [5, 1, 3])).shape).toEqual([5, 2, 3]);
  });

  it('fldj = Σ log|Lᵢᵢ| matches the numeric Jacobian; ildj = −fldj; constant Jacobian', () => {
    const want = Math.log(1.5 * 0.8 * 2);
    for (const c of [b, bt]) {
      expectLdjMatchesJacobian(c, randn(4, [3]));
      expectClose(c.forwardLogDetJacobian(x), [want, want, want, want], 1e-15);
      expectInverseLdj(c, x);
      expect(c.isConstantJacobian).toBe(true);
    }
    expectClose(new ScaleMatvecTriL({ scaleTril: [L, [[2, 0, 0], [1, 1, 0], [0, 1, 3]]] }).forwardLogDetJacobian(randn(5, [4, 1, 3])).reshape([8]),
      [want, Math.log(6), want, Math.log(6), want, Math.log(6), want, Math.log(6)], 1e-15);
  });

  it('sums over extra event dims', () => { for (const c of [b, bt]) expectEventNdimsSum(c, randn(6, [2, 4, 3])); });

  it('gradients in x and in scaleTril', () => {
    for (const c of [b, bt]) expectBijectorGradients(c, randn(7, [2, 3]));
    const xs = randn(8, [2, 3]);
    for (const adjoint of [false, true]) {
      const mk = (t: unknown) => new ScaleMatvecTriL({ scaleTril: t as never, adjoint });
      for (const f of [(t: unknown) => sum(mk(t).forward(xs)), (t: unknown) => sum(mk(t).inverse(xs)), (t: unknown) => sum(mk(t).forwardLogDetJacobian(xs))]) {
        expect(checkGradient(f as never, tensor(L)).maxRelativeError).toBeLessThan(1e-7);
      }
    }
  });

  it('bad input, validateArgs and unknown options name the argument', () => {
    expect(() => new ScaleMatvecTriL({} as never)).toThrow(/ScaleMatvecTriL: `scaleTril` must be given/);
    expect(() => new ScaleMatvecTriL({ scaleTril: [1, 2] })).toThrow(/ScaleMatvecTriL: `scaleTril` must be a \(batch of\) square matrices/);
    expect(() => new ScaleMatvecTriL({ scaleTril: L, adjoint: 1 as never })).toThrow(TypeError);
    expect(() => new ScaleMatvecTriL({ scaleTril: [[1, 0], [1, 0]], validateArgs: true })).toThrow(/ScaleMatvecTriL: `diag\(scaleTril\)\[1\]` must be nonzero/);
    expect(() => b.forward([1, 2])).toThrow(/ScaleMatvecTriL\.forward: `x` must end in the size k = 3 of `scaleTril`/);
    expect(() => b.inverse(1)).toThrow(/ScaleMatvecTriL\.inverse: `y`/);
    expect(() => b.forwardLogDetJacobian([[1, 2]])).toThrow(/ScaleMatvecTriL\.forwardLogDetJacobian: `x`/);
    expect(() => new ScaleMatvecTriL({ scaleTril: [L, L] }).inverse(randn(9, [3, 3]))).toThrow(/ScaleMatvecTriL\.inverse: the shapes of `y batch` \[3\] and `scaleTril batch` \[2\] do not broadcast together/);
    expect(() => new ScaleMatvecTriL({ scaleTril: L, scale: 1 } as never)).toThrow(/ScaleMatvecTriL: `options` has unknown option `scale`/);
    expect(b.copy({ adjoint: true }).forward([1, 1, 1]).toArray()).toEqual(bt.forward([1, 1, 1]).toArray());
  });
});
