/**
 * The base of the positive-semidefinite kernels (TFP's `tfp.math.psd_kernels.PositiveSemidefiniteKernel`):
 * a kernel k(x, y) over points with `featureNdims` trailing feature dims, with `apply` (pairs of
 * points) and `matrix` (every pair of two collections). Built from tensor ops, so kernels are
 * differentiable in their parameters and points and trace through the compiler.
 */
import { brand } from '../../src/brand.js';
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { broadcastShapes } from '../../src/tensor/broadcast.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { equal, sqrt, square, sub, where } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { expandDims, reshape } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { paramsFloat, toParameter } from '../distribution.js';
import { positive, type Constraint } from '../internal/constraints.js';

/** Options every kernel takes besides its parameters. */
export interface PsdKernelOptions {
  /** Trailing dims of a point that are its features (default 1: points are vectors `[..., F]`). */
  readonly featureNdims?: number;
  /** Check parameters at construction (default false). */
  readonly validateArgs?: boolean;
  /** Defaults to the class name. */
  readonly name?: string;
}

const COMMON = ['featureNdims', 'validateArgs', 'name'];

export abstract class PositiveSemidefiniteKernel {
  /** The tensor parameters (all scalar per batch member) and their constraints; subclasses override. */
  static readonly parameterProperties: Readonly<Record<string, { readonly constraint?: Constraint }>> = {};

  readonly name: string;
  readonly featureNdims: number;
  readonly validateArgs: boolean;
  /** The constructor options as given. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Converted tensor parameters by name (absent ones are left out). */
  protected readonly params: Readonly<Record<string, Tensor>>;
  /** The class name, for error messages. */
  protected readonly fn: string;
  private readonly paramBatch: readonly number[];
  /**
   * float64 unless every parameter is float32 (float32 in x32 mode for number parameters),
   * fixed at construction.
   */
  readonly dtype: FloatDType;

  constructor(className: string, options: object | undefined) {
    const table = (this.constructor as typeof PositiveSemidefiniteKernel).parameterProperties;
    const opts = checkOptions(className, (options ?? {}) as Record<string, unknown>, [...Object.keys(table), ...COMMON]);
    this.fn = className;
    this.name = typeof opts.name === 'string' ? opts.name : className;
    this.featureNdims = opts.featureNdims === undefined ? 1 : checkNonNegativeInteger(className, 'featureNdims', opts.featureNdims);
    this.validateArgs = opts.validateArgs === true;
    this.parameters = Object.freeze({ ...opts });
    const params: Record<string, Tensor> = {};
    for (const [key, props] of Object.entries(table)) {
      if (opts[key] === undefined) continue;
      const t = toParameter(className, key, opts[key]);
      if (this.validateArgs) props.constraint?.check(className, key, t);
      params[key] = t;
    }
    this.params = Object.freeze(params);
    this.dtype = paramsFloat(params);
    this.paramBatch = Object.freeze(broadcastShapes(className, Object.entries(params).map(([k, t]) => [k, t.shape] as const)));
  }

  /** The broadcast shape of the parameters: independent kernels this object represents. */
  get batchShape(): readonly number[] { return this.paramBatch; }


  /**
   * k(x1, x2) for pairs of points (TFP's `apply`): x1 `[..., F]` and x2 `[..., F]` broadcast
   * (F the `featureNdims` feature dims); the result has their broadcast shape without the
   * feature dims. The kernel's batch shape broadcasts against the leading dims, in front of the
   * last `exampleNdims` (default 0) dims of the points' shape, which are examples.
   *
   * @throws TypeError for a non-numeric point; RangeError for points with fewer than
   *   `featureNdims + exampleNdims` dims or shapes that do not broadcast.
   * @example
   * const k = new psdKernels.ExponentiatedQuadratic({ amplitude: 2, lengthScale: 0.5 });
   * k.apply([[0], [1]], [[0], [0]]);  // → Tensor float64 [2]: [4, 4·e^(−2)]
   */
  apply(x1: TensorLike, x2: TensorLike, options: { readonly exampleNdims?: number } = {}): Tensor {
    const fn = `${this.fn}.apply`;
    const o = checkOptions(fn, options, ['exampleNdims']);
    const e = o.exampleNdims === undefined ? 0 : checkNonNegativeInteger(fn, 'options.exampleNdims', o.exampleNdims);
    const a = this.points(fn, 'x1', x1, e), b = this.points(fn, 'x2', x2, e);
    broadcastShapes(fn, [['x1', a.shape], ['x2', b.shape]]);
    return this.applyWithDistance(this.squaredDistance(sub(a, b)), e);
  }

