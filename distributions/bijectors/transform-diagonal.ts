import { fail } from '../../src/checks.js';
import { eye } from '../../src/tensor/ops/create.js';
import { where } from '../../src/tensor/ops/elementwise.js';
import { expandDims, gather, reshape } from '../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { squareSize } from './fill-triangular.js';
import { brand } from '../../src/brand.js';

export interface TransformDiagonalOptions extends BijectorOptions {
  /** The bijector applied to the diagonal, as a vector (it must act on vectors or elements). */
  readonly diagBijector: Bijector;
}

/** The diagonals [..., n] of a batch of square matrices [..., n, n] (differentiable). */
export function diagPart(fn: string, arg: string, x: Tensor): Tensor {
  const n = squareSize(fn, arg, x);
  return gather(reshape(x, [...x.shape.slice(0, -2), n * n]), tensor(Int32Array.from({ length: n }, (_, i) => i * (n + 1))), -1);
}

/** x with its diagonals replaced by `d` [..., n] (differentiable in both). */
export function setDiag(x: Tensor, d: Tensor): Tensor {
  return where(eye(x.shape[x.ndim - 1]!), expandDims(d, -1), x);
}

/**
 * Applies a bijector to the diagonal of square matrices and leaves the other entries alone
 * (TFP's `tfb.TransformDiagonal`); `forwardMinEventNdims` 2. Its Jacobian is block diagonal
 * (the diagonal bijector's on the diagonal, the identity elsewhere), so its log-det-Jacobian is
 * `diagBijector.forwardLogDetJacobian(diag(x), 1)`.
 *
 * @throws TypeError when `diagBijector` is not a Bijector, or acts on matrices or changes the
 *   event rank; RangeError when x or y is not a batch of square matrices.
 * @example
 * const b = new TransformDiagonal({ diagBijector: new Exp() });
 * b.forward([[0, 0], [3, 0]]);         // → Tensor float64 [2, 2]: [[1, 0], [3, 1]]
 * b.forwardLogDetJacobian([[1, 0], [3, 2]]); // → Tensor float64 []: 3
 */
export class TransformDiagonal extends Bijector {
  static override readonly optionNames = ['diagBijector'];
  readonly forwardMinEventNdims = 2;
  override readonly isConstantJacobian: boolean;
  readonly diagBijector: Bijector;
  constructor(options: TransformDiagonalOptions) {
    const b = options?.diagBijector;
    if (!(b instanceof Bijector)) fail('type', 'TransformDiagonal', 'diagBijector', 'must be a Bijector', b);
    if (b.forwardMinEventNdims > 1 || b.inverseMinEventNdims !== b.forwardMinEventNdims) {
      fail('type', 'TransformDiagonal', 'diagBijector', 'must act on elements or vectors without changing the event rank', b.name);
    }
    super('TransformDiagonal', options);
    this.diagBijector = b;
    this.isConstantJacobian = b.isConstantJacobian;
  }
  protected forwardImpl(x: Tensor): Tensor {
    return setDiag(x, this.diagBijector.forward(diagPart(`${this.name}.forward`, 'x', x)));
  }
  protected inverseImpl(y: Tensor): Tensor {
    return setDiag(y, this.diagBijector.inverse(diagPart(`${this.name}.inverse`, 'y', y)));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    return this.diagBijector.forwardLogDetJacobian(diagPart(`${this.name}.forwardLogDetJacobian`, 'x', x), 1);
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    return this.diagBijector.inverseLogDetJacobian(diagPart(`${this.name}.inverseLogDetJacobian`, 'y', y), 1);
  }
}
brand(TransformDiagonal, 'bijectors.TransformDiagonal');   // recognised across copies of stochax (src/brand.ts)
