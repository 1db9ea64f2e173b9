/**
 * OpenVINO `RandomUniform-8` (alignment `tensorflow`, the default), bit-exact with OpenVINO's
 * reference implementation (`ov::reference::random_uniform`, which the template plugin runs) on
 * x86-64, for the first execution of the op. See `shared/reference/philox.md` §2 and §6.
 *
 * - Philox-4x32-10 with key `[lo32(globalSeed), hi32(globalSeed)]` and 128-bit counter
 *   `[lo32(n), hi32(n), lo32(opSeed), hi32(opSeed)]`, `n` = block index 0, 1, 2, ...
 * - Layout over the flat row-major output: f16, bf16, f32 and i32 take one word each (4 values
 *   per block, in word order); f64 and i64 take a pair of words (2 values per block). Unused words
 *   of the last block are dropped, so the shape does not matter, only the element count.
 * - Conversions: f32 uses the low 23 bits, f16 the low 10, bf16 the low 7, f64 20 + 32 bits (first
 *   word high); integers reduce modulo `maxval − minval` (i64: first word LOW).
 */
import { checkBoolean, checkNonNegativeInteger, checkOneOf, checkShape, fail } from '../checks.js';
import { philoxFill } from '../prng/wasm.js';
import { fma32, fma64 } from '../random/float.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { bfloat16ToNumber, float16ToNumber, roundToBfloat16Bits, roundToFloat16Bits, type Bf16Rounding } from './half.js';

export {
  bfloat16BitsToNumbers, bfloat16FromNumber, bfloat16ToNumber, float16BitsToNumbers, float16FromNumber, float16ToNumber,
  type Bf16Rounding,
} from './half.js';

const FN = 'openvino.randomUniform';

/** OpenVINO element types RandomUniform-8 can produce. */
export type OutputType = 'f16' | 'bf16' | 'f32' | 'f64' | 'i32' | 'i64';
export const OUTPUT_TYPES: readonly OutputType[] = ['f16', 'bf16', 'f32', 'f64', 'i32', 'i64'];

/** The stochax dtype each output type comes back as (f16 and bf16 as raw uint16 bit patterns). */
export interface OutputDTypes {
  f16: 'uint16'; bf16: 'uint16'; f32: 'float32'; f64: 'float64'; i32: 'int32'; i64: 'int64';
}

export interface RandomUniformArgs<T extends OutputType = OutputType> {
  /** Output shape: non-negative integers (a plain integer `n` means `[n]`). */
  shape: readonly number[] | number;
  /** `'f16' | 'bf16' | 'f32' | 'f64' | 'i32' | 'i64'`. */
  outputType: T;
  /** Lower bound, included. Default 0 for float types; required for integer types. */
  minval?: number | bigint;
  /** Upper bound, excluded. Default 1 for float types; required for integer types. */
  maxval?: number | bigint;
  /** Philox key, uint64 (number below 2^53 or bigint below 2^64). Default 0. */
  globalSeed?: number | bigint;
  /** High half of the Philox counter, uint64. Default 0. Both seeds 0 means nondeterministic. */
  opSeed?: number | bigint;
  /** f32/f64 only: compute `u·(maxval − minval) + minval` with one rounding (default false). */
  fma?: boolean;
  /** bf16 only: `'openvino'` (default, the reference) or `'rne'` (TensorFlow's values). */
  bf16Rounding?: Bf16Rounding;
}

const KEYS = new Set(['shape', 'outputType', 'minval', 'maxval', 'globalSeed', 'opSeed', 'fma', 'bf16Rounding']);
const TWO_POW_32 = 2 ** 32;
const TWO_POW_M23 = 2 ** -23;
const TWO_POW_M52 = 2 ** -52;
const CHUNK_BLOCKS = 4096;

// ---------------------------------------------------------------------------------------------
// Philox stream

/** Philox words for blocks `first .. first+count−1`, in chunks, handed to `visit`. */
function forEachChunk(
  key: readonly number[], op: readonly number[], nBlocks: number,
  visit: (words: Uint32Array, firstBlock: number, count: number) => void,
): void {
  const scratch = new Uint32Array(4 * Math.min(nBlocks, CHUNK_BLOCKS));
  const counter = [0, 0, op[0]!, op[1]!];
  for (let first = 0; first < nBlocks; first += CHUNK_BLOCKS) {
    const count = Math.min(CHUNK_BLOCKS, nBlocks - first);
    counter[0] = first % TWO_POW_32;
    counter[1] = Math.floor(first / TWO_POW_32);
    philoxFill(key, counter, count, scratch);
    visit(scratch, first, count);
  }
}

