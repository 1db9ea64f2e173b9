import { fail } from '../../src/checks.js';
import { numbers } from '../../src/tensor/core.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add, mul, sub } from '../../src/tensor/ops/elementwise.js';
import { cumsum } from '../../src/tensor/ops/cumulative.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { concat, slice } from '../../src/tensor/ops/shape.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { lastDimShifted, vectorLength } from './vector-event.js';
import { brand } from '../../src/brand.js';

/** Row-sum tolerance of `inverse`'s validateArgs check, relative to the row's largest |entry| (and at least absolute 1e-8). */
const SUM_TOL = 1e-8;

/**
 * y = V·x: ℝⁿ⁻¹ onto the vectors of ℝⁿ that sum to zero, through the orthonormal Helmert basis
 * vₖ = (1, …, 1, −k, 0, …, 0)/√(k(k+1)) (k ones), k = 1 … n−1 — the isometric construction of
 * Stan's `sum_to_zero_vector` (Stan 2.36) and the unconstrained space of PyMC's `ZeroSumNormal`.
 * In O(n): with wₖ = xₖ/√(k(k+1)), yⱼ = Σₖ≥ⱼ wₖ − (j−1)·wⱼ₋₁; the inverse is
 * xₖ = (y₁ + … + yₖ − k·yₖ₊₁)/√(k(k+1)). It acts on vectors (`forwardMinEventNdims` 1) and
 * changes the event shape [n−1] → [n].
 *
 * log-det-Jacobian: 0. V has orthonormal columns, so the map is an isometry onto the (n−1)-
 * dimensional subspace and preserves its volume (the convention of `SoftmaxCentered`: ½·log
 * det(VᵀV) = 0). A density on the subspace (e.g. `ZeroSumNormal`'s) is therefore the same number
 * in x's coordinates.
 *
 * @param options.validateArgs - check in `inverse` that each row of y sums to 0 (within 1e-8
 *   relative to its largest entry, at least 1).
 * @throws RangeError when x or y is a scalar, or y's last dimension is 0; with `validateArgs`,
 *   from `inverse` for a row that does not sum to 0.
 * @example
 * new SumToZero().forward([Math.SQRT2]);            // → [1, -1]
 * new SumToZero().forward([1, 2]).toNumbers();      // three entries summing to 0, of norm √5
 * new SumToZero().inverse([1, -1]);                 // → [√2]
 * new SumToZero().forwardEventShape([3]);           // → [4]
 */
export class SumToZero extends Bijector {
  readonly forwardMinEventNdims = 1;
  constructor(options?: BijectorOptions) { super('SumToZero', options); }

  protected forwardImpl(x: Tensor): Tensor {
    const m = vectorLength(`${this.name}.forward`, 'x', x);   // n − 1
    const w = mul(x, helmertScale(m, x.dtype));
    const tail = add(sub(sum(w, -1, true), cumsum(w, -1)), w);   // Σₖ≥ⱼ wₖ, j = 1 … n−1
    const edge = zeros([...x.shape.slice(0, -1), 1], floatOf(x));
    return sub(concat([tail, edge], -1), concat([edge, mul(w, counts(m, x.dtype))], -1));
  }

  protected inverseImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverse`;
    const n = vectorLength(fn, 'y', y);
    if (n < 1) fail('range', fn, 'y', `must have a last dimension of at least 1; got shape [${y.shape.join(', ')}]`, y);
    if (this.validateArgs) checkSumsToZero(fn, 'y', y, n);
    const m = n - 1;
    const lead = y.shape.slice(0, -1).map(() => 0), all = y.shape.slice(0, -1).map(() => -1);
    const prefix = slice(cumsum(y, -1), [...lead, 0], [...all, m]);
    const next = slice(y, [...lead, 1], [...all, m]);
    return mul(sub(prefix, mul(next, counts(m, y.dtype))), helmertScale(m, y.dtype));
  }

  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    vectorLength(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return zeros(x.shape.slice(0, -1), floatOf(x));
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    const n = vectorLength(fn, 'y', y);
    if (this.validateArgs) checkSumsToZero(fn, 'y', y, n);
    return zeros(y.shape.slice(0, -1), floatOf(y));
  }
  override forwardEventShape(shape: readonly number[]): number[] { return lastDimShifted(`${this.name}.forwardEventShape`, shape, 1); }
  override inverseEventShape(shape: readonly number[]): number[] { return lastDimShifted(`${this.name}.inverseEventShape`, shape, -1); }
}

const floatOf = (t: Tensor) => (t.dtype === 'float32' ? 'float32' : 'float64');

/** [1/√(1·2), 1/√(2·3), …, 1/√(m(m+1))]. */
function helmertScale(m: number, dtype: string): Tensor {
  return new Tensor(Float64Array.from({ length: m }, (_, i) => 1 / Math.sqrt((i + 1) * (i + 2))), [m], 'float64').astype(dtype === 'float32' ? 'float32' : 'float64');
}

/** [1, 2, …, m]. */
function counts(m: number, dtype: string): Tensor {
  return new Tensor(Float64Array.from({ length: m }, (_, i) => i + 1), [m], 'float64').astype(dtype === 'float32' ? 'float32' : 'float64');
}


/** Each row (last axis) sums to 0 within SUM_TOL · max(1e-0, its largest |entry|) — shared with `ZeroSumNormal`'s support. */
export function checkSumsToZero(fn: string, arg: string, t: Tensor, n: number): void {
  const v = numbers(t);
  for (let r = 0; r < v.length; r += n) {
    let s = 0, big = 1;
    for (let j = 0; j < n; j++) { s += v[r + j]!; big = Math.max(big, Math.abs(v[r + j]!)); }
    if (!(Math.abs(s) <= SUM_TOL * big)) fail('range', fn, arg, `must have rows summing to 0 along the last axis (row ${r / n} sums to ${s})`, s);
  }
}
brand(SumToZero, 'bijectors.SumToZero');   // recognised across copies of stochax (src/brand.ts)
