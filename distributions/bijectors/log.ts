import { brand } from '../../src/brand.js';
import { exp, log, neg } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

/**
 * y = log(x), mapping (0, ∞) onto ℝ (TFP's `tfb.Log`, the inverse of {@link Exp}).
 * forward log-det-Jacobian: −log x; inverse log-det-Jacobian: y.
 *
 * @param options.validateArgs - check `x > 0` in `forward` and `forwardLogDetJacobian`.
 * @throws RangeError from `forward` / `forwardLogDetJacobian` with `validateArgs` for x ≤ 0
 *   (else NaN or −∞, as `log` gives).
 * @example
 * new Log().forward(Math.E); // → Tensor float64 []: 1
 * new Log().inverse(0);      // → Tensor float64 []: 1
 * new Log().forwardLogDetJacobian(2); // → Tensor float64 []: −log 2
 */
export class Log extends Bijector {
  readonly forwardMinEventNdims = 0;
  constructor(options?: BijectorOptions) { super('Log', options); }
  protected forwardImpl(x: Tensor): Tensor {
    this.check(`${this.name}.forward`, x);
    return log(x);
  }
  protected inverseImpl(y: Tensor): Tensor { return exp(y); }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    this.check(`${this.name}.forwardLogDetJacobian`, x);
    return neg(log(x));
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor { return y; }
  private check(fn: string, x: Tensor): void {
    if (this.validateArgs) checkSupport(fn, 'x', x, (v) => v > 0, 'must be positive');
  }
}
brand(Log, 'bijectors.Log');   // recognised across copies of stochax (src/brand.ts)
