/**
 * The regularised incomplete beta function, its complement and its inverse
 * (src/tensor/special/betainc.ts, betaincinv.ts) against mpmath at 50 digits
 * (fixtures/betainc-mpmath.json, written by fixtures/betainc-mpmath.py: thousands of points with
 * a, b from 1e−300 to 1e10, tiny against huge, x from 1e−300 to 1 − 1e−16 and near the bulk of
 * skewed cases), and against mathjs BigNumber on fresh random points in every run, where
 * I_x(a, n) = x^a Σⱼ₌₀ⁿ⁻¹ (a)ⱼ/j! (1 − x)ʲ for integer n is a finite sum of positive terms.
 *
 * Accuracy is asked relative to the problem's conditioning (as in special.test.ts): a float64
 * input is known to half an ulp, so no implementation beats ε·κ, κ = Σᵥ |v ∂I/∂v|/I over a, b
 * and x. I and 1 − I must be within BETAINC_UNITS·ε·(1 + κ) of the reference. For the inverse,
 * with v the smaller of x and 1 − x, S the smaller of I and 1 − I at the root and
 * λ = S/(v |dS/dv|) (the inverse's own condition number in p), x must be within
 * BETAINCINV_UNITS·ε·(1 + λ(1 + κ)) relative of the exact root for the float64 p, κ the
 * condition number of S in a and b.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { all, create, type BigNumber } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { BETAINC_UNITS, betaincDaDb, betaincPair, betaincScalar, betaincUpperScalar } from '../../src/tensor/special/betainc.js';
import { BETAINCINV_UNITS, betaincinv } from '../../src/tensor/special/betaincinv.js';
import { betaPowerLog } from '../../src/tensor/special/gamma.js';
import { exactDecimal, mulberry32 } from '../helpers.js';

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/betainc-mpmath.json', import.meta.url)), 'utf8')) as {
  betainc: number[][]; betaincinv: number[][];
};
const EPS = 2 ** -52;
const PAIR = new Float64Array(2);

/**
 * The inverse's amplification λ(1 + κ) at x: λ = S/(v |dS/dv|) with S the smaller of I, 1 − I and
 * v the smaller of x, 1 − x, and κ = (|a ∂S/∂a| + |b ∂S/∂b|)/S from this library's own partials
 * (an error of ε(1 + κ) in S moves the root by λ times that, relative).
 */
function amplification(a: number, b: number, x: number): number {
  const y = 1 - x;
  betaincPair(a, b, x, y, PAIR);
  const s = Math.min(PAIR[0]!, PAIR[1]!), v = Math.min(x, y);
  const lam = s / Math.exp(betaPowerLog(a, b, x, y) - Math.log1p(-v));
  betaincDaDb(a, b, x, GRAD);
  const kappa = (Math.abs(a * GRAD[0]!) + Math.abs(b * GRAD[1]!)) / s;
  return lam * (1 + (Number.isFinite(kappa) ? kappa : 0));
}
const GRAD = [0, 0];

describe('betainc against mpmath (fixture)', () => {
  const rows = fixture.betainc;

  it(`I and 1 − I within ${BETAINC_UNITS}·ε·(1 + κ) over ${rows.length} points`, { timeout: 20_000 }, () => {
    let worst = 0;
    for (const [a, b, x, I, Ic, da, db, dx] of rows as [number, number, number, number, number, number, number, number][]) {
      const num = Math.abs(da) + Math.abs(db) + Math.abs(dx);
      const got = [betaincScalar(a, b, x), betaincUpperScalar(a, b, x)];
      [I, Ic].forEach((want, j) => {
        const units = Math.abs(got[j]! - want) / Math.abs(want) / (EPS * (1 + num / want));
        worst = Math.max(worst, units);
        expect(units, `${j ? '1 − I' : 'I'}(${a}, ${b}, ${x}) = ${got[j]}, mpmath ${want}, κ = ${num / want}`).toBeLessThanOrEqual(BETAINC_UNITS);
      });
    }
    expect(rows.length).toBeGreaterThan(2000);
    expect(worst).toBeGreaterThan(0);
  });

  it('covers the hard ranges', () => {
    const has = (f: (r: number[]) => boolean) => rows.filter(f).length;
    // Large against small (BGRAT's region and BFRAC's skewed one), tiny parameters, both ends of x, tiny results.
    expect(has(([a, b]) => Math.max(a!, b!) > 100 && Math.min(a!, b!) < 40 && Math.max(a!, b!) > 20 * Math.min(a!, b!))).toBeGreaterThan(300);
    expect(has(([a, b]) => Math.max(a!, b!) > 1e8 && Math.min(a!, b!) < 1)).toBeGreaterThan(10);
    expect(has(([a, b]) => Math.min(a!, b!) < 1e-100)).toBeGreaterThan(300);
    expect(has(([a, b]) => Math.min(a!, b!) > 1e3)).toBeGreaterThan(100);
    expect(has(([, , x]) => x! < 1e-100)).toBeGreaterThan(150);
    expect(has(([, , x]) => 1 - x! < 1e-10)).toBeGreaterThan(100);
    expect(has(([, , , I, Ic]) => Math.min(I!, Ic!) < 1e-100)).toBeGreaterThan(300);
  });
});

