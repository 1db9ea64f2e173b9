import { checkNonNegativeInteger, checkOptions, fail } from '../checks.js';
import { getModes } from '../config.js';
import { categorical as randomCategorical, checkLogits } from '../random/categorical.js';
import { checkIntDtype } from '../random/randint.js';
import type { IntDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

/**
 * Categorical draws (TFP's `samplers.categorical`): `numSamples` class indices per batch entry,
 * P(i) = exp(logitsᵢ) / Σⱼ exp(logitsⱼ) over the last axis of `logits`. The result has shape
 * `[...batch, numSamples]` where `batch = logits.shape[:-1]` (TF requires 2-D logits
 * `[batch, classes]`; any rank ≥ 1 works here, 1-D logits giving `[numSamples]`).
 *
 * TFP on JAX's Gumbel-max: noise of shape `[...batch, classes, numSamples]` in the logits' dtype
 * added to the logits (a trailing axis of 1) and the argmax over classes, i.e.
 * `random.categorical(key, logits[..., None], { axis: -2, shape: [...batch, numSamples] })`.
 *
 * @param logits unnormalised log-probabilities: a float array or Tensor of rank ≥ 1. −∞ marks
 *   an impossible class; NaN and +∞ are errors.
 * @param numSamples draws per batch entry, a non-negative integer.
 * @param options.dtype integer dtype of the indices (default int64 in x64 mode, int32 in x32,
 *   TF's int64 default in x64 mode).
 * @throws TypeError for bad logits, `numSamples`, dtype or seed; RangeError for scalar logits,
 *   NaN or +∞ logits, or a batch entry whose logits are all −∞.
 * @example
 * samplers.categorical([[0, 0, 5], [5, 0, 0]], 4, { seed: 0 });    // → Tensor int64 [2, 4]
 * samplers.categorical([0, Math.log(3)], 10, { dtype: 'int32', seed: 0 }); // → Tensor int32 [10]
 */
export function categorical(
  logits: Tensor | readonly unknown[], numSamples: number, options?: { dtype?: IntDType; seed?: Seed },
): Tensor<IntDType> {
  const fn = 'samplers.categorical';
  if (!(logits instanceof Tensor) && !Array.isArray(logits)) fail('type', fn, 'logits', 'must be an array of numbers or a float Tensor', logits);
  const shape = logits instanceof Tensor ? logits.shape : probeShape(logits);
  if (shape.length === 0) fail('range', fn, 'logits', 'must have at least one dimension (the classes)', logits);
  const n = checkNonNegativeInteger(fn, 'numSamples', numSamples);
  const opts = checkOptions(fn, options, ['dtype', 'seed']);
  const modes = getModes();
  const dtype = checkIntDtype(fn, opts.dtype, modes);
  const key = sanitize(fn, opts.seed, undefined, modes);
  const batch = shape.slice(0, -1);
  let draws: Tensor<IntDType>;
  try {
    draws = randomCategorical(key, checkLogits(fn, logits, modes).reshape([...shape, 1]), { axis: -2, shape: [...batch, n] });
  } catch (e) {
    // Same checks, reported under this function's name.
    if (e instanceof Error && e.message.startsWith('random.categorical:')) {
      const msg = `${fn}:${e.message.slice('random.categorical:'.length)}`;
      throw e instanceof RangeError ? new RangeError(msg) : new TypeError(msg);
    }
    throw e;
  }
  return draws.dtype === dtype ? draws : draws.astype(dtype) as Tensor<IntDType>;
}

/** The shape of a nested array, following first elements (rectangularity is checked later). */
function probeShape(x: readonly unknown[]): number[] {
  const s: number[] = [];
  let p: unknown = x;
  while (Array.isArray(p)) { s.push(p.length); p = p[0]; }
  return s;
}
