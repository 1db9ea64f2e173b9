// The WebAssembly maps of src/compile/det-maps.ts (wasm/detmath.wat's detExpPairs, then
// detLog1pPairs, over arrays) equal the scalar JavaScript functions element by element, bit for
// bit — odd and even lengths, lengths over the 8192-value chunk, in place and into another array,
// values inside and outside the f64x2 fast domains, ±∞, NaN, ±0, subnormals. Exact comparison.
import { describe, expect, it } from 'vitest';
import { detExpInto, detLog1pOfExpInto, setDetMapsWasm } from '../../src/compile/det-maps.js';
import { glmWasmDetMath } from '../../src/compile/glm.js';
import { detExp, detLog1p } from '../../src/math/index.js';

const simd = glmWasmDetMath() !== null;
const log1pOfExp = (x: number) => detLog1p(detExp(x));

/** A tiny LCG (Numerical Recipes' constants) as uniforms in (0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
}

describe.runIf(simd)('detExpInto / detLog1pInto: WebAssembly = the scalar functions, bit for bit', () => {
  const u = lcg(11);
  const arrays: Float64Array[] = [];
  for (const n of [16, 17, 33, 1000, 1001, 8192, 8193, 20001]) {
    arrays.push(Float64Array.from({ length: n }, () => -40 * u()));                                // −|logit|: sigmoid, softplus
    arrays.push(Float64Array.from({ length: n }, (_, i) => (i % 7 === 0 ? -800 * u() : (u() - 0.5) * 20)));
    arrays.push(Float64Array.from({ length: n }, () => (u() - 0.5) * 2e3));
  }
  arrays.push(Float64Array.from({ length: 40 }, (_, i) => [0, -0, -Infinity, Infinity, Number.NaN, 5e-324, -1e-310, 709.7, -745.2, 1, -1, -0.9999999999999999][i % 12]!));
  for (const [name, into, f] of [['detExpInto', detExpInto, detExp], ['detLog1pOfExpInto', detLog1pOfExpInto, log1pOfExp]] as const) {
    it(`${name}: every element is the scalar function's (in place and not)`, () => {
      for (const x of arrays) {
        const want = x.map(f);
        const out = new Float64Array(x.length);
        into(x, out);
        expect(Array.from(out).every((v, i) => Object.is(v, want[i]))).toBe(true);
        const inPlace = x.slice();
        into(inPlace, inPlace);
        expect(Array.from(inPlace).every((v, i) => Object.is(v, want[i]))).toBe(true);
      }
    });
  }

  it('a prefix n leaves the rest of out alone; the JavaScript fallback gives the same', () => {
    const x = Float64Array.from({ length: 101 }, () => -10 * u());
    const out = new Float64Array(101).fill(7);
    detLog1pOfExpInto(x, out, 57);
    expect(out[57]).toBe(7);
    expect(Array.from(out.subarray(0, 57)).every((v, i) => Object.is(v, log1pOfExp(x[i]!)))).toBe(true);
    const was = setDetMapsWasm(false);
    try {
      const js = new Float64Array(101);
      detExpInto(x, js);
      expect(Array.from(js).every((v, i) => Object.is(v, detExp(x[i]!)))).toBe(true);
    } finally { setDetMapsWasm(was); }
  });
});
