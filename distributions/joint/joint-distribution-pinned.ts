import { brand } from '../../src/brand.js';
import { checkOptions, fail } from '../../src/checks.js';
import { zerosSeed, type Seed } from '../../src/samplers/seeds.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { DType } from '../../src/tensor/dtype.js';
import type { Distribution } from '../distribution.js';
import { DefaultJointBijector } from './default-joint-bijector.js';
import type { JointDistribution } from './joint-distribution.js';
import { isPlainObject, toValue, type PartialValues, type Struct, type StructKind, type ValueLike } from './values.js';

/** `logProbParts` of a pinned distribution: the pinned nodes' parts and the others'. */
export interface PinnedLogProbParts<K extends StructKind> {
  readonly pinned: Struct<K, Tensor>;
  readonly unpinned: Struct<K, Tensor>;
}

/**
 * A joint distribution with some nodes fixed (TFP's `JointDistributionPinned`, made by
 * `jd.experimentalPin(pins)`): "`functools.partial` for a joint distribution". It represents
 * the unnormalized density p(unpinned, pins) over the unpinned nodes — the MCMC target of a
 * Bayesian model whose data nodes are pinned. Not a `Distribution`: it has no `sample`.
 *
 * Values of the unpinned nodes are structured like the model with the pinned nodes left out:
 * an array of the unpinned nodes in model order (array-structured models; a record by node name
 * is accepted too), or a record keyed by the unpinned names (`JointDistributionNamed`). A single
 * tensor is accepted when exactly one node is unpinned.
 *
 * @throws RangeError when `pins` names unknown nodes.
 * @example
 * const pinned = jd.experimentalPin({ y: data });
 * pinned.unnormalizedLogProb({ mu: 0.3, sigma: 1.1 });          // → Tensor float64 []
 * const [v, g] = valueAndGrad((s) => pinned.unnormalizedLogProb(s))({ mu: 0.3, sigma: 1.1 });
 * const bij = pinned.defaultEventSpaceBijector();               // ℝ² → ℝ × (0, ∞)
 */
export class JointDistributionPinned<K extends StructKind> {
  readonly distribution: JointDistribution<K>;
  readonly name: string;
  /** Pinned values in model order (undefined: unpinned). */
  private readonly flatPins: readonly (Tensor | undefined)[];

  constructor(distribution: JointDistribution<K>, pins: PartialValues, options: { name?: string } = {}) {
    const fn = 'JointDistributionPinned';
    if (typeof (distribution as { executeSample?: unknown } | undefined)?.executeSample !== 'function') {
      fail('type', fn, 'distribution', 'must be a JointDistribution', distribution);
    }
    this.distribution = distribution;
    this.name = checkOptions(fn, options, ['name']).name ?? `Pinned${distribution.name}`;
    const names = distribution.nodeNames;
    const flat = distribution.flattenValues(fn, 'pins', pins);
    if (flat.length > names.length) fail('range', fn, 'pins', `has ${flat.length} entries but the model has ${names.length} nodes`, pins);
    const dists = distribution.singleSampleDistributions();
    this.flatPins = Object.freeze(names.map((n, i) => {
      const v = flat[i];
      return v === undefined || v === null ? undefined : toValue(fn, `pins.${n}`, dists[i]!.dtype, v);
    }));
  }

  /** The pinned values, by node name. */
  get pins(): Readonly<Record<string, Tensor>> {
    const out: Record<string, Tensor> = {};
    this.distribution.nodeNames.forEach((n, i) => { if (this.flatPins[i] !== undefined) out[n] = this.flatPins[i]!; });
    return out;
  }

  /** The names of the nodes left free, in model order. */
  get unpinnedNames(): string[] { return this.distribution.nodeNames.filter((_, i) => this.flatPins[i] === undefined); }

  /** True if node i (model order) is pinned. @internal */
  isPinned(i: number): boolean { return this.flatPins[i] !== undefined; }

