import { fail } from '../../src/checks.js';
import { Distribution } from '../distribution.js';
import { parseParams } from './function-params.js';
import { JointDistribution, type JointDistributionOptions, withWhere } from './joint-distribution.js';
import { RootNode, type ModelNode } from './root.js';
import { DeterministicNode, isDeterministicFn, type DeterministicFn } from './deterministic-node.js';
import { FactorNode, factorValue, isFactorFn, type FactorFn } from './factor-node.js';
import { asTensor } from '../../src/tensor/core.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { toValue, type PartialValues } from './values.js';
import { bestOrder } from './topological-order.js';
import { isPlainObject } from './values.js';

/** A node of a named model: a distribution, or a callable whose parameter names are the names of its parent nodes. */
export type NamedNode = Distribution | ((...args: any[]) => Distribution) | DeterministicFn | FactorFn;
export type NamedModel = Readonly<Record<string, NamedNode>> | ReadonlyMap<string, NamedNode>;

interface Maker {
  readonly dist: Distribution | undefined;
  readonly fn: ((...args: unknown[]) => unknown) | undefined;
  readonly parents: readonly string[];
  /** Called as `fn({ a, b })` (a destructured parameter) rather than `fn(a, b)`. */
  readonly byObject: boolean;
  /** A derived value (`deterministic(fn)`), not a node. */
  readonly det?: boolean;
  /** A log-density term (`factor(fn)`), not a node. */
  readonly factor?: boolean;
}

/**
 * A joint distribution given as a record of named nodes (TFP's `tfd.JointDistributionNamed`).
 * Each entry is a `Distribution` or a callable returning one; a callable receives the values of
 * the nodes its parameters name. Parameter forms accepted (read from the function's source):
 * - plain parameters: `(mu, sigma) => …`, `function (mu, sigma) {…}`, a method `y(mu, sigma) {…}`;
 * - one destructured object: `({ mu, sigma }) => …` (also `{ mu: m }`), called with
 *   `{ mu, sigma }`;
 * - no parameters (a root node).
 * Parameters with default values are optional and never bound (TFP binds only required
 * arguments); rest parameters, array patterns, computed keys and bound/native functions are
 * rejected with a TypeError. Minifiers rename plain parameters but keep property keys, so code
 * that will be minified should use the destructured form.
 *
 * Node order (which decides the seed of each node): for a plain record, TFP's deterministic
 * topological order — depth = longest path to a root; nodes visited in descending
 * `(depth, name)` order, each node's unvisited parents visited first in the same order (see
 * `topological-order.ts`). For a `Map` model (TFP's `OrderedDict`), insertion order, in which
 * every parent must come before its child. Draws and log-prob parts are records whose keys
 * follow the model's own key order.
 *
 * An entry `deterministic(fn)` is a derived value, not a node (see `deterministic`): it gets no
 * seed and no density term, and a node that takes it as a parent is ordered as if it took the
 * derived value's own parents, so the node order and every draw are those of the same model
 * with the expression written inline. An entry `factor(fn)` adds `fn`'s value to the log density
 * (see `factor`): it is not a node either, and no entry may take it as a parent.
 *
 * @throws TypeError for an entry that is neither a Distribution nor a function, or a callable
 *   whose parameters cannot be bound; RangeError naming the node and the argument when an
 *   argument names no node, or naming the nodes on a cycle.
 * @example
 * const jd = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   y: ({ mu, sigma }) => new Sample({ distribution: new Normal({ loc: mu, scale: sigma }), sampleShape: 20 }),
 * });
 * jd.nodeNames;                 // ['sigma', 'mu', 'y'] (the seed order)
 * jd.sample([], { seed: 0 });   // { mu: Tensor [], sigma: Tensor [], y: Tensor [20] }
 */
export class JointDistributionNamed extends JointDistribution<'record'> {
  readonly structKind = 'record' as const;
  /** The model as given. */
  readonly model: NamedModel;
  private readonly order: readonly string[];
  private readonly makers: ReadonlyMap<string, Maker>;
  private readonly keys: readonly string[];
  /** Each node's parents with derived values replaced by their own parents (the graph that orders the nodes). */
  private readonly graph: ReadonlyMap<string, readonly string[]>;

