import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { numbers, type TensorLike } from '../src/tensor/core.js';
import { full, zeros } from '../src/tensor/ops/create.js';
import { abs, add, greater, mul, sub, where } from '../src/tensor/ops/elementwise.js';
import { broadcastTo, reshape, type SliceSpec } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Exp } from './bijectors/exp.js';
import { Identity } from './bijectors/identity.js';
import { Invert } from './bijectors/invert.js';
import { Log } from './bijectors/log.js';
import { Reciprocal } from './bijectors/reciprocal.js';
import { Scale } from './bijectors/scale.js';
import { Shift } from './bijectors/shift.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Softplus } from './bijectors/softplus.js';
import { Distribution, NotImplementedError, type DistributionOptions } from './distribution.js';
import { registerKL } from './kl.js';
import { brand } from '../src/brand.js';

export interface TransformedDistributionOptions extends DistributionOptions {
  /** The base distribution p(x). */
  readonly distribution: Distribution;
  /** The map y = g(x). */
  readonly bijector: Bijector;
}

const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * The distribution of y = g(x) for x drawn from a base distribution and a bijector g (TFP's
 * `tfd.TransformedDistribution`). Density: log p(y) = log p_X(g⁻¹(y)) + log|det J_{g⁻¹}(y)|,
 * with the Jacobian over the whole event; support g(support of X). Event shape:
 * `bijector.forwardEventShape(distribution.eventShape)`; batch shape: the base batch shape
 * broadcast with any batch shape the bijector's parameters add (found by applying the bijector
 * to a constant base-shaped event once).
 *
 * Sampling is `bijector.forward(distribution.sample(n))` with the seed as given. For a scalar
 * event and a monotone element-wise bijector (Identity, Exp, Log, Softplus, Shift, Sigmoid,
 * Scale, Reciprocal — for a base on one side of 0 — their Inverts and Chains, or any bijector
 * with an `isIncreasing()` method), `cdf`/`logCdf`/survival functions are the base ones at
 * g⁻¹(y) (cdf and survival swapped where g decreases) and `quantile(p) = g(base.quantile(p))`
 * (1 − p where g decreases), as TFP. For constant-Jacobian
 * bijectors, mean and mode are g(base mean/mode), stddev |g(σ) − g(0)| (scalar bijectors), and
 * entropy H(X) − log|det J_{g⁻¹}|, as TFP; otherwise they throw NotImplementedError.
 * For scalar events, a value outside the range of g (where g⁻¹ is NaN or infinite) has log
 * density −∞ and cdf 0 or 1 (by which end of the range it lies beyond); TFP gives NaN there.
 * KL(TD(p, g) ‖ TD(q, g)) = KL(p ‖ q) when both hold the same bijector object (TFP compares
 * bijectors with `==`; there is no bijector equality here). Reparameterized exactly when the
 * base distribution is.
 *
 * @throws TypeError when `distribution` is not a Distribution or `bijector` not a Bijector.
 * @example
 * const ln = new TransformedDistribution({ distribution: new Normal({ loc: 0, scale: 1 }), bijector: new Exp() });
 * ln.logProb(1);               // → Tensor float64 []: −log√(2π)
 * ln.cdf(1);                   // → Tensor float64 []: 0.5
 * ln.sample(3, { seed: 0 });   // → Tensor float64 [3]
 */
export class TransformedDistribution extends Distribution {
  static override readonly optionNames = ['distribution', 'bijector'];
  readonly distribution: Distribution;
  readonly bijector: Bijector;

  constructor(options: TransformedDistributionOptions) {
    const d = options?.distribution, b = options?.bijector;
    if (!(d instanceof Distribution)) fail('type', 'TransformedDistribution', 'distribution', 'must be a Distribution', d);
    if (!(b instanceof Bijector)) fail('type', 'TransformedDistribution', 'bijector', 'must be a Bijector', b);
    super('TransformedDistribution', options, d.reparameterizationType === 'FULLY_REPARAMETERIZED', d.dtype);
    this.distribution = d;
    this.bijector = b;
  }

  protected override batchShapeImpl(): readonly number[] {
    const base = this.distribution.batchShape;
    let y: Tensor;
    try {
      y = this.bijector.forward(full([...base, ...this.distribution.eventShape], 0.5, this.distribution.dtype));
    } catch {
      return base; // the probe point is outside the bijector's domain: assume it adds no batch dims
    }
    const own = y.shape.slice(0, y.ndim - this.eventShape.length);
    return broadcastShapes(this.fn, [['distribution.batchShape', base], ['bijector batch shape', own]]);
  }
  override get eventShape(): readonly number[] { return this.bijector.forwardEventShape(this.distribution.eventShape); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const base = this.distribution, pad = this.batchShape.length - base.batchShape.length;
    let x = base.sample(n, { seed });
    if (pad > 0) x = reshape(x, [n, ...new Array<number>(pad).fill(1), ...x.shape.slice(1)]);
    const y = this.bijector.forward(x);
    const want = [n, ...this.batchShape, ...this.eventShape];
    return same(y.shape, want) ? y : broadcastTo(y, want);
  }

