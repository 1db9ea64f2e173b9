/**
 * TFP's Poisson sampler (`poisson.py`, `random_poisson` on its non-CPU path, which TFP runs on
 * JAX accelerators and stochax runs everywhere), with TFP's seed structure:
 *
 * 1. `[seedLo, seedHi] = splitSeed(seed)`;
 * 2. transformed rejection (Hörmann 1993, PTRS) for log λ ≥ log 10 over EVERY element (log λ =
 *    100 where λ < 10 or NaN), through the batched Las Vegas loop: each trial splits its seed
 *    into `[uSeed, vSeed]`, u = U − ½, v = U;
 * 3. Knuth's product of uniforms for λ < 10 over EVERY element (λ = 1e−5 elsewhere): each step
 *    splits the seed into `[uSeed, next]` and multiplies by U until the product ≤ e^(−λ), at most
 *    200 steps (an element still running then gives 0, as TFP);
 * 4. select per element; NaN where log λ is NaN.
 *
 * Uniforms are float64 (TFP's internal dtype; float32 in x32 mode, as JAX narrows it).
 */
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { lgamma } from '../../src/tensor/special/gamma.js';
import { defaultFloat } from '../distribution.js';
import { batchedLasVegas, trialUniforms } from './las-vegas.js';
import { detExp, detLog } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

const LOG10 = detLog(10);

/** Poisson draws of `shape` given one log rate per element; `seed` is used as given (no salt). */
export function randomPoisson(shape: readonly number[], logRates: ArrayLike<number>, seed: KeyArray): Float64Array {
  const size = sizeOf(shape);
  const [seedLo, seedHi] = splitSeed(seed) as [KeyArray, KeyArray];
  const high = new Uint8Array(size), safeLog = new Float64Array(size), safeRate = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    const lr = logRates[i]!, good = !Number.isNaN(lr);
    high[i] = good && lr >= LOG10 ? 1 : 0;
    safeLog[i] = high[i] ? lr : 100;
    safeRate[i] = good && !high[i] ? detExp(lr) : 1e-5;
  }
  const hi = poissonHighRate(shape, safeLog, seedHi);
  const lo = poissonLowRate(shape, safeRate, seedLo);
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) out[i] = Number.isNaN(logRates[i]!) ? Number.NaN : high[i] ? hi[i]! : lo[i]!;
  return out;
}

/** TFP's `_random_poisson_high_rate`: transformed rejection with its acceptance tests. */
function poissonHighRate(shape: readonly number[], logRate: Float64Array, seed: KeyArray): Float64Array {
  const size = logRate.length, dtype = defaultFloat();
  const rate = new Float64Array(size), A = new Float64Array(size), B = new Float64Array(size), invAlpha = new Float64Array(size), VR = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    rate[i] = detExp(logRate[i]!);
    B[i] = 0.931 + 2.53 * detExp(0.5 * logRate[i]!);
    A[i] = -0.059 + 0.02483 * B[i]!;
    invAlpha[i] = 1.1239 + 1.1328 / (B[i]! - 3.4);
    VR[i] = 0.9277 - 3.6224 / (B[i]! - 2);
  }
  return batchedLasVegas((trialSeed) => {
    const [uu, vv] = trialUniforms(trialSeed, shape, dtype);
    const values = new Float64Array(size), good = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      const a = A[i]!, b = B[i]!, u = uu[i]! - 0.5, v = vv[i]!, us = 0.5 - Math.abs(u);
      const k = Math.floor((2 * a / us + b) * u + rate[i]! + 0.43);
      values[i] = k;
      let ok = us >= 0.07 && v <= VR[i]!;
      if (!ok) {
        const s = detLog(v * invAlpha[i]! / (a / (us * us) + b));
        ok = s <= -rate[i]! + k * logRate[i]! - lgamma(k + 1);
      }
      good[i] = ok && k >= 0 && (us >= 0.013 || v <= us) ? 1 : 0;
    }
    return { values, good };
  }, seed);
}

/** TFP's `_random_poisson_low_rate`: Knuth's algorithm, at most 200 steps. */
function poissonLowRate(shape: readonly number[], rate: Float64Array, seed: KeyArray): Float64Array {
  const size = rate.length, dtype = defaultFloat();
  const limit = new Float64Array(size), prod = new Float64Array(size).fill(1), samples = new Float64Array(size);
  const going = new Uint8Array(size).fill(1);
  for (let i = 0; i < size; i++) limit[i] = detExp(-rate[i]!);
  let s = seed, any = size > 0;
  for (let iter = 0; any && iter < 200; iter++) {
    const [uSeed, next] = splitSeed(s) as [KeyArray, KeyArray];
    const u = samplersUniform(shape, { seed: uSeed, dtype }).data as Float64Array | Float32Array;
    any = false;
    for (let i = 0; i < size; i++) {
      prod[i]! *= u[i]!;
      if (going[i] && prod[i]! <= limit[i]!) { samples[i] = iter; going[i] = 0; }
      if (going[i]) any = true;
    }
    s = next;
  }
  return samples;
}
