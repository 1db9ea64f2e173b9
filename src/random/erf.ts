/**
 * The scaled complementary error function erfcx(x) = e^(x²)·erfc(x) in float64, for
 * `truncatedNormal` and the normal log-cdf: Laplace's continued fraction (Abramowitz and Stegun
 * 7.1.14) above ½, e^(x²)·erfc(x) below; accurate to about 2 ulp (checked against @stdlib's
 * erfcx in test/random/erf.test.ts). erf itself lives with the other special functions
 * (src/tensor/special/erf.ts) and is re-exported here for the samplers.
 */
import { detExp } from '../math/index.js';
import { erfc } from '../tensor/special/erf.js';

export { erf } from '../tensor/special/erf.js';

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
  if (x < 0.5) return expSquare(x, 1) * erfc(x);
  return erfcxFraction(x);
}
