import type { Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';

/** Names of the registered PRNG implementations. */
export type ImplName = 'threefry2x32' | 'philox4x32';

/** Bit widths `bits` can draw. */
export type BitWidth = 8 | 16 | 32 | 64;

/**
 * A PRNG implementation is a record of pure functions over raw key words (JAX's `PRNGImpl`).
 * Every mode is an explicit argument; nothing here reads `configure()`. A key is `keyWords`
 * uint32 words; batches of keys are concatenated.
 */
export interface PrngImpl {
  readonly name: ImplName;
  /** Trailing length of one key's data. */
  readonly keyWords: number;
  /** Key words for a seed already reduced to its 64-bit pattern `(hi, lo)`. */
  seed(hi: number, lo: number): Uint32Array;
  /** `count` keys derived from `key`, concatenated (count × keyWords words): written into `out` when given (not aliasing `key`), else a new array. */
  split(key: Uint32Array, count: number, modes: Modes, out?: Uint32Array): Uint32Array;
  /** A key derived from `key` and the uint32 `data`: written into `out` when given (not aliasing `key`), else a new array. */
  foldIn(key: Uint32Array, data: number, modes: Modes, out?: Uint32Array): Uint32Array;
  /**
   * `size` random values of `width` bits in row-major order. Widths 8/16/32 return a typed
   * array of that width; width 64 returns 2·size words, `[hi0, lo0, hi1, lo1, ...]`.
   */
  bits(key: Uint32Array, width: BitWidth, size: number, modes: Modes): Uint8Array | Uint16Array | Uint32Array;

  // Optional fused hooks. Each is bit-identical to the generic path built from `bits` that it
  // replaces, so an implementation may provide any of them and the samplers test for their
  // presence, never for an implementation's name (JAX's rule: nothing above this record knows
  // which implementation it holds). test/random/impl.test.ts checks every hook against its
  // generic path (and test/random/gamma.test.ts the `gamma` hook against `gammaReference`).

  /** `uniform`'s default range: unit uniforms (unit.ts's `unitF64`/`unitF32` of `bits`) into `out`. */
  uniformFloat64?(key: Uint32Array, out: Float64Array, modes: Modes): void;
  uniformFloat32?(key: Uint32Array, out: Float32Array, modes: Modes): void;
  /**
   * Element `index` of `uniformFloat64(key, out)` (`uniformFloat32`) for `out.length === count`,
   * computed alone with the same bits — for samplers that take uniforms one at a time from a
   * block and rarely use all of it (NUTS's merges, the sparse trials of TFP's gamma sampler).
   */
  uniformFloat64At?(key: Uint32Array, index: number, count: number, modes: Modes): number;
  uniformFloat32At?(key: Uint32Array, index: number, count: number, modes: Modes): number;
  /** Standard normals into `out`: the unit uniforms above through `normalFromUnit`, fused. */
  normalFloat64?(key: Uint32Array, out: Float64Array, modes: Modes): void;
  normalFloat32?(key: Uint32Array, out: Float32Array, modes: Modes): void;
  /**
   * `out[i]` = the single unit uniform of `foldIn(key, first + i)` in `dtype` (widened to
   * float64), counters mod 2^32, for every i: the Generator's buffered scalar draws.
   */
  foldInUniforms?(key: Uint32Array, first: number, dtype: FloatDType, out: Float64Array, modes: Modes): void;
  /**
   * `out.length` standard gamma (or, with `logSpace`, log-gamma) samples exactly as
   * gamma.ts's `gammaReference` draws them from `split(key, out.length)`; `alpha` holds one
   * shape per element or one for all.
   */
  gamma?(key: Uint32Array, alpha: ArrayLike<number>, out: Float64Array | Float32Array, logSpace: boolean, dtype: FloatDType, modes: Modes): void;
}

/** Narrows 32-bit draws to 8 or 16 bits by keeping the low bits (a truncating convert). */
export function truncateWords(words: Uint32Array, width: 8 | 16): Uint8Array | Uint16Array {
  const out = width === 8 ? new Uint8Array(words.length) : new Uint16Array(words.length);
  out.set(words); // typed-array conversion keeps the low bits
  return out;
}
