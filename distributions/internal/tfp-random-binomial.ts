/**
 * TFP's binomial sampler (`binomial.py`, `_random_binomial` on its non-CPU path, which is what
 * TFP runs on JAX accelerators and what stochax runs everywhere), with TFP's seed structure:
 *
 * 1. `[inversionSeed, btrsSeed] = splitSeed(seed)`;
 * 2. p is set to 0 where `count ≤ 0`; q = min(p, 1 − p) (q = 0.01 where q ≤ 0 or NaN);
 * 3. binomial inversion on EVERY element (count 0 where count·q ≥ 10): a loop that splits the
 *    seed into `[uSeed, next]`, draws u ~ U[0, 1) of the full shape, adds the geometric
 *    ⌈log u / log1p(−q)⌉ to a running sum and counts the draws whose sum stays ≤ count, until no
 *    element continues;
 * 4. BTRS (Hörmann 1993, transformed rejection with squeeze) on EVERY element (count 10000,
 *    q = ½ where inversion is used), through the batched Las Vegas loop: each trial splits its
 *    seed into `[uSeed, vSeed]`, u = U − ½, v = U;
 * 5. select per element, 0 where q ≤ 0, NaN where p is NaN, and count − k where p ≥ ½.
 *
 * Uniforms are drawn in the distribution's dtype (TFP: `counts.dtype`); the arithmetic is float64.
 * `sampleBinomial` adds what `Binomial._sample_n` does first: the salt `'binomial'`.
 */
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { batchedLasVegas, trialUniforms } from './las-vegas.js';
import { detLog, detLog1p } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

/**
 * Binomial(count, p) draws of `shape` (TFP's `_random_binomial(shape=[], ...)` with the parameters
 * already broadcast to `shape`); `seed` is used as given (no salt).
 */
export function randomBinomial(shape: readonly number[], counts: ArrayLike<number>, probs: ArrayLike<number>, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = sizeOf(shape);
  const [inversionSeed, btrsSeed] = splitSeed(seed) as [KeyArray, KeyArray];
  const q = new Float64Array(size), invCounts = new Float64Array(size), btrsCounts = new Float64Array(size), btrsQ = new Float64Array(size);
  const useInversion = new Uint8Array(size), ltHalf = new Uint8Array(size), qBad = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const n = counts[i]!, p = n > 0 ? probs[i]! : 0;
    ltHalf[i] = p < 0.5 ? 1 : 0;
    let qi = ltHalf[i] ? p : 1 - p;
    if (Number.isNaN(qi)) { qBad[i] = 2; qi = 0.01; } else if (qi <= 0) { qBad[i] = 1; qi = 0.01; }
    q[i] = qi;
    useInversion[i] = n * qi < 10 ? 1 : 0;
    invCounts[i] = useInversion[i] ? n : 0;
    btrsCounts[i] = useInversion[i] ? 10000 : n;
    btrsQ[i] = useInversion[i] ? 0.5 : qi;
  }
  const inv = binomialInversion(shape, invCounts, q, inversionSeed, dtype);
  const btrs = binomialBtrs(shape, btrsCounts, btrsQ, btrsSeed, dtype);
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    let s = useInversion[i] ? inv[i]! : btrs[i]!;
    if (qBad[i] === 1) s = 0;
    else if (qBad[i] === 2) s = Number.NaN;
    out[i] = ltHalf[i] ? s : counts[i]! - s;
  }
  return out;
}

/** What `Binomial(total_count, probs).sample(seed)` draws: `randomBinomial` under the salt `'binomial'`, p = 0 where count ≤ 0. */
export function sampleBinomial(shape: readonly number[], counts: ArrayLike<number>, probs: ArrayLike<number>, seed: KeyArray, dtype: FloatDType): Float64Array {
  return randomBinomial(shape, counts, probs, sanitizeSeed(seed, { salt: 'binomial' }), dtype);
}

/** Counts the geometric(q) draws whose running sum stays ≤ count (TFP's `_binomial_inversion`). */
function binomialInversion(shape: readonly number[], counts: Float64Array, q: Float64Array, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = counts.length;
  const log1mq = new Float64Array(size), geomSum = new Float64Array(size), numGeom = new Float64Array(size);
  for (let i = 0; i < size; i++) log1mq[i] = detLog1p(-q[i]!);
  let s = seed, keepGoing = true;
  while (keepGoing) {
    const [uSeed, next] = splitSeed(s) as [KeyArray, KeyArray];
    const u = samplersUniform(shape, { seed: uSeed, dtype }).data as Float64Array | Float32Array;
    keepGoing = false;
    for (let i = 0; i < size; i++) {
      geomSum[i]! += Math.ceil(detLog(u[i]!) / log1mq[i]!);
      if (geomSum[i]! <= counts[i]!) { numGeom[i]! += 1; keepGoing = true; }
    }
    s = next;
  }
  return numGeom;
}

const STIRLING_TAIL = [
  0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
  0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287,
];

/** Stirling's series tail of ln k! (a table below 10), as TFP's `_stirling_approx_tail`. */
function stirlingTail(k: number): number {
  if (k <= 9) return STIRLING_TAIL[Math.min(Math.max(Math.trunc(k), 0), 9)]!;
  const kp1sq = (k + 1) * (k + 1);
  return (1 / 12 - (1 / 360 - 1 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

/** Hörmann's BTRS for count·q ≥ 10 (TFP's `_btrs`, including its log-space acceptance test). */
function binomialBtrs(shape: readonly number[], counts: Float64Array, probs: Float64Array, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = counts.length;
  const A = new Float64Array(size), B = new Float64Array(size), C = new Float64Array(size), R = new Float64Array(size);
  const alpha = new Float64Array(size), M = new Float64Array(size), VR = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const n = counts[i]!, p = probs[i]!;
    const sd = Math.sqrt(n * p * (1 - p));
    B[i] = 1.15 + 2.53 * sd;
    A[i] = -0.0873 + 0.0248 * B[i]! + 0.01 * p;
    C[i] = n * p + 0.5;
    R[i] = p / (1 - p);
    alpha[i] = (2.83 + 5.1 / B[i]!) * sd;
    M[i] = Math.floor((n + 1) * p);
    VR[i] = 0.92 - 4.2 / B[i]!;
  }
  return batchedLasVegas((trialSeed) => {
    const [uu, vv] = trialUniforms(trialSeed, shape, dtype);
    const values = new Float64Array(size), good = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      const n = counts[i]!, a = A[i]!, b = B[i]!, r = R[i]!, m = M[i]!;
      const u = uu[i]! - 0.5, v = vv[i]!, us = 0.5 - Math.abs(u);
      const k = Math.floor((2 * a / us + b) * u + C[i]!);
      values[i] = k;
      if (k < 0 || k > n) continue;
      if (us >= 0.07 && v <= VR[i]!) { good[i] = 1; continue; }
      const lv = detLog(v * alpha[i]! / (a / (us * us) + b));
      const upper = (m + 0.5) * detLog((m + 1) / (r * (n - m + 1)))
        + (n + 1) * detLog((n - m + 1) / (n - k + 1))
        + (k + 0.5) * detLog(r * (n - k + 1) / (k + 1))
        + stirlingTail(m) + stirlingTail(n - m) - stirlingTail(k) - stirlingTail(n - k);
      good[i] = lv <= upper ? 1 : 0;
    }
    return { values, good };
  }, seed);
}
