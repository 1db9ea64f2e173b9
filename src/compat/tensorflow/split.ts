/**
 * `tf.random.split` / `tf.random.experimental.stateless_split` and `tf.random.fold_in` /
 * `stateless_fold_in`: new seeds drawn as full-range integers from the old one.
 */
import { checkNonNegativeInteger, fail } from '../../checks.js';
import { Tensor } from '../../tensor/tensor.js';
import { checkSeed, scrambleSeed, type Seed, type SeedDType } from './seed.js';
import { fullIntData } from './uniform.js';

const INT32_MIN = -(2 ** 31), INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;

/**
 * Splits a seed into `num` new seeds, as `tf.random.split(seed, num)` does: a `[num, 2]` Tensor
 * of full-range integers of the seed's dtype drawn from `seed` (row `i` is a seed for any
 * stateless op). The dtype is the seed's: int32 for a pair of numbers in int32 range or an
 * `Int32Array`/int32 Tensor, int64 (bigint values) otherwise, as `tf.convert_to_tensor` picks.
 *
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`).
 * @param num Number of new seeds, a non-negative integer, default 2.
 * @throws {TypeError} for a malformed `seed` or a non-integer `num`.
 * @throws {RangeError} for a negative `num`, or a seed of the wrong length or outside int64.
 * @example
 * statelessSplit([1, 2], 3).toArray();
 * // [[1105988140, 1738052849], [-335576002, 370444179], [10670227, -246211131]]
 */
export function statelessSplit(seed: Seed, num = 2): Tensor<SeedDType> {
  const fn = 'tensorflow.statelessSplit';
  const sv = checkSeed(fn, 'seed', seed);
  const n = checkNonNegativeInteger(fn, 'num', num);
  if (2 * n > 2 ** 32 - 1) fail('range', fn, 'num', 'is too large', num);
  return new Tensor(fullIntData(scrambleSeed(sv), 2 * n, sv.dtype) as Int32Array | BigInt64Array, [n, 2], sv.dtype) as Tensor<SeedDType>;
}

/**
 * Folds `data` into a seed, as `tf.random.fold_in(seed, data)` does: returns the seed
 * `[r, data]`, where `r` is one full-range integer of `data`'s dtype drawn from `seed`. The
 * dtype follows `data` (TF: `tf.convert_to_tensor(data)`): int32 for a number in int32 range,
 * int64 for a larger number or a bigint; or an int32/int64 scalar Tensor's own dtype.
 *
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`).
 * @param data An integer (number, bigint, or int32/int64 Tensor with one element).
 * @throws {TypeError} for a malformed `seed` or a non-integer `data`.
 * @throws {RangeError} for `data` outside int64 or an unsafe number, or a bad seed length.
 * @example
 * statelessFoldIn([1, 2], 3).toArray();  // [1105988140, 3] (int32)
 * statelessFoldIn([1, 2], 3n).toArray(); // [7464880146280614444n, 3n] (int64)
 */
export function statelessFoldIn(seed: Seed, data: number | bigint | Tensor): Tensor<SeedDType> {
  const fn = 'tensorflow.statelessFoldIn';
  const sv = checkSeed(fn, 'seed', seed);
  const [value, dtype] = checkData(fn, data);
  const r = fullIntData(scrambleSeed(sv), 1, dtype);
  if (dtype === 'int32') return new Tensor(new Int32Array([r[0] as number, Number(value)]), [2], 'int32');
  return new Tensor(new BigInt64Array([r[0] as bigint, value]), [2], 'int64');
}

function checkData(fn: string, x: unknown): [bigint, SeedDType] {
  if (x instanceof Tensor) {
    if (x.dtype !== 'int32' && x.dtype !== 'int64') fail('type', fn, 'data', 'must be an int32 or int64 Tensor', `a ${x.dtype} Tensor`);
    if (x.size !== 1) fail('range', fn, 'data', 'must be a scalar', `a Tensor of shape [${x.shape.join(', ')}]`);
    return [BigInt(x.data[0]!), x.dtype];
  }
  if (typeof x === 'bigint') {
    if (x < INT64_MIN || x > INT64_MAX) fail('range', fn, 'data', 'must fit in int64', x);
    return [x, 'int64'];
  }
  if (typeof x !== 'number' || !Number.isInteger(x)) fail('type', fn, 'data', 'must be an integer (number or bigint)', x);
  if (!Number.isSafeInteger(x)) fail('range', fn, 'data', 'must be a safe integer (|x| < 2^53); pass a bigint', x);
  return [BigInt(x), x >= INT32_MIN && x <= INT32_MAX ? 'int32' : 'int64'];
}
