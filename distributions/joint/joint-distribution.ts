/**
 * The shared base of the joint distributions (TFP's `tfd.JointDistribution`): running the
 * model, seeding its nodes, and the chain rule p(x) = ∏ᵢ p(xᵢ | x₍<ᵢ₎).
 *
 * A model is a generator that yields one `Distribution` (or `Root(distribution)`) per node
 * and receives that node's value back. The subclasses build that generator from a list
 * (`JointDistributionSequential`), a record (`JointDistributionNamed`) or a user generator
 * function (`JointDistributionCoroutine`), and say how values are structured: an array in
 * node order (`'array'`) or a record keyed by node name (`'record'`).
 *
 * Why not `extends Distribution`: a joint distribution's draws, log-prob parts, batch and event
 * shapes are structures (arrays or records of tensors and shapes), not single tensors, so the
 * base class's typed signatures (`sample(): Tensor`, `logProb(value: TensorLike)`,
 * `batchShape: number[]`) cannot be overridden soundly, and its `sampleN` hook (draw n, then
 * reshape) does not apply: only root nodes see the sample shape. The joint classes therefore
 * stand alone with TFP's method names.
 */
import { UntraceableError } from '../../src/tensor/lowering.js';
import { brand } from '../../src/brand.js';
import { checkOptions, checkShape, fail } from '../../src/checks.js';
import { sanitizeSeed, splitSeed, zerosSeed, type Seed } from '../../src/samplers/seeds.js';
import type { KeyArray } from '../../src/random/key-array.js';
import type { PrngImpl } from '../../src/random/impl.js';
import type { Modes } from '../../src/config.js';
import { saltToInt } from '../../src/sha512.js';
import { zeros } from '../../src/tensor/ops/create.js';
import type { DType } from '../../src/tensor/dtype.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { showShape } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { Distribution, NotImplementedError } from '../distribution.js';
import type { DefaultJointBijector } from './default-joint-bijector.js';
import { JointDistributionPinned } from './joint-distribution-pinned.js';
import { imputeMissing } from './impute-missing.js';
import { RootNode, type ModelNode } from './root.js';
import { isDeterministicNode } from './deterministic-node.js';
import { factorValue, isFactorNode } from './factor-node.js';
import { isPlainObject, toValue, type PartialValues, type Struct, type StructKind, type ValueLike } from './values.js';

export type { PartialValues, Struct, StructKind, ValueLike } from './values.js';

/** What a model generator looks like: it yields nodes and receives their values. */
export type ModelIterator = Iterator<ModelNode, unknown, Tensor>;

export interface JointDistributionOptions {
  /** Check that the log-prob parts do not broadcast against each other and that draws begin with `sampleShape` (default false). */
  readonly validateArgs?: boolean;
  /** Defaults to the class name. */
  readonly name?: string;
}

export interface JointSampleOptions {
  /** Any seed `samplers.sanitizeSeed` accepts. */
  readonly seed?: Seed;
  /** Values for some nodes: these are used instead of drawn (the other nodes are drawn conditionally on them). */
  readonly value?: PartialValues;
}

/**
 * A bad-input error with where it happened appended (`… (in node \`model.y\` of model "M")`), of
 * the same class: RangeError, TypeError, or an UntraceableError (so the compiler's callers can
 * still fall back to the tape).
 */
/**
 * The keys the nodes of one draw take, in model order (`executeSample`'s schedule, one home for
 * it): the seed salted once with `'JointDistribution'`, then `[nodeSeed, seed] = splitSeed(seed)`
 * per node. @internal
 * @example
 * const next = nodeSeeds(0);
 * const first = next(), second = next();   // the keys of nodes 0 and 1
 */
export function nodeSeeds(seed: Seed): () => KeyArray {
  let s: Seed = sanitizeSeed(seed, { salt: 'JointDistribution' });
  return () => {
    const [nodeSeed, rest] = splitSeed(s);
    s = rest!;
    return nodeSeed!;
  };
}