  /** A value broadcast to (…, batch, event) so the bijector's log-det-Jacobian sees every batch member. */
  private full(y: Tensor): Tensor {
    const want = broadcastShapes(this.fn, [['value', y.shape], ['batchShape + eventShape', [...this.batchShape, ...this.eventShape]]]);
    return same(y.shape, want) ? y : broadcastTo(y, want);
  }

  protected override logProbImpl(value: Tensor): Tensor {
    const y = this.full(value);
    const x = this.bijector.inverse(y);
    const lp = add(this.distribution.logProb(x), this.bijector.inverseLogDetJacobian(y, this.eventShape.length));
    if (this.eventShape.length !== 0 || this.distribution.eventShape.length !== 0) return lp;
    // Scalar events: y outside the range of g (g⁻¹(y) NaN or infinite at a non-NaN y) has density 0.
    const xv = numbers(x), yv = numbers(y);
    let out: Uint8Array | undefined;
    for (let i = 0; i < xv.length; i++) {
      if (!Number.isFinite(xv[i]!) && !Number.isNaN(yv[i]!)) (out ??= new Uint8Array(xv.length))[i] = 1;
    }
    return out === undefined ? lp : where(new Tensor(out, x.shape, 'bool'), -Infinity, lp);
  }

  /** g⁻¹(y) for a monotone scalar g, with −∞ / +∞ where y lies below / above the range of g (where g⁻¹ gives NaN). */
  private inverseClamped(y: Tensor): Tensor {
    const x = this.bijector.inverse(y);
    const xv = numbers(x);
    if (!Array.prototype.some.call(xv, (v: number) => Number.isNaN(v))) return x;
    const yv = numbers(y);
    const a = numbers(broadcastTo(this.bijector.forward(-Infinity), x.shape)), b = numbers(broadcastTo(this.bijector.forward(Infinity), x.shape));
    const lo = new Uint8Array(xv.length), hi = new Uint8Array(xv.length);
    for (let i = 0; i < xv.length; i++) {
      if (!Number.isNaN(xv[i]!) || Number.isNaN(yv[i]!)) continue;
      const span = b[i]! - a[i]!;
      if ((yv[i]! - a[i]!) * span < 0) lo[i] = 1;
      else if ((yv[i]! - b[i]!) * span > 0) hi[i] = 1;
    }
    return where(new Tensor(lo, x.shape, 'bool'), -Infinity, where(new Tensor(hi, x.shape, 'bool'), Infinity, x));
  }

  /** `whenUp(x)` where g increases and `whenDown(x)` where it decreases, at x = g⁻¹(y). */
  private monotone(method: string, value: Tensor, whenUp: (x: Tensor) => Tensor, whenDown: (x: Tensor) => Tensor): Tensor {
    const up = this.increasing(method);
    const x = this.inverseClamped(this.full(value));
    if (up === true) return whenUp(x);
    if (up === false) return whenDown(x);
    return where(up, whenUp(x), whenDown(x));
  }
  protected override cdfImpl(y: Tensor): Tensor {
    return this.monotone('cdf', y, (x) => this.distribution.cdf(x), (x) => this.distribution.survivalFunction(x));
  }
  protected override logCdfImpl(y: Tensor): Tensor {
    return this.monotone('logCdf', y, (x) => this.distribution.logCdf(x), (x) => this.distribution.logSurvivalFunction(x));
  }
  protected override survivalFunctionImpl(y: Tensor): Tensor {
    return this.monotone('survivalFunction', y, (x) => this.distribution.survivalFunction(x), (x) => this.distribution.cdf(x));
  }
  protected override logSurvivalFunctionImpl(y: Tensor): Tensor {
    return this.monotone('logSurvivalFunction', y, (x) => this.distribution.logSurvivalFunction(x), (x) => this.distribution.logCdf(x));
  }
  protected override quantileImpl(p: Tensor): Tensor {
    const up = this.increasing('quantile');
    const q = up === true ? p : up === false ? sub(1, p) : where(up, p, sub(1, p));
    return this.bijector.forward(this.distribution.quantile(q));
  }

