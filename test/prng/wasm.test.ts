import { afterEach, describe, expect, it, vi } from 'vitest';
import { philoxFillJs } from '../../src/prng/philox.js';
import { threefryFillJs, type ThreefryOutput } from '../../src/prng/threefry.js';
import {
  decodeBase64, philoxFill, setWasmEnabled, threefryFill, wasmActive, wasmAvailable, wasmReady, wasmScratch,
} from '../../src/prng/wasm.js';
import { loadKatVectors } from './kat.js';
import { lcg } from '../helpers.js';

type Out = Uint32Array | Float64Array | Float32Array;

const LAYOUTS: readonly ThreefryOutput[] = ['f64', 'f32', 'xor', 'blocks', 'halves'];
/** Around the SIMD width (20 blocks per iteration), its multiples, and the chunk sizes. */
const SIZES = [0, 1, 2, 3, 15, 16, 17, 19, 20, 21, 31, 33, 39, 40, 41, 1000, 4095, 4096, 4097, 8193, 70000];

function makeOut(layout: ThreefryOutput, len: number): Out {
  if (layout === 'f64') return new Float64Array(len);
  if (layout === 'f32') return new Float32Array(len);
  return new Uint32Array(len);
}

/** Index of the first differing byte, or -1 (bit comparison; NaN-safe, -0-safe). */
function firstDiff(a: ArrayBufferView, b: ArrayBufferView): number {
  if (a.byteLength !== b.byteLength) return -2;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return -1;
}

/** Runs one threefry fill through both paths (with a sentinel-filled margin) and compares. */
function checkThreefry(
  layout: ThreefryOutput, k0: number, k1: number, x0: number, x1: number, step: number, n: number, offset: number,
): void {
  const width = layout === 'blocks' ? 2 : 1;
  const len = offset + width * n + 5;
  const js = makeOut(layout, len), wa = makeOut(layout, len);
  const jsB = new Uint32Array(offset + n + 5), waB = new Uint32Array(offset + n + 5);
  for (const a of [js, wa, jsB, waB]) a.fill(7);
  threefryFillJs(layout, k0, k1, x0, x1, step, n, js, jsB, offset);
  threefryFill(layout, k0, k1, x0, x1, step, n, wa, waB, offset);
  const what = `${layout} n=${n} off=${offset} key=${k0},${k1} ctr=${x0},${x1} step=${step}`;
  expect(firstDiff(js, wa), what).toBe(-1);
  if (layout === 'halves') expect(firstDiff(jsB, waB), what + ' (outB)').toBe(-1);
}

function checkPhilox(key: number[], ctr: number[], n: number, offset: number): void {
  const js = new Uint32Array(offset + 4 * n + 5).fill(7), wa = new Uint32Array(offset + 4 * n + 5).fill(7);
  philoxFillJs(key, ctr, n, js, offset);
  philoxFill(key, ctr, n, wa, offset);
  expect(firstDiff(js, wa), `philox n=${n} off=${offset} key=${key} ctr=${ctr}`).toBe(-1);
}

afterEach(() => { setWasmEnabled(true); });