  /**
   * Values for the unpinned nodes merged with the pins, in model order (`undefined` where a free
   * node was not given). @internal
   */
  fullValues(fn: string, arg: string, values: unknown): ValueLike[] {
    const names = this.distribution.nodeNames;
    const free = this.unpinnedNames;
    const out: ValueLike[] = [...this.flatPins];
    const put = (name: string, v: unknown) => { if (v !== undefined && v !== null) out[names.indexOf(name)] = v as ValueLike; };
    if (Array.isArray(values) && this.distribution.structKind === 'array') {
      if (values.length > free.length) fail('range', fn, arg, `has ${values.length} entries but ${free.length} nodes are unpinned (${free.join(', ')})`, values);
      values.forEach((v, j) => put(free[j]!, v));
    } else if (isPlainObject(values)) {
      for (const [k, v] of Object.entries(values)) {
        if (!free.includes(k)) {
          fail('range', fn, arg, names.includes(k) ? `names \`${k}\`, which is pinned` : `names an unknown node \`${k}\` (the unpinned nodes are ${free.join(', ')})`, values);
        }
        put(k, v);
      }
    } else if (free.length === 1 && !Array.isArray(values) && values !== undefined && values !== null) {
      put(free[0]!, values);
    } else {
      fail('type', fn, arg, `must be ${this.distribution.structKind === 'array' ? 'an array or ' : ''}a record of the unpinned nodes' values (${free.join(', ')})`, values);
    }
    return out;
  }

  /** A per-node structure with the pinned nodes removed. @internal */
  prune<T>(full: readonly T[]): Struct<K, T> {
    const s = this.distribution.unflattenParts(full);
    if (Array.isArray(s)) return s.filter((_, i) => this.flatPins[i] === undefined) as Struct<K, T>;
    const rec = s as Record<string, T>;
    for (const n of Object.keys(this.pins)) delete rec[n];
    return rec as Struct<K, T>;
  }

  /** The model's values as a record by node name (for the underlying distribution's methods). */
  private modelValues(fn: string, values: unknown): Record<string, ValueLike> {
    const full = this.fullValues(fn, 'values', values);
    return Object.fromEntries(this.distribution.nodeNames.map((n, i) => [n, full[i]]));
  }

  /**
   * log p(values, pins), unnormalized as a density of the unpinned nodes: the MCMC target.
   * Differentiable in the values (call it inside `valueAndGrad`).
   * @throws TypeError when an unpinned node's value is missing; RangeError for a pinned or unknown name.
   * @example
   * pinned.unnormalizedLogProb({ mu: 0.3, sigma: 1.1 }); // → Tensor float64 []
   */
  unnormalizedLogProb(values: PartialValues): Tensor {
    return this.distribution.unnormalizedLogProb(this.modelValues(`${this.name}.unnormalizedLogProb`, values));
  }

  /** The joint log density log p(values, pins) (the same number as `unnormalizedLogProb`; it is not normalized over the unpinned nodes). */
  logProb(values: PartialValues): Tensor {
    return this.distribution.logProb(this.modelValues(`${this.name}.logProb`, values));
  }

  /** Each node's log density, split into `{ pinned, unpinned }` parts. */
  logProbParts(values: PartialValues): PinnedLogProbParts<K> {
    const parts = this.distribution.logProbParts(this.modelValues(`${this.name}.logProbParts`, values));
    return this.split(parts);
  }

  /** Each node's unnormalized log density, split into `{ pinned, unpinned }` parts. */
  unnormalizedLogProbParts(values: PartialValues): PinnedLogProbParts<K> {
    const parts = this.distribution.unnormalizedLogProbParts(this.modelValues(`${this.name}.unnormalizedLogProbParts`, values));
    return this.split(parts);
  }

  private split(parts: Struct<K, Tensor>): PinnedLogProbParts<K> {
    const flat = Array.isArray(parts) ? parts : this.distribution.nodeNames.map((n) => (parts as Record<string, Tensor>)[n]!);
    const pinned = Array.isArray(parts)
      ? flat.filter((_, i) => this.flatPins[i] !== undefined)
      : Object.fromEntries(Object.keys(this.pins).map((n) => [n, (parts as Record<string, Tensor>)[n]!]));
    return { pinned: pinned as Struct<K, Tensor>, unpinned: this.prune(flat) };
  }

