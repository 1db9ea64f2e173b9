/**
 * Which part of a model a failure came from: the model is evaluated on the tape at the failing
 * (unconstrained) point, term by term (`nodeLogProbs`), and the first term that throws or is not
 * finite — for a gradient failure, the first whose gradient is not finite — is named. For a
 * rejected proposal (`failureLocator`, once per kind of failure at its first point) and a start
 * where the log density is not finite (`whyNotFinite`, in errors), so its cost does not matter.
 */
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { flatTensors } from '../../distributions/compile-log-density.js';
import type { FlatModel } from '../../distributions/joint/flat-model.js';
import { nodeLogProbs, type NodeLogProb } from '../../distributions/joint/node-log-probs.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** Every term of the unconstrained target at `flat` (up to the first that throws). */
function terms(m: FlatModel, flat: readonly Tensor[]): NodeLogProb[] {
  return nodeLogProbs(m.pinned, m.struct(m.unflatten(flat)), { unconstrained: true });
}

/** The kinds of a returned non-finite value (the others are exceptions): `classifyFailure`'s. */
const VALUE_KINDS = new Set(['NaN', '+Infinity', '-Infinity', 'gradient']);

const finite = (t: Tensor): boolean => Array.prototype.every.call(t.data, (v: number) => Number.isFinite(v));

/**
 * A locator for `RejectionLog.rejections`: `(x, kind)` → the term of `m`'s log density that
 * failed at the unconstrained point `x` ("node `f`", "factor `z`", "log-Jacobian of node `s`"):
 * for an exception the term that throws, else the first term that is not finite (for a gradient
 * failure, whose gradient is not finite); undefined when every term and its gradient is finite
 * there on the tape (the failure was then in compiled code only, or depends on the order of
 * summation). With Gibbs steps, `discrete` (the sites' values, flat) is where the model is evaluated.
 *
 * @example
 * const locate = failureLocator(flatModel('fn', pinned));
 * locate(new Float64Array([0.3, 40]), 'NaN');   // → 'node `y`'
 */
export function failureLocator(m: FlatModel): (x: Float64Array, kind: string, discrete?: Float64Array) => string | undefined {
  return (x, kind, discrete) => {
    // With Gibbs steps, the model at the discrete values the failing evaluation read.
    const mm = discrete === undefined || m.gibbs === undefined ? m : { ...m, pinned: m.pinned.distribution.experimentalPin({ ...m.pinned.pins, ...m.gibbs.pins(discrete) }) };
    const at = terms(mm, flatTensors(m.sizes, x));
    // An exception is named where it was thrown (where its message comes from), even when an
    // earlier term is already not finite (an overflowed parameter that made a matrix infinite).
    const threw = VALUE_KINDS.has(kind) ? undefined : at.find((t) => t.error !== undefined);
    const bad = threw ?? at.find((t) => t.error !== undefined || !finite(t.logProb!));
    if (bad !== undefined || kind !== 'gradient') return bad?.term;
    // A gradient failure: the first term whose gradient in the unconstrained point is not finite.
    for (let j = 0; j < at.length; j++) {
      const [, grads] = valueAndGrad((...flat: Tensor[]) => sum(terms(mm, flat)[j]!.logProb!), m.sizes.map((_, k) => k))(...flatTensors(m.sizes, x));
      if (!(grads as Tensor[]).every(finite)) return at[j]!.term;
    }
    return undefined;
  };
}

/**
 * Why the log density is not finite at the unconstrained point `x`, for error messages: the terms
 * (nodes, log-Jacobians, factors) that throw or are not finite there, with the nodes' values, else
 * the gradient's non-finite coordinates.
 *
 * @example
 * whyNotFinite(m, target, x);   // "node `y` has log density -Infinity at the pinned y = 50"
 */
export function whyNotFinite(m: FlatModel, target: FlatTarget, x: Float64Array): string {
  const show = (t: Tensor) => (t.size > 6 ? `a ${t.shape.join('×')} value` : t.ndim === 0 ? String(Number(t.data[0])) : `[${Array.from(t.data as ArrayLike<number>, Number).join(', ')}]`);
  let at: NodeLogProb[] = [], values: Tensor[] = [];
  try {
    const flat = flatTensors(m.sizes, x);
    at = terms(m, flat);
    values = m.parts(m.bijector.forward(m.struct(m.unflatten(flat))));
  } catch (e) {
    return `the log density throws: ${e instanceof Error ? e.message : String(e)}`;
  }
  const bad = at.filter((t) => t.error !== undefined || !finite(t.logProb!)).map((t) => {
    if (t.error !== undefined) return `${t.term} throws: ${t.error instanceof Error ? t.error.message : String(t.error)}`;
    const name = /^node `([^`]+)`$/.exec(t.term)?.[1];
    const j = name === undefined ? -1 : m.names.indexOf(name), pin = name === undefined ? undefined : m.pinned.pins[name];
    const where = j >= 0 ? ` at ${name} = ${show(values[j]!)}` : pin !== undefined ? ` at the pinned ${name} = ${show(pin)}` : '';
    return `${t.term} has log density ${show(t.logProb!)}${where}`;
  });
  if (bad.length > 0) return bad.join('; ');
  const g = new Float64Array(target.dim);
  const lp = target.logDensityGradient(x, g);
  if (!Number.isFinite(lp)) return `the log density is ${lp} (every term is finite on the tape: the compiled code, or the order of summation)`;
  const names = target.paramNames.filter((_, i) => !Number.isFinite(g[i]!));
  return `the gradient is not finite in ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
}
