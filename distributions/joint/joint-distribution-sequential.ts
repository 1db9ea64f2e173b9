import { fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Distribution } from '../distribution.js';
import { parseParams } from './function-params.js';
import { JointDistribution, type JointDistributionOptions } from './joint-distribution.js';
import { RootNode, type ModelNode } from './root.js';
import { explicitName } from './values.js';
import { isDeterministicFn } from './deterministic-node.js';

/** A node of a sequential model: a distribution, or a callable of the preceding values (immediately preceding first). */
export type SequentialNode = Distribution | ((...previous: Tensor[]) => Distribution);

interface Maker {
  readonly dist: Distribution | undefined;
  readonly fn: ((...xs: Tensor[]) => unknown) | undefined;
  /** How many preceding values the callable takes (all of them for a rest parameter). */
  readonly count: number;
  /** The callable's argument names (undefined where a parameter is not a plain name). */
  readonly argNames: readonly (string | undefined)[];
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
  private readonly makers: readonly Maker[];

  constructor(model: readonly SequentialNode[], options?: JointDistributionOptions) {
    super('JointDistributionSequential', options);
    const fn = this.fn;
    if (!Array.isArray(model)) fail('type', fn, 'model', 'must be an array of distributions and callables', model);
    if (model.length === 0) fail('range', fn, 'model', 'must have at least one entry', model);
    this.model = Object.freeze([...model]);
    this.makers = model.map((m, i): Maker => {
      if (m instanceof Distribution) return { dist: m, fn: undefined, count: 0, argNames: [] };
      if (isDeterministicFn(m)) fail('type', fn, `model[${i}]`, 'is a deterministic(...) value, which JointDistributionSequential does not take (use JointDistributionNamed, or yield deterministic(name, value) in a JointDistributionCoroutine)', m);
      if (typeof m !== 'function') fail('type', fn, `model[${i}]`, 'must be a Distribution or a function returning one', m);
      const p = parseParams(m as (...xs: never[]) => unknown);
      const count = p?.rest ? i : m.length;
      if (count > i) fail('range', fn, `model[${i}]`, `takes ${count} argument(s) but only ${i} entr${i === 1 ? 'y precedes' : 'ies precede'} it`, m);
      const argNames = p === undefined ? [] : p.required.map((q) => (q.kind === 'name' ? q.name : undefined));
      return { dist: undefined, fn: m as (...xs: Tensor[]) => unknown, count, argNames };
    });
  }

  protected *modelCoroutine(): Generator<ModelNode, void, Tensor> {
    const xs: Tensor[] = [];
    for (const m of this.makers) {
      const args = xs.slice(xs.length - m.count).reverse();
      const d = m.dist ?? m.fn!(...(m.count === 0 ? [] : args));
      xs.push(yield m.count === 0 && d instanceof Distribution ? new RootNode(d) : d as Distribution);
    }
  }

  protected nodeLabel(i: number): string { return `model[${i}]`; }

  protected resolveNames(dists: readonly Distribution[]): string[] {
    const n = this.makers.length;
    const names: (string | undefined)[] = new Array(n).fill(undefined);
    for (let i = n - 1; i >= 0; i--) {
      this.makers[i]!.argNames.forEach((a, j) => {
        if (!nontrivial(a)) return;
        const existing = names[i - j - 1];
        if (nontrivial(existing) && existing !== a) fail('range', this.fn, `model[${i - j - 1}]`, `is called \`${existing}\` by one callable and \`${a}\` by another (inconsistent names)`, a);
        names[i - j - 1] = a;
      });
    }
    dists.forEach((d, i) => {
      const inst = explicitName(d);
      if (inst === undefined) return;
      if (nontrivial(names[i]) && names[i] !== inst) fail('range', this.fn, `model[${i}]`, `is named "${inst}" but a callable calls it \`${names[i]}\` (inconsistent names)`, inst);
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
