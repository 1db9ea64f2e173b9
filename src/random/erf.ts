/**
 * The error function and the scaled complementary error function in float64, for
 * `truncatedNormal`. Written from two classical expansions, Maclaurin's series for small
 * arguments and Laplace's continued fraction (Abramowitz and Stegun 7.1.14) elsewhere, so the
 * library keeps no runtime dependency; accurate to about 2 ulp (checked against @stdlib's erf
 * and erfcx in test/random/erf.test.ts).
 */
import { detExp } from '../math/index.js';

const TWO_OVER_SQRT_PI = 1.1283791670955126; // 2/√π
const INV_SQRT_PI = 0.5641895835477563; // 1/√π
const SPLITTER = 134217729; // 2^27 + 1 (Veltkamp)

/** x² = s + e exactly (Dekker's product), as [s, e]. */
function square(x: number): [number, number] {
  const s = x * x;
  const t = SPLITTER * x;
  const hi = t - (t - x), lo = x - hi;
  return [s, ((hi * hi - s) + 2 * hi * lo) + lo * lo];
}

/** e^(sign·x²) with x² carried to double-double, so the rounding of x² costs nothing. */
function expSquare(x: number, sign: 1 | -1): number {
  const [s, e] = square(x);
  return detExp(sign * s) * (1 + sign * e);
}

/**
 * erf(x) for 0 ≤ x < 0.5 by Maclaurin's series (2/√π)·Σ (−1)ⁿx^(2n+1)/(n!(2n+1)), whose terms
 * fall by x² or faster, so the alternation costs nothing.
 */
function erfSmall(x: number): number {
  const x2 = x * x;
  let power = 1, sum = 1;
  for (let n = 1; n < 40; n++) {
    power *= -x2 / n;
    const term = power / (2 * n + 1);
    sum += term;
    if (Math.abs(term) <= 1e-17 * sum) break;
  }
  return TWO_OVER_SQRT_PI * (x * sum);
}

/**
 * erfcx(z) = e^(z²)·erfc(z) for z ≥ 0.5 by the continued fraction
 * √π·erfcx(z) = 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...)))), evaluated backward from a depth
 * that makes the truncation error negligible (about 810 terms at z = 0.5, 60 at z = 2, 12 for
 * large z). Backward evaluation damps rounding errors, so the result is good to a few ulp.
 */
function erfcxFraction(z: number): number {
  const depth = Math.ceil(12 + 200 / (z * z));
  let t = z;
  for (let n = depth; n >= 1; n--) t = z + (n / 2) / t;
  return INV_SQRT_PI / t;
}

/**
 * The error function erf(x) = (2/√π)∫₀ˣ e^(−t²) dt in float64, within a few ulp.
 *
 * @example
 * erf(1); // ≈ 0.8427007929497149
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const ax = Math.abs(x);
  let r: number;
  if (ax < 0.5) r = erfSmall(ax);
  else if (ax < 6) r = 1 - expSquare(ax, -1) * erfcxFraction(ax);
  else r = 1; // erfc(6) ≈ 2.2e-17 is below half an ulp of 1
  return x < 0 ? -r : r;
}

/**
 * The scaled complementary error function erfcx(x) = e^(x²)·erfc(x) for x ≥ 0 (NaN below),
 * within about 2 ulp.
 * erfcx(∞) = 0; for large x it behaves like 1/(x√π).
 *
 * @example
 * erfcx(10); // ≈ 0.05614099274382259
 */
export function erfcx(x: number): number {
  if (!(x >= 0)) return Number.NaN;
  if (x === Infinity) return 0;
  if (x < 0.5) return expSquare(x, 1) * (1 - erfSmall(x));
  return erfcxFraction(x);
}
