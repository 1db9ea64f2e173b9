/**
 * JAX's uniform arithmetic in one place: bits to a unit float (`unitF64`, `unitF32`, defined in
 * the hash layer, src/prng/unit.ts, whose fused fills need them) and a unit float to
 * [low, high) (`scaleUnit`, `scaleUnitFill`), as `jax.random.uniform` computes them on CPU.
 * `uniform`, `truncatedNormal`, the Generator's `uniform` and every sampler built on uniforms
 * take their arithmetic from here.
 */
import type { FloatDType } from '../tensor/dtype.js';
import { fma32, fma64, nextAfter } from './float.js';

export { unitF32, unitF64 } from '../prng/unit.js';

/** JAX's scaling for a finite span: `max(mn, fma(f, span, mn))`, rounded once in float64 … */
function scale64(f: number, span: number, mn: number): number {
  return Math.max(mn, fma64(f, span, mn));
}

/** … and in float32 (all three arguments float32 values). */
function scale32(f: number, span: number, mn: number): number {
  return Math.max(mn, fma32(f, span, mn));
}

/**
 * One unit uniform `f` scaled to [low, high) in the dtype: JAX's `max(mn, fma(f, mx − mn, mn))`
 * with `mx − mn` rounded to the dtype first and the multiply-add fused (one rounding), as
 * XLA:CPU emits it.
 *
 * Where `high − low` overflows the dtype (bounds of opposite signs beyond half its maximum), JAX
 * gives NaN and ±∞; here the span is taken in halves (float64) or in float64 (float32) and the
 * result kept below `high`: finite values in range, which differ from JAX's non-values.
 */
export function scaleUnit(f: number, low: number, high: number, dtype: FloatDType): number {
  if (dtype === 'float64') {
    const span = high - low;
    if (span !== Infinity) return scale64(f, span, low);
    // Halving is exact here, and keeps the span finite.
    return Math.min(nextAfter(high, -1, dtype), Math.max(low, 2 * (f * (high / 2 - low / 2) + low / 2)));
  }
  const mn = Math.fround(low), mx = Math.fround(high);
  const span = Math.fround(mx - mn);
  if (span !== Infinity) return scale32(f, span, mn);
  // The float32 span fits a float64 exactly enough; round once at the end.
  return Math.min(nextAfter(mx, -1, dtype), Math.max(mn, Math.fround(f * (mx - mn) + mn)));
}

/**
 * `scaleUnit` over a whole array in place, with one pair of bounds: the span is computed once
 * and the common finite-span case runs as a tight loop over the same arithmetic (the same bits).
 */
export function scaleUnitFill(out: Float64Array | Float32Array, low: number, high: number, dtype: FloatDType): void {
  const n = out.length;
  const mn = dtype === 'float64' ? low : Math.fround(low);
  const span = dtype === 'float64' ? high - low : Math.fround(Math.fround(high) - mn);
  if (span === Infinity) {
    for (let i = 0; i < n; i++) out[i] = scaleUnit(out[i]!, low, high, dtype);
  } else if (dtype === 'float64') {
    for (let i = 0; i < n; i++) out[i] = scale64(out[i]!, span, mn);
  } else {
    for (let i = 0; i < n; i++) out[i] = scale32(out[i]!, span, mn);
  }
}
