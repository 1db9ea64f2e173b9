import { brand } from '../src/brand.js';
import { checkShape, fail } from '../src/checks.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { numbers, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { full } from '../src/tensor/ops/create.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Exp } from './bijectors/exp.js';
import { Identity } from './bijectors/identity.js';
import { Scale } from './bijectors/scale.js';
import { Shift } from './bijectors/shift.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, NotImplementedError, type DistributionOptions } from './distribution.js';
import type { Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';

export interface ImproperUniformOptions extends DistributionOptions {
  /** Lower bound (default −∞: no lower bound); finite where given. Broadcasts against `batchShape + eventShape`. */
  readonly low?: TensorLike;
  /** Upper bound (default +∞: no upper bound); finite where given, and above `low`. */
  readonly high?: TensorLike;
  /** Batch shape (default: the leading dims of `low`/`high`'s broadcast shape not covered by `eventShape`). */
  readonly batchShape?: number | readonly number[];
  /** Event shape (default `[]`): the shape of one value, e.g. `[3]` for three flat coefficients. */
  readonly eventShape?: number | readonly number[];
}

const FN = 'ImproperUniform';
// logProb's functions at module scope: one function for every call, named by the portable registry (a compiled model's workers resolve them by name).
const logProbInside = (v: number, l: number, h: number): number => (v >= l && v <= h ? 0 : -Infinity);
const logProbInsidePartials = (out: Float64Array): void => { out[0] = 0; out[1] = 0; out[2] = 0; };

/**
 * The improper flat prior: density 1 (log density 0) everywhere on ℝ, on a half-line
 * [low, ∞) or (−∞, high], or on an interval [low, high]; −∞ outside. This is Stan's default
 * for a parameter given no prior (`real<lower=0> sigma;`), and NumPyro's
 * `dist.ImproperUniform(support, batch_shape, event_shape)` (PyMC: `pm.Flat`, `pm.HalfFlat`).
 * TFP has none.
 *
 * Why this name: NumPyro's one class covers all three supports, as this one does, and like this
 * one it states its batch and event shapes explicitly (it has nothing to draw them from);
 * PyMC's `Flat`/`HalfFlat` are one support each. The bounds take `Uniform`'s names (`low`,
 * `high`), which are also Stan's `<lower, upper>`.
 *
 * Its default event-space bijector is Stan's transform for the support (what MCMC samples in):
 * the identity on ℝ; x = low + exp(u) with only `low`; x = high − exp(u) with only `high`; and
 * x = low + (high − low)·logistic(u) (TFP's `Sigmoid(low, high)`) with both. With
 * {@link JointDistributionNamed} and friends the node is never drawn: pinning, the joint
 * bijector, `compileLogDensity` and `windowedAdaptiveNuts` learn its shapes from
 * `batchShape`/`eventShape` and start MCMC at uniform(−2, 2) in unconstrained space, as for every
 * node. The posterior is proper only if the likelihood makes it so.
 *
 * `logProb(x)` is 0 where every element of the event is in the (closed) support and −∞
 * elsewhere (also for NaN); its gradient is 0. `sample` throws `NotImplementedError` (an
 * improper distribution has no draws); so does every moment.
 *
 * @throws TypeError for a bound that is not numeric, or an unknown option; RangeError for a
 *   bound that is not finite (omit it instead), `low ≥ high`, a bad shape, or bounds that do not
 *   broadcast to `batchShape + eventShape`.
 * @example
 * import { ImproperUniform, JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * new ImproperUniform().logProb(1e6);                   // → Tensor float64 []: 0
 * new ImproperUniform({ low: 0 }).logProb([-1, 2]);     // → [-Infinity, 0] (a half-flat prior)
 * new ImproperUniform({ eventShape: [3] }).eventShape;  // [3] (three flat coefficients)
 * new ImproperUniform({ low: 0, high: 1 }).defaultEventSpaceBijector(); // Sigmoid(0, 1)
 * // Stan's `real mu; real<lower=0> sigma; y ~ normal(mu, sigma);`
 * const model = new JointDistributionNamed({
 *   mu: new ImproperUniform(),
 *   sigma: new ImproperUniform({ low: 0 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 10 }),
 * });
 * model.experimentalPin({ y: new Array(10).fill(1) }).unnormalizedLogProb({ mu: 1, sigma: 2 }); // → Tensor float64 []
 */
export class ImproperUniform extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    low: { eventNdims: 0 },
    high: { eventNdims: 0 },
  };
  static override readonly optionNames: readonly string[] = ['batchShape', 'eventShape'];
  /** The lower bound as given (undefined: none). */
  readonly low: Tensor | undefined;
  /** The upper bound as given (undefined: none). */
  readonly high: Tensor | undefined;
  private readonly declaredBatch: readonly number[];
  private readonly declaredEvent: readonly number[];

  constructor(options: ImproperUniformOptions = {}) {
    super(FN, options, true);
    this.low = this.params.low;
    this.high = this.params.high;
    const o = options as ImproperUniformOptions;
    for (const [arg, t] of [['low', this.low], ['high', this.high]] as const) {
      if (t === undefined) continue;
      const v = numbers(t);
      for (let i = 0; i < v.length; i++) {
        if (!Number.isFinite(v[i])) fail('range', FN, arg, `must be finite (omit \`${arg}\` for no ${arg === 'low' ? 'lower' : 'upper'} bound)`, v[i]);
      }
    }
    if (this.low !== undefined && this.high !== undefined) {
      fusedMap(FN, [['low', this.low], ['high', this.high]], (l, h) => {
        if (!(l < h)) fail('range', FN, 'low', `must be less than \`high\` (${h})`, l);
        return 0;
      });
    }
    this.declaredEvent = Object.freeze(o.eventShape === undefined ? [] : checkShape(FN, 'eventShape', o.eventShape));
    const paramShape = broadcastShapes(FN, [['low', this.low?.shape ?? []], ['high', this.high?.shape ?? []]]);
    this.declaredBatch = Object.freeze(o.batchShape === undefined
      ? paramShape.slice(0, Math.max(0, paramShape.length - this.declaredEvent.length))
      : checkShape(FN, 'batchShape', o.batchShape));
    const fullShape = [...this.declaredBatch, ...this.declaredEvent];
    const b = broadcastShapes(FN, [['batchShape + eventShape', fullShape], ['low', this.low?.shape ?? []], ['high', this.high?.shape ?? []]]);
    if (b.length !== fullShape.length || b.some((d, i) => d !== fullShape[i])) {
      fail('range', FN, this.low !== undefined ? 'low' : 'high', `has shape [${paramShape.join(', ')}], which does not fit batchShape + eventShape [${fullShape.join(', ')}] (give \`batchShape\` or \`eventShape\`)`, paramShape);
    }
  }

  override get eventShape(): readonly number[] { return this.declaredEvent; }
  protected override batchShapeImpl(): readonly number[] { return this.declaredBatch; }

  protected sampleN(): Tensor {
    throw new NotImplementedError(`${FN}.sample: an improper prior has no draws (its density does not integrate to 1); sample a posterior that uses it with MCMC instead`);
  }

  private bounds(): [Tensor, Tensor] {
    const dt = this.dtype;
    return [this.low ?? full([], -Infinity, dt), this.high ?? full([], Infinity, dt)];
  }

  protected override get support(): Constraint {
    return {
      what: 'must be in [low, high]',
      check: (fn, arg, t) => {
        const [lo, hi] = this.bounds();
        const inside = numbers(fusedMap(fn, [['value', t], ['low', lo], ['high', hi]], (v, l, h) => (v >= l && v <= h ? 1 : 0)));
        const v = numbers(t);
        for (let i = 0; i < inside.length; i++) if (!inside[i]) fail('range', fn, t.ndim === 0 ? arg : `${arg}[${i}]`, 'must be in [low, high]', v[i % v.length]);
      },
    };
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const [lo, hi] = this.bounds();
    const fn = `${FN}.logProb`;
    const lp = fusedMap(fn, [['value', x], ['low', lo], ['high', hi]], logProbInside, logProbInsidePartials);
    const e = this.declaredEvent.length;
    const shape = broadcastShapes(fn, [['value', lp.shape], ['batchShape + eventShape', [...this.declaredBatch, ...this.declaredEvent]]]);
    const b = broadcastTo(lp, shape);
    return e === 0 ? b : sum(b, Array.from({ length: e }, (_, i) => shape.length - e + i));
  }

  protected override defaultEventSpaceBijectorImpl(): Bijector {
    const { low, high } = this;
    if (low !== undefined && high !== undefined) return new Sigmoid({ low, high });
    if (low !== undefined) return new Chain({ bijectors: [new Shift({ shift: low }), new Exp()] });
    if (high !== undefined) return new Chain({ bijectors: [new Shift({ shift: high }), new Scale({ scale: -1 }), new Exp()] });
    return new Identity();
  }
}
brand(ImproperUniform, 'ImproperUniform');   // recognised across copies of stochax (src/brand.ts)
