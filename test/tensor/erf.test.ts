/**
 * erf, erfc and erfinv (src/tensor/special/erf.ts) against mpmath at 50 digits on 3000 points
 * each (fixtures/erf-mpmath.json, written by fixtures/erf-mpmath.py: erf near 0 down to
 * subnormals and across the breakpoints, erfc to x = 27.3, erfinv next to ±1 and tiny), and
 * against mathjs BigNumber (decimal.js, 60 digits) on fresh random points in every run. The seed
 * is printed and can be fixed with ERF_SEED to replay a failure. Errors are in ulp of the exact
 * value; the bounds are the module's ERF_ULP, ERFC_ULP and ERFINV_ULP (against the fixture, whose
 * values are already rounded, half an ulp less).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { all, create, type BigNumber } from 'mathjs';
import { describe, expect, it } from 'vitest';
import { ERFC_ULP, ERFINV_ULP, ERF_ULP, erf, erfc, erfinv } from '../../src/tensor/special/erf.js';
import { exactDecimal, mulberry32, ulp } from '../helpers.js';

const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/erf-mpmath.json', import.meta.url)), 'utf8')) as
  Record<'erf' | 'erfc' | 'erfinv', [number, number][]>;

/** The largest error in ulp over rows, with the row where it occurs. */
function worstUlp(rows: [number, number][], f: (x: number) => number, skip = (_w: number) => false) {
  let worst = 0, at = Number.NaN;
  for (const [x, want] of rows) {
    if (skip(want)) continue;
    const got = f(x);
    const e = got === want ? 0 : Math.abs(got - want) / ulp(want);
    if (!(e <= worst)) { worst = e; at = x; }
  }
  return { worst, at };
}

describe('erf, erfc, erfinv against mpmath (3000 points each)', () => {
  it(`erf within ${ERF_ULP} ulp, including subnormal arguments and both signs`, () => {
    const { worst, at } = worstUlp(fixture.erf, erf);
    expect(worst, `worst at x = ${at}`).toBeLessThanOrEqual(ERF_ULP - 0.5);
    expect(fixture.erf.filter(([x]) => Math.abs(x) < 1e-300).length).toBeGreaterThan(30);
  });

  it(`erfc within ${ERFC_ULP} ulp where it is a normal number (to x ≈ 26.5), absolutely below`, () => {
    const { worst, at } = worstUlp(fixture.erfc, erfc, (w) => w < 2.2250738585072014e-308);
    expect(worst, `worst at x = ${at}`).toBeLessThanOrEqual(ERFC_ULP - 0.5);
    for (const [x, want] of fixture.erfc) if (want < 2.2250738585072014e-308) expect(Math.abs(erfc(x) - want), `x = ${x}`).toBeLessThan(1e-320);
    expect(Math.max(...fixture.erfc.map(([x]) => x))).toBeGreaterThan(27);
  });

  it(`erfinv within ${ERFINV_ULP} ulp, next to ±1 (1 − |y| down to 2^−53) and for tiny y`, () => {
    const { worst, at } = worstUlp(fixture.erfinv, erfinv);
    expect(worst, `worst at y = ${at}`).toBeLessThanOrEqual(ERFINV_ULP - 0.5);
    expect(fixture.erfinv.some(([y]) => 1 - Math.abs(y) === 2 ** -53)).toBe(true);
  });

  it('special values', () => {
    expect([erf(0), erf(-0), erf(Infinity), erf(-Infinity), erf(Number.NaN)]).toEqual([0, -0, 1, -1, Number.NaN]);
    expect([erfc(-Infinity), erfc(Infinity), erfc(0), erfc(30), erfc(-30)]).toEqual([2, 0, 1, 0, 2]);
    expect([erfinv(1), erfinv(-1), erfinv(0), erfinv(-0), erfinv(1.5), erfinv(Number.NaN)]).toEqual([Infinity, -Infinity, 0, -0, Number.NaN, Number.NaN]);
    expect(erf(5e-324)).toBe(5e-324); // 2/√π · 2^−1074 rounds back to the smallest subnormal
  });
});

// ---- mathjs BigNumber on fresh points -----------------------------------------------------------

