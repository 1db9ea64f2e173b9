/**
 * The float32 fused multiply-add the deterministic float32 normal transform needs
 * (src/math/normal-det.ts), kept here so that src/math imports nothing above it. Correct
 * rounding makes the result unique, so it equals `fma32` in src/random/float.ts bit for bit.
 */

/**
 * fma(a, b, c) for float32 values a, b, c, rounded once to float32 (ties to even), from float64
 * operations only. a·b is exact in float64 (two 24-bit significands), s = a·b + c is rounded to
 * float64 with its exact error e (Knuth's two-sum), and fround(s) is the answer unless s lies
 * exactly halfway between two float32 values; then the sign of e (or ties-to-even when e = 0)
 * decides.
 *
 * @example
 * fma32(Math.fround(0.1), 3, Math.fround(-0.3));   // -7.450580596923828e-9 (one rounding, not two)
 */
export function fma32(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const r = Math.fround(s);
  const h = s - r;                      // exact (Sterbenz)
  if (h === 0) return r;
  const other = r + 2 * h;              // a float32 only if s is the midpoint of r and other
  if (Math.fround(other) !== other) return r;
  const v = s - p;
  const e = (p - (s - v)) + (c - v);    // a·b + c = s + e exactly
  if (e === 0) return r;                // a true tie: fround chose the even one
  return (e > 0) === (other > r) ? other : r;
}