function seedWords(seed: bigint): [number, number] {
  return [Number(seed & 0xffffffffn), Number(seed >> 32n)];
}

/**
 * The raw Philox-4x32-10 words RandomUniform converts, for blocks `0 .. nBlocks−1`: block `n`
 * hashes counter `[lo32(n), hi32(n), lo32(opSeed), hi32(opSeed)]` under key
 * `[lo32(globalSeed), hi32(globalSeed)]` and fills `out[4n .. 4n+3]`. Unlike `randomUniform`,
 * both seeds 0 are used as they are (no entropy is drawn).
 *
 * @example
 * philoxWords(150, 10, 1); // Uint32Array [0xe059be6b, 0x7aa7173a, 0x96f83b54, 0xd5790989]
 */
export function philoxWords(globalSeed: number | bigint, opSeed: number | bigint, nBlocks: number): Uint32Array {
  const fn = 'openvino.philoxWords';
  const key = seedWords(checkSeed(fn, 'globalSeed', globalSeed));
  const op = seedWords(checkSeed(fn, 'opSeed', opSeed));
  const n = checkNonNegativeInteger(fn, 'nBlocks', nBlocks);
  if (n >= 2 ** 30) fail('range', fn, 'nBlocks', 'must be below 2^30', nBlocks);
  const out = new Uint32Array(4 * n);
  forEachChunk(key, op, n, (w, first, count) => out.set(w.subarray(0, 4 * count), 4 * first));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Argument checks

function checkSeed(fn: string, arg: string, x: unknown): bigint {
  if (typeof x === 'bigint') {
    if (x < 0n || x >= 1n << 64n) fail('range', fn, arg, 'must be a uint64, an integer in [0, 2^64)', x);
    return x;
  }
  if (typeof x !== 'number' || !Number.isInteger(x)) fail('type', fn, arg, 'must be a non-negative integer (number or bigint)', x);
  if (x < 0) fail('range', fn, arg, 'must be a uint64, an integer in [0, 2^64)', x);
  if (!Number.isSafeInteger(x)) fail('range', fn, arg, 'must be below 2^53 when given as a number; pass a bigint', x);
  return BigInt(x);
}

function checkFloatBound(arg: string, x: unknown): number {
  if (typeof x !== 'number') fail('type', FN, arg, 'must be a number for a float outputType', x);
  if (!Number.isFinite(x)) fail('range', FN, arg, 'must be finite', x);
  return x;
}

function checkIntBound(arg: string, x: unknown, bits: 32 | 64): bigint {
  if (x === undefined) fail('type', FN, arg, `is required for outputType 'i${bits}'`, x);
  if (typeof x !== 'bigint' && (typeof x !== 'number' || !Number.isInteger(x))) {
    fail('type', FN, arg, 'must be an integer (number or bigint)', x);
  }
  if (typeof x === 'number' && !Number.isSafeInteger(x)) fail('range', FN, arg, 'must be below 2^53 in magnitude as a number; pass a bigint', x);
  const v = BigInt(x);
  const lim = 1n << BigInt(bits - 1);
  if (v < -lim || v >= lim) fail('range', FN, arg, `must be an int${bits}, in [-2^${bits - 1}, 2^${bits - 1})`, x);
  return v;
}

// ---------------------------------------------------------------------------------------------
// The op

/**
 * OpenVINO `RandomUniform-8` (TensorFlow alignment): `shape` values uniform in
 * `[minval, maxval)`, bit-exact with OpenVINO's reference implementation on x86-64. The spec
 * equates this mode with TensorFlow's `RandomUniform(seed=globalSeed, seed2=opSeed)` /
 * `RandomUniformInt`; OpenVINO's TF-generated unit-test values are reproduced exactly, bf16 with
 * `bf16Rounding: 'rne'` (TensorFlow rounds bf16 by IEEE RNE, OpenVINO by its own rule).
 *
 * Per element, with `u` the random fraction and each op rounded to the output type:
 * - `f32`: `u = (w & 0x7fffff)·2^-23`, `r = fl32(fl32(u·fl32(maxval − minval)) + minval)`: a
 *   separate multiply and add, as the reference computes it. OpenVINO's x86 JIT CPU plugin (AVX2,
 *   AVX-512), ARM builds and GPUs may fuse it into an FMA, which differs by about an ulp in about
 *   a third of values for ranges other than [0, 1); `fma: true` reproduces that single rounding.
 * - `f64`: `u` from 52 bits (first word's low 20 bits high), `r = u·(maxval − minval) + minval` in
 *   double, two roundings (or one with `fma: true`).
 * - `f16`: `u = (w & 0x3ff)/1024`; `d = fl16(maxval − minval)`, `p = fl16(u·d)`, `r = fl16(p +
 *   minval)`, each op in float32 then IEEE round-to-nearest-even to float16 (subnormals kept).
 * - `bf16`: `u = (w & 0x7f)/128`, then like f16 but each float32 result is rounded to bfloat16 by
 *   OpenVINO's rule (see `Bf16Rounding`), or by IEEE RNE with `bf16Rounding: 'rne'`.
 * - `i32`: `r = w mod (maxval − minval) + minval`; `i64`: the same with `v = w_second·2^32 + w_first`.
 *   Ranges up to the full int32/int64 span are allowed (the reduction is modular, so slightly
 *   biased, as in OpenVINO and TensorFlow).
 *
 * Float bounds are first converted to the output type as OpenVINO's constructors do: to float32
 * (`Math.fround`) for f32, f16 and bf16, then to float16 (RNE) or bfloat16 (by `bf16Rounding`).
 * After rounding, a non-default range can give exactly `maxval` in rare cases, as in OpenVINO.
 *
 * **Output dtypes.** f32 → `float32`, f64 → `float64`, i32 → `int32`, i64 → `int64`
 * (`BigInt64Array`). f16 and bf16 come back as `uint16` tensors holding the **bit patterns**
 * (JavaScript has no 16-bit float array in Node 20); decode them with `float16BitsToNumbers` /
 * `bfloat16BitsToNumbers` (or `float16ToNumber` / `bfloat16ToNumber` per element).
 *
 * **Devices.** OpenVINO's CPU plugin rewrites the op's type before running it: f64 runs the f32
 * algorithm (4 per block, 23 bits) and i64 the i32 one, then converts; f16 usually runs as f32.
 * Those CPU outputs are not the reference f64/i64/f16 streams; to match them, generate `'f32'` /
 * `'i32'` here and convert.
 *
 * **Seeds.** `globalSeed` and `opSeed` are uint64 (numbers below 2^53, or bigints below 2^64).
 * As the spec says, **both seeds 0 gives nondeterministic output**: OpenVINO then seeds from the
 * clock (`srand(time)`, `rand()`); here a 64-bit `globalSeed` is drawn from
 * `crypto.getRandomValues`, so each such call differs. Any nonzero pair (e.g. `globalSeed: 0,
 * opSeed: 7`) is reproducible. This is the op's first execution (`n` starts at 0); OpenVINO
 * advances a hidden state on later `infer()` calls of the same compiled model, differently
 * between versions, so only first executions are portable.
 *
 * @param args `{ shape, outputType, minval?, maxval?, globalSeed?, opSeed?, fma?, bf16Rounding? }`.
 * @returns A `Tensor` of `shape` (dtype per `outputType`, see above).
 * @throws {TypeError} An argument of the wrong kind (non-integer seed or shape entry, a bigint
 *   bound for a float type, a missing integer bound, an unknown option name).
 * @throws {RangeError} A negative or too-large seed, a negative dimension, an unknown
 *   `outputType`, `minval >= maxval` (also after rounding to the output type), a bound outside
 *   the output type, or a span `maxval − minval` that overflows it.
 *
 * @example
 * randomUniform({ shape: [3, 3], outputType: 'f32', globalSeed: 150, opSeed: 10 }).toArray();
 * // [[0.7011236, 0.30539632, 0.93931055], [0.9456035, 0.11694777, 0.50770056],
 * //  [0.5197197, 0.22727466, 0.991374]] (as float32)
 * const h = randomUniform({ shape: [4], outputType: 'f16', minval: -1.5, maxval: -1, globalSeed: 150, opSeed: 10 });
 * float16BitsToNumbers(h); // → Tensor float32 [4]: -1.197265625, -1.0966796875, -1.083984375, -1.30859375
 */
export function randomUniform<T extends OutputType>(args: RandomUniformArgs<T>): Tensor<OutputDTypes[T]> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) fail('type', FN, 'args', 'must be an object', args);
  for (const k of Object.keys(args)) {
    if (!KEYS.has(k)) fail('type', FN, k, `is not an option; expected one of ${[...KEYS].join(', ')}`, (args as unknown as Record<string, unknown>)[k]);
  }
  const type = checkOneOf(FN, 'outputType', args.outputType, OUTPUT_TYPES);
  const shape = checkShape(FN, 'shape', args.shape);
  let globalSeed = checkSeed(FN, 'globalSeed', args.globalSeed ?? 0);
  const opSeed = checkSeed(FN, 'opSeed', args.opSeed ?? 0);
  const fma = args.fma === undefined ? false : checkBoolean(FN, 'fma', args.fma);
  const bf16Rounding = args.bf16Rounding === undefined ? 'openvino'
    : checkOneOf(FN, 'bf16Rounding', args.bf16Rounding, ['openvino', 'rne'] as const);
  if (fma && type !== 'f32' && type !== 'f64') fail('range', FN, 'fma', "applies to outputType 'f32' and 'f64' only", fma);
  if (args.bf16Rounding !== undefined && type !== 'bf16') fail('range', FN, 'bf16Rounding', "applies to outputType 'bf16' only", args.bf16Rounding);

  const size = sizeOf(shape);
  let out: Float32Array | Float64Array | Int32Array | BigInt64Array | Uint16Array;
  if (type === 'i32' || type === 'i64') {
    const bits = type === 'i32' ? 32 : 64;
    const mn = checkIntBound('minval', args.minval, bits);
    const mx = checkIntBound('maxval', args.maxval, bits);
    if (mn >= mx) fail('range', FN, 'minval', `must be less than \`maxval\` (${mx})`, args.minval);
    if (globalSeed === 0n && opSeed === 0n) globalSeed = entropySeed();
    const key = seedWords(globalSeed), op = seedWords(opSeed);
    out = type === 'i32' ? int32Values(size, key, op, Number(mn), Number(mx - mn)) : int64Values(size, key, op, mn, mx - mn);
  } else {
    const mn = checkFloatBound('minval', args.minval ?? 0);
    const mx = checkFloatBound('maxval', args.maxval ?? 1);
    if (!(mn < mx)) fail('range', FN, 'minval', `must be less than \`maxval\` (${mx})`, mn);
    if (globalSeed === 0n && opSeed === 0n) globalSeed = entropySeed();
    const key = seedWords(globalSeed), op = seedWords(opSeed);
    if (type === 'f32') out = float32Values(size, key, op, mn, mx, fma);
    else if (type === 'f64') out = float64Values(size, key, op, mn, mx, fma);
    else if (type === 'f16') out = float16Values(size, key, op, mn, mx);
    else out = bfloat16Values(size, key, op, mn, mx, bf16Rounding);
  }
  return Tensor.fromData(out as never, shape, OUT_DTYPE[type] as OutputDTypes[T]);
}

