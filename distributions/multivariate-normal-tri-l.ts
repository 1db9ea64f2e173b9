import { fail } from '../src/checks.js';
import { numbers, type TensorLike } from '../src/tensor/core.js';
import { eye } from '../src/tensor/ops/create.js';
import { mul, sqrt, square } from '../src/tensor/ops/elementwise.js';
import { logDet, triangularSolve } from '../src/tensor/ops/linalg.js';
import { matmul } from '../src/tensor/ops/matmul.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims, squeeze, transpose } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { FillScaleTriL } from './bijectors/fill-scale-tril.js';
import type { DistributionOptions } from './distribution.js';
import type { Constraint } from './internal/constraints.js';
import { real } from './internal/constraints.js';
import { MultivariateNormalLinearOperator, scalarLike } from './internal/mvn-linear-operator.js';
import { brand } from '../src/brand.js';

export interface MultivariateNormalTriLOptions extends DistributionOptions {
  /** Mean μ, shape [..., k] (default 0). At least one of `loc` and `scaleTril` is required. */
  readonly loc?: TensorLike;
  /** Lower-triangular L, shape [..., k, k], covariance L·Lᵀ (default the identity). The upper triangle is ignored. */
  readonly scaleTril?: TensorLike;
}

/**
 * Each matrix lower-triangular with a positive diagonal: what `validateArgs` checks on
 * `scaleTril` (here and in `MultivariateStudentTLinearOperator`); its bijector is TFP's
 * `FillScaleTriL` (diagonal softplus + 2⁻²³).
 * @example
 * lowerTriangularPositiveDiagonal.check('MultivariateNormalTriL', 'scaleTril', tensor([[1, 0], [2, 3]])); // passes
 */
export const lowerTriangularPositiveDiagonal: Constraint = {
  what: 'must be lower-triangular with a positive diagonal',
  bijector: () => new FillScaleTriL({ diagShift: 2 ** -23 }),
  check(fn, arg, t) {
    const k = t.shape[t.ndim - 1]!, v = numbers(t);
    for (let o = 0, m = 0; o < v.length; o += k * k, m++) {
      for (let i = 0; i < k; i++) {
        const d = v[o + i * k + i]!;
        if (!(d > 0)) fail('range', fn, arg, `must have a positive diagonal (entry [${i}, ${i}] of matrix ${m} is ${d})`, d);
        for (let j = i + 1; j < k; j++) {
          const u = v[o + i * k + j]!;
          if (u !== 0) fail('range', fn, arg, `must be lower-triangular (entry [${i}, ${j}] of matrix ${m} is ${u})`, u);
        }
      }
    }
  },
};

/**
 * The multivariate normal with a Cholesky-factor scale (TFP's `tfd.MultivariateNormalTriL`):
 * density exp(−½‖L⁻¹(x − μ)‖²) / ((2π)^(k/2)·|det L|) on ℝᵏ, covariance Σ = L·Lᵀ. Batch
 * shape: the broadcast of `loc`'s [..., k] and `scaleTril`'s [..., k, k] leading dimensions.
 *
 * Only the lower triangle of `scaleTril` is read (TFP's `LinearOperatorLowerTriangular`); the
 * diagonal may have any non-zero sign without `validateArgs` (log|det L| is used).
 *
 * Sampling (TFP on JAX): the seed is used as given, `samplers.normal([n, k, ...batch])` with the
 * event axis then moved last (TFP's `Sample` transpose), and y = μ + L·z. Fully
 * reparameterized; `logProb` is differentiable in the value, `loc` and `scaleTril` (composed
 * from `triangularSolve` and `logDet`).
 *
 * @throws TypeError when neither `loc` nor `scaleTril` is given; RangeError when `scaleTril` is
 *   not square, when `loc`'s event size differs from `scaleTril`'s (both shapes are named), when
 *   batch shapes do not broadcast, or with `validateArgs` when `scaleTril` is not
 *   lower-triangular with a positive diagonal.
 * @example
 * const d = new MultivariateNormalTriL({ loc: [1, 2], scaleTril: [[1, 0], [0.5, 2]] });
 * d.covariance();               // → [[1, 0.5], [0.5, 4.25]]
 * d.logProb([0, 0]);            // → Tensor float64 []
 * d.sample(3, { seed: 42 });    // → Tensor float64 [3, 2]
 */
