/**
 * Bulk standard normals from Threefry-2x32-20 with JAX's transform (√2·erfinv(2f + lo) of the
 * unit uniform f), computed with the deterministic math of detmath.ts: the WebAssembly SIMD
 * kernels (`normal_f64`, `normal_f32`, `nf64_unit`, `nf32_unit`; scripts/gen-wat.ts) when
 * available, the pure-JS mirrors otherwise, with identical bits either way and on every engine.
 */
import { threefryFillJs } from '../prng/threefry.js';
import { normalFillWasm, normalFromUnitWasm, wasmActive } from '../prng/wasm.js';
import { normalF32FromUnitDetInPlace, normalF64FromUnitDetInPlace } from '../math/index.js';

/** Below this many values the JS path is as fast (call and copy overhead; measured). */
const NF_MIN_WASM = 8;
/** The same for transforming uniforms already drawn (the wasm call copies them in and out): crossover ~16, measured in CPU time. */
const NF_UNIT_MIN_WASM = 16;
/** JS path: generate and transform in pieces of this many values (stays in L1). */
const JS_PIECE = 2048;

/**
 * Wasm normals vs the JS mirrors: 'unchecked' until a self-check could run (at import in Node;
 * on a browser main thread the kernels may arrive later), then 'ok' or 'bad' (never use wasm).
 */
let wasmState: 'unchecked' | 'ok' | 'bad' = 'unchecked';

function wasmOk(): boolean {
  return wasmState === 'ok' || (wasmState === 'unchecked' && selfCheck());
}

/** Pure-JS fill: threefry uniforms of `layout` for blocks (x0 + i·x0Step, x1 + i), then `toNormal` in place. */
function fillJs<A extends Float64Array | Float32Array>(
  layout: 'f64' | 'f32', toNormal: (out: A, from: number, to: number) => void,
  k0: number, k1: number, x0: number, x1: number, x0Step: number, n: number, out: A, offset: number,
): void {
  for (let done = 0; done < n;) {
    const m = Math.min(n - done, JS_PIECE);
    threefryFillJs(layout, k0, k1, (x0 + Math.imul(done, x0Step)) | 0, (x1 + done) | 0, x0Step, m, out, undefined, offset + done);
    toNormal(out, offset + done, offset + done + m);
    done += m;
  }
}

/**
 * Pure-JS float64 normals: block i hashes (x0 + i·x0Step, x1 + i) mod 2^32 under (k0, k1) and
 * out[offset + i] = normalF64FromUnitDet(its 'f64' uniform). The reference for `normalF64Fill`.
 */
export function normalF64FillJs(
  k0: number, k1: number, x0: number, x1: number, x0Step: number, n: number, out: Float64Array, offset = 0,
): void {
  fillJs('f64', normalF64FromUnitDetInPlace, k0, k1, x0, x1, x0Step, n, out, offset);
}

/**
 * Pure-JS float32 normals: out[offset + i] = normalF32FromUnitDet of the 'f32' uniform of block
 * (x0 + i·x0Step, x1 + i) (JAX's partitionable-mode float32 uniform). The reference for
 * `normalF32Fill`.
 */
export function normalF32FillJs(
  k0: number, k1: number, x0: number, x1: number, x0Step: number, n: number, out: Float32Array, offset = 0,
): void {
  fillJs('f32', normalF32FromUnitDetInPlace, k0, k1, x0, x1, x0Step, n, out, offset);
}

/**
 * Float64 standard normals, `n` of them into out[offset..offset + n): value i is
 * √2·erfinv64det(2f − (1 − 2^−53)) for the f64 uniform f of threefry block
 * (x0 + i·x0Step, x1 + i) under key (k0, k1) — JAX's `random.normal` in x64 mode, to ~1e-15
 * relative. Same bits as `normalF64FillJs`; uses the wasm SIMD kernel when it is available.
 * Counters are 32-bit and wrap; the caller splits 64-bit counters, as for `threefryFill`.
 *
 * @example
 * const out = new Float64Array(1e6);
 * normalF64Fill(0, 42, 0, 0, 0, out.length, out);          // partitionable mode, key(42)
 * normalF64Fill(0, 42, 0, out.length, 1, out.length, out); // original mode: blocks (i, i + n)
 */
export function normalF64Fill(
  k0: number, k1: number, x0: number, x1: number, x0Step: number, n: number, out: Float64Array, offset = 0,
): void {
  if (n >= NF_MIN_WASM && wasmOk() && normalFillWasm(k0, k1, x0, x1, x0Step, n, out, offset)) return;
  normalF64FillJs(k0, k1, x0, x1, x0Step, n, out, offset);
}

/**
 * Float32 standard normals from threefry's 'f32' uniforms (JAX's float32 uniforms in
 * partitionable mode, `((y0 ^ y1) >>> 9)·2^−23`): value i is
 * fl32(√2·erfinv32det(2f − (1 − 2^−24))), the same as `erfinv32` with Math.log1p (identical on
 * all 2^23 inputs) but deterministic. Same bits as `normalF32FillJs`; wasm when available.
 *
 * @example
 * const out = new Float32Array(1e6);
 * normalF32Fill(0, 42, 0, 0, 0, out.length, out); // random.normal(key(42), [1e6], float32), partitionable
 */