const OUT_DTYPE: OutputDTypes = { f16: 'uint16', bf16: 'uint16', f32: 'float32', f64: 'float64', i32: 'int32', i64: 'int64' };

/** A fresh uint64 from the platform's cryptographic source (for the both-seeds-zero case). */
function entropySeed(): bigint {
  const w = new Uint32Array(2);
  globalThis.crypto.getRandomValues(w);
  return (BigInt(w[1]!) << 32n) | BigInt(w[0]!);
}

/** Checks that rounding kept the bounds finite, ordered, with a finite span. */
function checkRounded(type: OutputType, mn: number, mx: number, span: number): void {
  if (!Number.isFinite(mn)) fail('range', FN, 'minval', `overflows ${type}`, mn);
  if (!Number.isFinite(mx)) fail('range', FN, 'maxval', `overflows ${type}`, mx);
  if (!(mn < mx)) fail('range', FN, 'maxval', `rounds to ${mx} in ${type}, not above \`minval\` (${mn})`, mx);
  if (!Number.isFinite(span)) fail('range', FN, 'maxval', `minus \`minval\` overflows ${type}`, mx);
}

/** Four values per block, one word each: `write(word, index)` for every element. */
function perWord(size: number, key: readonly number[], op: readonly number[], write: (w: number, i: number) => void): void {
  forEachChunk(key, op, Math.ceil(size / 4), (w, first, count) => {
    const base = 4 * first, m = Math.min(4 * count, size - base);
    for (let j = 0; j < m; j++) write(w[j]!, base + j);
  });
}

