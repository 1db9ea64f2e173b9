import { checkFunction, fail } from '../../src/checks.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { NotImplementedError, type Distribution } from '../distribution.js';
import { JointDistribution, type JointDistributionOptions, type ModelIterator } from './joint-distribution.js';
import { Root, type ModelNode } from './root.js';
import { explicitName } from './values.js';

/** The generator a coroutine model returns: it yields nodes and receives each node's value. Annotate models with it. */
export type CoroutineModel = Generator<ModelNode, void, Tensor>;

/**
 * A joint distribution written as a generator function (TFP's `tfd.JointDistributionCoroutine`):
 * the model yields one distribution per node and receives its value back. Nodes without parents
 * must be yielded as `Root(d)` (they are drawn with the sample shape; the others with `[]`, their
 * sample dims coming through their parents' values); the first yield must be a root.
 *
 * Values come back as an **array** in yield order (our choice for TFP's `StructTuple`). Node
 * names — used to pass values, pins and parts as a record instead — are each distribution's
 * explicit `name` option, else `var0`, `var1`, … by position. Seeds: `'JointDistribution'` salt,
 * then one binary split per yield in order.
 *
 * Besides nodes, a model may `yield deterministic(name, value)` (a recorded derived value) and
 * `yield factor(name, logTerm)` (a term added to the log density, Stan's `target +=`); neither
 * is a node, and each sends its value back.
 *
 * The model function is re-run for every draw, density and bijector call; it must be
 * deterministic given the values it receives and yield the same number of nodes each time.
 *
 * @throws TypeError when `model` is not a function, does not return a generator, yields
 *   something that is not a Distribution or Root, or does not start with a Root.
 * @example
 * const jd = new JointDistributionCoroutine(function* (): CoroutineModel {
 *   const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 10, name: 'mu' }));
 *   const sigma: Tensor = yield Root(new Gamma({ concentration: 2, rate: 2, name: 'sigma' }));
 *   yield new Normal({ loc: mu, scale: sigma, name: 'y' });
 * });
 * jd.sample([3], { seed: 0 });                  // [Tensor [3], Tensor [3], Tensor [3]]
 * jd.logProb({ mu: 0, sigma: 1, y: 0.5 });      // → Tensor float64 []
 */
export class JointDistributionCoroutine extends JointDistribution<'array'> {
  /** TFP's `JointDistributionCoroutine.Root`. */
  static readonly Root = Root;
  readonly structKind = 'array' as const;
  /** The generator function as given. */
  readonly model: () => CoroutineModel;

  constructor(model: () => CoroutineModel, options?: JointDistributionOptions) {
    super('JointDistributionCoroutine', options);
    checkFunction(this.fn, 'model', model, 'must be a generator function');
    this.model = model;
  }

  protected modelCoroutine(): ModelIterator {
    const it: unknown = this.model();
    if (it === null || typeof it !== 'object' || typeof (it as { next?: unknown }).next !== 'function') {
      fail('type', this.fn, 'model', 'must be a generator function (function* () { … yield … }); it returned something that is not an iterator', it);
    }
    return it as ModelIterator;
  }

  protected nodeLabel(i: number): string { return `yield #${i}`; }

  protected resolveNames(dists: readonly Distribution[]): string[] {
    return dists.map((d, i) => explicitName(d) ?? `var${i}`);
  }

  /**
   * Not available: a coroutine's dependencies are not declared, and TFP does not resolve them
   * either.
   * @throws NotImplementedError always.
   */
  resolveGraph(): [string, string[]][] {
    throw new NotImplementedError(`${this.fn}.resolveGraph is not implemented: a coroutine model does not declare its parents`);
  }
}
