/**
 * log p(x) per observation, for the pointwise log-likelihood (`logLikelihood`, LOO) and for the
 * missing-value imputation (`impute-missing.ts`), which both need a node's density element by
 * element. It lives with the joint distributions so both layers can use it.
 */
import { transpose } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { Distribution } from '../distribution.js';
import { Independent } from '../independent.js';
import { Sample } from '../sample.js';

/**
 * log p(x) per observation: the distribution's log density with `Independent` and `Sample`
 * wrappers opened, so the dims they sum over stay (an `Independent(Normal, 1)` over 8
 * observations gives 8 numbers; a multivariate normal's vector stays one observation). A node
 * with imputed missing values gives its observed entries only.
 * Shape: batch dims, then the opened event dims in the value's order.
 *
 * @example
 * import { tensor } from 'stochax';
 * import { Independent, Normal } from 'stochax/distributions';
 * import { pointwiseLogProb } from 'stochax/mcmc';
 * const d = new Independent({ distribution: new Normal({ loc: [0, 0, 0], scale: 1 }), reinterpretedBatchNdims: 1 });
 * d.logProb([0, 1, 2]).shape;                       // []: one number for the whole event
 * pointwiseLogProb(d, tensor([0, 1, 2])).shape;     // [3]: log φ(0), log φ(1), log φ(2)
 */
export function pointwiseLogProb(d: Distribution, x: Tensor): Tensor {
  const observed = (d as { observedPointwiseLogProb?: (x: Tensor) => Tensor }).observedPointwiseLogProb;
  if (typeof observed === 'function') return observed.call(d, x);
  if (d instanceof Independent) return pointwiseLogProb(d.distribution, x);
  if (d instanceof Sample) {
    const b = d.batchShape.length, s = d.sampleShape.length;
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
    // x is [...B, ...S, ...E]; the inner distribution wants the iid dims in front: [...S, ...B, ...E]
    const inner = pointwiseLogProb(d.distribution, s === 0 || b === 0 ? x : transpose(x, [...range(b, b + s), ...range(0, b), ...range(b + s, x.ndim)]));
    // inner is [...S, ...B, ...opened]; back to [...B, ...S, ...opened]
    return s === 0 || b === 0 ? inner : transpose(inner, [...range(s, s + b), ...range(0, s), ...range(s + b, inner.ndim)]);
  }
  return d.logProb(x);
}
