import { checkAxis, checkBoolean, checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { broadcastData } from '../tensor/broadcast.js';
import { allocate, type FloatDType, type IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor, tensor } from '../tensor/tensor.js';
import { gumbelData, type GumbelMode } from './gumbel.js';
import { checkKey, type KeyArray } from './key-array.js';
import { broadcastShapes, rounder, type ShapeLike } from './params.js';
import { defaultIntDtype } from './permutation.js';

export interface CategoricalOptions {
  /** The axis of `logits` holding the categories (default −1). */
  axis?: number;
  /** Result shape; must end with the batch shape (`logits.shape` without `axis`). */
  shape?: ShapeLike;
  /** Sample with replacement (default true). Without: distinct categories per batch entry. */
  replace?: boolean;
  /** Gumbel mode, `'low'` (default, as JAX) or `'high'`. */
  mode?: GumbelMode;
}

/**
 * Indices of the k largest of `values[base + j·stride]`, j < K, largest first, ties to the lower
 * index (XLA's TopK order).
 */
function topK(values: Float64Array | Float32Array, base: number, stride: number, K: number, k: number): number[] {
  const order = Array.from({ length: K }, (_, j) => j);
  order.sort((x, y) => (values[base + y * stride]! - values[base + x * stride]!) || x - y);
  return order.slice(0, k);
}

/**
 * Categorical draws by the Gumbel-max trick as JAX computes them (§6.6), on logits already
 * checked and in `dtype`.
 * - with replacement: g = gumbel(key, prefix + batch-with-axis) in `dtype`, argmax(g + logits)
 *   along the category axis (the first maximum); the result has `shape` (prefix + batch).
 * - without: g = gumbel(key, logits.shape); top-k of logits + g along the axis, k = sizeOf(prefix);
 *   result[j, b] is batch entry b's j-th pick.
 */
export function categoricalData(key: KeyArray, logits: Tensor, axis: number, shape: readonly number[], replace: boolean,
  mode: GumbelMode, dtype: FloatDType, modes: Modes): Float64Array {
  const r = rounder(dtype);
  const K = logits.shape[axis]!;
  const batchNdim = logits.ndim - 1;
  const prefix = shape.slice(0, shape.length - batchNdim);
  if (replace) {
    const batch = shape.slice(prefix.length);
    const gShape = [...prefix, ...batch.slice(0, axis), K, ...batch.slice(axis)];
    const size = sizeOf(gShape);
    const g = gumbelData(key, size, dtype, mode, modes);
    // logits broadcast to one draw's worth (batch with the axis); draws repeat it (index mod lSize).
    const l = broadcastData('random.categorical', 'logits', logits, gShape.slice(prefix.length)) as Float64Array | Float32Array;
    const lSize = l.length;
    const ax = prefix.length + axis;
    const inner = sizeOf(gShape.slice(ax + 1));
    const outer = sizeOf(gShape.slice(0, ax));
    const out = new Float64Array(outer * inner);
    for (let o = 0; o < outer; o++) {
      for (let j = 0; j < inner; j++) {
        const base = o * K * inner + j;
        const lBase = base % lSize;                  // base + c·inner stays inside one draw's block
        let best = 0, bestV = r(g[base]! + l[lBase]!);
        for (let c = 1; c < K; c++) {
          const v = r(g[base + c * inner]! + l[lBase + c * inner]!);
          if (v > bestV) { best = c; bestV = v; }
        }
        out[o * inner + j] = best;
      }
    }
    return out;
  }
  const size = logits.size;
  const z = gumbelData(key, size, dtype, mode, modes);
  for (let i = 0; i < size; i++) z[i] = r(logits.data[i] as number + z[i]!);
  const k = sizeOf(prefix);
  const inner = sizeOf(logits.shape.slice(axis + 1));
  const outer = sizeOf(logits.shape.slice(0, axis));
  const nBatch = outer * inner;
  const out = new Float64Array(k * nBatch);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < inner; j++) {
      const picks = topK(z, o * K * inner + j, inner, K, k);
      const b = o * inner + j;
      for (let t = 0; t < k; t++) out[t * nBatch + b] = picks[t]!;
    }
  }
  return out;
}

/** Checks logits: a float tensor (numbers act as the default float) of rank ≥ 1. */
export function checkLogits(fn: string, logits: unknown, modes: Modes): Tensor {
  let t: Tensor;
  if (logits instanceof Tensor) {
    if (logits.dtype !== 'float32' && logits.dtype !== 'float64') {
      fail('type', fn, 'logits', 'must be a float tensor (JAX draws its Gumbel noise in the logits dtype)', `a ${logits.dtype} tensor`);
    }
    if (logits.dtype === 'float64' && !modes.x64) fail('range', fn, 'logits', "of dtype 'float64' needs x64 mode", logits);
    t = logits;
  } else {
    if (!Array.isArray(logits)) fail('type', fn, 'logits', 'must be an array of numbers or a float Tensor', logits);
    if ((logits as unknown[]).flat(Infinity).some((v) => typeof v !== 'number')) fail('type', fn, 'logits', 'must hold only numbers', logits);
    t = tensor(logits, modes.x64 ? 'float64' : 'float32');
  }
  if (t.ndim === 0) fail('range', fn, 'logits', 'must have at least one dimension (the categories)', logits);
  return t;
}