/**
 * `nodeSeeds(seed)`'s keys as raw words, for the compiled predictive draws (no key objects or
 * seed checks per draw): `key` a single key's words under `impl`, salted as `sanitizeSeed` salts it,
 * then split as `splitSeed` splits it; `take(i, words)` gets node i's key for i < count (the key
 * is the first `impl.keyWords` words of `words`, a scratch array rewritten after the call: copy
 * what you keep). Two arrays per call, none per node: this runs once per predictive draw. @internal
 * @example
 * nodeSeedWords(threefry2x32, random.key(0).data, 2, getModes(), (i, w) => console.log(i, w));
 */
export function nodeSeedWords(impl: PrngImpl, key: Uint32Array, count: number, modes: Modes, take: (i: number, words: Uint32Array) => void): void {
  jointSalt ??= saltToInt('JointDistribution');
  const w = impl.keyWords;
  const s = impl.foldIn(key, jointSalt, modes), words = new Uint32Array(2 * w);
  for (let i = 0; i < count; i++) {
    impl.split(s, 2, modes, words);
    take(i, words);
    for (let k = 0; k < w; k++) s[k] = words[w + k]!;
  }
}
let jointSalt: number | undefined;

export function withWhere(e: RangeError | TypeError, where: string): RangeError | TypeError {
  const Err = e instanceof RangeError ? RangeError : e instanceof UntraceableError ? UntraceableError : TypeError;
  return new Err(`${e.message} (${where})`, { cause: e });
}

export abstract class JointDistribution<K extends StructKind> {
  readonly name: string;
  readonly validateArgs: boolean;
  /** The class name, for error messages. */
  protected readonly fn: string;
  private cachedDists: Distribution[] | undefined;
  private cachedNames: readonly string[] | undefined;
  private cachedDeterministicNames: readonly string[] | undefined;

  constructor(className: string, options: JointDistributionOptions | undefined) {
    const opts = checkOptions(className, options, ['validateArgs', 'name']);
    this.fn = className;
    this.name = opts.name ?? className;
    this.validateArgs = opts.validateArgs ?? false;
  }

  /** How values are structured: `'array'` (node order) or `'record'` (by node name). */
  abstract readonly structKind: K;
  /**
   * A fresh run of the model; `recordDeterministics`: also yield the derived values no node needs
   * (see `deterministic`); `withFactors`: also yield the log-density terms (see `factor`; a model
   * that yields them anyway, as a coroutine does, may ignore the flag).
   */
  protected abstract modelCoroutine(recordDeterministics?: boolean, withFactors?: boolean): ModelIterator;
  /** How node i is called in errors raised while the model runs (`model[2]`, `model.y`, `yield #2`). */
  protected abstract nodeLabel(i: number): string;
  /** The node names in model order, given one run's distributions. */
  protected abstract resolveNames(dists: readonly Distribution[]): string[];
  /** The keys of record-structured values, in output order (default: model order). */
  protected outputKeys(): readonly string[] { return this.nodeNames; }

  /**
   * `[name, parents]` for every node in model order (TFP's `resolve_graph`).
   * @example
   * new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), b: (a) => new Normal({ loc: a, scale: 1 }) })
   *   .resolveGraph(); // [['a', []], ['b', ['a']]]
   */
  abstract resolveGraph(): [string, string[]][];

  /**
   * Every entry of the model as declared, with the entries it reads: the nodes and, where the
   * model declares them with their inputs (`JointDistributionNamed`), its `deterministic(...)`
   * values and `factor(...)` terms, whose inputs `resolveGraph` folds into the nodes below them.
   * What `modelGraph` draws. @internal
   */
  declaredGraph(): { readonly name: string; readonly parents: readonly string[]; readonly kind: 'node' | 'deterministic' | 'factor' }[] {
    return this.resolveGraph().map(([name, parents]) => ({ name, parents, kind: 'node' }));
  }

  // ---- running the model ------------------------------------------------------------------

