import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { categorical as samplersCategorical } from '../src/samplers/categorical.js';
import { broadcastIndex } from '../src/tensor/broadcast.js';
import { floatKind, floatStorage, isTracked, numbers, result, tracing, type TensorLike } from '../src/tensor/core.js';
import { allocate } from '../src/tensor/dtype.js';
import type { Flat, Lowering } from '../src/tensor/lowering.js';
import { eye } from '../src/tensor/ops/create.js';
import { log, mul, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Categorical, gatherInto, rowsOf } from './categorical.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { real, simplex, type Constraint } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { rowIndex, simplexRows, type SimplexRows } from './internal/simplex-rows.js';
import { registerKL } from './kl.js';
import { brand } from '../src/brand.js';

/** The dtypes a OneHotCategorical's samples (and mode) may have. */
export type OneHotCategoricalDType = 'int32' | 'float32' | 'float64';
const DTYPES: readonly string[] = ['int32', 'float32', 'float64'];

export interface OneHotCategoricalOptions extends DistributionOptions {
  /** Unnormalized log-probabilities, shape `[...batch, K]`. Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probabilities, shape `[...batch, K]`, rows summing to 1 (checked under `validateArgs`). */
  readonly probs?: TensorLike;
  /** The dtype of samples and of `mode()` (default `'int32'`, as TFP). */
  readonly dtype?: OneHotCategoricalDType;
}

const support: Constraint = {
  what: 'must be one-hot vectors (one 1, the rest 0) along the last axis',
  check(fn, arg, t) {
    const v = numbers(t), k = t.shape[t.ndim - 1]!;
    for (let r = 0; r < v.length; r += k) {
      let ones = 0;
      for (let j = 0; j < k; j++) {
        const x = v[r + j]!;
        if (x === 1) ones++;
        else if (x !== 0) fail('range', fn, `${arg}[${r + j}]`, 'must be 0 or 1 (a one-hot vector)', x);
      }
      if (ones !== 1) fail('range', fn, arg, `rows must hold exactly one 1 (row ${r / k} holds ${ones})`, ones);
    }
  },
};

/**
 * The one-hot categorical distribution (TFP's `tfd.OneHotCategorical`): a draw is the one-hot
 * vector e_k of length K with probability qₖ, q = softmax(logits) or probs / Σ probs. Event shape
 * `[K]`, batch shape `logits.shape[:-1]`; vectors that are not one-hot have log mass −∞.
 *
 * Sampling uses the seed as given, as TFP: `samplers.categorical(logits, n)` one-hot encoded, so
 * `OneHotCategorical(θ).sample(n, { seed })` is the one-hot encoding of
 * `Categorical(θ).sample(n, { seed })`. `logProb` is one node differentiable in logits/probs;
 * `entropy` and the KL divergence are Categorical's. No event-space bijector (discrete).
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given, or for a bad `dtype`;
 *   RangeError for a scalar parameter or with `validateArgs` for invalid logits or probs.
 * @example
 * const d = new OneHotCategorical({ probs: [0.2, 0.8] });
 * d.logProb([0, 1]);          // → Tensor float64 []: log 0.8
 * d.sample(3, { seed: 0 });   // → Tensor int32 [3, 2]
 */
export class OneHotCategorical extends Distribution<OneHotCategoricalDType> {
  static override readonly optionNames = ['dtype'];
  static override readonly parameterProperties = {
    logits: { eventNdims: 1, constraint: real },
    probs: { eventNdims: 1, constraint: simplex() },
  };
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;
  /** The Categorical over the class index, sharing the parameter tensor. */
  readonly categorical: Categorical;
  private rowsCache: SimplexRows | undefined;

