/**
 * `tf.random.stateless_normal` and `tf.random.stateless_truncated_normal` on CPU: TF's Box–Muller
 * on Philox words (reference/philox.md §3.4), then `rnd · stddev + mean` in the dtype.
 */
import { checkOneOf, checkOptions, checkShape, fail } from '../../checks.js';
import { Tensor } from '../../tensor/tensor.js';
import { floatParam, ftz32, ftz64, halfFormat, mulAdd, TF_FLOAT_DTYPES, type TfFloatDType, type TfStorage } from './common.js';
import { logCR, sinCos, sinCosCR } from './dd-math.js';
import { forEachBlockChunk, WordStream } from './fill.js';
import { checkSeedOrState, type KeyCounter, type PhiloxState, type Seed } from './seed.js';
import { detCos, detLog, detSin } from '../../math/index.js';
import { sizeOf } from '../../tensor/shapes.js';

export interface NormalOptions<D extends TfFloatDType = TfFloatDType> {
  /** Mean, default 0 (rounded to the dtype, as TF converts it). */
  readonly mean?: number;
  /** Standard deviation, default 1 (rounded to the dtype); must be >= 0. */
  readonly stddev?: number;
  /** Output dtype, default `'float32'`; float16/bfloat16 come back as uint16 bit patterns. */
  readonly dtype?: D;
}

const TWO_POW_M23 = 2 ** -23;
const TWO_POW_M52 = 2 ** -52;
const TWO_POW_32 = 4294967296;
/** TF's `2.0f * M_PI`: a double expression (the float promotes to double). */
const TWO_PI = 2 * Math.PI;
const EPS32 = Math.fround(1e-7);
const EPS64 = 1e-7;
/** Outputs of one Box–Muller call: f0 then f1. Module scratch, no allocation per pair. */
const pair = new Float64Array(2);

/**
 * TF's `BoxMullerFloat(x0, x1)`: u1 = 23-bit uniform of x0 clamped below at 1e-7f,
 * v1 = float(2π·u(x1)), u2 = sqrtf(−2·logf(u1)), outputs sinf(v1)·u2 and cosf(v1)·u2, every
 * step rounded to float32. libm calls are emulated by the double functions rounded to float32
 * (correctly rounded but for rare near-ties), so results can differ from glibc's in the last bit.
 */
function boxMullerFloat(x0: number, x1: number): void {
  let u1 = (x0 & 0x7fffff) * TWO_POW_M23;
  if (u1 < EPS32) u1 = EPS32;
  const v1 = Math.fround(TWO_PI * ((x1 & 0x7fffff) * TWO_POW_M23));
  const u2 = Math.fround(Math.sqrt(-2 * Math.fround(detLog(u1))));
  pair[0] = Math.fround(Math.fround(detSin(v1)) * u2);
  pair[1] = Math.fround(Math.fround(detCos(v1)) * u2);
}

/**
 * TF's `BoxMullerDouble(x0, x1, x2, x3)`: the same in double, 52-bit uniforms from word pairs.
 * glibc's `log` and `sincos` are correctly rounded almost always, so we use correctly rounded
 * double-double versions (dd-math.ts) rather than Math.log/sin/cos, which are not.
 */
function boxMullerDouble(x0: number, x1: number, x2: number, x3: number): void {
  let u1 = ((x0 & 0xfffff) * TWO_POW_32 + x1) * TWO_POW_M52;
  if (u1 < EPS64) u1 = EPS64;
  const v1 = TWO_PI * (((x2 & 0xfffff) * TWO_POW_32 + x3) * TWO_POW_M52);
  const u2 = Math.sqrt(-2 * logCR(u1));
  sinCosCR(v1);
  pair[0] = sinCos[0]! * u2;
  pair[1] = sinCos[1]! * u2;
}

interface Parsed {
  readonly shape: number[];
  readonly kc: KeyCounter;
  readonly dtype: TfFloatDType;
  readonly mean: number;
  readonly stddev: number;
}

