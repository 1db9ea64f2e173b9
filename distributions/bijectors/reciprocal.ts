import { brand } from '../../src/brand.js';
import { abs, div, log, mul } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

/**
 * y = 1/x element-wise, a bijection of ℝ∖{0} (and of (0, ∞)) onto itself (TFP's
 * `tfb.Reciprocal`); `Chain([Reciprocal, Softplus])` is InverseGamma's event-space bijector.
 * It is its own inverse; log-det-Jacobian −2·log|x| in both directions (at the input).
 *
 * @param options.validateArgs - check that inputs are nonzero.
 * @throws RangeError with `validateArgs` for a zero input (else ±∞ and an infinite log-det).
 * @example
 * new Reciprocal().forward([1, 2, 4]);          // → Tensor float64 [3]: [1, 0.5, 0.25]
 * new Reciprocal().forwardLogDetJacobian(2);    // → Tensor float64 []: −2·log 2
 */
export class Reciprocal extends Bijector {
  readonly forwardMinEventNdims = 0;
  constructor(options?: BijectorOptions) { super('Reciprocal', options); }
  protected forwardImpl(x: Tensor): Tensor { return this.recip(`${this.name}.forward`, 'x', x); }
  protected inverseImpl(y: Tensor): Tensor { return this.recip(`${this.name}.inverse`, 'y', y); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor { return this.ldj(`${this.name}.forwardLogDetJacobian`, 'x', x); }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor { return this.ldj(`${this.name}.inverseLogDetJacobian`, 'y', y); }
  private recip(fn: string, arg: string, t: Tensor): Tensor {
    if (this.validateArgs) checkSupport(fn, arg, t, (v) => v !== 0, 'must be nonzero');
    return div(1, t);
  }
  private ldj(fn: string, arg: string, t: Tensor): Tensor {
    if (this.validateArgs) checkSupport(fn, arg, t, (v) => v !== 0, 'must be nonzero');
    return mul(-2, log(abs(t)));
  }
}
brand(Reciprocal, 'bijectors.Reciprocal');   // recognised across copies of stochax (src/brand.ts)
