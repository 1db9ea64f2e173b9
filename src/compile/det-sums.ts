/**
 * Sums of the deterministic exp and log1p over an array — Σ detExp(xᵢ − shift) and
 * Σ detLog1p(−b·zᵢ) — in WebAssembly (wasm/detmath.wat's `detExpSumShifted`,
 * `detLog1pSumScaled`: the terms two at a time in f64x2 lanes, each lane the scalar function
 * operation for operation, added one at a time in index order from +0), so the same bits as the
 * JavaScript loop `let s = 0; for (…) s += detExp(x[i] - shift)`, which is the fallback without
 * WebAssembly SIMD. PSIS (mcmc/diagnostics/internal/psis.ts) spends most of LOO's time in these
 * two sums; test/compile/det-sums.test.ts checks the bits against the loops.
 */
import { detExp, detLog1p } from '../math/index.js';
import { glmModule } from './glm.js';
import { GLM_DATA_START } from './glm.wasm.js';

interface SumExports {
  detExpSumShifted(src: number, n: number, shift: number): number;
  detLog1pSumScaled(src: number, n: number, b: number): number;
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

/** The instance with room for n doubles, or null without WebAssembly SIMD. */
function instance(n: number): { k: SumExports; view: Float64Array } | null {
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
  if (inst.view.length < n) {
    const pages = Math.ceil((GLM_DATA_START + 8 * n - inst.memory.buffer.byteLength) / 65536);
    inst.memory.grow(pages);
    inst.view = new Float64Array(inst.memory.buffer, GLM_DATA_START);
  }
  return inst;
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
  if (w !== null) {
    w.view.set(x);
    return w.k.detExpSumShifted(GLM_DATA_START, x.length, shift);
  }
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
  if (w !== null) {
    w.view.set(z);
    return w.k.detLog1pSumScaled(GLM_DATA_START, z.length, b);
  }
  let s = 0;
  for (let i = 0; i < z.length; i++) s += detLog1p(-b * z[i]!);
  return s;
}
