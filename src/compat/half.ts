/**
 * float16 and bfloat16 for the compat ops (TensorFlow and OpenVINO). Node 20 has no
 * `Float16Array` (nor `Math.f16round`), so 16-bit float results travel as `Uint16Array` bit
 * patterns (a `uint16` Tensor) and these helpers convert them. Arithmetic "in half" follows
 * Eigen and OpenVINO on CPU: each operation converts its operands to float32, computes in
 * float32 and rounds the result back to the 16-bit type.
 */
import { fail } from '../checks.js';
import { Tensor } from '../tensor/tensor.js';

/**
 * How a float32 becomes a bfloat16: `'rne'` is IEEE round-to-nearest-even (TensorFlow, Eigen);
 * `'openvino'` is `ov::bfloat16(float)`'s rule, which adds 0x8000 only when the kept lsb is 1
 * (half-up when odd, truncation when even: up to 1 ulp below RNE).
 */
export type Bf16Rounding = 'rne' | 'openvino';

// Same-width views share the platform's byte order, so these read float32 bits on any engine.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const TWO_POW_M24 = 2 ** -24;
/** 2^(e − 25) for float16 exponent fields e = 0..31. */
const POW2 = Float64Array.from({ length: 32 }, (_, e) => 2 ** (e - 25));

/**
 * The float16 bit pattern nearest to `x` rounded to float32 (Eigen's `half(float)`: IEEE
 * round-to-nearest-even, subnormals kept, overflow to ±Infinity, NaN to a quiet NaN). A double
 * `x` is rounded to float32 first, as TensorFlow does.
 */
export function roundToFloat16Bits(x: number): number {
  f32[0] = x;
  const b = u32[0]!;
  const sign = (b >>> 16) & 0x8000;
  const e = ((b >>> 23) & 0xff) - 127;
  const m = b & 0x7fffff;
  if (e === 128) return m === 0 ? sign | 0x7c00 : sign | 0x7e00 | (m >>> 13);
  if (e >= -14) {
    if (e > 15) return sign | 0x7c00;
    const rest = m & 0x1fff;
    let h = ((e + 15) << 10) | (m >>> 13);
    if (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1)) h++; // a carry into the exponent is right, up to Infinity
    return sign | h;
  }
  if (e < -25) return sign; // below half the smallest subnormal (float32 subnormals included): ±0
  // float16 subnormal: (1.m)·2^e in units of 2^-24
  const mm = m | 0x800000;
  const shift = -1 - e; // 13 + (-14 - e), in [14, 24]
  const half = 1 << (shift - 1);
  const rest = mm & ((1 << shift) - 1);
  let h = mm >>> shift;
  if (rest > half || (rest === half && (h & 1) === 1)) h++;
  return sign | h;
}

/**
 * The bfloat16 bit pattern for `x` rounded to float32, by `rounding` (default IEEE
 * round-to-nearest-even, Eigen's `bfloat16(float)`; NaN kept quiet).
 */
export function roundToBfloat16Bits(x: number, rounding: Bf16Rounding = 'rne'): number {
  f32[0] = x;
  const b = u32[0]!;
  if ((b & 0x7fffffff) > 0x7f800000) return ((b >>> 16) | 0x40) & 0xffff;
  if (rounding === 'openvino') return ((b + ((b & 0x10000) >>> 1)) >>> 16) & 0xffff;
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
}

/**
 * The value of a float16 bit pattern (exact: every float16 is a float32 and a double).
 *
 * @example
 * float16ToNumber(0x3c00); // 1
 * float16ToNumber(0xc100); // -2.5
 * float16ToNumber(0x0001); // 5.960464477539063e-8 (2^-24, the smallest subnormal)
 */
export function float16ToNumber(bits: number): number {
  const e = (bits >>> 10) & 0x1f, f = bits & 0x3ff;
  const s = bits & 0x8000 ? -1 : 1;
  if (e === 0) return s * f * TWO_POW_M24;
  if (e === 31) return f === 0 ? s * Infinity : NaN;
  return s * (1024 + f) * POW2[e]!;
}

/**
 * The value of a bfloat16 bit pattern (exact: bfloat16 is the top half of a float32).
 *
 * @example
 * bfloat16ToNumber(0x3f80); // 1
 * bfloat16ToNumber(0xc316); // -150
 */
export function bfloat16ToNumber(bits: number): number {
  u32[0] = (bits & 0xffff) << 16;
  return f32[0]!;
}