export class MultivariateNormalTriL extends MultivariateNormalLinearOperator {
  static override readonly parameterProperties = {
    loc: { eventNdims: 1, constraint: real },
    scaleTril: { eventNdims: 2, constraint: lowerTriangularPositiveDiagonal },
  };
  /** `scaleTril` as given (`undefined`: the identity). */
  readonly scaleTril: Tensor | undefined;
  /** The lower triangle of `scaleTril` (or the identity) that every method uses. */
  private readonly tril: Tensor;
  private readonly k: number;

  constructor(options: MultivariateNormalTriLOptions) {
    super('MultivariateNormalTriL', options);
    this.scaleTril = this.params.scaleTril;
    ({ k: this.k, tril: this.tril } = trilScale(this.fn, this.loc, this.scaleTril, this.dtype));
    this.checkLocEventSize('scaleTril', this.tril.shape);
  }

  get eventSize(): number { return this.k; }
  get isDiagonal(): boolean { return this.scaleTril === undefined; }

  scaleMatvec(z: Tensor): Tensor { return squeeze(matmul(this.tril, expandDims(z, -1)), -1); }
  scaleSolve(v: Tensor): Tensor { return squeeze(triangularSolve(this.tril, expandDims(v, -1)), -1); }
  scaleSolveMatrix(m: Tensor): Tensor { return triangularSolve(this.tril, m); }
  scaleLogAbsDet(): Tensor { return mul(scalarLike(0.5, this.tril), logDet(this.tril)); }
  scaleDense(): Tensor { return this.tril; }
  scaleDiagPart(): Tensor { return sum(mul(this.tril, eye(this.k, this.k, 0, this.tril.dtype)), -1); }

  protected override covarianceImpl(): Tensor {
    const cov = matmul(this.tril, transpose(this.tril, swapLast(this.tril.ndim)));
    return broadcastTo(cov, [...this.batchShape, this.k, this.k]);
  }
  protected override varianceImpl(): Tensor {
    return broadcastTo(sum(square(this.tril), -1), [...this.batchShape, this.k]);
  }
  protected override stddevImpl(): Tensor { return sqrt(this.varianceImpl()); }
}

/** The axis permutation that swaps the last two of `nd` axes. */
function swapLast(nd: number): number[] {
  return [...Array.from({ length: nd - 2 }, (_, i) => i), nd - 1, nd - 2];
}

/**
 * The event size k and the lower-triangular scale of a `{ loc, scaleTril }` distribution (the
 * identity when `scaleTril` is omitted, k then from `loc`); one of the two must be given.
 */
export function trilScale(fn: string, loc: Tensor | undefined, s: Tensor | undefined, dtype: 'float32' | 'float64'): { k: number; tril: Tensor } {
  if (s === undefined && loc === undefined) fail('type', fn, 'loc', 'or `scaleTril` must be given', undefined);
  if (s === undefined) {
    const k = loc!.shape[loc!.ndim - 1]!;
    return { k, tril: eye(k, k, 0, dtype) };
  }
  const k = s.shape[s.ndim - 1]!;
  if (s.shape[s.ndim - 2] !== k) fail('range', fn, 'scaleTril', `must be square in its last two dimensions; shape [${s.shape.join(', ')}]`, s.shape);
  return { k, tril: lowerPart(s, k) };
}

/**
 * `s` with its strict upper triangle zeroed (multiplied by a 0/1 mask, so gradients there are 0); `s` itself when already lower-triangular.
 * @example
 * lowerPart(tensor([[1, 5], [2, 3]]), 2).toArray(); // [[1, 0], [2, 3]]
 */
export function lowerPart(s: Tensor, k: number): Tensor {
  const v = numbers(s);
  let upper = false;
  for (let o = 0; o < v.length && !upper; o += k * k) {
    for (let i = 0; i < k && !upper; i++) for (let j = i + 1; j < k; j++) if (v[o + i * k + j] !== 0) { upper = true; break; }
  }
  if (!upper) return s;
  const mask = s.dtype === 'float32' ? new Float32Array(k * k) : new Float64Array(k * k);
  for (let i = 0; i < k; i++) for (let j = 0; j <= i; j++) mask[i * k + j] = 1;
  return mul(s, new Tensor(mask, [k, k], s.dtype));
}
brand(MultivariateNormalTriL, 'MultivariateNormalTriL');   // recognised across copies of stochax (src/brand.ts)
