import { brand } from '../brand.js';
import { checkNesting, checkShape, fail, show } from '../checks.js';
import { allocate, DTYPES, dtypeOfData, INT_DTYPES, intRange, isBigIntDType, type DataOf, type DType, type IntDType, type TensorData } from './dtype.js';
import { isTraced, kernelFactory, tracedValueError, type Flat, type Lowering } from './lowering.js';
import { sizeOf } from './shapes.js';
import type { TapeNode } from './tape.js';

/** Nested JS arrays of numbers, booleans or bigints (what `toArray()` returns). */
export type NestedArray = number | boolean | bigint | NestedArray[];

/** What one element of a tensor of dtype `D` is in JavaScript: a boolean, a bigint (64-bit integers) or a number. */
export type ItemOf<D extends DType> = D extends 'bool' ? boolean : D extends 'int64' | 'uint64' ? bigint : number;

/**
 * An n-dimensional array: a shape, a dtype and row-major typed-array storage. Small on
 * purpose for now: the full tensor engine (broadcasting ops, autodiff) is a later layer.
 *
 * @example
 * const t = tensor([[1, 2], [3, 4]], 'float32');
 * t.shape;            // [2, 2]
 * t.reshape([4]).toArray(); // [1, 2, 3, 4]
 */
export class Tensor<D extends DType = DType> {
  readonly shape: readonly number[];
  readonly dtype: D;
  readonly data: DataOf<D>;
  /** The tape node of a value being differentiated (set by the autodiff engine only). */
  readonly node: TapeNode | undefined;

  /**
   * Wraps `data` (not copied) as a tensor of `shape` and `dtype`; the sizes must agree.
   * (`trusted` is for the engine's own results: their shape arrays are fresh or already frozen,
   * so the checks and the defensive copy are skipped on the hot path.)
   */
  constructor(data: DataOf<D>, shape: readonly number[], dtype?: D, node?: TapeNode, trusted = false) {
    if (trusted) {
      this.data = data;
      this.shape = shape;
      this.dtype = dtype!;
      this.node = node;
      return;
    }
    dtype ??= dtypeOfData(data) as D;
    const size = sizeOf(shape);
    if (data.length !== size) {
      throw new RangeError(`Tensor: \`data\` has ${data.length} elements but \`shape\` ${show([...shape])} needs ${size}`);
    }
    const storage = dtype === 'bool' ? 'uint8' : dtype;
    if (dtypeOfData(data) !== storage) {
      throw new TypeError(`Tensor: \`data\` is a ${data.constructor.name}, which cannot hold dtype '${dtype}'`);
    }
    this.data = data;
    this.shape = Object.freeze([...shape]);
    this.dtype = dtype;
    this.node = node;
  }

  /** Same as the constructor; reads well at call sites that build data first. */
  static fromData<D extends DType>(data: DataOf<D>, shape: readonly number[], dtype?: D): Tensor<D> {
    return new Tensor(data, shape, dtype);
  }

  get size(): number { return this.data.length; }
  get ndim(): number { return this.shape.length; }

  /**
   * The single element of a size-1 tensor as a JS value, typed by the dtype when it is known
   * (a `Tensor<'float64'>` gives a `number`); `toNumber()` gives a `number` whatever the dtype.
   */
  item(): ItemOf<D> {
    if (isTraced(this.node)) throw tracedValueError('Tensor.item()');
    if (this.size !== 1) throw new RangeError(`Tensor.item: the tensor has ${this.size} elements, not 1`);
    return this.get(0) as ItemOf<D>;
  }

