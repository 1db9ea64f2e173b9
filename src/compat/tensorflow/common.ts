/**
 * Shared pieces of the TensorFlow compat samplers: dtypes, and TF's elementwise float arithmetic
 * (`x * a + b` as two separate ops, each rounded to the dtype).
 */
import { fail } from '../../checks.js';
import { BFLOAT16, FLOAT16, type HalfFormat } from '../half.js';

/** Float dtypes of TF's stateless samplers. float16/bfloat16 come back as uint16 bit patterns. */
export type TfFloatDType = 'float16' | 'bfloat16' | 'float32' | 'float64';
export const TF_FLOAT_DTYPES: readonly TfFloatDType[] = ['float16', 'bfloat16', 'float32', 'float64'];

/** The stochax Tensor dtype holding each TF dtype (16-bit floats as their bit patterns). */
export interface TfStorage {
  float16: 'uint16';
  bfloat16: 'uint16';
  float32: 'float32';
  float64: 'float64';
  int32: 'int32';
  int64: 'int64';
  uint32: 'uint32';
  uint64: 'uint64';
}

export function halfFormat(dtype: 'float16' | 'bfloat16'): HalfFormat {
  return dtype === 'float16' ? FLOAT16 : BFLOAT16;
}

/**
 * A float parameter (a Python float in TF) converted to `dtype` as `tf.convert_to_tensor` does:
 * float64 as is, float32 by `Math.fround` (subnormals kept), float16 through float32, bfloat16
 * through float32 with float32 subnormals flushed to zero (measured with TF 2.21). Returns the
 * value (exact in a double); it must be finite.
 */
export function floatParam(fn: string, arg: string, x: unknown, dtype: TfFloatDType): number {
  if (typeof x !== 'number') fail('type', fn, arg, 'must be a number', x);
  if (!Number.isFinite(x)) fail('range', fn, arg, 'must be finite', x);
  const v = dtype === 'bfloat16' ? roundTo(ftz32(Math.fround(x)), dtype) : roundTo(x, dtype);
  if (!Number.isFinite(v)) fail('range', fn, arg, `overflows ${dtype}`, x);
  return v;
}

/** `x` rounded to `dtype` (as a number). For 16-bit floats, `x` should already be a float32. */
export function roundTo(x: number, dtype: TfFloatDType): number {
  switch (dtype) {
    case 'float64': return x;
    case 'float32': return Math.fround(x);
    default: {
      const h = halfFormat(dtype);
      return h.toNumber(h.round(Math.fround(x)));
    }
  }
}

const MIN_NORMAL32 = 2 ** -126;
const MIN_NORMAL64 = 2 ** -1022;

/** Flush-to-zero of a float32 subnormal (keeps the sign), as x86 FTZ/DAZ do. */
export function ftz32(x: number): number {
  return Math.abs(x) < MIN_NORMAL32 ? x * 0 : x;
}

/** Flush-to-zero of a float64 subnormal (keeps the sign). */
export function ftz64(x: number): number {
  return Math.abs(x) < MIN_NORMAL64 ? x * 0 : x;
}

/**
 * One of TF's elementwise float ops on CPU, on values of `dtype`. TF runs its CPU kernels with
 * the x86 FTZ and DAZ flags set (measured: subnormal float32/float64 operands act as zero and
 * subnormal results become zero), so float32, float64 and bfloat16 (computed in float32) flush;
 * float16 computes in float32, where its values are never subnormal, and rounds to float16 with
 * subnormals kept.
 */
export function tfOp(op: 'add' | 'sub' | 'mul', a: number, b: number, dtype: TfFloatDType): number {
  if (dtype === 'float64') {
    a = ftz64(a); b = ftz64(b);
    return ftz64(op === 'add' ? a + b : op === 'sub' ? a - b : a * b);
  }
  if (dtype !== 'float16') { a = ftz32(a); b = ftz32(b); }
  const r = Math.fround(op === 'add' ? a + b : op === 'sub' ? a - b : a * b);
  return dtype === 'float16' ? roundTo(r, dtype) : dtype === 'float32' ? ftz32(r) : roundTo(ftz32(r), dtype);
}

/** TF's `x * a + b` in `dtype`: a multiply and an add, each a separate TF op (see `tfOp`). */
export function mulAdd(x: number, a: number, b: number, dtype: TfFloatDType): number {
  return tfOp('add', tfOp('mul', x, a, dtype), b, dtype);
}
