/**
 * Automatic imputation of missing observations (PyMC's automatic imputation, NumPyro's
 * `obs_mask`): NaN entries in a pinned node `y` become a latent node `y_missing`, sampled with
 * the parameters, while the observed entries keep contributing their log density.
 *
 * How missing values are marked: NaN in the pinned value. JavaScript has no masked arrays, and a
 * Float64Array holds NaN natively, so a data vector with holes needs no second argument; an
 * explicit `{ value, mask }` pin would be a second way to say the same thing (and NaN already
 * could not be a valid observation: it used to be an error).
 *
 * How it is built: `jd.experimentalPin(pins)` with NaN in node `y` pins a wrapper model (a
 * `JointDistribution` of its own) that runs the original one and, where the original yields y's
 * distribution d, yields two nodes instead:
 *
 * - `y_missing` (event shape [M], M the number of NaN): its log density is Σ over the missing
 *   positions of d's elementwise log density at the merged vector; its event-space bijector is
 *   d's, applied at those positions; a draw is d's draw at those positions;
 * - `y` (pinned to the data): Σ over the observed positions of the same elementwise density.
 *
 * The model downstream of y receives the merged vector (data where observed, `y_missing` where
 * not). So log p(θ, y_obs, y_missing) = log p(θ) + Σᵢ log d(yᵢ | θ) over all entries, the two nodes
 * split it between them, and everything built on pinned models — the flat model, the compiled log
 * density, both NUTS engines, `summary`, the predictive functions, the CLI's draws.json — sees
 * `y_missing` as one more latent node. The wrapper adds one node to the seed chain before y, so
 * ancestral draws of the wrapper differ from the original model's after that node (MCMC does not
 * draw from the model).
 *
 * Only elementwise distributions can be imputed this way (Normal, StudentT, LogNormal, … alone or
 * wrapped in `Independent`/`Sample`): their density is a sum over entries. Event-shaped ones
 * (a multivariate normal's vector) and discrete ones (Poisson: missing counts would be discrete
 * latents, which NUTS cannot sample) are a RangeError saying so.
 */
import { fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { zeros } from '../../src/tensor/ops/create.js';
import { where } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo, concat, gather, reshape } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { Bijector } from '../bijectors/bijector.js';
import { Distribution, NotImplementedError } from '../distribution.js';
import { Independent } from '../independent.js';
import { Sample } from '../sample.js';
import { isDeterministicNode } from './deterministic-node.js';
import { isFactorNode } from './factor-node.js';
import { JointDistribution, type ModelIterator } from './joint-distribution.js';
import { JointDistributionPinned } from './joint-distribution-pinned.js';
import { pointwiseLogProb } from './pointwise-log-prob.js';
import { RootNode, type ModelNode } from './root.js';
import { type PartialValues, type StructKind, type ValueLike } from './values.js';
import { asTensor } from '../../src/tensor/core.js';

/** The suffix of an imputed node's name (PyMC's): `y` → `y_missing`. */
export const MISSING_SUFFIX = '_missing';

/** Where one pinned node's values are missing. */
export interface MissingSpec {
  /** The observed node's name. */
  readonly node: string;
  /** The latent node's name (`${node}_missing`). */
  readonly name: string;
  /** The node's value shape. */
  readonly shape: readonly number[];
  /** Row-major positions of the missing entries (M of them). */
  readonly missing: readonly number[];
  /** Row-major positions of the observed entries. */
  readonly observed: readonly number[];
  /** True where missing, in the value's shape. */
  readonly mask: Tensor;
  /** The data (NaN where missing). */
  readonly data: Tensor;
  /** Per position: its index among the missing entries, or M (a padding zero) where observed. */
  readonly scatterIndex: Tensor;
}

/** What `imputed` reports about one node (for a sampler's result). */
export interface ImputedNode {
  /** The observed node. */
  readonly node: string;
  /** The latent node holding its missing entries. */
  readonly name: string;
  /** How many entries are missing. */
  readonly count: number;
  /** Their row-major positions in the node's value. */
  readonly indices: readonly number[];
}

