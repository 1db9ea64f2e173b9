/**
 * A pinned model's log density term by term — each node's unnormalized log density and each
 * log-density term the model adds (`factor`) — computed one at a time and stopping at the first
 * that throws, so a failure can be pinned on a node. `unnormalizedLogProbParts` cannot tell which
 * node threw, since one throw ends the whole run of the model.
 */
import type { Tensor } from '../../src/tensor/tensor.js';
import type { JointDistributionPinned } from './joint-distribution-pinned.js';
import { toValue, type PartialValues, type StructKind } from './values.js';

/** One term of the log density: `logProb` when it was computed, `error` when it threw. */
export interface NodeLogProb {
  /**
   * "node `name`", "factor `name`" or "log-Jacobian of node `name`", in the order the model
   * computes them; "node `name` (building its distribution)" for a throw from the model's code
   * before that node's distribution existed.
   */
  readonly term: string;
  readonly logProb?: Tensor;
  readonly error?: unknown;
}

const STOP = Symbol('stop');

/**
 * The terms of `pinned.unnormalizedLogProb(values)`, in model order, up to and including the first
 * that throws (a node's log density, or the construction of its distribution by its callable; the
 * node it was building is named). Differentiable like `unnormalizedLogProb`.
 *
 * With `unconstrained`, `values` are in the unconstrained space (the inputs of the default joint
 * bijector): each unpinned node is mapped to its support by its distribution's default
 * event-space bijector on the way, and its log-Jacobian is one more term ("log-Jacobian of node
 * `name`", right after the node's) — the terms of the unconstrained MCMC target.
 *
 * @throws what `fullValues` throws for values that are not the unpinned nodes'.
 * @example
 * const jd = new JointDistributionNamed({ s: new HalfNormal({ scale: 1 }), y: ({ s }) => new Normal({ loc: 0, scale: s }) });
 * nodeLogProbs(jd.experimentalPin({ y: 0.5 }), { s: 1 });
 * // → [{ term: 'node `s`', logProb: Tensor [] }, { term: 'node `y`', logProb: Tensor [] }]
 */
export function nodeLogProbs<K extends StructKind>(pinned: JointDistributionPinned<K>, values: PartialValues, options: { readonly unconstrained?: boolean } = {}): NodeLogProb[] {
  const fn = 'nodeLogProbs';
  const jd = pinned.distribution;
  const full = pinned.fullValues(fn, 'values', values);
  const terms: NodeLogProb[] = [];
  let next = 0;                    // the node the model is building
  try {
    jd.executeModel(fn, (i, d) => {
      const term = `node \`${jd.nodeNames[i]}\``;
      let x = toValue(fn, `values.${jd.nodeNames[i]}`, d.dtype, full[i]!);
      if (options.unconstrained === true && !pinned.isPinned(i)) {
        const jac = `log-Jacobian of ${term}`;
        try {
          const b = d.defaultEventSpaceBijector(), u = x;
          x = b.forward(u);
          terms.push({ term: jac, logProb: b.forwardLogDetJacobian(u, d.eventShape.length - b.inverseMinEventNdims + b.forwardMinEventNdims) });
        } catch (error) { terms.push({ term: jac, error }); throw STOP; }
      }
      try { terms.push({ term, logProb: d.unnormalizedLogProb(x) }); } catch (error) { terms.push({ term, error }); throw STOP; }
      next = i + 1;
      return x;
    }, undefined, (name, value) => { terms.push({ term: `factor \`${name}\``, logProb: toValue(fn, `factor ${name}`, 'float64', value) }); });
  } catch (error) {
    // Thrown by the model's own code: while building node `next`'s distribution (its callable, or a derived value computed before it).
    if (error !== STOP) terms.push({ term: next < jd.nodeNames.length ? `node \`${jd.nodeNames[next]}\` (building its distribution)` : 'the model after its last node', error });
  }
  return terms;
}