  /**
   * Runs the model once: `visit(i, d, isRoot)` returns node i's value, which is sent back into
   * the model. Returns the number of nodes. Derived values (`yield deterministic(name, value)`)
   * are not nodes: each is passed to `onDeterministic`, if given, and sent back unchanged; so are
   * log-density terms (`yield factor(name, term)`), passed to `onFactor` (and only computed by
   * named and sequential models when it is given).
   * (Internal: used by the pinned distribution and the joint bijector.)
   * @internal
   */
  executeModel(fn: string, visit: (i: number, d: Distribution, isRoot: boolean) => Tensor, onDeterministic?: (name: string, value: Tensor) => void, onFactor?: (name: string, value: Tensor) => void): number {
    const gen = this.modelCoroutine(onDeterministic !== undefined, onFactor !== undefined);
    // A bad-input error from node i (its callable, or its value's log density) says which node it was.
    const inNode = (i: number, e: unknown): unknown => {
      if (!(e instanceof RangeError || e instanceof TypeError) || e.message.includes(' (in node ') || e.message.includes(' (in factor ') || e.message.includes(`\`${this.nodeLabel(i)}\``)) return e;
      return withWhere(e, `in node \`${this.nodeLabel(i)}\` of model "${this.name}"`);
    };
    const advance = (i: number, value: Tensor) => {
      try { return gen.next(value); } catch (e) { throw inNode(i, e); }
    };
    let step = advance(0, undefined as unknown as Tensor);
    let i = 0;
    while (!step.done) {
      const y = step.value;
      if (isDeterministicNode(y)) {
        onDeterministic?.(y.name, y.value);
        step = advance(i, y.value);
        continue;
      }
      if (isFactorNode(y)) {
        onFactor?.(y.name, y.value);
        step = advance(i, y.value);
        continue;
      }
      const root = y instanceof RootNode;
      const d: unknown = root ? y.distribution : y;
      if (!(d instanceof Distribution)) fail('type', fn, this.nodeLabel(i), 'must be a Distribution (or Root(distribution))', d);
      if (i === 0 && !root) fail('type', fn, this.nodeLabel(0), 'must be wrapped in Root(...): the first node of a model has no parents', d);
      let v: Tensor;
      try { v = visit(i, d, root); } catch (e) { throw inNode(i, e); }
      step = advance(i + 1, v);
      i++;
    }
    if (i === 0) fail('type', fn, 'model', 'yielded no distributions', undefined);
    return i;
  }

  /**
   * Draws the nodes in model order (TFP's `_execute_model`): the seed is salted once with
   * `'JointDistribution'`, then each node takes `[nodeSeed, seed] = splitSeed(seed)` — also when
   * its value is given, so fixing one node never changes another's draw. Root nodes are drawn
   * with `sampleShape`, the others with `[]`.
   *
   * A node that cannot be drawn (an improper prior such as `ImproperUniform`: its `sample` throws
   * `NotImplementedError`) makes a draw fail, naming the node. With `placeholders` (used to learn
   * the model's structure: its distributions, shapes, dtypes, derived-value names), such a node
   * takes instead the point its default event-space bijector maps the unconstrained origin to,
   * so pinning, unconstraining and initialising a model with improper nodes never draws them.
   * @internal
   */
  executeSample(fn: string, sampleShape: readonly number[], seed: Seed, values: readonly ValueLike[], onDeterministic?: (name: string, value: Tensor) => void, options: { placeholders?: boolean; onFactor?: (name: string, value: Tensor) => void } = {}): { dists: Distribution[]; xs: Tensor[] } {
    const nextSeed = nodeSeeds(seed);
    const dists: Distribution[] = [];
    const xs: Tensor[] = [];
    const draw = (i: number, d: Distribution, shape: readonly number[], nodeSeed: Seed): Tensor => {
      try {
        return d.sample(shape, { seed: nodeSeed });
      } catch (e) {
        if (!(e instanceof NotImplementedError)) throw e;
        if (options.placeholders) return placeholderValue(d, shape);
        throw new NotImplementedError(`${e.message} (in node \`${this.nodeLabel(i)}\` of model "${this.name}"; give its value with \`value\`, or pin it and sample the pinned model with MCMC)`, { cause: e });
      }
    };
    const n = this.executeModel(fn, (i, d, root) => {
      const nodeSeed = nextSeed();
      const v = values[i];
      const x = v === undefined || v === null
        ? draw(i, d, root ? sampleShape : [], nodeSeed)
        : toValue(fn, `value[${i}]`, d.dtype, v);
      if (this.validateArgs && sampleShape.some((m, k) => x.shape[k] !== m)) {
        fail('range', fn, this.nodeLabel(i), `has a value of shape ${showShape(x.shape)} that does not begin with sampleShape ${showShape(sampleShape)}`, x);
      }
      dists.push(d);
      xs.push(x);
      return x;
    }, onDeterministic, options.onFactor);
    if (values.length > n) fail('range', fn, 'value', `has ${values.length} entries but the model has ${n} nodes`, values);
    return { dists, xs };
  }

