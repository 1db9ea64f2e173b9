import { brand } from '../src/brand.js';
import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { categorical as samplersCategorical } from '../src/samplers/categorical.js';
import { broadcastData, broadcastIndex, broadcastShapes } from '../src/tensor/broadcast.js';
import { floatKind, floatStorage, isTracked, numbers, result, tracing, type TensorLike } from '../src/tensor/core.js';
import { allocate, type IntDType } from '../src/tensor/dtype.js';
import { kernelFactory, type Flat, type Lowering } from '../src/tensor/lowering.js';
import { exp, log, sub } from '../src/tensor/ops/elementwise.js';
import { logsumexp } from '../src/tensor/ops/reduce.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { elementwise, real, simplex, type Constraint } from './internal/constraints.js';
import { checkExactlyOne } from './internal/either-parameter.js';
import { addRowGrad, rowIndex, simplexRows, type SimplexRows } from './internal/simplex-rows.js';
import { registerKL } from './kl.js';

/** The dtypes a Categorical's samples (and mode) may have. */
export type CategoricalDType = 'int32' | 'int64' | 'float32' | 'float64';
const DTYPES: readonly string[] = ['int32', 'int64', 'float32', 'float64'];

export interface CategoricalOptions extends DistributionOptions {
  /** Unnormalized log-probabilities, shape `[...batch, K]`. Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probabilities, shape `[...batch, K]`, non-negative, rows summing to 1 (checked under `validateArgs`). */
  readonly probs?: TensorLike;
  /** The dtype of samples and of `mode()` (default `'int32'`, as TFP). */
  readonly dtype?: CategoricalDType;
}

/**
 * The categorical distribution over {0, …, K − 1} (TFP's `tfd.Categorical`): P(k) = qₖ with
 * q = softmax(logits) or q = probs / Σ probs, K the size of the parameter's last axis.
 * Batch shape is `logits.shape[:-1]`; the event is a scalar.
 *
 * Sampling uses the seed as given (no salt), as TFP: `samplers.categorical(logits, n)` (logits =
 * log probs when given `probs`), transposed to `[n, ...batch]`. `logProb`, `cdf`,
 * `survivalFunction`, `mean`, `variance` and `entropy` are each one tape node, differentiable in
 * `logits` or `probs`. Values that are not integers in [0, K − 1] have log mass −∞ (a
 * RangeError under `validateArgs`). `mean` and `variance` (of the class index) are extensions;
 * TFP defines neither. No event-space bijector (discrete).
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given, or for a bad `dtype`;
 *   RangeError for a scalar parameter or K = 0, or with `validateArgs` for NaN logits or probs
 *   that are negative or do not sum to 1.
 * @example
 * const d = new Categorical({ probs: [0.1, 0.5, 0.4] });
 * d.logProb([0, 1, 2]);       // → Tensor float64 [3]: log 0.1, log 0.5, log 0.4
 * d.sample(4, { seed: 0 });   // → Tensor int32 [4]
 * d.mode().item();            // 1
 */
export class Categorical extends Distribution<CategoricalDType> {
  static override readonly optionNames = ['dtype'];
  static override readonly parameterProperties = {
    logits: { eventNdims: 1, constraint: real },
    probs: { eventNdims: 1, constraint: simplex() },
  };
  /** The `logits` parameter as given (undefined when built from `probs`). */
  readonly logits: Tensor | undefined;
  /** The `probs` parameter as given (undefined when built from `logits`). */
  readonly probs: Tensor | undefined;
  private rowsCache: SimplexRows | undefined;

