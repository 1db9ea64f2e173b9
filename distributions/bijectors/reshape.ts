import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { reshape } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

export interface ReshapeOptions extends BijectorOptions {
  /** The event shape of `forward`'s output: non-negative integers and at most one −1 (inferred). */
  readonly eventShapeOut: readonly number[];
  /** The event shape of the input, as `eventShapeOut` (default [−1]: any vector). */
  readonly eventShapeIn?: readonly number[];
}

/** A checked event shape: an array of integers ≥ −1 with at most one −1. */
function checkEventShape(arg: string, x: unknown): number[] {
  if (!Array.isArray(x) && !(x instanceof Int32Array)) fail('type', 'Reshape', arg, 'must be an array of integers (an event shape)', x);
  const s = Array.from(x as ArrayLike<unknown>);
  s.forEach((d, i) => {
    if (typeof d !== 'number' || !Number.isInteger(d)) fail('type', 'Reshape', `${arg}[${i}]`, 'must be an integer', d);
    if (d < -1) fail('range', 'Reshape', `${arg}[${i}]`, 'must be a non-negative integer or −1', d);
  });
  if (s.filter((d) => d === -1).length > 1) fail('range', 'Reshape', arg, 'must have at most one −1', x);
  return s as number[];
}

const size = (s: readonly number[]) => sizeOf(s);

/**
 * Reshapes the rightmost dims of a tensor (TFP's `tfb.Reshape`): `forward` turns an event of
 * shape `eventShapeIn` into one of shape `eventShapeOut`, leaving the leading (sample and batch)
 * dims alone; `inverse` goes back. One −1 in either shape is inferred from the input's size.
 * `forwardMinEventNdims` is the length of `eventShapeIn`, `inverseMinEventNdims` that of
 * `eventShapeOut`. The map only moves entries, so both log-det-Jacobians are 0.
 *
 * @throws TypeError when `eventShapeOut` is missing or a shape is not an array of integers;
 *   RangeError for entries below −1, two −1s, shapes of different sizes, or an input whose
 *   rightmost dims do not match the event shape.
 * @example
 * const r = new Reshape({ eventShapeOut: [1, -1] });
 * r.forward([3, 4]);                  // → Tensor float64 [1, 2]: [[3, 4]]
 * r.forward([[1, 2], [3, 4]]).shape;  // [2, 1, 2]
 * r.inverse([[3, 4]]);                // → Tensor float64 [2]: [3, 4]
 * new Reshape({ eventShapeOut: [2, 3], eventShapeIn: [6] }).forwardEventShape([5, 6]); // → [5, 2, 3]
 */
export class Reshape extends Bijector {
  static override readonly optionNames = ['eventShapeOut', 'eventShapeIn'];
  readonly forwardMinEventNdims: number;
  override readonly isConstantJacobian = true;
  readonly eventShapeOut: readonly number[];
  readonly eventShapeIn: readonly number[];
  constructor(options: ReshapeOptions) {
    super('Reshape', options);
    if (options?.eventShapeOut === undefined) fail('type', 'Reshape', 'eventShapeOut', 'must be given', undefined);
    this.eventShapeOut = Object.freeze(checkEventShape('eventShapeOut', options.eventShapeOut));
    this.eventShapeIn = Object.freeze(options.eventShapeIn === undefined ? [-1] : checkEventShape('eventShapeIn', options.eventShapeIn));
    if (!this.eventShapeIn.includes(-1) && !this.eventShapeOut.includes(-1) && size(this.eventShapeIn) !== size(this.eventShapeOut)) {
      fail('range', 'Reshape', 'eventShapeOut', `must have as many elements as \`eventShapeIn\` [${this.eventShapeIn.join(', ')}] (${size(this.eventShapeIn)})`, options.eventShapeOut);
    }
    this.forwardMinEventNdims = this.eventShapeIn.length;
  }
  override get inverseMinEventNdims(): number { return this.eventShapeOut.length; }
  protected forwardImpl(x: Tensor): Tensor {
    return reshape(x, replaceEvent(`${this.name}.forward`, 'x', x.shape, this.eventShapeIn, this.eventShapeOut));
  }
  protected inverseImpl(y: Tensor): Tensor {
    return reshape(y, replaceEvent(`${this.name}.inverse`, 'y', y.shape, this.eventShapeOut, this.eventShapeIn));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    replaceEvent(`${this.name}.forwardLogDetJacobian`, 'x', x.shape, this.eventShapeIn, this.eventShapeOut);
    return zeros([]);
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    replaceEvent(`${this.name}.inverseLogDetJacobian`, 'y', y.shape, this.eventShapeOut, this.eventShapeIn);
    return zeros([]);
  }
  override forwardEventShape(shape: readonly number[]): number[] {
    return replaceEvent(`${this.name}.forwardEventShape`, 'shape', shape, this.eventShapeIn, this.eventShapeOut);
  }
  override inverseEventShape(shape: readonly number[]): number[] {
    return replaceEvent(`${this.name}.inverseEventShape`, 'shape', shape, this.eventShapeOut, this.eventShapeIn);
  }
}
brand(Reshape, 'bijectors.Reshape');   // recognised across copies of stochax (src/brand.ts)

/**
 * `shape` with its rightmost `from.length` dims (which must match `from` wherever it is not −1)
 * replaced by `to`, with to's −1 resolved from the event's size.
 */
function replaceEvent(fn: string, arg: string, shape: readonly number[], from: readonly number[], to: readonly number[]): number[] {
  const nd = from.length, show = `[${shape.join(', ')}]`;
  if (shape.length < nd) fail('range', fn, arg, `must have at least ${nd} dimensions (event shape [${from.join(', ')}]); got shape ${show}`, shape);
  const lead = shape.slice(0, shape.length - nd), event = shape.slice(shape.length - nd);
  if (event.some((d, i) => from[i] !== -1 && from[i] !== d)) fail('range', fn, arg, `must end in the event shape [${from.join(', ')}]; got shape ${show}`, shape);
  const n = size(event), free = to.indexOf(-1), out = [...to];
  if (free >= 0) {
    const known = size(to.filter((d) => d !== -1));
    if (known === 0 ? n !== 0 : n % known !== 0) fail('range', fn, arg, `has an event of ${n} elements (shape ${show}), which event shape [${to.join(', ')}] cannot hold`, shape);
    out[free] = known === 0 ? 0 : n / known;
  } else if (size(to) !== n) {
    fail('range', fn, arg, `has an event of ${n} elements (shape ${show}), but event shape [${to.join(', ')}] has ${size(to)}`, shape);
  }
  return [...lead, ...out];
}
