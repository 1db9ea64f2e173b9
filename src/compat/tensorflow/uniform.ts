/**
 * `tf.random.stateless_uniform` (all its dtypes, bounded and full-range integers), bit-exact
 * with TensorFlow on CPU (reference/philox.md §3.1).
 */
import { checkOneOf, checkOptions, checkShape, fail } from '../../checks.js';
import { sizeOf } from '../../tensor/shapes.js';
import { Tensor } from '../../tensor/tensor.js';
import { floatParam, ftz32, ftz64, halfFormat, mulAdd, tfOp, TF_FLOAT_DTYPES, type TfFloatDType, type TfStorage } from './common.js';
import { forEachBlockChunk, LITTLE_ENDIAN } from './fill.js';
import { checkSeedOrState, type KeyCounter, type PhiloxState, type Seed } from './seed.js';

/** Output dtypes of `statelessUniform`. */
export type UniformDType = TfFloatDType | 'int32' | 'int64' | 'uint32' | 'uint64';
const UNIFORM_DTYPES: readonly UniformDType[] = [...TF_FLOAT_DTYPES, 'int32', 'int64', 'uint32', 'uint64'];

/** Integer dtypes of the full-range sampler. */
export type FullIntDType = 'int32' | 'int64' | 'uint32' | 'uint64';
const FULL_INT_DTYPES: readonly FullIntDType[] = ['int32', 'int64', 'uint32', 'uint64'];

export interface UniformOptions<D extends UniformDType = UniformDType> {
  /**
   * Lower bound, included. Floats: a number, default 0. Integers: a number or bigint, default 0
   * when `maxval` is given; leave both bounds undefined (or both null, TF's `None`) for the full
   * range of the integer dtype.
   */
  readonly minval?: number | bigint | null;
  /** Upper bound, excluded. Floats: default 1. Integers: required unless both bounds are omitted. */
  readonly maxval?: number | bigint | null;
  /** Output dtype, default `'float32'` (TF's default). */
  readonly dtype?: D;
}

const TWO_POW_M23 = 2 ** -23;
const TWO_POW_M52 = 2 ** -52;
const TWO_POW_32 = 4294967296;
const INT32_MIN = -(2 ** 31), INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;

/**
 * Uniform values on `[minval, maxval)` exactly as TensorFlow's `tf.random.stateless_uniform`
 * computes them on CPU (Philox-4x32-10 from TF's scrambled `[s0, s1]` seed; the same bits).
 *
 * - Floats: `u · (maxval − minval) + minval` for `u` uniform on [0, 1) with the dtype's mantissa
 *   bits (23 for float32, 52 for float64, 10 for float16, 7 for bfloat16), the subtraction,
 *   multiply and add each rounded to the dtype as TF's separate ops do, with TF's CPU
 *   flush-to-zero of subnormals (float32/float64/bfloat16). `minval`/`maxval` are rounded to the
 *   dtype first (to float32 and then to the 16-bit type for float16/bfloat16, as
 *   `tf.convert_to_tensor` does).
 * - float16 and bfloat16 results are returned as a `uint16` Tensor of IEEE bit patterns, because
 *   Node 20 has no `Float16Array`; convert them with `float16BitsToNumbers` /
 *   `bfloat16BitsToNumbers` (or `float16ToNumber` per element).
 * - int32/int64: `minval + (bits mod (maxval − minval))` with 32 or 64 random bits, TF's slightly
 *   biased modulo reduction. With both bounds omitted: the full range, i.e. the raw bits
 *   (TF's `minval=None, maxval=None`, `StatelessRandomUniformFullInt`); uint32 and uint64 are
 *   allowed only that way. int64/uint64 values are bigints (`BigInt64Array`/`BigUint64Array`).
 *
 * Deliberate differences from TF: a float range with `minval >= maxval` (after rounding to the
 * dtype) or a width that overflows the dtype is a RangeError, where TF returns reversed, constant
 * or infinite values; and an integer dtype with both bounds omitted draws the full range, where
 * TF (whose `minval` defaults to 0) needs `minval=None, maxval=None` spelled out. As in TF, an
 * integer dtype with only `maxval` given uses `minval = 0`.
 *
 * @param shape Output shape: a non-negative integer or an array of them.
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`; int32 seeds are sign-extended), or a
 *   Philox `{ key, counter }` used as is (TF's V2 raw ops; see `PhiloxState`).
 * @param options `{ minval, maxval, dtype }`, default `{ minval: 0, maxval: 1, dtype: 'float32' }`.
 * @throws {TypeError} for a malformed `shape`, `seed`, `minval`, `maxval` or `dtype`, or bounds
 *   given for an unsigned dtype, or `minval` without `maxval` for an integer dtype.
 * @throws {RangeError} for `minval >= maxval`, bounds outside the dtype, a float range that
 *   overflows, an unknown `dtype`, or a seed of the wrong length or outside int64.
 * @example
 * statelessUniform([3], [1, 2]);              // → Tensor float32 [3]: 0.8440604, 0.19204533, 0.9962232
 * statelessUniform([6], [1, 2], { minval: -10, maxval: 10, dtype: 'int32' }); // [-10, -1, 4, 9, -3, -5]
 * statelessUniform([2], [1, 2], { dtype: 'int64' }); // full range: [7464880146280614444n, 1591045637757961278n]
 * float16BitsToNumbers(statelessUniform([4], [1, 2], { dtype: 'float16' })); // [0.54296875, 0.2353515625, ...]
 */