const M = create(all, { number: 'BigNumber', precision: 60 });
type Big = BigNumber;
const big = (x: number | string): Big => M.bignumber(typeof x === 'number' ? exactDecimal(x) : x) as Big;


const SQRT_PI = big('1.772453850905516027298167483341145182797549456122387128213807789852911284591');

/** erf(x) for 0 ≤ x ≤ 3 by Maclaurin's series (terms below e^9, so 60 digits keep 55). */
function erfSeries(x: Big): Big {
  const x2 = x.times(x);
  let term = x, sum = x;
  for (let n = 1; n < 400; n++) {
    term = term.times(x2).neg().div(n);
    const t = term.div(2 * n + 1);
    sum = sum.plus(t);
    if (t.abs().lt(sum.abs().times('1e-58'))) break;
  }
  return sum.times(2).div(SQRT_PI);
}

/** erfc(x) for x ≥ 3 by Laplace's continued fraction, evaluated backward from depth 400. */
function erfcFraction(x: Big): Big {
  let t = x;
  for (let n = 400; n >= 1; n--) t = x.plus(big(n / 2).div(t));
  return x.times(x).neg().exp().div(SQRT_PI.times(t));
}

function erfcBig(x: Big): Big {
  if (x.gte(3)) return erfcFraction(x);
  if (x.lte(-3)) return big(2).minus(erfcFraction(x.neg()));
  return big(1).minus(erfSeries(x.abs()).times(x.isNeg() ? -1 : 1));
}

function erfBig(x: Big): Big {
  if (x.abs().lte(3)) return erfSeries(x.abs()).times(x.isNeg() ? -1 : 1);
  return x.isNeg() ? erfcBig(x.neg()).minus(1) : big(1).minus(erfcBig(x));
}

/** erfinv(y) by one Newton step from the double result (error 1e−16 → 1e−32), through erfc near ±1. */
function erfinvBig(y: number, start: number): Big {
  const s = big(start), deriv = s.times(s).neg().exp().times(2).div(SQRT_PI);
  const resid = Math.abs(y) > 0.5
    ? big(1).minus(big(Math.abs(y))).minus(erfcBig(s.abs())).times(y < 0 ? 1 : -1)   // erf(s) − y via erfc
    : erfBig(s).minus(big(y));
  return s.minus(resid.div(deriv));
}

const seed = Number(process.env.ERF_SEED ?? (Date.now() % 2 ** 31));
const rand = mulberry32(seed);

/** |got − E| in ulp of E. */
function ulpError(got: number, E: Big): number {
  const near = Number(E.toString());
  return Number(big(got).minus(E).abs().div(big(ulp(near))).toString());
}

describe(`erf, erfc, erfinv against mathjs BigNumber on fresh points (seed ${seed}; ERF_SEED replays)`, () => {
  it('erf on (−6, 6) and near 0', { timeout: 30_000 }, () => {
    for (let i = 0; i < 120; i++) {
      const x = i % 4 === 0 ? (rand() - 0.5) * 10 ** (-300 * rand()) : (rand() - 0.5) * 12;
      expect(ulpError(erf(x), erfBig(big(x))), `erf(${x}), seed ${seed}`).toBeLessThanOrEqual(ERF_ULP);
    }
  });

  it('erfc on (−6, 26.5)', { timeout: 30_000 }, () => {
    for (let i = 0; i < 120; i++) {
      const x = -6 + 32.5 * rand();
      expect(ulpError(erfc(x), erfcBig(big(x))), `erfc(${x}), seed ${seed}`).toBeLessThanOrEqual(ERFC_ULP);
    }
  });

  it('erfinv on (−1, 1), next to ±1 and tiny', { timeout: 30_000 }, () => {
    for (let i = 0; i < 120; i++) {
      const k = i % 3;
      const v = k === 0 ? rand() : k === 1 ? 1 - 2 ** -(1 + Math.floor(52 * rand())) * (0.5 + 0.5 * rand()) : 10 ** (-300 * rand());
      const y = rand() < 0.5 ? -v : v;
      const got = erfinv(y);
      expect(ulpError(got, erfinvBig(y, got)), `erfinv(${y}), seed ${seed}`).toBeLessThanOrEqual(ERFINV_ULP);
    }
  });
});
