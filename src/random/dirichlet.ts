import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { loggammaData, paramOrScalar } from './gamma.js';
import { rounder, type FloatArray } from './gamma-steps.js';
import { checkKey, type KeyArray } from './key-array.js';
import { broadcastShapes, floatDtype, floatParam, type ParamLike, type ShapeLike } from './params.js';
import { detExp } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

/**
 * `rows` Dirichlet samples of dimension k as JAX draws them (§6.13): log-gammas of the whole
 * `[rows, k]` array (per-element keys from `split(key, rows·k)`), then a softmax over each row,
 * exp(x − max) / Σ exp(x − max). `alpha` holds rows·k concentrations (row-major), or a single
 * value for all, already values of `dtype`.
 */
export function dirichletData(
  key: KeyArray, alpha: ArrayLike<number>, rows: number, k: number, dtype: FloatDType, modes: Modes,
): FloatArray {
  const out = loggammaData(key, alpha, rows * k, dtype, modes);
  const r = rounder(dtype);
  for (let i = 0; i < rows; i++) {
    const o = i * k;
    let max = -Infinity;
    for (let j = 0; j < k; j++) max = Math.max(max, out[o + j]!);   // NaN-propagating, as jnp.max
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const e = r(detExp(r(out[o + j]! - max)));
      out[o + j] = e;
      sum = r(sum + e);
    }
    for (let j = 0; j < k; j++) out[o + j] = r(out[o + j]! / sum);
  }
  return out;
}

/**
 * Dirichlet samples (`jax.random.dirichlet`): density ∝ ∏ x_i^(α_i − 1) on the simplex
 * {x : x_i ≥ 0, Σ x_i = 1}. The last axis of `alpha` is the event axis (its length k is the
 * dimension); the result has shape `[...shape, k]`.
 *
 * Normalised log-space gamma draws (`loggamma` over the `[...shape, k]` array, then a softmax
 * along the last axis), so small concentrations work. Agrees with JAX to a few float32 ulp.
 * Non-positive or NaN concentrations give NaN in their row (see `gamma`).
 *
 * @param key a single PRNG key.
 * @param alpha concentrations, at least one axis; a nested array or Tensor.
 * @param shape the batch shape (default: `alpha`'s shape without its last axis), to which
 *   `alpha`'s batch shape must broadcast.
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-numeric `alpha` or a bad key; RangeError for a scalar `alpha`,
 *   a batch shape that does not broadcast to `shape`, or float64 in x32 mode.
 * @example
 * random.dirichlet(random.key(0), [1, 2, 3]);            // → Tensor float64 [3], sums to 1
 * random.dirichlet(random.key(0), [0.5, 0.5], [4]);      // → Tensor float64 [4, 2]
 */
export function dirichlet(key: KeyArray, alpha: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.dirichlet';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const at = floatParam(fn, 'alpha', alpha, dtype);
  if (at.ndim < 1) fail('range', fn, 'alpha', 'must have at least one axis (its last axis is the event axis)', alpha);
  const k = at.shape[at.ndim - 1]!;
  const batchOfAlpha = at.shape.slice(0, -1);
  let batch: number[];
  if (shape === undefined) batch = batchOfAlpha;
  else {
    batch = checkShape(fn, 'shape', shape as number[]);
    const joint = broadcastShapes(fn, [['shape', batch], ['alpha', batchOfAlpha]]);
    if (joint.length !== batch.length || joint.some((d, i) => d !== batch[i])) {
      fail('range', fn, 'alpha', `of shape [${at.shape.join(', ')}] must broadcast to \`shape\` + [k] = [${[...batch, k].join(', ')}]`, alpha);
    }
  }
  const full = checkShape(fn, 'shape', [...batch, k]); // the result, not just the batch, must fit
  const data = dirichletData(key, paramOrScalar(fn, 'alpha', at, full), sizeOf(batch), k, dtype, modes);
  return new Tensor<FloatDType>(data, full, dtype);
}
