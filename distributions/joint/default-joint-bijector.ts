import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { Bijector } from '../bijectors/bijector.js';
import type { Distribution } from '../distribution.js';
import type { JointDistributionPinned } from './joint-distribution-pinned.js';
import { isPlainObject, toValue, type PartialValues, type Struct, type StructKind } from './values.js';

/**
 * The default event-space bijector of a joint distribution or of a pinned one (TFP's
 * `_DefaultJointBijector`): it maps unconstrained reals onto the support of every unpinned node.
 * Node i's bijector is `dᵢ.defaultEventSpaceBijector()`, where dᵢ is node i's distribution given
 * the *constrained* values upstream of it — so a child `Uniform(0, x)` is mapped with
 * `Sigmoid(0, x)` for the current x. Pinned nodes are not transformed; their pins are fed to the
 * model.
 *
 * Typed API (structures are those of the pinned distribution: an array of the unpinned nodes in
 * model order, or a record keyed by unpinned node name; a single tensor for one unpinned node):
 * - `forward(x)` / `inverse(y)`: structure → structure;
 * - `forwardLogDetJacobian(x)` / `inverseLogDetJacobian(y)`: one tensor, the sum over nodes of
 *   each node's log|det J| reduced over that node's event dims (the parts broadcast, like
 *   log-prob parts);
 * - `forwardAndLogDetJacobian(x)`: `[forward(x), forwardLogDetJacobian(x)]` in one model run —
 *   the unconstrained MCMC target is `u ↦ lp(f(u)) + fldj(u)`;
 * - `forwardEventShape(shapes)` / `inverseEventShape(shapes)`: structures of event shapes.
 * Not a `Bijector` subclass: its inputs and outputs are structures, not tensors. Every method is
 * differentiable through the autodiff tape.
 *
 * @example
 * const pinned = jd.experimentalPin({ y: data });           // free nodes mu ∈ ℝ, sigma > 0
 * const bij = pinned.defaultEventSpaceBijector();
 * const target = (u: Record<string, Tensor>) => {           // the unconstrained MCMC target
 *   const [x, ldj] = bij.forwardAndLogDetJacobian(u);
 *   return add(pinned.unnormalizedLogProb(x), ldj);
 * };
 * bij.inverse({ mu: 0.2, sigma: 1.5 });                     // { mu: 0.2, sigma: log(e^1.5 − 1) }
 */
export class DefaultJointBijector<K extends StructKind> {
  readonly name = 'DefaultJointBijector';

  constructor(readonly pinned: JointDistributionPinned<K>) {}

  /** Runs the model on `values` (unconstrained for 'forward', constrained for 'inverse'), mapping each free node. */
  private walk(method: string, values: PartialValues, forward: boolean, wantLdj: boolean): [Struct<K, Tensor>, Tensor] {
    const fn = `${this.name}.${method}`;
    const pinned = this.pinned;
    const jd = pinned.distribution;
    const full = pinned.fullValues(fn, forward ? 'x' : 'y', values);
    const out: Tensor[] = [];
    let ldj: Tensor | undefined;
    jd.executeModel(fn, (i, d) => {
      const v = full[i];
      const name = jd.nodeNames[i]!;
      if (v === undefined || v === null) fail('type', fn, `${forward ? 'x' : 'y'}.${name}`, 'is missing (every unpinned node needs a value)', v);
      const t = toValue(fn, `${forward ? 'x' : 'y'}.${name}`, d.dtype, v);
      if (pinned.isPinned(i)) { out.push(t); return t; }
      const b = d.defaultEventSpaceBijector();
      const yNd = d.eventShape.length;
      const part = forward ? b.forward(t) : b.inverse(t);
      if (wantLdj) {
        const l = forward ? b.forwardLogDetJacobian(t, inverseEventNdims(b, yNd)) : b.inverseLogDetJacobian(t, yNd);
        ldj = ldj === undefined ? l : add(ldj, l);
      }
      out.push(part);
      return forward ? part : t;          // the model always receives constrained values
    });
    return [pinned.prune(out), ldj ?? zeros([])];
  }