/** Two values per block, a word pair each: `write(first, second, index)`. */
function perPair(size: number, key: readonly number[], op: readonly number[], write: (a: number, b: number, i: number) => void): void {
  forEachChunk(key, op, Math.ceil(size / 2), (w, first, count) => {
    const base = 2 * first, m = Math.min(2 * count, size - base);
    for (let j = 0; j < m; j++) write(w[2 * j]!, w[2 * j + 1]!, base + j);
  });
}

function float32Values(size: number, key: number[], op: number[], minval: number, maxval: number, fma: boolean): Float32Array {
  const mn = Math.fround(minval), mx = Math.fround(maxval);
  const d = Math.fround(mx - mn);
  checkRounded('f32', mn, mx, d);
  const out = new Float32Array(size);
  if (fma) perWord(size, key, op, (w, i) => { out[i] = fma32((w & 0x7fffff) * TWO_POW_M23, d, mn); });
  else perWord(size, key, op, (w, i) => { out[i] = Math.fround(Math.fround((w & 0x7fffff) * TWO_POW_M23 * d) + mn); });
  return out;
}

function float64Values(size: number, key: number[], op: number[], mn: number, mx: number, fma: boolean): Float64Array {
  const d = mx - mn;
  checkRounded('f64', mn, mx, d);
  // fma64 is exact only for products above 2^-969; u ≥ 2^-52 when nonzero.
  if (fma && d < 2 ** -916) fail('range', FN, 'fma', 'needs `maxval - minval` of at least 2^-916 for f64', fma);
  const out = new Float64Array(size);
  perPair(size, key, op, (a, b, i) => {
    const u = ((a & 0xfffff) * TWO_POW_32 + b) * TWO_POW_M52;
    out[i] = fma ? fma64(u, d, mn) : u * d + mn;
  });
  return out;
}

