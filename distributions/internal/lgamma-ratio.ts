/**
 * ln Γ(x + d) − ln Γ(x) without the cancellation of the plain difference of two large log-gammas:
 * through Stirling's formula, (x − ½)·log1p(d/x) + d·ln(x + d) − d + s(x + d) − s(x) with s the
 * Stirling error, when x and x + d are both ≥ 10. Used by the count distributions whose log
 * mass is a sum of such ratios (BetaBinomial, DirichletMultinomial).
 */
import { lgamma, stirlingError } from '../../src/tensor/special/gamma.js';
import { detLog, detLog1p } from '../../src/math/index.js';

/** ln Γ(x + d) − ln Γ(x) for x > 0, x + d > 0. */
export function lgammaRatio(x: number, d: number): number {
  if (d === 0) return 0;
  const y = x + d;
  if (x < 10 || y < 10) return lgamma(y) - lgamma(x);
  return (x - 0.5) * detLog1p(d / x) + d * detLog(y) - d + stirlingError(y) - stirlingError(x);
}
