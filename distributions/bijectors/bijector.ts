/**
 * The `Bijector` base class (TFP's `tfb.Bijector`): a smooth invertible map with its
 * log-determinant-Jacobian. Subclasses supply `forwardImpl`, `inverseImpl` and one of the two
 * log-det-Jacobian hooks, computed per "minimal event" (`forwardMinEventNdims` rightmost
 * dims); the base class sums them over any further event dims and derives the other one.
 */
import { brand } from '../../src/brand.js';
import { checkInteger, checkOptions, fail } from '../../src/checks.js';
import { broadcastShapes } from '../../src/tensor/broadcast.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { neg } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';

/** Options every bijector accepts. */
export interface BijectorOptions {
  /** Check inputs (e.g. `y > 0` for `Exp.inverse`) and throw RangeError when they fail (default false). */
  readonly validateArgs?: boolean;
  /** Defaults to the class name. */
  readonly name?: string;
}

export abstract class Bijector {
  readonly name: string;
  readonly validateArgs: boolean;
  /** The constructor options, so `copy` can rebuild the bijector. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Rank of the smallest input the forward map acts on (0: element-wise; 1: vectors; 2: matrices). */
  abstract readonly forwardMinEventNdims: number;
  /** True when the log-det-Jacobian does not depend on the input. */
  readonly isConstantJacobian: boolean = false;

  /** Constructor options besides `name` and `validateArgs` (subclasses list theirs), so a misspelt one is a TypeError. */
  static readonly optionNames: readonly string[] = [];

  constructor(className: string, options: BijectorOptions | undefined, parameters: Record<string, unknown> = {}) {
    const opts = checkOptions(className, options, [...(this.constructor as typeof Bijector).optionNames, 'name', 'validateArgs'] as never[]);
    this.name = opts.name ?? className;
    this.validateArgs = opts.validateArgs ?? false;
    this.parameters = Object.freeze({ ...parameters, ...opts });
  }

  /** Rank of the smallest output the inverse map acts on (the forward rank unless the event rank changes). */
  get inverseMinEventNdims(): number { return this.forwardMinEventNdims; }

  protected abstract forwardImpl(x: Tensor): Tensor;
  protected abstract inverseImpl(y: Tensor): Tensor;
  /** log|det ∂f/∂x| per minimal event: shape `x.shape` minus `forwardMinEventNdims` dims (or broadcastable to it). */
  protected forwardLogDetJacobianImpl?(x: Tensor): Tensor;
  /** log|det ∂f⁻¹/∂y| per minimal event. */
  protected inverseLogDetJacobianImpl?(y: Tensor): Tensor;

  /**
   * y = f(x).
   * @example
   * new Exp().forward([0, 1]); // → Tensor float64 [2]: [1, e]
   */
  forward(x: TensorLike): Tensor {
    return this.forwardImpl(asTensor(`${this.name}.forward`, 'x', x));
  }

  /**
   * x = f⁻¹(y).
   * @example
   * new Exp().inverse([1, Math.E]); // → Tensor float64 [2]: [0, 1]
   */
  inverse(y: TensorLike): Tensor {
    return this.inverseImpl(asTensor(`${this.name}.inverse`, 'y', y));
  }

  /**
   * log|det J_f(x)| summed over the rightmost `eventNdims` dims (default: the minimal event rank).
   * @example
   * new Exp().forwardLogDetJacobian([1, 2], 1); // → Tensor float64 []: 3
   */
  forwardLogDetJacobian(x: TensorLike, eventNdims?: number): Tensor {
    const fn = `${this.name}.forwardLogDetJacobian`;
    const t = asTensor(fn, 'x', x);
    const nd = this.checkEventNdims(fn, eventNdims, this.forwardMinEventNdims, t);
    const ldj = this.forwardLogDetJacobianImpl !== undefined
      ? this.forwardLogDetJacobianImpl(t)
      : neg(this.inverseLogDetJacobianImpl!(this.forwardImpl(t)));
    return reduceEventDims(ldj, t.shape.slice(0, t.ndim - this.forwardMinEventNdims), nd - this.forwardMinEventNdims);
  }

  /**
   * log|det J_{f⁻¹}(y)| summed over the rightmost `eventNdims` dims (default: the minimal event rank).
   * @example
   * new Exp().inverseLogDetJacobian([1, 2]); // → Tensor float64 [2]: [0, −log 2]
   */
  inverseLogDetJacobian(y: TensorLike, eventNdims?: number): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    const t = asTensor(fn, 'y', y);
    const nd = this.checkEventNdims(fn, eventNdims, this.inverseMinEventNdims, t);
    const ldj = this.inverseLogDetJacobianImpl !== undefined
      ? this.inverseLogDetJacobianImpl(t)
      : neg(this.forwardLogDetJacobianImpl!(this.inverseImpl(t)));
    return reduceEventDims(ldj, t.shape.slice(0, t.ndim - this.inverseMinEventNdims), nd - this.inverseMinEventNdims);
  }

  /** The event shape of `forward(x)` for an input event shape (unchanged unless the bijector reshapes). */
  forwardEventShape(shape: readonly number[]): number[] { return [...shape]; }
  /** The event shape of `inverse(y)` for an output event shape. */
  inverseEventShape(shape: readonly number[]): number[] { return [...shape]; }

  /**
   * The same bijector with some constructor options replaced.
   * @example
   * new Softplus({ low: 1 }).copy({ low: 2 });
   */
  copy(overrides: Record<string, unknown> = {}): this {
    const Ctor = this.constructor as new (options: Record<string, unknown>) => this;
    return new Ctor({ ...this.parameters, ...overrides });
  }

  toString(): string {
    return `Bijector ${this.name} (forwardMinEventNdims=${this.forwardMinEventNdims})`;
  }

  private checkEventNdims(fn: string, eventNdims: number | undefined, min: number, t: Tensor): number {
    if (eventNdims === undefined) return min;
    const nd = checkInteger(fn, 'eventNdims', eventNdims);
    if (nd < min) fail('range', fn, 'eventNdims', `must be at least the minimal event rank ${min}`, eventNdims);
    if (nd > t.ndim) fail('range', fn, 'eventNdims', `must not exceed the input's rank ${t.ndim} (shape [${t.shape.join(', ')}])`, eventNdims);
    return nd;
  }
}
brand(Bijector, 'Bijector');   // recognised across copies of stochax (src/brand.ts)

/**
 * A per-minimal-event log-det-Jacobian broadcast against `batchShape` (a parameter may add batch
 * dims of its own, as TFP allows) and summed over its last `extra` dims.
 */
function reduceEventDims(ldj: Tensor, batchShape: readonly number[], extra: number): Tensor {
  const shape = broadcastShapes('Bijector.logDetJacobian', [['log det Jacobian', ldj.shape], ['input batch', batchShape]]);
  const full = ldj.shape.length === shape.length && ldj.shape.every((d, i) => d === shape[i]) ? ldj : broadcastTo(ldj, shape);
  if (extra === 0) return full;
  const axes = Array.from({ length: extra }, (_, i) => shape.length - extra + i);
  return sum(full, axes);
}
