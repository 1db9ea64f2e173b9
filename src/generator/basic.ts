/**
 * The Generator's uniform, normal and integer methods (the ones JAX's `StatefulPRNG` has:
 * `random`, `uniform`, `normal`, `integers`), plus `standardNormal` and `bytes`, and the
 * buffered fast paths for scalar `random()`, `uniform()`, `normal()` and `standardNormal()`.
 */
import { checkBoolean, checkCount, checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { KeyArray } from '../random/key-array.js';
import { normalData } from '../random/normal.js';
import { floatDtype } from '../random/params.js';
import { checkIntDtype, randintData } from '../random/randint.js';
import { uniformUnit } from '../random/uniform.js';
import { scaleUnit } from '../random/unit.js';
import type { FloatDType, IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import {
  affine, checkSize, constrain, finite, nonNegative, outputShape, param, result, values,
  type ParamLike, type SizeLike,
} from './args.js';
import { GeneratorCore } from './core.js';
import { broadcastInts, checkOrder, checkRange, intParam, randintPerElement, type IntParam } from './integers.js';
import { ScalarBuffer } from './unit-cache.js';

/** An integer bound for `integers`: a number, a bigint, nested arrays of them, or an integer Tensor. */
export type IntLike = number | bigint | readonly unknown[] | Tensor;

/** Options of `random`, `standardNormal` and the other methods with a float `dtype`. */
export interface FloatOptions {
  /** `'float64'` (default in x64 mode) or `'float32'` (default, and the only choice, in x32 mode). */
  dtype?: FloatDType;
}

/** Options of `integers`. */
export interface IntegersOptions {
  /** Integer dtype; default `'int64'` in x64 mode (bigint results), `'int32'` in x32 mode. */
  dtype?: IntDType;
  /** Include `high` in the range (default false: `[low, high)`). */
  endpoint?: boolean;
}

/** `Generator` methods for uniform floats, normals, integers and bytes (see `Generator`). */
export class BasicMethods extends GeneratorCore {
  // Buffered scalar draws: `vals[i]` is the scalar uniform (or standard normal) of counter
  // `start + i` in `dtype` under `modes`. A pure function of the base key and the counter, filled
  // for counters the generator has not reached yet and read only when the counter gets there,
  // so the values are those of unbuffered draws.
  readonly #uniforms = new ScalarBuffer(false);
  #normals: ScalarBuffer | null = null;

  /**
   * The scalar unit uniform of the next key, `random.uniform(key(), [], { dtype })`, from the
   * buffer (refilled from the current counter on when it runs out or the modes or dtype change).
   */
  #unit(fn: string, dtypeOption: unknown): number {
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, dtypeOption, modes);
    if (!this.impl.foldInUniforms) return this.draw(fn, (k) => uniformUnit(k, 1, dtype, modes)[0]!);
    const c = this.count;
    const f = this.#uniforms.get(this.impl, this.words, dtype, modes, c);
    this.count = c + 1;
    return f;
  }

  /**
   * The scalar standard normal of the next key, `random.normal(key(), [], { dtype })`, from a
   * buffer like `random()`'s.
   */
  #normalScalar(fn: string, dtype: FloatDType, modes: Modes): number {
    if (!this.impl.foldInUniforms) return this.draw(fn, (k) => normalData(k, 1, dtype, modes)[0]!);
    const c = this.count;
    const z = (this.#normals ??= new ScalarBuffer(true)).get(this.impl, this.words, dtype, modes, c);
    this.count = c + 1;
    return z;
  }

  /**
   * Uniform floats in [0, 1) (NumPy's `Generator.random`; JAX's `StatefulPRNG.random`):
   * `random.uniform(this.key(), size, { dtype })`. Float64 values are multiples of 2^-52,
   * float32 values multiples of 2^-23.
   *
   * Scalar calls are buffered: a call fills the values of the next counters (24, growing to 384
   * as calls continue) in one pass, two Threefry blocks per value with WebAssembly SIMD when
   * available, and later calls read them as the counter reaches them. The values are exactly
   * those of unbuffered draws, and the counter advances by one per call as usual.
   *
   * @param size output shape (a length or an array); omitted (or null) for one value as a JS number.
   * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
   * @throws TypeError on a batch from `split` (index or map over it), or for a bad `size`;
   *   RangeError for `'float64'` in x32 mode.
   * @example
   * const rng = statefulRng(1701);
   * rng.random();       // a number in [0, 1)
   * rng.random([2, 3]); // → Tensor float64 [2, 3]
   * configure({ x64: false });
   * statefulRng(1701).random(5).toArray(); // [0.09609699, 0.26730824, 0.5619041, 0.24421775, 0.7715055] (float32)
   */
  random(size?: null, options?: FloatOptions): number;
  random(size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  random(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  random(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    // Fast path, kept small so that V8 inlines it: the buffer holds default-dtype values for
    // the current modes and has the value of the current counter.
    const b = this.#uniforms;
    if (size === undefined && options === undefined && b.isDefault && b.modes === getModes()) {
      const i = this.count - b.start;
      if (i < b.len) {
        this.count++;
        return b.vals[i]!;
      }
    }
    return this.#random(size, options);
  }

  #random(size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
    const fn = 'Generator.random';
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['dtype']);
    if (s === undefined) return this.#unit(fn, opts.dtype);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, opts.dtype, modes);
    return new Tensor<FloatDType>(this.draw(fn, (k) => uniformUnit(k, sizeOf(s), dtype, modes)), s, dtype);
  }

  /**
   * Uniform floats in [low, high) (NumPy's `Generator.uniform`, argument order `low, high,
   * size`): JAX's `random.uniform(key(), shape, minval=low, maxval=high)`, i.e.
   * `max(low, f·(high − low) + low)` with f the unit uniform, rounded as XLA does. `low` and
   * `high` broadcast (to `size` when given). Unlike NumPy, `low > high` is an error.
   *
   * @param low lower bound, included (default 0): a number, nested arrays or a Tensor.
   * @param high upper bound, excluded (default 1).
   * @param size output shape; omitted for the parameters' broadcast shape (a JS number when scalar).
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws RangeError for a non-finite bound, `low > high`, or shapes that do not broadcast.
   * @example
   * rng.uniform();                 // a number in [0, 1)
   * rng.uniform(-1, 1, [3]);       // → Tensor float64 [3]
   * rng.uniform([0, 10], 20);      // → Tensor float64 [2]
   */
  uniform(low?: number, high?: number, size?: null, options?: FloatOptions): number;
  uniform(low: ParamLike | undefined, high: ParamLike | undefined, size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  uniform(low?: ParamLike, high?: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  uniform(low: ParamLike = 0, high: ParamLike = 1, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    if (size === undefined && options === undefined && typeof low === 'number' && typeof high === 'number' && low <= high &&
        low > -Infinity && high < Infinity) {
      // Scalar fast path: the buffered unit uniform, scaled as JAX scales it.
      const modes = getModes();
      const b = this.#uniforms;
      const i = this.count - b.start;
      let f: number;
      if (b.isDefault && b.modes === modes && i < b.len) {
        this.count++;
        f = b.vals[i]!;
      } else {
        f = this.#unit('Generator.uniform', undefined);
      }
      return low === 0 && high === 1 ? f : scaleUnit(f, low, high, modes.x64 ? 'float64' : 'float32');
    }
    return this.#uniform(low, high, size, options);
  }

  #uniform(low: ParamLike, high: ParamLike, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
    const fn = 'Generator.uniform';
    if ((size === undefined || size === null) && typeof low === 'number' && typeof high === 'number') {
      if (!Number.isFinite(low)) fail('range', fn, 'low', 'must be finite', low);
      if (!Number.isFinite(high)) fail('range', fn, 'high', 'must be finite', high);
      if (low > high) fail('range', fn, 'low', `must not exceed \`high\` (${high})`, low);
      const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, getModes());
      const f = this.#unit(fn, dtype);
      return low === 0 && high === 1 ? f : scaleUnit(f, low, high, dtype);
    }
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['dtype']);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, opts.dtype, modes);
    const lt = param(fn, 'low', low, dtype);
    const ht = param(fn, 'high', high, dtype);
    constrain(fn, 'low', lt, finite, 'must be finite');
    constrain(fn, 'high', ht, finite, 'must be finite');
    const shape = outputShape(fn, s, [['low', lt], ['high', ht]]);
    const n = sizeOf(shape);
    const lo = values(fn, 'low', lt, shape), hi = values(fn, 'high', ht, shape);
    const lstep = lo.length === 1 ? 0 : 1, hstep = hi.length === 1 ? 0 : 1;
    for (let i = 0; i < n; i++) {
      if (lo[i * lstep]! > hi[i * hstep]!) fail('range', fn, 'low', `must not exceed \`high\` (${hi[i * hstep]})`, lo[i * lstep]);
    }
    const out = this.draw(fn, (k) => uniformUnit(k, n, dtype, modes));
    for (let i = 0; i < n; i++) out[i] = scaleUnit(out[i]!, lo[i * lstep]!, hi[i * hstep]!, dtype);
    return result(new Tensor<FloatDType>(out, shape, dtype), s) as number | Tensor<FloatDType>;
  }

  /**
   * Normal (Gaussian) samples with mean `loc` and standard deviation `scale` (NumPy's
   * `Generator.normal`, argument order `loc, scale, size`): density
   * exp(−(x − loc)²/(2·scale²))/(scale·√(2π)) on ℝ. Computed as JAX's `StatefulPRNG.normal`:
   * `loc + scale·z` with z = `random.normal(key(), shape)`, the product and the sum each
   * rounded to the dtype. Scalar draws are buffered as `random()`'s are (the same values as
   * unbuffered draws).
   *
   * @param loc mean (default 0), finite.
   * @param scale standard deviation (default 1), finite and ≥ 0.
   * @param size output shape; omitted for the parameters' broadcast shape (a JS number when scalar).
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws RangeError for a negative or non-finite `scale`, a non-finite `loc`, or shapes that do not broadcast.
   * @example
   * rng.normal();              // a number
   * rng.normal(10, 2, [1000]); // → Tensor float64 [1000]
   */
  normal(loc?: number, scale?: number, size?: null, options?: FloatOptions): number;
  normal(loc: ParamLike | undefined, scale: ParamLike | undefined, size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  normal(loc?: ParamLike, scale?: ParamLike, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  normal(loc: ParamLike = 0, scale: ParamLike = 1, size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return this.normalDraw('Generator.normal', loc, scale, size, options);
  }

  /**
   * Standard normal samples (NumPy's `Generator.standard_normal`): `normal(0, 1, size, options)`.
   *
   * @param size output shape; omitted for one value as a JS number.
   * @param options.dtype float dtype (default float64 in x64 mode, float32 in x32 mode).
   * @throws TypeError for a bad `size`, or on a batch.
   * @example
   * rng.standardNormal();                          // a number
   * rng.standardNormal([2, 2], { dtype: 'float32' }); // → Tensor float32 [2, 2]
   */
  standardNormal(size?: null, options?: FloatOptions): number;
  standardNormal(size: number | readonly number[], options?: FloatOptions): Tensor<FloatDType>;
  standardNormal(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType>;
  standardNormal(size?: SizeLike, options?: FloatOptions): number | Tensor<FloatDType> {
    return this.normalDraw('Generator.standardNormal', 0, 1, size, options);
  }

  private normalDraw(fn: string, loc: ParamLike, scale: ParamLike, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['dtype']);
    this.single(fn);
    const modes = getModes();
    const dtype = floatDtype(fn, opts.dtype, modes);
    if (s === undefined && typeof loc === 'number' && typeof scale === 'number') {
      if (!Number.isFinite(loc)) fail('range', fn, 'loc', 'must be finite', loc);
      if (!(scale >= 0 && scale < Infinity)) fail('range', fn, 'scale', 'must be finite and non-negative', scale);
      const z = this.#normalScalar(fn, dtype, modes);
      if (loc === 0 && scale === 1) return z;
      return dtype === 'float64' ? loc + scale * z : Math.fround(Math.fround(loc) + Math.fround(Math.fround(scale) * z));
    }
    const lt = param(fn, 'loc', loc, dtype);
    const st = param(fn, 'scale', scale, dtype);
    constrain(fn, 'loc', lt, finite, 'must be finite');
    constrain(fn, 'scale', st, nonNegative, 'must be finite and non-negative');
    const shape = outputShape(fn, s, [['loc', lt], ['scale', st]]);
    const z = this.draw(fn, (k) => normalData(k, sizeOf(shape), dtype, modes));
    const unit = lt.size === 1 && st.size === 1 && lt.data[0] === 0 && st.data[0] === 1;
    if (!unit) affine(z, values(fn, 'loc', lt, shape), values(fn, 'scale', st, shape));
    return result(new Tensor<FloatDType>(z, shape, dtype), s) as number | Tensor<FloatDType>;
  }

  /**
   * Uniform random integers in [low, high), or [low, high] with `endpoint: true` (NumPy's
   * `Generator.integers`, argument order `low, high, size`; with `high` omitted the range is
   * [0, low)). The values are JAX's `random.randint(key(), shape, low, high, dtype)`, bit for bit.
   * Bounds may be arrays (they broadcast, to `size` when given). As in NumPy, `low >= high`
   * and bounds outside the dtype are errors (JAX would return `low`, or clip).
   *
   * @param low lowest value (or the exclusive upper bound when `high` is omitted): a number,
   *   bigint, nested arrays of them or an integer Tensor.
   * @param high upper bound, excluded unless `endpoint` (omitted or null: see `low`).
   * @param size output shape; omitted for the bounds' broadcast shape (a JS scalar when both are
   *   scalars: a bigint for 64-bit dtypes, a number otherwise).
   * @param options.dtype integer dtype: default `'int64'` in x64 mode, `'int32'` in x32 mode.
   * @param options.endpoint include `high` (default false).
   * @throws TypeError for non-integer bounds; RangeError for `low >= high` (`low > high` with
   *   `endpoint`), bounds outside the dtype, or a 64-bit dtype in x32 mode.
   * @example
   * rng.integers(10);                        // 0n .. 9n in x64 mode (int64), 0 .. 9 in x32
   * rng.integers(1, 7, [5], { dtype: 'int32' }); // → Tensor int32 [5], dice rolls
   * rng.integers(1, 6, null, { endpoint: true, dtype: 'int32' }); // a number in 1..6
   */
  integers(low: number | bigint, high?: number | bigint | null, size?: null, options?: IntegersOptions): number | bigint;
  integers(low: IntLike, high: IntLike | null | undefined, size: number | readonly number[], options?: IntegersOptions): Tensor<IntDType>;
  integers(low: IntLike, high?: IntLike | null, size?: SizeLike, options?: IntegersOptions): number | bigint | Tensor<IntDType>;
  integers(low: IntLike, high?: IntLike | null, size?: SizeLike, options?: IntegersOptions): number | bigint | Tensor<IntDType> {
    const fn = 'Generator.integers';
    const s = checkSize(fn, size);
    const opts = checkOptions(fn, options, ['dtype', 'endpoint']);
    this.single(fn);
    const modes = getModes();
    const dtype = checkIntDtype(fn, opts.dtype, modes);
    const endpoint = opts.endpoint === undefined ? false : checkBoolean(fn, 'endpoint', opts.endpoint);
    let lo: IntParam, hi: IntParam;
    if (high === undefined || high === null) {
      lo = { shape: [], values: [0n] };
      hi = intParam(fn, 'low', low);
    } else {
      lo = intParam(fn, 'low', low);
      hi = intParam(fn, 'high', high);
    }
    if (endpoint) hi = { shape: hi.shape, values: hi.values.map((v) => v + 1n) };
    checkRange(fn, lo, hi, dtype, endpoint);
    const shape = outputShape(fn, s, [['low', lo], ['high', hi]]);
    const n = sizeOf(shape);
    let data;
    if (lo.values.length === 1 && hi.values.length === 1) {
      checkOrder(fn, lo.values, hi.values, endpoint);
      const l = lo.values[0]!, h = hi.values[0]!;
      data = this.draw(fn, (k) => randintData(k, n, l, h, dtype, modes));
    } else {
      const los = broadcastInts(lo, shape), his = broadcastInts(hi, shape);
      checkOrder(fn, los, his, endpoint);
      data = this.draw(fn, (k: KeyArray) => randintPerElement(k, los, his, dtype, modes));
    }
    return result(new Tensor<IntDType>(data as Tensor<IntDType>['data'], shape, dtype), s) as number | bigint | Tensor<IntDType>;
  }

  /**
   * `length` random bytes (NumPy's `Generator.bytes`, which returns Python `bytes`): JAX's
   * `random.bits(key(), [length], dtype=uint8)` as a Uint8Array.
   *
   * @throws TypeError/RangeError when `length` is not a non-negative integer at most `MAX_SIZE` (2^28).
   * @example
   * rng.bytes(16); // Uint8Array(16)
   */
  bytes(length: number): Uint8Array {
    const fn = 'Generator.bytes';
    checkCount(fn, 'length', length);
    this.single(fn);
    return this.draw(fn, (k, modes) => {
      const words = k.impl.bits(k.data, 8, length, modes);
      return words instanceof Uint8Array ? words : Uint8Array.from(words);
    });
  }
}