/**
 * Draws from categorical distributions given by unnormalised log-probabilities
 * (`jax.random.categorical`): P(i) = exp(logitsᵢ) / Σⱼ exp(logitsⱼ) along `axis`.
 *
 * Bit-for-bit JAX's Gumbel-max scheme: with replacement, argmax of logits plus Gumbel noise of
 * shape `shape` with the category axis inserted; without replacement, the top k of logits plus
 * one Gumbel draw per category, k = sizeOf(shape[: len(shape) − len(batch)]). The noise is drawn
 * in the logits' dtype (numbers act as the default float: float64 in x64 mode). A −∞ logit is
 * a category of probability 0: never drawn with replacement; without replacement it comes only
 * after every finite-logit category has been drawn (then in index order, as in JAX).
 *
 * The result has the default int dtype (int64 in x64 mode) with replacement; without it, int32
 * as in JAX (`lax.top_k` returns int32 indices).
 *
 * @param logits float array or Tensor of rank ≥ 1; the categories lie along `axis`.
 * @param options.axis category axis (default −1).
 * @param options.shape result shape (default: the batch shape, `logits.shape` without `axis`);
 *   it must end with a shape the batch shape broadcasts to; without replacement, with the batch
 *   shape itself.
 * @param options.replace sample with replacement (default true).
 * @param options.mode Gumbel mode: `'low'` (default) or `'high'`.
 * @throws RangeError for NaN or +∞ logits, a batch entry whose logits are all −∞ (JAX would
 *   return index 0), a shape that does not fit, or (without replacement) more draws than
 *   categories.
 * @example
 * random.categorical(random.key(0), [0, Math.log(2), Math.log(3)], { shape: [5] }); // → Tensor int64 [5]
 * random.categorical(random.key(0), [1, 2, 3, 4], { shape: [3], replace: false });  // three distinct indices
 */
export function categorical(key: KeyArray, logits: Tensor | readonly unknown[], options?: CategoricalOptions): Tensor<IntDType> {
  const fn = 'random.categorical';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['axis', 'shape', 'replace', 'mode']);
  const modes = getModes();
  const t = checkLogits(fn, logits, modes);
  const dtype = t.dtype as FloatDType;
  const axis = checkAxis(fn, 'axis', opts.axis ?? -1, t.ndim);
  const replace = opts.replace === undefined ? true : checkBoolean(fn, 'replace', opts.replace);
  const mode = opts.mode === undefined ? 'low' : checkOneOf(fn, 'mode', opts.mode, ['low', 'high'] as const);
  const K = t.shape[axis]!;
  if (K === 0) fail('range', fn, 'logits', `must have at least one category along axis ${axis}`, logits);
  const batch = t.shape.filter((_, i) => i !== axis);

  let shape: number[];
  if (opts.shape === undefined) shape = batch;
  else {
    shape = checkShape(fn, 'shape', opts.shape as number[]);
    const joint = broadcastShapes(fn, [['shape', shape], ['logits batch shape', batch]]);
    if (joint.length !== shape.length || joint.some((d, i) => d !== shape[i])) {
      fail('range', fn, 'shape', `must end with a shape that the batch shape [${batch.join(', ')}] broadcasts to`, [...shape]);
    }
  }
  const prefix = shape.slice(0, shape.length - batch.length);
  const nDraws = sizeOf(prefix);

  // Values: no NaN or +∞, and every batch entry has a finite logit.
  const inner = sizeOf(t.shape.slice(axis + 1));
  const outer = sizeOf(t.shape.slice(0, axis));
  const data = t.data as Float64Array | Float32Array;
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < inner; j++) {
      let finite = 0;
      for (let c = 0; c < K; c++) {
        const v = data[(o * K + c) * inner + j]!;
        if (v !== v || v === Infinity) fail('range', fn, 'logits', 'must not be NaN or +Infinity', v);
        if (v !== -Infinity) finite++;
      }
      if (finite === 0 && sizeOf(shape) > 0) fail('range', fn, 'logits', 'must have a finite entry in every batch entry (all are -Infinity)', logits);
    }
  }
  if (!replace && nDraws > K) {
    fail('range', fn, 'shape', `asks for ${nDraws} draws without replacement from ${K} categories`, [...shape]);
  }
  if (!replace && (batch.length !== shape.length - prefix.length || batch.some((d, i) => d !== shape[prefix.length + i]))) {
    fail('range', fn, 'shape', `must end with the batch shape [${batch.join(', ')}] itself when replace is false`, [...shape]);
  }

  const outDtype: IntDType = replace ? defaultIntDtype(modes) : 'int32';
  const idx = sizeOf(shape) === 0 ? new Float64Array(0) : categoricalData(key, t, axis, shape, replace, mode, dtype, modes);
  const out = allocate(outDtype, idx.length);
  if (outDtype === 'int64') for (let i = 0; i < idx.length; i++) (out as BigInt64Array)[i] = BigInt(idx[i]!);
  else (out as Int32Array).set(idx);
  return new Tensor<IntDType>(out, shape, outDtype);
}
