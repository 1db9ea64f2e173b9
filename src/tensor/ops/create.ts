/**
 * Creating tensors: constant fills, ranges and identity matrices (NumPy's names and semantics).
 * Created tensors are constants: they record nothing on the tape. Without a `dtype` argument
 * the result is float64 (`full` infers `bool` from a boolean and `int64` from a bigint).
 *
 * @example
 * zeros([2, 3]).shape;               // [2, 3]
 * arange(5).toArray();               // [0, 1, 2, 3, 4]
 * linspace(0, 1, 5).toArray();       // [0, 0.25, 0.5, 0.75, 1]
 * eye(2).toArray();                  // [[1, 0], [0, 1]]
 */
import { checkBoolean, checkFinite, checkInteger, checkNonNegativeInteger, checkOptions, checkShape, fail, MAX_SIZE } from '../../checks.js';
import { asTensor, type TensorLike } from '../core.js';
import { allocate, DTYPES, isBigIntDType, type DType } from '../dtype.js';
import { sizeOf } from '../shapes.js';
import { Tensor } from '../tensor.js';

/** A shape argument: a non-negative integer (meaning `[n]`) or an array of them. */
export type ShapeLike = number | readonly number[];

function checkDType(fn: string, dtype: unknown, fallback: DType = 'float64'): DType {
  if (dtype === undefined) return fallback;
  if (typeof dtype !== 'string') fail('type', fn, 'dtype', `must be one of ${DTYPES.join(', ')}`, dtype);
  if (!DTYPES.includes(dtype as DType)) fail('range', fn, 'dtype', `must be one of ${DTYPES.join(', ')}`, dtype);
  return dtype as DType;
}

