import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes } from '../config.js';
import { floatParam, checkValues, type ParamLike, type ShapeLike } from '../random/params.js';
import { defaultIntDtype } from '../random/permutation.js';
import { poisson as randomPoisson } from '../random/poisson.js';
import { checkIntDtype } from '../random/randint.js';
import { INT_DTYPES, type DType, type FloatDType, type IntDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

export interface SamplersPoissonOptions {
  /** Rate(s) λ ≥ 0, required: a number, array or Tensor. */
  lam: ParamLike;
  /** An integer dtype (default int64 in x64 mode, int32 in x32) or a float dtype. */
  dtype?: DType;
  /** Any seed kind (see `sanitizeSeed`); sanitized with no salt. */
  seed?: Seed;
}

/**
 * Poisson samples (TFP's `samplers.poisson`): P(k) = λᵏ e^(−λ) / k! on k = 0, 1, 2, …, with
 * result shape `shape + lam.shape`. Calls `random.poisson(key, lam, shape + lam.shape)`, i.e.
 * JAX's own sampler (Knuth's method below λ = 10, transformed rejection above, λ in float32),
 * where TFP on JAX runs Knuth's method for every λ; the distribution is the same, the values
 * are not. As `random.poisson`, a negative or NaN λ gives −1 for that element. A float `dtype`
 * draws integers in the default integer dtype and converts them.
 *
 * Unlike TFP, whose default dtype is int32, the default follows stochax's x64 mode.
 *
 * @throws TypeError for a missing or non-numeric `lam`, a bad dtype or seed; RangeError for an
 *   infinite λ or a bad shape.
 * @example
 * samplers.poisson([3], { lam: [1, 20], seed: 0 });                   // → Tensor int64 [3, 2]
 * samplers.poisson([5], { lam: 4, dtype: 'float32', seed: 0 });       // → Tensor float32 [5]
 */
export function poisson(shape: ShapeLike, options: SamplersPoissonOptions): Tensor {
  const fn = 'samplers.poisson';
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['lam', 'dtype', 'seed']);
  if (opts.lam === undefined) fail('type', fn, 'lam', 'is required (a number, an array or a Tensor)', opts.lam);
  const modes = getModes();
  const isFloat = opts.dtype === 'float32' || opts.dtype === 'float64';
  if (opts.dtype !== undefined && !isFloat && !(INT_DTYPES as readonly unknown[]).includes(opts.dtype)) {
    fail(typeof opts.dtype === 'string' ? 'range' : 'type', fn, 'dtype', 'must be an integer or float dtype', opts.dtype);
  }
  if (opts.dtype === 'float64' && !modes.x64) fail('range', fn, 'dtype', "'float64' needs x64 mode (configure({ x64: true }))", opts.dtype);
  const intDtype: IntDType = isFloat ? defaultIntDtype(modes) : checkIntDtype(fn, opts.dtype, modes);
  const lam = floatParam(fn, 'lam', opts.lam, 'float32');
  checkValues(fn, 'lam', lam.data as Float32Array, (v) => v !== Infinity, 'must be finite');
  const key = sanitize(fn, opts.seed, undefined, modes);
  const k = randomPoisson(key, lam, [...s, ...lam.shape], { dtype: intDtype });
  if (!isFloat) return k;
  const out = opts.dtype === 'float32' ? new Float32Array(k.size) : new Float64Array(k.size);
  for (let i = 0; i < k.size; i++) out[i] = Number(k.data[i]!);
  return new Tensor<FloatDType>(out, k.shape, opts.dtype as FloatDType);
}
