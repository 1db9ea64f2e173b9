import { checkBigIntLike, checkOptions, checkShape, fail } from '../checks.js';
import { getModes } from '../config.js';
import { checkValues, floatParam, paramValues, resolveShape, type ParamLike, type ShapeLike } from '../random/params.js';
import { checkIntDtype, randintData } from '../random/randint.js';
import { checkFloatDtype, uniformData, uniformUnit } from '../random/uniform.js';
import { scaleUnit } from '../random/unit.js';
import { INT_DTYPES, intRange, type DType, type FloatDType, type IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

export interface SamplersUniformOptions {
  /** Lower bound, included (default 0). Float dtypes: a number, array or Tensor broadcasting to `shape`. Integer dtypes: an integer. */
  minval?: ParamLike | bigint;
  /** Upper bound, excluded. Float dtypes: default 1. Integer dtypes: required, unless `minval` is omitted too (the full range). */
  maxval?: ParamLike | bigint;
  /** A float dtype (default float64 in x64 mode, float32 in x32) or an integer dtype. */
  dtype?: DType;
  /** Any seed kind (see `sanitizeSeed`); sanitized with no salt. */
  seed?: Seed;
}

/**
 * Uniform samples of `shape` (TFP's `samplers.uniform`).
 *
 * - Float dtypes: uniform on [minval, maxval), `random.uniform`'s values exactly (JAX's
 *   `max(minval, u·(maxval − minval) + minval)` with a fused multiply-add). The bounds may be
 *   arrays or Tensors that broadcast to `shape`, as in `jax.random.uniform`.
 * - Integer dtypes: uniform integers in [minval, maxval), `random.randint`'s values exactly;
 *   `maxval` is required, unless both bounds are omitted, which draws from the dtype's whole
 *   range (`randint(min, max + 1)`, which JAX's scheme covers without bias).
 *
 * @throws TypeError for a bad seed or dtype, a bound of the wrong kind, or an integer dtype with
 *   `minval` but no `maxval`; RangeError when `minval > maxval` or a float bound is not finite.
 * @example
 * samplers.uniform([4], { minval: -1, maxval: 1, seed: 3 });            // → Tensor float64 [4]
 * samplers.uniform([2, 2], { maxval: 10, dtype: 'int32', seed: 3 });    // → Tensor int32 [2, 2]
 * samplers.uniform([8], { dtype: 'uint32', seed: 3 });                  // full uint32 range
 */
export function uniform(shape: ShapeLike, options?: SamplersUniformOptions): Tensor {
  const fn = 'samplers.uniform';
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['minval', 'maxval', 'dtype', 'seed']);
  const modes = getModes();
  const size = sizeOf(s);

  if ((INT_DTYPES as readonly unknown[]).includes(opts.dtype)) {
    const dtype: IntDType = checkIntDtype(fn, opts.dtype, modes);
    let lo: bigint, hi: bigint;
    if (opts.minval === undefined && opts.maxval === undefined) {
      [lo, hi] = intRange(dtype);
      hi += 1n;
    } else {
      if (opts.maxval === undefined) fail('type', fn, 'maxval', `is required for integer dtype '${dtype}' (omit both bounds for the full range)`, opts.maxval);
      lo = opts.minval === undefined ? 0n : checkBigIntLike(fn, 'minval', opts.minval);
      hi = checkBigIntLike(fn, 'maxval', opts.maxval);
      if (lo > hi) fail('range', fn, 'minval', `must not exceed \`maxval\` (${String(opts.maxval)})`, opts.minval);
    }
    const key = sanitize(fn, opts.seed, undefined, modes);
    return new Tensor(randintData(key, size, lo, hi, dtype, modes), s, dtype);
  }

  if (opts.dtype !== undefined && opts.dtype !== 'float32' && opts.dtype !== 'float64') {
    fail(typeof opts.dtype === 'string' ? 'range' : 'type', fn, 'dtype', 'must be a float or integer dtype', opts.dtype);
  }
  const dtype = checkFloatDtype(fn, opts.dtype, modes);
  const minval = floatParam(fn, 'minval', opts.minval ?? 0, dtype);
  const maxval = floatParam(fn, 'maxval', opts.maxval ?? 1, dtype);
  resolveShape(fn, s, [['minval', minval], ['maxval', maxval]]);
  checkValues(fn, 'minval', minval.data as Float64Array, Number.isFinite, 'must be finite');
  checkValues(fn, 'maxval', maxval.data as Float64Array, Number.isFinite, 'must be finite');
  if (minval.size === 1 && maxval.size === 1) {
    const lo = minval.data[0] as number, hi = maxval.data[0] as number;
    if (lo > hi) fail('range', fn, 'minval', `must not exceed \`maxval\` (${hi})`, lo);
    const key = sanitize(fn, opts.seed, undefined, modes);
    return new Tensor<FloatDType>(uniformData(key, size, dtype, lo, hi, modes), s, dtype);
  }
  const mn = paramValues(fn, 'minval', minval, s);
  const mx = paramValues(fn, 'maxval', maxval, s);
  for (let i = 0; i < size; i++) {
    if (mn[i]! > mx[i]!) fail('range', fn, 'minval', `must not exceed \`maxval\` (${mx[i]})`, mn[i]);
  }
  const key = sanitize(fn, opts.seed, undefined, modes);
  // Element-wise bounds: the same formula as uniformData, per element.
  const u = uniformUnit(key, size, dtype, modes);
  for (let i = 0; i < size; i++) u[i] = scaleUnit(u[i]!, mn[i]!, mx[i]!, dtype);
  return new Tensor<FloatDType>(u, s, dtype);
}