  /**
   * log p(pins | values): the pinned nodes' log densities at the given unpinned values (TFP's
   * `log_weight`, the importance weight of an ancestral draw), plus the model's log-density terms
   * (`factor`), which ancestral draws ignore.
   */
  logWeight(values: PartialValues): Tensor {
    const fn = `${this.name}.logWeight`;
    const all = this.modelValues(fn, values);
    const parts = this.distribution.logProbParts(all);
    const flat = Array.isArray(parts) ? parts : this.distribution.nodeNames.map((n) => (parts as Record<string, Tensor>)[n]!);
    const factors = this.distribution.factorNames.length === 0 ? [] : Object.values(this.distribution.factorValues(all));
    return this.distribution.sumParts(fn, [...flat.filter((_, i) => this.flatPins[i] !== undefined), ...factors]);
  }

  /**
   * Ancestral draws of the unpinned nodes given the pins: `distribution.sample(sampleShape,
   * { seed, value: pins })` with the pinned nodes removed, so the draws equal the full model's
   * draws of the same nodes (the seed chain splits for pinned nodes too).
   * @example
   * pinned.sampleUnpinned([4], { seed: 1 }); // e.g. { mu: Tensor [4], sigma: Tensor [4] }
   */
  sampleUnpinned(sampleShape: number | readonly number[] = [], options: { seed?: Seed } = {}): Struct<K, Tensor> {
    const opts = checkOptions(`${this.name}.sampleUnpinned`, options, ['seed']);
    const xs = this.distribution.sample(sampleShape, { seed: opts.seed, value: this.pins });
    const flat = Array.isArray(xs) ? xs : this.distribution.nodeNames.map((n) => (xs as Record<string, Tensor>)[n]!);
    return this.prune(flat);
  }

  /** `[draws, logWeight(draws)]`. */
  sampleAndLogWeight(sampleShape: number | readonly number[] = [], options: { seed?: Seed } = {}): [Struct<K, Tensor>, Tensor] {
    const xs = this.sampleUnpinned(sampleShape, options);
    return [xs, this.logWeight(xs as PartialValues)];
  }

  /** The distributions of one draw given the pins (no sample shape), in model order. @internal */
  singleSampleDistributions(): Distribution[] {
    return this.distribution.executeSample(`${this.name}.singleSample`, [], zerosSeed(), this.flatPins, undefined, { placeholders: true }).dists;
  }

  /** The unpinned nodes' event shapes. */
  get eventShape(): Struct<K, readonly number[]> { return this.prune(this.singleSampleDistributions().map((d) => d.eventShape)); }
  /** The unpinned nodes' batch shapes. */
  get batchShape(): Struct<K, readonly number[]> { return this.prune(this.singleSampleDistributions().map((d) => d.batchShape)); }
  /** The unpinned nodes' dtypes. */
  get dtype(): Struct<K, DType> { return this.prune(this.singleSampleDistributions().map((d) => d.dtype)); }

  /** Pins more nodes (TFP's `JointDistributionPinned.experimental_pin`). */
  experimentalPin(pins: PartialValues): JointDistributionPinned<K> {
    const more = this.fullValues(`${this.name}.experimentalPin`, 'pins', pins);
    return this.distribution.experimentalPin(Object.fromEntries(this.distribution.nodeNames.map((n, i) => [n, more[i]])));
  }

  /**
   * The joint bijector from unconstrained reals onto the unpinned nodes' supports, each node's
   * bijector built from its distribution given the values upstream of it (TFP's
   * `experimental_default_event_space_bijector`). See `DefaultJointBijector`.
   */
  defaultEventSpaceBijector(): DefaultJointBijector<K> { return new DefaultJointBijector(this); }

  toString(): string {
    return `JointDistributionPinned("${this.name}", pins=[${Object.keys(this.pins).join(', ')}], unpinned=[${this.unpinnedNames.join(', ')}])`;
  }
}
brand(JointDistributionPinned, 'JointDistributionPinned');   // recognised across copies of stochax (src/brand.ts)
