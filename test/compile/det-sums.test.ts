// The WebAssembly sums of src/compile/det-sums.ts (wasm/detmath.wat's detExpSumShifted and
// detLog1pSumScaled) equal the JavaScript loops bit for bit — odd and even lengths, terms inside
// and outside the f64x2 fast domains (exp below −707, log1p below −0.5), ±∞, NaN, subnormals — and
// so LOO (whose PSIS uses them) gives the same numbers with and without them. Exact comparison.
import { afterEach, describe, expect, it } from 'vitest';
import { afterAddMax, detExpSumAfterAdd, detExpSumShifted, detExpSumsSelfShifted, detLog1pSumScaled, detLog1pSumsGrid, detSumsArena, setDetSumsWasm } from '../../src/compile/det-sums.js';
import { glmWasmDetMath } from '../../src/compile/glm.js';
import { loo } from '../../mcmc/diagnostics/loo.js';
import { logSumExpMax, logSumExpOf } from '../../mcmc/diagnostics/internal/psis.js';
import { Tensor } from '../../src/tensor/tensor.js';

const simd = glmWasmDetMath() !== null;
afterEach(() => { setDetSumsWasm(true); });

/** A tiny LCG (Numerical Recipes' constants) as uniforms in (0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
}

const F = new Float64Array(1), U = new BigUint64Array(F.buffer);
const bits = (x: number): bigint => { F[0] = x; return U[0]!; };
/** The sum both ways: the wasm path, then the JavaScript loop. */
function both<A>(f: (x: Float64Array, a: A) => number, x: Float64Array, a: A): [bigint, bigint] {
  setDetSumsWasm(true);
  const w = f(x, a);
  setDetSumsWasm(false);
  const j = f(x, a);
  setDetSumsWasm(true);
  return [bits(w), bits(j)];
}

describe.runIf(simd)('detExpSumShifted / detLog1pSumScaled: WebAssembly = the JavaScript loop, bit for bit', () => {
  const u = lcg(7);
  const arrays: Float64Array[] = [];
  for (const n of [16, 17, 31, 100, 101, 4000, 4001]) {
    arrays.push(Float64Array.from({ length: n }, () => -30 * u()));                        // the fast domain
    arrays.push(Float64Array.from({ length: n }, (_, i) => (i % 13 === 0 ? -800 * u() : -5 * u())));   // some below −707
    arrays.push(Float64Array.from({ length: n }, () => (u() - 0.5) * 1e3));
  }
  arrays.push(Float64Array.from({ length: 20 }, (_, i) => [0, -0, -Infinity, Infinity, Number.NaN, 5e-324, -1e-310, 709.7, -745.2, 1][i % 10]!));

  it('Σ detExp(x − shift) for shifts 0, max, −max, NaN and ∞', () => {
    let n = 0;
    for (const x of arrays) {
      let max = -Infinity;
      for (const v of x) if (v > max) max = v;
      for (const shift of [0, max, -max, 3.5, Number.NaN, -Infinity]) {
        const [w, j] = both(detExpSumShifted, x, shift);
        expect(w).toBe(j);
        n++;
      }
    }
    expect(n).toBe(arrays.length * 6);
  }, 10_000);

  it('Σ detLog1p(−b·z) on GPD exceedances and on terms below −0.5, at 0, −1 and beyond', () => {
    const v = lcg(11);
    for (const x of arrays) {
      const z = Float64Array.from(x, (t) => Math.abs(t) / 30);
      let zMax = 0;
      for (const t of z) if (t > zMax) zMax = t;
      for (const b of [1 / zMax, 0.4 / zMax, -3 / zMax, 1e-9, 0, 2 / zMax, v()]) {
        const [w, j] = both(detLog1pSumScaled, z, b);
        expect(w).toBe(j);
      }
    }
  });
});

