// The faster PSIS and LOO (the tail found by a heap in the pass that finds the maximum, the
// log-likelihood read a few observations at a time, the passes fused) give the same bits as the
// code they replaced, frozen in ./psis-reference.ts: every pointwise elpd, Pareto k and smoothed
// log weight, and elpd_loo, p_loo and se, compared with Object.is (NaN equals NaN, −0 ≠ +0).
// Random and edge inputs: ties, constant observations, −∞ and +∞ log-likelihoods, NaN, tiny draw
// counts, one chain, heavy tails (k > 0.7), tails as long as the draws.
import { describe, expect, it } from 'vitest';
import { Tensor } from '../../../src/tensor/tensor.js';
import { loo, psislw } from '../../../mcmc/index.js';
import { psisSmooth, tailLength } from '../../../mcmc/diagnostics/internal/psis.js';
import { mean, variance } from '../../../mcmc/diagnostics/internal/chains.js';
import { looRows, psisSmoothReference } from './psis-reference.js';

/** A tiny LCG (Numerical Recipes' constants) as uniforms in (0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 2 ** 32;
}

/** Index of the first element where a and b differ (Object.is), or −1. */
function firstDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** Observation-major rows (chain-major draws) of a [draws, chains, n] array, as the old logLikMatrix built them. */
function rowsOf(v: Float64Array, D: number, C: number, n: number): Float64Array {
  const S = D * C, rows = new Float64Array(n * S);
  for (let d = 0; d < D; d++) for (let c = 0; c < C; c++) for (let j = 0; j < n; j++) rows[j * S + c * D + d] = v[(d * C + c) * n + j]!;
  return rows;
}

interface Case { name: string; D: number; C: number; n: number; v: Float64Array }

/** Log-likelihoods [draws, chains, n]: per observation a kind picked from the list, so every kind meets every S. */
function makeCase(name: string, D: number, C: number, n: number, seed: number): Case {
  const u = lcg(seed), S = D * C;
  const nrm = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  const v = new Float64Array(S * n);
  for (let j = 0; j < n; j++) {
    const kind = j % 11;
    const scale = 0.1 + 3 * u(), y = nrm() * 2;
    for (let s = 0; s < S; s++) {
      const mu = nrm() * scale;
      let x: number;
      switch (kind) {
        case 0: x = -0.5 * (y - mu) ** 2 - 0.9189385332046727; break;              // a normal observation
        case 1: x = -Math.exp(3 * nrm()); break;                                    // heavy tail: k > 0.7
        case 2: x = Math.round(nrm() * 2) / 4 - 1; break;                           // heavy ties
        case 3: x = -1.25; break;                                                   // constant
        case 4: x = u() < 0.05 ? -Infinity : -u(); break;                           // some −∞ (lw = +∞): the slow path
        case 5: x = u() < 0.05 ? Infinity : -u(); break;                            // some +∞ (lw = −∞)
        case 6: x = u() < 0.02 ? Number.NaN : -0.5 * mu * mu; break;                // NaN
        case 7: x = s % 2 === 0 ? 0 : -0; break;                                    // ±0 only
        case 8: x = -700 - 50 * u(); break;                                         // far below 0: exp underflows
        case 9: x = s % Math.max(1, Math.floor(S / 256)) === 0 ? -10 - u() : -u(); break;   // the sampled draws largest: too few candidates
        default: x = -0.5 * (y - mu) ** 2 / (1 + u()) - 5; break;                  // case 10
      }
      v[(s % D * C + Math.floor(s / D)) * n + j] = x;
    }
  }
  return { name, D, C, n, v };
}

const CASES: Case[] = [
  makeCase('4000 × 33 (4 chains)', 1000, 4, 33, 1),
  makeCase('1000 × 20 (one chain)', 1000, 1, 20, 2),
  makeCase('2 draws', 2, 1, 10, 3),
  makeCase('3 draws', 3, 1, 10, 4),
  makeCase('5 × 2 draws', 5, 2, 10, 5),
  makeCase('7 draws', 7, 1, 10, 6),
  makeCase('25 × 2 draws', 25, 2, 13, 7),
  makeCase('101 × 3 draws', 101, 3, 17, 8),
];

