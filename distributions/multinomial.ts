import type { KeyArray } from '../src/random/key-array.js';
import { broadcastData, broadcastIndex, reduceToShape, reduceToShapeInto } from '../src/tensor/broadcast.js';
import { floatKind, floatStorage, isTracked, numbers, result, tracing, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Flat, Lowering } from '../src/tensor/lowering.js';
import { eye } from '../src/tensor/ops/create.js';
import { exp, log, mul, sub } from '../src/tensor/ops/elementwise.js';
import { logsumexp } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import { digamma, stirlingError } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import { gatherInto, rowsOf } from './categorical.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegativeInteger, real, simplex, type Constraint } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { countVectorsSumming } from './internal/count-support.js';
import { iteratedBinomialMultinomial } from './internal/tfp-random-multinomial.js';
import { addRowGrad, rowIndex, simplexRows, type SimplexRows } from './internal/simplex-rows.js';
import { detExp, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface MultinomialOptions extends DistributionOptions {
  /** Number of trials n ≥ 0 (integer-valued; checked under `validateArgs`). */
  readonly totalCount: TensorLike;
  /** Unnormalized log-probabilities `[...batch, K]`. Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Class probabilities `[...batch, K]`, rows summing to 1 (checked under `validateArgs`). */
  readonly probs?: TensorLike;
}

/**
 * The multinomial distribution (TFP's `tfd.Multinomial`): counts x over K classes from n
 * independent categorical trials, P(x) = n!/∏ xⱼ! ∏ qⱼ^xⱼ (q = softmax(logits) or probs/Σ probs)
 * on non-negative integer vectors summing to n; other vectors have log mass −∞. Event shape
 * `[K]`; batch shape is the broadcast of `totalCount`'s shape and the parameter's `shape[:-1]`.
 *
 * Sampling follows TFP (`internal/tfp-random-multinomial.ts`): the seed is split into K keys with
 * salt `'multinomial_draw_sample'`, and class i's count is a Binomial of the trials left with
 * probability qᵢ/(1 − Σ_{j<i} qⱼ), drawn with key i by TFP's binomial sampler; the last class
 * takes the rest. Draws are float. `logProb` is one node differentiable in `logits`/`probs`
 * (∂/∂totalCount = ψ(n + 1), the derivative of the log n! term). No event-space bijector.
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given; RangeError for a scalar
 *   logits/probs, shapes that do not broadcast or, with `validateArgs`, a negative or fractional
 *   `totalCount` or invalid probs.
 * @example
 * const d = new Multinomial({ totalCount: 10, probs: [0.2, 0.3, 0.5] });
 * d.logProb([2, 3, 5]);       // → Tensor float64 []
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 3]
 */
export class Multinomial extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    totalCount: { constraint: nonNegativeInteger },
    logits: { eventNdims: 1, constraint: real },
    probs: { eventNdims: 1, constraint: simplex() },
  };
  readonly totalCount: Tensor;
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;
  private rowsCache: SimplexRows | undefined;

  constructor(options: MultinomialOptions) {
    super('Multinomial', options, false);
    this.totalCount = this.param('totalCount');
    checkExactlyOne('Multinomial', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
  }

  private get parameter(): Tensor { return (this.logits ?? this.probs)!; }
  private get rows(): SimplexRows { return (this.rowsCache ??= simplexRows(this.parameter, this.logits !== undefined)); }
  /** K, the number of classes. */
  get numCategories(): number { return this.parameter.shape[this.parameter.ndim - 1]!; }
  override get eventShape(): readonly number[] { return [this.numCategories]; }

  /** `probs` as given, or softmax(`logits`) (differentiable). */
  probsParameter(): Tensor { return this.probs ?? exp(sub(this.logits!, logsumexp(this.logits!, -1, true))); }
  /** Normalized log-probabilities log q (differentiable; as `Categorical.logitsParameter`). */
  logitsParameter(): Tensor { const l = this.logits ?? log(this.probs!); return sub(l, logsumexp(l, -1, true)); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const k = this.numCategories, dtype = this.dtype, shape = [n, ...this.batchShape];
    const q = broadcastData(this.fn, 'probs', new Tensor(this.rows.q, this.parameter.shape, 'float64'), [...shape, k]) as Float64Array;
    const trials = broadcastData(this.fn, 'totalCount', this.totalCount, shape) as Float64Array;
    const draws = iteratedBinomialMultinomial(shape, k, q, trials, seed, dtype);
    const out = floatStorage(dtype, draws.length);
    out.set(draws);
    return new Tensor(out, [...shape, k], dtype);
  }

  protected override get support(): Constraint { return countVectorsSumming(this.totalCount); }

  protected override logProbImpl(x: Tensor): Tensor {
    const fn = 'Multinomial.logProb', s = this.rows, k = s.k, p = this.parameter, tc = this.totalCount;
    const { shape, values, rows } = rowIndex(fn, x, this.batchShape, 1, p.shape.slice(0, -1));
    const nv = numbers(new Tensor(broadcastData(fn, 'totalCount', tc, shape) as never, shape, tc.dtype));
    const out = floatStorage(floatKind(p, tc), rows.length), h = new Float64Array(k);
    const forward = (s: SimplexRows, values: ArrayLike<number>, nv: ArrayLike<number>, out: Flat) => {
      for (let i = 0; i < out.length; i++) out[i] = multinomialLogPmf(values, i * k, k, nv[i]!, s.logq, rows[i]! * k);
    };
    // g · ∂/∂ the parameter into gp and g · ∂/∂n (per output element) into gn, each when not null.
    const backward = (
      s: SimplexRows, values: ArrayLike<number>, nv: ArrayLike<number>, out: ArrayLike<number>, g: Float64Array, gp: Float64Array | null, gn: Float64Array | null,
    ) => {
      gp?.fill(0); gn?.fill(0);
      for (let i = 0; i < out.length; i++) {
        if (g[i] === 0 || !(out[i]! > -Infinity)) continue;
        if (gp) {
          const o = rows[i]! * k;
          for (let j = 0; j < k; j++) { const xj = values[i * k + j]!; h[j] = xj === 0 ? 0 : xj / s.q[o + j]!; }
          addRowGrad(s, rows[i]!, h, g[i]!, gp);
        }
        if (gn) gn[i] = g[i]! * digamma(nv[i]! + 1);
      }
    };
    forward(s, values, nv, out);
    let op: Lowering | string = fn;
    if (tracing()) {
      // The lowering: rows normalized from operand 0, n (operand 1) and the counts (operand 2,
      // no gradient) gathered to the output's shape; ∂/∂n summed back to n's shape.
      const n = out.length, xIdx = broadcastIndex(x.shape, [...shape, ...x.shape.slice(x.ndim - 1)]), nIdx = broadcastIndex(tc.shape, shape);
      const vals = new Float64Array(xIdx.length), counts = new Float64Array(n), gnFull = tc.size === n ? null : new Float64Array(n);
      let rowsNow = s;
      op = {
        name: fn,
        gradOperands: [true, true, false],
        forward(ins, o) {
          rowsNow = rowsOf(ins[0]!, p.shape, s.isLogits);
          forward(rowsNow, gatherInto(vals, ins[2]!, xIdx), gatherInto(counts, ins[1]!, nIdx), o);
        },
        backward(g, _ins, o, parts) {
          const gn = parts[1] ? gnFull ?? parts[1] : null;
          backward(rowsNow, vals, counts, o, g, parts[0] ?? null, gn);
          if (parts[1] && gnFull) reduceToShapeInto(parts[1], gnFull, shape, tc.shape);
        },
      };
    }
    if (!isTracked(p) && !isTracked(tc)) return result(out, shape, [p, tc, x], null, undefined, op);
    return result(out, shape, [p, tc, x], (g) => {
      const gp = new Float64Array(s.rows * k), gn = new Float64Array(out.length);
      backward(s, values, nv, out, g, gp, gn);
      return [gp, reduceToShape(gn, shape, tc.shape), null];
    }, undefined, op);
  }

  /** n·q. */
  protected override meanImpl(): Tensor {
    return broadcastTo(mul(expandDims(this.totalCount, -1), this.probsParameter()), [...this.batchShape, this.numCategories]);
  }
  /** n·q(1 − q). */
  protected override varianceImpl(): Tensor {
    const q = this.probsParameter();
    return broadcastTo(mul(expandDims(this.totalCount, -1), mul(q, sub(1, q))), [...this.batchShape, this.numCategories]);
  }
  /** n·(diag(q) − q qᵀ). */
  protected override covarianceImpl(): Tensor {
    const q = this.probsParameter(), k = this.numCategories;
    const c = sub(mul(expandDims(q, -1), eye(k)), mul(expandDims(q, -1), expandDims(q, -2)));
    return broadcastTo(mul(expandDims(expandDims(this.totalCount, -1), -1), c), [...this.batchShape, k, k]);
  }
}

