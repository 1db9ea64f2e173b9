import { brand } from '../../src/brand.js';
import { add, div, exp, log, mul, square } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { AMPLITUDE_LENGTH_SCALE, PositiveSemidefiniteKernel, type AmplitudeLengthScaleOptions } from './positive-semidefinite-kernel.js';

export type ExponentiatedQuadraticOptions = AmplitudeLengthScaleOptions;

/**
 * The exponentiated quadratic (squared exponential, RBF) kernel (TFP's
 * `tfp.math.psd_kernels.ExponentiatedQuadratic`):
 *
 *     k(x, y) = a² · exp(−‖x − y‖² / (2ℓ²))
 *
 * with amplitude a > 0 and length scale ℓ > 0 (each 1 when omitted; tensors broadcast as the
 * kernel's batch shape). Computed as TFP does: exp(−½‖x − y‖²·(1/ℓ)² + 2·log a). Infinitely
 * differentiable sample paths.
 *
 * @throws TypeError for a non-numeric parameter or an unknown option; RangeError, with
 *   `validateArgs`, for a parameter that is not positive.
 * @example
 * import { psdKernels } from 'stochax/distributions';
 * const k = new psdKernels.ExponentiatedQuadratic({ amplitude: 1.5, lengthScale: 0.7 });
 * k.matrix([[0], [0.5], [1]], [[0], [0.5], [1]]);   // → Tensor float64 [3, 3], diagonal 2.25
 * k.apply([0], [1]);                                // → Tensor float64 []: 2.25·e^(−1/0.98)
 */
export class ExponentiatedQuadratic extends PositiveSemidefiniteKernel {
  static override readonly parameterProperties = AMPLITUDE_LENGTH_SCALE;

  constructor(options: ExponentiatedQuadraticOptions = {}) {
    super('ExponentiatedQuadratic', options);
  }

  /** The amplitude a as given (undefined: 1). */
  get amplitude(): Tensor | undefined { return this.params.amplitude; }
  /** The length scale ℓ as given (undefined: 1). */
  get lengthScale(): Tensor | undefined { return this.params.lengthScale; }

  protected applyWithDistance(sq: Tensor, exampleNdims: number): Tensor {
    let exponent = mul(-0.5, sq);
    const l = this.padded('lengthScale', exampleNdims);
    if (l !== undefined) exponent = mul(exponent, square(div(1, l)));
    const a = this.padded('amplitude', exampleNdims);
    if (a !== undefined) exponent = add(exponent, mul(2, log(a)));
    return exp(exponent);
  }
}
brand(ExponentiatedQuadratic, 'ExponentiatedQuadratic');   // recognised across copies of stochax (src/brand.ts)
