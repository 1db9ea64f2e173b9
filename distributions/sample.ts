import { brand } from '../src/brand.js';
import { checkShape, fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { mul } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, reshape, transpose, type SliceSpec } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { Bijector } from './bijectors/bijector.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { registerKL } from './kl.js';

export interface SampleOptions extends DistributionOptions {
  /** The distribution drawn from iid. */
  readonly distribution: Distribution;
  /** The shape of the iid draws that make one event: a non-negative integer or an array of them (default `[]`). */
  readonly sampleShape?: number | readonly number[];
}

const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

/**
 * A distribution over iid draws of shape `sampleShape` (TFP's `tfd.Sample`): batch shape
 * `distribution.batchShape`, event shape `sampleShape + distribution.eventShape`, and log
 * density log p(x) = Σᵢ log p₀(xᵢ) over the `sampleShape` positions i.
 *
 * Sampling follows TFP: `distribution.sample([n, ...sampleShape])` with the seed as given (no
 * salt), then the `sampleShape` dims are moved behind the batch dims
 * (`[n, S, B, E] → [n, B, S, E]`). `logProb` moves them back in front of the batch dims before
 * calling the inner `logProb`, and sums over them. Mean, variance, stddev and mode are the inner
 * ones broadcast over `sampleShape`; `entropy` is ∏(sampleShape) times the inner entropy. The
 * default event-space bijector is the inner one applied with the same transposes (TFP's
 * `_DefaultSampleBijector`); its log-det-Jacobian is defined over the whole event.
 * KL(Sample(p) ‖ Sample(q)) = ∏(sampleShape) · KL(p ‖ q) for equal sample shapes (TFP).
 *
 * @throws TypeError when `distribution` is not a Distribution or `sampleShape` is not a shape;
 *   RangeError for a negative size.
 * @example
 * const s = new Sample({ distribution: new Normal({ loc: [0, 10], scale: 1 }), sampleShape: 5 });
 * s.batchShape;               // [2]
 * s.eventShape;               // [5]
 * s.sample(3, { seed: 0 });   // → Tensor float64 [3, 2, 5]
 * s.logProb(s.sample([], { seed: 1 })); // → Tensor float64 [2]
 */
export class Sample extends Distribution {
  static override readonly optionNames = ['distribution', 'sampleShape'];
  readonly distribution: Distribution;

  /** The data check of the distribution it wraps (element by element, so any reshaping of batch into event keeps it). @internal */
  override checkDataSupport(fn: string, arg: string, value: Tensor): void { this.distribution.checkDataSupport(fn, arg, value); }
  readonly sampleShape: readonly number[];

  constructor(options: SampleOptions) {
    const d = options?.distribution;
    if (!(d instanceof Distribution)) fail('type', 'Sample', 'distribution', 'must be a Distribution', d);
    super('Sample', options, d.reparameterizationType === 'FULLY_REPARAMETERIZED', d.dtype);
    this.distribution = d;
    this.sampleShape = Object.freeze(checkShape('Sample', 'sampleShape', options.sampleShape ?? []));
  }

  protected override batchShapeImpl(): readonly number[] { return this.distribution.batchShape; }
  override get eventShape(): readonly number[] { return [...this.sampleShape, ...this.distribution.eventShape]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const s = this.sampleShape.length, b = this.distribution.batchShape.length, e = this.distribution.eventShape.length;
    const x = this.distribution.sample([n, ...this.sampleShape], { seed }); // [n, S, B, E]
    if (s === 0 || b === 0) return x;
    return transpose(x, [0, ...range(1 + s, 1 + s + b), ...range(1, 1 + s), ...range(1 + s + b, 1 + s + b + e)]);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const s = this.sampleShape.length, b = this.batchShape.length, e = this.distribution.eventShape.length;
    // Pad x to at least batch + sample + event rank, then move the sample dims before the batch dims.
    const d = x.ndim - b - s - e;
    const xp = d < 0 ? reshape(x, [...new Array<number>(-d).fill(1), ...x.shape]) : x;
    const lead = Math.max(0, d);
    const perm = [...range(0, lead), ...range(lead + b, lead + b + s), ...range(lead, lead + b), ...range(lead + b + s, xp.ndim)];
    const lp = this.distribution.logProb(s === 0 || b === 0 ? xp : transpose(xp, perm)); // [lead, S, B']
    // Broadcast over the sample dims (a value may broadcast there), then sum them out.
    const want = broadcastShapes(`${this.fn}.logProb`, [['logProb', lp.shape], ['sampleShape', [...new Array<number>(lead).fill(1), ...this.sampleShape, ...new Array<number>(b).fill(1)]]]);
    const full = lp.shape.length === want.length && lp.shape.every((v, i) => v === want[i]) ? lp : broadcastTo(lp, want);
    return s === 0 ? full : sum(full, range(lead, lead + s));
  }

