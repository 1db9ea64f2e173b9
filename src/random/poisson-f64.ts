/**
 * Poisson draws at any rate in float64, for the rates where the JAX/TFP-faithful samplers cannot
 * be used (`samplers.poisson` above Knuth's 10⁶ steps, `Generator.poisson` above the float32
 * range where JAX's rejection test is coarse): Hörmann's transformed rejection with squeeze
 * (PTRS, "The transformed rejection method for generating Poisson random variables", 1993) in
 * float64, with the log-probability of the acceptance test written as
 * −λ·((1 + δ) log1p(δ) − δ) − ½ ln(2πk) − s(k), δ = (k − λ)/λ and s Stirling's error term, so it
 * keeps its digits at any λ (the textbook k ln λ − λ − ln k! loses them all near λ = 1e15).
 * Counts are exact integers up to 2^53; above, they are the nearest doubles.
 */
import type { Modes } from '../config.js';
import { detLog } from '../math/index.js';
import { lgamma, log1pmx, stirlingError } from '../tensor/special/gamma.js';
import { splitKeys, type KeyArray } from './key-array.js';
import { uniformUnit } from './uniform.js';

const LN_2PI = 1.8378770664093453; // ln 2π

/** ln P(K = k) for K ~ Poisson(λ), k ≥ 0 an integer, λ > 0, without cancellation at large λ. */
export function poissonLogPmf(k: number, lam: number): number {
  if (k === 0) return -lam;
  if (k < 10) return k * detLog(lam) - lam - lgamma(k + 1);
  const d = (k - lam) / lam;
  // ln Γ(k + 1) = (k + ½) ln k − k + ½ ln 2π + s(k)
  return -lam * ((1 + d) * log1pmx(d) + d * d) - 0.5 * (LN_2PI + detLog(k)) - stirlingError(k);
}

/**
 * Poisson(λ) draws for λ ≥ 10 into `out[idx[j]] = draw(lam[j])`, from `key` alone: each round
 * splits the key into `[next, s0, s1]` and gives every pending element the uniforms u (of s0) and
 * v (of s1) at its own position j, so a draw depends only on the key, j and λ.
 */
export function poissonPtrs64(key: KeyArray, lam: ArrayLike<number>, idx: ArrayLike<number>, out: Float64Array, modes: Modes): void {
  const n = lam.length;
  const b = new Float64Array(n), a = new Float64Array(n), invAlpha = new Float64Array(n), vr = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const l = lam[j]!;
    b[j] = 0.931 + 2.53 * Math.sqrt(l);
    a[j] = -0.059 + 0.02483 * b[j]!;
    invAlpha[j] = 1.1239 + 1.1328 / (b[j]! - 3.4);
    vr[j] = 0.9277 - 3.6224 / (b[j]! - 2);
  }
  const done = new Uint8Array(n);
  let pending = n, rng = key;
  while (pending > 0) {
    const [next, s0, s1] = splitKeys(rng, 3, modes) as [KeyArray, KeyArray, KeyArray];
    rng = next;
    const us0 = uniformUnit(s0, n, 'float64', modes), vs = uniformUnit(s1, n, 'float64', modes);
    for (let j = 0; j < n; j++) {
      if (done[j]) continue;
      const l = lam[j]!, bj = b[j]!, aj = a[j]!;
      const u = us0[j]! - 0.5, v = vs[j]!, us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * aj) / us + bj) * u + l + 0.43);
      let accept = us >= 0.07 && v <= vr[j]!;
      if (!accept) {
        if (k < 0 || (us < 0.013 && v > us)) continue;
        accept = detLog((v * invAlpha[j]!) / (aj / (us * us) + bj)) <= poissonLogPmf(k, l);
      }
      if (!accept) continue;
      out[idx[j]!] = k;
      done[j] = 1;
      pending--;
    }
  }
}
