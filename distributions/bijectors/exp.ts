import { brand } from '../../src/brand.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { exp, log } from '../../src/tensor/ops/elementwise.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

/**
 * y = exp(x), mapping ℝ onto (0, ∞) (TFP's `tfb.Exp`); the default event-space bijector of
 * LogNormal. forward log-det-Jacobian: x.
 *
 * @throws RangeError from `inverse` with `validateArgs` for y ≤ 0 (else NaN/−∞ as `log` gives).
 * @example
 * new Exp().forward(0);  // → Tensor float64 []: 1
 * new Exp().inverse(1);  // → Tensor float64 []: 0
 */
export class Exp extends Bijector {
  readonly forwardMinEventNdims = 0;
  constructor(options?: BijectorOptions) { super('Exp', options); }
  protected forwardImpl(x: Tensor): Tensor { return exp(x); }
  protected inverseImpl(y: Tensor): Tensor {
    if (this.validateArgs) checkSupport(`${this.name}.inverse`, 'y', y, (v) => v > 0, 'must be positive');
    return log(y);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return x; }
}
brand(Exp, 'bijectors.Exp');   // recognised across copies of stochax (src/brand.ts)