  /** The distributions of one draw with no sample shape (TFP's `_get_single_sample_distributions`), cached. @internal */
  singleSampleDistributions(): readonly Distribution[] {
    return (this.cachedDists ??= this.executeSample(`${this.fn}.singleSample`, [], zerosSeed(), [], undefined, { placeholders: true }).dists);
  }

  /** The node names in model order: record keys, callable argument names, explicit `name`s, or generated ones. */
  get nodeNames(): readonly string[] {
    if (this.cachedNames === undefined) {
      const names = this.resolveNames(this.singleSampleDistributions());
      const dup = names.find((n, i) => names.indexOf(n) !== i);
      if (dup !== undefined) fail('range', this.fn, 'model', `has two nodes named "${dup}" (node names must be unique: ${names.join(', ')})`, dup);
      this.cachedNames = Object.freeze(names);
    }
    return this.cachedNames;
  }

  // ---- structures ---------------------------------------------------------------------------

  /**
   * Caller values in node order (`undefined` where not given).
   * @throws TypeError for a value that is not an array/record; RangeError for unknown names or too many entries.
   * @internal
   */
  flattenValues(fn: string, arg: string, values: unknown): ValueLike[] {
    if (values instanceof Tensor || typeof values === 'number') {
      if (this.nodeNames.length !== 1) fail('type', fn, arg, `must be ${this.structKind === 'array' ? 'an array or ' : ''}a record of values (a single value is allowed only for a one-node model)`, values);
      return [values];
    }
    if (Array.isArray(values)) {
      if (this.structKind !== 'array') fail('type', fn, arg, 'must be a record keyed by node name', values);
      return values.map((v) => (v === null ? undefined : v as ValueLike));
    }
    if (!isPlainObject(values)) fail('type', fn, arg, `must be ${this.structKind === 'array' ? 'an array or ' : ''}a record keyed by node name`, values);
    const names = this.nodeNames;
    const unknown = Object.keys(values).filter((k) => !names.includes(k));
    if (unknown.length > 0) fail('range', fn, arg, `names unknown nodes: ${unknown.join(', ')} (the nodes are ${names.join(', ')})`, values);
    return names.map((n) => (values[n] === null ? undefined : values[n] as ValueLike));
  }

  /** One T per node (model order) as this model's structure. @internal */
  unflattenParts<T>(xs: readonly T[]): Struct<K, T> {
    if (this.structKind === 'array') return [...xs] as Struct<K, T>;
    const names = this.nodeNames;
    const out: Record<string, T> = {};
    for (const k of this.outputKeys()) out[k] = xs[names.indexOf(k)]!;
    return out as Struct<K, T>;
  }

  // ---- sampling -----------------------------------------------------------------------------

  /**
   * A joint draw: root nodes get shape `sampleShape + batchShape + eventShape`, the others
   * inherit the sample dims through their parents. Nodes listed in `value` are not drawn.
   *
   * @throws TypeError/RangeError for a bad sample shape, seed or `value` (naming unknown nodes).
   * @example
   * jd.sample([3], { seed: 42 });                       // e.g. { mu: Tensor [3], y: Tensor [3, 5] }
   * jd.sample([], { seed: 42, value: { mu: 1 } });      // mu fixed at 1, y drawn given it
   */
  sample(sampleShape: number | readonly number[] = [], options: JointSampleOptions = {}): Struct<K, Tensor> {
    return this.sampleDistributions(sampleShape, options)[1];
  }

