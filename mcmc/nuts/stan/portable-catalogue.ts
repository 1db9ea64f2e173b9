/**
 * The distributions' registry source for portable programs (see `src/compile/portable.ts`):
 * each distribution below traced once as a one-node model's unconstrained target (its
 * default event-space bijector, log-Jacobian and log density, the path `compileLogDensity`
 * takes) and once as a log density with traced parameters (so the partials for its parameters
 * are reached too). A compiled model whose scalar functions all come from here, from the tensor
 * ops (`portable-ops.ts`) or from data can run its chains on worker threads; one that calls
 * anything else runs in process, and the run says which function stopped it. Adding a
 * distribution (or another parameterisation) is one line; keep the order (names are given in it).
 */
import * as D from '../../../distributions/index.js';
import { flatModel } from '../../../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../../../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../../../distributions/joint/values.js';
import '../../../src/compile/portable-ops.js';
import { addPortableSource, registerTracedLowerings } from '../../../src/compile/portable.js';
import { eye } from '../../../src/tensor/ops/create.js';
import { mul } from '../../../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../../../src/tensor/ops/shape.js';
import { Tensor } from '../../../src/tensor/tensor.js';

type Make = (p: readonly Tensor[]) => unknown;
const f64 = (v: number | readonly number[], shape: readonly number[] = typeof v === 'number' ? [] : [v.length]) =>
  new Tensor(Float64Array.from(typeof v === 'number' ? [v] : v), shape, 'float64');
const eye3 = [1, 0, 0, 0.3, 0.9539392014169456, 0, 0.2, -0.1, 0.9746794344808963];

/**
 * One row: a name for the rule's reader, the distribution made from its parameters, the
 * parameters' values at the trace, and a value in the support (a number, or values with a shape).
 */
interface Row { readonly make: Make; readonly params: readonly number[]; readonly value: number | readonly [readonly number[], readonly number[]]; readonly discrete?: boolean }
const row = (make: Make, params: readonly number[], value: Row['value'], discrete = false): Row => ({ make, params, value, discrete });

