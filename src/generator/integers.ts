/**
 * `Generator.integers` bounds: integer parameters (numbers, bigints, arrays, integer Tensors),
 * NumPy's range checks, and JAX's `randint` with a bound per element (the `random.randint`
 * core takes scalar bounds only).
 */
import { fail } from '../checks.js';
import type { Modes } from '../config.js';
import { splitKeys, type KeyArray } from '../random/key-array.js';
import { allocate, intBits, intRange, type IntDType, type TensorData } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor, tensor } from '../tensor/tensor.js';

/** Integer bounds: one value, or values with a shape (row-major). */
export interface IntParam {
  readonly shape: readonly number[];
  readonly values: readonly bigint[];
}

/** An integer bound as bigints: a safe-integer number or bigint, nested arrays of them, or a Tensor. */
export function intParam(fn: string, arg: string, x: unknown): IntParam {
  if (typeof x === 'bigint') return { shape: [], values: [x] };
  if (typeof x === 'number') {
    if (!Number.isSafeInteger(x)) fail(Number.isInteger(x) ? 'range' : 'type', fn, arg, 'must be an integer (a safe one; pass a bigint beyond 2^53)', x);
    return { shape: [], values: [BigInt(x)] };
  }
  if (!(x instanceof Tensor) && !Array.isArray(x)) fail('type', fn, arg, 'must be an integer, a bigint, an array of them or an integer Tensor', x);
  let t: Tensor;
  try {
    t = tensor(x);
  } catch {
    fail('type', fn, arg, 'must be a rectangular array of integers or bigints', x);
  }
  if (t.dtype === 'bool') fail('type', fn, arg, 'must hold integers, not booleans', x);
  const values = Array.from(t.data as ArrayLike<number | bigint>, (v) => {
    if (typeof v === 'bigint') return v;
    if (!Number.isSafeInteger(v)) fail(Number.isInteger(v) ? 'range' : 'type', fn, arg, 'must hold integers (safe ones; use bigints beyond 2^53)', v);
    return BigInt(v);
  });
  return { shape: t.shape, values };
}

/** NumPy's dtype check for `[low, high)` (high already exclusive): low ≥ the minimum, high − 1 ≤ the maximum. */
export function checkRange(fn: string, lo: IntParam, hi: IntParam, dtype: IntDType, endpoint: boolean): void {
  const [min, max] = intRange(dtype);
  for (const v of lo.values) if (v < min) fail('range', fn, 'low', `is out of bounds for ${dtype} (minimum ${min})`, v);
  for (const v of hi.values) {
    if (v - 1n > max) {
      fail('range', fn, 'high', `is out of bounds for ${dtype} (maximum ${endpoint ? `${max}` : `${max + 1n}, exclusive`})`, endpoint ? v - 1n : v);
    }
  }
}

/** NumPy's `low >= high` check on the broadcast bounds (high already exclusive). */
export function checkOrder(fn: string, lo: readonly bigint[], hi: readonly bigint[], endpoint: boolean): void {
  for (let i = 0; i < lo.length; i++) {
    const l = lo[i]!, h = hi[i]!;
    if (!(l < h)) fail('range', fn, 'low', endpoint ? `must not exceed \`high\` (${h - 1n})` : `must be less than \`high\` (${h})`, l);
  }
}

/** `p`'s values broadcast to `shape` (NumPy rules; the shapes are already known to broadcast). */
export function broadcastInts(p: IntParam, shape: readonly number[]): bigint[] {
  const size = sizeOf(shape);
  if (p.values.length === 1) return new Array<bigint>(size).fill(p.values[0]!);
  const offset = shape.length - p.shape.length;
  const strides = new Array<number>(shape.length).fill(0);
  for (let i = p.shape.length - 1, s = 1; i >= 0; i--) {
    strides[offset + i] = p.shape[i] === 1 ? 0 : s;
    s *= p.shape[i]!;
  }
  const out = new Array<bigint>(size);
  const index = new Array<number>(shape.length).fill(0);
  let src = 0;
  for (let k = 0; k < size; k++) {
    out[k] = p.values[src]!;
    for (let ax = shape.length - 1; ax >= 0; ax--) {
      index[ax]!++;
      src += strides[ax]!;
      if (index[ax]! < shape[ax]!) break;
      src -= strides[ax]! * index[ax]!;
      index[ax] = 0;
    }
  }
  return out;
}

/**
 * JAX's `randint` with per-element bounds `[lo[i], hi[i])`, already checked to be non-empty and
 * within the dtype (so `hi` may be the dtype's maximum + 1): the narrow dtypes sample as int32;
 * `k1, k2 = split(key)` give the high and low draws of the sampling width n; with span = hi − lo
 * in n-bit unsigned arithmetic (0 for the full range 2^n) and mult = (2^(n/2) mod span)² mod
 * span, the value is lo + ((hi_bits mod span)·mult + lo_bits mod span) mod span, products and
 * sums wrapping mod 2^n and `x mod 0 = x`. Equals `randintData` when all bounds are equal.
 */
export function randintPerElement(key: KeyArray, lo: readonly bigint[], hi: readonly bigint[], dtype: IntDType, modes: Modes): TensorData {
  const size = lo.length;
  const n = intBits(dtype) < 32 ? 32 : (intBits(dtype) as 32 | 64);
  const nb = BigInt(n);
  const modulus = 1n << nb;
  const [k1, k2] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const hiBits = key.impl.bits(k1.data, n, size, modes) as Uint32Array;
  const loBits = key.impl.bits(k2.data, n, size, modes) as Uint32Array;
  const word = (bits: Uint32Array, i: number): bigint => (n === 32 ? BigInt(bits[i]!) : (BigInt(bits[2 * i]!) << 32n) | BigInt(bits[2 * i + 1]!));
  const half = 1n << (nb / 2n);
  const out = allocate(dtype, size);
  const big = out instanceof BigInt64Array || out instanceof BigUint64Array;
  for (let i = 0; i < size; i++) {
    const span = (hi[i]! - lo[i]!) % modulus;                      // hi − lo ≤ 2^n; 2^n wraps to 0
    const mod = (x: bigint): bigint => (span === 0n ? x : x % span);
    const mult = mod((mod(half) * mod(half)) % modulus);
    const offset = mod((mod(word(hiBits, i)) * mult + mod(word(loBits, i))) % modulus);
    const v = lo[i]! + offset;
    (out as unknown as (number | bigint)[])[i] = big ? v : Number(v);
  }
  return out;
}