describe('betaincinv against mpmath (fixture)', () => {
  const rows = fixture.betaincinv;

  it(`x within ${BETAINCINV_UNITS}·ε·(1 + λ(1 + κ)) of the exact root, over ${rows.length} points and both tails`, { timeout: 30_000 }, () => {
    let worst = 0;
    for (const [p, a, b, upper, want] of rows as [number, number, number, number, number][]) {
      const got = betaincinv(p, a, b, upper === 1);
      const lam = amplification(a, b, want);
      const units = Math.abs(got - want) / Math.abs(want) / (EPS * (1 + lam));
      worst = Math.max(worst, units);
      expect(units, `betaincinv(${p}, ${a}, ${b}, ${upper === 1}) = ${got}, mpmath ${want}, λ = ${lam}`).toBeLessThanOrEqual(BETAINCINV_UNITS);
    }
    expect(rows.length).toBeGreaterThan(800);
    expect(rows.filter(([p]) => p! < 1e-100).length).toBeGreaterThan(50);
    expect(rows.filter(([, , , upper]) => upper === 1).length).toBeGreaterThan(300);
  });
});

describe('special values and arguments', () => {
  it('ends of the domain, infinite parameters and bad input', () => {
    expect([betaincScalar(2, 3, 0), betaincScalar(2, 3, 1), betaincUpperScalar(2, 3, 0), betaincUpperScalar(2, 3, 1)]).toEqual([0, 1, 1, 0]);
    expect([betaincScalar(-1, 2, 0.5), betaincScalar(2, 0, 0.5), betaincScalar(2, 2, 1.5), betaincScalar(2, 2, Number.NaN)])
      .toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect([betaincScalar(Infinity, 2, 0.5), betaincScalar(2, Infinity, 0.5), betaincUpperScalar(Infinity, 2, 0.5)]).toEqual([0, 1, 1]);
    expect([betaincinv(0, 2, 3), betaincinv(1, 2, 3), betaincinv(0, 2, 3, true), betaincinv(1, 2, 3, true)]).toEqual([0, 1, 1, 0]);
    expect([betaincinv(-0.1, 2, 3), betaincinv(0.5, 0, 3), betaincinv(0.5, 2, Infinity), betaincinv(Number.NaN, 2, 3)])
      .toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
  });

  it('closed forms: I_x(a, 1) = x^a, I_x(1, b) = 1 − (1 − x)^b, I_x(½, ½) = (2/π) asin √x', () => {
    expect(betaincScalar(3, 1, 0.5)).toBe(0.125);
    expect(betaincUpperScalar(1, 2, 0.5)).toBe(0.25);
    expect(betaincScalar(0.5, 0.5, 0.5)).toBeCloseTo(0.5, 15);
    expect(betaincinv(0.6875, 2, 3)).toBeCloseTo(0.5, 15);
  });

  it('the inverse round-trips in the far tails, where the answer is tiny or next to 1', () => {
    for (const [a, b, x] of [[0.5, 1e6, 1e-9], [1e-3, 2, 1e-200], [3, 1e-4, 1 - 2 ** -40], [1e8, 0.5, 1 - 1e-9]] as const) {
      const lower = betaincScalar(a, b, x), upper = betaincUpperScalar(a, b, x);
      const s = lower <= upper ? betaincinv(lower, a, b) : betaincinv(upper, a, b, true);
      const v = Math.min(x, 1 - x), w = Math.min(s, 1 - s);
      expect(Math.abs(w - v) / v, `(${a}, ${b}, ${x})`).toBeLessThan(1e-12 * (1 + amplification(a, b, x)));
    }
  });
});

