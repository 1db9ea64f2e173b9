import { brand } from '../../src/brand.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { add, sub } from '../../src/tensor/ops/elementwise.js';
import { zeros } from '../../src/tensor/ops/create.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

export interface ShiftOptions extends BijectorOptions {
  /** The shift, broadcasting against x (differentiable). */
  readonly shift: TensorLike;
}

/**
 * y = x + shift (TFP's `tfb.Shift`). log-det-Jacobian 0.
 *
 * @example
 * new Shift({ shift: 2 }).forward([1, 2]); // → Tensor float64 [2]: [3, 4]
 */
export class Shift extends Bijector {
  static override readonly optionNames = ['shift'];
  readonly forwardMinEventNdims = 0;
  override readonly isConstantJacobian = true;
  readonly shift: Tensor;
  constructor(options: ShiftOptions) {
    super('Shift', options);
    this.shift = asTensor('Shift', 'shift', options?.shift);
  }
  protected forwardImpl(x: Tensor): Tensor { return add(x, this.shift); }
  protected inverseImpl(y: Tensor): Tensor { return sub(y, this.shift); }
  protected override forwardLogDetJacobianImpl(): Tensor { return zeros([]); }
}
brand(Shift, 'bijectors.Shift');   // recognised across copies of stochax (src/brand.ts)
