import { checkOptions, checkShape } from '../checks.js';
import { getModes } from '../config.js';
import { normalData } from '../random/normal.js';
import { broadcastShapes, floatDtype, floatParam, paramValues, rounder, type ParamLike, type ShapeLike } from '../random/params.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

export interface NormalOptions {
  /** Mean (default 0); broadcasts with `shape`. */
  mean?: ParamLike;
  /** Standard deviation (default 1); broadcasts with `shape`. */
  stddev?: ParamLike;
  /** `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode). */
  dtype?: FloatDType;
  /** Any seed kind (see `sanitizeSeed`); sanitized with no salt. */
  seed?: Seed;
}

/**
 * Normal samples (TFP's `samplers.normal`): density exp(−(x − mean)²/(2·stddev²)) /
 * (stddev·√(2π)) on ℝ. As TFP on JAX: `random.normal(key, shape) · stddev + mean`, so the draws
 * have exactly `shape`, and the result has `shape` broadcast with the shapes of `mean` and
 * `stddev` (a larger `mean` reuses the same draws along the new axes). The multiply and the add
 * are rounded separately, as two eager JAX ops are. Parameters are converted to `dtype` first.
 *
 * Unlike TFP, whose default dtype is float32, the default follows stochax's x64 mode.
 *
 * @param shape the shape of the standard-normal draws (a count or an array).
 * @throws TypeError for a bad seed, dtype or parameter; RangeError for shapes that do not broadcast.
 * @example
 * samplers.normal([2, 3], { mean: 1, stddev: 2, seed: [1, 2] });      // → Tensor float64 [2, 3]
 * samplers.normal([3], { mean: [[0], [10]], seed: 7 });                // → Tensor float64 [2, 3]
 */
export function normal(shape: ShapeLike, options?: NormalOptions): Tensor<FloatDType> {
  const fn = 'samplers.normal';
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['mean', 'stddev', 'dtype', 'seed']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const mean = floatParam(fn, 'mean', opts.mean ?? 0, dtype);
  const stddev = floatParam(fn, 'stddev', opts.stddev ?? 1, dtype);
  const out = broadcastShapes(fn, [['shape', s], ['mean', mean.shape], ['stddev', stddev.shape]]);
  const key = sanitize(fn, opts.seed, undefined, modes);
  const z = new Tensor<FloatDType>(normalData(key, sizeOf(s), dtype, modes), s, dtype);
  const r = rounder(dtype);
  if (mean.size === 1 && stddev.size === 1 && out.length === s.length) {
    // Scalar parameters: scale and shift in place (the same two roundings per element).
    const zs = z.data as Float64Array | Float32Array, m = mean.data[0] as number, sd = stddev.data[0] as number;
    // Standard normal: r(r(z·1) + 0) is z itself, since JAX's transform never gives ±0 (its
    // argument 2f + lo is an odd multiple of 2^−53 in float64, 2^−24 in float32).
    if (m === 0 && sd === 1) return z;
    for (let i = 0; i < zs.length; i++) zs[i] = r(r(zs[i]! * sd) + m);
    return z;
  }
  const zs = paramValues(fn, 'shape', z, out);
  const m = paramValues(fn, 'mean', mean, out);
  const sd = paramValues(fn, 'stddev', stddev, out);
  for (let i = 0; i < zs.length; i++) zs[i] = r(r(zs[i]! * sd[i]!) + m[i]!);
  return new Tensor<FloatDType>(zs, out, dtype);
}
