import { brand } from '../../src/brand.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { add, div, logSigmoid, mul, sub } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fusedMap } from '../internal/fused.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';
import { detExp, detExpm1, detLog, detLog1p } from '../../src/math/index.js';

export interface SoftplusOptions extends BijectorOptions {
  /** h > 0: y = h·log(1 + exp(x/h)) (default 1; smaller is closer to relu). */
  readonly hingeSoftness?: TensorLike;
  /** Lower bound of the range (default 0). */
  readonly low?: TensorLike;
}

/** log(expm1(y)) without overflow or cancellation (the inverse of softplus), and its derivative 1/(1 − e^(−y)). */
function softplusInverse(y: number): number {
  return y > 30 ? y + detLog(-detExpm1(-y)) : detLog(detExpm1(y));
}

/**
 * y = h·softplus(x/h) + low = h·log(1 + e^(x/h)) + low, mapping ℝ onto (low, ∞) (TFP's
 * `tfb.Softplus`); the default event-space bijector of Gamma, Exponential, HalfNormal.
 * forward log-det-Jacobian: log σ(x/h) = −softplus(−x/h).
 *
 * @throws RangeError from `inverse` with `validateArgs` for y ≤ low.
 * @example
 * new Softplus().forward(0);              // → Tensor float64 []: log 2
 * new Softplus({ low: 1e-5 }).inverse(1); // → Tensor float64 []
 */
export class Softplus extends Bijector {
  static override readonly optionNames = ['hingeSoftness', 'low'];
  readonly forwardMinEventNdims = 0;
  readonly hingeSoftness: Tensor | undefined;
  readonly low: Tensor | undefined;
  constructor(options?: SoftplusOptions) {
    super('Softplus', options);
    this.hingeSoftness = options?.hingeSoftness === undefined ? undefined : asTensor('Softplus', 'hingeSoftness', options.hingeSoftness);
    this.low = options?.low === undefined ? undefined : asTensor('Softplus', 'low', options.low);
    if (this.validateArgs && this.hingeSoftness) checkSupport('Softplus', 'hingeSoftness', this.hingeSoftness, (v) => v > 0, 'must be positive');
  }
  protected forwardImpl(x: Tensor): Tensor {
    const h = this.hingeSoftness;
    const y = h === undefined ? softplusOf(x) : mul(h, softplusOf(div(x, h)));
    return this.low === undefined ? y : add(y, this.low);
  }
  protected inverseImpl(y: Tensor): Tensor {
    const z = this.low === undefined ? y : sub(y, this.low);
    if (this.validateArgs) checkSupport(`${this.name}.inverse`, 'y', z, (v) => v > 0, 'must be above `low`');
    const h = this.hingeSoftness;
    return h === undefined ? invSoftplusOf(z) : mul(h, invSoftplusOf(div(z, h)));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const h = this.hingeSoftness;
    return logSigmoid(h === undefined ? x : div(x, h));
  }
}
brand(Softplus, 'bijectors.Softplus');   // recognised across copies of stochax (src/brand.ts)

// The scalar kernels live at module level (not as arrows per call) so a compiled program can name them to a worker (src/compile/portable.ts).
const softplusForward = (v: number): number => (v > 0 ? v + detLog1p(detExp(-v)) : detLog1p(detExp(v)));
const softplusForwardPartials = (out: Float64Array, v: number): void => { out[0] = v > 0 ? 1 / (1 + detExp(-v)) : detExp(v) / (1 + detExp(v)); };
const softplusInversePartials = (out: Float64Array, v: number): void => { out[0] = -1 / detExpm1(-v); };

function softplusOf(x: Tensor): Tensor {
  return fusedMap('Softplus.forward', [['x', x]], softplusForward, softplusForwardPartials);
}

function invSoftplusOf(y: Tensor): Tensor {
  return fusedMap('Softplus.inverse', [['y', y]], softplusInverse, softplusInversePartials);
}