/** A tensor of `shape` and `dtype` with every element `value` (already checked). */
function filled(fn: string, shape: readonly number[], value: number | boolean | bigint, dtype: DType): Tensor {
  const size = sizeOf(shape);
  const data = allocate(dtype, size);
  if (isBigIntDType(dtype)) {
    let v: bigint;
    if (typeof value === 'bigint') v = value;
    else if (typeof value === 'boolean') v = value ? 1n : 0n;
    else if (Number.isFinite(value)) v = BigInt(Math.trunc(value));
    else fail('range', fn, 'value', `must be finite for dtype '${dtype}'`, value);
    (data as BigInt64Array).fill(dtype === 'int64' ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
  } else if (dtype === 'bool') {
    (data as Uint8Array).fill(value ? 1 : 0);
  } else {
    // Typed-array stores do NumPy's conversion: round to float32, or truncate and wrap integers.
    const v = typeof value === 'number' ? value : Number(value);
    if (v !== 0) (data as Float64Array).fill(v);
  }
  return new Tensor(data, shape, dtype);
}

/**
 * A tensor of zeros.
 *
 * @param shape - a non-negative integer or an array of them.
 * @param dtype - element type; default `'float64'`.
 * @throws TypeError / RangeError for a bad shape or an unknown dtype.
 * @example
 * zeros([2, 2]).toArray();          // [[0, 0], [0, 0]]
 * zeros(3, 'int32').dtype;          // 'int32'
 */
export function zeros(shape: ShapeLike, dtype?: DType): Tensor {
  return filled('zeros', checkShape('zeros', 'shape', shape), 0, checkDType('zeros', dtype));
}

/**
 * A tensor of ones.
 *
 * @param shape - a non-negative integer or an array of them.
 * @param dtype - element type; default `'float64'`.
 * @example
 * ones([2]).toArray();              // [1, 1]
 * ones([2], 'bool').toArray();      // [true, true]
 */
export function ones(shape: ShapeLike, dtype?: DType): Tensor {
  return filled('ones', checkShape('ones', 'shape', shape), 1, checkDType('ones', dtype));
}

/**
 * A tensor with every element equal to `value`. Without `dtype`, a number gives float64, a
 * boolean `bool` and a bigint `int64`. Conversion to an integer dtype truncates toward zero.
 *
 * @param shape - a non-negative integer or an array of them.
 * @param value - the fill value (number, boolean or bigint).
 * @param dtype - element type; default from `value` as above.
 * @throws TypeError if `value` is not a number, boolean or bigint.
 * @example
 * full([2], 7).toArray();           // [7, 7]
 * full(2, true).dtype;              // 'bool'
 * full([], 2.5, 'int32').item();    // 2
 */
export function full(shape: ShapeLike, value: number | boolean | bigint, dtype?: DType): Tensor {
  const fn = 'full';
  const s = checkShape(fn, 'shape', shape);
  if (typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    fail('type', fn, 'value', 'must be a number, a boolean or a bigint', value);
  }
  const inferred: DType = typeof value === 'boolean' ? 'bool' : typeof value === 'bigint' ? 'int64' : 'float64';
  return filled(fn, s, value, checkDType(fn, dtype, inferred));
}

/**
 * Zeros of the shape of `x` (and its dtype, unless `dtype` is given).
 *
 * @example
 * zerosLike([[1, 2]]).toArray();    // [[0, 0]]
 */
export function zerosLike(x: TensorLike, dtype?: DType): Tensor {
  const t = asTensor('zerosLike', 'x', x);
  return filled('zerosLike', t.shape, 0, checkDType('zerosLike', dtype, t.dtype));
}

/**
 * Ones of the shape of `x` (and its dtype, unless `dtype` is given).
 *
 * @example
 * onesLike([[1, 2]]).toArray();     // [[1, 1]]
 */
export function onesLike(x: TensorLike, dtype?: DType): Tensor {
  const t = asTensor('onesLike', 'x', x);
  return filled('onesLike', t.shape, 1, checkDType('onesLike', dtype, t.dtype));
}

/**
 * Evenly spaced values in the half-open interval [start, stop), NumPy's `arange`: with one
 * argument the range is [0, start). The length is ⌈(stop − start)/step⌉ (0 if negative) and
 * element i is start + i·step (computed as NumPy does, so values match it bit for bit).
 *
 * @param start - first value (or, alone, the end of [0, start)).
 * @param stop - end of the interval (excluded).
 * @param step - spacing, non-zero, may be negative; default 1.
 * @param dtype - element type; default `'float64'` (an integer dtype truncates each value).
 * @throws RangeError if `step` is 0, an argument is not finite, or the range is too long.
 * @example
 * arange(3).toArray();              // [0, 1, 2]
 * arange(1, 2, 0.25).toArray();     // [1, 1.25, 1.5, 1.75]
 * arange(5, 0, -2).toArray();       // [5, 3, 1]
 */
export function arange(start: number, stop?: number, step = 1, dtype?: DType): Tensor {
  const fn = 'arange';
  let lo = checkFinite(fn, 'start', start);
  let hi: number;
  if (stop === undefined) { hi = lo; lo = 0; } else hi = checkFinite(fn, 'stop', stop);
  const d = checkFinite(fn, 'step', step);
  if (d === 0) fail('range', fn, 'step', 'must not be 0', step);
  const dt = checkDType(fn, dtype);
  const n = Math.max(0, Math.ceil((hi - lo) / d));
  if (n > MAX_SIZE) fail('range', fn, 'stop', `gives ${n} elements, more than ${MAX_SIZE}`, stop);
  // NumPy's fill: element 1 is start + step, then start + i·delta with delta = (start + step) − start.
  const delta = (lo + d) - lo;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = i === 1 ? lo + d : lo + i * delta;
  const out = new Tensor(values, [n], 'float64');
  return dt === 'float64' ? out : out.astype(dt);
}

/**
 * `num` evenly spaced values from `start` to `stop` (NumPy's `linspace`): the step is
 * (stop − start)/(num − 1), or /num with `endpoint: false`; the last value is exactly `stop`
 * when `endpoint` is true.
 *
 * @param num - number of values (non-negative integer); default 50.
 * @param options.endpoint - include `stop`; default true.
 * @param options.dtype - `'float64'` (default) or another dtype (integers truncate).
 * @example
 * linspace(0, 1, 3).toArray();                       // [0, 0.5, 1]
 * linspace(0, 1, 4, { endpoint: false }).toArray();  // [0, 0.25, 0.5, 0.75]
 */
export function linspace(start: number, stop: number, num = 50, options?: { endpoint?: boolean; dtype?: DType }): Tensor {
  const fn = 'linspace';
  const a = checkFinite(fn, 'start', start), b = checkFinite(fn, 'stop', stop);
  const n = checkNonNegativeInteger(fn, 'num', num);
  if (n > MAX_SIZE) fail('range', fn, 'num', `must be at most ${MAX_SIZE}`, num);
  const opts = checkOptions(fn, options, ['endpoint', 'dtype']);
  const endpoint = opts.endpoint === undefined ? true : checkBoolean(fn, 'endpoint', opts.endpoint);
  const dt = checkDType(fn, opts.dtype);
  const values = new Float64Array(n);
  const div = endpoint ? n - 1 : n;
  const delta = b - a;
  if (div > 0) {
    const step = delta / div;
    // NumPy's form: i·step + start, or (i/div)·delta + start when the step underflows to 0.
    if (step === 0) for (let i = 0; i < n; i++) values[i] = (i / div) * delta + a;
    else for (let i = 0; i < n; i++) values[i] = i * step + a;
  } else if (n > 0) values[0] = a;
  if (endpoint && n > 1) values[n - 1] = b;
  const out = new Tensor(values, [n], 'float64');
  return dt === 'float64' ? out : out.astype(dt);
}

/**
 * A 2-D tensor with ones on the diagonal `k` and zeros elsewhere (NumPy's `eye`).
 *
 * @param n - number of rows.
 * @param m - number of columns; default `n`.
 * @param k - diagonal offset: 0 the main diagonal, positive above, negative below; default 0.
 * @param dtype - element type; default `'float64'`.
 * @example
 * eye(2).toArray();                 // [[1, 0], [0, 1]]
 * eye(2, 3, 1).toArray();           // [[0, 1, 0], [0, 0, 1]]
 */
export function eye(n: number, m?: number, k = 0, dtype?: DType): Tensor {
  const fn = 'eye';
  const rows = checkNonNegativeInteger(fn, 'n', n);
  const cols = m === undefined ? rows : checkNonNegativeInteger(fn, 'm', m);
  const off = checkInteger(fn, 'k', k);
  const dt = checkDType(fn, dtype);
  const t = filled(fn, checkShape(fn, 'shape', [rows, cols]), 0, dt);
  const one = isBigIntDType(dt) ? 1n : 1;
  for (let i = Math.max(0, -off); i < rows && i + off < cols; i++) t.data[i * cols + i + off] = one as never;
  return t;
}