export function normalF32Fill(
  k0: number, k1: number, x0: number, x1: number, x0Step: number, n: number, out: Float32Array, offset = 0,
): void {
  if (n >= NF_MIN_WASM && wasmOk() && normalFillWasm(k0, k1, x0, x1, x0Step, n, out, offset)) return;
  normalF32FillJs(k0, k1, x0, x1, x0Step, n, out, offset);
}

/**
 * In place, unit uniforms out[from..to) from any generator (float64: multiples of 2^−52 in
 * [0, 1); float32: multiples of 2^−23) become standard normals (`normalF64FromUnitDet` /
 * `normalF32FromUnitDet`); wasm when available, same bits. For the layouts `normalF64Fill` and
 * `normalF32Fill` do not cover (philox keys, original-mode float32).
 */
export function normalFromUnit(out: Float64Array | Float32Array, from = 0, to = out.length): void {
  if (to - from >= NF_UNIT_MIN_WASM && wasmOk() && normalFromUnitWasm(out, from, to)) return;
  if (out instanceof Float64Array) normalF64FromUnitDetInPlace(out, from, to);
  else normalF32FromUnitDetInPlace(out, from, to);
}

/** True when the fills run the wasm kernels for large sizes (wasm active, self-check passed). */
export function normalWasmActive(): boolean {
  return wasmActive() && wasmOk();
}

function sameBits(a: Float64Array | Float32Array, b: Float64Array | Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

// Float64: under SELF_KEY, counter 1220 has w in [6.25, 16) and 17819277 has w >= 16.
const SELF_KEY = [0x9e3779b9, 0x243f6a88] as const;
const SELF_F64 = [1220, 17819277];
// Float32 uniforms i·2^−23 whose wasm lanes take the scalar path: the tail branch (w >= 5) and
// an FMA sum exactly halfway between two float32 values (double-rounding guard).
const SELF_F32 = [0, 3, 433494, 497435, 573701, 1046361, 4194304, 8388607];

/**
 * Compares wasm with JS: float64 fills that put middle- and tail-branch values in SIMD lanes and
 * in the scalar tail, a float32 fill, and both in-place transforms on inputs that take the
 * kernels' scalar paths. Settles `wasmState` (true if 'ok'); while the wasm path is inactive
 * nothing is settled and the result is false.
 */
function selfCheck(): boolean {
  if (!wasmActive()) return false;
  const js = new Float64Array(35), wa = new Float64Array(35);
  for (const at of SELF_F64) {
    for (const [start, n] of [[at - 4, 9], [at - 8, 9], [at - 30, 35]] as const) {
      normalF64FillJs(SELF_KEY[0], SELF_KEY[1], 0, start, 0, n, js);
      if (!normalFillWasm(SELF_KEY[0], SELF_KEY[1], 0, start, 0, n, wa)) return false;
      if (!sameBits(js.subarray(0, n), wa.subarray(0, n))) return settle(false);
    }
  }
  threefryFillJs('f64', SELF_KEY[0], SELF_KEY[1], 0, SELF_F64[0]! - 30, 0, 35, wa);
  if (!normalFromUnitWasm(wa)) return false;
  normalF64FillJs(SELF_KEY[0], SELF_KEY[1], 0, SELF_F64[0]! - 30, 0, 35, js);
  if (!sameBits(js, wa)) return settle(false);
  const js32 = new Float32Array(37), wa32 = new Float32Array(37);
  normalF32FillJs(SELF_KEY[0], SELF_KEY[1], 5, 0xfffffff0, 1, 37, js32);
  if (!normalFillWasm(SELF_KEY[0], SELF_KEY[1], 5, 0xfffffff0, 1, 37, wa32)) return false;
  if (!sameBits(js32, wa32)) return settle(false);
  // Each special input once in every lane position and in the scalar tail.
  for (let i = 0; i < 37; i++) js32[i] = SELF_F32[i % SELF_F32.length]! * 2 ** -23;
  wa32.set(js32);
  normalF32FromUnitDetInPlace(js32);
  if (!normalFromUnitWasm(wa32)) return false;
  return settle(sameBits(js32, wa32));
}

function settle(ok: boolean): boolean {
  wasmState = ok ? 'ok' : 'bad';
  return ok;
}

/** Warms the JS paths (avoids V8's slow on-stack-replacement code for a user's first big fill). */
function warmJs(): void {
  const out64 = new Float64Array(64), out32 = new Float32Array(64);
  for (let i = 0; i < 20; i++) {
    const k0 = i & 1 ? 0x9e3779b9 + i : i, k1 = i & 2 ? 0xdeadbeef : 7;
    const x0 = i & 4 ? 0x80000000 : 0, x1 = i & 1 ? 0xfffffff0 : i;
    normalF64FillJs(k0, k1, x0, x1, i & 1, 64, out64);
    normalF32FillJs(k0, k1, x0, x1, i & 1, 64, out32);
  }
}

warmJs();
selfCheck();
