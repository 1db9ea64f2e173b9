/**
 * A pinned joint distribution as a function of flat unconstrained parts: the model's default
 * joint bijector composed with a flattening of every unpinned node to `[..., n_j]`, and the
 * unconstrained target `lp(f(u)) + log|det ∂f/∂u|`. Shared by `compileLogDensity` and the
 * samplers' setup.
 */
import { fail } from '../../src/checks.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { reshape } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { eliminate, enumerationPlan, type EnumerationPlan } from '../enumerate/enumerate.js';
import { gibbsPlan, gibbsUnsupported, type GibbsPlan } from '../enumerate/gibbs-plan.js';
import type { DefaultJointBijector } from './default-joint-bijector.js';
import type { JointDistributionPinned } from './joint-distribution-pinned.js';
import type { StructKind } from './values.js';

/** A pinned model flattened to one `[..., n_j]` part per unpinned node, in `unpinnedNames` order. */
export interface FlatModel {
  readonly pinned: JointDistributionPinned<StructKind>;
  readonly bijector: DefaultJointBijector<StructKind>;
  readonly names: readonly string[];
  /** Unconstrained event shape per node. */
  readonly shapes: readonly (readonly number[])[];
  /** Unconstrained event size per node (n_j). */
  readonly sizes: readonly number[];
  /** Unconstrained parts `[..., ...shape_j]` → the bijector's input structure. */
  struct(parts: readonly Tensor[]): Record<string, Tensor> | Tensor[];
  /** A structure of the model's values → parts in `names` order. */
  parts(s: unknown): Tensor[];
  /** Flat parts `[..., n_j]` → unconstrained parts `[..., ...shape_j]`. */
  unflatten(flat: readonly Tensor[]): Tensor[];
  /** Unconstrained parts `[B..., ...shape_j]` (B batch dims) → flat parts `[B..., n_j]`. */
  flatten(parts: readonly Tensor[], batchRank: number): Tensor[];
  /** The unconstrained, flattened target: one log density per chain. */
  target(...flat: Tensor[]): Tensor;
  /**
   * How the model's unpinned discrete nodes are summed out of `target` (`distributions/enumerate/`);
   * absent when there are none. `pinned` is then `enumeration.pinned` (the sites pinned to placeholders).
   */
  readonly enumeration?: EnumerationPlan;
  /**
   * The discrete nodes that cannot be summed out, sampled by Gibbs steps (`distributions/enumerate/gibbs-plan.ts`);
   * present only with the option `gibbs: true`. `pinned` then has them pinned to placeholders.
   */
  readonly gibbs?: GibbsPlan;
  /** With `gibbs`: the target with the Gibbs sites at `discrete` (one tensor per site) instead of their placeholders. */
  gibbsTarget?(discrete: readonly Tensor[], ...flat: Tensor[]): Tensor;
  /** False when `target` leaves out the log-Jacobian (`lp(f(u))` alone: the optimisers' `jacobian: false`); absent or true otherwise. */
  readonly jacobian?: boolean;
}

export interface FlatModelOptions {
  /** Include log|det ∂f/∂u| in `target` (default true; `false` is Stan's `jacobian=0` for optimisation). */
  readonly jacobian?: boolean;
  /**
   * Allow discrete nodes that cannot be enumerated (they become `gibbs` sites); otherwise such a
   * node is a RangeError naming it and `gibbsHow` (what the caller can do instead).
   */
  readonly gibbs?: boolean;
  readonly gibbsHow?: string;
}