  protected override entropyImpl(): Tensor { return mul(this.distribution.entropy(), sizeOf(this.sampleShape)); }
  protected override meanImpl(): Tensor { return this.spread(this.distribution.mean()); }
  protected override varianceImpl(): Tensor { return this.spread(this.distribution.variance()); }
  protected override stddevImpl(): Tensor { return this.spread(this.distribution.stddev()); }
  protected override modeImpl(): Tensor { return this.spread(this.distribution.mode()); }

  /** An inner statistic [B, E] broadcast to [B, S, E]. */
  private spread(t: Tensor): Tensor {
    const b = this.batchShape, e = this.distribution.eventShape;
    const y = reshape(t, [...b, ...this.sampleShape.map(() => 1), ...e]);
    return broadcastTo(y, [...b, ...this.sampleShape, ...e]);
  }

  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new SampleBijector(this.distribution.defaultEventSpaceBijector(), this.batchShape.length, this.sampleShape.length, this.distribution.eventShape);
  }

  protected override slicedParameters(_fn: string, specs: readonly (number | SliceSpec | null)[]): Record<string, unknown> {
    return { distribution: this.distribution.slice(...specs), sampleShape: this.sampleShape };
  }
}
brand(Sample, 'Sample');   // recognised across copies of stochax (src/brand.ts)

/**
 * The inner event-space bijector applied to `[..., B, S, E]` values: the sample dims are moved
 * in front of the batch dims, the inner bijector runs, and they are moved back (so a bijector
 * with batch-shaped parameters lines up with the batch dims). Its minimal event is the whole
 * `S + E` event; the log-det-Jacobian sums the inner one over the sample dims.
 */
class SampleBijector extends Bijector {
  readonly forwardMinEventNdims: number;
  private readonly outMin: number;
  private readonly inEvent: number;
  private readonly outEvent: number;
  constructor(readonly inner: Bijector, private readonly b: number, private readonly s: number, event: readonly number[]) {
    super('SampleBijector', undefined);
    this.outEvent = event.length;
    this.inEvent = inner.inverseEventShape(event).length;
    this.forwardMinEventNdims = s + this.inEvent;
    this.outMin = s + this.outEvent;
  }
  override get inverseMinEventNdims(): number { return this.outMin; }
  /** Pads to batch rank, then `[lead, B, S, E] → [lead, S, B, E]` (or back with `back`). */
  private move(x: Tensor, e: number, back: boolean): Tensor {
    const { b, s } = this;
    const d = x.ndim - b - s - e;
    const xp = d < 0 ? reshape(x, [...new Array<number>(-d).fill(1), ...x.shape]) : x;
    if (b === 0 || s === 0) return xp;
    const lead = Math.max(0, d);
    const perm = back
      ? [...range(0, lead), ...range(lead + s, lead + s + b), ...range(lead, lead + s), ...range(lead + s + b, xp.ndim)]
      : [...range(0, lead), ...range(lead + b, lead + b + s), ...range(lead, lead + b), ...range(lead + b + s, xp.ndim)];
    return transpose(xp, perm);
  }
  protected forwardImpl(x: Tensor): Tensor { return this.move(this.inner.forward(this.move(x, this.inEvent, false)), this.outEvent, true); }
  protected inverseImpl(y: Tensor): Tensor { return this.move(this.inner.inverse(this.move(y, this.outEvent, false)), this.inEvent, true); }
  /** Inner ldj over E at `[lead, S, B]`, summed over S → `[lead, B]`. */
  protected override forwardLogDetJacobianImpl(x: Tensor): Tensor {
    const xm = this.move(x, this.inEvent, false);
    const ldj = this.inner.forwardLogDetJacobian(xm, this.inEvent);
    const lead = xm.ndim - this.b - this.s - this.inEvent;
    return this.s === 0 ? ldj : sum(ldj, range(lead, lead + this.s));
  }
  override forwardEventShape(shape: readonly number[]): number[] {
    return [...shape.slice(0, this.s), ...this.inner.forwardEventShape(shape.slice(this.s))];
  }
  override inverseEventShape(shape: readonly number[]): number[] {
    return [...shape.slice(0, this.s), ...this.inner.inverseEventShape(shape.slice(this.s))];
  }
}

/** KL(Sample(p, S) ‖ Sample(q, S)) = ∏S · KL(p ‖ q) (TFP's rule; the sample shapes must be equal). */
registerKL(Sample, Sample, (a, b) => {
  const sa = a.sampleShape, sb = b.sampleShape;
  if (sa.length !== sb.length || sa.some((v, i) => v !== sb[i])) {
    throw new RangeError(`Sample.klDivergence: the sample shapes differ: [${sa.join(', ')}] and [${sb.join(', ')}]`);
  }
  return mul(a.distribution.klDivergence(b.distribution), sizeOf(sa));
});
