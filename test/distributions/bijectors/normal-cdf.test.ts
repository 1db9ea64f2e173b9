// NormalCDF: y = Φ(x). Known answers of TFP on JAX (test/fixtures/tfp-jax/bijectors-x64.json:
// forward and fldj from x = −38 to 40, inverse and ildj at y = 1e−300, 1e−200, 1e−20, the
// switch points 0.02425 / 0.97575 of TFP's ndtri, 1 − 1e−10, 1 − 2⁻⁵³, and random batches),
// round trips through both tails, fldj against the numeric Jacobian, ildj = −fldj, eventNdims
// sums, gradients, the inverse sampling N(0, 1) from uniforms, validateArgs.
import { describe, expect, it } from 'vitest';
import { NormalCDF } from '../../../distributions/bijectors/normal-cdf.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectLdjMatchesJacobian, expectRoundTrip, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

describe('NormalCDF', () => {
  const b = new NormalCDF();
  const x = randn(1, [3, 4], 2);

  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians, both tails)', () => {
    // 1e-15 relative (observed ≤ 4.4e-16: Φ and Φ⁻¹ are computed differently, erfcx and Newton
    // steps here, Cephes' polynomials in JAX). atol 1e-300: TFP's ndtr flushes Φ(−38) ≈ 2.9e−316
    // (a subnormal) to 0, where this one keeps it.
    const tol = { rtol: 1e-15, atol: 1e-300 };
    for (const c of tfpCases('NormalCDF')) expectMatchesTfp(b, c, { forward: tol, fldj: tol, inverse: tol, ildj: tol });
    expectClose(b.forward(-38).item() as number / 2.885428351e-316, 1, 1e-8);
  });

  it('round-trips random inputs and the tails', () => {
    expectRoundTrip(b, x, 1e-12);
    // Lower tail: Φ(x) keeps full relative precision, so x comes back to a few ulp down to −37.
    expectRoundTrip(b, tensor([-37, -30, -20, -8, -1, 0, 1, 3]), 1e-14);
    // Upper tail: 1 − Φ(x) is resolved only to ulp(1); Φ rounds to 1 above x ≈ 8.3, as TFP's.
    expectClose(b.inverse(b.forward(6)), 6, 1e-4);
    expect(b.forward(9).item()).toBe(1);
    expect(values(b.inverse([0, 1]))).toEqual([-Infinity, Infinity]);
  });

  it('fldj = log φ(x) matches the numeric Jacobian; ildj = −fldj', () => {
    expectLdjMatchesJacobian(b, randn(2, [5], 2));
    expectClose(b.forwardLogDetJacobian([0, 1]), [-0.5 * Math.log(2 * Math.PI), -0.5 * Math.log(2 * Math.PI) - 0.5], 1e-15);
    expectInverseLdj(b, x);
    expect(values(b.inverseLogDetJacobian([0, 1]))).toEqual([Infinity, Infinity]);
  });

  it('sums over extra event dims', () => { expectEventNdimsSum(b, x); });

  it('gradients (forward, inverse and both log-det-Jacobians)', () => {
    expectBijectorGradients(b, randn(4, [2, 3]));
    // In the tails y is too close to 0 or 1 for central differences in y with step 1e-6.
    expectBijectorGradients(b, tensor([-6, -3, 4]), { skipInverse: true });
  });

  it('validateArgs, bad input and unknown options name the argument', () => {
    const v = new NormalCDF({ validateArgs: true });
    expect(() => v.inverse([0.5, 1.5])).toThrow(/NormalCDF\.inverse: `y\[1\]` must be in \[0, 1\]; got 1\.5/);
    expect(() => v.inverse(-0.1)).toThrow(RangeError);
    expect(values(v.inverse([0, 1]))).toEqual([-Infinity, Infinity]);
    expect(() => b.inverse({} as never)).toThrow(/NormalCDF\.inverse: `y`/);
    expect(() => new NormalCDF({ loc: 0 } as never)).toThrow(/NormalCDF: `options` has unknown option `loc`/);
  });
});