/** `ymis` ([...L, M]) placed at the missing positions of a [...L, N] vector of zeros. */
function scatter(spec: MissingSpec, ymis: Tensor): Tensor {
  const lead = ymis.shape.slice(0, -1);
  const padded = concat([ymis, zeros([...lead, 1], ymis.dtype)], lead.length);
  return reshape(gather(padded, spec.scatterIndex, lead.length), [...lead, ...spec.shape]);
}

/** The node's full value: `y` where observed, `ymis` where missing (NaN in `y` there is never read). */
export function mergeMissing(spec: MissingSpec, y: Tensor, ymis: Tensor): Tensor {
  return where(spec.mask, scatter(spec, ymis), y);
}

/** Σ over the value dims of `lp` at the missing entries (`keepMissing`) or at the observed ones. */
function maskedSum(spec: MissingSpec, lp: Tensor, keepMissing: boolean): Tensor {
  const nd = spec.shape.length;
  const picked = keepMissing ? where(spec.mask, lp, 0) : where(spec.mask, 0, lp);
  return nd === 0 ? picked : sum(picked, Array.from({ length: nd }, (_, k) => lp.ndim - nd + k));
}

/** The elementwise log density of `d` at `x`, checked to have one number per entry. */
function elementwise(spec: MissingSpec, d: Distribution, x: Tensor, fn = 'experimentalPin'): Tensor {
  const lp = pointwiseLogProb(d, x);
  const nd = spec.shape.length;
  if (lp.ndim < nd || spec.shape.some((n, k) => lp.shape[lp.ndim - nd + k] !== n)) {
    fail('range', fn, `pins.${spec.node}`, `has missing values (NaN), but node \`${spec.node}\` (${d.constructor.name}) does not give one log density per entry (its pointwise log density has shape [${lp.shape.join(', ')}] for a value of shape [${spec.shape.join(', ')}]); only elementwise distributions can impute missing entries — drop the observations with missing entries`, lp.shape);
  }
  return lp;
}

/**
 * The latent node of an imputed node's missing entries (event shape [M], no batch dims). Internal:
 * made by the wrapper model, never by users.
 */
export class MissingValues extends Distribution {
  /** The last elementwise log density computed, so the observed node of the same run reuses it (one evaluation, not two). @internal */
  last: { readonly ymis: Tensor; readonly lp: Tensor } | undefined;
  constructor(readonly inner: Distribution, readonly spec: MissingSpec) {
    super('MissingValues', { name: spec.name }, true, inner.dtype);
  }
  override get eventShape(): readonly number[] { return [this.spec.missing.length]; }
  protected override batchShapeImpl(): readonly number[] { return []; }
  protected sampleN(n: number, seed: KeyArray): Tensor {
    const x = this.inner.sample([n], { seed });
    return gather(reshape(x, [n, sizeOf(this.spec.shape)]), this.spec.missing, 1);
  }
  protected override logProbImpl(ymis: Tensor): Tensor {
    const lp = elementwise(this.spec, this.inner, mergeMissing(this.spec, this.spec.data, ymis));
    this.last = { ymis, lp };
    return maskedSum(this.spec, lp, true);
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new MissingEntriesBijector(elementwiseBijector(this.inner), this.spec);
  }
}

/**
 * The observed node of an imputed node: the data, with the log density of its observed entries
 * only (the missing ones are `y_missing`'s). Internal.
 */