export function statelessUniform<D extends UniformDType = 'float32'>(
  shape: number | readonly number[], seed: Seed | PhiloxState, options?: UniformOptions<D>,
): Tensor<TfStorage[D]> {
  const fn = 'tensorflow.statelessUniform';
  const s = checkShape(fn, 'shape', shape);
  const kc = checkSeedOrState(fn, 'seed', seed);
  const opts = checkOptions(fn, options as UniformOptions | undefined, ['minval', 'maxval', 'dtype']);
  const dtype = checkOneOf(fn, 'dtype', opts.dtype ?? 'float32', UNIFORM_DTYPES);
  const n = sizeOf(s);
  let data: Tensor['data'];
  if (dtype === 'float32' || dtype === 'float64' || dtype === 'float16' || dtype === 'bfloat16') {
    const lo = floatParam(fn, 'minval', opts.minval ?? 0, dtype);
    const hi = floatParam(fn, 'maxval', opts.maxval ?? 1, dtype);
    if (!(lo < hi)) fail('range', fn, 'maxval', `must be greater than minval (${lo} as ${dtype})`, opts.maxval);
    if (!Number.isFinite(tfOp('sub', hi, lo, dtype))) {
      fail('range', fn, 'maxval', `minus minval must not overflow ${dtype} (minval ${lo})`, opts.maxval);
    }
    data = uniformFloatData(kc, n, dtype, lo, hi);
  } else {
    const bothOmitted = opts.minval == null && opts.maxval == null;
    if (dtype === 'uint32' || dtype === 'uint64') {
      if (!bothOmitted) {
        const arg = opts.minval == null ? 'maxval' : 'minval';
        fail('type', fn, arg, `must be omitted for dtype '${dtype}' (unsigned dtypes draw the full range only)`, opts[arg]);
      }
      data = fullIntData(kc, n, dtype);
    } else if (bothOmitted) {
      data = fullIntData(kc, n, dtype);
    } else {
      if (opts.maxval == null) {
        fail('type', fn, 'maxval', `is required for dtype '${dtype}' when minval is given (omit both for the full range)`, opts.maxval);
      }
      if (opts.minval === null) fail('type', fn, 'minval', 'must be given when maxval is (omit both for the full range)', null);
      const lo = intParam(fn, 'minval', opts.minval ?? 0, dtype);
      const hi = intParam(fn, 'maxval', opts.maxval, dtype);
      if (!(lo < hi)) fail('range', fn, 'maxval', `must be greater than minval (${lo})`, opts.maxval);
      data = dtype === 'int32' ? uniformInt32Data(kc, n, Number(lo), Number(hi)) : uniformInt64Data(kc, n, lo, hi);
    }
  }
  return new Tensor(data as never, s, (dtype === 'float16' || dtype === 'bfloat16' ? 'uint16' : dtype) as TfStorage[D]) as Tensor<TfStorage[D]>;
}

