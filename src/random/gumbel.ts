import { checkOneOf, checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, rounder, type ShapeLike } from './params.js';
import { uniformData, uniformUnit } from './uniform.js';
import { detLog, detLog1p } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

export type GumbelMode = 'low' | 'high';
const TINY: Record<FloatDType, number> = { float32: 2 ** -126, float64: 2 ** -1022 };
const NMANT: Record<FloatDType, number> = { float32: 23, float64: 52 };

/**
 * `size` standard Gumbel samples as JAX draws them.
 * - `'low'` (JAX's default): −log(−log(u)), u uniform on [tiny, 1).
 * - `'high'`: two uniforms hi, lo; x = hi when hi ≥ ½, else hi + 2^−nmant·lo + max(2^−(2·nmant+1),
 *   tiny), which resolves the right tail (large values, where Gumbel-max decides); then
 *   −log(−log1p(−x)).
 */
export function gumbelData(key: KeyArray, size: number, dtype: FloatDType, mode: GumbelMode, modes: Modes): Float64Array | Float32Array {
  const round = rounder(dtype);
  if (mode === 'low') {
    const u = uniformData(key, size, dtype, TINY[dtype], 1, modes);
    for (let i = 0; i < size; i++) u[i] = round(-detLog(round(-detLog(u[i]!))));
    return u;
  }
  const both = uniformUnit(key, 2 * size, dtype, modes);
  const out = dtype === 'float32' ? new Float32Array(size) : new Float64Array(size);
  const scale = 2 ** -NMANT[dtype];
  const floor = Math.max(2 ** -(2 * NMANT[dtype] + 1), TINY[dtype]);
  for (let i = 0; i < size; i++) {
    const hi = both[i]!, lo = both[size + i]!;
    const x = hi >= 0.5 ? hi : round(round(hi + round(scale * lo)) + floor);
    out[i] = round(-detLog(round(-detLog1p(-x))));
  }
  return out;
}

/**
 * Standard Gumbel samples (`jax.random.gumbel`): density exp(−(x + e^(−x))) on ℝ.
 *
 * @param options.mode `'low'` (default, as JAX) or `'high'` (finer right tail, two uniforms).
 * @example
 * random.gumbel(random.key(0), [3]); // → Tensor float64 [3]
 */
export function gumbel(key: KeyArray, shape: ShapeLike = [], options?: { dtype?: FloatDType; mode?: GumbelMode }): Tensor<FloatDType> {
  const fn = 'random.gumbel';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype', 'mode']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const mode = opts.mode === undefined ? 'low' : checkOneOf(fn, 'mode', opts.mode, ['low', 'high'] as const);
  return new Tensor<FloatDType>(gumbelData(key, sizeOf(s), dtype, mode, modes), s, dtype);
}
