import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { zerosLike } from '../../src/tensor/ops/create.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

export interface ChainOptions extends BijectorOptions {
  /** Applied right to left, as in function composition: `Chain([f, g]).forward(x) = f(g(x))`. */
  readonly bijectors: readonly Bijector[];
}

/**
 * The composition of bijectors (TFP's `tfb.Chain`): `new Chain({ bijectors: [f, g] })` maps
 * x to f(g(x)), and its log-det-Jacobian is the sum of the parts', each at the event rank its
 * input has at that point of the chain.
 *
 * @throws TypeError when `bijectors` is not an array of Bijectors.
 * @example
 * // (loc, ∞): the HalfCauchy event space
 * const b = new Chain({ bijectors: [new Shift({ shift: 1 }), new Exp()] });
 * b.forward(0); // → Tensor float64 []: 2
 */
export class Chain extends Bijector {
  static override readonly optionNames = ['bijectors'];
  readonly bijectors: readonly Bijector[];
  readonly forwardMinEventNdims: number;
  override readonly isConstantJacobian: boolean;
  private readonly outputMinEventNdims: number;
  constructor(options: ChainOptions) {
    super('Chain', options);
    const bs = options?.bijectors;
    if (!Array.isArray(bs) || bs.some((b) => !(b instanceof Bijector))) fail('type', 'Chain', 'bijectors', 'must be an array of Bijectors', bs);
    this.bijectors = Object.freeze([...bs]);
    this.isConstantJacobian = bs.every((b) => b.isConstantJacobian);
    // The smallest input rank every part can act on: walking forward (right to left), part b
    // sees rank start + offset, which must reach its own minimum.
    let offset = 0, start = 0;
    for (let i = bs.length - 1; i >= 0; i--) {
      const b = bs[i]!;
      start = Math.max(start, b.forwardMinEventNdims - offset);
      offset += b.inverseMinEventNdims - b.forwardMinEventNdims;
    }
    this.forwardMinEventNdims = start;
    this.outputMinEventNdims = start + offset;
  }
  override get inverseMinEventNdims(): number { return this.outputMinEventNdims; }
  protected forwardImpl(x: Tensor): Tensor {
    let y = x;
    for (let i = this.bijectors.length - 1; i >= 0; i--) y = this.bijectors[i]!.forward(y);
    return y;
  }
  protected inverseImpl(y: Tensor): Tensor {
    let x = y;
    for (const b of this.bijectors) x = b.inverse(x);
    return x;
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    let total: Tensor | undefined, v = x, nd = this.forwardMinEventNdims;
    for (let i = this.bijectors.length - 1; i >= 0; i--) {
      const b = this.bijectors[i]!;
      const part = b.forwardLogDetJacobian(v, nd);
      total = total === undefined ? part : add(total, part);
      v = b.forward(v);
      nd += b.inverseMinEventNdims - b.forwardMinEventNdims;
    }
    return total ?? zerosLike(x);
  }
  override forwardEventShape(shape: readonly number[]): number[] {
    return this.bijectors.reduceRight<number[]>((s, b) => b.forwardEventShape(s), [...shape]);
  }
  override inverseEventShape(shape: readonly number[]): number[] {
    return this.bijectors.reduce<number[]>((s, b) => b.inverseEventShape(s), [...shape]);
  }
}
brand(Chain, 'bijectors.Chain');   // recognised across copies of stochax (src/brand.ts)
