import { checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes } from '../config.js';
import { broadcastData } from '../tensor/broadcast.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor, tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { uniformUnit } from './uniform.js';

const NMANT: Record<FloatDType, number> = { float32: 23, float64: 52 };

/**
 * Random booleans, true with probability `p` (`jax.random.bernoulli`).
 *
 * The draw's precision follows `p`'s dtype as in JAX: a plain number or array acts as a Python
 * float (float64 draws in x64 mode, float32 in x32 mode); a Tensor keeps its own float dtype.
 * Mode `'low'` (default) compares one uniform with `p`; `'high'` uses two uniforms for
 * resolution near 0, as JAX ≥ 0.6.1 does.
 *
 * @param p probability in [0, 1], a number, array or float Tensor (default 0.5).
 * @param shape result shape; defaults to `p`'s shape, and `p` must broadcast to it.
 * @throws RangeError for `p` outside [0, 1] or NaN.
 * @example
 * random.bernoulli(random.key(0), 0.3, [5]); // → Tensor bool [5]
 */
export function bernoulli(
  key: KeyArray, p: number | readonly number[] | Tensor = 0.5, shape?: number | readonly number[],
  options?: { mode?: 'low' | 'high' },
): Tensor<'bool'> {
  const fn = 'random.bernoulli';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['mode']);
  const mode = opts.mode === undefined ? 'low' : checkOneOf(fn, 'mode', opts.mode, ['low', 'high'] as const);
  const modes = getModes();
  let pt: Tensor;
  if (p instanceof Tensor) {
    if (p.dtype !== 'float32' && p.dtype !== 'float64') fail('type', fn, 'p', 'must be a float tensor', `a ${p.dtype} tensor`);
    if (p.dtype === 'float64' && !modes.x64) fail('range', fn, 'p', "of dtype 'float64' needs x64 mode", p);
    pt = p;
  } else {
    if (typeof p !== 'number' && !Array.isArray(p)) fail('type', fn, 'p', 'must be a number, an array of numbers or a float Tensor', p);
    pt = tensor(p, modes.x64 ? 'float64' : 'float32');
  }
  const dtype = pt.dtype as FloatDType;
  const s = shape === undefined ? [...pt.shape] : checkShape(fn, 'shape', shape as number[]);
  const probs = broadcastData(fn, 'p', pt, s) as Float64Array | Float32Array;
  for (const v of probs) if (!(v >= 0 && v <= 1)) fail('range', fn, 'p', 'must be a probability in [0, 1]', v);
  const size = probs.length;
  const out = new Uint8Array(size);
  if (mode === 'low') {
    const u = uniformUnit(key, size, dtype, modes);
    for (let i = 0; i < size; i++) out[i] = u[i]! < probs[i]! ? 1 : 0;
  } else {
    // u2 refines u1 below its resolution: true when u2·2^-nmant < p − u1 (computed in dtype).
    const u = uniformUnit(key, 2 * size, dtype, modes);
    const scale = 2 ** -NMANT[dtype];
    const round = dtype === 'float32' ? Math.fround : (x: number) => x;
    for (let i = 0; i < size; i++) out[i] = round(u[size + i]! * scale) < round(probs[i]! - u[i]!) ? 1 : 0;
  }
  return new Tensor(out, s, 'bool');
}