  /** Whether g increases (per batch member as a tensor when it depends on parameters). */
  private increasing(method: string): boolean | Tensor {
    const b = this.bijector;
    if (this.distribution.eventShape.length !== 0 || this.eventShape.length !== 0 || b.forwardMinEventNdims !== 0) {
      throw new NotImplementedError(`${this.fn}.${method} is only implemented for scalar events and element-wise bijectors`);
    }
    const s = direction(b);
    if (s === undefined) throw new NotImplementedError(`${this.fn}.${method}: cannot tell whether bijector ${b.name} is increasing (give it an isIncreasing() method)`);
    return typeof s === 'number' ? s > 0 : greater(s, 0);
  }

  private affine(method: string): void {
    if (!constantJacobian(this.bijector)) throw new NotImplementedError(`${this.fn}.${method} is only implemented for constant-Jacobian (affine) bijectors; ${this.bijector.name} is not`);
  }
  private fullStat(t: Tensor): Tensor {
    const want = [...this.batchShape, ...this.eventShape];
    return same(t.shape, want) ? t : broadcastTo(t, want);
  }
  protected override meanImpl(): Tensor { this.affine('mean'); return this.fullStat(this.bijector.forward(this.distribution.mean())); }
  protected override modeImpl(): Tensor { this.affine('mode'); return this.fullStat(this.bijector.forward(this.distribution.mode())); }
  protected override stddevImpl(): Tensor {
    this.affine('stddev');
    if (this.bijector.forwardMinEventNdims !== 0 || !same(this.eventShape, this.distribution.eventShape)) {
      throw new NotImplementedError(`${this.fn}.stddev is only implemented for element-wise bijectors`);
    }
    const sd = this.distribution.stddev();
    return this.fullStat(abs(sub(this.bijector.forward(sd), this.bijector.forward(zeros(sd.shape, sd.dtype)))));
  }
  protected override entropyImpl(): Tensor {
    this.affine('entropy');
    const dummy = zeros([...this.batchShape, ...this.eventShape], this.dtype);
    const ildj = this.bijector.inverseLogDetJacobian(dummy, this.eventShape.length);
    return broadcastTo(sub(this.distribution.entropy(), ildj), this.batchShape);
  }

  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Chain({ bijectors: [this.bijector, this.distribution.defaultEventSpaceBijector()] });
  }

  protected override slicedParameters(fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    if (!same(this.batchShape, this.distribution.batchShape)) {
      throw new NotImplementedError(`${fn}: cannot slice a TransformedDistribution whose bijector adds batch dims (batch shape [${this.batchShape.join(', ')}], base [${this.distribution.batchShape.join(', ')}])`);
    }
    return { distribution: this.distribution.slice(...specs) };
  }
}

/** +1 / −1 (or a tensor of signs) for a monotone element-wise bijector; undefined when unknown. */
function direction(b: Bijector): number | Tensor | undefined {
  const hook = (b as { isIncreasing?: () => boolean | TensorLike }).isIncreasing;
  if (typeof hook === 'function') {
    const v = hook.call(b);
    return typeof v === 'boolean' ? (v ? 1 : -1) : where(v, 1, -1);
  }
  if (b instanceof Identity || b instanceof Exp || b instanceof Log || b instanceof Softplus || b instanceof Shift) return 1;
  if (b instanceof Reciprocal) return -1;
  if (b instanceof Invert) return b.bijector.forwardMinEventNdims === 0 && b.bijector.inverseMinEventNdims === 0 ? direction(b.bijector) : undefined;
  if (b instanceof Sigmoid) return b.low === undefined ? 1 : where(greater(b.high!, b.low), 1, -1);
  if (b instanceof Scale) return b.scale === undefined ? 1 : where(greater(b.scale, 0), 1, -1);
  if (b instanceof Chain) {
    let s: number | Tensor = 1;
    for (const part of b.bijectors) {
      if (part.forwardMinEventNdims !== 0 || part.inverseMinEventNdims !== 0) return undefined;
      const t = direction(part);
      if (t === undefined) return undefined;
      s = typeof s === 'number' && typeof t === 'number' ? s * t : mul(s, t);
    }
    return s;
  }
  return undefined;
}

function constantJacobian(b: Bijector): boolean {
  return b.isConstantJacobian || (b instanceof Chain && b.bijectors.every(constantJacobian));
}

/** KL between two transformations of the same bijector (the same object) is the KL of the bases (TFP's rule). */
registerKL(TransformedDistribution, TransformedDistribution, (a, b) => {
  if (a.bijector !== b.bijector) {
    throw new NotImplementedError(`TransformedDistribution.klDivergence: the bijectors differ (${a.bijector.name} vs ${b.bijector.name}); only the same bijector object is supported`);
  }
  return a.distribution.klDivergence(b.distribution);
});
brand(TransformedDistribution, 'TransformedDistribution');   // recognised across copies of stochax (src/brand.ts)
