/**
 * TFP's pure rejection sampler for gamma variates (`random_gamma_rejection`, Marsaglia & Tsang
 * 2000) in log space, with TFP's seed structure, so every gamma-based distribution (Gamma,
 * Beta, BetaBinomial, Dirichlet, …) consumes randomness the way TFP does:
 *
 * 1. `seed = sanitizeSeed(seed, { salt: 'random_gamma' })`;
 * 2. `[genSeed, fixSeed] = splitSeed(seed, { salt: 'random_gamma' })` (a second salting, as TFP);
 * 3. a batched Las Vegas loop over trials: `[vSeed, uSeed] = splitSeed(trialSeed)`,
 *    x ~ N(0, 1) from vSeed, u ~ U[0, 1) from uSeed, v = 1 + c·x, accept when
 *    v > 0 and log u < x²/2 + d·(1 − v³ + log v³), keeping log v³;
 * 4. log d is added, and for α < 1 the boost log1p(−U)/α with U ~ U[0, 1) from fixSeed;
 * 5. the log rate is subtracted.
 *
 * α = concentration, α' = α + 1 if α < 1 else α, d = α' − 1/3, c = 1/(3√d). A non-positive or NaN
 * concentration gives NaN (computed with α = 100, as TFP). Returns log-gamma draws.
 *
 * Speed without changing a bit: trials write their draws into reused buffers (the samplers'
 * kernels, called directly), and for PRNGs that can compute draw i of a batch alone (the
 * `uniformFloat64At`/`uniformFloat32At` hooks; threefry2x32 has both) the Las Vegas loop runs
 * only two trials on the whole batch and the others on the few elements that decide the result
 * (`batchedLasVegasInPlace`).
 */
import { getModes, type Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normalFill } from '../../src/random/normal.js';
import { normalFromUnit } from '../../src/random/normal-fill.js';
import { uniformFill } from '../../src/random/uniform.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { batchedLasVegasInPlace } from './las-vegas.js';
import { detLog, detLog1p } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

type Floats = Float64Array | Float32Array;

const floats = (dtype: FloatDType, n: number): Floats => (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n));

/**
 * Values idx[0..count) of `normalFill` (normal) or `uniformFill` for a batch of `n`, written to
 * out[0..count), each computed alone by the PRNG's `uniformFloat64At`/`uniformFloat32At` hook
 * (the normal transform of `normalFill` applied after). Only for impls with that hook (`sparse`).
 */
function gather(normal: boolean, key: KeyArray, idx: Int32Array, count: number, n: number, out: Floats, modes: Modes): void {
  const impl = key.impl;
  if (out instanceof Float64Array) for (let j = 0; j < count; j++) out[j] = impl.uniformFloat64At!(key.data, idx[j]!, n, modes);
  else for (let j = 0; j < count; j++) out[j] = impl.uniformFloat32At!(key.data, idx[j]!, n, modes);
  if (normal) normalFromUnit(out, 0, count);
}

/**
 * TFP's acceptance test for x ~ N(0, 1), u ~ U[0, 1): v = 1 + c·x > 0 and
 * log u < x²/2 + d·(1 − v³ + log v³). The squeeze u < 1 − 0.0331·x⁴ implies it, and it fails
 * wherever v ≤ 0 (x ≤ −3√d makes 0.0331·x⁴ ≥ 2.68·d² > 1, as d ≥ 2/3), so it is tested first
 * and most elements skip the two logs.
 */
function accepts(x: number, u: number, c: number, d: number): boolean {
  const x2 = x * x;
  if (u < 1 - 0.0331 * x2 * x2) return true;
  const cx = c * x, v = 1 + cx;
  return v > 0 && detLog(u) < 0.5 * x2 + d * (1 - v * v * v + 3 * detLog1p(cx));
}

/** `accepts` on every element with one c and d (written out: the hot loop). */
function acceptAll(x: Floats, u: Floats, c: number, d: number, xs: Float64Array, rejected: Int32Array): number {
  let k = 0;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!, ui = u[i]!, x2 = xi * xi;
    if (ui < 1 - 0.0331 * x2 * x2) { xs[i] = xi; continue; }
    const cx = c * xi, v = 1 + cx;
    if (v > 0 && detLog(ui) < 0.5 * x2 + d * (1 - v * v * v + 3 * detLog1p(cx))) xs[i] = xi;
    else rejected[k++] = i;
  }
  return k;
}