export class ObservedValues extends Distribution {
  constructor(readonly inner: Distribution, readonly spec: MissingSpec, readonly missingValues: Tensor, private readonly source?: MissingValues) {
    super('ObservedValues', { name: spec.node }, true, inner.dtype);
  }
  /** The elementwise log density at the merged value: the missing node's, when it was computed at the same values. */
  private merged(y: Tensor): Tensor {
    const last = this.source?.last;
    if (last !== undefined && y === this.spec.data && last.ymis === this.missingValues) return last.lp;
    return elementwise(this.spec, this.inner, mergeMissing(this.spec, y, this.missingValues));
  }
  override get eventShape(): readonly number[] { return this.spec.shape; }
  protected override batchShapeImpl(): readonly number[] { return []; }
  protected sampleN(n: number, seed: KeyArray): Tensor {
    return reshape(this.inner.sample([n], { seed }), [n, ...this.spec.shape]);
  }
  protected override logProbImpl(y: Tensor): Tensor {
    return maskedSum(this.spec, this.merged(y), false);
  }
  /** The log density of each observed entry, `[..., n_observed]` (for `pointwiseLogProb`: LOO sees the observations only). */
  observedPointwiseLogProb(y: Tensor): Tensor {
    const lp = this.merged(y);
    const lead = lp.shape.slice(0, lp.ndim - this.spec.shape.length);
    return gather(reshape(lp, [...lead, sizeOf(this.spec.shape)]), this.spec.observed, lead.length);
  }
  /** The data's support check on the observed entries (the NaN ones are the missing ones). */
  override checkDataSupport(fn: string, arg: string, value: Tensor): void {
    if (this.spec.observed.length === 0) return;
    const v = value.data as ArrayLike<number>;
    const fill = v[this.spec.observed[0]!]!;
    const filled = Float64Array.from({ length: v.length }, (_, k) => (Number.isNaN(v[k]) ? fill : v[k]!));
    this.inner.checkDataSupport(fn, arg, new Tensor(filled, value.shape, 'float64'));
  }
  protected override defaultEventSpaceBijectorImpl(): Bijector { return this.inner.defaultEventSpaceBijector(); }
}

/** The inner distribution's elementwise bijector, applied at the missing positions only. */
class MissingEntriesBijector extends Bijector {
  readonly forwardMinEventNdims = 1;
  private readonly origin: Tensor;
  constructor(private readonly inner: Bijector, private readonly spec: MissingSpec) {
    super('MissingEntries', undefined);
    // A point of the support at every position, for the inverse's unused entries.
    this.origin = inner.forward(zeros(spec.shape));
  }
  private full(u: Tensor, fill: Tensor): Tensor { return mergeMissing(this.spec, fill, u); }
  private pick(x: Tensor): Tensor {
    const nd = this.spec.shape.length;
    const lead = x.shape.slice(0, x.ndim - nd);
    return gather(reshape(x, [...lead, sizeOf(this.spec.shape)]), this.spec.missing, lead.length);
  }
  protected forwardImpl(u: Tensor): Tensor { return this.pick(this.inner.forward(this.full(u, zeros(this.spec.shape)))); }
  protected inverseImpl(y: Tensor): Tensor { return this.pick(this.inner.inverse(this.full(y, this.origin))); }
  protected override forwardLogDetJacobianImpl(u: Tensor): Tensor {
    const x = this.full(u, zeros(this.spec.shape));
    const ldj = broadcastTo(this.inner.forwardLogDetJacobian(x, 0), x.shape);
    return sum(this.pick(ldj), -1);
  }
}

/** `d` with its `Independent` and `Sample` wrappers opened. */
function innermost(d: Distribution): Distribution {
  let x = d;
  while (x instanceof Independent || x instanceof Sample) x = x.distribution;
  return x;
}

/** The innermost distribution's bijector: elementwise for a scalar distribution (the wrappers' act on whole events). */
function elementwiseBijector(d: Distribution): Bijector { return innermost(d).defaultEventSpaceBijector(); }

// ---- the wrapper model ----------------------------------------------------------------------

interface ImputedShape {
  readonly base: JointDistribution<StructKind>;
  /** By the base model's node index. */
  readonly specs: ReadonlyMap<number, MissingSpec>;
}

/** Access to the base model's protected hooks (the wrapper forwards to them). */
interface Hooks {
  modelCoroutine(recordDeterministics?: boolean, withFactors?: boolean): ModelIterator;
  nodeLabel(i: number): string;
  outputKeys(): readonly string[];
}

type ImputedModel = JointDistribution<StructKind> & { readonly imputed: readonly ImputedNode[]; readonly base: JointDistribution<StructKind> };

let imputedClass: (new (shape: ImputedShape) => ImputedModel) | undefined;