/**
 * Full-range integers, `tf.raw_ops.StatelessRandomUniformFullIntV2` with TF's scrambled seed:
 * int32/uint32 values are the Philox words themselves, int64/uint64 values pair two words (the
 * first is the low half). The same as `statelessUniform(shape, seed, { dtype })` with both bounds
 * omitted, and what `statelessSplit` / `statelessFoldIn` draw.
 *
 * @param shape Output shape: a non-negative integer or an array of them.
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`), or a Philox `{ key, counter }` used as is.
 * @param options `{ dtype }`, default `'int32'`.
 * @throws {TypeError} for a malformed `shape`, `seed` or `dtype`.
 * @throws {RangeError} for an unknown `dtype` or a seed of the wrong length or outside int64.
 * @example
 * statelessUniformFullInt([3], [1, 2]);                     // int32 [1105988140, 1738052849, -335576002]
 * statelessUniformFullInt([2], [1, 2], { dtype: 'uint64' }); // [7464880146280614444n, 1591045637757961278n]
 */
export function statelessUniformFullInt<D extends FullIntDType = 'int32'>(
  shape: number | readonly number[], seed: Seed | PhiloxState, options?: { readonly dtype?: D },
): Tensor<TfStorage[D]> {
  const fn = 'tensorflow.statelessUniformFullInt';
  const s = checkShape(fn, 'shape', shape);
  const kc = checkSeedOrState(fn, 'seed', seed);
  const opts = checkOptions(fn, options, ['dtype']);
  const dtype = checkOneOf(fn, 'dtype', opts.dtype ?? 'int32', FULL_INT_DTYPES);
  return new Tensor(fullIntData(kc, sizeOf(s), dtype) as never, s, dtype as TfStorage[D]) as Tensor<TfStorage[D]>;
}

function intParam(fn: string, arg: string, x: unknown, dtype: 'int32' | 'int64'): bigint {
  let v: bigint;
  if (typeof x === 'bigint') v = x;
  else if (typeof x === 'number' && Number.isInteger(x)) {
    if (!Number.isSafeInteger(x)) fail('range', fn, arg, 'must be a safe integer (|x| < 2^53); pass a bigint', x);
    v = BigInt(x);
  } else return fail('type', fn, arg, `must be an integer (number or bigint) for dtype '${dtype}'`, x);
  const [min, max] = dtype === 'int32' ? [BigInt(INT32_MIN), BigInt(INT32_MAX)] : [INT64_MIN, INT64_MAX];
  if (v < min || v > max) fail('range', fn, arg, `must fit in ${dtype}`, x);
  return v;
}

/** Values per Philox block for each output width. */
function perBlock(dtype: string): 2 | 4 {
  return dtype === 'float64' || dtype === 'int64' || dtype === 'uint64' ? 2 : 4;
}

/** Uniform floats on [lo, hi) (lo, hi already values of the dtype). */
export function uniformFloatData(
  kc: KeyCounter, n: number, dtype: TfFloatDType, lo: number, hi: number,
): Float32Array | Float64Array | Uint16Array {
  const nBlocks = Math.ceil(n / perBlock(dtype));
  if (dtype === 'float32') {
    const out = new Float32Array(n);
    const unit = lo === 0 && hi === 1;
    const width = tfOp('sub', hi, lo, dtype), lo0 = ftz32(lo); // DAZ: a subnormal minval adds as zero
    forEachBlockChunk(kc, nBlocks, (w, first) => {
      const base = 4 * first, m = Math.min(w.length, n - base);
      if (unit) for (let i = 0; i < m; i++) out[base + i] = (w[i]! & 0x7fffff) * TWO_POW_M23;
      else {
        for (let i = 0; i < m; i++) {
          out[base + i] = ftz32(Math.fround(ftz32(Math.fround((w[i]! & 0x7fffff) * TWO_POW_M23 * width)) + lo0));
        }
      }
    });
    return out;
  }
  if (dtype === 'float64') {
    const out = new Float64Array(n);
    const width = tfOp('sub', hi, lo, dtype), lo0 = ftz64(lo);
    forEachBlockChunk(kc, nBlocks, (w, first) => {
      const base = 2 * first, m = Math.min(w.length >> 1, n - base);
      for (let i = 0; i < m; i++) {
        const u = ((w[2 * i]! & 0xfffff) * TWO_POW_32 + w[2 * i + 1]!) * TWO_POW_M52;
        out[base + i] = ftz64(ftz64(u * width) + lo0);
      }
    });
    return out;
  }
  // float16 / bfloat16: the result depends only on the 10 (7) low bits, so tabulate them.
  const h = halfFormat(dtype);
  const bits = dtype === 'float16' ? 10 : 7;
  const table = new Uint16Array(1 << bits);
  const width = tfOp('sub', hi, lo, dtype);
  for (let k = 0; k < table.length; k++) table[k] = h.round(mulAdd(k / table.length, width, lo, dtype));
  const mask = table.length - 1;
  const out = new Uint16Array(n);
  forEachBlockChunk(kc, nBlocks, (w, first) => {
    const base = 4 * first, m = Math.min(w.length, n - base);
    for (let i = 0; i < m; i++) out[base + i] = table[w[i]! & mask]!;
  });
  return out;
}