// ---- mathjs BigNumber on fresh points -----------------------------------------------------------

const M = create(all, { number: 'BigNumber', precision: 80 });
type Big = BigNumber;
const big = (x: number): Big => M.bignumber(exactDecimal(x)) as Big;

/** I_x(a, n) for integer n ≥ 1: x^a Σⱼ₌₀ⁿ⁻¹ (a)ⱼ/j! yʲ, y = 1 − x exactly; and the density. */
function ibetaIntB(a: number, n: number, x: number): { I: Big; Ic: Big; density: Big } {
  const A = big(a), X = big(x), Y = M.bignumber(1).minus(X) as Big;
  let term = M.bignumber(1) as Big, sum = term;
  for (let j = 1; j < n; j++) {
    term = term.times(A.plus(j - 1)).div(j).times(Y);
    sum = sum.plus(term);
  }
  const xa = A.times(X.ln()).exp();
  const I = xa.times(sum);
  // 1/B(a, n) = (a)ₙ/(n − 1)!
  let invB = M.bignumber(1) as Big;
  for (let j = 0; j < n; j++) invB = invB.times(A.plus(j));
  for (let j = 1; j < n; j++) invB = invB.div(j);
  const density = A.minus(1).times(X.ln()).plus(Y.ln().times(n - 1)).exp().times(invB);
  return { I, Ic: (M.bignumber(1) as Big).minus(I), density };
}

const seed = Number(process.env.BETAINC_SEED ?? (Date.now() % 2 ** 31));
const rand = mulberry32(seed);

describe(`betainc and betaincinv against mathjs BigNumber on fresh points (seed ${seed}; BETAINC_SEED replays)`, () => {
  it('I_x(a, n) and I_x(n, a) for integer n, a from 1e−3 to 1e4, x anywhere; and the inverse', { timeout: 60_000 }, () => {
    const grad = [0, 0];
    for (let i = 0; i < 60; i++) {
      const a = 10 ** (-3 + 7 * rand()), n = 1 + Math.floor(40 * rand() ** 2);
      const k = i % 3;
      const x = k === 0 ? rand() : k === 1 ? 10 ** (-300 * rand()) : 1 - 10 ** (-1 - 15 * rand());
      if (!(x > 0 && x < 1)) continue;
      const { I, Ic, density } = ibetaIntB(a, n, x);
      const want = Number(I.toString()), wantC = Number(Ic.toString());
      if (!(want > 1e-300 && wantC > 1e-60)) continue;
      betaincDaDb(a, n, x, grad);
      const num = Math.abs(a * grad[0]!) + Math.abs(n * grad[1]!) + Math.abs(x * Number(density.toString()));
      // Both orientations: I_x(a, n) and I_{1−x}(n, a) = 1 − I_x(a, n) (the latter with 1 − x rounded, so
      // compare the pair called with the exact complement).
      betaincPair(a, n, x, 1 - x, PAIR);
      const [g, gc] = [PAIR[0]!, PAIR[1]!];
      betaincPair(n, a, 1 - x, x, PAIR);
      const [h, hc] = [PAIR[1]!, PAIR[0]!];
      for (const [got, w, what] of [[g, want, 'I'], [gc, wantC, '1 − I'], [h, want, 'I (swapped)'], [hc, wantC, '1 − I (swapped)']] as const) {
        const units = Math.abs(got - w) / w / (EPS * (1 + num / w));
        expect(units, `${what} at (${a}, ${n}, ${x}) = ${got}, BigNumber ${w}; seed ${seed}`).toBeLessThanOrEqual(BETAINC_UNITS);
      }
      // The inverse from the smaller tail: its residual, turned into an error in x by the density.
      const upper = wantC < want, p = upper ? wantC : want;
      const root = betaincinv(p, a, n, upper);
      if (!(root > 0 && root < 1)) continue;
      const at = ibetaIntB(a, n, root);
      const resid = Math.abs(Number((upper ? at.Ic.minus(big(p)) : at.I.minus(big(p))).div(at.density).toString()));
      const lam = amplification(a, n, root);
      expect(resid / Math.min(root, 1 - root) / (EPS * (1 + lam)), `betaincinv(${p}, ${a}, ${n}, ${upper}) = ${root}; seed ${seed}`)
        .toBeLessThanOrEqual(BETAINCINV_UNITS);
    }
  });
});
