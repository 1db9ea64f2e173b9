import { fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Distribution } from '../distribution.js';
import { parseParams } from './function-params.js';
import { JointDistribution, type JointDistributionOptions, withWhere } from './joint-distribution.js';
import { RootNode, type ModelNode } from './root.js';
import { explicitName } from './values.js';
import { isDeterministicFn } from './deterministic-node.js';
import { FactorNode, factorValue, isFactorFn, type FactorFn } from './factor-node.js';

/** A node of a sequential model: a distribution, or a callable of the preceding values (immediately preceding first). */
export type SequentialNode = Distribution | ((...previous: Tensor[]) => Distribution) | FactorFn;

interface Maker {
  readonly dist: Distribution | undefined;
  readonly fn: ((...xs: Tensor[]) => unknown) | undefined;
  /** How many preceding values the callable takes (all of them for a rest parameter). */
  readonly count: number;
  /** The callable's argument names (undefined where a parameter is not a plain name). */
  readonly argNames: readonly (string | undefined)[];
  /** Position in the list as given (which may hold `factor` entries too). */
  readonly entry: number;
}

/** A `factor(fn)` entry: a log-density term of the values before it, not a node. */
interface FactorEntry {
  readonly fn: (...xs: Tensor[]) => unknown;
  readonly count: number;
  /** How many nodes precede it. */
  readonly after: number;
  readonly entry: number;
}

const nontrivial = (n: string | undefined): n is string => n !== undefined && n !== '' && n !== '_';

/**
 * A joint distribution given as a list (TFP's `tfd.JointDistributionSequential`). Each entry is
 * a `Distribution`, or a callable returning one whose arguments are the values of the
 * **preceding entries in reverse order**: the first argument is the immediately preceding value,
 * the second the one before it, and so on. A callable takes as many values as it has required
 * parameters (`fn.length`: parameters before the first default); a rest parameter `(...xs)` takes
 * all preceding values (still most recent first). Entries without arguments are roots.
 *
 * Draws, log-prob parts and shapes are arrays in list order. Seeds: `'JointDistribution'` salt,
 * then one binary split per entry in list order (see `JointDistribution.executeSample`).
 *
 * An entry `factor(fn)` adds `fn`'s value to the log density (see `factor`): `fn` takes the
 * preceding nodes' values like a callable entry, but it is not a node — it has no value, seed or
 * name among the nodes, and the entries after it do not count it among their arguments. Its
 * term is named `model[i]` after its position (in `factorNames` and `factorValues`).
 *
 * Node names (for records of values, pins and `resolveGraph`), as TFP resolves them: an entry is
 * named by the argument names that refer to it, else by its distribution's explicit `name`, else
 * `x`, `x1`, `x2`, … counting back from the last entry.
 *
 * @throws TypeError for an entry that is neither a Distribution nor a function, or a callable
 *   that returns something else; RangeError when a callable takes more values than precede it,
 *   or its argument names disagree with an entry's name.
 * @example
 * const jd = new JointDistributionSequential([
 *   new Normal({ loc: 0, scale: 2 }),                          // n
 *   new Exponential({ rate: 1 }),                               // g
 *   (g, n) => new Normal({ loc: n, scale: g }),                 // g = entry 1, n = entry 0
 * ]);
 * jd.sample([], { seed: 0 });                                   // [Tensor [], Tensor [], Tensor []]
 * jd.resolveGraph();   // [['n', []], ['g', []], ['x', ['g', 'n']]]
 */
export class JointDistributionSequential extends JointDistribution<'array'> {
  readonly structKind = 'array' as const;
  /** The model as given. */
  readonly model: readonly SequentialNode[];
  /** The nodes' entries (the list without its `factor` entries). */
  private readonly makers: readonly Maker[];
  private readonly factorEntries: readonly FactorEntry[];