  constructor(options: CategoricalOptions) {
    super('Categorical', options, false, options?.dtype ?? 'int32');
    checkExactlyOne('Categorical', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
    if (this.parameter.shape[this.parameter.ndim - 1] === 0) fail('range', 'Categorical', this.logits ? 'logits' : 'probs', 'must have at least one class (its last axis is empty)', this.parameter);
    if (!DTYPES.includes(this.dtype)) fail('type', 'Categorical', 'dtype', `must be one of ${DTYPES.join(', ')}`, this.dtype);
  }

  /** K, the number of classes. */
  get numCategories(): number { return this.parameter.shape[this.parameter.ndim - 1]!; }

  /**
   * Normalized log-probabilities log q (differentiable): logits − logsumexp(logits), or
   * log probs − log Σ probs. (TFP's `logits_parameter` returns the logits unnormalized; these
   * are the same distribution's logits, normalized, which mixtures use as log weights.)
   */
  logitsParameter(): Tensor {
    const l = this.logits ?? log(this.probs!);
    return sub(l, logsumexp(l, -1, true));
  }

  /** Probabilities (differentiable): `probs` as given, or softmax(`logits`) (TFP's `probs_parameter`). */
  probsParameter(): Tensor {
    if (this.probs) return this.probs;
    return exp(sub(this.logits!, logsumexp(this.logits!, -1, true)));
  }

  /** The tensor parameter actually given. */
  private get parameter(): Tensor { return (this.logits ?? this.probs)!; }
  private get rows(): SimplexRows { return (this.rowsCache ??= simplexRows(this.parameter, this.logits !== undefined)); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const logits = this.logits ?? log(this.probs!);
    const intDtype: IntDType = this.dtype === 'int64' ? 'int64' : 'int32';
    const draws = samplersCategorical(logits, n, { seed, dtype: intDtype });
    const b = draws.size / Math.max(n, 1), src = draws.data;
    const out = allocate(this.dtype, n * b);
    for (let j = 0; j < n; j++) for (let i = 0; i < b; i++) out[j * b + i] = src[i * n + j]! as never;
    return new Tensor(out as never, [n, ...this.batchShape], this.dtype);
  }

  /** 0, 1, …, K − 1 (in this distribution's dtype). */
  protected override enumerateSupportImpl(): Tensor {
    const k = this.numCategories, out = allocate(this.dtype, k);
    for (let i = 0; i < k; i++) out[i] = i;
    return new Tensor(out, [k], this.dtype);
  }

  protected override get support(): Constraint {
    const k = this.numCategories;
    return elementwise(`must be an integer in [0, ${k - 1}]`, (v) => Number.isInteger(v) && v >= 0 && v < k);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const fn = 'Categorical.logProb', p = this.parameter;
    const { shape, values, rows } = rowIndex(fn, x, this.batchShape);
    return rowsResult(fn, p, this.rows, x, shape, shape, values, rows, (s, vals, out) => logProbRows(s, vals, rows, out),
      (s, vals, pv, out, g, grad) => logProbRowsGrad(s, vals, rows, pv, out, g, grad),
      (idx) => logProbLowering(p.shape, this.rows.isLogits, idx, rows));
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, true); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, false); }

  /** Σ_{j ≤ ⌊x⌋} qⱼ (lower) or Σ_{j > ⌊x⌋} qⱼ (upper), each summed directly. */
  private tail(method: string, x: Tensor, lower: boolean): Tensor {
    const fn = `Categorical.${method}`, p = this.parameter, k = this.rows.k;
    const { shape, values, rows } = rowIndex(fn, x, this.batchShape);
    const cut = (v: number) => Math.min(Math.floor(v), k - 1);
    const h = new Float64Array(k);
    return rowsResult(fn, p, this.rows, x, shape, shape, values, rows,
      (s, vals, out) => {
        for (let i = 0; i < out.length; i++) {
          const v = vals[i]!, o = rows[i]! * k;
          if (Number.isNaN(v)) { out[i] = Number.NaN; continue; }
          const c = cut(v);
          let acc = 0;
          if (lower) for (let j = 0; j <= c; j++) acc += s.q[o + j]!;
          else for (let j = Math.max(c + 1, 0); j < k; j++) acc += s.q[o + j]!;
          out[i] = acc;
        }
      },
      (s, vals, _pv, out, g, grad) => {
        grad.fill(0);
        for (let i = 0; i < out.length; i++) {
          if (g[i] === 0 || Number.isNaN(vals[i]!)) continue;
          const c = cut(vals[i]!);
          for (let j = 0; j < k; j++) h[j] = (j <= c) === lower ? 1 : 0;
          addRowGrad(s, rows[i]!, h, g[i]!, grad);
        }
      });
  }

  /** A batch-shaped statistic Σⱼ f(j, row) as one node, given h = ∂/∂q per row. */
  private rowStat(method: string, value: (s: SimplexRows, r: number) => number, dq: (s: SimplexRows, r: number, y: number, h: Float64Array) => void): Tensor {
    const h = new Float64Array(this.rows.k);
    return rowsResult(`Categorical.${method}`, this.parameter, this.rows, null, null, this.batchShape, null, null,
      (s, _vals, out) => { for (let r = 0; r < s.rows; r++) out[r] = value(s, r); },
      (s, _vals, _pv, out, g, grad) => {
        grad.fill(0);
        for (let r = 0; r < s.rows; r++) {
          if (g[r] === 0) continue;
          dq(s, r, out[r]!, h);
          addRowGrad(s, r, h, g[r]!, grad);
        }
      });
  }

  protected override meanImpl(): Tensor {
    return this.rowStat('mean', (s, r) => { let m = 0; for (let j = 1; j < s.k; j++) m += j * s.q[r * s.k + j]!; return m; },
      (s, _r, _y, h) => { for (let j = 0; j < s.k; j++) h[j] = j; });
  }

  protected override varianceImpl(): Tensor {
    const mean = (s: SimplexRows, r: number) => { let m = 0; for (let j = 1; j < s.k; j++) m += j * s.q[r * s.k + j]!; return m; };
    return this.rowStat('variance', (s, r) => {
      const m = mean(s, r);
      let v = 0;
      for (let j = 0; j < s.k; j++) v += (j - m) ** 2 * s.q[r * s.k + j]!;
      return v;
    }, (s, r, _y, h) => { const m = mean(s, r); for (let j = 0; j < s.k; j++) h[j] = (j - m) ** 2; });
  }

  protected override entropyImpl(): Tensor {
    return this.rowStat('entropy', (s, r) => {
      let e = 0;
      for (let j = r * s.k; j < (r + 1) * s.k; j++) if (s.q[j]! > 0) e -= s.q[j]! * s.logq[j]!;
      return e;
    }, (s, r, _y, h) => { for (let j = 0; j < s.k; j++) h[j] = -(s.logq[r * s.k + j]! + 1); });
  }

  protected override modeImpl(): Tensor {
    const s = this.rows, out = allocate(this.dtype, s.rows);
    for (let r = 0; r < s.rows; r++) {
      let best = 0;
      for (let j = 1; j < s.k; j++) if (s.q[r * s.k + j]! > s.q[r * s.k + best]!) best = j;
      out[r] = (this.dtype === 'int64' ? BigInt(best) : best) as never;
    }
    return new Tensor(out as never, this.batchShape, this.dtype);
  }

  /** @internal KL(this ‖ b) = Σⱼ qⱼ(log qⱼ − log q′ⱼ) over broadcast batches, one node in both parameters. */
  klTo(b: Categorical): Tensor {
    const fn = 'Categorical.klDivergence';
    if (this.numCategories !== b.numCategories) {
      fail('range', fn, 'other', `must have as many classes as this distribution (${this.numCategories}); it has ${b.numCategories}`, b.numCategories);
    }
    const sa = this.rows, sb = b.rows, k = sa.k, pa = this.parameter, pb = b.parameter;
    const shape = broadcastShapes(fn, [['batchShape', this.batchShape], ['other.batchShape', b.batchShape]]);
    const ra = iotaTo(fn, this.batchShape, shape), rb = iotaTo(fn, b.batchShape, shape);
    const ha = new Float64Array(k), hb = new Float64Array(k);
    const forward = (sa: SimplexRows, sb: SimplexRows, out: Flat) => {
      for (let i = 0; i < out.length; i++) {
        const oa = ra[i]! * k, ob = rb[i]! * k;
        let kl = 0;
        for (let j = 0; j < k; j++) if (sa.q[oa + j]! > 0) kl += sa.q[oa + j]! * (sa.logq[oa + j]! - sb.logq[ob + j]!);
        out[i] = kl;
      }
    };
    // ∂/∂ of either parameter (ga or gb null when not wanted).
    const backward = (sa: SimplexRows, sb: SimplexRows, n: number, g: Float64Array, ga: Float64Array | null, gb: Float64Array | null) => {
      ga?.fill(0); gb?.fill(0);
      for (let i = 0; i < n; i++) {
        if (g[i] === 0) continue;
        const oa = ra[i]! * k, ob = rb[i]! * k;
        for (let j = 0; j < k; j++) {
          ha[j] = sa.logq[oa + j]! - sb.logq[ob + j]! + 1;
          hb[j] = sa.q[oa + j]! > 0 ? -sa.q[oa + j]! / sb.q[ob + j]! : 0;
        }
        if (ga) addRowGrad(sa, ra[i]!, ha, g[i]!, ga);
        if (gb) addRowGrad(sb, rb[i]!, hb, g[i]!, gb);
      }
    };
    const out = floatStorage(floatKind(pa, pb), ra.length);
    forward(sa, sb, out);
    let rowsA = sa, rowsB = sb;   // the lowering's: normalized by its forward, read by its backward
    const op: Lowering | string = !tracing() ? fn : {
      name: fn,
      forward(ins, o) {
        rowsA = rowsOf(ins[0]!, pa.shape, sa.isLogits);
        rowsB = rowsOf(ins[1]!, pb.shape, sb.isLogits);
        forward(rowsA, rowsB, o);
      },
      backward(g, _ins, o, parts) { backward(rowsA, rowsB, o.length, g, parts[0] ?? null, parts[1] ?? null); },
    };
    return result(out, shape, [pa, pb], (g) => {
      const ga = new Float64Array(sa.rows * k), gb = new Float64Array(sb.rows * k);
      backward(sa, sb, out.length, g, ga, gb);
      return [ga, gb];
    }, undefined, op);
  }
}
brand(Categorical, 'Categorical');   // recognised across copies of stochax (src/brand.ts)

