/**
 * One-dimensional slice sampling for a batch of chains (TFP's
 * `mcmc/internal/slice_sampler_utils.py`, Neal 2003): a slice height below the current log
 * density, the doubling procedure (Fig. 4) precomputed for every doubling, then shrinkage
 * (Fig. 5) with the reversibility test (Fig. 6). Works on plain arrays with one value per chain;
 * `target` maps positions (one per chain) to log densities (one per chain).
 */
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { uniform } from '../../src/samplers/uniform.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import { detExp } from '../../src/math/index.js';

/** Log densities (one per chain) at positions (one per chain). */
export type OneDimTarget = (x: Float64Array) => Float64Array;

export interface SliceOneDimResult {
  /** The next position of each chain. */
  readonly x: Float64Array;
  /** The log density there. */
  readonly logProb: Float64Array;
  /** Whether the doubling found an interval with both ends outside the slice. */
  readonly boundsSatisfied: Uint8Array;
  readonly upperBounds: Float64Array;
  readonly lowerBounds: Float64Array;
}

/** Guards against a target that never lets a loop end (TFP loops without a bound). */
const MAX_LOOPS = 100_000;

/** sigmoid(0.5) in float32: TFP's doubling coin `Bernoulli(0.5)` takes 0.5 as its logit. */
const COIN_P = Math.fround(0.622459352016449);   // float32 0x3f1f597f, the bits of TFP on JAX's sigmoid(0.5) in float32

const allSet = (a: Uint8Array): boolean => a.every((v) => v === 1);

/**
 * The doubling procedure, as TFP: `[leftSeed, incrementsSeed] = splitSeed(seed, { salt:
 * 'slice_bounds_by_doubling' })`; the initial left end is `x0 + step·U(−1, 0)`; at doubling k the
 * width is `2^k·step` and the left end has moved left by the widths of the earlier doublings
 * whose coin came up 1: TFP's `Bernoulli(0.5)`, whose first argument is the logit, so P(1) =
 * sigmoid(0.5) ≈ 0.6225 in float32 (`U < p` with U float32, shape `[maxDoublings + 1, chains]`;
 * the interval still contains the slice, only its growth leans left). A chain's interval is the first whose both ends are
 * outside the slice, or the widest. (TFP evaluates every doubling; this stops once every chain
 * has found its interval, which changes no result.)
 */
export function sliceBoundsByDoubling(
  x0: Float64Array, target: OneDimTarget, logHeights: Float64Array, maxDoublings: number, step: Float64Array,
  seed: KeyArray, dtype: FloatDType,
): { upper: Float64Array; lower: Float64Array; bothOk: Uint8Array } {
  const n = x0.length, K = maxDoublings + 1;
  const [leftSeed, incrementsSeed] = splitSeed(seed, { salt: 'slice_bounds_by_doubling' }) as [KeyArray, KeyArray];
  const u = uniform([n], { minval: -1, maxval: 0, dtype, seed: leftSeed }).data as Float64Array;
  const coins = uniform([K * n], { dtype: 'float32', seed: incrementsSeed }).data as Float32Array;
  const left0 = new Float64Array(n), inc = new Float64Array(n);
  for (let c = 0; c < n; c++) left0[c] = x0[c]! + step[c]! * u[c]!;
  const lower = new Float64Array(n), upper = new Float64Array(n), found = new Uint8Array(n);
  const left = new Float64Array(n), right = new Float64Array(n);
  for (let k = 0; k < K; k++) {
    const mult = 2 ** k;
    for (let c = 0; c < n; c++) {
      const w = mult * step[c]!;
      left[c] = left0[c]! - inc[c]!;
      right[c] = left[c]! + w;
      if (coins[k * n + c]! < COIN_P) inc[c] = inc[c]! + w;
    }
    const lv = target(left), rv = target(right);
    for (let c = 0; c < n; c++) {
      if (found[c]) continue;
      const ok = lv[c]! < logHeights[c]! && rv[c]! < logHeights[c]!;
      if (ok || k === K - 1) { lower[c] = left[c]!; upper[c] = right[c]!; }
      if (ok) found[c] = 1;
    }
    if (allSet(found)) break;
  }
  return { upper, lower, bothOk: found };
}

/**
 * Neal's reversibility test (Fig. 6) for the undecided chains: retrace the doubling from the
 * proposal; if an interval separates the proposal from `x0` and both of its ends are outside
 * the slice, the proposal is unacceptable. (The target is only evaluated in rounds where some
 * undecided chain is separated, the only rounds whose values matter.)
 */