describe('loo: the same bits as before the speed-up', () => {
  for (const c of CASES) {
    for (const reff of [1, 0.37, 3]) {
      it(`${c.name}, r_eff ${reff}`, () => {
        const S = c.D * c.C;
        const want = looRows(rowsOf(c.v, c.D, c.C, c.n), S, c.n, reff);
        const r = loo(new Tensor(c.v, [c.D, c.C, c.n], 'float64'), { reff });
        expect(firstDiff(r.paretoK.data as Float64Array, want.k)).toBe(-1);
        expect(firstDiff(r.looI.data as Float64Array, want.looI)).toBe(-1);
        let elpd = 0;
        for (const x of want.looI) elpd += x;
        expect(Object.is(r.elpdLoo, elpd)).toBe(true);
        expect(Object.is(r.pLoo, want.lppd - elpd)).toBe(true);
        expect(Object.is(r.se, Math.sqrt(c.n * variance(want.looI, 0)))).toBe(true);
      });
    }
  }

  it('with the importance correction logP − logQ (approximate draws), scale deviance', () => {
    const c = CASES[0]!, S = c.D * c.C, u = lcg(99);
    const logP = Float64Array.from({ length: S }, () => -3 * u());
    const logQ = Float64Array.from({ length: S }, (_, s) => (s === 17 ? -Infinity : -3 * u()));
    // logP, logQ are [draws, chains]; the correction is chain-major like the rows
    const corr = new Float64Array(S);
    for (let d = 0; d < c.D; d++) for (let ch = 0; ch < c.C; ch++) corr[ch * c.D + d] = logP[d * c.C + ch]! - logQ[d * c.C + ch]!;
    const want = looRows(rowsOf(c.v, c.D, c.C, c.n), S, c.n, 1, corr);
    const r = loo(new Tensor(c.v, [c.D, c.C, c.n], 'float64'), {
      logP: new Tensor(logP, [c.D, c.C], 'float64'), logQ: new Tensor(logQ, [c.D, c.C], 'float64'), scale: 'deviance',
    });
    expect(firstDiff(r.paretoK.data as Float64Array, want.k)).toBe(-1);
    expect(firstDiff(r.looI.data as Float64Array, want.looI.map((x) => -2 * x))).toBe(-1);
  });

  it('the cases reach k > 0.7, k = ∞, NaN k and finite k in the 4000-draw case', () => {
    const c = CASES[0]!;
    const k = loo(new Tensor(c.v, [c.D, c.C, c.n], 'float64'), { reff: 1 }).paretoK.data as Float64Array;
    expect(k.some((x) => x > 0.7 && Number.isFinite(x))).toBe(true);
    expect(k.some((x) => x === Infinity)).toBe(true);
    expect(k.some((x) => x < 0.7)).toBe(true);
    expect(mean(k.filter(Number.isFinite))).toBeGreaterThan(0);
  });
});

describe('psisSmooth and psislw: the same bits as before the speed-up', () => {
  it('psislw: smoothed log weights and k of every case', () => {
    for (const c of CASES) {
      const S = c.D * c.C;
      const rows = rowsOf(c.v, c.D, c.C, c.n);
      const wantK = new Float64Array(c.n);
      for (let j = 0; j < c.n; j++) {
        const row = rows.subarray(j * S, (j + 1) * S);
        for (let s = 0; s < S; s++) row[s] = -row[s]!;
        wantK[j] = psisSmoothReference(row, tailLength(S, 0.8));
      }
      const r = psislw(new Tensor(c.v.map((x) => -x), [c.D, c.C, c.n], 'float64'), { reff: 0.8 });
      expect(firstDiff(r.paretoK.data as Float64Array, wantK)).toBe(-1);
      expect(firstDiff(rowsOf(r.logWeights.data as Float64Array, c.D, c.C, c.n), rows)).toBe(-1);
    }
  });

  it('psisSmooth on raw arrays: every tail length up to S − 1 and beyond, NaN, ±∞, ties, sorted orders', () => {
    const u = lcg(5);
    const arrays: Float64Array[] = [];
    for (const s of [2, 3, 6, 10, 40, 333]) {
      arrays.push(Float64Array.from({ length: s }, () => Math.log(u()) * 3));
      arrays.push(Float64Array.from({ length: s }, () => Math.floor(u() * 4)));
      arrays.push(Float64Array.from({ length: s }, (_, i) => i));
      arrays.push(Float64Array.from({ length: s }, (_, i) => -i / 7));
      arrays.push(Float64Array.from({ length: s }, () => (u() < 0.1 ? Number.NaN : u() < 0.1 ? -Infinity : u() < 0.05 ? Infinity : 1 / u())));
      arrays.push(new Float64Array(s).fill(-Infinity));
    }
    let n = 0;
    for (const x of arrays) {
      for (const tail of [1, 2, 5, Math.floor(x.length / 2), x.length - 1, x.length, x.length + 3]) {
        const a = Float64Array.from(x), b = Float64Array.from(x);
        const k = psisSmooth(a, tail), kWant = psisSmoothReference(b, tail);
        expect(Object.is(k, kWant)).toBe(true);
        expect(firstDiff(a, b)).toBe(-1);
        n++;
      }
    }
    expect(n).toBe(arrays.length * 7);
  });
});