/** log q of the value at each output element (−∞ off the support, NaN for NaN): Categorical's log mass. */
function logProbRows(s: SimplexRows, values: ArrayLike<number>, rows: Float64Array, out: Flat): void {
  const k = s.k;
  for (let i = 0; i < out.length; i++) {
    const v = values[i]!;
    out[i] = Number.isNaN(v) ? Number.NaN : Number.isInteger(v) && v >= 0 && v < k ? s.logq[rows[i]! * k + v]! : -Infinity;
  }
}

/** g · ∂ logProbRows / ∂ the parameter (`pv`, logits or probs) into `grad`. */
function logProbRowsGrad(
  s: SimplexRows, values: ArrayLike<number>, rows: Float64Array, pv: ArrayLike<number>, out: ArrayLike<number>, g: Float64Array, grad: Float64Array,
): void {
  const k = s.k;
  grad.fill(0);
  for (let i = 0; i < out.length; i++) {
    const o = rows[i]! * k, v = values[i]!;
    if (g[i] === 0 || !(out[i]! > -Infinity)) continue;
    if (s.isLogits) {
      for (let j = 0; j < k; j++) grad[o + j]! -= g[i]! * s.q[o + j]!;
      grad[o + v]! += g[i]!;
    } else {
      const t = s.total[rows[i]!]!;
      for (let j = 0; j < k; j++) grad[o + j]! -= g[i]! / t;
      grad[o + v]! += g[i]! / pv[o + v]!;
    }
  }
}