  constructor(model: NamedModel, options?: JointDistributionOptions) {
    super('JointDistributionNamed', options);
    const fn = this.fn;
    const isMap = model instanceof Map;
    if (!isMap && !isPlainObject(model)) fail('type', fn, 'model', 'must be a record (or a Map) of distributions and callables', model);
    const entries: [string, unknown][] = isMap ? [...(model as ReadonlyMap<string, unknown>)] : Object.entries(model);
    if (entries.length === 0) fail('range', fn, 'model', 'must have at least one node', model);
    this.model = model;
    this.keys = Object.freeze(entries.map(([k]) => k));
    const makers = new Map<string, Maker>();
    for (const [key, m] of entries) makers.set(key, makeMaker(fn, key, m));
    this.makers = makers;
    this.graph = nodeGraph(fn, makers);
    if (isMap) {
      this.keys.forEach((k, i) => {
        for (const p of makers.get(k)!.parents) {
          const j = this.keys.indexOf(p);
          if (j < 0) fail('range', fn, `model.${k}`, `has an argument \`${p}\` that names no node (the nodes are ${this.keys.join(', ')})`, p);
          if (j >= i) fail('range', fn, `model.${k}`, `has an argument \`${p}\` that comes later in the Map (a Map model is used in insertion order)`, p);
        }
      });
      this.order = Object.freeze(this.keys.filter((k) => this.graph.has(k)));
    } else {
      this.order = Object.freeze(bestOrder(fn, this.graph).map(([k]) => k));
    }
    if (this.order.length === 0) fail('range', fn, 'model', 'must have at least one node that is not a deterministic(...) value or a factor(...) term', model);
  }

  protected *modelCoroutine(recordDeterministics = false, withFactors = false): Generator<ModelNode, void, Tensor> {
    const values = new Map<string, Tensor>();
    const makers = this.makers;
    const call = (m: Maker): unknown => {
      const args = m.parents.map((p) => values.get(p)!);
      return m.byObject ? m.fn!(Object.fromEntries(m.parents.map((p, i) => [p, args[i]]))) : m.fn!(...args);
    };
    // A derived value is computed (after its own derived parents) when first needed, and yielded so it can be recorded.
    function* derive(key: string): Generator<ModelNode, void, Tensor> {
      if (values.has(key)) return;
      const m = makers.get(key)!;
      for (const p of m.parents) if (makers.get(p)?.det === true) yield* derive(p);
      const v = call(m);
      values.set(key, yield new DeterministicNode(key, asTensor('JointDistributionNamed', `model.${key}`, v)));
    }
    for (const key of this.order) {
      const m = makers.get(key)!;
      for (const p of m.parents) if (makers.get(p)?.det === true) yield* derive(p);
      const d: unknown = m.dist ?? call(m);
      values.set(key, yield this.graph.get(key)!.length === 0 && d instanceof Distribution ? new RootNode(d) : d as Distribution);
    }
    if (recordDeterministics) for (const key of this.keys) if (makers.get(key)!.det === true) yield* derive(key);
    if (withFactors) {
      for (const key of this.keys) {
        const m = makers.get(key)!;
        if (m.factor !== true) continue;
        for (const p of m.parents) if (makers.get(p)?.det === true) yield* derive(p);
        let v: unknown;
        try { v = call(m); } catch (e) {
          if (!(e instanceof RangeError || e instanceof TypeError)) throw e;
          throw withWhere(e, `in factor \`model.${key}\` of model "${this.name}"`);
        }
        yield new FactorNode(key, factorValue('JointDistributionNamed', `model.${key}`, v));
      }
    }
  }

  /** The `factor(fn)` entries, in declaration order. */
  override get factorNames(): readonly string[] {
    return Object.freeze(this.keys.filter((k) => this.makers.get(k)!.factor === true));
  }

  /** The derived values in declaration order, each after the derived values it takes. */
  override get deterministicNames(): readonly string[] {
    const out: string[] = [];
    const visit = (k: string) => {
      if (out.includes(k)) return;
      for (const p of this.makers.get(k)!.parents) if (this.makers.get(p)?.det === true) visit(p);
      out.push(k);
    };
    for (const k of this.keys) if (this.makers.get(k)!.det === true) visit(k);
    return out;
  }

  /**
   * The derived values at the given node values: each `deterministic(fn)` called on its parents'
   * values, without building the nodes' distributions (the same values as running the model).
   */
  override deterministicValues(values: PartialValues): Record<string, Tensor> {
    const fn = `${this.fn}.deterministicValues`;
    const flat = this.flattenValues(fn, 'values', values);
    const known = new Map<string, Tensor>();
    const dtypes = this.dtype;
    this.order.forEach((k, i) => {
      const v = flat[i];
      if (v === undefined || v === null) fail('type', fn, `values.${k}`, 'is missing (every node needs a value)', v);
      known.set(k, toValue(fn, `values.${k}`, dtypes[k]!, v));
    });
    const out: Record<string, Tensor> = {};
    for (const k of this.deterministicNames) {
      const m = this.makers.get(k)!;
      const args = m.parents.map((p) => known.get(p)!);
      const v = m.byObject ? m.fn!(Object.fromEntries(m.parents.map((p, i) => [p, args[i]]))) : m.fn!(...args);
      const t = asTensor(fn, `model.${k}`, v);
      known.set(k, t);
      out[k] = t;
    }
    return out;
  }

