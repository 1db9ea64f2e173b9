import { brand } from '../../src/brand.js';
import { detAtanh, detLog } from '../../src/math/index.js';
import { mul, softplus, sub, tanh } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fusedMap } from '../internal/fused.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

const LN2 = detLog(2);

/**
 * y = tanh(x), mapping ℝ onto (−1, 1) (TFP's `tfb.Tanh`; the same map as
 * `Chain([Shift(−1), Scale(2), Sigmoid(), Scale(2)])`, but direct and more accurate).
 * forward log-det-Jacobian: log(1 − tanh²x) written as 2·(log 2 − x − softplus(−2x)), finite for
 * every finite x (TFP's form); the inverse one is −fldj(atanh(y)), which TFP prefers to
 * −log1p(−y²) for precision.
 *
 * @throws RangeError from `inverse` with `validateArgs` for y outside (−1, 1).
 * @example
 * new Tanh().forward(0);                     // → Tensor float64 []: 0
 * new Tanh().inverse(0.5);                   // → Tensor float64 []: 0.5493061443340549
 * new Tanh().forwardLogDetJacobian([0, 40]); // → Tensor float64 [2]: [0, 2·log 2 − 80]
 */
export class Tanh extends Bijector {
  readonly forwardMinEventNdims = 0;
  constructor(options?: BijectorOptions) { super('Tanh', options); }
  protected forwardImpl(x: Tensor): Tensor { return tanh(x); }
  protected inverseImpl(y: Tensor): Tensor {
    if (this.validateArgs) checkSupport(`${this.name}.inverse`, 'y', y, (v) => v > -1 && v < 1, 'must be in (−1, 1)');
    return fusedMap('Tanh.inverse', [['y', y]], atanhOf, atanhPartial);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    return mul(2, sub(sub(LN2, x), softplus(mul(-2, x))));
  }
}
brand(Tanh, 'bijectors.Tanh');   // recognised across copies of stochax (src/brand.ts)

function atanhOf(y: number): number { return detAtanh(y); }
function atanhPartial(out: Float64Array, y: number): void { out[0] = 1 / ((1 - y) * (1 + y)); }
