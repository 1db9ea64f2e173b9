import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { Distribution } from '../distribution.js';
import type { DeterministicNode } from './deterministic-node.js';
import type { FactorNode } from './factor-node.js';

/**
 * A node with no parents in a joint distribution's model (TFP's `JointDistributionCoroutine.Root`).
 * Only root nodes are drawn with the caller's `sampleShape`; every other node is drawn with
 * shape `[]`, its sample dims arriving through its parents' values.
 * `JointDistributionSequential` and `JointDistributionNamed` wrap their parentless nodes
 * automatically; in a `JointDistributionCoroutine` the model writes `yield Root(d)`.
 */
export class RootNode {
  constructor(readonly distribution: Distribution) {}
}
brand(RootNode, 'RootNode');   // recognised across copies of stochax (src/brand.ts)

/**
 * Marks a distribution yielded by a coroutine model as a root node.
 *
 * @throws TypeError when `distribution` is not a Distribution.
 * @example
 * const jd = new JointDistributionCoroutine(function* (): CoroutineModel {
 *   const mu: Tensor = yield Root(new Normal({ loc: 0, scale: 1 }));
 *   yield new Normal({ loc: mu, scale: 1 });
 * });
 */
export function Root(distribution: Distribution): RootNode {
  if (!(distribution instanceof Distribution)) fail('type', 'Root', 'distribution', 'must be a Distribution', distribution);
  return new RootNode(distribution);
}

/**
 * What a joint distribution's model yields for each node (and, not nodes, for each derived value
 * and each log-density term: see `deterministic` and `factor`).
 */
export type ModelNode = Distribution | RootNode | DeterministicNode | FactorNode;
