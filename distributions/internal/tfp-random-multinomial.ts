/**
 * TFP's multinomial sampler (`multinomial.py`, `_sample_multinomial_as_iterated_binomial`), with
 * TFP's seed structure: `seeds = splitSeed(seed, { n: K, salt: 'multinomial_draw_sample' })`;
 * for class i = 0 … K − 2, the count is `Binomial(remaining, clip(pᵢ / (1 − Σ_{j<i} pⱼ), 0, 1))`
 * drawn with `seeds[i]` (so through the salt `'binomial'` and `internal/tfp-random-binomial.ts`), and
 * the last class takes what remains. Used by Multinomial and DirichletMultinomial.
 */
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { sampleBinomial } from './tfp-random-binomial.js';

/**
 * Multinomial counts of shape `[...shape, K]`: `probs` holds K normalized probabilities for each
 * of the ∏shape elements (rows × K, already broadcast), `trials` one (integer) count per element.
 */
export function iteratedBinomialMultinomial(shape: readonly number[], k: number, probs: ArrayLike<number>, trials: ArrayLike<number>, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = sizeOf(shape);
  const seeds = splitSeed(seed, { n: k, salt: 'multinomial_draw_sample' });
  const out = new Float64Array(size * k);
  const remaining = Float64Array.from({ length: size }, (_, i) => Math.trunc(trials[i]!));
  const consumed = new Float64Array(size), p = new Float64Array(size);
  for (let c = 0; c < k - 1; c++) {
    for (let i = 0; i < size; i++) p[i] = Math.min(Math.max(probs[i * k + c]! / (1 - consumed[i]!), 0), 1);
    const draws = sampleBinomial(shape, remaining, p, seeds[c]!, dtype);
    for (let i = 0; i < size; i++) {
      out[i * k + c] = draws[i]!;
      remaining[i]! -= draws[i]!;
      consumed[i]! += probs[i * k + c]!;
    }
  }
  for (let i = 0; i < size; i++) out[i * k + k - 1] = remaining[i]!;
  return out;
}
