// Power: y = x^power. Known answers of TFP on JAX (test/fixtures/tfp-jax/bijectors-x64.json:
// powers 2, 3, 0.5, 2.5, −1, −2, −3, 1.7 at x from 1e−300 to 1e8 (odd powers on negative x too)
// and at x = 0, a batch of powers [3] against x [2, 3]), round trips, fldj against the numeric
// Jacobian, ildj = −fldj, eventNdims sums, gradients in x and in power, validateArgs.
import { describe, expect, it } from 'vitest';
import { Power } from '../../../distributions/bijectors/power.js';
import { checkGradient } from '../../../src/tensor/autodiff.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectEventNdimsSum, expectInverseLdj, expectLdjMatchesJacobian, expectRoundTrip, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

const positive = (seed: number, shape: number[]) => tensor(values(randn(seed, shape)).map((v) => Math.exp(v)) as number[]).reshape(shape);

describe('Power', () => {
  it('matches TFP on JAX (forward, inverse and both log-det-Jacobians; negative, fractional and batched powers)', () => {
    // 4e-16 relative, 2 ulp (observed: bit-equal): XLA's pow and detPow are each within an ulp
    // of x^p, and log|p| + (p − 1)·log|x| is the same expression in both.
    const tol = { rtol: 4e-16 };
    for (const c of tfpCases('Power')) expectMatchesTfp(new Power(c.params as never), c, { forward: tol, fldj: tol, inverse: tol, ildj: tol }, `Power(${JSON.stringify(c.params.power)})`);
  });

  it('round-trips: x ≥ 0 for any power, all of ℝ for odd integers', () => {
    for (const p of [2, 0.5, 2.5, -1, -2, 1.7]) expectRoundTrip(new Power({ power: p }), positive(1, [3, 4]), 1e-13);
    for (const p of [3, -3, 5]) expectRoundTrip(new Power({ power: p }), randn(2, [3, 4], 2), 1e-13);
    expectRoundTrip(new Power({ power: [0.5, 3, -2] }), tensor([[0.3, -2, 4], [2, 1.5, 0.1]]), 1e-14);
    expect(values(new Power({ power: 3 }).inverse([-8, 0, 27]))).toEqual([-2, 0, 3]);
    // Not an odd integer: negative input gives NaN, as TFP's.
    expect(Number.isNaN(new Power({ power: 2.5 }).forward(-1).item())).toBe(true);
    expect(Number.isNaN(new Power({ power: 2 }).inverse(-4).item())).toBe(true);
  });

  it('fldj = log|p| + (p − 1)·log|x| matches the numeric Jacobian; ildj = −fldj', () => {
    for (const p of [2, 0.5, -1.5]) expectLdjMatchesJacobian(new Power({ power: p }), positive(3, [5]));
    expectLdjMatchesJacobian(new Power({ power: 3 }), randn(4, [5]));
    expectClose(new Power({ power: 1 }).forwardLogDetJacobian([0, 2]), [0, 0], 0);   // 0·log 0 = 0
    expect(new Power({ power: 2 }).forwardLogDetJacobian(0).item()).toBe(-Infinity);
    for (const p of [2, -2, 0.5]) expectInverseLdj(new Power({ power: p }), positive(5, [3, 2]));
    expectInverseLdj(new Power({ power: 3 }), randn(6, [3, 2]));
  });

  it('sums over extra event dims, the power\'s batch dims included', () => {
    expectEventNdimsSum(new Power({ power: 2 }), positive(7, [3, 4]));
    expectEventNdimsSum(new Power({ power: [2, 0.5, 3, -1] }), positive(8, [3, 4]));
  });

  it('gradients in x and in power', () => {
    expectBijectorGradients(new Power({ power: 2.5 }), positive(9, [2, 3]));
    expectBijectorGradients(new Power({ power: 3 }), randn(10, [2, 3]));
    expectBijectorGradients(new Power({ power: [0.5, -2, 3] }), positive(11, [2, 3]));
    const xs = positive(12, [4]);
    for (const p of [[2.5], [-1.5], [3]]) {
      expect(checkGradient((t) => sum(new Power({ power: t }).forward(xs)), tensor(p)).maxRelativeError).toBeLessThan(1e-7);
      expect(checkGradient((t) => sum(new Power({ power: t }).inverse(xs)), tensor(p)).maxRelativeError).toBeLessThan(1e-7);
      expect(checkGradient((t) => sum(new Power({ power: t }).forwardLogDetJacobian(xs)), tensor(p)).maxRelativeError).toBeLessThan(1e-7);
      expect(checkGradient((t) => sum(new Power({ power: t }).inverseLogDetJacobian(xs)), tensor(p)).maxRelativeError).toBeLessThan(1e-7);
    }
  });

  it('validateArgs, bad input and unknown options name the argument', () => {
    expect(() => new Power({ power: [2, 0], validateArgs: true })).toThrow(/Power: `power\[1\]` must be nonzero; got 0/);
    const v = new Power({ power: 2, validateArgs: true });
    expect(() => v.forward([1, -1])).toThrow(/Power\.forward: `x\[1\]` must be non-negative \(power 2 is not an odd integer\); got -1/);
    expect(() => v.inverse(-4)).toThrow(/Power\.inverse: `y` must be non-negative/);
    expect(() => v.forwardLogDetJacobian(-4)).toThrow(/Power\.forwardLogDetJacobian: `x`/);
    expect(values(new Power({ power: 3, validateArgs: true }).inverse(-8))).toEqual([-2]);
    expect(() => new Power({ power: [3, 2], validateArgs: true }).forward([-1, -1])).toThrow(/`x\[1\]`/);
    expect(() => new Power({} as never)).toThrow(/Power: `power` must be given/);
    expect(() => new Power({ power: 'two' } as never)).toThrow(TypeError);
    expect(() => new Power({ power: 2, exponent: 3 } as never)).toThrow(/Power: `options` has unknown option `exponent`/);
    expect(new Power({ power: 2 }).copy({ power: 3 }).forward(2).item()).toBe(8);
  });
});