  protected nodeLabel(i: number): string { return `model.${this.order[i]}`; }
  protected resolveNames(): string[] { return [...this.order]; }
  override get nodeNames(): readonly string[] { return this.order; }
  protected override outputKeys(): readonly string[] { return this.keys.filter((k) => this.graph.has(k)); }

  /**
   * `[name, parents]` per node in model (seed) order; parents in argument order (a derived
   * value among them replaced by its own parents).
   * @example
   * jd.resolveGraph(); // [['sigma', []], ['mu', []], ['y', ['mu', 'sigma']]]
   */
  resolveGraph(): [string, string[]][] {
    return this.order.map((k) => [k, [...this.graph.get(k)!]]);
  }

  /** Each entry in declaration order with the entries its function names (derived values and factors too). @internal */
  override declaredGraph(): { readonly name: string; readonly parents: readonly string[]; readonly kind: 'node' | 'deterministic' | 'factor' }[] {
    return this.keys.map((k) => {
      const m = this.makers.get(k)!;
      return { name: k, parents: [...m.parents], kind: m.det === true ? 'deterministic' : m.factor === true ? 'factor' : 'node' };
    });
  }
}

/**
 * The nodes' parents, with every `deterministic(fn)` parent replaced by its own parents (then
 * theirs, while they are derived too); derived values themselves are left out. A node without
 * derived parents keeps its parents exactly as declared.
 * @throws RangeError for a derived value whose argument names nothing, or a cycle among derived values.
 */
function nodeGraph(fn: string, makers: ReadonlyMap<string, Maker>): Map<string, readonly string[]> {
  const isDet = (k: string) => makers.get(k)?.det === true;
  const expand = (k: string, path: readonly string[]): string[] => {
    if (path.includes(k)) fail('range', fn, 'model', `has a cycle: ${[...path.slice(path.indexOf(k)), k].join(' → ')} ("a → b": b is an argument of a's callable)`, k);
    const out: string[] = [];
    for (const p of makers.get(k)!.parents) {
      if (!makers.has(p)) fail('range', fn, `model.${k}`, `has an argument \`${p}\` that names no node (the nodes are ${[...makers.keys()].join(', ')})`, p);
      if (makers.get(p)!.factor === true) fail('range', fn, `model.${k}`, `has an argument \`${p}\` that names a factor(...) term, which has no value to pass`, p);
      for (const q of isDet(p) ? expand(p, [...path, k]) : [p]) if (!out.includes(q)) out.push(q);
    }
    return out;
  };
  const graph = new Map<string, readonly string[]>();
  for (const [k, m] of makers) {
    if (m.det === true || m.factor === true) { expand(k, []); continue; }
    graph.set(k, m.parents.some((p) => isDet(p) || makers.get(p)?.factor === true) ? expand(k, []) : m.parents);
  }
  return graph;
}

function makeMaker(fn: string, key: string, m: unknown): Maker {
  if (isDeterministicFn(m)) return { ...makeMaker(fn, key, m.fn), det: true };
  if (isFactorFn(m)) return { ...makeMaker(fn, key, m.fn), factor: true };
  if (m instanceof Distribution) return { dist: m, fn: undefined, parents: [], byObject: false };
  if (typeof m !== 'function') fail('type', fn, `model.${key}`, 'must be a Distribution or a function returning one', m);
  const f = m as (...args: unknown[]) => unknown;
  const p = parseParams(f as (...xs: never[]) => unknown);
  if (p === undefined) {
    if (f.length === 0) return { dist: undefined, fn: f, parents: [], byObject: false };
    fail('type', fn, `model.${key}`, 'has parameters whose names cannot be read (a bound or native function?); wrap it: (a, b) => f(a, b)', m);
  }
  if (p.rest) fail('type', fn, `model.${key}`, 'has a rest parameter; name each parent: (a, b) => … or ({ a, b }) => …', m);
  const objects = p.required.filter((q) => q.kind === 'object');
  const bad = p.required.find((q) => q.kind === 'other');
  if (bad !== undefined && bad.kind === 'other') fail('type', fn, `model.${key}`, `has a parameter \`${bad.text}\` that is not a name or an object pattern of names`, m);
  if (objects.length > 0) {
    if (p.required.length !== 1) fail('type', fn, `model.${key}`, 'must take either plain parameters or a single destructured object ({ a, b }) => …', m);
    const o = objects[0]!;
    return { dist: undefined, fn: f, parents: o.kind === 'object' ? [...o.keys] : [], byObject: true };
  }
  return { dist: undefined, fn: f, parents: p.required.map((q) => (q.kind === 'name' ? q.name : '')), byObject: false };
}
