/**
 * Sums of the deterministic exp and log1p over an array — Σ detExp(xᵢ − shift) and
 * Σ detLog1p(−b·zᵢ) — in WebAssembly (wasm/detmath.wat's `detExpSumShifted`,
 * `detLog1pSumScaled`: the terms two at a time in f64x2 lanes, each lane the scalar function
 * operation for operation, added one at a time in index order from +0), so the same bits as the
 * JavaScript loop `let s = 0; for (…) s += detExp(x[i] - shift)`, which is the fallback without
 * WebAssembly SIMD. PSIS (mcmc/diagnostics/internal/psis.ts) spends most of LOO's time in these
 * two sums; test/compile/det-sums.test.ts checks the bits against the loops.
 *
 * Arrays are copied into the module's memory, except arrays that already live there: LOO keeps
 * its per-observation rows in {@link detSumsArena}, so its sums over S draws copy nothing.
 */
import { detExp, detLog1p } from '../math/index.js';
import { glmModule } from './glm.js';
import { GLM_DATA_START } from './glm.wasm.js';

interface SumExports {
  detExpSumShifted(src: number, n: number, shift: number): number;
  detLog1pSumScaled(src: number, n: number, b: number): number;
  detLog1pSumsGrid(src: number, n: number, b: number, m: number, dst: number): void;
  detExpSumsSelfShifted(src: number, n: number, dst: number): void;
  detExpSumAfterAdd(lw: number, ll: number, n: number, norm: number, maxOut: number): number;
}

/** One instance, its memory grown to the longest array seen (the arrays are copied in after the detmath tables). */
let inst: { k: SumExports; memory: WebAssembly.Memory; view: Float64Array } | null | undefined;
/** Whether the WebAssembly path is used (tests turn it off to compare with the loops). */
let enabled = true;