/**
 * The float16 bit pattern for the JS number `x` as TensorFlow (`tf.convert_to_tensor(x,
 * tf.float16)`, measured with TF 2.21) and OpenVINO (`ov::float16(double)`) store it: rounded to
 * float32 first, then to float16, both IEEE nearest-even.
 *
 * @example
 * float16FromNumber(1);                          // 0x3c00
 * float16FromNumber(1 + 2 ** -11 + 2 ** -40);    // 0x3c00 (direct rounding would give 0x3c01)
 * float16FromNumber(-2.5);                       // 0xc100
 */
export function float16FromNumber(x: number): number {
  return roundToFloat16Bits(Math.fround(x));
}

/**
 * The bfloat16 bit pattern for the JS number `x`: rounded to float32, then to bfloat16 by
 * `rounding` (default IEEE nearest-even, as TensorFlow; `'openvino'` for OpenVINO's rule).
 *
 * @example
 * bfloat16FromNumber(1);                                   // 0x3f80
 * bfloat16FromNumber(-150);                                // 0xc316
 * bfloat16FromNumber(1 + 2 ** -8 + 2 ** -10, 'openvino');  // 0x3f80 (RNE gives 0x3f81)
 */
export function bfloat16FromNumber(x: number, rounding: Bf16Rounding = 'rne'): number {
  return roundToBfloat16Bits(Math.fround(x), rounding);
}

function mapBits(fn: string, bits: Tensor | ArrayLike<number>, toNumber: (b: number) => number): Tensor<'float32'> | Float32Array {
  if (bits instanceof Tensor) {
    if (bits.dtype !== 'uint16') fail('type', fn, 'bits', "must be a uint16 Tensor of bit patterns", bits.dtype);
    const out = new Float32Array(bits.size);
    for (let i = 0; i < out.length; i++) out[i] = toNumber(bits.data[i] as number);
    return new Tensor(out, bits.shape, 'float32');
  }
  if (bits === null || typeof bits !== 'object' || typeof (bits as ArrayLike<number>).length !== 'number') {
    fail('type', fn, 'bits', 'must be a uint16 Tensor, a Uint16Array or an array of bit patterns', bits);
  }
  const out = new Float32Array(bits.length);
  for (let i = 0; i < out.length; i++) {
    const b = bits[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 0xffff) {
      fail('range', fn, `bits[${i}]`, 'must be an integer in [0, 65535]', b);
    }
    out[i] = toNumber(b);
  }
  return out;
}

/**
 * Converts float16 bit patterns (what the compat ops return for `dtype: 'float16'`) to numbers:
 * a uint16 `Tensor` gives a float32 `Tensor` of the same shape, anything else a `Float32Array`
 * (exact: float16 ⊂ float32).
 *
 * @throws {TypeError} if `bits` is not a uint16 Tensor or array-like of numbers.
 * @throws {RangeError} if an entry is not an integer in [0, 65535].
 * @example
 * float16BitsToNumbers(new Uint16Array([0x3c00, 0x3800])); // Float32Array [1, 0.5]
 * float16BitsToNumbers(statelessUniform([2, 2], [1, 2], { dtype: 'float16' })); // → Tensor float32 [2, 2]
 */
export function float16BitsToNumbers(bits: Tensor): Tensor<'float32'>;
export function float16BitsToNumbers(bits: ArrayLike<number>): Float32Array;
export function float16BitsToNumbers(bits: Tensor | ArrayLike<number>): Tensor<'float32'> | Float32Array {
  return mapBits('compat.float16BitsToNumbers', bits, float16ToNumber);
}

/**
 * Converts bfloat16 bit patterns to numbers, like `float16BitsToNumbers`.
 *
 * @throws {TypeError} if `bits` is not a uint16 Tensor or array-like of numbers.
 * @throws {RangeError} if an entry is not an integer in [0, 65535].
 * @example
 * bfloat16BitsToNumbers(new Uint16Array([0x3f80, 0xc316])); // Float32Array [1, -150]
 */
export function bfloat16BitsToNumbers(bits: Tensor): Tensor<'float32'>;
export function bfloat16BitsToNumbers(bits: ArrayLike<number>): Float32Array;
export function bfloat16BitsToNumbers(bits: Tensor | ArrayLike<number>): Tensor<'float32'> | Float32Array {
  return mapBits('compat.bfloat16BitsToNumbers', bits, bfloat16ToNumber);
}

/** A 16-bit float format: its value/bit conversions, as used by the samplers. */
export interface HalfFormat {
  readonly name: 'float16' | 'bfloat16';
  /** Nearest bits of a float32 value. */
  readonly round: (x: number) => number;
  readonly toNumber: (bits: number) => number;
}

export const FLOAT16: HalfFormat = { name: 'float16', round: roundToFloat16Bits, toNumber: float16ToNumber };
export const BFLOAT16: HalfFormat = { name: 'bfloat16', round: (x) => roundToBfloat16Bits(x), toNumber: bfloat16ToNumber };
