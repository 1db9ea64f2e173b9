/**
 * The Generator's buffers of scalar draws. `random()`, `uniform()`, `normal()` and
 * `standardNormal()` with no size take the draw for counter c from a buffer that one pass of the
 * PRNG's `foldInUniforms` hook filled for a run of counters (threefry2x32's hook is one
 * WebAssembly SIMD pass: src/random/threefry-fold-unit.ts). Generators whose implementation has
 * no such hook draw unbuffered; either way the values are those of `random.uniform(key(), [])`.
 */
import type { Modes } from '../config.js';
import type { PrngImpl } from '../random/impl.js';
import { normalFromUnit } from '../random/normal-fill.js';
import type { FloatDType } from '../tensor/dtype.js';

/**
 * Buffer sizes: the first refill computes UNIT_CACHE_MIN values (one iteration of the wasm
 * kernel's 24-value loop), each later one 4 times as many, up to UNIT_CACHE_MAX (16 iterations).
 * A generator that draws a few scalars (say one of many `split` children) costs little; one
 * drawing millions amortises the refill over 384 values.
 */
export const UNIT_CACHE_MIN = 24;
export const UNIT_CACHE_MAX = 384;

/**
 * out[i] = the scalar unit uniform of foldIn(key, c + i) in `dtype` (the impl's
 * `foldInUniforms`), or with `normal` the scalar standard normal `random.normal(foldIn(key, c +
 * i), [], { dtype })`: those uniforms through the transform `random.normal` applies to them
 * (`normalFromUnit`: √2·erfinv(2f + lo), in float32 arithmetic for float32), which is how
 * `normalData` draws one value in every mode.
 */
function fillScalars(impl: PrngImpl, normal: boolean, key: Uint32Array, c: number, dtype: FloatDType, modes: Modes, out: Float64Array): void {
  impl.foldInUniforms!(key, c, dtype, out, modes);
  if (!normal) return;
  if (dtype === 'float64') {
    normalFromUnit(out);
    return;
  }
  const f = Float32Array.from(out);   // exact: the values are float32
  normalFromUnit(f);
  out.set(f);
}

/**
 * A buffer of scalar draws (uniforms, or standard normals when `normal`) for counters
 * `start .. start + len − 1`, valid for one dtype and modes. Only for impls with `foldInUniforms`.
 */
export class ScalarBuffer {
  vals = new Float64Array(0);
  start = 0;
  len = 0;
  modes: Modes | null = null;
  dtype: FloatDType = 'float64';
  /** True when `dtype` is the default float dtype of `modes` (what `random()` draws). */
  isDefault = false;

  constructor(readonly normal: boolean) {}

  /**
   * The value for counter `c` of base key `key` (refilling from `c` if it is not buffered):
   * buffers grow from UNIT_CACHE_MIN to UNIT_CACHE_MAX values as in `Generator.random`.
   */
  get(impl: PrngImpl, key: Uint32Array, dtype: FloatDType, modes: Modes, c: number): number {
    if (this.modes === modes && this.dtype === dtype && c - this.start < this.len) return this.vals[c - this.start]!;
    const n = Math.min(UNIT_CACHE_MAX, Math.max(UNIT_CACHE_MIN, 4 * this.vals.length));
    if (n !== this.vals.length) this.vals = new Float64Array(n);
    fillScalars(impl, this.normal, key, c >>> 0, dtype, modes, this.vals);
    this.modes = modes;
    this.dtype = dtype;
    this.isDefault = dtype === (modes.x64 ? 'float64' : 'float32');
    this.start = c;
    this.len = n;
    return this.vals[0]!;
  }
}