/** Turns the WebAssembly path on or off (for tests); returns the previous setting. @internal */
export function setDetSumsWasm(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** Doubles at the start of the data area handed out by {@link detSumsArena}; copies go after them. */
let arenaDoubles = 0;
/** The arena without WebAssembly (or with it turned off): a plain array. */
let plainArena = new Float64Array(0);

/** The instance with room for n doubles after the arena, or null without WebAssembly SIMD. */
function instance(n: number): { k: SumExports; memory: WebAssembly.Memory; view: Float64Array } | null {
  if (inst === undefined) {
    const mod = glmModule();
    if (mod === null) inst = null;
    else {
      const memory = new WebAssembly.Memory({ initial: 2 });
      const k = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as SumExports;
      inst = { k, memory, view: new Float64Array(memory.buffer, GLM_DATA_START) };
    }
  }
  if (inst === null) return null;
  if (inst.view.length < arenaDoubles + n) {
    const pages = Math.ceil((GLM_DATA_START + 8 * (arenaDoubles + n) - inst.memory.buffer.byteLength) / 65536);
    inst.memory.grow(pages);
    inst.view = new Float64Array(inst.memory.buffer, GLM_DATA_START);
  }
  return inst;
}

/**
 * A Float64Array of n doubles that the sums read in place (in the WebAssembly memory; a plain
 * array without it), for callers that sum over the same long rows many times (LOO). Its contents
 * are not kept between calls. It stays valid until the next call of detSumsArena, and while the
 * arrays summed that are not in it are no longer than n (room for their copies is made here).
 * @internal
 */
export function detSumsArena(n: number): Float64Array {
  const w = enabled ? instance(0) : null;
  if (w === null) {
    if (plainArena.length < n) plainArena = new Float64Array(n);
    return plainArena.subarray(0, n);
  }
  if (arenaDoubles < n) {
    arenaDoubles = n;
    instance(n);   // the arena, and as much again for copies
  }
  return new Float64Array(w.memory.buffer, GLM_DATA_START, n);
}

/** Whether x lives in the arena. */
function inArena(w: { memory: WebAssembly.Memory }, x: Float64Array): boolean {
  return x.buffer === w.memory.buffer && x.byteOffset + x.byteLength <= GLM_DATA_START + 8 * arenaDoubles;
}

/** Where the sums read x: its own place when it lives in the arena, else a copy after the arena. */
function placed(w: { view: Float64Array; memory: WebAssembly.Memory }, x: Float64Array): number {
  if (inArena(w, x)) return x.byteOffset;
  w.view.set(x, arenaDoubles);
  return GLM_DATA_START + 8 * arenaDoubles;
}

/** Below this length the JavaScript loop is as fast as the copy and the call. */
const MIN_WASM = 16;

/**
 * Σ detExp(x[i] − shift) over i in index order, from +0.
 *
 * @example
 * detExpSumShifted(Float64Array.of(0, 1), 1);   // detExp(-1) + detExp(0)
 */
export function detExpSumShifted(x: Float64Array, shift: number): number {
  const w = enabled && x.length >= MIN_WASM ? instance(x.length) : null;
  if (w !== null) return w.k.detExpSumShifted(placed(w, x), x.length, shift);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += detExp(x[i]! - shift);
  return s;
}

/**
 * Σ detLog1p(−b·z[i]) over i in index order, from +0.
 *
 * @example
 * detLog1pSumScaled(Float64Array.of(0.5, 1), 0.5);   // detLog1p(-0.25) + detLog1p(-0.5)
 */
export function detLog1pSumScaled(z: Float64Array, b: number): number {
  const w = enabled && z.length >= MIN_WASM ? instance(z.length) : null;
  if (w !== null) return w.k.detLog1pSumScaled(placed(w, z), z.length, b);
  let s = 0;
  for (let i = 0; i < z.length; i++) s += detLog1p(-b * z[i]!);
  return s;
}

/**
 * {@link detLog1pSumScaled}(z, b[j]) into out[j] for every j < b.length: the Pareto fit's grid in
 * one call (z copied in once).
 *
 * @example
 * const out = new Float64Array(2);
 * detLog1pSumsGrid(Float64Array.of(0.5, 1), Float64Array.of(0.5, -1), out);   // out[1] = detLog1p(0.5) + detLog1p(1)
 */
export function detLog1pSumsGrid(z: Float64Array, b: Float64Array, out: Float64Array): void {
  const n = z.length, m = b.length;
  const w = enabled && n >= MIN_WASM ? instance(n + 2 * m) : null;
  if (w !== null) {
    const at = arenaDoubles;
    w.view.set(z, at);
    w.view.set(b, at + n);
    const base = GLM_DATA_START + 8 * at;
    w.k.detLog1pSumsGrid(base, n, base + 8 * n, m, base + 8 * (n + m));
    out.set(w.view.subarray(at + n + m, at + n + 2 * m));
    return;
  }
  for (let j = 0; j < m; j++) {
    let s = 0;
    const bj = b[j]!;
    for (let i = 0; i < n; i++) s += detLog1p(-bj * z[i]!);
    out[j] = s;
  }
}

/**
 * {@link detExpSumShifted}(x, x[j]) into out[j] for every j < x.length: the Pareto fit's grid
 * weights in one call (x copied in once).
 *
 * @example
 * const out = new Float64Array(2);
 * detExpSumsSelfShifted(Float64Array.of(0, 1), out);   // out[0] = detExp(0) + detExp(1)
 */
export function detExpSumsSelfShifted(x: Float64Array, out: Float64Array): void {
  const n = x.length;
  const w = enabled && n >= MIN_WASM ? instance(2 * n) : null;
  if (w !== null) {
    const at = arenaDoubles;
    w.view.set(x, at);
    const base = GLM_DATA_START + 8 * at;
    w.k.detExpSumsSelfShifted(base, n, base + 8 * n);
    out.set(w.view.subarray(at + n, at + 2 * n));
    return;
  }
  for (let j = 0; j < n; j++) out[j] = detExpSumShifted(x, x[j]!);
}

/** The maxima {@link detExpSumAfterAdd} found: of t, then of ll. */
export const afterAddMax = new Float64Array(2);

/**
 * LOO's last pass over an observation: lw[i] = (lw[i] − norm) + ll[i] (in place), the maxima of
 * the new lw and of ll over their non-NaN values into {@link afterAddMax}, and returns
 * Σ detExp(lw[i] − max lw) in index order from +0 — the bits of those three JavaScript loops (of
 * equal values, only ±0 differ, and neither the sum nor a log-sum-exp depends on which is the
 * maximum). In WebAssembly when both arrays live in {@link detSumsArena}.
 *
 * @example
 * const lw = Float64Array.of(0, -1), ll = Float64Array.of(-2, -3);
 * detExpSumAfterAdd(lw, ll, 0.5);   // lw = [-2.5, -4.5]; detExp(0) + detExp(-2); afterAddMax = [-2.5, -2]
 */
export function detExpSumAfterAdd(lw: Float64Array, ll: Float64Array, norm: number): number {
  const n = lw.length;
  const w = enabled && n >= MIN_WASM && ll.length === n ? instance(2) : null;
  if (w !== null && inArena(w, lw) && inArena(w, ll)) {
    const out = GLM_DATA_START + 8 * arenaDoubles;
    const sum = w.k.detExpSumAfterAdd(lw.byteOffset, ll.byteOffset, n, norm, out);
    afterAddMax[0] = w.view[arenaDoubles]!;
    afterAddMax[1] = w.view[arenaDoubles + 1]!;
    return sum;
  }
  let max = -Infinity, llMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const l = ll[i]!;
    const v = (lw[i]! - norm) + l;
    lw[i] = v;
    if (v > max) max = v;
    if (l > llMax) llMax = l;
  }
  afterAddMax[0] = max;
  afterAddMax[1] = llMax;
  return detExpSumShifted(lw, max);
}