/** The wrapper class, made on first use (it extends JointDistribution, which imports this module). */
function wrapperClass(): new (shape: ImputedShape) => ImputedModel {
  return imputedClass ??= class JointDistributionImputed extends JointDistribution<StructKind> {
    readonly structKind: StructKind;
    readonly base: JointDistribution<StructKind>;
    private readonly specs: ReadonlyMap<number, MissingSpec>;
    private readonly names: readonly string[];
    /** Wrapper node index → [base node index, is the missing-values node]. */
    private readonly origin: readonly (readonly [number, boolean])[];

    constructor(shape: ImputedShape) {
      super('JointDistributionImputed', { name: shape.base.name, validateArgs: shape.base.validateArgs });
      this.base = shape.base;
      this.structKind = shape.base.structKind;
      this.specs = shape.specs;
      const names: string[] = [];
      const origin: [number, boolean][] = [];
      shape.base.nodeNames.forEach((n, i) => {
        const s = shape.specs.get(i);
        if (s !== undefined) { names.push(s.name); origin.push([i, true]); }
        names.push(n); origin.push([i, false]);
      });
      this.names = Object.freeze(names);
      this.origin = Object.freeze(origin);
    }

    get imputed(): readonly ImputedNode[] {
      return [...this.specs.values()].map((s) => ({ node: s.node, name: s.name, count: s.missing.length, indices: s.missing }));
    }

    protected *modelCoroutine(recordDeterministics = false, withFactors = false): Generator<ModelNode, unknown, Tensor> {
      const gen = (this.base as unknown as Hooks).modelCoroutine(recordDeterministics, withFactors);
      let step = gen.next(undefined as unknown as Tensor);
      let i = 0;
      while (step.done !== true) {
        const y = step.value;
        if (isDeterministicNode(y) || isFactorNode(y)) { step = gen.next(yield y); continue; }
        const spec = this.specs.get(i++);
        if (spec === undefined) { step = gen.next(yield y); continue; }
        const root = y instanceof RootNode;
        const d = (root ? (y as RootNode).distribution : y) as Distribution;
        const missingNode = new MissingValues(d, spec);
        const ymis = yield (root ? new RootNode(missingNode) : missingNode);
        const observedNode = new ObservedValues(d, spec, ymis, missingNode);
        const yv = yield (root ? new RootNode(observedNode) : observedNode);
        step = gen.next(mergeMissing(spec, yv, ymis));
      }
      return step.value;
    }

    protected nodeLabel(i: number): string {
      const [j, missing] = this.origin[i] ?? [i, false];
      const label = (this.base as unknown as Hooks).nodeLabel(j);
      return missing ? `${label} (its missing values, ${this.specs.get(j)!.name})` : label;
    }
    protected resolveNames(): string[] { return [...this.names]; }
    override get nodeNames(): readonly string[] { return this.names; }
    protected override outputKeys(): readonly string[] {
      const keys = (this.base as unknown as Hooks).outputKeys();
      const baseNames = this.base.nodeNames;
      return keys.flatMap((k) => {
        const s = this.specs.get(baseNames.indexOf(k));
        return s === undefined ? [k] : [s.name, k];
      });
    }
    resolveGraph(): [string, string[]][] {
      return this.base.resolveGraph().flatMap(([n, parents], i): [string, string[]][] => {
        const s = this.specs.get(i);
        return s === undefined ? [[n, parents]] : [[s.name, parents], [n, [...parents, s.name]]];
      });
    }
  };
}

/** The model's imputed nodes when it is a wrapper made here, else undefined. */
export function imputedNodes(jd: unknown): readonly ImputedNode[] | undefined {
  return jd instanceof wrapperClass() ? (jd as ImputedModel).imputed : undefined;
}

/** How many NaN a pinned value (a number, nested arrays, a typed array or a float tensor) holds. @internal */
export function countNaN(v: unknown): number {
  if (typeof v === 'number') return Number.isNaN(v) ? 1 : 0;
  const data = v instanceof Tensor ? (v.dtype === 'float64' || v.dtype === 'float32' ? v.data : undefined) : ArrayBuffer.isView(v) ? v as unknown as ArrayLike<unknown> : Array.isArray(v) ? v : undefined;
  if (data === undefined) return 0;
  let n = 0;
  for (let i = 0; i < data.length; i++) n += countNaN(data[i]);
  return n;
}

/** True if `v` (a number, nested array or tensor) holds a NaN. */
function hasNaN(v: unknown): boolean {
  return countNaN(v) > 0;
}