  /**
   * The distributions and values of one joint draw (TFP's `sample_distributions`):
   * `[dists, values]`, each structured like the model.
   * @example
   * const [dists, xs] = jd.sampleDistributions([], { seed: 0 });
   */
  sampleDistributions(sampleShape: number | readonly number[] = [], options: JointSampleOptions = {}): [Struct<K, Distribution>, Struct<K, Tensor>] {
    const fn = `${this.fn}.sample`;
    const shape = checkShape(fn, 'sampleShape', sampleShape);
    const opts = checkOptions(fn, options, ['seed', 'value']);
    const values = opts.value === undefined ? [] : this.flattenValues(fn, 'value', opts.value);
    const { dists, xs } = this.executeSample(fn, shape, opts.seed, values);
    return [this.unflattenParts(dists), this.unflattenParts(xs)];
  }

  // ---- densities ----------------------------------------------------------------------------

  /**
   * f(dᵢ, xᵢ) for every node, the model run on the given values (all must be given); with
   * `factors`, also the log-density terms (`factor`), by name in the order the run adds them.
   */
  private mapMeasure(fn: string, values: PartialValues, f: (d: Distribution, x: Tensor) => Tensor, factors?: Map<string, Tensor>): Tensor[] {
    const flat = this.flattenValues(fn, 'values', values);
    const parts: Tensor[] = [];
    const n = this.executeModel(fn, (i, d) => {
      const v = flat[i];
      if (v === undefined || v === null) fail('type', fn, `values.${this.nodeNames[i] ?? i}`, 'is missing (every node needs a value)', v);
      const x = toValue(fn, this.structKind === 'record' ? `values.${this.nodeNames[i]}` : `values[${i}]`, d.dtype, v);
      parts.push(f(d, x));
      return x;
    }, undefined, factors === undefined ? undefined : (name, value) => {
      if (factors.has(name) || this.nodeNames.includes(name)) fail('range', fn, 'model', `adds a log-density term named "${name}" twice, or named like a node (factor names must be unique)`, name);
      factors.set(name, factorValue(fn, `factor ${name}`, value));
    });
    if (flat.length > n) fail('range', fn, 'values', `has ${flat.length} entries but the model has ${n} nodes`, values);
    return parts;
  }

  /** Σ of the nodes' measures f(dᵢ, xᵢ) and the model's log-density terms (`factor`). */
  private measureWithFactors(fn: string, values: PartialValues, f: (d: Distribution, x: Tensor) => Tensor): Tensor {
    const factors = new Map<string, Tensor>();
    const parts = this.mapMeasure(fn, values, f, factors);
    return this.sumParts(fn, [...parts, ...factors.values()]);
  }

  /** Σ parts (broadcasting), checked not to broadcast under `validateArgs`. @internal */
  sumParts(fn: string, parts: readonly Tensor[]): Tensor {
    if (this.validateArgs && parts.some((p) => p.shape.join() !== parts[0]!.shape.join())) {
      fail('range', fn, 'values', `give log-prob parts of different shapes ${parts.map((p) => showShape(p.shape)).join(', ')}, which would broadcast (probably a model error)`, undefined);
    }
    return parts.reduce((a, b) => add(a, b));
  }

  /**
   * log p(x) = Σᵢ log p(xᵢ | parents): the sum of `logProbParts`, broadcast, plus the model's
   * log-density terms (`factor`, see `factorValues`). Differentiable in every value (the model is
   * re-run on the given values).
   *
   * @throws TypeError when a node's value is missing; RangeError for unknown node names.
   * @example
   * jd.logProb({ mu: 0.5, sigma: 1.2, y: [0.1, 0.3] }); // → Tensor float64 []
   */
  logProb(values: PartialValues): Tensor {
    return this.measureWithFactors(`${this.fn}.logProb`, values, (d, x) => d.logProb(x));
  }

