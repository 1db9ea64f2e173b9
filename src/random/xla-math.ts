/**
 * float32/float64 arithmetic as XLA:CPU performs it in JAX's samplers: fused multiply-adds where
 * LLVM contracts a product into its add, XLA's log1p switch, and XLA's float32 Lanczos lgamma.
 */
import type { FloatDType } from '../tensor/dtype.js';
import { fma32, fma64 } from './float.js';
import { detLog, detLog1p, detSin } from '../math/index.js';

/**
 * a·b + c as XLA:CPU computes a multiply whose only use is an add: LLVM contracts the pair
 * into one fused multiply-add (XLA allows FP-op fusion), so the product is not rounded.
 * Non-finite operands fall back to the plain expression (which is then exact).
 */
export function fmaFor(dtype: FloatDType): (a: number, b: number, c: number) => number {
  if (dtype === 'float32') return fma32;
  return (a, b, c) => {
    const p = a * b;
    return Number.isFinite(p) && Number.isFinite(c) && p !== 0 ? fma64(a, b, c) : p + c;
  };
}

const LOG1P_SMALL = 0.41421356237309504880; // √2 − 1: XLA's switch from its rational log1p to log(1 + x)

/**
 * `log1p(x)` as XLA emits it: a (nearly correctly rounded) rational approximation for
 * |x| < √2 − 1, and `log(1 + x)` with `1 + x` rounded to the dtype above that.
 */
export function log1pXla(x: number, round: (v: number) => number): number {
  return Math.abs(x) < LOG1P_SMALL ? round(detLog1p(x)) : round(detLog(round(1 + x)));
}

// XLA's float32 lgamma (the CHLO decomposition: Lanczos, g = 7, nine coefficients).

const f = Math.fround;
const LANCZOS_BASE = f(0.99999999999980993227684700473478);
const LANCZOS = [
  676.520368121885098567009190444019, -1259.13921672240287047156078755283, 771.3234287776530788486528258894,
  -176.61502916214059906584551354, 12.507343278686904814458936853, -0.13857109526572011689554707,
  9.984369578019570859563e-6, 1.50563273514931155834e-7,
].map(f);
const LANCZOS_G_HALF = 7.5;
const LOG_LANCZOS_G_HALF = f(detLog(7.5));
const INV_LANCZOS_G_HALF = f(1 / 7.5);        // XLA rewrites z / 7.5 as z · (1/7.5)
const LOG_SQRT_2PI = f((detLog(2) + detLog(Math.PI)) / 2);
const LOG_PI = f(detLog(Math.PI));
const PI32 = f(Math.PI);

/**
 * log|Γ(x)| in float32, operation for operation as XLA lowers `lax.lgamma`: z = x − 1 (or −x
 * below ½), a = 1 + Σ cᵢ/(z + i), t = 7.5 + z, log t = log 7.5 + log1p(z/7.5), and
 * log Γ = log √(2π) + (z + ½ − t/log t)·log t + log a, every step rounded to float32 (the
 * product fused into the add, as XLA:CPU contracts it). Below ½ it reflects:
 * log π − log|sin(π·frac)| − lgamma(1 − x). ±∞ gives +∞.
 */
export function lgamma32(x: number): number {
  if (x === Infinity || x === -Infinity) return Infinity;
  const reflect = x < 0.5;
  const z = reflect ? -x : f(x - 1);
  let a = LANCZOS_BASE;
  for (let i = 0; i < 8; i++) a = f(a + f(LANCZOS[i]! / f(z + (i + 1))));
  const t = f(LANCZOS_G_HALF + z);
  const logT = f(LOG_LANCZOS_G_HALF + log1pXla(f(z * INV_LANCZOS_G_HALF), f));
  const sum = f(f(z + 0.5) - f(t / logT));
  const logY = f(fma32(sum, logT, LOG_SQRT_2PI) + f(detLog(a)));
  if (!reflect) return logY;
  const absX = Math.abs(x);
  const frac = f(absX - Math.floor(absX));
  const reduced = frac > 0.5 ? f(1 - frac) : frac;
  const denom = f(detLog(f(detSin(f(PI32 * reduced)))));
  return Number.isFinite(denom) ? f(f(LOG_PI - denom) - logY) : -denom;
}
