import { checkBigIntLike, checkOneOf, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { allocate, INT_DTYPES, intBits, intRange, type IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';

const clip = (x: bigint, lo: bigint, hi: bigint) => (x < lo ? lo : x > hi ? hi : x);

/**
 * a mod s for integers 0 <= a < 2^53 and 1 <= s < 2^32. A double `%` compiles to a libm fmod
 * call; a division is several times faster, and the quotient's rounding is corrected exactly.
 */
function rem(a: number, s: number): number {
  const r = a - Math.floor(a / s) * s;
  return r < 0 ? r + s : r >= s ? r - s : r;
}

/** Checks an integer dtype option against the mode: the default follows x64, 64-bit needs it. */
export function checkIntDtype(fn: string, dtype: unknown, modes: Modes): IntDType {
  if (dtype === undefined) return modes.x64 ? 'int64' : 'int32';
  const d = checkOneOf(fn, 'dtype', dtype, INT_DTYPES);
  if (intBits(d) === 64 && !modes.x64) fail('range', fn, 'dtype', `'${d}' needs x64 mode (configure({ x64: true }))`, d);
  return d;
}

/**
 * `size` integers in [minval, maxval) of `dtype` by JAX's rejection-free scheme (≥ 0.7.2):
 * narrow dtypes sample as int32; bounds are clipped to the sampling dtype; two draws from
 * `split(key)` combine as `((hi % span)·mult + lo % span) % span` with wrapping unsigned
 * arithmetic, `mult = (2^(n/2) % span)² % span`, and `x % 0 = x` (a full-range span wraps to 0).
 */
export function randintData(
  key: KeyArray, size: number, minval: bigint, maxval: bigint, dtype: IntDType, modes: Modes,
): Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | BigInt64Array | BigUint64Array {
  let lo = minval, hi = maxval;
  let sample: IntDType = dtype;
  if (intBits(dtype) < 32) {
    const [dmin, dmax] = intRange(dtype);
    lo = clip(lo, dmin, dmax);
    hi = clip(hi, dmin, dmax + 1n);
    sample = 'int32';
  }
  const n = intBits(sample) as 32 | 64;
  const [smin, smax] = intRange(sample);
  const maxvalOutOfRange = hi > smax;
  lo = clip(lo, smin, smax);
  hi = clip(hi, smin, smax);

  const modulus = 1n << BigInt(n);
  let span = BigInt.asUintN(n, hi - lo);
  if (hi <= lo) span = 1n;
  else if (maxvalOutOfRange) span = BigInt.asUintN(n, span + 1n);
  const mod = (x: bigint) => (span === 0n ? x : x % span);
  const half = mod(1n << BigInt(n / 2));
  const mult = mod(BigInt.asUintN(n, half * half));

  const [k1, k2] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const hiBits = k1.impl.bits(k1.data, n, size, modes) as Uint32Array;
  const loBits = k2.impl.bits(k2.data, n, size, modes) as Uint32Array;
  const out = allocate(dtype, size) as ReturnType<typeof randintData>;

  if (n === 32) {
    // Every intermediate stays below 2^53: (hi % span)·mult < 2^32 because mult is 0 whenever
    // span > 2^16. The sum wraps mod 2^32 before the final %.
    const s = Number(span), m = Number(mult), base = Number(lo);
    if (s === 0) {                                    // full range: minval + lo
      for (let i = 0; i < size; i++) (out as Int32Array)[i] = base + loBits[i]!;
      return out;
    }
    for (let i = 0; i < size; i++) {
      let t = rem(hiBits[i]!, s) * m + rem(loBits[i]!, s);
      if (t >= 4294967296) t -= 4294967296;
      (out as Int32Array)[i] = base + rem(t, s);
    }
    return out;
  }

  const big = out as BigInt64Array | BigUint64Array;
  if (span !== 0n && span <= 1n << 26n) {
    // Small spans: 64-bit residues from the two words, all products below 2^53, no wrap.
    const s = Number(span), m = Number(mult), w = 4294967296 % s, base = Number(lo);
    const safe = Number.isSafeInteger(base + s);
    for (let i = 0; i < size; i++) {
      const a = ((hiBits[2 * i]! % s) * w + (hiBits[2 * i + 1]! % s)) % s;
      const b = ((loBits[2 * i]! % s) * w + (loBits[2 * i + 1]! % s)) % s;
      const off = (a * m + b) % s;
      big[i] = safe ? BigInt(base + off) : lo + BigInt(off);
    }
    return out;
  }
  for (let i = 0; i < size; i++) {
    const h = (BigInt(hiBits[2 * i]!) << 32n) | BigInt(hiBits[2 * i + 1]!);
    const l = (BigInt(loBits[2 * i]!) << 32n) | BigInt(loBits[2 * i + 1]!);
    const off = mod((mod(h) * mult + mod(l)) % modulus);
    big[i] = lo + off;
  }
  return out;
}

/**
 * Uniform random integers in [minval, maxval) (`jax.random.randint`), bit-exact with JAX 0.10.2
 * in all four modes. Bounds outside the dtype's range are clipped to it, so
 * `randint(k, s, 0, 256, { dtype: 'uint8' })` covers all of uint8. `minval === maxval` returns
 * `minval`, as JAX does.
 *
 * @param dtype integer dtype; default `int64` in x64 mode (values as bigints), `int32` in x32.
 * @throws RangeError when `minval > maxval`; TypeError for non-integer bounds.
 * @example
 * random.randint(random.key(0), [3, 3], 0, 8, { dtype: 'int32' }); // → Tensor int32 [3, 3]
 */
export function randint(
  key: KeyArray, shape: number | readonly number[], minval: number | bigint, maxval: number | bigint,
  options?: { dtype?: IntDType },
): Tensor<IntDType> {
  const fn = 'random.randint';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const lo = checkBigIntLike(fn, 'minval', minval);
  const hi = checkBigIntLike(fn, 'maxval', maxval);
  if (lo > hi) fail('range', fn, 'minval', `must not exceed \`maxval\` (${maxval})`, minval);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = checkIntDtype(fn, opts.dtype, modes);
  const size = sizeOf(s);
  return new Tensor<IntDType>(randintData(key, size, lo, hi, dtype, modes), s, dtype);
}