  /** Each node's log p(xᵢ | parents), structured like the model. */
  logProbParts(values: PartialValues): Struct<K, Tensor> {
    return this.unflattenParts(this.mapMeasure(`${this.fn}.logProbParts`, values, (d, x) => d.logProb(x)));
  }

  /** Σᵢ of each node's `unnormalizedLogProb`, plus the model's log-density terms (`factor`). */
  unnormalizedLogProb(values: PartialValues): Tensor {
    return this.measureWithFactors(`${this.fn}.unnormalizedLogProb`, values, (d, x) => d.unnormalizedLogProb(x));
  }

  // ---- log-density terms --------------------------------------------------------------------

  /**
   * The names of the model's log-density terms (`factor(...)` entries or yields), in the order
   * one run adds them. They are not nodes: see `factor`.
   * @throws RangeError when two terms share a name, or one is named like a node or a derived value.
   * @example
   * new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), pen: factor((a) => neg(square(a))) })
   *   .factorNames; // ['pen']
   */
  get factorNames(): readonly string[] {
    const names: string[] = [];
    this.executeSample(`${this.fn}.factorNames`, [], zerosSeed(), [], undefined, { placeholders: true, onFactor: (name) => { names.push(name); } });
    this.checkFactorNames(names);
    return Object.freeze(names);
  }

