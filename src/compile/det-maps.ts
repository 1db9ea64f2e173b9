/**
 * The deterministic exp, and log1p of it, element by element over an array — out[i] =
 * detExp(x[i]), out[i] = detLog1p(detExp(x[i])) — in WebAssembly (wasm/detmath.wat's
 * `detExpPairs`, then `detLog1pPairs`: two lanes at a time, each lane the scalar function
 * operation for operation), so the same bits
 * as the JavaScript loops, which are the fallback without WebAssembly SIMD. For the compiled
 * predictive draws and log-likelihood of `Bernoulli` nodes (mcmc/internal/leaf-kernels.ts), where
 * sigmoid and softplus of every observation's logit per draw are most of the time;
 * test/compile/det-maps.test.ts checks the bits against the loops.
 */
import { detExp, detLog1p } from '../math/index.js';
import { glmModule } from './glm.js';
import { GLM_DATA_START } from './glm.wasm.js';

interface MapExports {
  detExpPairs(src: number, dst: number, pairs: number): void;
  detLog1pPairs(src: number, dst: number, pairs: number): void;
}

/** Values per wasm call: two buffers of this many doubles after the detmath tables (64 KiB each). */
const CHUNK = 8192;
const SRC = GLM_DATA_START, DST = GLM_DATA_START + 8 * CHUNK;

/** One instance and views on its two buffers; null without WebAssembly SIMD. */
let inst: { k: MapExports; src: Float64Array; dst: Float64Array } | null | undefined;
/** Whether the WebAssembly path is used (tests turn it off to compare with the loops). */
let enabled = true;

/** Turns the WebAssembly path on or off (for tests); returns the previous setting. @internal */
export function setDetMapsWasm(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

function instance(): { k: MapExports; src: Float64Array; dst: Float64Array } | null {
  if (inst === undefined) {
    const mod = glmModule();
    if (mod === null) inst = null;
    else {
      const memory = new WebAssembly.Memory({ initial: Math.ceil((DST + 8 * CHUNK) / 65536) });
      const k = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as MapExports;
      inst = { k, src: new Float64Array(memory.buffer, SRC, CHUNK), dst: new Float64Array(memory.buffer, DST, CHUNK) };
    }
  }
  return inst;
}

/** Below this length the JavaScript loop is as fast as the copies and the call. */
const MIN_WASM = 16;

type Pairs = 'detExpPairs' | 'detLog1pPairs';

/** out[i] = f(x[i]), f the pair functions `which` applied in turn (in wasm memory, one copy in and out). */
function map(f: (x: number) => number, which: readonly Pairs[], x: Float64Array, out: Float64Array, n: number): void {
  const w = enabled && n >= MIN_WASM ? instance() : null;
  if (w === null) {
    for (let i = 0; i < n; i++) out[i] = f(x[i]!);
    return;
  }
  const { k, src, dst } = w;
  for (let i = 0; i < n; i += CHUNK) {
    const m = Math.min(CHUNK, n - i);
    for (let e = 0; e < m; e++) src[e] = x[i + e]!;
    // An odd count reads one stale lane past the end; its result is not copied out.
    for (let s = 0; s < which.length; s++) k[which[s]!](s === 0 ? SRC : DST, DST, (m + 1) >> 1);
    for (let e = 0; e < m; e++) out[i + e] = dst[e]!;
  }
}

const EXP: readonly Pairs[] = ['detExpPairs'], LOG1P_EXP: readonly Pairs[] = ['detExpPairs', 'detLog1pPairs'];
const log1pOfExp = (x: number): number => detLog1p(detExp(x));

/**
 * out[i] = detExp(x[i]) for i < n (default x.length); `out` may be `x`.
 *
 * @example
 * const out = new Float64Array(2);
 * detExpInto(Float64Array.of(0, 1), out);   // [1, detExp(1)]
 */
export function detExpInto(x: Float64Array, out: Float64Array, n = x.length): void {
  map(detExp, EXP, x, out, n);
}

/**
 * out[i] = detLog1p(detExp(x[i])) for i < n (default x.length) — softplus's term — with one copy
 * into WebAssembly memory and out; `out` may be `x`.
 *
 * @example
 * const out = new Float64Array(1);
 * detLog1pOfExpInto(Float64Array.of(0), out);   // [detLog1p(1)] = [ln 2]
 */
export function detLog1pOfExpInto(x: Float64Array, out: Float64Array, n = x.length): void {
  map(log1pOfExp, LOG1P_EXP, x, out, n);
}
