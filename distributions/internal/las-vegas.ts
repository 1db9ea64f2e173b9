/**
 * TFP's `batched_las_vegas_algorithm`: run a randomized trial over the whole batch until every
 * element has succeeded once. The seed is split (no salt: TFP dropped its
 * `'batched_las_vegas_algorithm'` salt in 0.12, commit e8dc108) into the first trial's seed and a
 * loop seed; each further trial splits the loop seed again, and wherever it succeeds its value
 * replaces the stored one (even an earlier success), as TFP does.
 */
import type { KeyArray } from '../../src/random/key-array.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import type { FloatDType } from '../../src/tensor/dtype.js';

export interface TrialResult {
  readonly values: Float64Array;
  readonly good: Uint8Array;
}

/**
 * The two uniform draws of one transformed-rejection trial (TFP's binomial and Poisson
 * samplers): `[uSeed, vSeed] = splitSeed(trialSeed)`, then `samplers.uniform(shape)` from each.
 */
export function trialUniforms(trialSeed: KeyArray, shape: readonly number[], dtype: FloatDType): [Float64Array | Float32Array, Float64Array | Float32Array] {
  const [uSeed, vSeed] = splitSeed(trialSeed) as [KeyArray, KeyArray];
  return [
    samplersUniform(shape, { seed: uSeed, dtype }).data as Float64Array | Float32Array,
    samplersUniform(shape, { seed: vSeed, dtype }).data as Float64Array | Float32Array,
  ];
}

export function batchedLasVegas(trial: (seed: KeyArray) => TrialResult, seed: KeyArray): Float64Array {
  const [initSeed, loopSeed] = splitSeed(seed) as [KeyArray, KeyArray];
  const { values, good } = trial(initSeed);
  let loop = loopSeed;
  let pending = good.indexOf(0) >= 0;
  while (pending) {
    const [trialSeed, next] = splitSeed(loop) as [KeyArray, KeyArray];
    const r = trial(trialSeed);
    pending = false;
    for (let i = 0; i < values.length; i++) {
      if (r.good[i]) { values[i] = r.values[i]!; good[i] = 1; }
      else if (!good[i]) pending = true;
    }
    loop = next;
  }
  return values;
}

/**
 * One trial of `batchedLasVegasInPlace`: with `idx === null` on all `size` elements, else on
 * elements idx[0..count) (ascending; only in sparse mode). It stores the candidate of every
 * element it accepts (overwriting whatever was stored), writes the indices it rejects, ascending,
 * to `rejected` (which may be `idx` itself: entry j is written only after idx[j] was read) and
 * returns how many.
 */
export type InPlaceTrial = (seed: KeyArray, idx: Int32Array | null, count: number, rejected: Int32Array) => number;

/**
 * `batchedLasVegas` with the same seeds and the same result (each element keeps its candidate
 * from the last accepting trial up to trial T, the first by which every element has succeeded),
 * for a trial that keeps its own buffers.
 *
 * With `sparse` (for trials whose outcome and candidate for an element depend only on the seed
 * and the element, and can be computed for some elements alone), only what decides the result
 * is evaluated: trial 1 on every element; trials 2, 3, … on the elements still waiting for a
 * first success, until there are none (that is trial T); then trial T on every element, and
 * trials T − 1, …, 2 on the elements every later trial rejected. Elements that no trial from 2
 * to T accepts keep trial 1's candidate, which accepted them (each element succeeds by trial
 * T). So two trials run on the whole batch instead of T. Without `sparse`, every trial runs on
 * every element, as TFP does.
 */
export function batchedLasVegasInPlace(size: number, trial: InPlaceTrial, seed: KeyArray, sparse: boolean): void {
  const [initSeed, loopSeed] = splitSeed(seed) as [KeyArray, KeyArray];
  const idx = new Int32Array(size);   // elements waiting for a first success (then: undecided)
  let count = trial(initSeed, null, size, idx);
  if (!sparse) {
    const rejected = new Int32Array(size);
    for (let loop = loopSeed; count > 0;) {
      const [trialSeed, next] = splitSeed(loop) as [KeyArray, KeyArray];
      const r = trial(trialSeed, null, size, rejected);
      // Still waiting: waiting before and rejected now (both lists ascending).
      let k = 0;
      for (let a = 0, b = 0; a < count && b < r;) {
        const i = idx[a]!, j = rejected[b]!;
        if (i === j) { idx[k++] = i; a++; b++; } else if (i < j) a++; else b++;
      }
      count = k;
      loop = next;
    }
    return;
  }
  const seeds: KeyArray[] = [];   // trials 2, …, T
  for (let loop = loopSeed; count > 0;) {
    const [trialSeed, next] = splitSeed(loop) as [KeyArray, KeyArray];
    seeds.push(trialSeed);
    count = trial(trialSeed, idx, count, idx);
    loop = next;
  }
  if (seeds.length === 0) return;
  count = trial(seeds[seeds.length - 1]!, null, size, idx);
  for (let t = seeds.length - 2; t >= 0 && count > 0; t--) count = trial(seeds[t]!, idx, count, idx);
}
