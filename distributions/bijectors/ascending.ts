import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { numbers } from '../../src/tensor/core.js';
import { cumsum } from '../../src/tensor/ops/cumulative.js';
import { exp, log, neg, sub } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { concat, slice } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

/**
 * ℝⁿ onto strictly increasing vectors (TFP's `tfb.Ascending`; Stan's `ordered` transform): along
 * the last axis, y = cumsum([x₀, e^x₁, …, e^xₙ₋₁]), so y₀ = x₀ and each step yₖ − yₖ₋₁ = e^xₖ > 0.
 * `inverse(y) = [y₀, log(y₁ − y₀), …, log(yₙ₋₁ − yₙ₋₂)]`. It acts on vectors
 * (`forwardMinEventNdims` 1). The Jacobian is lower triangular with diagonal [1, e^x₁, …], so
 * fldj = Σₖ₌₁ xₖ and ildj = −Σₖ₌₁ log(yₖ − yₖ₋₁).
 *
 * @throws RangeError when x or y is a scalar or has an empty last axis; with `validateArgs`, from
 *   `inverse` for y not strictly increasing along its last axis.
 * @example
 * new Ascending().inverse([2, 3, 4]);  // → Tensor float64 [3]: [2, 0, 0]
 * new Ascending().forward([0, 0, Math.log(2)]); // → Tensor float64 [3]: [0, 1, 3]
 * new Ascending().forwardLogDetJacobian([5, 1, 2]); // → Tensor float64 []: 3
 */
export class Ascending extends Bijector {
  readonly forwardMinEventNdims = 1;
  constructor(options?: BijectorOptions) { super('Ascending', options); }
  protected forwardImpl(x: Tensor): Tensor {
    lastDim(`${this.name}.forward`, 'x', x);
    return cumsum(concat([head(x), exp(tail(x))], -1), -1);
  }
  protected inverseImpl(y: Tensor): Tensor {
    const fn = `${this.name}.inverse`;
    this.check(fn, y);
    return concat([head(y), log(steps(y))], -1);
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    lastDim(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return sum(tail(x), -1);
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    this.check(`${this.name}.inverseLogDetJacobian`, y);
    return neg(sum(log(steps(y)), -1));
  }
  private check(fn: string, y: Tensor): void {
    const n = lastDim(fn, 'y', y);
    if (!this.validateArgs) return;
    const v = numbers(y);
    for (let r = 0; r < v.length; r += n) {
      for (let j = 1; j < n; j++) if (!(v[r + j]! > v[r + j - 1]!)) fail('range', fn, `y[${r + j}]`, `must exceed the entry before it (${v[r + j - 1]}): y must be strictly increasing along its last axis`, v[r + j]);
    }
  }
}
brand(Ascending, 'bijectors.Ascending');   // recognised across copies of stochax (src/brand.ts)

/**
 * ℝⁿ onto strictly increasing positive vectors (Stan's `positive_ordered` transform): along the
 * last axis, y = cumsum(e^x), so y₀ = e^x₀ > 0 and each step yₖ − yₖ₋₁ = e^xₖ > 0. Unlike
 * `Chain([Exp, Ascending])` (which samples log y₀ and the log steps of log y), this is the
 * unconstrained space Stan samples for `positive_ordered[n]`, so the same priors give the same
 * geometry. `inverse(y) = log([y₀, y₁ − y₀, …, yₙ₋₁ − yₙ₋₂])`; the Jacobian is lower
 * triangular with diagonal e^x, so fldj = Σₖ xₖ and ildj = −Σₖ log(yₖ − yₖ₋₁) (y₋₁ = 0).
 *
 * @throws RangeError when x or y is a scalar or has an empty last axis; with `validateArgs`, from
 *   `inverse` for y not positive and strictly increasing along its last axis.
 * @example
 * new PositiveOrdered().forward([0, 0, Math.log(2)]); // → [1, 2, 4]
 * new PositiveOrdered().inverse([1, 2, 4]);           // → [0, 0, log 2]
 * new PositiveOrdered().forwardLogDetJacobian([5, 1, 2]); // → 8
 */
export class PositiveOrdered extends Bijector {
  readonly forwardMinEventNdims = 1;
  constructor(options?: BijectorOptions) { super('PositiveOrdered', options); }
  protected forwardImpl(x: Tensor): Tensor {
    lastDim(`${this.name}.forward`, 'x', x);
    return cumsum(exp(x), -1);
  }
  protected inverseImpl(y: Tensor): Tensor {
    this.check(`${this.name}.inverse`, y);
    return log(concat([head(y), steps(y)], -1));
  }
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    lastDim(`${this.name}.forwardLogDetJacobian`, 'x', x);
    return sum(x, -1);
  }
  protected override inverseLogDetJacobianImpl(y: Tensor): Tensor {
    this.check(`${this.name}.inverseLogDetJacobian`, y);
    return neg(sum(log(concat([head(y), steps(y)], -1)), -1));
  }
  private check(fn: string, y: Tensor): void {
    const n = lastDim(fn, 'y', y);
    if (!this.validateArgs) return;
    const v = numbers(y);
    for (let r = 0; r < v.length; r += n) {
      if (!(v[r]! > 0)) fail('range', fn, `y[${r}]`, 'must be positive: y must be positive and strictly increasing along its last axis', v[r]);
      for (let j = 1; j < n; j++) if (!(v[r + j]! > v[r + j - 1]!)) fail('range', fn, `y[${r + j}]`, `must exceed the entry before it (${v[r + j - 1]}): y must be positive and strictly increasing along its last axis`, v[r + j]);
    }
  }
}
brand(PositiveOrdered, 'bijectors.PositiveOrdered');   // recognised across copies of stochax (src/brand.ts)

/** t[..., :1]. */
function head(t: Tensor): Tensor { return slice(t, [...t.shape.slice(0, -1).map(() => null), { stop: 1 }]); }
/** t[..., 1:]. */
function tail(t: Tensor): Tensor { return slice(t, [...t.shape.slice(0, -1).map(() => null), { start: 1 }]); }
/** y[..., 1:] − y[..., :-1]. */
function steps(y: Tensor): Tensor { return sub(tail(y), slice(y, [...y.shape.slice(0, -1).map(() => null), { stop: -1 }])); }

function lastDim(fn: string, arg: string, t: Tensor): number {
  if (t.ndim < 1) fail('range', fn, arg, 'must have at least one dimension (a vector event)', t.item());
  const n = t.shape[t.ndim - 1]!;
  if (n < 1) fail('range', fn, arg, `must have a last dimension of at least 1; got shape [${t.shape.join(', ')}]`, t);
  return n;
}