  /**
   * Unconstrained → constrained, node by node in model order.
   * @throws TypeError when a free node's value is missing; RangeError for pinned or unknown names.
   * @example
   * bij.forward({ mu: 0.2, sigma: 0 }); // { mu: 0.2, sigma: log 2 }
   */
  forward(x: PartialValues): Struct<K, Tensor> { return this.walk('forward', x, true, false)[0]; }

  /** Constrained → unconstrained. */
  inverse(y: PartialValues): Struct<K, Tensor> { return this.walk('inverse', y, false, false)[0]; }

  /** Σ over free nodes of log|det ∂fᵢ/∂xᵢ|, each over its node's event dims. */
  forwardLogDetJacobian(x: PartialValues): Tensor { return this.walk('forwardLogDetJacobian', x, true, true)[1]; }

  /** Σ over free nodes of log|det ∂fᵢ⁻¹/∂yᵢ| = −forwardLogDetJacobian(inverse(y)). */
  inverseLogDetJacobian(y: PartialValues): Tensor { return this.walk('inverseLogDetJacobian', y, false, true)[1]; }

  /** `[forward(x), forwardLogDetJacobian(x)]` from one run of the model. */
  forwardAndLogDetJacobian(x: PartialValues): [Struct<K, Tensor>, Tensor] { return this.walk('forwardAndLogDetJacobian', x, true, true); }

  /** `[inverse(y), inverseLogDetJacobian(y)]` from one run of the model. */
  inverseAndLogDetJacobian(y: PartialValues): [Struct<K, Tensor>, Tensor] { return this.walk('inverseAndLogDetJacobian', y, false, true); }

  /**
   * The event shapes of `forward`'s output given input (unconstrained) event shapes; by default
   * the unconstrained shapes of the pinned distribution's nodes.
   * @example
   * bij.inverseEventShape(); // e.g. { mu: [], sigma: [] } — the shapes MCMC initial states need
   */
  forwardEventShape(shapes?: Struct<K, readonly number[]>): Struct<K, number[]> {
    return this.mapShapes('forwardEventShape', shapes ?? this.inverseEventShape(), (b, s) => b.forwardEventShape(s));
  }

  /** The unconstrained event shapes for constrained event shapes (default: the pinned distribution's `eventShape`). */
  inverseEventShape(shapes?: Struct<K, readonly number[]>): Struct<K, number[]> {
    return this.mapShapes('inverseEventShape', shapes ?? this.pinned.eventShape, (b, s) => b.inverseEventShape(s));
  }

  private mapShapes(method: string, shapes: unknown, f: (b: Bijector, s: readonly number[]) => number[]): Struct<K, number[]> {
    const fn = `${this.name}.${method}`;
    const pinned = this.pinned;
    const dists: Distribution[] = pinned.singleSampleDistributions();
    const free = pinned.unpinnedNames;
    const names = pinned.distribution.nodeNames;
    const get = (name: string, j: number): readonly number[] => {
      const s = Array.isArray(shapes) ? shapes[j] : isPlainObject(shapes) ? shapes[name] : undefined;
      if (!Array.isArray(s)) fail('type', fn, `shapes.${name}`, 'must be a shape (an array of integers)', s);
      return s as readonly number[];
    };
    const out = names.map((n, i) => (pinned.isPinned(i) ? [] : f(dists[i]!.defaultEventSpaceBijector(), get(n, free.indexOf(n)))));
    return pinned.prune(out);
  }
}
brand(DefaultJointBijector, 'DefaultJointBijector');   // recognised across copies of stochax (src/brand.ts)

/** TFP's `inverse_event_ndims`: the rank, in the unconstrained space, of an event of rank `nd` in the constrained space. */
function inverseEventNdims(b: Bijector, nd: number): number {
  return nd - b.inverseMinEventNdims + b.forwardMinEventNdims;
}