/**
 * @internal The normalized rows of a `[..., K]` logits/probs parameter of `shape` whose values are
 * `data` (an operand of a lowering, so the rows follow the values a compiled program passes).
 */
export function rowsOf(data: ArrayLike<number>, shape: readonly number[], isLogits: boolean): SimplexRows {
  return simplexRows(new Tensor(data as Float64Array, shape, 'float64', undefined, true), isLogits);
}

/** @internal `src` gathered through the index map `idx` into `dst` (a broadcast copy, as `broadcastData`'s). */
export function gatherInto(dst: Float64Array, src: ArrayLike<number>, idx: Int32Array): Float64Array {
  for (let k = 0; k < idx.length; k++) dst[k] = src[idx[k]!]!;
  return dst;
}

type RowsForward = (s: SimplexRows, values: ArrayLike<number>, out: Flat) => void;
type RowsBackward = (s: SimplexRows, values: ArrayLike<number>, pv: ArrayLike<number>, out: ArrayLike<number>, g: Float64Array, grad: Float64Array) => void;

/**
 * The lowering of a row-wise method: it normalizes the rows of its first operand (a parameter of
 * `pShape`) and gathers the values from its second through `idx` (null: no value operand; the
 * value gets no gradient), then runs `forward` and `backward`.
 */