/**
 * `jd.experimentalPin(pins)` when some pinned value holds NaN: the wrapper model (see the module
 * comment) pinned to the same data, or undefined when no pin holds NaN (the caller pins as usual).
 *
 * @throws RangeError naming `pins.y` when node y's distribution is discrete, event-shaped, or
 *   not of the pinned value's shape, or when `y_missing` names an existing node.
 * @example
 * const pinned = imputeMissing(jd, { y: [1.2, NaN, 0.4] });   // unpinned: mu, sigma, y_missing ([1])
 */
export function imputeMissing(jd: JointDistribution<StructKind>, pins: PartialValues, fn = 'experimentalPin'): JointDistributionPinned<StructKind> | undefined {
  const names = jd.nodeNames;
  const flat = jd.flattenValues(fn, 'pins', pins);
  if (!flat.some(hasNaN)) return undefined;
  const dists = jd.singleSampleDistributions();
  const specs = new Map<number, MissingSpec>();
  const values: Record<string, ValueLike> = {};
  flat.forEach((v, i) => {
    if (v === undefined || v === null) return;
    const node = names[i]!;
    if (!hasNaN(v) || (dists[i] as { observedPointwiseLogProb?: unknown }).observedPointwiseLogProb !== undefined) { values[node] = v; return; }
    const d = dists[i]!;
    const arg = `pins.${node}`;
    const what = `has missing values (NaN), but node \`${node}\` is ${innermost(d).constructor.name}`;
    if (d.dtype !== 'float64' && d.dtype !== 'float32') fail('range', fn, arg, `${what} with ${d.dtype} values; missing values of a discrete node would be discrete latents, which NUTS cannot sample (see the discrete-latents work, issue 35) — drop the observations with missing values`, d.dtype);
    let inner: Bijector;
    const scalar = innermost(d);
    try { inner = elementwiseBijector(d); } catch (e) {
      if (!(e instanceof NotImplementedError)) throw e;
      return fail('range', fn, arg, `${what}, a discrete distribution; its missing values would be discrete latents, which NUTS cannot sample (see the discrete-latents work, issue 35) — drop the observations with missing values`, d.constructor.name);
    }
    if (inner.forwardMinEventNdims > 0 || scalar.eventShape.length > 0) fail('range', fn, arg, `${what}, whose values are whole events (event shape [${scalar.eventShape.join(', ')}]); only elementwise distributions can impute missing entries — drop the observations with missing entries`, d.eventShape);
    const t = asTensor(fn, arg, v as never);
    const data = t.dtype === 'float64' ? t : t.astype('float64');
    const shape = [...d.batchShape, ...d.eventShape];
    if (data.shape.length !== shape.length || data.shape.some((n, k) => n !== shape[k])) {
      fail('range', fn, arg, `${what} of shape [${shape.join(', ')}], and the pinned value has shape [${data.shape.join(', ')}]; imputation needs the value to have the node's full shape`, data.shape);
    }
    const raw = data.data as Float64Array;
    const missing: number[] = [], observed: number[] = [];
    raw.forEach((x, k) => (Number.isNaN(x) ? missing : observed).push(k));
    const at = new Int32Array(raw.length).fill(missing.length);
    missing.forEach((k, j) => { at[k] = j; });
    const name = `${node}${MISSING_SUFFIX}`;
    if (names.includes(name)) fail('range', fn, arg, `has missing values (NaN), which would become the node \`${name}\`, but the model already has a node of that name`, name);
    const spec: MissingSpec = {
      node, name, shape, missing, observed, data,
      mask: new Tensor(Uint8Array.from(raw, (x) => (Number.isNaN(x) ? 1 : 0)), shape, 'bool'),
      scatterIndex: new Tensor(at, [raw.length], 'int32'),
    };
    elementwise(spec, d, where(spec.mask, inner.forward(zeros(shape)), data), fn);   // event-shaped densities fail here
    specs.set(i, spec);
    values[node] = data;
  });
  if (specs.size === 0) return undefined;   // the NaN is in nodes imputed already
  const Wrapper = wrapperClass();
  return new JointDistributionPinned(new Wrapper({ base: jd, specs }), values);
}

