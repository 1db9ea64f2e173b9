import { describe, expect, it } from 'vitest';
import { ChainRandom, NutsChain } from '../../../../mcmc/nuts/stan/nuts-chain.js';
import { chainLoops, type ChainLoops } from '../../../../mcmc/nuts/stan/nuts-loops.js';
import { getModes } from '../../../../src/config.js';
import { setWasmEnabled, wasmAvailable } from '../../../../src/prng/wasm.js';
import { key } from '../../../../src/random/keys.js';

/** A deterministic generator of awkward doubles: mostly moderate values, some specials and extremes. */
function filler(seed: number): () => number {
  let s = seed;
  const SPECIAL = [0, -0, Infinity, -Infinity, Number.NaN, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 1e-300, -1e300];
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) | 0;
    const u = (s >>> 0) / 2 ** 32;
    if (u < 0.05) return SPECIAL[Math.floor(u * 200)]!;
    return (u - 0.5) * 8;
  };
}

/** Both implementations over slots filled with the same numbers. */
function twins(count: number, dim: number, seed: number): [ChainLoops, ChainLoops] {
  const w = chainLoops(count + 1, dim, true), j = chainLoops(count + 1, dim, false);
  const next = filler(seed);
  for (let k = 0; k < count; k++) {
    const a = w.array(k), b = j.array(k);
    for (let i = 0; i < dim; i++) { const x = next(); a[i] = x; b[i] = x; }
  }
  return [w, j];
}

function expectSameSlots(w: ChainLoops, j: ChainLoops, count: number): void {
  for (let k = 0; k < count; k++) {
    const a = w.array(k), b = j.array(k);
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect.fail(`slot ${k}[${i}]: wasm ${a[i]} vs JS ${b[i]}`);
  }
}

describe.runIf(wasmAvailable())('NUTS chain loops: WebAssembly and JavaScript give the same bits', () => {
  const DIMS = [1, 2, 3, 7, 10, 33];

  it('every loop, on awkward numbers (NaN, ±∞, ±0, subnormal, huge) and odd and even sizes', () => {
    for (const dim of DIMS) {
      for (let seed = 1; seed <= 40; seed++) {
        const [w, j] = twins(10, dim, seed * 7919 + dim);
        const eps = seed % 2 ? 0.3 : -0.125, half = 0.5 * eps;
        w.kickDrift(0, 1, 2, 3, 4, 5, eps, half); j.kickDrift(0, 1, 2, 3, 4, 5, eps, half);
        expect(Object.is(w.kickEnergy(4, 2, 5, 6, 7, half), j.kickEnergy(4, 2, 5, 6, 7, half))).toBe(true);
        expect(w.join(8, 0, 1, 2, 3, 4, 5, 6, 7)).toBe(j.join(8, 0, 1, 2, 3, 4, 5, 6, 7));
        expect(w.joinLeaves(9, 1, 3, 5, 7)).toBe(j.joinLeaves(9, 1, 3, 5, 7));
        expect(Object.is(w.momentum(0, 5, 6, 7), j.momentum(0, 5, 6, 7))).toBe(true);
        w.spread(2, 3, 4, 8, 9); j.spread(2, 3, 4, 8, 9);
        expectSameSlots(w, j, 10);
      }
    }
  });

  it('the no-U-turn criteria agree in sign on random data where they are mixed', () => {
    // Moderate values only, so every criterion is decided by real sums: both outcomes occur.
    let seen = 0;
    for (let seed = 0; seed < 200; seed++) {
      const w = chainLoops(10, 5, true), j = chainLoops(10, 5, false);
      let s = seed + 1;
      for (let k = 0; k < 10; k++) for (let i = 0; i < 5; i++) { s = (Math.imul(s, 48271) + 11) | 0; const x = ((s >>> 0) / 2 ** 32) - 0.3; w.array(k)[i] = x; j.array(k)[i] = x; }
      const a = w.join(8, 0, 1, 2, 3, 4, 5, 6, 7);
      expect(a).toBe(j.join(8, 0, 1, 2, 3, 4, 5, 6, 7));
      seen += a ? 1 : 0;
    }
    expect(seen).toBeGreaterThan(5);
    expect(seen).toBeLessThan(195);
  });

  it('chains placed in the shared memory never overlap (zeroed slots, each chain keeps its own values)', () => {
    const chains = Array.from({ length: 300 }, (_, c) => {
      const loops = chainLoops(5 + (c % 7), 1 + ((c * 37) % 200), true);
      for (let k = 0; k < 5; k++) { const a = loops.array(k); expect(a.every((v) => v === 0)).toBe(true); a.fill(c * 10 + k); }
      return loops;
    });
    chains.forEach((loops, c) => { for (let k = 0; k < 5; k++) expect(loops.array(k).every((v) => v === c * 10 + k)).toBe(true); });
  });

  it('a chain draws the same with the wasm loops as without (diagonal and dense metrics)', () => {
    for (const metric of ['diagonal', 'dense'] as const) {
      for (const dim of [1, 3, 10]) {
        const run = (): number[] => {
          const f = (x: Float64Array, g: Float64Array): number => {
            let q = 0;
            for (let i = 0; i < x.length; i++) { const s = 1 + i / 3; g[i] = -x[i]! / s; q += (x[i]! * x[i]!) / s; }
            return -0.5 * q;
          };
          const chain = new NutsChain(f, dim, new ChainRandom(key(3), getModes()), { maxTreeDepth: 6, maxEnergyDiff: 1000, metric });
          chain.setPosition(new Float64Array(dim).fill(0.5));
          chain.stepSize = 0.4;
          if (metric === 'diagonal') for (let i = 0; i < dim; i++) chain.invMetric[i] = 1 + 0.25 * i;
          const out: number[] = [];
          for (let t = 0; t < 150; t++) {
            chain.rng.begin(t);
            chain.transition();
            out.push(...chain.q, chain.acceptStat, chain.energy, chain.nSteps);
          }
          return out;
        };
        const withWasm = run();
        const prev = setWasmEnabled(false);
        let withoutWasm: number[];
        try { withoutWasm = run(); } finally { setWasmEnabled(prev); }
        expect(withWasm.length).toBe(withoutWasm.length);
        for (let i = 0; i < withWasm.length; i++) if (!Object.is(withWasm[i], withoutWasm[i])) expect.fail(`${metric}, dim ${dim}: value ${i} differs`);
      }
    }
  });
});
