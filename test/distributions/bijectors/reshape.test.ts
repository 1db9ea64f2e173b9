// Reshape: the rightmost dims from eventShapeIn to eventShapeOut. Known answers of TFP on JAX
// (test/fixtures/tfp-jax/bijectors-x64.json: TFP's docstring example [1, −1] on vectors, [6] →
// [2, 3], [3, 2] → [−1], [−1, 3] → [3, 1, 2], [1, 1] → [], each with and without batch dims;
// values and shapes of forward and inverse, log-det-Jacobians 0), round trips, event shapes,
// minimal event ranks, eventNdims, gradients, and the shape checks.
import { describe, expect, it } from 'vitest';
import { Reshape } from '../../../distributions/bijectors/reshape.js';
import { tensor } from '../../../src/tensor/tensor.js';
import { expectBijectorGradients, expectClose, expectRoundTrip, fdJacobian, logAbsDet, randn, values } from './helpers.js';
import { expectMatchesTfp, tfpCases } from './tfp-fixture.js';

describe('Reshape', () => {
  const r = new Reshape({ eventShapeOut: [1, -1] }), m = new Reshape({ eventShapeOut: [2, 3], eventShapeIn: [6] });

  it('matches TFP on JAX (values and shapes; log-det-Jacobians 0)', () => {
    // Exact: the map moves entries only.
    const tol = { rtol: 0 };
    for (const c of tfpCases('Reshape')) expectMatchesTfp(new Reshape(c.params as never), c, { forward: tol, fldj: tol, inverse: tol, ildj: tol }, `Reshape(${JSON.stringify(c.params)})`);
  });

  it('round-trips, leaving the batch dims alone', () => {
    expectRoundTrip(r, randn(1, [4, 5]), 0);
    expectRoundTrip(m, randn(2, [2, 3, 6]), 0);
    expectRoundTrip(new Reshape({ eventShapeOut: [], eventShapeIn: [1, 1, 1] }), randn(3, [2, 1, 1, 1]), 0);
    expect(m.forward(randn(4, [5, 6])).shape).toEqual([5, 2, 3]);
    expect(new Reshape({ eventShapeOut: [-1], eventShapeIn: [2, -1] }).forward(randn(5, [3, 2, 4])).shape).toEqual([3, 8]);
    expect(new Reshape({ eventShapeOut: [0, 2], eventShapeIn: [-1] }).forward(tensor([])).shape).toEqual([0, 2]);
  });

  it('log-det-Jacobians are 0 (a permutation: log|det| of the numeric Jacobian is 0), broadcast to the batch', () => {
    const x = randn(6, [6]);
    expectClose(logAbsDet(fdJacobian((t) => m.forward(t).reshape([6]), x)), 0, 1e-9);
    expect(values(m.forwardLogDetJacobian(randn(7, [4, 6])))).toEqual([0, 0, 0, 0]);
    expect(values(m.inverseLogDetJacobian(randn(8, [4, 2, 3])))).toEqual([0, 0, 0, 0]);
    expect(m.forwardLogDetJacobian(randn(9, [4, 6]), 2).shape).toEqual([]);
    expect(m.inverseLogDetJacobian(randn(9, [5, 4, 2, 3]), 3).shape).toEqual([5]);
    expect(m.isConstantJacobian).toBe(true);
  });

  it('event shapes and minimal event ranks', () => {
    expect([r.forwardMinEventNdims, r.inverseMinEventNdims]).toEqual([1, 2]);
    expect(r.forwardEventShape([7, 3])).toEqual([7, 1, 3]);
    expect(r.inverseEventShape([1, 3])).toEqual([3]);
    expect(m.forwardEventShape([6])).toEqual([2, 3]);
    expect(m.inverseEventShape([9, 2, 3])).toEqual([9, 6]);
    expect(() => m.forwardEventShape([5])).toThrow(/Reshape\.forwardEventShape: `shape` must end in the event shape \[6\]/);
    expect(() => r.forwardEventShape([])).toThrow(/`shape` must have at least 1 dimensions/);
  });

  it('gradients', () => {
    expectBijectorGradients(r, randn(10, [2, 3]));
    expectBijectorGradients(m, randn(11, [2, 6]));
  });

  it('bad shapes and unknown options name the argument', () => {
    expect(() => new Reshape({} as never)).toThrow(/Reshape: `eventShapeOut` must be given/);
    expect(() => new Reshape({ eventShapeOut: 3 as never })).toThrow(/Reshape: `eventShapeOut` must be an array of integers/);
    expect(() => new Reshape({ eventShapeOut: [2, 1.5] })).toThrow(/Reshape: `eventShapeOut\[1\]` must be an integer/);
    expect(() => new Reshape({ eventShapeOut: [2, -2] })).toThrow(/Reshape: `eventShapeOut\[1\]` must be a non-negative integer or −1/);
    expect(() => new Reshape({ eventShapeOut: [-1, -1] })).toThrow(/Reshape: `eventShapeOut` must have at most one −1/);
    expect(() => new Reshape({ eventShapeOut: [2, 2], eventShapeIn: [5] })).toThrow(/Reshape: `eventShapeOut` must have as many elements as `eventShapeIn` \[5\] \(5\)/);
    expect(() => m.forward([1, 2, 3])).toThrow(/Reshape\.forward: `x` must end in the event shape \[6\]; got shape \[3\]/);
    expect(() => m.inverse([1, 2, 3])).toThrow(/Reshape\.inverse: `y` must have at least 2 dimensions/);
    expect(() => new Reshape({ eventShapeOut: [4, -1] }).forward([1, 2, 3])).toThrow(/Reshape\.forward: `x` has an event of 3 elements/);
    expect(() => m.forwardLogDetJacobian([1, 2])).toThrow(/Reshape\.forwardLogDetJacobian: `x`/);
    expect(() => new Reshape({ eventShapeOut: [1, -1], eventShapeIn: [-1], shape: [2] } as never)).toThrow(/Reshape: `options` has unknown option `shape`/);
    expect(m.copy({ eventShapeOut: [3, 2] }).forward(randn(12, [6])).shape).toEqual([3, 2]);
  });
});