describe('wasm module', () => {
  it('loads with SIMD128 on Node 20 (a silent JS fallback would fail here)', () => {
    expect(wasmAvailable()).toBe(true);
    expect(wasmActive()).toBe(true);
  });

  it('setWasmEnabled(false) forces the JS path and can be undone', () => {
    expect(setWasmEnabled(false)).toBe(true);
    expect(wasmActive()).toBe(false);
    expect(wasmAvailable()).toBe(true);
    const a = new Float64Array(100), b = new Float64Array(100);
    threefryFill('f64', 1, 2, 3, 4, 0, 100, a);
    setWasmEnabled(true);
    threefryFill('f64', 1, 2, 3, 4, 0, 100, b);
    expect(firstDiff(a, b)).toBe(-1);
  });

  it('wasmReady() has settled to true', async () => {
    await expect(wasmReady()).resolves.toBe(true);
  });

  it('falls back to async compilation when synchronous compilation is refused (Chromium main thread)', async () => {
    const real = WebAssembly;
    const fake = {
      ...real,
      Module: function Module() { throw new RangeError('WebAssembly.Compile is disallowed on the main thread'); },
      instantiate: real.instantiate.bind(real),
      Memory: real.Memory, // not an own enumerable property of the namespace, so not spread
    };
    vi.resetModules();
    vi.stubGlobal('WebAssembly', fake);
    try {
      const mod = await import('../../src/prng/wasm.js');
      expect(mod.wasmAvailable()).toBe(false);
      const a = new Float64Array(300), b = new Float64Array(300);
      mod.threefryFill('f64', 1, 2, 3, 4, 0, 300, a); // JS kernels meanwhile
      await expect(mod.wasmReady()).resolves.toBe(true);
      expect(mod.wasmAvailable()).toBe(true);
      mod.threefryFill('f64', 1, 2, 3, 4, 0, 300, b);
      expect(firstDiff(a, b)).toBe(-1);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it('decodes base64 like Buffer does', () => {
    const next = lcg(99);
    for (let len = 0; len < 40; len++) {
      const bytes = Uint8Array.from({ length: len }, () => next() & 0xff);
      const text = Buffer.from(bytes).toString('base64');
      expect(Array.from(decodeBase64(text))).toEqual(Array.from(bytes));
      expect(Array.from(decodeBase64(text.replace(/=+$/, '')))).toEqual(Array.from(bytes));
    }
    expect(() => decodeBase64('ab$d')).toThrow();
  });
});

describe('threefryFill: wasm and JS give identical bits', () => {
  it.each(LAYOUTS)('%s: every size, odd offsets, random keys, x0Step 0 and 1', (layout) => {
    const next = lcg(0x1234 + layout.length);
    for (const n of SIZES) {
      for (const step of [0, 1]) {
        const offset = n % 2 === 0 ? 3 : 0;
        checkThreefry(layout, next(), next(), next(), next(), step, n, offset);
      }
    }
  });

  it.each(LAYOUTS)('%s: counters near the 2^32 wrap of x1 (and x0)', (layout) => {
    const next = lcg(777);
    for (const n of [21, 33, 70000]) {
      checkThreefry(layout, next(), next(), 0, 0xffffffff, 0, n, 1);
      checkThreefry(layout, next(), next(), 5, 0xfffffff5, 0, n, 0);
      checkThreefry(layout, next(), next(), 0xfffffff0, 0xfffffffe, 1, n, 7);
      checkThreefry(layout, next(), next(), 0x7fffffff, 0xffff0000, 1, n, 2);
      // An arbitrary step and counters given as negative int32 / unsigned doubles.
      checkThreefry(layout, -1, -2, -3, -20, 0x9e3779b9, n, 0);
    }
  });

  it('matches the Random123 known answers through the wasm path (block 0 of a 40-block fill)', () => {
    const vectors = loadKatVectors().filter((v) => v.name === 'threefry2x32' && v.rounds === 20);
    expect(vectors.length).toBeGreaterThan(0);
    for (const v of vectors) {
      const out = new Uint32Array(80);
      threefryFill('blocks', v.key[0]!, v.key[1]!, v.counter[0]!, v.counter[1]!, 1, 40, out);
      expect([out[0], out[1]]).toEqual(v.expected);
    }
  });

  it('falls back to JS semantics for mismatched element types and short arrays', () => {
    // 'xor' into a Float64Array: the JS kernel stores signed int32 values.
    const a = new Float64Array(64), b = new Float64Array(64);
    threefryFillJs('xor', 1, 2, 3, 4, 0, 64, a);
    threefryFill('xor', 1, 2, 3, 4, 0, 64, b);
    expect(firstDiff(a, b)).toBe(-1);
    // Writing past the end: the JS kernel silently drops the out-of-range values.
    const c = new Float64Array(50), d = new Float64Array(50);
    threefryFillJs('f64', 1, 2, 3, 4, 0, 64, c, undefined, 10);
    threefryFill('f64', 1, 2, 3, 4, 0, 64, d, undefined, 10);
    expect(firstDiff(c, d)).toBe(-1);
  });

  it('writes in place into views on wasm memory (wasmScratch) and stays correct', () => {
    const n = 9000;
    const mem = wasmScratch(8 * (2 * n + 64));
    expect(mem).not.toBeNull();
    for (const layout of LAYOUTS) {
      if (layout === 'halves') continue;
      const width = layout === 'blocks' ? 2 : 1;
      const len = 3 + width * n;
      const ctor = layout === 'f64' ? Float64Array : layout === 'f32' ? Float32Array : Uint32Array;
      const view = new ctor(mem!.buffer, mem!.byteOffset + 8, len);
      const js = makeOut(layout, len).fill(7);
      view.fill(7);
      threefryFillJs(layout, 0xdeadbeef, 42, 9, 0xfffffff0, 1, n, js, undefined, 3);
      threefryFill(layout, 0xdeadbeef, 42, 9, 0xfffffff0, 1, n, view, undefined, 3);
      expect(firstDiff(js, view), layout).toBe(-1);
    }
    // 'halves' with both outputs on wasm memory goes through the chunk buffers.
    const ha = new Uint32Array(mem!.buffer, mem!.byteOffset, n);
    const hb = new Uint32Array(mem!.buffer, mem!.byteOffset + 4 * n, n);
    const ja = new Uint32Array(n), jb = new Uint32Array(n);
    threefryFillJs('halves', 5, 6, 7, 8, 0, n, ja, jb);
    threefryFill('halves', 5, 6, 7, 8, 0, n, ha, hb);
    expect(firstDiff(ja, ha)).toBe(-1);
    expect(firstDiff(jb, hb)).toBe(-1);
  });

  it('moves to a larger memory instead of growing: earlier views are never detached', () => {
    const small = wasmScratch(16)!;
    const before = new Float64Array(small.buffer, small.byteOffset, 2).fill(5);
    const big = wasmScratch(small.buffer.byteLength + 3 * 65536)!;
    // A grow would have detached `small.buffer` (byteLength 0, views emptied), which in V8 slows
    // every typed-array access in the thread afterwards.
    expect(big.buffer).not.toBe(small.buffer);
    expect(small.buffer.byteLength).toBeGreaterThan(0);
    expect(Array.from(before)).toEqual([5, 5]);
    expect(big.buffer.byteLength).toBeGreaterThanOrEqual(big.byteOffset + small.buffer.byteLength + 3 * 65536);
    // Fills into the old view copy out of the new memory; fills into the new one write in place.
    const n = 4000, js = new Float64Array(n);
    threefryFillJs('f64', 8, 9, 1, 2, 0, n, js);
    const old = new Float64Array(small.buffer, small.byteOffset, n), fresh = new Float64Array(big.buffer, big.byteOffset, n);
    threefryFill('f64', 8, 9, 1, 2, 0, n, old);
    threefryFill('f64', 8, 9, 1, 2, 0, n, fresh);
    expect(firstDiff(js, old)).toBe(-1);
    expect(firstDiff(js, fresh)).toBe(-1);
  });

  it('is not corrupted by a destination view overlapping the internal chunk buffers', () => {
    const mem = wasmScratch(16);
    const view = new Float64Array(mem!.buffer, 0, 5000);
    const js = new Float64Array(5000);
    threefryFillJs('f64', 3, 4, 5, 6, 0, 5000, js);
    threefryFill('f64', 3, 4, 5, 6, 0, 5000, view);
    expect(firstDiff(js, view)).toBe(-1);
    const pv = new Uint32Array(mem!.buffer, 0, 4 * 3000), pj = new Uint32Array(4 * 3000);
    philoxFillJs([1, 2], [3, 4, 5, 6], 3000, pj);
    philoxFill([1, 2], [3, 4, 5, 6], 3000, pv);
    expect(firstDiff(pj, pv)).toBe(-1);
  });
});

describe('philoxFill: wasm and JS give identical bits', () => {
  it('every size, odd offsets, random keys and counters', () => {
    const next = lcg(4242);
    for (const n of [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 1000, 2047, 2048, 2049, 70000]) {
      checkPhilox([next(), next()], [next(), next(), next(), next()], n, n % 2 === 0 ? 3 : 0);
    }
  });

  it('carries c0 -> c1 -> c2 -> c3 (and wraps the whole counter)', () => {
    const key = [0xa4093822, 0x299f31d0];
    for (const n of [3, 9, 17, 100]) {
      checkPhilox(key, [0xfffffffe, 0, 0, 0], n, 1);
      checkPhilox(key, [0xfffffffa, 0xffffffff, 0, 0], n, 0);
      checkPhilox(key, [0xfffffffa, 0xffffffff, 0xffffffff, 0], n, 0);
      checkPhilox(key, [0xfffffffa, 0xffffffff, 0xffffffff, 0xffffffff], n, 2);
      checkPhilox(key, [0xfffffff8, 0x7fffffff, 0xffffffff, 0x7fffffff], n, 0);
    }
  });

  it('carries across chunk boundaries and at a chunk boundary', () => {
    const key = [7, 0xdeadbeef];
    checkPhilox(key, [2 ** 32 - 3000, 0xffffffff, 5, 6], 70000, 0); // wrap inside the 2nd chunk
    checkPhilox(key, [2 ** 32 - 2048, 0xffffffff, 0xffffffff, 6], 70000, 1); // wrap at a chunk edge
    checkPhilox(key, [2 ** 32 - 1, 0, 0, 0], 5000, 0); // wrap after the first block
    checkPhilox(key, [2 ** 32 - 60000, 1, 2, 3], 70000, 3); // wrap near the end
  });

  it('matches the Random123 known answers through the wasm path', () => {
    const vectors = loadKatVectors().filter((v) => v.name === 'philox4x32' && v.rounds === 10);
    expect(vectors.length).toBeGreaterThan(0);
    for (const v of vectors) {
      const out = new Uint32Array(4 * 16);
      philoxFill(v.key, v.counter, 16, out);
      expect(Array.from(out.subarray(0, 4))).toEqual(v.expected);
    }
  });

  it('writes in place into views on wasm memory', () => {
    const n = 5000;
    const mem = wasmScratch(16 * n + 16);
    const view = new Uint32Array(mem!.buffer, mem!.byteOffset + 4, 4 * n + 1);
    const js = new Uint32Array(4 * n + 1).fill(7);
    view.fill(7);
    philoxFillJs([9, 8], [0xffffff00, 0xffffffff, 1, 2], n, js, 1);
    philoxFill([9, 8], [0xffffff00, 0xffffffff, 1, 2], n, view, 1);
    expect(firstDiff(js, view)).toBe(-1);
  });
});
