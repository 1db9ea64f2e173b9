/**
 * The Matérn kernels with half-integer smoothness (TFP's `MaternOneHalf`, `MaternThreeHalves`,
 * `MaternFiveHalves` in `tfp.math.psd_kernels`), each a closed form in z = √(2ν)·‖x − y‖/ℓ.
 */
import { brand } from '../../src/brand.js';
import { add, div, exp, log, log1p, mul, square, sub } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { AMPLITUDE_LENGTH_SCALE, PositiveSemidefiniteKernel, safeNorm, type AmplitudeLengthScaleOptions } from './positive-semidefinite-kernel.js';

export type MaternOptions = AmplitudeLengthScaleOptions;

/** The shared part: log k = series(‖x − y‖/ℓ) + 2·log a, exponentiated (TFP's order of operations). */
abstract class Matern extends PositiveSemidefiniteKernel {
  static override readonly parameterProperties = AMPLITUDE_LENGTH_SCALE;

  /** The amplitude a as given (undefined: 1). */
  get amplitude(): Tensor | undefined { return this.params.amplitude; }
  /** The length scale ℓ as given (undefined: 1). */
  get lengthScale(): Tensor | undefined { return this.params.lengthScale; }

  /** log of the kernel's shape at the scaled distance r = ‖x − y‖/ℓ. */
  protected abstract logShape(r: Tensor): Tensor;

  protected applyWithDistance(sq: Tensor, exampleNdims: number): Tensor {
    let r = safeNorm(sq);
    const l = this.padded('lengthScale', exampleNdims);
    if (l !== undefined) r = mul(r, div(1, l));
    let lr = this.logShape(r);
    const a = this.padded('amplitude', exampleNdims);
    if (a !== undefined) lr = add(lr, mul(2, log(a)));
    return exp(lr);
  }
}

const SQRT3 = Math.sqrt(3), SQRT5 = Math.sqrt(5);

/**
 * The Matérn-½ (exponential, Ornstein–Uhlenbeck) kernel: k(x, y) = a²·exp(−‖x − y‖/ℓ).
 * Continuous, nowhere-differentiable sample paths. At coincident points the gradient with
 * respect to the points is 0 (TFP's convention), not NaN.
 *
 * @throws TypeError for a non-numeric parameter or an unknown option; RangeError, with
 *   `validateArgs`, for a parameter that is not positive.
 * @example
 * const k = new psdKernels.MaternOneHalf({ amplitude: 2, lengthScale: 0.5 });
 * k.apply([0], [1]);   // → Tensor float64 []: 4·e^(−2)
 */
export class MaternOneHalf extends Matern {
  constructor(options: MaternOptions = {}) { super('MaternOneHalf', options); }
  protected logShape(r: Tensor): Tensor { return mul(-1, r); }
}

/**
 * The Matérn-3/2 kernel: with z = √3·‖x − y‖/ℓ, k(x, y) = a²·(1 + z)·exp(−z). Once
 * differentiable sample paths.
 *
 * @throws TypeError for a non-numeric parameter or an unknown option; RangeError, with
 *   `validateArgs`, for a parameter that is not positive.
 * @example
 * const k = new psdKernels.MaternThreeHalves({ lengthScale: 2 });
 * k.matrix([[0], [1]], [[0], [1]]);   // → Tensor float64 [2, 2], diagonal 1
 */
export class MaternThreeHalves extends Matern {
  constructor(options: MaternOptions = {}) { super('MaternThreeHalves', options); }
  protected logShape(r: Tensor): Tensor {
    const z = mul(SQRT3, r);
    return sub(log1p(z), z);
  }
}

/**
 * The Matérn-5/2 kernel: with z = √5·‖x − y‖/ℓ, k(x, y) = a²·(1 + z + z²/3)·exp(−z). Twice
 * differentiable sample paths.
 *
 * @throws TypeError for a non-numeric parameter or an unknown option; RangeError, with
 *   `validateArgs`, for a parameter that is not positive.
 * @example
 * const k = new psdKernels.MaternFiveHalves({ amplitude: 0.8, lengthScale: 1.5 });
 * k.apply([[0, 0]], [[1, 1]]);   // → Tensor float64 [1]
 */
export class MaternFiveHalves extends Matern {
  constructor(options: MaternOptions = {}) { super('MaternFiveHalves', options); }
  protected logShape(r: Tensor): Tensor {
    const z = mul(SQRT5, r);
    return sub(log1p(add(z, div(square(z), 3))), z);
  }
}
brand(MaternOneHalf, 'MaternOneHalf');   // recognised across copies of stochax (src/brand.ts)
brand(MaternThreeHalves, 'MaternThreeHalves');
brand(MaternFiveHalves, 'MaternFiveHalves');
