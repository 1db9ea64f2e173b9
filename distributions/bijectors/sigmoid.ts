import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { add, log, mul, sub, sigmoid, softplus, neg } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

export interface SigmoidOptions extends BijectorOptions {
  /** Lower bound of the range (default 0); give both bounds or neither. */
  readonly low?: TensorLike;
  /** Upper bound of the range (default 1). */
  readonly high?: TensorLike;
}

/**
 * y = low + (high − low)·σ(x), mapping ℝ onto (low, high) (TFP's `tfb.Sigmoid`); the default
 * event-space bijector of Beta (0, 1), Uniform and TruncatedNormal (their bounds).
 * forward log-det-Jacobian: −softplus(−x) − softplus(x) + log(high − low).
 *
 * @throws TypeError when only one bound is given; RangeError from `inverse` with
 *   `validateArgs` for y outside (low, high).
 * @example
 * new Sigmoid().forward(0);                    // → Tensor float64 []: 0.5
 * new Sigmoid({ low: -1, high: 1 }).inverse(0); // → Tensor float64 []: 0
 */
export class Sigmoid extends Bijector {
  static override readonly optionNames = ['low', 'high'];
  readonly forwardMinEventNdims = 0;
  readonly low: Tensor | undefined;
  readonly high: Tensor | undefined;
  constructor(options?: SigmoidOptions) {
    super('Sigmoid', options);
    if ((options?.low === undefined) !== (options?.high === undefined)) {
      fail('type', 'Sigmoid', options?.low === undefined ? 'low' : 'high', 'must be given together with the other bound', undefined);
    }
    this.low = options?.low === undefined ? undefined : asTensor('Sigmoid', 'low', options.low);
    this.high = options?.high === undefined ? undefined : asTensor('Sigmoid', 'high', options.high);
    if (this.validateArgs && this.low) checkSupport('Sigmoid', 'high', sub(this.high!, this.low), (v) => v > 0, 'must exceed `low`');
  }
  protected forwardImpl(x: Tensor): Tensor {
    const s = sigmoid(x);
    return this.low === undefined ? s : add(this.low, mul(sub(this.high!, this.low), s));
  }
  protected inverseImpl(y: Tensor): Tensor {
    if (this.low === undefined) {
      if (this.validateArgs) checkSupport(`${this.name}.inverse`, 'y', y, (v) => v > 0 && v < 1, 'must be in (0, 1)');
      return sub(log(y), log(sub(1, y)));
    }
    const lo = sub(y, this.low), hi = sub(this.high!, y);
    if (this.validateArgs) {
      checkSupport(`${this.name}.inverse`, 'y', lo, (v) => v > 0, 'must be above `low`');
      checkSupport(`${this.name}.inverse`, 'y', hi, (v) => v > 0, 'must be below `high`');
    }
    return sub(log(lo), log(hi));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const base = sub(neg(softplus(neg(x))), softplus(x));
    return this.low === undefined ? base : add(base, log(sub(this.high!, this.low)));
  }
}
brand(Sigmoid, 'bijectors.Sigmoid');   // recognised across copies of stochax (src/brand.ts)
