import { brand } from '../../src/brand.js';
import { checkBoolean, fail } from '../../src/checks.js';
import { broadcastShapes } from '../../src/tensor/broadcast.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { abs, log, neg } from '../../src/tensor/ops/elementwise.js';
import { triangularSolve } from '../../src/tensor/ops/linalg.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { expandDims, squeeze } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { lowerPart, matrixTranspose } from './cholesky-outer-product.js';
import { checkSupport } from './support.js';
import { diagPart } from './transform-diagonal.js';

export interface ScaleMatvecTriLOptions extends BijectorOptions {
  /**
   * The lower-triangular scale [..., k, k] (nonsingular: no zero on the diagonal); entries above
   * the diagonal are ignored. Its batch dims broadcast against x's.
   */
  readonly scaleTril: TensorLike;
  /** Use the transpose of the (lower-triangular) scale, an upper-triangular map (default false). */
  readonly adjoint?: boolean;
}

/**
 * y = L·x for a lower-triangular L = `scaleTril` (TFP's `tfb.ScaleMatvecTriL`), or y = Lᵀ·x with
 * `adjoint`. It acts on vectors [..., k] (`forwardMinEventNdims` 1); `inverse` solves the
 * triangular system. The Jacobian is constant: fldj = log|det L| = Σᵢ log|Lᵢᵢ|, one value per
 * matrix of `scaleTril` (broadcast against x's batch).
 *
 * @throws TypeError when `scaleTril` is missing or `adjoint` is not a boolean; RangeError when
 *   `scaleTril` is not a (batch of) square matrices, x or y does not end in k, and with
 *   `validateArgs` for a zero on the diagonal of `scaleTril`.
 * @example
 * const b = new ScaleMatvecTriL({ scaleTril: [[2, 0], [1, 1]] });
 * b.forward([1, 1]);                   // → Tensor float64 [2]: [2, 2]
 * b.inverse([2, 2]);                   // → Tensor float64 [2]: [1, 1]
 * b.forwardLogDetJacobian([0, 0]);     // → Tensor float64 []: log 2
 * new ScaleMatvecTriL({ scaleTril: [[2, 0], [1, 1]], adjoint: true }).forward([1, 1]); // → [3, 1]
 */
export class ScaleMatvecTriL extends Bijector {
  static override readonly optionNames = ['scaleTril', 'adjoint'];
  readonly forwardMinEventNdims = 1;
  override readonly isConstantJacobian = true;
  readonly scaleTril: Tensor;
  readonly adjoint: boolean;
  constructor(options: ScaleMatvecTriLOptions) {
    super('ScaleMatvecTriL', options);
    if (options?.scaleTril === undefined) fail('type', 'ScaleMatvecTriL', 'scaleTril', 'must be given', undefined);
    this.scaleTril = asTensor('ScaleMatvecTriL', 'scaleTril', options.scaleTril);
    const n = this.scaleTril.shape[this.scaleTril.ndim - 1];
    if (this.scaleTril.ndim < 2 || this.scaleTril.shape[this.scaleTril.ndim - 2] !== n) {
      fail('range', 'ScaleMatvecTriL', 'scaleTril', `must be a (batch of) square matrices [..., k, k]; got shape [${this.scaleTril.shape.join(', ')}]`, this.scaleTril);
    }
    this.adjoint = options.adjoint === undefined ? false : checkBoolean('ScaleMatvecTriL', 'adjoint', options.adjoint);
    if (this.validateArgs) checkSupport('ScaleMatvecTriL', 'diag(scaleTril)', diagPart('ScaleMatvecTriL', 'scaleTril', this.scaleTril), (v) => v !== 0, 'must be nonzero (scaleTril must be nonsingular)');
  }
  private get k(): number { return this.scaleTril.shape[this.scaleTril.ndim - 1]!; }
  protected forwardImpl(x: Tensor): Tensor {
    this.checkVector(`${this.name}.forward`, 'x', x);
    const l = lowerPart(this.scaleTril, this.k);
    return squeeze(matmul(this.adjoint ? matrixTranspose(l) : l, expandDims(x, -1)), -1);
  }
  protected inverseImpl(y: Tensor): Tensor {
    this.checkVector(`${this.name}.inverse`, 'y', y);
    return squeeze(triangularSolve(this.scaleTril, expandDims(y, -1), { lower: true, transpose: this.adjoint }), -1);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    this.checkVector(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return this.logAbsDet();
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    this.checkVector(`${this.name}.inverseLogDetJacobian`, 'y', y);
    return neg(this.logAbsDet());
  }
  /** Σᵢ log|Lᵢᵢ| per matrix of `scaleTril`. */
  private logAbsDet(): Tensor { return sum(log(abs(diagPart(this.name, 'scaleTril', this.scaleTril))), -1); }
  private checkVector(fn: string, arg: string, t: Tensor): void {
    if (t.ndim < 1 || t.shape[t.ndim - 1] !== this.k) fail('range', fn, arg, `must end in the size k = ${this.k} of \`scaleTril\`; got shape [${t.shape.join(', ')}]`, t.ndim === 0 ? t.item() : t);
    broadcastShapes(fn, [[`${arg} batch`, t.shape.slice(0, -1)], ['scaleTril batch', this.scaleTril.shape.slice(0, -2)]]);
  }
}
brand(ScaleMatvecTriL, 'bijectors.ScaleMatvecTriL');   // recognised across copies of stochax (src/brand.ts)
