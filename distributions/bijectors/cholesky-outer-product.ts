import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { detLog } from '../../src/math/index.js';
import { add, log, mul, neg, where } from '../../src/tensor/ops/elementwise.js';
import { cholesky } from '../../src/tensor/ops/linalg.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { reshape, transpose } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { squareSize } from './fill-triangular.js';
import { checkSupport } from './support.js';
import { diagPart } from './transform-diagonal.js';

/** The n×n lower-triangle mask (1 on and below the diagonal), a constant of the program. */
export function lowerMask(n: number): Tensor {
  return reshape(tensor(Float64Array.from({ length: n * n }, (_, p) => (p % n <= Math.floor(p / n) ? 1 : 0))), [n, n]);
}

/** The lower triangle of each matrix of x (the entries above the diagonal set to 0; differentiable). */
export function lowerPart(x: Tensor, n: number): Tensor { return where(lowerMask(n), x, 0); }

/** x with its last two axes swapped. */
export function matrixTranspose(x: Tensor): Tensor {
  const axes = x.shape.map((_, i) => i);
  axes[x.ndim - 2] = x.ndim - 1; axes[x.ndim - 1] = x.ndim - 2;
  return transpose(x, axes);
}

/**
 * y = L·Lᵀ for lower-triangular L with a positive diagonal: Cholesky factors [..., n, n] onto
 * symmetric positive-definite matrices [..., n, n] (TFP's `tfb.CholeskyOuterProduct`, with its
 * default `choleskyFn`, the Cholesky factorization). Entries of x above the diagonal are
 * ignored (treated as 0); `inverse` is `cholesky(y)`. `forwardMinEventNdims` 2.
 *
 * log-det-Jacobian (TFP's convention: the Jacobian of the n(n+1)/2 lower entries of L onto the
 * n(n+1)/2 lower entries of the symmetric y, which is triangular in row-major order with
 * diagonal 2·Lⱼⱼ):  fldj = n·log 2 + Σⱼ (n − j)·log Lⱼⱼ (j = 0…n−1), and ildj = −fldj(cholesky(y)).
 *
 * @throws RangeError when x or y is not a batch of square matrices, from `inverse` when y is not
 *   positive definite, and with `validateArgs` from `forward` for a non-positive diagonal entry of x.
 * @example
 * new CholeskyOuterProduct().forward([[1, 0], [2, 1]]);  // → Tensor float64 [2, 2]: [[1, 2], [2, 5]]
 * new CholeskyOuterProduct().inverse([[1, 2], [2, 5]]);  // → Tensor float64 [2, 2]: [[1, 0], [2, 1]]
 * new CholeskyOuterProduct().forwardLogDetJacobian([[1, 0], [2, 1]]); // → Tensor float64 []: 2·log 2
 */
export class CholeskyOuterProduct extends Bijector {
  readonly forwardMinEventNdims = 2;
  constructor(options?: BijectorOptions) { super('CholeskyOuterProduct', options); }
  protected forwardImpl(x: Tensor): Tensor {
    const n = this.factorSize(`${this.name}.forward`, x);
    const l = lowerPart(x, n);
    return matmul(l, matrixTranspose(l));
  }
  protected inverseImpl(y: Tensor): Tensor { return this.factorOf(`${this.name}.inverse`, y); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return this.ldjOf(`${this.name}.forwardLogDetJacobian`, x); }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    return neg(this.ldjOf(fn, this.factorOf(fn, y)));
  }
  override forwardEventShape(shape: readonly number[]): number[] { return squareEvent(`${this.name}.forwardEventShape`, shape); }
  override inverseEventShape(shape: readonly number[]): number[] { return squareEvent(`${this.name}.inverseEventShape`, shape); }

  /** n·log 2 + Σⱼ (n − j)·log Lⱼⱼ, one value per matrix. */
  private ldjOf(fn: string, x: Tensor): Tensor {
    const n = this.factorSize(fn, x);
    const w = tensor(Float64Array.from({ length: n }, (_, j) => n - j));
    return add(n * detLog(2), sum(mul(log(diagPart(fn, 'x', x)), w), -1));
  }
  private factorSize(fn: string, x: Tensor): number {
    const n = squareSize(fn, 'x', x);
    if (this.validateArgs) checkSupport(fn, 'diag(x)', diagPart(fn, 'x', x), (v) => v > 0, 'must be positive (x must be a Cholesky factor)');
    return n;
  }
  private factorOf(fn: string, y: Tensor): Tensor {
    squareSize(fn, 'y', y);
    try {
      return cholesky(y);
    } catch (e) {
      if (e instanceof RangeError) fail('range', fn, 'y', `must be symmetric positive definite (${e.message})`, y);
      throw e;
    }
  }
}
brand(CholeskyOuterProduct, 'bijectors.CholeskyOuterProduct');   // recognised across copies of stochax (src/brand.ts)

function squareEvent(fn: string, shape: readonly number[]): number[] {
  const n = shape[shape.length - 1];
  if (shape.length < 2 || shape[shape.length - 2] !== n) fail('range', fn, 'shape', 'must end in a square [n, n]', shape);
  return [...shape];
}
