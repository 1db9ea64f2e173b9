import { checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { allocate, type DataOf } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { uniformUnit } from './uniform.js';

/** The dtypes a Rademacher sample can take: signed integers and floats. */
export type RademacherDType = 'int8' | 'int16' | 'int32' | 'int64' | 'float32' | 'float64';
const DTYPES: readonly RademacherDType[] = ['int8', 'int16', 'int32', 'int64', 'float32', 'float64'];

/**
 * `size` random signs as JAX draws them: 2·bernoulli(key, 0.5) − 1, where p = 0.5 is a Python
 * float, so the comparison u < 0.5 uses a float64 uniform in x64 mode and a float32 one in x32
 * mode, whatever the output dtype. +1 where u < 0.5, −1 elsewhere.
 */
export function rademacherData(key: KeyArray, size: number, modes: Modes): Int8Array {
  const u = uniformUnit(key, size, modes.x64 ? 'float64' : 'float32', modes);
  const out = new Int8Array(size);
  for (let i = 0; i < size; i++) out[i] = u[i]! < 0.5 ? 1 : -1;
  return out;
}

/**
 * Random signs (`jax.random.rademacher`): −1 or +1 with probability ½ each. Bit-exact with JAX
 * in all four modes (it is `2·bernoulli(key, 0.5, shape) − 1`).
 *
 * @param shape result shape (default `[]`, a scalar).
 * @param options.dtype a signed integer or float dtype; default `'int64'` in x64 mode (a
 *   BigInt64Array) and `'int32'` in x32 mode. 64-bit dtypes need x64 mode.
 * @throws TypeError / RangeError for a bad key, shape or dtype (unsigned dtypes are refused:
 *   they cannot hold −1).
 * @example
 * random.rademacher(random.key(0), [4]);                       // → Tensor int64 [4]
 * random.rademacher(random.key(0), [4], { dtype: 'float32' }); // → Tensor float32 [4]
 */
export function rademacher(key: KeyArray, shape: number | readonly number[] = [], options?: { dtype?: RademacherDType }): Tensor<RademacherDType> {
  const fn = 'random.rademacher';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = opts.dtype === undefined ? (modes.x64 ? 'int64' : 'int32') : checkOneOf(fn, 'dtype', opts.dtype, DTYPES);
  if ((dtype === 'int64' || dtype === 'float64') && !modes.x64) {
    fail('range', fn, 'dtype', `'${dtype}' needs x64 mode (configure({ x64: true }))`, dtype);
  }
  const signs = rademacherData(key, sizeOf(s), modes);
  const out = allocate(dtype, signs.length);
  if (dtype === 'int64') for (let i = 0; i < signs.length; i++) (out as BigInt64Array)[i] = BigInt(signs[i]!);
  else (out as Exclude<DataOf<RademacherDType>, BigInt64Array>).set(signs);
  return new Tensor<RademacherDType>(out, s, dtype);
}