describe('detLog1pSumsGrid and detSumsArena', () => {
  it('the grid equals detLog1pSumScaled per scale, with and without WebAssembly, bit for bit', () => {
    const u = lcg(21);
    for (const n of [5, 16, 17, 135, 800]) {
      const z = Float64Array.from({ length: n }, () => -Math.log(u()) * 2).sort();
      const zMax = z[n - 1]!;
      const b = Float64Array.from({ length: 41 }, (_, j) => 1 / zMax + (1 - Math.sqrt(41 / (j + 0.5))) / (3 * z[Math.floor(n / 4 + 0.5) - 1]!));
      b[3] = 0; b[4] = 1e-9; b[5] = -3 / zMax; b[6] = 2 / zMax;   // 0, tiny, and terms beyond the fast domain (−b·z < −0.5)
      for (const on of [true, false]) {
        setDetSumsWasm(on);
        const out = new Float64Array(b.length);
        detLog1pSumsGrid(z, b, out);
        b.forEach((bj, j) => expect(bits(out[j]!), `n ${n}, j ${j}, wasm ${on}`).toBe(bits(detLog1pSumScaled(z, bj))));
      }
      setDetSumsWasm(true);
    }
  });

  it('detExpSumsSelfShifted equals detExpSumShifted(x, x[j]) for every j, with and without WebAssembly, bit for bit', () => {
    const u = lcg(23);
    for (const n of [3, 16, 31, 41, 200]) {
      const x = Float64Array.from({ length: n }, (_, i) => (i === 2 ? -800 : i === 5 ? Number.NaN : -40 * u()));
      for (const on of [true, false]) {
        setDetSumsWasm(on);
        const out = new Float64Array(n);
        detExpSumsSelfShifted(x, out);
        x.forEach((xj, j) => expect(bits(out[j]!), `n ${n}, j ${j}, wasm ${on}`).toBe(bits(detExpSumShifted(x, xj))));
      }
      setDetSumsWasm(true);
    }
  });

  it('detExpSumAfterAdd in the arena (WebAssembly) equals its JavaScript loops: lw, the sum and both log-sum-exps, bit for bit', () => {
    const u = lcg(24);
    for (const n of [16, 17, 101, 4000, 4001]) {
      for (const kind of ['plain', 'edges', '±0 maxima'] as const) {
        const lw0 = Float64Array.from({ length: n }, () => -30 * u());
        const ll0 = Float64Array.from({ length: n }, () => -5 * u());
        if (kind === 'edges') {
          // NaN first in a lane, −∞, a term below −707, the odd last term the largest
          lw0[0] = Number.NaN; ll0[1] = Number.NaN; lw0[2] = -Infinity; lw0[5] = -800;
          lw0[n - 1] = 3; ll0[n - 1] = 1;
        }
        if (kind === '±0 maxima') {
          // +0 before −0 in different lanes: the loop keeps +0, the lanes may give −0; the results may not differ
          ll0[3] = 0; ll0[4] = -0; lw0[3] = 0.75; lw0[4] = 0.75;
        }
        const arena = detSumsArena(2 * n);
        const lw = arena.subarray(0, n), ll = arena.subarray(n, 2 * n);
        lw.set(lw0); ll.set(ll0);
        const sum = detExpSumAfterAdd(lw, ll, 0.75);
        const got = [bits(sum), bits(logSumExpOf(sum, afterAddMax[0]!, 1)), bits(logSumExpMax(Float64Array.from(ll0), afterAddMax[1]!, n)), ...Array.from(lw, bits)];
        const jl = Float64Array.from(lw0);
        const js = detExpSumAfterAdd(jl, Float64Array.from(ll0), 0.75);   // plain arrays: the JavaScript loops
        expect(got).toEqual([bits(js), bits(logSumExpOf(js, afterAddMax[0]!, 1)), bits(logSumExpMax(Float64Array.from(ll0), afterAddMax[1]!, n)), ...Array.from(jl, bits)]);
      }
    }
  });

  it('sums over arena views (no copy) equal sums over copies, and a view survives sums over shorter arrays', () => {
    const u = lcg(22);
    const n = 3000;
    const arena = detSumsArena(2 * n);
    const a = arena.subarray(0, n), c = arena.subarray(n, 2 * n);
    for (let i = 0; i < n; i++) { a[i] = -20 * u(); c[i] = 3 * u(); }
    const want = [detExpSumShifted(Float64Array.from(a), -1), detLog1pSumScaled(Float64Array.from(c), 0.1)];
    // a sum over a foreign array (copied after the arena) must not touch the arena
    detExpSumShifted(Float64Array.from({ length: 2 * n }, () => u()), 0);
    expect(a.length).toBe(n);
    expect([bits(detExpSumShifted(a, -1)), bits(detLog1pSumScaled(c, 0.1))]).toEqual(want.map(bits));
    expect(detExpSumShifted(a.subarray(7, 1007), 0)).toBe(detExpSumShifted(Float64Array.from(a.subarray(7, 1007)), 0));
  });
});

describe('LOO with and without the WebAssembly sums', () => {
  it('gives the same elpd, se, p_loo, pointwise values and Pareto k', () => {
    const u = lcg(3);
    const D = 500, C = 2, N = 40;
    const v = Float64Array.from({ length: D * C * N }, (_, i) => -0.5 * (-2 * Math.log(u())) * Math.cos(6.283185307179586 * u()) ** 2 - (i % N) * 0.01 - (i % 97 === 0 ? 9 : 0));
    const ll = new Tensor(v, [D, C, N], 'float64');
    setDetSumsWasm(false);
    const js = loo(ll);
    setDetSumsWasm(true);
    const wasm = loo(ll);
    expect(wasm.elpdLoo).toBe(js.elpdLoo);
    expect(wasm.se).toBe(js.se);
    expect(wasm.pLoo).toBe(js.pLoo);
    expect(Array.from(wasm.looI.data as Float64Array)).toEqual(Array.from(js.looI.data as Float64Array));
    expect(Array.from(wasm.paretoK.data as Float64Array)).toEqual(Array.from(js.paretoK.data as Float64Array));
  }, 20_000);   // ~0.8 s quiet
});