/**
 * log n! − Σ log xⱼ! + Σ xⱼ log qⱼ for the K counts at `values[at…]`; −∞ unless they are
 * non-negative integers summing to n, NaN for NaN counts. Written through Stirling's formula
 * (log x! = x log x − x + ½ log(2πx) + s(x), s the Stirling error) as
 * Σ xⱼ log(n qⱼ / xⱼ) + ½ log(2πn) − Σ ½ log(2πxⱼ) + s(n) − Σ s(xⱼ) over the xⱼ > 0, each
 * xⱼ log(n qⱼ/xⱼ) via log1p near the mode, so no O(n) terms cancel (1e−15 relative at n = 1e6).
 */
export function multinomialLogPmf(values: ArrayLike<number>, at: number, k: number, n: number, logq: ArrayLike<number>, qAt: number): number {
  let total = 0;
  for (let j = 0; j < k; j++) {
    const xj = values[at + j]!;
    if (Number.isNaN(xj)) return Number.NaN;
    if (!Number.isInteger(xj) || xj < 0) return -Infinity;
    total += xj;
  }
  if (total !== n) return -Infinity;
  if (n === 0) return 0;
  const logn = detLog(n);
  let acc = 0.5 * detLog(2 * Math.PI * n) + stirlingError(n);
  for (let j = 0; j < k; j++) {
    const xj = values[at + j]!;
    if (xj === 0) continue;
    const lq = logq[qAt + j]!;
    if (lq === -Infinity) return -Infinity;
    const m = n * detExp(lq);   // the expected count n·qⱼ
    const u = (m - xj) / xj;
    acc += (Math.abs(u) < 0.5 ? xj * detLog1p(u) : xj * (logn + lq - detLog(xj))) - 0.5 * detLog(2 * Math.PI * xj) - stirlingError(xj);
  }
  return acc;
}
brand(Multinomial, 'Multinomial');   // recognised across copies of stochax (src/brand.ts)