/**
 * log Gamma(concentration, exp(logRate)) draws of `shape`. `concentration` and `logRate` hold
 * either one value per element of `shape` (already broadcast) or a single value for all.
 * `dtype` is the draws' internal dtype (TFP's output dtype in log space).
 */
export function randomLogGamma(shape: readonly number[], concentration: ArrayLike<number>, logRate: ArrayLike<number> | null, seed: KeyArray, dtype: FloatDType): Float64Array {
  const size = sizeOf(shape);
  const modes = getModes();
  const salted = sanitizeSeed(seed, { salt: 'random_gamma' });
  const [genSeed, fixSeed] = splitSeed(salted, { salt: 'random_gamma' }) as [KeyArray, KeyArray];
  // Per-parameter constants (one set when the concentration is a single value).
  const m = concentration.length, ps = m === 1 ? 0 : 1;
  const alpha = new Float64Array(m), d = new Float64Array(m), c = new Float64Array(m), logd = new Float64Array(m);
  let boosted = false;
  for (let j = 0; j < m; j++) {
    const a = concentration[j]!;
    alpha[j] = a > 0 ? a : 100;
    if (alpha[j]! < 1) boosted = true;
    d[j] = (alpha[j]! < 1 ? alpha[j]! + 1 : alpha[j]!) - 1 / 3;
    c[j] = 1 / (3 * Math.sqrt(d[j]!));
    logd[j] = detLog(d[j]!);
  }
  // A trial draws x ~ N(0, 1) and u ~ U[0, 1) for the whole batch (samplers.normal and
  // samplers.uniform from the halves of its seed) and stores x in xs wherever it accepts.
  // log v³ = 3·log1p(c·x) is computed once at the end for the x of each element's last accepting
  // trial, which is the value TFP keeps. On some elements only, their draws are gathered.
  const x = floats(dtype, size), u = floats(dtype, size), xs = new Float64Array(size);
  const sparse = (dtype === 'float64' ? genSeed.impl.uniformFloat64At : genSeed.impl.uniformFloat32At) !== undefined;
  batchedLasVegasInPlace(size, (trialSeed, idx, count, rejected) => {
    const [vSeed, uSeed] = splitSeed(trialSeed) as [KeyArray, KeyArray];
    let k = 0;
    if (idx === null) {
      normalFill(vSeed, x, modes);
      uniformFill(uSeed, u, modes);
      if (ps === 0) return acceptAll(x, u, c[0]!, d[0]!, xs, rejected);
      for (let i = 0; i < size; i++) {
        if (accepts(x[i]!, u[i]!, c[i]!, d[i]!)) xs[i] = x[i]!;
        else rejected[k++] = i;
      }
      return k;
    }
    const xg = floats(dtype, count), ug = floats(dtype, count);
    gather(true, vSeed, idx, count, size, xg, modes);
    gather(false, uSeed, idx, count, size, ug, modes);
    for (let j = 0; j < count; j++) {
      const i = idx[j]!;
      if (accepts(xg[j]!, ug[j]!, c[i * ps]!, d[i * ps]!)) xs[i] = xg[j]!;
      else rejected[k++] = i;
    }
    return k;
  }, genSeed, sparse);
  // The boost's uniforms come from their own seed, so they are drawn only when some α < 1.
  let fix: Floats | undefined;
  if (boosted) { fix = floats(dtype, size); uniformFill(fixSeed, fix, modes); }
  const draws = xs, rs = logRate === null ? 0 : logRate.length === 1 ? 0 : 1;
  if (m === 1 && rs === 0) {
    // One concentration and at most one log rate: the loop below with the constants hoisted.
    const c0 = c[0]!, logd0 = logd[0]!, a0 = alpha[0]!, lr = logRate === null ? 0 : logRate[0]!;
    if (!(concentration[0]! > 0)) draws.fill(Number.NaN);
    else if (a0 < 1) for (let i = 0; i < size; i++) draws[i] = 3 * detLog1p(c0 * xs[i]!) + logd0 + detLog1p(-fix![i]!) / a0 - lr;
    else for (let i = 0; i < size; i++) draws[i] = 3 * detLog1p(c0 * xs[i]!) + logd0 - lr;
    return draws;
  }
  for (let i = 0; i < size; i++) {
    const j = i * ps;
    let s = 3 * detLog1p(c[j]! * xs[i]!) + logd[j]!;
    if (alpha[j]! < 1) s += detLog1p(-fix![i]!) / alpha[j]!;
    if (!(concentration[j]! > 0)) s = Number.NaN;
    draws[i] = logRate === null ? s : s - logRate[i * rs]!;
  }
  return draws;
}
