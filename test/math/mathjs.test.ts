// src/math against mathjs BigNumber (decimal.js, 60 significant digits) on fresh random points
// in every run: an arbitrary-precision reference inside the suite, beside the mpmath fixture.
// The seed is printed (and can be fixed with DETMATH_SEED) so that a failure can be replayed.
import { all, create, type BigNumber } from 'mathjs';
import { describe, expect, it } from 'vitest';
import * as dm from '../../src/math/index.js';
import { exactDecimal, mulberry32, ulp } from '../helpers.js';

const M = create(all, { number: 'BigNumber', precision: 60 });
type Big = BigNumber;
/** mathjs's functions on BigNumbers, untyped (its overloaded typings do not narrow to BigNumber). */
const B = M as unknown as Record<string, (...args: Big[]) => Big>;

const seed = Number(process.env.DETMATH_SEED ?? (Date.now() % 2 ** 31));
const rand = mulberry32(seed);

/** |c − E| in ulps of E (using the ulp of the double nearest E). */
function ulpError(c: number, E: Big): number {
  const near = Number(E.toString());
  const diff = B.abs!(B.subtract!(M.bignumber(exactDecimal(c)), E));
  return Number(B.divide!(diff, M.bignumber(exactDecimal(ulp(near)))).toString());
}

const big = (x: number) => M.bignumber(exactDecimal(x));
const U = (lo: number, hi: number) => () => lo + (hi - lo) * rand();
const logU = (lo: number, hi: number) => () => Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * rand());
const signed = (g: () => number) => () => (rand() < 0.5 ? -g() : g());

interface Case { name: string; det: (x: number) => number; ref: (x: Big) => Big; gen: () => number }
const cases: Case[] = [
  { name: 'exp', det: dm.detExp, ref: (x) => B.exp!(x), gen: U(-700, 700) },
  { name: 'expm1', det: dm.detExpm1, ref: (x) => B.expm1!(x), gen: signed(logU(1e-8, 30)) },
  { name: 'log', det: dm.detLog, ref: (x) => B.log!(x), gen: logU(1e-300, 1e300) },
  { name: 'log (near 1)', det: dm.detLog, ref: (x) => B.log!(x), gen: () => 1 + (rand() - 0.5) * 2 ** (-40 * rand()) },
  { name: 'log1p', det: dm.detLog1p, ref: (x) => B.log1p!(x), gen: () => -0.9999 + 10 * rand() ** 3 },
  { name: 'log2', det: dm.detLog2, ref: (x) => B.log2!(x), gen: logU(1e-300, 1e300) },
  { name: 'log10', det: dm.detLog10, ref: (x) => B.log10!(x), gen: logU(1e-300, 1e300) },
  { name: 'sin', det: dm.detSin, ref: (x) => B.sin!(x), gen: U(-100, 100) },
  { name: 'cos', det: dm.detCos, ref: (x) => B.cos!(x), gen: U(-100, 100) },
  { name: 'tan', det: dm.detTan, ref: (x) => B.tan!(x), gen: U(-100, 100) },
  { name: 'atan', det: dm.detAtan, ref: (x) => B.atan!(x), gen: signed(logU(1e-6, 1e6)) },
  { name: 'asin', det: dm.detAsin, ref: (x) => B.asin!(x), gen: U(-1, 1) },
  { name: 'acos', det: dm.detAcos, ref: (x) => B.acos!(x), gen: U(-1, 1) },
  { name: 'sinh', det: dm.detSinh, ref: (x) => B.sinh!(x), gen: signed(logU(1e-6, 700)) },
  { name: 'cosh', det: dm.detCosh, ref: (x) => B.cosh!(x), gen: U(-700, 700) },
  { name: 'tanh', det: dm.detTanh, ref: (x) => B.tanh!(x), gen: signed(logU(1e-6, 20)) },
  { name: 'asinh', det: dm.detAsinh, ref: (x) => B.asinh!(x), gen: signed(logU(1e-6, 1e12)) },
  { name: 'acosh', det: dm.detAcosh, ref: (x) => B.acosh!(x), gen: () => 1 + logU(1e-12, 1e12)() },
  { name: 'atanh', det: dm.detAtanh, ref: (x) => B.atanh!(x), gen: U(-0.999999, 0.999999) },
  { name: 'cbrt', det: dm.detCbrt, ref: (x) => B.cbrt!(x), gen: signed(logU(1e-300, 1e300)) },
  // acosh's two ways of forming x + √(x² − 1), on both sides of their split at 4 (the cheaper one is
  // least accurate just above it)
  { name: 'acosh (split at 4)', det: dm.detAcosh, ref: (x) => B.acosh!(x), gen: U(3.5, 9) },
  // cosh's two reciprocals of e^|x|, on both sides of their split at |x| = 4 (the rounded one is
  // least accurate just above it)
  { name: 'cosh (split at 4)', det: dm.detCosh, ref: (x) => B.cosh!(x), gen: signed(U(3.5, 9)) },
  // cbrt near its hardest inputs: x = (c + ulp(c)/2)³ rounded, whose root is next to a halfway case
  { name: 'cbrt (near halfway)', det: dm.detCbrt, ref: (x) => B.cbrt!(x), gen: signed(() => {
    const c = logU(1e-100, 1e100)();
    return Number(B.pow!(B.add!(big(c), big(ulp(c) / 2)), M.bignumber(3)).toString());
  }) },
];

const POINTS = Number(process.env.DETMATH_POINTS ?? 100);

describe(`src/math against mathjs BigNumber on random points (seed ${seed})`, () => {
  for (const c of cases) {
    it(`${c.name} is within 1 ulp`, () => {
      let max = 0, worst = NaN;
      for (let i = 0; i < POINTS; i++) {
        const x = c.gen();
        const e = ulpError(c.det(x), c.ref(big(x)));
        if (!(e <= max)) { max = e; worst = x; }
      }
      expect(max, `${c.name}(${worst}) (seed ${seed})`).toBeLessThan(1);
    });
  }

  it('cbrt is exact on perfect cubes, including roots of 18 bits (the first guess keeps 17)', () => {
    for (let i = 0; i < 20 * POINTS; i++) {
      const n = 1 + Math.floor(rand() * 208063), k = Math.floor(rand() * 400) - 200;   // n³ < 2^53
      const x = n * n * n * 2 ** (3 * k);
      expect(dm.detCbrt(x), `cbrt(${x}) (seed ${seed})`).toBe(n * 2 ** k);
      expect(dm.detCbrt(-x), `cbrt(${-x}) (seed ${seed})`).toBe(-n * 2 ** k);
    }
  });

  it('atan2 is within 1 ulp', () => {
    let max = 0, worst = '';
    for (let i = 0; i < POINTS; i++) {
      const y = signed(logU(1e-10, 1e10))(), x = signed(logU(1e-10, 1e10))();
      const e = ulpError(dm.detAtan2(y, x), B.atan2!(big(y), big(x)));
      if (!(e <= max)) { max = e; worst = `${y}, ${x}`; }
    }
    expect(max, `atan2(${worst}) (seed ${seed})`).toBeLessThan(1);
  });

  it('pow is within 1 ulp', () => {
    let max = 0, worst = '';
    for (let i = 0; i < POINTS; i++) {
      const x = logU(1e-5, 1e5)(), y = U(-60, 60)();
      const e = ulpError(dm.detPow(x, y), B.pow!(big(x), big(y)));
      if (!(e <= max)) { max = e; worst = `${x}, ${y}`; }
    }
    expect(max, `pow(${worst}) (seed ${seed})`).toBeLessThan(1);
  });
});
