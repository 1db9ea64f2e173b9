import { brand } from '../../src/brand.js';
import { detExp, detLog } from '../../src/math/index.js';
import { mul, square, sub } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fusedMap } from '../internal/fused.js';
import { logPhi, ndtr, ndtri } from '../internal/ndtr.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/**
 * y = Φ(x), the standard normal cdf, mapping ℝ onto (0, 1) (TFP's `tfb.NormalCDF`); its inverse
 * Φ⁻¹ turns uniform variates into standard normal ones. Φ and Φ⁻¹ are accurate in both tails
 * (Φ(x) keeps full relative precision down to x ≈ −38; in the upper tail 1 − Φ(x) is resolved
 * only to ulp(1), so Φ rounds to 1 above x ≈ 8.3, as TFP's does).
 * forward log-det-Jacobian: log φ(x) = −½·log 2π − x²/2; the inverse one is
 * −log φ(Φ⁻¹(y)) (+∞ at y = 0 and 1).
 *
 * @throws RangeError from `inverse` with `validateArgs` for y outside [0, 1].
 * @example
 * new NormalCDF().forward([0, -1]);    // → Tensor float64 [2]: [0.5, 0.158655253931457]
 * new NormalCDF().inverse(0.975);      // → Tensor float64 []: 1.9599639845400536
 * new NormalCDF().forwardLogDetJacobian(0); // → Tensor float64 []: −½·log 2π
 */
export class NormalCDF extends Bijector {
  readonly forwardMinEventNdims = 0;
  constructor(options?: BijectorOptions) { super('NormalCDF', options); }
  protected forwardImpl(x: Tensor): Tensor {
    return fusedMap('NormalCDF.forward', [['x', x]], ndtrOf, ndtrPartial);
  }
  protected inverseImpl(y: Tensor): Tensor {
    if (this.validateArgs) checkSupport(`${this.name}.inverse`, 'y', y, (v) => v >= 0 && v <= 1, 'must be in [0, 1]');
    return fusedMap('NormalCDF.inverse', [['y', y]], ndtriOf, ndtriPartial);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    return sub(-LOG_SQRT_2PI, mul(0.5, square(x)));
  }
}
brand(NormalCDF, 'bijectors.NormalCDF');   // recognised across copies of stochax (src/brand.ts)

// Module functions, not closures made per call (compiled code calls one function object).
function ndtrOf(x: number): number { return ndtr(x); }
function ndtrPartial(out: Float64Array, x: number): void { out[0] = detExp(logPhi(x)); }
function ndtriOf(y: number): number { return ndtri(y); }
function ndtriPartial(out: Float64Array, _y: number, _b: number, _c: number, _d: number, x: number): void { out[0] = detExp(-logPhi(x)); }
