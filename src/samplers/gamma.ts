import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes } from '../config.js';
import { gamma as randomGamma } from '../random/gamma.js';
import { broadcastShapes, floatDtype, floatParam, paramValues, rounder, type ParamLike, type ShapeLike } from '../random/params.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

export interface SamplersGammaOptions {
  /** Concentration (shape) parameter(s), required; should be positive. */
  alpha: ParamLike;
  /** Rate parameter(s) (default: none, i.e. rate 1); should be positive. */
  beta?: ParamLike;
  /** `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode). */
  dtype?: FloatDType;
  /** Any seed kind (see `sanitizeSeed`); sanitized with no salt. */
  seed?: Seed;
}

const TINY: Record<FloatDType, number> = { float32: 2 ** -126, float64: 2 ** -1022 };

/**
 * Gamma samples (TFP's `samplers.gamma`): density β^α x^(α−1) e^(−βx) / Γ(α) on (0, ∞). The result
 * has shape `shape + broadcast(alpha.shape, beta.shape)`. As TFP on JAX: standard gamma draws
 * `random.gamma(key, alpha, thatShape)` in float64 (float32 in x32 mode, where JAX would
 * silently narrow float64 too), cast to `dtype`, divided by `beta`, and clamped to at least
 * `dtype`'s smallest normal (TF's "0 → tiny" convention, so a draw that underflows is tiny).
 * Parameters are converted to `dtype` first. `alpha < 0` gives NaN (as `random.gamma`); a
 * non-positive `beta` gives `tiny` or NaN: TFP checks neither.
 *
 * @throws TypeError for a missing or non-numeric `alpha`, a bad `beta`, dtype or seed;
 *   RangeError for a bad shape or parameters whose shapes do not broadcast.
 * @example
 * samplers.gamma([4], { alpha: 2, beta: 3, seed: [1, 2] });          // → Tensor float64 [4]
 * samplers.gamma([4], { alpha: [0.5, 2], seed: 0 });                 // → Tensor float64 [4, 2]
 */
export function gamma(shape: ShapeLike, options: SamplersGammaOptions): Tensor<FloatDType> {
  const fn = 'samplers.gamma';
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['alpha', 'beta', 'dtype', 'seed']);
  if (opts.alpha === undefined) fail('type', fn, 'alpha', 'is required (a number, an array or a Tensor)', opts.alpha);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const alpha = floatParam(fn, 'alpha', opts.alpha, dtype);
  const beta = opts.beta === undefined ? undefined : floatParam(fn, 'beta', opts.beta, dtype);
  const batch = broadcastShapes(fn, beta ? [['alpha', alpha.shape], ['beta', beta.shape]] : [['alpha', alpha.shape]]);
  const out = [...s, ...batch];
  const key = sanitize(fn, opts.seed, undefined, modes);
  const drawDtype: FloatDType = modes.x64 ? 'float64' : 'float32';
  const draws = randomGamma(key, alpha.astype(drawDtype), out, { dtype: drawDtype }).data;
  const x = dtype === drawDtype ? draws : Float32Array.from(draws);
  const r = rounder(dtype);
  if (beta) {
    const b = paramValues(fn, 'beta', beta, out);
    for (let i = 0; i < x.length; i++) x[i] = r(x[i]! / b[i]!);
  }
  const tiny = TINY[dtype];
  for (let i = 0; i < x.length; i++) x[i] = Math.max(tiny, x[i]!);
  return new Tensor<FloatDType>(x, out, dtype);
}
