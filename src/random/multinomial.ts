import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { binomialData } from './binomial.js';
import { associativeCumsum } from './cumsum.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, paramValues, rounder, type ParamLike, type ShapeLike } from './params.js';
import { splitKeys } from './key-array.js';

/**
 * JAX's `promote_dtypes_inexact(n, p)`: float Tensors are strongly typed, arrays take the
 * default float dtype (also strongly), plain numbers are weak; the widest strong float wins,
 * and without one the default float dtype is used. Integer Tensors never widen a float.
 */
function promoteInexact(fn: string, named: [string, unknown][], modes: Modes): FloatDType {
  const dflt: FloatDType = modes.x64 ? 'float64' : 'float32';
  let best: FloatDType | undefined;
  for (const [arg, v] of named) {
    let d: FloatDType | undefined;
    if (v instanceof Tensor) {
      if (v.dtype === 'float64' && !modes.x64) fail('range', fn, arg, "of dtype 'float64' needs x64 mode", v);
      if (v.dtype === 'float32' || v.dtype === 'float64') d = v.dtype;
    } else if (Array.isArray(v)) d = dflt;
    if (d === 'float64' || (d === 'float32' && best === undefined)) best = d;
  }
  return best ?? dflt;
}

/**
 * Multinomial counts as JAX ≥ 0.5.1 draws them: with `keys = split(key, K)`, category i gets
 * `binomial(keys[i], remaining, p_i / Σ_{j≥i} p_j)` (the ratio clipped to [0, 1], a zero tail
 * sum replaced by 1), and the remaining count drops by it; category order 0, 1, …, K−1. `n`
 * holds one count per batch entry, `p` the batch × K probabilities row-major, both in `dtype`;
 * the tail sums are JAX's reverse cumulative sum (its associative-scan order).
 */
export function multinomialData(key: KeyArray, n: Float64Array | Float32Array, p: Float64Array | Float32Array, K: number,
  dtype: FloatDType, outDtype: FloatDType, modes: Modes): Float64Array | Float32Array {
  const r = rounder(dtype);
  const nBatch = n.length;
  const make = (d: FloatDType, size: number) => (d === 'float32' ? new Float32Array(size) : new Float64Array(size));
  const ratios = Array.from({ length: K }, () => make(dtype, nBatch));
  for (let b = 0; b < nBatch; b++) {
    const row = Array.from(p.subarray(b * K, (b + 1) * K));
    const tail = associativeCumsum([...row].reverse(), r).reverse();
    for (let i = 0; i < K; i++) {
      const ratio = r(row[i]! / (tail[i] === 0 ? 1 : tail[i]!));
      ratios[i]![b] = Math.min(Math.max(ratio, 0), 1);
    }
  }
  const out = make(outDtype, nBatch * K);
  if (nBatch === 0 || K === 0) return out;
  const keys = splitKeys(key, K, modes);
  const remaining = make(dtype, nBatch);
  remaining.set(n);
  for (let i = 0; i < K; i++) {
    const counts = binomialData(keys[i]!, remaining, ratios[i]!, dtype, dtype, modes);
    for (let b = 0; b < nBatch; b++) {
      out[b * K + i] = counts[b]!;
      remaining[b] = r(remaining[b]! - counts[b]!);
    }
  }
  return out;
}

export interface MultinomialOptions {
  /** Result shape, categories last (default `p`'s shape); keyword-only in JAX, hence an option. */
  shape?: ShapeLike;
  /** Float dtype of the result; default float64 in x64 mode, float32 in x32. */
  dtype?: FloatDType;
}

/**
 * Multinomial counts (`jax.random.multinomial`, JAX ≥ 0.5.1): n trials over K categories with
 * probabilities p, P(x) = n! / (x₁! ⋯ x_K!) · p₁^x₁ ⋯ p_K^x_K, as floats of the last axis.
 *
 * Follows JAX's scheme exactly: one key per category from `split(key, K)` and a sequence of
 * conditional binomials (each category takes a binomial share of what remains, with its
 * probability renormalised over the categories not yet drawn). `p` need not sum to 1: it is
 * normalised by its row sums. n and p are computed in their promoted float dtype (numbers act
 * as Python floats: float64 in x64 mode); a non-integer n is floored, as JAX's binomial does.
 *
 * @param n number of trials (≥ 0, finite): a number, array or Tensor broadcasting to the batch
 *   shape `shape[:-1]`.
 * @param p category probabilities (≥ 0, finite, a positive entry per row) along the last axis.
 * @param options.shape result shape, categories last (default `p`'s shape); `p` broadcasts to
 *   it and `n` to its batch part. JAX takes `shape` and `dtype` as keywords, so they are options.
 * @param options.dtype float dtype of the result; default float64 in x64 mode, float32 in x32.
 * @throws RangeError for negative, NaN or infinite n or p, a row of p without a positive
 *   entry, a scalar p, or parameters that do not broadcast; TypeError for non-numeric input.
 * @example
 * random.multinomial(random.key(0), 10, [0.2, 0.3, 0.5]);              // → Tensor float64 [3]
 * random.multinomial(random.key(0), [5, 50], [0.5, 0.5], { shape: [2, 2] }); // → Tensor float64 [2, 2]
 */
export function multinomial(key: KeyArray, n: ParamLike, p: ParamLike, options?: MultinomialOptions): Tensor<FloatDType> {
  const fn = 'random.multinomial';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['shape', 'dtype']);
  const shape = opts.shape;
  const modes = getModes();
  const outDtype = floatDtype(fn, opts.dtype, modes);
  const dtype = promoteInexact(fn, [['n', n], ['p', p]], modes);
  const nT = floatParam(fn, 'n', n, dtype);
  const pT = floatParam(fn, 'p', p, dtype);
  const s = shape === undefined ? [...pT.shape] : checkShape(fn, 'shape', shape as number[]);
  if (s.length === 0) fail('range', fn, 'p', 'must have a category axis (rank ≥ 1), or `shape` must', pT.shape.length === 0 ? p : shape);
  const batch = s.slice(0, -1);
  const K = s[s.length - 1]!;
  const counts = paramValues(fn, 'n', nT, batch);
  const probs = paramValues(fn, 'p', pT, s);
  for (const v of counts) if (!(v >= 0 && v < Infinity)) fail('range', fn, 'n', 'must be a finite non-negative number of trials', v);
  for (const v of probs) if (!(v >= 0 && v < Infinity)) fail('range', fn, 'p', 'must hold finite non-negative probabilities', v);
  for (let b = 0; b < counts.length && K > 0; b++) {
    if (!probs.subarray(b * K, (b + 1) * K).some((v) => v > 0)) fail('range', fn, 'p', 'must have a positive entry in every row', p);
  }
  return new Tensor<FloatDType>(multinomialData(key, counts, probs, K, dtype, outDtype, modes), s, outDtype);
}