/** int32 on [lo, hi): `lo + (w mod (hi − lo))`. */
function uniformInt32Data(kc: KeyCounter, n: number, lo: number, hi: number): Int32Array {
  const range = hi - lo; // in [1, 2^32 − 1], exact
  const out = new Int32Array(n);
  forEachBlockChunk(kc, Math.ceil(n / 4), (w, first) => {
    const base = 4 * first, m = Math.min(w.length, n - base);
    for (let i = 0; i < m; i++) out[base + i] = lo + (w[i]! % range);
  });
  return out;
}

/** int64 on [lo, hi): `lo + (bits mod (hi − lo))` with bits = w_first | w_second << 32. */
function uniformInt64Data(kc: KeyCounter, n: number, lo: bigint, hi: bigint): BigInt64Array {
  const range = hi - lo; // in [1, 2^64 − 1]
  const out = new BigInt64Array(n);
  const small = range <= 1n << 21n;
  const r = Number(range);
  forEachBlockChunk(kc, Math.ceil(n / 2), (w, first) => {
    const base = 2 * first, m = Math.min(w.length >> 1, n - base);
    if (small) {
      // (hi·2^32 + lo) mod r = ((hi mod r)·2^32 + lo) mod r, exact in doubles for r <= 2^21.
      for (let i = 0; i < m; i++) {
        const rem = ((w[2 * i + 1]! % r) * TWO_POW_32 + w[2 * i]!) % r;
        out[base + i] = lo + BigInt(rem);
      }
    } else {
      for (let i = 0; i < m; i++) {
        const bits = (BigInt(w[2 * i + 1]!) << 32n) | BigInt(w[2 * i]!);
        out[base + i] = lo + (bits % range); // < hi, so no wrap
      }
    }
  });
  return out;
}

/** Full-range integers: the words themselves (pairs, first word low, for 64-bit dtypes). */
export function fullIntData(kc: KeyCounter, n: number, dtype: FullIntDType): Int32Array | Uint32Array | BigInt64Array | BigUint64Array {
  if (dtype === 'int32' || dtype === 'uint32') {
    const out = dtype === 'int32' ? new Int32Array(n) : new Uint32Array(n);
    forEachBlockChunk(kc, Math.ceil(n / 4), (w, first) => {
      const base = 4 * first, m = Math.min(w.length, n - base);
      out.set(dtype === 'int32' ? new Int32Array(w.buffer, w.byteOffset, m) : w.subarray(0, m), base);
    });
    return out;
  }
  const out = dtype === 'int64' ? new BigInt64Array(n) : new BigUint64Array(n);
  const words = new Uint32Array(out.buffer, out.byteOffset, 2 * n);
  forEachBlockChunk(kc, Math.ceil(n / 2), (w, first) => {
    const base = 2 * first, m = Math.min(w.length >> 1, n - base);
    if (LITTLE_ENDIAN) words.set(w.subarray(0, 2 * m), 2 * base);
    else for (let i = 0; i < m; i++) out[base + i] = (BigInt(w[2 * i + 1]!) << 32n) | BigInt(w[2 * i]!); // stores wrap mod 2^64
  });
  return out;
}
