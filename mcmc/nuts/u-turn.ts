/**
 * The generalized no-U-turn criterion (Betancourt 2017, appendix A; Hoffman & Gelman 2014 in its
 * original form): the one home of the test that stops both NUTS engines' trees. References:
 * Stan's `base_nuts.hpp` `compute_criterion` (the Stan engine, `mcmc/nuts/stan/nuts-loops.ts` and
 * its WebAssembly twin `wasm/nuts-loops.wat`) and TFP's `has_not_u_turn` in `nuts.py`, as
 * BlackJAX's `iterative_uturn_numpyro` (the TFP engine, `mcmc/nuts/tfp/nuts-tree.ts` and
 * `BatchMetric.isTurning` in `mcmc/internal/metric.ts`).
 *
 * With ρ the sum of the momenta of a (sub)trajectory, both ends included, and p♯ = M⁻¹p the
 * velocities at its two ends, the trajectory goes on while ρ points along both:
 * p♯_beg·ρ and p♯_end·ρ are both positive. A NaN product stops it.
 *
 * **Two conventions, both pinned.** The engines differ where a product is exactly 0, and each
 * engine's draws are pinned (the Stan engine's by its tests and the engine comparison, the TFP
 * engine's by the TFP-on-JAX parity fixtures), so both stay:
 *
 * - Stan: strictly positive ({@link noUTurnStan}); also checked across the seams of each merge
 *   (the first half extended by the second's first point and vice versa, Stan ≥ 2.23);
 * - TFP: non-negative ({@link noUTurnTfp}); checked inside subtrees against checkpoints.
 *
 * The dot products themselves are summed where the momenta live (fused with the joins of
 * `nuts-loops.ts`, per part under the metric in `metric.ts`), in orders that are pinned too; the
 * WebAssembly join repeats `noUTurnStan` as `f64.gt`, and test/mcmc/nuts/stan/nuts-loops.test.ts checks it
 * against the JavaScript.
 */

/**
 * Stan's criterion on the two dot products p♯_beg·ρ and p♯_end·ρ: true (no U-turn, go on) when
 * both are strictly positive.
 * @example
 * noUTurnStan(0.5, 2);   // true
 * noUTurnStan(0, 2);     // false: Stan stops at an exact 0
 */
export function noUTurnStan(sharpBegDotRho: number, sharpEndDotRho: number): boolean {
  return sharpBegDotRho > 0 && sharpEndDotRho > 0;
}

/**
 * TFP's criterion on the two dot products ⟨ρ, p♯_left⟩ and ⟨ρ, p♯_right⟩: true (no U-turn, go
 * on) when both are non-negative.
 * @example
 * noUTurnTfp(0, 2);      // true: TFP goes on at an exact 0
 * noUTurnTfp(NaN, 2);    // false
 */
export function noUTurnTfp(leftDotRho: number, rightDotRho: number): boolean {
  return leftDotRho >= 0 && rightDotRho >= 0;
}