function testAcceptance(
  x0: Float64Array, target: OneDimTarget, decided0: Uint8Array, logHeights: Float64Array, xProposed: Float64Array,
  step: Float64Array, lower: Float64Array, upper: Float64Array,
): Uint8Array {
  const n = x0.length;
  const acceptable = new Uint8Array(n).fill(1), decided = decided0.slice(), d = new Uint8Array(n);
  const left = lower.slice(), right = upper.slice();
  for (let loop = 0; !allSet(decided); loop++) {
    if (loop > MAX_LOOPS) throw new RangeError('SliceSampler: the reversibility test did not terminate; is `targetLogProbFn` deterministic?');
    let needed = false;
    for (let c = 0; c < n; c++) {
      const mid = (left[c]! + right[c]!) / 2, xp = xProposed[c]!, xi = x0[c]!;
      if ((xi < mid && xp >= mid) || (xp < mid && xi >= mid)) d[c] = 1;
      if (xp < mid) right[c] = mid;
      if (xp >= mid) left[c] = mid;
      if (d[c] && !decided[c]) needed = true;
    }
    const lv = needed ? target(left) : undefined, rv = needed ? target(right) : undefined;
    for (let c = 0; c < n; c++) {
      const unacceptable = d[c] === 1 && lv !== undefined && logHeights[c]! >= lv[c]! && logHeights[c]! >= rv![c]!;
      const nowDecided = !decided[c] && unacceptable;
      if (nowDecided) acceptable[c] = 0;
      if (decided[c] || right[c]! - left[c]! <= 1.1 * step[c]! || nowDecided) decided[c] = 1;
    }
  }
  return acceptable;
}

/**
 * Shrinkage (Neal's Fig. 5): draw uniformly in the interval, accept if inside the slice and
 * reversible, else move the end on the proposal's side of `x0` to it. Each round splits the
 * carried seed `[proportionsSeed, next]`, as TFP. The log density at the accepted point is kept
 * from the round that accepted it (TFP evaluates the target there once more: the same values,
 * since a chain's log density depends on that chain alone).
 */
function sampleWithShrinkage(
  x0: Float64Array, target: OneDimTarget, logHeights: Float64Array, step: Float64Array,
  lower: Float64Array, upper: Float64Array, seed: KeyArray, dtype: FloatDType,
): { x: Float64Array; logProb: Float64Array } {
  const n = x0.length;
  let key = sanitizeSeed(seed);
  const found = new Uint8Array(n), left = lower.slice(), right = upper.slice();
  const x = x0.slice(), logProb = new Float64Array(n);
  for (let loop = 0; !allSet(found); loop++) {
    if (loop > MAX_LOOPS) throw new RangeError('SliceSampler: shrinkage did not terminate; is `targetLogProbFn` deterministic?');
    const [proportionsSeed, next] = splitSeed(key) as [KeyArray, KeyArray];
    key = next;
    const p = uniform([n], { dtype, seed: proportionsSeed }).data as Float64Array;
    for (let c = 0; c < n; c++) if (!found[c]) x[c] = left[c]! + p[c]! * (right[c]! - left[c]!);
    const acceptable = testAcceptance(x0, target, found, logHeights, x, step, left, right);
    const lp = target(x);
    for (let c = 0; c < n; c++) {
      if (found[c]) continue;
      if (logHeights[c]! < lp[c]! && acceptable[c]) { found[c] = 1; logProb[c] = lp[c]!; }
      if (x[c]! < x0[c]!) left[c] = x[c]!;
      else right[c] = x[c]!;
    }
  }
  return { x, logProb };
}

/**
 * One slice-sampling update of every chain along its line (TFP's `slice_sampler_one_dim`):
 * `[gammaSeed, boundsSeed, sampleSeed] = splitSeed(seed, { n: 3, salt: 'ssu.slice_sampler_one_dim' })`;
 * the slice height is `target(x0) − E` with E ~ Gamma(1, 1) drawn by TFP's `random_gamma` from
 * `gammaSeed`; then doubling from `boundsSeed` and shrinkage from `sampleSeed`.
 *
 * @param logProb0 the target at `x0` (TFP evaluates it again; the value is the same).
 */
export function sliceSamplerOneDim(
  target: OneDimTarget, x0: Float64Array, logProb0: Float64Array, step: Float64Array, maxDoublings: number,
  seed: KeyArray, dtype: FloatDType,
): SliceOneDimResult {
  const n = x0.length;
  const [gammaSeed, boundsSeed, sampleSeed] = splitSeed(seed, { n: 3, salt: 'ssu.slice_sampler_one_dim' }) as [KeyArray, KeyArray, KeyArray];
  const logE = randomLogGamma([n], [1], null, gammaSeed, dtype);
  const logHeights = new Float64Array(n);
  for (let c = 0; c < n; c++) logHeights[c] = logProb0[c]! - detExp(logE[c]!);
  const { upper, lower, bothOk } = sliceBoundsByDoubling(x0, target, logHeights, maxDoublings, step, boundsSeed, dtype);
  const { x, logProb } = sampleWithShrinkage(x0, target, logHeights, step, lower, upper, sampleSeed, dtype);
  return { x, logProb, boundsSatisfied: bothOk, upperBounds: upper, lowerBounds: lower };
}