  /**
   * The kernel matrix K[..., i, j] = k(x1[..., i, :], x2[..., j, :]) (TFP's `matrix`): x1
   * `[..., N, F]`, x2 `[..., M, F]` → `[..., N, M]`, the leading dims of both and the kernel's
   * batch shape broadcast. Squared distances are summed from the differences (exactly 0 on the
   * diagonal of `matrix(x, x)`), not TFP's ‖x‖² + ‖y‖² − 2x·y, which differs in the last bits.
   *
   * @throws RangeError for points with fewer than `featureNdims + 1` dims, or leading dims or
   *   feature shapes that do not broadcast.
   * @example
   * const k = new psdKernels.MaternOneHalf({ lengthScale: 2 });
   * k.matrix([[0], [1], [3]], [[0], [2]]);   // → Tensor float64 [3, 2]
   */
  matrix(x1: TensorLike, x2: TensorLike): Tensor {
    const fn = `${this.fn}.matrix`;
    const f = this.featureNdims;
    const a = this.points(fn, 'x1', x1, 1), b = this.points(fn, 'x2', x2, 1);
    const fa = a.shape.slice(a.ndim - f), fb = b.shape.slice(b.ndim - f);
    if (fa.some((d, i) => d !== fb[i])) fail('range', fn, 'x2', `has feature shape [${fb.join(', ')}], but \`x1\`'s is [${fa.join(', ')}]`, b.shape);
    const d = sub(expandDims(a, a.ndim - f), expandDims(b, b.ndim - f - 1));   // [..., N, M, F]
    return this.applyWithDistance(this.squaredDistance(d), 2);
  }

  /** The kernel of squared distances `sq` (shape `[..., ...example]`), its parameters padded with `exampleNdims` trailing 1s. */
  protected abstract applyWithDistance(sq: Tensor, exampleNdims: number): Tensor;

  /** A parameter with `n` trailing 1-dims (TFP's `pad_shape_with_ones`), or undefined when not given. */
  protected padded(name: string, n: number): Tensor | undefined {
    const t = this.params[name];
    return t === undefined || n === 0 ? t : reshape(t, [...t.shape, ...new Array<number>(n).fill(1)]);
  }

  /** Σ over the feature dims of d². */
  private squaredDistance(d: Tensor): Tensor {
    const f = this.featureNdims;
    return f === 0 ? square(d) : sum(square(d), Array.from({ length: f }, (_, i) => d.ndim - f + i));
  }

  private points(fn: string, arg: string, x: TensorLike, exampleNdims: number): Tensor {
    const t = asTensor(fn, arg, x);
    const need = this.featureNdims + exampleNdims;
    if (t.ndim < need) fail('range', fn, arg, `must have at least ${need} dims (${exampleNdims} example and ${this.featureNdims} feature dims); shape [${t.shape.join(', ')}]`, t.shape);
    if (t.dtype !== 'float64' && t.dtype !== 'float32') return t.astype('float64');
    return t;
  }

  toString(): string {
    return `${this.fn}("${this.name}", batchShape=[${this.batchShape.join(', ')}], featureNdims=${this.featureNdims})`;
  }
}
brand(PositiveSemidefiniteKernel, 'PositiveSemidefiniteKernel');   // recognised across copies of stochax (src/brand.ts)

/**
 * ‖x − y‖ from squared distances, exactly 0 where they are 0 with a zero (not NaN) gradient there
 * (TFP's double `where`; the inner one takes √1, so no infinite derivative is ever formed).
 */
export function safeNorm(sq: Tensor): Tensor {
  const zero = equal(sq, 0);
  return where(zero, 0, sqrt(where(zero, 1, sq)));
}

/** Options of the kernels parameterised by an amplitude and a length scale. */
export interface AmplitudeLengthScaleOptions extends PsdKernelOptions {
  /** a > 0: the kernel is a²·(…); omitted means 1. */
  readonly amplitude?: TensorLike;
  /** ℓ > 0: distances are divided by ℓ; omitted means 1. */
  readonly lengthScale?: TensorLike;
}

export const AMPLITUDE_LENGTH_SCALE = {
  amplitude: { constraint: positive },
  lengthScale: { constraint: positive },
} as const;
