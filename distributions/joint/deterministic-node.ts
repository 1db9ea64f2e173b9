/**
 * Derived quantities of a joint model (PyMC's `pm.Deterministic`, NumPyro's
 * `numpyro.deterministic`): a value computed from the nodes, recorded with the draws but not
 * itself a node. It has no distribution, no seed, no unconstrained coordinate and no term in the
 * log density, so adding one to a model changes none of its draws, densities or compiled code.
 */
import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** What a coroutine model yields to record a derived value: `yield deterministic('theta', value)` sends `value` back. */
export class DeterministicNode {
  constructor(readonly name: string, readonly value: Tensor) {}
}
brand(DeterministicNode, 'DeterministicNode');

/** A `JointDistributionNamed` entry that computes a derived value from its parents (named like a callable node's parameters). */
export class DeterministicFn {
  constructor(readonly fn: (...args: any[]) => TensorLike) {}
}
brand(DeterministicFn, 'DeterministicFn');

/**
 * True for a {@link DeterministicNode} from any copy of stochax (recognised by its registered brand).
 * @example
 * isDeterministicNode(deterministic('theta', [1, 2]));   // true
 * isDeterministicNode(new Normal({ loc: 0, scale: 1 }));  // false
 */
export function isDeterministicNode(x: unknown): x is DeterministicNode {
  return x instanceof DeterministicNode;
}

/**
 * True for a {@link DeterministicFn} from any copy of stochax.
 * @example
 * isDeterministicFn(deterministic((mu) => mul(mu, 2)));   // true
 */
export function isDeterministicFn(x: unknown): x is DeterministicFn {
  return x instanceof DeterministicFn;
}

/**
 * Declares a derived quantity of a joint model, recorded with the draws (`windowedAdaptiveNuts`'
 * `deterministics`, `samplePriorPredictive`, `computeDeterministics`, the CLI's posterior) but
 * not sampled: no seed is split for it, it has no unconstrained coordinate and adds nothing to
 * the log density, so every draw and density of the model stays what it was without it.
 *
 * Two forms:
 * - in a `JointDistributionNamed` record, `deterministic(fn)`: `fn`'s parameters name its
 *   parents (nodes or other deterministics), as a callable node's do; later nodes may take it
 *   as a parent. It is computed only when a node needs it or when the values are recorded.
 * - in a `JointDistributionCoroutine` model, `yield deterministic(name, value)`: records `value`
 *   under `name` and sends it back (as a Tensor) to the model.
 *
 * Names must be unique and differ from the nodes' names. (Not the `Deterministic` distribution,
 * TFP's point mass, which is a node.)
 *
 * @throws TypeError for a name that is not a non-empty string, a value that is not numeric, or
 *   a `fn` that is not a function.
 * @example
 * import { JointDistributionNamed, Normal, HalfCauchy, Sample, deterministic } from 'stochax/distributions';
 * import { add, mul } from 'stochax';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 5 }),
 *   tau: new HalfCauchy({ loc: 0, scale: 5 }),
 *   thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
 *   theta: deterministic(({ mu, tau, thetaTilde }) => add(mu, mul(tau, thetaTilde))),
 * });
 * model.nodeNames;            // ['thetaTilde', 'tau', 'mu'] (theta is not a node)
 * model.deterministicNames;   // ['theta']
 * model.deterministicValues({ mu: 1, tau: 2, thetaTilde: [0, 1, 0, 0, 0, 0, 0, 0] }).theta;   // → Tensor float64 [8]
 */
export function deterministic(fn: (...args: any[]) => TensorLike): DeterministicFn;
export function deterministic(name: string, value: TensorLike): DeterministicNode;
export function deterministic(a: unknown, b?: unknown): DeterministicFn | DeterministicNode {
  if (typeof a === 'function') {
    if (b !== undefined) fail('type', 'deterministic', 'value', 'must not be given with a function (deterministic(fn) for a JointDistributionNamed entry, deterministic(name, value) in a coroutine)', b);
    return new DeterministicFn(a as (...args: any[]) => TensorLike);
  }
  if (typeof a !== 'string' || a === '') fail('type', 'deterministic', 'name', 'must be a non-empty string (or give a function of the parents for a JointDistributionNamed entry)', a);
  if (b === undefined || b === null) fail('type', 'deterministic', 'value', `must be a tensor or number (the value of \`${a}\`)`, b);
  return new DeterministicNode(a, b instanceof Tensor ? b : asTensor('deterministic', 'value', b as TensorLike));
}