export function flatModel(fn: string, given: JointDistributionPinned<StructKind>, options: FlatModelOptions = {}): FlatModel {
  const jacobian = options.jacobian !== false;
  // Discrete nodes that cannot be summed out are pinned to placeholders (Gibbs steps sample them), or an error.
  const gibbs = gibbsPlan(fn, given);
  if (gibbs !== undefined && options.gibbs !== true) gibbsUnsupported(fn, gibbs, options.gibbsHow ?? "sample it with windowedAdaptiveNuts (adaptation: 'per-chain'), which gives such nodes Gibbs steps");
  // Unpinned discrete nodes are summed out: the samplers see the continuous ones only.
  const enumeration = enumerationPlan(fn, gibbs?.pinned ?? given);
  const pinned = enumeration?.pinned ?? gibbs?.pinned ?? given;
  const logProbOf = (p: JointDistributionPinned<StructKind>) => (enumeration === undefined ? (x: unknown) => p.unnormalizedLogProb(x as never) : (x: unknown) => eliminate(fn, { ...enumeration, pinned: p }, x as never));
  const logProb = logProbOf(pinned);
  const bijector = pinned.defaultEventSpaceBijector();
  const names = pinned.unpinnedNames;
  if (names.length === 0 && gibbs !== undefined) fail('range', fn, 'model', `model "${pinned.distribution.name}" has only discrete nodes left to sample (${gibbs.sites.map((g) => `\`${g.name}\``).join(', ')}); their Gibbs steps run beside NUTS, which needs at least one continuous node`, gibbs.sites.map((g) => g.name));
  if (names.length === 0) fail('range', fn, 'pins', `pin every node of model "${pinned.distribution.name}"; nothing is left to sample`, Object.keys(pinned.pins));
  const isRecord = pinned.distribution.structKind === 'record';
  const batch = pinned.batchShape as unknown;
  names.forEach((n, j) => {
    const b = (isRecord ? (batch as Record<string, readonly number[]>)[n] : (batch as (readonly number[])[])[j])!;
    if (b.length > 0) {
      fail('range', fn, 'model', `node \`${n}\` of model "${pinned.distribution.name}" has batch shape [${b.join(', ')}]; sampling it needs a scalar batch shape (wrap the node in Independent or Sample)`, b);
    }
  });
  const pick = <T>(s: unknown): T[] => (isRecord ? names.map((n) => (s as Record<string, T>)[n]!) : [...(s as T[])]);
  const toParts = (s: unknown): Tensor[] => pick<Tensor>(s);
  const shapes = pick<number[]>(bijector.inverseEventShape());
  const sizes = shapes.map((s) => sizeOf(s));
  // Records keep the model's key order (as its samples do), whatever the node order.
  const keyOrder = isRecord ? Object.keys(pinned.distribution.unflattenParts(pinned.distribution.nodeNames) as Record<string, string>).filter((k) => names.includes(k)) : [];
  const struct = (parts: readonly Tensor[]) => (isRecord ? Object.fromEntries(keyOrder.map((n) => [n, parts[names.indexOf(n)]!])) : [...parts]);
  const unflatten = (flat: readonly Tensor[]) => flat.map((f, j) => reshape(f, [...f.shape.slice(0, -1), ...shapes[j]!]));
  return {
    pinned, bijector, names, shapes, sizes, struct, parts: toParts, unflatten,
    flatten: (parts, batchRank) => parts.map((p, j) => reshape(p, [...p.shape.slice(0, batchRank), sizes[j]!])),
    target: (...flat) => {
      const [x, ldj] = bijector.forwardAndLogDetJacobian(struct(unflatten(flat)));
      return jacobian ? add(logProb(x), ldj) : logProb(x);
    },
    ...(jacobian ? {} : { jacobian: false }),
    ...(enumeration === undefined ? {} : { enumeration }),
    ...(gibbs === undefined ? {} : {
      gibbs,
      gibbsTarget: (discrete: readonly Tensor[], ...flat: Tensor[]) => {
        // The same model with the sites at these values: its bijector too (a continuous node may depend on a discrete one).
        const p = pinned.distribution.experimentalPin({ ...pinned.pins, ...gibbs.pins(discrete) });
        const [x, ldj] = p.defaultEventSpaceBijector().forwardAndLogDetJacobian(struct(unflatten(flat)));
        const lp = logProbOf(p)(x);
        return jacobian ? add(lp, ldj) : lp;
      },
    }),
  };
}
