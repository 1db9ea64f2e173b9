/**
 * Scalar uniforms for a run of counters in one pass, for the Generator's buffered `random()`.
 *
 * The scalar `random.uniform(key, [])` of a threefry key k is one block of k at a fixed counter
 * (threefry-impl.ts's `uniformFloat64` / `uniformFloat32` with size 1):
 *
 * | mode | block | value |
 * |---|---|---|
 * | float64, partitionable | (0, 0) | ((y0 << 32 \| y1) >>> 12)·2^-52 |
 * | float64, original (the wrapper over iota(2): pair (0, 1)) | (0, 1) | the same |
 * | float32, partitionable | (0, 0) | ((y0 ^ y1) >>> 9)·2^-23 |
 * | float32, original (n = 1 is odd: pair (0, 0-pad), first word) | (0, 0) | (y0 >>> 9)·2^-23 |
 *
 * and the Generator's key for counter c is `foldIn(base, c)` = threefry(base; (0, c)) in both
 * modes. So the values for counters c .. c+n−1 are: n fold-in keys from one counter-mode fill
 * under the base key, then one block per key at the mode's counter. This is threefry2x32's
 * `foldInUniforms` hook; test/generator.test.ts checks every row against
 * `random.uniform(random.foldIn(base, c), [])`.
 */
import type { Modes } from '../config.js';
import { threefryFill, threefryLanes } from '../prng/index.js';
import { threefryFoldUnitWasm, wasmActive, type FoldUnitLayout } from '../prng/wasm.js';
import type { FloatDType } from '../tensor/dtype.js';
import { unitF32, unitF64 } from './unit.js';

/** The kernel layout and block counter word for a dtype and mode. */
function plan(dtype: FloatDType, modes: Modes): [FoldUnitLayout, number] {
  if (dtype === 'float64') return ['f64', modes.partitionable ? 0 : 1];
  return [modes.partitionable ? 'f32x' : 'f32h', 0];
}

let keysScratch = new Uint32Array(0);
let blockScratch = new Int32Array(0);
let laneIndex = new Int32Array(0);

/**
 * The JS mirror: out[i] = scalar uniform of foldIn((k0, k1), c + i) for i < n (counters mod 2^32).
 */
export function foldUnitFillJs(dtype: FloatDType, modes: Modes, k0: number, k1: number, c: number, n: number, out: Float64Array): void {
  const [layout, x1] = plan(dtype, modes);
  if (keysScratch.length < 2 * n) {
    keysScratch = new Uint32Array(2 * n);
    blockScratch = new Int32Array(2 * n);
    laneIndex = Int32Array.from({ length: n }, (_, i) => i);
  }
  const keys = keysScratch.subarray(0, 2 * n);
  threefryFill('blocks', k0, k1, 0, c | 0, 0, n, keys);
  const y = blockScratch;
  threefryLanes(new Int32Array(keys.buffer, keys.byteOffset, 2 * n), 0, x1, laneIndex, n, y);
  for (let i = 0; i < n; i++) {
    const y0 = y[2 * i]!, y1 = y[2 * i + 1]!;
    if (layout === 'f64') out[i] = unitF64(y0, y1);
    else if (layout === 'f32x') out[i] = unitF32(y0 ^ y1);
    else out[i] = unitF32(y0);
  }
}

/** null until the first wasm fill; then whether the wasm kernels agreed with the JS mirror. */
let wasmVerified: boolean | null = null;

/** Checks the wasm kernels against the JS mirror once (every layout, SIMD loop, tail, counter wrap). */
function verifyWasm(): boolean {
  const n = 45;
  for (const [dtype, part] of [['float64', true], ['float64', false], ['float32', true], ['float32', false]] as const) {
    const modes: Modes = { x64: true, partitionable: part };
    const [layout, x1] = plan(dtype, modes);
    const js = new Float64Array(n), wa = new Float64Array(n);
    foldUnitFillJs(dtype, modes, 0x9e3779b9, 0x243f6a88, 0xffffffe8, n, js);
    if (!threefryFoldUnitWasm(layout, 0x9e3779b9, 0x243f6a88, 0xffffffe8, x1, n, wa)) return false;
    for (let i = 0; i < n; i++) if (!Object.is(js[i], wa[i])) return false;
  }
  return true;
}

/**
 * out[i] = scalar uniform of foldIn((k0, k1), c + i) for i < n, in `dtype` under `modes`
 * (float32 values widened exactly). Uses the wasm kernels when they are active and verified,
 * the JS mirror otherwise; both give the same bits.
 */
export function foldUnitFill(dtype: FloatDType, modes: Modes, k0: number, k1: number, c: number, n: number, out: Float64Array): void {
  if (wasmActive()) {
    if (wasmVerified === null) wasmVerified = verifyWasm();
    const [layout, x1] = plan(dtype, modes);
    if (wasmVerified && threefryFoldUnitWasm(layout, k0, k1, c, x1, n, out)) return;
  }
  foldUnitFillJs(dtype, modes, k0, k1, c, n, out);
}
