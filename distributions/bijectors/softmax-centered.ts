import { fail } from '../../src/checks.js';
import { numbers } from '../../src/tensor/core.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add, exp, log, mul, neg, sub } from '../../src/tensor/ops/elementwise.js';
import { logsumexp, sum } from '../../src/tensor/ops/reduce.js';
import { concat, slice } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { lastDimShifted, vectorLength } from './vector-event.js';
import { checkSupport } from './support.js';
import { detLog } from '../../src/math/index.js';
import { brand } from '../../src/brand.js';

/** Row-sum tolerance of `inverse`'s validateArgs check (the one Dirichlet's `simplex()` support uses). */
const SUM_TOL = 1e-6;

/**
 * y = softmax([x, 0]): ℝᵏ onto the open probability simplex in ℝᵏ⁺¹ (TFP's
 * `tfb.SoftmaxCentered`), the default event-space bijector of Dirichlet. The appended 0 is the
 * pivot, so `inverse(y) = log y[:k] − log y[k]`. It acts on vectors (`forwardMinEventNdims` 1)
 * and changes the event shape [k] → [k + 1].
 *
 * log-det-Jacobian (TFP's convention, a volume on the k-dimensional simplex embedded in ℝᵏ⁺¹):
 * `½·log(k+1) + Σ log yᵢ` over all k+1 entries, computed from x as
 * `½·log(k+1) + Σ x − (k+1)·logsumexp([x, 0])` (finite for any finite x). Equivalently
 * ½·log det(JᵀJ) for the (k+1)×k Jacobian J of the forward map.
 *
 * @param options.validateArgs - check in `inverse` that y has entries in [0, 1] summing to 1
 *   (within 1e-6, as Dirichlet's support check; TFP uses 2 ulp).
 * @throws RangeError when x or y is a scalar; with `validateArgs`, from `inverse` for y off the
 *   simplex.
 * @example
 * new SoftmaxCentered().forward([Math.log(2), Math.log(3), Math.log(4)]); // → [0.2, 0.3, 0.4, 0.1]
 * new SoftmaxCentered().inverse([0.2, 0.3, 0.4, 0.1]);                   // → [log 2, log 3, log 4]
 * new SoftmaxCentered().forwardEventShape([3]);                          // → [4]
 */
export class SoftmaxCentered extends Bijector {
  readonly forwardMinEventNdims = 1;
  constructor(options?: BijectorOptions) { super('SoftmaxCentered', options); }
  protected forwardImpl(x: Tensor): Tensor {
    const z = this.padded(`${this.name}.forward`, x);
    return exp(sub(z, logsumexp(z, -1, true)));
  }
  protected inverseImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverse`;
    const n = vectorLength(fn, 'y', y);
    if (n < 1) fail('range', fn, 'y', `must have a last dimension of at least 1; got shape [${y.shape.join(', ')}]`, y);
    if (this.validateArgs) checkSimplex(fn, y, n);
    const lg = log(y);
    const lead = y.shape.slice(0, -1).map(() => 0), all = y.shape.slice(0, -1).map(() => -1);
    return sub(slice(lg, [...lead, 0], [...all, n - 1]), slice(lg, [...lead, n - 1], [...all, 1]));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const z = this.padded(`${this.name}.forwardLogDetJacobian`, x);
    const np1 = z.shape[z.ndim - 1]!;
    return add(0.5 * detLog(np1), sub(sum(x, -1), mul(np1, logsumexp(z, -1))));
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    const n = vectorLength(fn, 'y', y);
    if (this.validateArgs) checkSimplex(fn, y, n);
    return neg(add(0.5 * detLog(n), sum(log(y), -1)));
  }
  override forwardEventShape(shape: readonly number[]): number[] { return lastDimShifted(`${this.name}.forwardEventShape`, shape, 1); }
  override inverseEventShape(shape: readonly number[]): number[] { return lastDimShifted(`${this.name}.inverseEventShape`, shape, -1); }
  /** [x, 0] along the last axis. */
  private padded(fn: string, x: Tensor): Tensor {
    vectorLength(fn, 'x', x);
    return concat([x, zeros([...x.shape.slice(0, -1), 1], x.dtype === 'float32' ? 'float32' : 'float64')], -1);
  }
}


function checkSimplex(fn: string, y: Tensor, n: number): void {
  checkSupport(fn, 'y', y, (v) => v >= 0 && v <= 1, 'must be in [0, 1] (a probability)');
  const v = numbers(y);
  for (let r = 0; r < v.length; r += n) {
    let s = 0;
    for (let j = 0; j < n; j++) s += v[r + j]!;
    if (!(Math.abs(s - 1) <= SUM_TOL)) fail('range', fn, 'y', `must have rows summing to 1 along the last axis (row ${r / n} sums to ${s})`, s);
  }
}
brand(SoftmaxCentered, 'bijectors.SoftmaxCentered');   // recognised across copies of stochax (src/brand.ts)
