import { brand } from '../../src/brand.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { zerosLike } from '../../src/tensor/ops/create.js';
import { Bijector, type BijectorOptions } from './bijector.js';

/**
 * The identity map y = x (TFP's `tfb.Identity`): the default event-space bijector of
 * distributions on ℝ (Normal, StudentT, MultivariateNormal…). log-det-Jacobian 0.
 *
 * @example
 * new Identity().forward([1, 2]); // → Tensor float64 [2]: [1, 2]
 */
export class Identity extends Bijector {
  readonly forwardMinEventNdims = 0;
  override readonly isConstantJacobian = true;
  constructor(options?: BijectorOptions) { super('Identity', options); }
  protected forwardImpl(x: Tensor): Tensor { return x; }
  protected inverseImpl(y: Tensor): Tensor { return y; }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return zerosLike(x); }
}
brand(Identity, 'bijectors.Identity');   // recognised across copies of stochax (src/brand.ts)