function parse(fn: string, shape: unknown, seed: unknown, options: NormalOptions | undefined): Parsed {
  const s = checkShape(fn, 'shape', shape);
  const kc = checkSeedOrState(fn, 'seed', seed);
  const opts = checkOptions(fn, options, ['mean', 'stddev', 'dtype']);
  const dtype = checkOneOf(fn, 'dtype', opts.dtype ?? 'float32', TF_FLOAT_DTYPES);
  const mean = floatParam(fn, 'mean', opts.mean ?? 0, dtype);
  const stddev = floatParam(fn, 'stddev', opts.stddev ?? 1, dtype);
  if (stddev < 0) fail('range', fn, 'stddev', 'must be non-negative', opts.stddev);
  return { shape: s, kc, dtype, mean, stddev };
}

/** Writes standard-normal value `x` (float32 for 16-bit dtypes), scaled TF's way, at out[i]. */
type Store = (i: number, x: number) => void;

function makeStore(out: Float32Array | Float64Array | Uint16Array, dtype: TfFloatDType, mean: number, stddev: number): Store {
  // TF's CPU kernels run with FTZ/DAZ: subnormal parameters act as zero, subnormal results flush.
  if (dtype === 'float64') {
    const s = ftz64(stddev), m = ftz64(mean);
    return (i, x) => { out[i] = ftz64(ftz64(x * s) + m); };
  }
  if (dtype === 'float32') {
    const s = ftz32(stddev), m = ftz32(mean);
    return (i, x) => { out[i] = ftz32(Math.fround(ftz32(Math.fround(x * s)) + m)); };
  }
  const h = halfFormat(dtype);
  // x·1 + 0 is x itself, except that −0 + 0 = +0 (a tiny negative draw rounds to −0 in 16 bits).
  if (mean === 0 && stddev === 1) return (i, x) => { const b = h.round(x); out[i] = b === 0x8000 ? 0 : b; };
  return (i, x) => { out[i] = h.round(mulAdd(h.toNumber(h.round(x)), stddev, mean, dtype)); };
}

function allocateOut(dtype: TfFloatDType, n: number): Float32Array | Float64Array | Uint16Array {
  return dtype === 'float64' ? new Float64Array(n) : dtype === 'float32' ? new Float32Array(n) : new Uint16Array(n);
}

/** Standard normals (before scaling), TF's fill layout: 4 per block (2 for float64). */
function normalData(p: Parsed): Float32Array | Float64Array | Uint16Array {
  const n = sizeOf(p.shape);
  const out = allocateOut(p.dtype, n);
  const store = makeStore(out, p.dtype, p.mean, p.stddev);
  if (p.dtype === 'float64') {
    forEachBlockChunk(p.kc, Math.ceil(n / 2), (w, first, count) => {
      for (let j = 0; j < count; j++) {
        boxMullerDouble(w[4 * j]!, w[4 * j + 1]!, w[4 * j + 2]!, w[4 * j + 3]!);
        const o = 2 * (first + j);
        store(o, pair[0]!);
        if (o + 1 < n) store(o + 1, pair[1]!);
      }
    });
  } else {
    forEachBlockChunk(p.kc, Math.ceil(n / 4), (w, first, count) => {
      for (let j = 0; j < 2 * count; j++) {
        boxMullerFloat(w[2 * j]!, w[2 * j + 1]!);
        const o = 4 * first + 2 * j;
        if (o < n) store(o, pair[0]!);
        if (o + 1 < n) store(o + 1, pair[1]!);
      }
    });
  }
  return out;
}

/**
 * Truncated standard normals: output group `g` (4 values, 2 for float64) reads words one at a
 * time from block `C + g·256` (`C + g·128` for float64) on and keeps Box–Muller values with
 * |x| < 2 (checked in float32/float64, before any 16-bit rounding) until the group is full.
 */
function truncatedData(p: Parsed): Float32Array | Float64Array | Uint16Array {
  const n = sizeOf(p.shape);
  const out = allocateOut(p.dtype, n);
  const store = makeStore(out, p.dtype, p.mean, p.stddev);
  const wide = p.dtype === 'float64';
  const group = wide ? 2 : 4;
  const skip = wide ? 128 : 256; // group · 256 reserved samples / 4 words per block
  const gen = new WordStream(p.kc);
  const nGroups = Math.ceil(n / group);
  for (let g = 0; g < nGroups; g++) {
    gen.reset(g * skip);
    let o = g * group;
    const end = Math.min(o + group, n);
    let filled = 0;
    while (filled < group) {
      if (wide) boxMullerDouble(gen.next(), gen.next(), gen.next(), gen.next());
      else boxMullerFloat(gen.next(), gen.next());
      for (let k = 0; k < 2 && filled < group; k++) {
        const x = pair[k]!;
        if (Math.abs(x) < 2) {
          if (o < end) store(o++, x);
          filled++;
        }
      }
    }
  }
  return out;
}