/* eslint-disable @typescript-eslint/no-explicit-any */
const C = D as unknown as Record<string, new (o: any) => any>;
const ROWS: readonly Row[] = [
  row(([a, b]) => new C.Normal!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a]) => new C.HalfNormal!({ scale: a }), [1.3], 0.4),
  row(([a, b]) => new C.HalfCauchy!({ loc: a, scale: b }), [0, 1.3], 0.4),
  row(([a, b]) => new C.Cauchy!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b, c]) => new C.StudentT!({ df: a, loc: b, scale: c }), [3.5, 0.2, 1.3], 0.4),
  row(([a, b, c]) => new C.HalfStudentT!({ df: a, loc: b, scale: c }), [3.5, 0, 1.3], 0.4),
  row(([a]) => new C.Exponential!({ rate: a }), [1.3], 0.4),
  row(([a, b]) => new C.Gamma!({ concentration: a, rate: b }), [2.5, 1.3], 0.4),
  row(([a, b]) => new C.Gamma!({ concentration: a, logRate: b }), [2.5, 0.3], 0.4),
  row(([a, b]) => new C.InverseGamma!({ concentration: a, scale: b }), [2.5, 1.3], 0.4),
  row(([a, b]) => new C.Beta!({ concentration1: a, concentration0: b }), [2.5, 1.3], 0.4),
  row(([a, b]) => new C.LogNormal!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.Laplace!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.Logistic!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.Gumbel!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.Uniform!({ low: a, high: b }), [-0.5, 1.3], 0.4),
  row(([a, b]) => new C.Weibull!({ concentration: a, scale: b }), [2.5, 1.3], 0.4),
  row(([a, b]) => new C.Pareto!({ concentration: a, scale: b }), [2.5, 0.3], 0.4),
  row(([a]) => new C.Chi2!({ df: a }), [2.5], 0.4),
  row(([a, b]) => new C.VonMises!({ loc: a, concentration: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.Kumaraswamy!({ concentration1: a, concentration0: b }), [2.5, 1.3], 0.4),
  row(([a, b]) => new C.LogLogistic!({ loc: a, scale: b }), [0.2, 1.3], 0.4),
  row(([a, b]) => new C.InverseGaussian!({ loc: a, concentration: b }), [1.2, 1.3], 0.4),
  row(([a, b, c, d]) => new C.TruncatedNormal!({ loc: a, scale: b, low: c, high: d }), [0.2, 1.3, -1, 2], 0.4),
  row(([a, b, c]) => new C.GeneralizedPareto!({ loc: a, scale: b, concentration: c }), [0, 1.3, 0.2], 0.4),
  row(([a]) => new C.Horseshoe!({ scale: a }), [1.3], 0.4),
  row(([a]) => new C.Bernoulli!({ logits: a }), [0.3], 1, true),
  row(([a]) => new C.Bernoulli!({ probs: a }), [0.3], 1, true),
  row(([a]) => new C.Binomial!({ totalCount: 5, logits: a }), [0.3], 2, true),
  row(([a]) => new C.Binomial!({ totalCount: 5, probs: a }), [0.3], 2, true),
  row(([a]) => new C.Poisson!({ rate: a }), [1.3], 2, true),
  row(([a]) => new C.Poisson!({ logRate: a }), [0.3], 2, true),
  row(([a]) => new C.Geometric!({ logits: a }), [0.3], 2, true),
  row(([a]) => new C.Geometric!({ probs: a }), [0.3], 2, true),
  row(([a]) => new C.NegativeBinomial!({ totalCount: 5, logits: a }), [0.3], 2, true),
  row(([a]) => new C.NegativeBinomial!({ totalCount: 5, probs: a }), [0.3], 2, true),
  row(([a, b]) => new C.BetaBinomial!({ totalCount: 5, concentration1: a, concentration0: b }), [2.5, 1.3], 2, true),
  row(([a]) => new C.Dirichlet!({ concentration: broadcastTo(a!, [3]) }), [1.5], [[0.2, 0.3, 0.5], [3]]),
  row(([a]) => new C.LKJ!({ dimension: 3, concentration: a }), [1.5], [[1, 0.3, 0.2, 0.3, 1, -0.1, 0.2, -0.1, 1], [3, 3]]),
  row(([a]) => new C.CholeskyLKJ!({ dimension: 3, concentration: a }), [1.5], [eye3, [3, 3]]),
  row(([a, b]) => new C.MultivariateNormalDiag!({ loc: broadcastTo(a!, [2]), scaleDiag: broadcastTo(b!, [2]) }), [0.2, 1.3], [[0.4, -0.2], [2]]),
  row(([a, b]) => new C.MultivariateNormalTriL!({ loc: broadcastTo(a!, [2]), scaleTril: mul(b!, eye(2)) }), [0.2, 1.3], [[0.4, -0.2], [2]]),
  row(() => new C.ImproperUniform!({}), [], 0.4),
];
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The trace-time value of a row (traced when continuous). */
const valueOf = (r: Row): Tensor => (typeof r.value === 'number' ? f64(r.value) : f64(r.value[0], r.value[1]));

/** Registers the functions of one row: its one-node model's flat target, and its log density with traced parameters. */
function probe(r: Row): void {
  const params = r.params.map((p) => f64(p));
  try {
    const model = new D.JointDistributionNamed({ x: r.make(params) as D.Normal });
    const m = flatModel('portable', model.experimentalPin({}) as JointDistributionPinned<StructKind>);
    registerTracedLowerings((...parts) => m.target(...parts), m.sizes.map((n) => new Tensor(new Float64Array(n), [n], 'float64')));
  } catch { /* a discrete node has no unconstrained target */ }
  const value = valueOf(r);
  const k = params.length;
  registerTracedLowerings((...xs) => (r.make(xs.slice(0, k)) as D.Normal).logProb(r.discrete ? value : xs[k]!), r.discrete ? params : [...params, value]);
}

addPortableSource(() => { for (const r of ROWS) probe(r); });