  constructor(options: OneHotCategoricalOptions) {
    super('OneHotCategorical', options, false, options?.dtype ?? 'int32');
    checkExactlyOne('OneHotCategorical', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
    if (!DTYPES.includes(this.dtype)) fail('type', 'OneHotCategorical', 'dtype', `must be one of ${DTYPES.join(', ')}`, this.dtype);
    this.categorical = this.logits ? new Categorical({ logits: this.logits }) : new Categorical({ probs: this.probs! });
  }

  /** K, the number of classes. */
  get numCategories(): number { return this.categorical.numCategories; }
  override get eventShape(): readonly number[] { return [this.numCategories]; }
  /** Normalized log-probabilities (differentiable; see `Categorical.logitsParameter`). */
  logitsParameter(): Tensor { return this.categorical.logitsParameter(); }
  /** `probs` as given, or softmax(`logits`) (differentiable). */
  probsParameter(): Tensor { return this.categorical.probsParameter(); }
  private get rows(): SimplexRows { return (this.rowsCache ??= simplexRows((this.logits ?? this.probs)!, this.logits !== undefined)); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const k = this.numCategories;
    const draws = samplersCategorical(this.logits ?? log(this.probs!), n, { seed, dtype: 'int32' }).data as Int32Array;
    const b = draws.length / Math.max(n, 1);
    const out = allocate(this.dtype, n * b * k);
    for (let j = 0; j < n; j++) for (let i = 0; i < b; i++) out[(j * b + i) * k + draws[i * n + j]!] = 1;
    return new Tensor(out, [n, ...this.batchShape, k], this.dtype);
  }

  protected override get support(): Constraint { return support; }

  /** The K one-hot vectors, `[K, K]` (the identity matrix, in this distribution's dtype). */
  protected override enumerateSupportImpl(): Tensor {
    const k = this.numCategories, out = allocate(this.dtype, k * k);
    for (let i = 0; i < k; i++) out[i * k + i] = 1;
    return new Tensor(out, [k, k], this.dtype);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const fn = 'OneHotCategorical.logProb', s = this.rows, k = s.k, p = (this.logits ?? this.probs)!;
    const { shape, values, rows } = rowIndex(fn, x, this.batchShape, 1);
    const out = floatStorage(floatKind(p), rows.length), hot = new Int32Array(rows.length);
    oneHotLogProb(s, values, rows, out, hot);
    let op: Lowering | string = fn;
    if (tracing()) {
      // The lowering: rows normalized from operand 0, the value (operand 1, no gradient)
      // gathered to [...shape, event]; its backward reads the hot classes its forward found.
      const idx = broadcastIndex(x.shape, [...shape, ...x.shape.slice(x.ndim - 1)]), vals = new Float64Array(idx.length), hotNow = new Int32Array(rows.length);
      let rowsNow = s;
      op = {
        name: fn,
        gradOperands: [true, false],
        forward(ins, o) {
          rowsNow = rowsOf(ins[0]!, p.shape, s.isLogits);
          oneHotLogProb(rowsNow, gatherInto(vals, ins[1]!, idx), rows, o, hotNow);
        },
        backward(g, ins, o, parts) { if (parts[0]) oneHotLogProbGrad(rowsNow, rows, hotNow, ins[0]!, o, g, parts[0]); },
      };
    }
    return result(out, shape, [p, x], !isTracked(p) ? null : (g) => {
      const grad = new Float64Array(s.rows * k);
      oneHotLogProbGrad(s, rows, hot, numbers(p), out, g, grad);
      return [grad, null];
    }, undefined, op);
  }

  protected override meanImpl(): Tensor { return this.probsParameter(); }
  protected override varianceImpl(): Tensor { const q = this.probsParameter(); return mul(q, sub(1, q)); }
  /** diag(q) − q qᵀ. */
  protected override covarianceImpl(): Tensor {
    const q = this.probsParameter(), k = this.numCategories;
    return sub(mul(expandDims(q, -1), eye(k)), mul(expandDims(q, -1), expandDims(q, -2)));
  }
  protected override modeImpl(): Tensor {
    const c = numbers(this.categorical.mode()), k = this.numCategories;
    const out = allocate(this.dtype, c.length * k);
    for (let i = 0; i < c.length; i++) out[i * k + c[i]!] = 1;
    return new Tensor(out, [...this.batchShape, k], this.dtype);
  }
  protected override entropyImpl(): Tensor { return broadcastTo(this.categorical.entropy(), this.batchShape); }
}

/**
 * log q of each one-hot row of `values` ([rows.length, K]) into `out` (−∞ unless one-hot, NaN for
 * NaN entries), and its class into `hot` (−1 where the mass is not a class's).
 */
function oneHotLogProb(s: SimplexRows, values: ArrayLike<number>, rows: Float64Array, out: Flat, hot: Int32Array): void {
  const k = s.k;
  hot.fill(-1);
  for (let i = 0; i < out.length; i++) {
    let ones = 0, nan = false, bad = false;
    for (let j = 0; j < k; j++) {
      const v = values[i * k + j]!;
      if (v === 1) { ones++; hot[i] = j; } else if (Number.isNaN(v)) nan = true; else if (v !== 0) bad = true;
    }
    if (nan) { out[i] = Number.NaN; hot[i] = -1; } else if (bad || ones !== 1) { out[i] = -Infinity; hot[i] = -1; } else out[i] = s.logq[rows[i]! * k + hot[i]!]!;
  }
}

/** g · ∂ oneHotLogProb / ∂ the parameter (`pv`, logits or probs) into `grad`. */
function oneHotLogProbGrad(
  s: SimplexRows, rows: Float64Array, hot: Int32Array, pv: ArrayLike<number>, out: ArrayLike<number>, g: Float64Array, grad: Float64Array,
): void {
  const k = s.k;
  grad.fill(0);
  for (let i = 0; i < out.length; i++) {
    const h = hot[i]!;
    if (g[i] === 0 || h < 0 || !(out[i]! > -Infinity)) continue;
    const o = rows[i]! * k;
    if (s.isLogits) {
      for (let j = 0; j < k; j++) grad[o + j]! -= g[i]! * s.q[o + j]!;
      grad[o + h]! += g[i]!;
    } else {
      const t = s.total[rows[i]!]!;
      for (let j = 0; j < k; j++) grad[o + j]! -= g[i]! / t;
      grad[o + h]! += g[i]! / pv[o + h]!;
    }
  }
}

/** KL(a ‖ b) = Σⱼ qaⱼ (log qaⱼ − log qbⱼ), as for Categorical. */
registerKL(OneHotCategorical, OneHotCategorical, (a, b) => a.categorical.klDivergence(b.categorical));
brand(OneHotCategorical, 'OneHotCategorical');   // recognised across copies of stochax (src/brand.ts)