/**
 * Normal values exactly as TensorFlow's `tf.random.stateless_normal` draws them on CPU: Philox
 * from TF's scrambled `[s0, s1]` seed, Box–Muller on word pairs (float32 math for float32,
 * float16 and bfloat16, then rounded; double math on word quadruples for float64), then
 * `rnd · stddev + mean` as two ops in the dtype. Density exp(−(x−mean)²/(2·stddev²)) /
 * (stddev·√(2π)) on ℝ. Agrees with TF to within 2 ulp (TF uses glibc's logf/sincosf, we use
 * Math.log/sin/cos rounded to the dtype; most values are identical).
 *
 * float16 and bfloat16 results are `uint16` Tensors of bit patterns (Node 20 has no
 * `Float16Array`); convert them with `float16BitsToNumbers` / `bfloat16BitsToNumbers`.
 *
 * @param shape Output shape: a non-negative integer or an array of them.
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`), or a Philox `{ key, counter }` used as is.
 * @param options `{ mean = 0, stddev = 1, dtype = 'float32' }`.
 * @throws {TypeError} for a malformed `shape`, `seed`, `mean`, `stddev` or `dtype`.
 * @throws {RangeError} for a negative or non-finite `stddev`, a non-finite `mean`, a parameter
 *   that overflows the dtype, an unknown `dtype`, or a seed of the wrong length or outside int64.
 * @example
 * statelessNormal([3], [1105988140, 1738052849]); // → Tensor float32 [3]: -0.59835213, -0.9578608, 0.9002807
 * statelessNormal([2], [1, 2], { dtype: 'float64', mean: 10, stddev: 2 }); // → Tensor float64 [2]
 */
export function statelessNormal<D extends TfFloatDType = 'float32'>(
  shape: number | readonly number[], seed: Seed | PhiloxState, options?: NormalOptions<D>,
): Tensor<TfStorage[D]> {
  const p = parse('tensorflow.statelessNormal', shape, seed, options);
  return new Tensor(normalData(p), p.shape, storage(p.dtype)) as Tensor<TfStorage[D]>;
}

/**
 * Truncated normal values exactly as TensorFlow's `tf.random.stateless_truncated_normal` draws
 * them on CPU: standard normals (TF's Box–Muller) with |x| >= 2 dropped and redrawn, then
 * `rnd · stddev + mean` in the dtype. Density ∝ exp(−z²/2) on |z| < 2, z = (x − mean)/stddev.
 * Each group of 4 outputs (2 for float64) draws from its own region of 256 (128) Philox blocks,
 * as TF does, so values do not depend on the shape beyond their flat index. Within 2 ulp of TF
 * (see `statelessNormal`); a value within an ulp of ±2 may rarely be kept by one and redrawn by
 * the other, shifting the rest of its group.
 *
 * @param shape Output shape: a non-negative integer or an array of them.
 * @param seed TF stateless seed `[s0, s1]` (see `Seed`), or a Philox `{ key, counter }` used as is.
 * @param options `{ mean = 0, stddev = 1, dtype = 'float32' }`.
 * @throws {TypeError} for a malformed `shape`, `seed`, `mean`, `stddev` or `dtype`.
 * @throws {RangeError} as for `statelessNormal`.
 * @example
 * statelessTruncatedNormal([2, 3], [1, 2]);                  // → Tensor float32 [2, 3], all in (−2, 2)
 * statelessTruncatedNormal([4], [7, 8], { dtype: 'float64', mean: 1, stddev: 0.5 }); // in (0, 2)
 */
export function statelessTruncatedNormal<D extends TfFloatDType = 'float32'>(
  shape: number | readonly number[], seed: Seed | PhiloxState, options?: NormalOptions<D>,
): Tensor<TfStorage[D]> {
  const p = parse('tensorflow.statelessTruncatedNormal', shape, seed, options);
  return new Tensor(truncatedData(p), p.shape, storage(p.dtype)) as Tensor<TfStorage[D]>;
}

function storage(dtype: TfFloatDType): TfStorage[TfFloatDType] {
  return dtype === 'float16' || dtype === 'bfloat16' ? 'uint16' : dtype;
}