  /** @internal */
  protected checkFactorNames(names: readonly string[]): void {
    const taken = [...this.nodeNames, ...this.deterministicNames];
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) fail('range', this.fn, 'model', `adds two log-density terms named "${dup}" (factor names must be unique)`, dup);
    const clash = names.find((n) => taken.includes(n));
    if (clash !== undefined) fail('range', this.fn, 'model', `has a log-density term and a node or derived value both named "${clash}"`, clash);
  }

  /**
   * The model's log-density terms (see `factor`) at the given values of every node, by name: what
   * `logProb` adds to the sum of `logProbParts`.
   * @throws TypeError when a node's value is missing; RangeError for unknown node names.
   * @example
   * model.factorValues({ mu: 1, sigma: 2 }); // { penalty: Tensor [] } (−1)
   */
  factorValues(values: PartialValues): Record<string, Tensor> {
    const factors = new Map<string, Tensor>();
    this.mapMeasure(`${this.fn}.factorValues`, values, (_, x) => x, factors);
    return Object.fromEntries(factors);
  }

  /** Each node's `unnormalizedLogProb`, structured like the model. */
  unnormalizedLogProbParts(values: PartialValues): Struct<K, Tensor> {
    return this.unflattenParts(this.mapMeasure(`${this.fn}.unnormalizedLogProbParts`, values, (d, x) => d.unnormalizedLogProb(x)));
  }

  // ---- derived values -----------------------------------------------------------------------

  /**
   * The names of the model's derived values (`deterministic(...)` entries or yields), in the
   * order one run records them. They are not nodes: see `deterministic`.
   * @throws RangeError when two derived values share a name, or one is named like a node.
   * @example
   * new JointDistributionNamed({ a: new Normal({ loc: 0, scale: 1 }), b: deterministic((a) => mul(a, 2)) })
   *   .deterministicNames; // ['b']
   */
  get deterministicNames(): readonly string[] {
    if (this.cachedDeterministicNames === undefined) {
      const names: string[] = [];
      this.executeSample(`${this.fn}.deterministicNames`, [], zerosSeed(), [], (name) => { names.push(name); }, { placeholders: true });
      this.checkDeterministicNames(names);
      this.cachedDeterministicNames = Object.freeze(names);
    }
    return this.cachedDeterministicNames;
  }

  private checkDeterministicNames(names: readonly string[]): void {
    const nodes = this.nodeNames;
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) fail('range', this.fn, 'model', `records two derived values named "${dup}" (deterministic names must be unique)`, dup);
    const clash = names.find((n) => nodes.includes(n));
    if (clash !== undefined) fail('range', this.fn, 'model', `has a derived value and a node both named "${clash}"`, clash);
  }

  /**
   * The model's derived values (see `deterministic`) at the given values of every node: the
   * model is run on them (nothing is drawn) and each derived value is recorded. Values may carry
   * leading sample dims if the model's callables broadcast over them.
   *
   * @throws TypeError when a node's value is missing; RangeError for unknown node names.
   * @returns A record by derived value's name (empty when the model has none).
   * @example
   * jd.deterministicValues({ mu: 1, tau: 2, thetaTilde: [0, 1, 0, 0, 0, 0, 0, 0] }); // { theta: Tensor [8] }
   */
  deterministicValues(values: PartialValues): Record<string, Tensor> {
    const fn = `${this.fn}.deterministicValues`;
    const flat = this.flattenValues(fn, 'values', values);
    const out: Record<string, Tensor> = {};
    const names: string[] = [];
    const n = this.executeModel(fn, (i, d) => {
      const v = flat[i];
      if (v === undefined || v === null) fail('type', fn, `values.${this.nodeNames[i] ?? i}`, 'is missing (every node needs a value)', v);
      return toValue(fn, this.structKind === 'record' ? `values.${this.nodeNames[i]}` : `values[${i}]`, d.dtype, v);
    }, (name, value) => { names.push(name); out[name] = value; });
    if (flat.length > n) fail('range', fn, 'values', `has ${flat.length} entries but the model has ${n} nodes`, values);
    this.checkDeterministicNames(names);
    return out;
  }

  // ---- shapes, pinning, bijector ------------------------------------------------------------

  /** Each node's batch shape (from one draw without sample shape). */
  get batchShape(): Struct<K, readonly number[]> { return this.unflattenParts(this.singleSampleDistributions().map((d) => d.batchShape)); }
  /** Each node's event shape. */
  get eventShape(): Struct<K, readonly number[]> { return this.unflattenParts(this.singleSampleDistributions().map((d) => d.eventShape)); }
  /** Each node's dtype. */
  get dtype(): Struct<K, DType> { return this.unflattenParts(this.singleSampleDistributions().map((d) => d.dtype)); }

  /**
   * Fixes some nodes (e.g. the observed data), giving an unnormalized density over the others
   * (TFP's `experimental_pin`). `pins` is a record by node name (or, for array-structured
   * models, an array with `undefined` holes). NaN entries in a pinned value are missing values:
   * node `y`'s become a latent node `y_missing`, sampled with the others (see `impute-missing.ts`);
   * the pinned distribution's `distribution` is then the model with that node added.
   *
   * @throws RangeError naming unknown nodes.
   * @example
   * const target = jd.experimentalPin({ y: data });
   * target.unnormalizedLogProb({ mu: 0.1, sigma: 1 }); // log p(mu, sigma, y = data)
   */
  experimentalPin(pins: PartialValues): JointDistributionPinned<K> {
    // NaN in a pinned value: its missing entries become a latent node (see impute-missing.ts).
    return (imputeMissing(this as JointDistribution<StructKind>, pins, `${this.fn}.experimentalPin`) as JointDistributionPinned<K> | undefined) ?? new JointDistributionPinned(this, pins);
  }

  /** The joint bijector from unconstrained reals onto every node's support (see `DefaultJointBijector`). */
  defaultEventSpaceBijector(): DefaultJointBijector<K> {
    return new JointDistributionPinned(this, {}).defaultEventSpaceBijector();
  }

  toString(): string {
    return `${this.fn}("${this.name}", nodes=[${this.nodeNames.join(', ')}])`;
  }
}
brand(JointDistribution, 'JointDistribution');   // recognised across copies of stochax (src/brand.ts)

/**
 * A stand-in value for a node that cannot be drawn (see `executeSample`'s `placeholders`): its
 * default event-space bijector at the unconstrained origin, of shape `shape + batch + event`.
 */
function placeholderValue(d: Distribution, shape: readonly number[]): Tensor {
  const b = d.defaultEventSpaceBijector();
  return b.forward(zeros([...shape, ...d.batchShape, ...b.inverseEventShape(d.eventShape)], d.dtype));
}