function float16Values(size: number, key: number[], op: number[], minval: number, maxval: number): Uint16Array {
  const mn = float16ToNumber(roundToFloat16Bits(Math.fround(minval)));
  const mx = float16ToNumber(roundToFloat16Bits(Math.fround(maxval)));
  const d = float16ToNumber(roundToFloat16Bits(Math.fround(mx - mn)));
  checkRounded('f16', mn, mx, d);
  const out = new Uint16Array(size);
  perWord(size, key, op, (w, i) => {
    const p = float16ToNumber(roundToFloat16Bits(Math.fround(((w & 0x3ff) / 1024) * d)));
    out[i] = roundToFloat16Bits(Math.fround(p + mn));
  });
  return out;
}

function bfloat16Values(size: number, key: number[], op: number[], minval: number, maxval: number, rounding: Bf16Rounding): Uint16Array {
  const round = (x: number): number => bfloat16ToNumber(roundToBfloat16Bits(x, rounding)); // via float32
  const mn = round(minval), mx = round(maxval);
  const d = round(mx - mn);
  checkRounded('bf16', mn, mx, d);
  const out = new Uint16Array(size);
  perWord(size, key, op, (w, i) => {
    const p = round(((w & 0x7f) / 128) * d);
    out[i] = roundToBfloat16Bits(p + mn, rounding);
  });
  return out;
}

function int32Values(size: number, key: number[], op: number[], mn: number, range: number): Int32Array {
  const out = new Int32Array(size);
  perWord(size, key, op, (w, i) => { out[i] = (w % range) + mn; }); // in [mn, mx): no wrap needed
  return out;
}

function int64Values(size: number, key: number[], op: number[], mn: bigint, range: bigint): BigInt64Array {
  const out = new BigInt64Array(size);
  if (range <= 1n << 26n) {
    // v mod R = (hi·(2^32 mod R) + lo) mod R, exact in doubles while (R−1)^2 + 2^32 < 2^53.
    const r = Number(range), shift = TWO_POW_32 % r;
    perPair(size, key, op, (a, b, i) => { out[i] = mn + BigInt((((b % r) * shift) + a) % r); });
  } else {
    perPair(size, key, op, (a, b, i) => { out[i] = mn + ((BigInt(b) << 32n) | BigInt(a)) % range; });
  }
  return out;
}
