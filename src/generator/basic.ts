/**
 * The Generator's uniform, normal and integer draws (the methods JAX's `StatefulPRNG` has:
 * `random`, `uniform`, `normal`, `integers`), plus `standardNormal` and `bytes`, and the
 * buffered fast paths for scalar `random()`, `uniform()`, `normal()` and `standardNormal()`.
 * Each function takes the generator's `State`; the `Generator` methods call them.
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
import { draw, single, type State } from './core.js';
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

/**
 * The scalar unit uniform of the next key, `random.uniform(key(), [], { dtype })`, from the
 * buffer (refilled from the current counter on when it runs out or the modes or dtype change).
 */
function unit(st: State, fn: string, dtypeOption: unknown): number {
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, dtypeOption, modes);
  if (!st.impl.foldInUniforms) return draw(st, fn, (k) => uniformUnit(k, 1, dtype, modes)[0]!);
  const c = st.count;
  const f = st.uniforms.get(st.impl, st.words, dtype, modes, c);
  st.count = c + 1;
  return f;
}

/**
 * The scalar standard normal of the next key, `random.normal(key(), [], { dtype })`, from a
 * buffer like `random()`'s.
 */
function normalScalar(st: State, fn: string, dtype: FloatDType, modes: Modes): number {
  if (!st.impl.foldInUniforms) return draw(st, fn, (k) => normalData(k, 1, dtype, modes)[0]!);
  const c = st.count;
  const z = (st.normals ??= new ScalarBuffer(true)).get(st.impl, st.words, dtype, modes, c);
  st.count = c + 1;
  return z;
}

/**
 * `Generator.random`. The fast path, kept small so that V8 inlines it: the buffer holds
 * default-dtype values for the current modes and has the value of the current counter.
 */
export function random(st: State, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
  const b = st.uniforms;
  if (size === undefined && options === undefined && b.isDefault && b.modes === getModes()) {
    const i = st.count - b.start;
    if (i < b.len) {
      st.count++;
      return b.vals[i]!;
    }
  }
  return randomSlow(st, size, options);
}

function randomSlow(st: State, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
  const fn = 'Generator.random';
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['dtype']);
  if (s === undefined) return unit(st, fn, opts.dtype);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  return new Tensor<FloatDType>(draw(st, fn, (k) => uniformUnit(k, sizeOf(s), dtype, modes)), s, dtype);
}

/** `Generator.uniform`, with a fast path for scalar bounds: the buffered unit uniform, scaled as JAX scales it. */
export function uniform(st: State, low: ParamLike, high: ParamLike, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
  if (size === undefined && options === undefined && typeof low === 'number' && typeof high === 'number' && low <= high &&
      low > -Infinity && high < Infinity) {
    const modes = getModes();
    const b = st.uniforms;
    const i = st.count - b.start;
    let f: number;
    if (b.isDefault && b.modes === modes && i < b.len) {
      st.count++;
      f = b.vals[i]!;
    } else {
      f = unit(st, 'Generator.uniform', undefined);
    }
    return low === 0 && high === 1 ? f : scaleUnit(f, low, high, modes.x64 ? 'float64' : 'float32');
  }
  return uniformSlow(st, low, high, size, options);
}

function uniformSlow(st: State, low: ParamLike, high: ParamLike, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
  const fn = 'Generator.uniform';
  if ((size === undefined || size === null) && typeof low === 'number' && typeof high === 'number') {
    if (!Number.isFinite(low)) fail('range', fn, 'low', 'must be finite', low);
    if (!Number.isFinite(high)) fail('range', fn, 'high', 'must be finite', high);
    if (low > high) fail('range', fn, 'low', `must not exceed \`high\` (${high})`, low);
    const dtype = floatDtype(fn, checkOptions(fn, options, ['dtype']).dtype, getModes());
    const f = unit(st, fn, dtype);
    return low === 0 && high === 1 ? f : scaleUnit(f, low, high, dtype);
  }
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['dtype']);
  single(st, fn);
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
  const out = draw(st, fn, (k) => uniformUnit(k, n, dtype, modes));
  for (let i = 0; i < n; i++) out[i] = scaleUnit(out[i]!, lo[i * lstep]!, hi[i * hstep]!, dtype);
  return result(new Tensor<FloatDType>(out, shape, dtype), s) as number | Tensor<FloatDType>;
}

/** `Generator.normal` and `Generator.standardNormal` (as `fn`): `loc + scale·z`, scalar draws buffered. */
export function normal(st: State, fn: string, loc: ParamLike, scale: ParamLike, size: SizeLike, options: FloatOptions | undefined): number | Tensor<FloatDType> {
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['dtype']);
  single(st, fn);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  if (s === undefined && typeof loc === 'number' && typeof scale === 'number') {
    if (!Number.isFinite(loc)) fail('range', fn, 'loc', 'must be finite', loc);
    if (!(scale >= 0 && scale < Infinity)) fail('range', fn, 'scale', 'must be finite and non-negative', scale);
    const z = normalScalar(st, fn, dtype, modes);
    if (loc === 0 && scale === 1) return z;
    return dtype === 'float64' ? loc + scale * z : Math.fround(Math.fround(loc) + Math.fround(Math.fround(scale) * z));
  }
  const lt = param(fn, 'loc', loc, dtype);
  const sct = param(fn, 'scale', scale, dtype);
  constrain(fn, 'loc', lt, finite, 'must be finite');
  constrain(fn, 'scale', sct, nonNegative, 'must be finite and non-negative');
  const shape = outputShape(fn, s, [['loc', lt], ['scale', sct]]);
  const z = draw(st, fn, (k) => normalData(k, sizeOf(shape), dtype, modes));
  const isUnit = lt.size === 1 && sct.size === 1 && lt.data[0] === 0 && sct.data[0] === 1;
  if (!isUnit) affine(z, values(fn, 'loc', lt, shape), values(fn, 'scale', sct, shape));
  return result(new Tensor<FloatDType>(z, shape, dtype), s) as number | Tensor<FloatDType>;
}

/** `Generator.integers`: NumPy's checks, then JAX's `randint` (per element when the bounds are arrays). */
export function integers(
  st: State, low: IntLike, high: IntLike | null | undefined, size: SizeLike, options: IntegersOptions | undefined,
): number | bigint | Tensor<IntDType> {
  const fn = 'Generator.integers';
  const s = checkSize(fn, size);
  const opts = checkOptions(fn, options, ['dtype', 'endpoint']);
  single(st, fn);
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
    data = draw(st, fn, (k) => randintData(k, n, l, h, dtype, modes));
  } else {
    const los = broadcastInts(lo, shape), his = broadcastInts(hi, shape);
    checkOrder(fn, los, his, endpoint);
    data = draw(st, fn, (k: KeyArray) => randintPerElement(k, los, his, dtype, modes));
  }
  return result(new Tensor<IntDType>(data as Tensor<IntDType>['data'], shape, dtype), s) as number | bigint | Tensor<IntDType>;
}

/** `Generator.bytes`: `random.bits(key(), [length], dtype=uint8)` as a Uint8Array. */
export function bytes(st: State, length: number): Uint8Array {
  const fn = 'Generator.bytes';
  checkCount(fn, 'length', length);
  single(st, fn);
  return draw(st, fn, (k, modes) => {
    const words = k.impl.bits(k.data, 8, length, modes);
    return words instanceof Uint8Array ? words : Uint8Array.from(words);
  });
}
