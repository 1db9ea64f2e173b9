import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { detLog, detPow } from '../../src/math/index.js';
import { broadcastShapes } from '../../src/tensor/broadcast.js';
import { asTensor, numbers, type TensorLike } from '../../src/tensor/core.js';
import { abs, add, log, pow, sub, xlogy } from '../../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { fusedMap } from '../internal/fused.js';
import { Bijector, type BijectorOptions } from './bijector.js';
import { checkSupport } from './support.js';

export interface PowerOptions extends BijectorOptions {
  /** The exponent (nonzero), broadcasting against x. */
  readonly power: TensorLike;
}

/** TFP's `_is_odd_integer`: p = round(p) and 2·floor(p/2) ≠ p. */
function isOddInteger(p: number): boolean {
  return p === Math.round(p) && 2 * Math.floor(p / 2) !== p;
}

/**
 * y = x^power (TFP's `tfb.Power`). For an odd integer power the map is a bijection of ℝ (and
 * `inverse` is sign(y)·|y|^(1/power)); otherwise its domain is x ≥ 0 (x > 0 for a negative
 * power), and negative x gives NaN, as in TFP. A power that is the reciprocal of an odd integer
 * (1/3) acts on x ≥ 0 only; use `Invert(Power({ power: 3 }))` for a real cube root.
 * forward log-det-Jacobian: log|power| + (power − 1)·log|x| (0·log 0 = 0, so power 1 is exact at 0).
 *
 * @throws TypeError when `power` is missing or not a tensor; with `validateArgs`, RangeError for a
 *   zero `power`, and from `forward` / `inverse` for negative x or y unless the power is an odd integer.
 * @example
 * new Power({ power: 2 }).forward([3, 0.5]);   // → Tensor float64 [2]: [9, 0.25]
 * new Power({ power: 3 }).inverse(-8);         // → Tensor float64 []: −2
 * new Power({ power: 0.5 }).forwardLogDetJacobian(4); // → Tensor float64 []: log 0.5 − 0.5·log 4 = −log 4
 */
export class Power extends Bijector {
  static override readonly optionNames = ['power'];
  readonly forwardMinEventNdims = 0;
  readonly power: Tensor;
  constructor(options: PowerOptions) {
    super('Power', options);
    if (options?.power === undefined) fail('type', 'Power', 'power', 'must be given', undefined);
    this.power = asTensor('Power', 'power', options.power);
    if (this.validateArgs) checkSupport('Power', 'power', this.power, (v) => v !== 0, 'must be nonzero');
  }
  protected forwardImpl(x: Tensor): Tensor {
    if (this.validateArgs) this.checkDomain(`${this.name}.forward`, 'x', x);
    return pow(x, this.power);
  }
  protected inverseImpl(y: Tensor): Tensor {
    if (this.validateArgs) this.checkDomain(`${this.name}.inverse`, 'y', y);
    return fusedMap('Power.inverse', [['y', y], ['power', this.power]], powerInverse, powerInversePartials);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    if (this.validateArgs) this.checkDomain(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return add(log(abs(this.power)), xlogy(sub(this.power, 1), abs(x)));
  }
  /** Elements of t must be ≥ 0 wherever the (broadcast) power is not an odd integer. */
  private checkDomain(fn: string, arg: string, t: Tensor): void {
    const shape = broadcastShapes(fn, [[arg, t.shape], ['power', this.power.shape]]);
    const v = numbers(broadcastTo(t, shape)), p = numbers(broadcastTo(this.power, shape));
    for (let i = 0; i < v.length; i++) {
      if (!(v[i]! >= 0 || isOddInteger(p[i]!))) fail('range', fn, shape.length === 0 ? arg : `${arg}[${i}]`, `must be non-negative (power ${p[i]} is not an odd integer)`, v[i]);
    }
  }
}
brand(Power, 'bijectors.Power');   // recognised across copies of stochax (src/brand.ts)

/** x = y^(1/p), or sign(y)·|y|^(1/p) for an odd integer p (TFP's arithmetic: 1/p first). */
function powerInverse(y: number, p: number): number {
  const r = 1 / p;
  return isOddInteger(p) ? Math.sign(y) * detPow(Math.abs(y), r) : detPow(y, r);
}

/** ∂x/∂y = (1/p)·|y|^(1/p − 1) (y^(1/p − 1) off the odd-integer case); ∂x/∂p = −x·log|y|/p². */
function powerInversePartials(out: Float64Array, y: number, p: number, _c: number, _d: number, x: number): void {
  const r = 1 / p;
  out[0] = r * (isOddInteger(p) ? detPow(Math.abs(y), r - 1) : detPow(y, r - 1));
  out[1] = x === 0 ? 0 : -x * detLog(Math.abs(y)) * r * r;
}
