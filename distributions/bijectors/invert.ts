import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

export interface InvertOptions extends BijectorOptions {
  /** The bijector to turn around. */
  readonly bijector: Bijector;
}

/**
 * The inverse of a bijector (TFP's `tfb.Invert`): `forward` is `bijector.inverse`, `inverse` is
 * `bijector.forward`, and the log-det-Jacobians, minimal event ranks and event shapes swap
 * roles. Input checks are the wrapped bijector's (its own `validateArgs`).
 *
 * @throws TypeError when `bijector` is not a Bijector.
 * @example
 * const log = new Invert({ bijector: new Exp() });
 * log.forward(Math.E);             // → Tensor float64 []: 1
 * log.forwardLogDetJacobian(2);    // → Tensor float64 []: −log 2
 */
export class Invert extends Bijector {
  static override readonly optionNames = ['bijector'];
  /** The wrapped bijector. */
  readonly bijector: Bijector;
  readonly forwardMinEventNdims: number;
  override readonly isConstantJacobian: boolean;
  constructor(options: InvertOptions) {
    const b = options?.bijector;
    if (!(b instanceof Bijector)) fail('type', 'Invert', 'bijector', 'must be a Bijector', b);
    super('Invert', options);
    this.bijector = b;
    this.forwardMinEventNdims = b.inverseMinEventNdims;
    this.isConstantJacobian = b.isConstantJacobian;
  }
  override get inverseMinEventNdims(): number { return this.bijector.forwardMinEventNdims; }
  protected forwardImpl(x: Tensor): Tensor { return this.bijector.inverse(x); }
  protected inverseImpl(y: Tensor): Tensor { return this.bijector.forward(y); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return this.bijector.inverseLogDetJacobian(x); }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor { return this.bijector.forwardLogDetJacobian(y); }
  override forwardEventShape(shape: readonly number[]): number[] { return this.bijector.inverseEventShape(shape); }
  override inverseEventShape(shape: readonly number[]): number[] { return this.bijector.forwardEventShape(shape); }
}
brand(Invert, 'bijectors.Invert');   // recognised across copies of stochax (src/brand.ts)