  constructor(model: readonly SequentialNode[], options?: JointDistributionOptions) {
    super('JointDistributionSequential', options);
    const fn = this.fn;
    if (!Array.isArray(model)) fail('type', fn, 'model', 'must be an array of distributions and callables', model);
    if (model.length === 0) fail('range', fn, 'model', 'must have at least one entry', model);
    this.model = Object.freeze([...model]);
    const makers: Maker[] = [], factors: FactorEntry[] = [];
    model.forEach((m, i) => {
      const k = makers.length;   // nodes before this entry
      if (m instanceof Distribution) { makers.push({ dist: m, fn: undefined, count: 0, argNames: [], entry: i }); return; }
      if (isDeterministicFn(m)) fail('type', fn, `model[${i}]`, 'is a deterministic(...) value, which JointDistributionSequential does not take (use JointDistributionNamed, or yield deterministic(name, value) in a JointDistributionCoroutine)', m);
      const isFactor = isFactorFn(m);
      const f: unknown = isFactor ? m.fn : m;
      if (typeof f !== 'function') fail('type', fn, `model[${i}]`, 'must be a Distribution or a function returning one', m);
      const p = parseParams(f as (...xs: never[]) => unknown);
      const count = p?.rest ? k : f.length;
      if (count > k) fail('range', fn, `model[${i}]`, `takes ${count} argument(s) but only ${k} entr${k === 1 ? 'y precedes' : 'ies precede'} it${k < i ? ' (factor entries give no values)' : ''}`, m);
      if (isFactor) { factors.push({ fn: f as (...xs: Tensor[]) => unknown, count, after: k, entry: i }); return; }
      const argNames = p === undefined ? [] : p.required.map((q) => (q.kind === 'name' ? q.name : undefined));
      makers.push({ dist: undefined, fn: f as (...xs: Tensor[]) => unknown, count, argNames, entry: i });
    });
    if (makers.length === 0) fail('range', fn, 'model', 'must have at least one entry that is not a factor(...) term', model);
    this.makers = makers;
    this.factorEntries = factors;
  }

  protected *modelCoroutine(_recordDeterministics = false, withFactors = false): Generator<ModelNode, void, Tensor> {
    const xs: Tensor[] = [];
    const fn = this.fn;
    const factors = withFactors ? this.factorEntries : [];
    const args = (count: number) => (count === 0 ? [] : xs.slice(xs.length - count).reverse());
    let next = 0;
    const name = this.name;
    // The factor entries whose preceding nodes all have values now.
    function* flush(): Generator<ModelNode, void, Tensor> {
      for (; next < factors.length && factors[next]!.after === xs.length; next++) {
        const f = factors[next]!, label = `model[${f.entry}]`;
        let v: unknown;
        try { v = f.fn(...args(f.count)); } catch (e) {
          if (!(e instanceof RangeError || e instanceof TypeError)) throw e;
          throw withWhere(e, `in factor \`${label}\` of model "${name}"`);
        }
        yield new FactorNode(label, factorValue(fn, label, v));
      }
    }
    yield* flush();
    for (const m of this.makers) {
      const d = m.dist ?? m.fn!(...args(m.count));
      xs.push(yield m.count === 0 && d instanceof Distribution ? new RootNode(d) : d as Distribution);
      yield* flush();
    }
  }

  /** The `factor(fn)` entries' names, `model[i]` by list position. */
  override get factorNames(): readonly string[] {
    return Object.freeze(this.factorEntries.map((f) => `model[${f.entry}]`));
  }

  protected nodeLabel(i: number): string { return `model[${this.makers[i]?.entry ?? i}]`; }

  protected resolveNames(dists: readonly Distribution[]): string[] {
    const n = this.makers.length;
    const names: (string | undefined)[] = new Array(n).fill(undefined);
    for (let i = n - 1; i >= 0; i--) {
      this.makers[i]!.argNames.forEach((a, j) => {
        if (!nontrivial(a)) return;
        const existing = names[i - j - 1];
        if (nontrivial(existing) && existing !== a) fail('range', this.fn, this.nodeLabel(i - j - 1), `is called \`${existing}\` by one callable and \`${a}\` by another (inconsistent names)`, a);
        names[i - j - 1] = a;
      });
    }
    dists.forEach((d, i) => {
      const inst = explicitName(d);
      if (inst === undefined) return;
      if (nontrivial(names[i]) && names[i] !== inst) fail('range', this.fn, this.nodeLabel(i), `is named "${inst}" but a callable calls it \`${names[i]}\` (inconsistent names)`, inst);
      names[i] = inst;
    });
    const taken = new Set(names.filter(nontrivial));
    let j = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (nontrivial(names[i])) continue;
      let dummy = j === 0 ? 'x' : `x${j}`;
      while (taken.has(dummy)) dummy = `x${++j}`;
      names[i] = dummy;
      taken.add(dummy);
    }
    return names as string[];
  }

  /**
   * `[name, parents]` per entry (TFP's `resolve_graph`); parents are listed in argument order.
   * @example
   * new JointDistributionSequential([new Normal({ loc: 0, scale: 1 }), (a) => new Normal({ loc: a, scale: 1 })])
   *   .resolveGraph(); // [['a', []], ['x', ['a']]]
   */
  resolveGraph(): [string, string[]][] {
    const names = this.nodeNames;
    return this.makers.map((m, i) => [names[i]!, Array.from({ length: m.count }, (_, j) => names[i - j - 1]!)]);
  }
}