  /**
   * The single element of a size-1 tensor as a number (NumPy's `float(x)`): booleans give 0 or 1,
   * 64-bit integers are converted when they are exact as a double.
   *
   * @throws RangeError when the tensor has more than one element, or a 64-bit integer beyond ±2^53.
   * @example
   * normal.logProb(0).toNumber();          // -0.9189385332046727, typed as number
   * tensor([7n], 'int64').toNumber();      // 7
   */
  toNumber(): number {
    if (isTraced(this.node)) throw tracedValueError('Tensor.toNumber()');
    if (this.size !== 1) throw new RangeError(`Tensor.toNumber: the tensor has ${this.size} elements, not 1 (use toNumbers() for all of them)`);
    return this.numberAt(0, 'Tensor.toNumber');
  }

  /**
   * Every element as a number, flat and row-major (a copy): what a plot, a `Math.max(...)` or a
   * JSON file wants. Booleans give 0 or 1; 64-bit integers are converted when exact as a double.
   *
   * @throws RangeError when a 64-bit integer lies beyond ±2^53.
   * @example
   * tensor([[1, 2], [3, 4]]).toNumbers();  // [1, 2, 3, 4]
   */
  toNumbers(): number[] {
    if (isTraced(this.node)) throw tracedValueError('Tensor.toNumbers()');
    const out = new Array<number>(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.numberAt(i, 'Tensor.toNumbers');
    return out;
  }

  private numberAt(i: number, fn: string): number {
    const v = this.data[i]!;
    if (typeof v === 'number') return v;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new RangeError(`${fn}: element ${i} is ${v}, which a number cannot hold exactly (beyond ±2^53); read \`data\` for the bigints`);
    return n;
  }

  /** Element at a flat row-major index. */
  get(flatIndex: number): number | boolean | bigint {
    if (isTraced(this.node)) throw tracedValueError('Tensor.get()');
    const v = this.data[flatIndex]!;
    return this.dtype === 'bool' ? v === 1 : v;
  }

  /**
   * Nested JS arrays (numbers; booleans for `bool`; bigints for 64-bit integers). The type
   * parameter states the nesting the caller knows (`toArray<number[][]>()` for a float matrix),
   * as tfjs's `arraySync` does; it is not checked.
   *
   * @example
   * const rows = tensor([[1, 2], [3, 4]]).toArray<number[][]>();
   * rows[1]![0];   // 3
   */
  toArray<T extends NestedArray = NestedArray>(): T {
    if (isTraced(this.node)) throw tracedValueError('Tensor.toArray()');
    let pos = 0;
    const build = (dim: number): NestedArray => {
      if (dim === this.shape.length) return this.get(pos++);
      const out: NestedArray[] = [];
      for (let i = 0; i < this.shape[dim]!; i++) out.push(build(dim + 1));
      return out;
    };
    return build(0) as T;
  }

  /** A tensor sharing this data with a new shape of the same size; one entry may be -1. */
  reshape(shape: number | readonly number[]): Tensor<D> {
    const dims = typeof shape === 'number' ? [shape] : [...shape];
    const free = dims.indexOf(-1);
    if (free >= 0) {
      const known = dims.reduce((a, d, i) => (i === free ? a : a * d), 1);
      dims[free] = known === 0 ? 0 : this.size / known;
    }
    const s = checkShape('Tensor.reshape', 'shape', dims);
    if (sizeOf(s) !== this.size) {
      fail('range', 'Tensor.reshape', 'shape', `must have ${this.size} elements like [${this.shape.join(', ')}]`, shape);
    }
    return new Tensor<D>(this.data, s, this.dtype, this.node); // same flat layout: same adjoint
  }

  /**
   * A tensor with the same values converted to `dtype` (numbers truncate toward zero, wrapping,
   * as NumPy's `astype` does).
   *
   * @throws TypeError when `dtype` is not a dtype name.
   */
  astype<T extends DType>(dtype: T): Tensor<T> {
    if (!DTYPES.includes(dtype)) fail('type', 'Tensor.astype', 'dtype', `must be one of ${DTYPES.join(', ')}`, dtype);
    if ((dtype as DType) === this.dtype) return this as unknown as Tensor<T>;
    const out = allocate(dtype, this.size);
    for (let i = 0; i < this.size; i++) out[i] = convert(this.data[i]!, dtype) as never;
    // A float-to-float conversion passes gradients through unchanged; integer results do not.
    const keep = (dtype === 'float32' || dtype === 'float64') && (this.dtype === 'float32' || this.dtype === 'float64');
    if (isTraced(this.node)) {   // a traced value stays traced: record the cast (a float cast passes gradients on)
      if (isBigIntDType(dtype)) throw tracedValueError(`Tensor.astype('${dtype}')`);
      const node = this.node.tape.record(castLowering(dtype, keep), [this], out as Flat, this.shape);
      return new Tensor<T>(out, this.shape, dtype, node);
    }
    return new Tensor<T>(out, this.shape, dtype, keep ? this.node : undefined);
  }

  /**
   * The values, NumPy style: `Tensor([[1, 2.5], [3, 4]], dtype=float64)`; a tensor of more than
   * 1000 elements shows 3 items at each end of every axis around `...`. Also what `console.log`
   * prints in Node.
   *
   * @example
   * String(tensor([[1, 2.5], [3, 4]]));   // 'Tensor([[1, 2.5], [3, 4]], dtype=float64)'
   */
  toString(): string {
    return `Tensor(${formatValues(this)}, dtype=${this.dtype})`;
  }

  /** Node's `util.inspect` (so `console.log`) shows the values. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}
brand(Tensor, 'Tensor');   // recognised across copies of stochax (src/brand.ts)

/** Nested brackets of a tensor's values, summarised along axes longer than 6 when it has more than 1000 elements (NumPy's threshold and edge items). */
function formatValues(t: Tensor): string {
  const summarize = t.size > 1000, shape = t.shape, data = t.data;
  const item = (i: number): string => (t.dtype === 'bool' ? (data[i] ? 'true' : 'false') : String(data[i]));
  const strides = shape.map((_, a) => sizeOf(shape.slice(a + 1)));
  const axis = (a: number, offset: number): string => {
    if (a === shape.length) return item(offset);
    const n = shape[a]!, at = (i: number) => axis(a + 1, offset + i * strides[a]!);
    if (summarize && n > 6) return `[${[0, 1, 2].map(at).join(', ')}, ..., ${[n - 3, n - 2, n - 1].map(at).join(', ')}]`;
    return `[${Array.from({ length: n }, (_, i) => at(i)).join(', ')}]`;
  };
  return axis(0, 0);
}

/** astype's kernel (made by a named factory: a compiled model's workers make it again from the dtype and the flag). */
const castLowering = kernelFactory('astype', (dtype: DType, gradient: boolean): Lowering => {
  return {
    name: 'astype',
    forward(ins, out) {
      const x = ins[0]!;
      for (let i = 0; i < out.length; i++) out[i] = convert(x[i]!, dtype) as number;
    },
    ...(gradient ? { backward(g: Float64Array, _ins: readonly ArrayLike<number>[], _out: ArrayLike<number>, parts: readonly (Float64Array | null)[]) { parts[0]?.set(g); } } : {}),
  };
});

function convert(v: number | bigint, dtype: DType): number | bigint {
  if (isBigIntDType(dtype)) return typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  if (dtype === 'bool') return v ? 1 : 0;
  return typeof v === 'bigint' ? Number(dtype.startsWith('float') ? v : BigInt.asIntN(64, v)) : v;
}

/**
 * Builds a tensor from a number, boolean, bigint, typed array or nested arrays of them. Without
 * `dtype`: booleans give `bool`, bigints `int64`, a typed array its own dtype, numbers `float64`.
 * With an integer `dtype`, numbers truncate toward zero and must then fit the dtype, as NumPy 2
 * requires of Python values (a Tensor or typed array is cast with `astype`, which wraps).
 *
 * @throws TypeError for values that are not numbers, booleans or bigints, ragged arrays, or
 *   arrays nested more than 64 deep or containing themselves; RangeError for an unknown dtype
 *   or a value outside an integer dtype's range (NaN and ±∞ included).
 * @example
 * tensor([[1, 2, 3]]).shape; // [1, 3]
 * tensor(7n).dtype;          // 'int64'
 */
export function tensor<D extends DType>(values: unknown, dtype: D): Tensor<D>;
export function tensor(values: unknown, dtype?: DType): Tensor;
export function tensor(values: unknown, dtype?: DType): Tensor {
  return tensorFrom('tensor', 'values', values, dtype);
}

/**
 * `tensor(values, dtype)` for a public function's argument: the same conversion, with every
 * error naming `fn` and `arg` (so `Generator.choice` reports "\`a\` must be a rectangular nested
 * array" rather than `tensor`'s \`values\`).
 */
export function tensorFrom(fn: string, arg: string, values: unknown, dtype?: DType): Tensor {
  if (values instanceof Tensor) return dtype ? values.astype(dtype) : (values as Tensor);
  if (dtype !== undefined && !DTYPES.includes(dtype)) fail('range', fn, 'dtype', `must be one of ${DTYPES.join(', ')}`, dtype);
  if (ArrayBuffer.isView(values) && !(values instanceof DataView)) {
    const data = values as TensorData;
    const t: Tensor = new Tensor(data.slice() as TensorData, [data.length]);
    return dtype ? t.astype(dtype) : t;
  }
  checkNesting(fn, arg, values);
  const shape: number[] = [];
  let probe: unknown = values;
  while (Array.isArray(probe)) { shape.push(probe.length); probe = probe[0]; }
  const flat: unknown[] = shape.length === 0 ? [values] : (values as unknown[]).flat(Infinity);
  if (flat.length !== sizeOf(shape)) fail('type', fn, arg, 'must be a rectangular nested array', values);
  const kind = inferDType(flat);
  const target = dtype ?? kind;
  const fits = (INT_DTYPES as readonly DType[]).includes(target) ? intFits(target as IntDType) : undefined;
  const out: TensorData = allocate(target, flat.length);
  for (let i = 0; i < flat.length; i++) {
    const v = flat[i];
    if (typeof v !== 'number' && typeof v !== 'boolean' && typeof v !== 'bigint') {
      fail('type', fn, arg, 'must hold only numbers, booleans or bigints', values);
    }
    if (fits !== undefined && typeof v !== 'boolean' && !fits(v)) {
      const [lo, hi] = intRange(target as IntDType);
      fail('range', fn, arg, `must fit ${target} (integers in [${lo}, ${hi}] after truncation; NumPy 2 raises too)`, v);
    }
    out[i] = convert(typeof v === 'boolean' ? (v ? 1 : 0) : v, target) as never;
  }
  return new Tensor(out, shape, target);
}

/** Whether a JS value, truncated toward zero, lies in an integer dtype's range (NaN and ±∞ do not). */
function intFits(dtype: IntDType): (v: number | bigint) => boolean {
  const [lo, hi] = intRange(dtype);
  const nlo = Number(lo), nhi = Number(hi);
  return (v) => {
    if (typeof v === 'bigint') return v >= lo && v <= hi;
    if (!Number.isFinite(v)) return false;
    const t = Math.trunc(v);
    // Number(2^63 − 1) rounds up to 2^63, so 64-bit bounds are compared as bigints.
    return dtype === 'int64' || dtype === 'uint64' ? BigInt(t) >= lo && BigInt(t) <= hi : t >= nlo && t <= nhi;
  };
}

function inferDType(flat: unknown[]): DType {
  if (flat.length > 0 && flat.every((v) => typeof v === 'boolean')) return 'bool';
  if (flat.length > 0 && flat.every((v) => typeof v === 'bigint')) return 'int64';
  return 'float64';
}
