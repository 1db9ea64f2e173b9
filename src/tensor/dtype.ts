/** Element types of a `Tensor`, each stored in one typed-array kind. */
export type DType =
  | 'float64' | 'float32'
  | 'int8' | 'int16' | 'int32'
  | 'uint8' | 'uint16' | 'uint32'
  | 'bool'
  | 'int64' | 'uint64';

/** The typed-array kind that stores each dtype (`bool` as 0/1 bytes). */
export interface DataMap {
  float64: Float64Array;
  float32: Float32Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  bool: Uint8Array;
  int64: BigInt64Array;
  uint64: BigUint64Array;
}

export type DataOf<D extends DType> = DataMap[D];
export type TensorData = DataMap[DType];

export const DTYPES: readonly DType[] = [
  'float64', 'float32', 'int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32', 'bool', 'int64', 'uint64',
];

export const FLOAT_DTYPES = ['float32', 'float64'] as const;
export type FloatDType = (typeof FLOAT_DTYPES)[number];

export const INT_DTYPES = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'] as const;
export type IntDType = (typeof INT_DTYPES)[number];

/** Allocates zeroed storage for `size` elements of `dtype`. */
export function allocate<D extends DType>(dtype: D, size: number): DataOf<D> {
  return allocateAny(dtype, size) as DataOf<D>;
}

function allocateAny(dtype: DType, size: number): TensorData {
  switch (dtype) {
    case 'float64': return new Float64Array(size);
    case 'float32': return new Float32Array(size);
    case 'int8': return new Int8Array(size);
    case 'int16': return new Int16Array(size);
    case 'int32': return new Int32Array(size);
    case 'uint8': case 'bool': return new Uint8Array(size);
    case 'uint16': return new Uint16Array(size);
    case 'uint32': return new Uint32Array(size);
    case 'int64': return new BigInt64Array(size);
    case 'uint64': return new BigUint64Array(size);
  }
}

/** The dtype a typed array stores natively (`Uint8Array` reads as `uint8`, not `bool`). */
export function dtypeOfData(data: TensorData): DType {
  if (data instanceof Float64Array) return 'float64';
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Int8Array) return 'int8';
  if (data instanceof Int16Array) return 'int16';
  if (data instanceof Int32Array) return 'int32';
  if (data instanceof Uint8Array) return 'uint8';
  if (data instanceof Uint16Array) return 'uint16';
  if (data instanceof Uint32Array) return 'uint32';
  if (data instanceof BigInt64Array) return 'int64';
  return 'uint64';
}

export function isBigIntDType(dtype: DType): dtype is 'int64' | 'uint64' {
  return dtype === 'int64' || dtype === 'uint64';
}

/** Integer range of an integer dtype, as bigints: [min, max]. */
export function intRange(dtype: IntDType): [bigint, bigint] {
  switch (dtype) {
    case 'int8': return [-128n, 127n];
    case 'int16': return [-32768n, 32767n];
    case 'int32': return [-(2n ** 31n), 2n ** 31n - 1n];
    case 'int64': return [-(2n ** 63n), 2n ** 63n - 1n];
    case 'uint8': return [0n, 255n];
    case 'uint16': return [0n, 65535n];
    case 'uint32': return [0n, 2n ** 32n - 1n];
    case 'uint64': return [0n, 2n ** 64n - 1n];
  }
}

/** Bit width of an integer dtype. */
export function intBits(dtype: IntDType): 8 | 16 | 32 | 64 {
  switch (dtype) {
    case 'int8': case 'uint8': return 8;
    case 'int16': case 'uint16': return 16;
    case 'int32': case 'uint32': return 32;
    case 'int64': case 'uint64': return 64;
  }
}

export function isSigned(dtype: IntDType): boolean {
  return dtype.startsWith('int');
}