function rowsLowering(fn: string, pShape: readonly number[], isLogits: boolean, idx: Int32Array | null, forward: RowsForward, backward: RowsBackward): Lowering {
  const none = new Float64Array(0);
  const vals = idx === null ? none : new Float64Array(idx.length);
  let rowsNow: SimplexRows | undefined;
  return {
    name: fn,
    gradOperands: idx === null ? [true] : [true, false],
    forward(ins, o) {
      rowsNow = rowsOf(ins[0]!, pShape, isLogits);
      forward(rowsNow, idx === null ? none : gatherInto(vals, ins[1]!, idx), o);
    },
    backward(g, ins, o, parts) {
      if (parts[0]) backward(rowsNow!, vals, ins[0]!, o, g, parts[0]);
    },
  };
}

// logProb's lowering by a named factory: the enumerated models' labels (gather by a Categorical value) compile to it, and their workers make it again.
const logProbLowering = kernelFactory('Categorical.logProb', (pShape: readonly number[], isLogits: boolean, idx: Int32Array | null, rows: Float64Array): Lowering =>
  rowsLowering('Categorical.logProb', pShape, isLogits, idx, (s, vals, out) => logProbRows(s, vals, rows, out), (s, vals, pv, out, g, grad) => logProbRowsGrad(s, vals, rows, pv, out, g, grad)));

/**
 * A row-wise method of a logits/probs parameter `p` (normalized as `s`) and, unless null, a value
 * `x` broadcast to `full` (the output's `shape`, then the event) as `values`, as one node: `forward` writes
 * the output from the rows and the values, `backward` the gradient of the parameter (`pv`: its
 * values) into `grad`, which it zeroes first. While tracing, the node's lowering normalizes the
 * rows and gathers the values from its operands (the value gets no gradient), then runs the
 * same two functions; eagerly they run on the cached rows.
 */
function rowsResult(
  fn: string, p: Tensor, s: SimplexRows, x: Tensor | null, full: readonly number[] | null, shape: readonly number[], values: ArrayLike<number> | null, rows: Float64Array | null,
  forward: RowsForward, backward: RowsBackward,
  /** The traced lowering from a named factory (portable to a compiled model's workers), else built here. */
  portable?: (idx: Int32Array | null) => Lowering,
): Tensor {
  const none = new Float64Array(0);
  const out = floatStorage(floatKind(p), rows === null ? s.rows : rows.length);
  forward(s, values ?? none, out);
  const inputs = x === null ? [p] : [p, x];
  let op: Lowering | string = fn;
  if (tracing()) {
    const idx = x === null ? null : broadcastIndex(x.shape, full!);
    op = portable?.(idx) ?? rowsLowering(fn, p.shape, s.isLogits, idx, forward, backward);
  }
  return result(out, shape, inputs, !isTracked(p) ? null : (g) => {
    const grad = new Float64Array(s.rows * s.k);
    backward(s, values ?? none, numbers(p), out, g, grad);
    return x === null ? [grad] : [grad, null];
  }, undefined, op);
}

/** Row numbers of a batch shape broadcast to `shape`. */
function iotaTo(fn: string, batch: readonly number[], shape: readonly number[]): Float64Array {
  const n = sizeOf(batch), iota = new Float64Array(n);
  for (let i = 0; i < n; i++) iota[i] = i;
  return broadcastData(fn, 'batchShape', new Tensor(iota, batch, 'float64'), shape) as Float64Array;
}

/** KL(Cat(qa) ‖ Cat(qb)) = Σⱼ qaⱼ (log qaⱼ − log qbⱼ) (TFP's form, with 0·log 0 = 0). */
registerKL(Categorical, Categorical, (a, b) => a.klTo(b));
