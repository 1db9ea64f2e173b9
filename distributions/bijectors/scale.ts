import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { abs, div, exp, log, mul } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

export interface ScaleOptions extends BijectorOptions {
  /** The multiplier (nonzero), broadcasting against x. Exactly one of `scale` and `logScale`. */
  readonly scale?: TensorLike;
  /** log of a positive multiplier. */
  readonly logScale?: TensorLike;
}

/**
 * y = scale · x (TFP's `tfb.Scale`). forward log-det-Jacobian: log|scale| per element.
 *
 * @throws TypeError unless exactly one of `scale` and `logScale` is given.
 * @example
 * new Scale({ scale: 2 }).forward([1, 2]);        // → Tensor float64 [2]: [2, 4]
 * new Scale({ logScale: 0 }).forwardLogDetJacobian(3); // → Tensor float64 []: 0
 */
export class Scale extends Bijector {
  static override readonly optionNames = ['scale', 'logScale'];
  readonly forwardMinEventNdims = 0;
  override readonly isConstantJacobian = true;
  readonly scale: Tensor | undefined;
  readonly logScale: Tensor | undefined;
  constructor(options: ScaleOptions) {
    super('Scale', options);
    const hasScale = options?.scale !== undefined, hasLog = options?.logScale !== undefined;
    if (hasScale === hasLog) fail('type', 'Scale', 'scale', 'or `logScale` must be given, but not both', options);
    this.scale = hasScale ? asTensor('Scale', 'scale', options.scale) : undefined;
    this.logScale = hasLog ? asTensor('Scale', 'logScale', options.logScale) : undefined;
    if (this.validateArgs && this.scale) checkSupport('Scale', 'scale', this.scale, (v) => v !== 0, 'must be nonzero');
  }
  private factor(): Tensor { return this.scale ?? exp(this.logScale!); }
  protected forwardImpl(x: Tensor): Tensor { return mul(x, this.factor()); }
  protected inverseImpl(y: Tensor): Tensor { return div(y, this.factor()); }
  protected override forwardLogDetJacobianImpl(): Tensor { return this.logScale ?? log(abs(this.scale!)); }
}
brand(Scale, 'bijectors.Scale');   // recognised across copies of stochax (src/brand.ts)
