/**
 * Arbitrary terms of a joint log density (Stan's `target +=`, PyMC's `pm.Potential`, NumPyro's
 * `numpyro.factor`): a value computed from the nodes and added to the model's log density. It is
 * not a node: it has no distribution, no seed, no value and no unconstrained coordinate, and
 * sampling ignores it, so adding one changes no draw; it changes only the densities (and so
 * what MCMC samples).
 */
import { brand } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { asTensor, type TensorLike } from '../../src/tensor/core.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** What a coroutine model yields to add a term: `yield factor('name', logTerm)` sends `logTerm` back (as a Tensor). */
export class FactorNode {
  constructor(readonly name: string, readonly value: Tensor) {}
}
brand(FactorNode, 'FactorNode');

/** A `JointDistributionNamed` or `JointDistributionSequential` entry that computes a log-density term from its parents. */
export class FactorFn {
  constructor(readonly fn: (...args: any[]) => TensorLike) {}
}
brand(FactorFn, 'FactorFn');

/**
 * True for a {@link FactorNode} from any copy of stochax (recognised by its registered brand).
 * @example
 * isFactorNode(factor('penalty', -1.5));                 // true
 * isFactorNode(deterministic('theta', 1));               // false
 */
export function isFactorNode(x: unknown): x is FactorNode {
  return x instanceof FactorNode;
}

/**
 * True for a {@link FactorFn} from any copy of stochax.
 * @example
 * isFactorFn(factor((mu) => neg(square(mu))));           // true
 */
export function isFactorFn(x: unknown): x is FactorFn {
  return x instanceof FactorFn;
}

/**
 * Adds a term to a joint model's log density (Stan's `target += …`, PyMC's `pm.Potential`,
 * NumPyro's `numpyro.factor`; the name is NumPyro's). The term is added to `logProb` and
 * `unnormalizedLogProb` (of the model and of pinned models, so to what MCMC, `compileLogDensity`
 * and `windowedAdaptiveNuts` see) and to a pinned model's `logWeight`; it is not one of the
 * `logProbParts` (which are per node), and `factorValues` reports it by name. `sample` ignores it
 * entirely: no seed is split for it and it is not evaluated, so every draw of the model is what
 * it was without it (draws are then from the model *without* the term, as in NumPyro and PyMC).
 * The term must broadcast against the nodes' log densities: a scalar per draw (shape `[]`, or the
 * leading sample/chain dims of the values).
 *
 * Three forms, as `deterministic`'s:
 * - in a `JointDistributionNamed` record, `factor(fn)`: `fn`'s parameters name its parents (nodes
 *   or `deterministic` values), as a callable node's do; no node may take it as a parent;
 * - in a `JointDistributionSequential` list, `factor(fn)`: `fn` takes the preceding nodes' values,
 *   most recent first, as a callable entry does; it is not a node, so it takes no position in the
 *   later entries' arguments (they skip it);
 * - in a `JointDistributionCoroutine` model, `yield factor(name, logTerm)`: adds `logTerm` and
 *   sends it back (as a Tensor).
 *
 * Names must be unique and differ from the nodes' and derived values' names.
 *
 * @throws TypeError for a name that is not a non-empty string, a term that is not numeric, or a
 *   `fn` that is not a function.
 * @example
 * import { JointDistributionNamed, Normal, HalfNormal, factor } from 'stochax/distributions';
 * import { neg, square } from 'stochax';
 * // a soft constraint mu ≈ sigma, as Stan's `target += -square(mu - sigma)`
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 1 }),
 *   sigma: new HalfNormal({ scale: 1 }),
 *   penalty: factor((mu, sigma) => neg(square(mu.sub(sigma)))),
 * });
 * model.nodeNames;                       // ['sigma', 'mu'] (penalty is not a node)
 * model.factorNames;                     // ['penalty']
 * model.logProb({ mu: 1, sigma: 2 });    // log N(1; 0, 1) + log HalfNormal(2; 1) − 1
 * model.sample([], { seed: 0 });         // { mu: Tensor [], sigma: Tensor [] } (the term is ignored)
 */
export function factor(fn: (...args: any[]) => TensorLike): FactorFn;
export function factor(name: string, logTerm: TensorLike): FactorNode;
export function factor(a: unknown, b?: unknown): FactorFn | FactorNode {
  if (typeof a === 'function') {
    if (b !== undefined) fail('type', 'factor', 'logTerm', 'must not be given with a function (factor(fn) for a JointDistributionNamed or JointDistributionSequential entry, factor(name, logTerm) in a coroutine)', b);
    return new FactorFn(a as (...args: any[]) => TensorLike);
  }
  if (typeof a !== 'string' || a === '') fail('type', 'factor', 'name', 'must be a non-empty string (or give a function of the parents for a JointDistributionNamed or JointDistributionSequential entry)', a);
  if (b === undefined || b === null) fail('type', 'factor', 'logTerm', `must be a tensor or number (the log-density term \`${a}\`)`, b);
  return new FactorNode(a, factorValue('factor', 'logTerm', b));
}

/** A factor's value as a float tensor (a bool or integer term is a model error). @internal */
export function factorValue(fn: string, arg: string, v: unknown): Tensor {
  const t = v instanceof Tensor ? v : asTensor(fn, arg, v as TensorLike);
  if (t.dtype !== 'float64' && t.dtype !== 'float32') fail('type', fn, arg, `must be a float tensor (a log-density term); got dtype ${t.dtype}`, v);
  return t;
}
