// Tanh: y = tanh(x). Known answers of TFP on JAX (test/fixtures/tfp-jax/bijectors-x64.json:
// forward and fldj at 0, ±1e-8, ±5, ±19, ±40, 400 and a random batch [2, 3]; inverse and ildj at
// y = ±(1 − 2⁻⁵³), −(1 − 1e−10), 1 − 1e−12, 1e−300, 0 and a batch), round trips, fldj against the
// numeric Jacobian and log1p(−tanh²x), ildj = −fldj, eventNdims sums, gradients, validateArgs.
import { describe, expect, it } from 'vitest';
import { Tanh } from '../../../distributions/bijectors/tanh.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectLdjMatchesJacobian, expectRoundTrip, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

describe('Tanh', () => {
  const b = new Tanh();
  const x = randn(1, [3, 4], 2);

  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians, edges near ±1)', () => {
    // 1e-15 relative: XLA's tanh is a rational approximation that is off by up to 7 ulp near ±1
    // (tanh(−19) is −0.9999999999999992 in XLA, −(1 − 2⁻⁵³) correctly rounded here); atanh and
    // softplus agree to 2 ulp.
    const tol = { rtol: 1e-15 };
    for (const c of tfpCases('Tanh')) expectMatchesTfp(b, c, { forward: tol, fldj: tol, inverse: tol, ildj: tol });
  });

  it('round-trips random inputs and moderate tails', () => {
    expectRoundTrip(b, x, 1e-12);
    expectRoundTrip(b, tensor([-1e-300, 0, 1e-8, 0.5, -3]), 1e-14);
    // 1 − |y| is resolved only to ulp(1), so inverse(forward(x)) loses digits as |x| grows.
    expectClose(b.inverse(b.forward(15)), 15, 1e-2);
    expect(b.inverse(1).item()).toBe(Infinity);
    expect(b.inverse(-1).item()).toBe(-Infinity);
  });

  it('fldj = log(1 − tanh²x) matches the numeric Jacobian, stays finite for large |x|; ildj = −fldj', () => {
    expectLdjMatchesJacobian(b, randn(2, [5], 2));
    for (const v of [-3, -0.4, 0.1, 2]) expectClose(b.forwardLogDetJacobian(v), Math.log1p(-(Math.tanh(v) ** 2)), 1e-13);
    // Where tanh²x rounds to 1 the closed form 2(log 2 − |x|) − … stays finite: ≈ 2·log 2 − 2|x|.
    expectClose(b.forwardLogDetJacobian([-400, 400]), [2 * Math.LN2 - 800, 2 * Math.LN2 - 800], 1e-15);
    expect(values(b.forwardLogDetJacobian([-1e300, 1e300]))).toEqual([-2e300, -2e300]);
    expectInverseLdj(b, x);
  });

  it('sums over extra event dims', () => { expectEventNdimsSum(b, x); });

  it('gradients', () => { expectBijectorGradients(b, randn(4, [2, 3], 1.5)); });

  it('validateArgs, bad input and unknown options name the argument', () => {
    expect(() => new Tanh({ validateArgs: true }).inverse([0.5, 1])).toThrow(/Tanh\.inverse: `y\[1\]` must be in \(−1, 1\); got 1/);
    expect(() => new Tanh({ validateArgs: true }).inverseLogDetJacobian(-1)).toThrow(RangeError);
    expect(() => b.forward('a' as never)).toThrow(/Tanh\.forward: `x`/);
    expect(() => new Tanh({ low: 1 } as never)).toThrow(/Tanh: `options` has unknown option `low`/);
    expect(b.forwardMinEventNdims).toBe(0);
  });
});
